// A whole radix sort by one workgroup: wavekit::device::RadixSort's path
// for at most TILE = BLOCK * ITEMS 32-bit keys (and u32 values), where
// the multi-tile sort's seven dispatches cost more than the sorting (CUB's
// single-tile sort, DeviceRadixSortSingleTileKernel).
//
// Dispatch 1 workgroup. Thread t loads keys t * ITEMS .. t * ITEMS + ITEMS
// (the blocked arrangement), encoded by encode_key; places at or past n
// hold 0xffffffff, which sorts last and, the sort being stable, after
// every real key of the same bits. `blk::radix_sort_keys_blocked_to_
// striped` (or `_pairs_`) sorts the tile by bits BEGIN_BIT .. END_BIT of
// the encoded keys, an LSD sort of 8-bit digits in workgroup memory
// (keys equal in those bits keep their input order), and leaves thread t
// sorted places k * BLOCK + t, which it writes back decoded.
// Entries: sort_keys, sort_pairs.
// Bindings: 0 keys_in, 1 keys_out (n u32 each: n is keys_out's length),
//   2 values_in, 3 values_out (n u32 each for sort_pairs; any 4 bytes for
//   sort_keys). Every binding is read_write, so keys_in may be keys_out
//   (in place): every key and value is read before the storage barrier,
//   and none is written before it.
// Workgroup memory: the block sort's (`block::radix_sort_keys`: under
// 16 KiB at BLOCK 256 and ITEMS 5, checked at expansion).
// Append: key_order.wgsl (encode_key, decode_key).
#import wavekit::block as blk

const KEY_ORDER = 0u;
const BEGIN_BIT = 0u;
const END_BIT = 32u;
const BLOCK = 256u;
const ITEMS = 5u;

@group(0) @binding(0) var<storage, read_write> keys_in: array<u32>;
@group(0) @binding(1) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(2) var<storage, read_write> values_in: array<u32>;
@group(0) @binding(3) var<storage, read_write> values_out: array<u32>;

/// Thread t's keys, encoded, in the blocked arrangement (0xffffffff past n).
fn load_keys(t: u32, n: u32) -> array<u32, ITEMS> {
    var keys: array<u32, ITEMS>;
    for (var k = 0u; k < ITEMS; k++) {
        let i = t * ITEMS + k;
        keys[k] = 0xffffffffu;
        if i < n {
            keys[k] = encode_key(keys_in[i]);
        }
    }
    return keys;
}

@compute @workgroup_size(BLOCK)
fn sort_keys(@builtin(local_invocation_index) t: u32) {
    let n = arrayLength(&keys_out);
    var keys = load_keys(t, n);
    storageBarrier();
    blk::radix_sort_keys_blocked_to_striped<u32, BLOCK, ITEMS>(&keys, BEGIN_BIT, END_BIT);
    for (var k = 0u; k < ITEMS; k++) {
        let i = k * BLOCK + t;
        if i < n {
            keys_out[i] = decode_key(keys[k]);
        }
    }
}

@compute @workgroup_size(BLOCK)
fn sort_pairs(@builtin(local_invocation_index) t: u32) {
    let n = arrayLength(&keys_out);
    var keys = load_keys(t, n);
    var values: array<u32, ITEMS>;
    for (var k = 0u; k < ITEMS; k++) {
        let i = t * ITEMS + k;
        if i < n {
            values[k] = values_in[i];
        }
    }
    storageBarrier();
    blk::radix_sort_pairs_blocked_to_striped<u32, u32, BLOCK, ITEMS>(&keys, &values, BEGIN_BIT, END_BIT);
    for (var k = 0u; k < ITEMS; k++) {
        let i = k * BLOCK + t;
        if i < n {
            keys_out[i] = decode_key(keys[k]);
            values_out[i] = values[k];
        }
    }
}
