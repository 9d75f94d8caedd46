// One pass of an LSD radix sort of u32 keys (and u32 values): the stable
// scatter of the keys by the 8-bit digit `extractBits(key, SHIFT, 8)`.
//
// Reduce-then-scan, as CUB's DeviceRadixSort before OneSweep. The host
// composes this file once per pass with `const SHIFT` set to 0, 8, 16, 24
// (the digit is a compile-time argument of the radix rank) and `const PAIRS`
// to true when values travel with the keys; each pass is three steps:
//   upsweep: partition p (the linear workgroup index `wid.x + wid.y * nwg.x`,
//     P workgroups, those at or past P return) counts the digits of its keys
//     with workgroup atomics and writes counts[digit * P + p] (digit-major).
//   the device scan (host side): offsets = the exclusive prefix sum of the
//     whole 256 x P count matrix, so offsets[d * P + p] is where partition
//     p's keys with digit d start in the output.
//   downsweep: partition p walks its keys in order, one slice of 256 keys
//     (one per thread) at a time: `blk::radix_rank_match_atomic_or<256, 8,
//     SHIFT, 8>` gives each key its stable rank in the slice, and after the
//     call `wk_blk_radix_bins__8[d]` / `wk_blk_radix_excl_prefix__8[d]`
//     hold the slice's count of digit d and its exclusive prefix. Key t of
//     the slice goes to running[d] + rank - excl[d], where running[d] starts
//     at offsets[d * P + p] and grows by bins[d] after every slice. Slices are
//     taken in key order and ranks are stable, so the pass is stable.
// Partitions: the keys are cut into tiles of TILE = BLOCK * ITEMS keys; each
//   partition takes ceil(tiles / P) consecutive tiles (the last ones may get
//   fewer or none), so the count matrix stays small (P <= 4096, chosen by
//   the host) however large n is. A thread loads its ITEMS keys of a tile
//   up front (ITEMS loads in flight), then ranks the tile's ITEMS slices.
// Bindings: 0 keys_in (n u32), 1 keys_out (n u32), 2 values_in, 3 values_out
//   (n u32 each when PAIRS; any 4-byte buffers otherwise), 4 counts
//   (256 * P u32: P is arrayLength / 256), 5 offsets (256 * P u32, the scan
//   of counts). Ping-pong: the host swaps keys_in / keys_out between passes.
// Cost per key and pass: upsweep 1 read + 1 workgroup atomicAdd; downsweep
//   1 read, 1 (scattered) write, and its share of one radix rank per slice
//   (6 workgroup barriers + one 256-thread block exclusive scan, 1 workgroup
//   atomicOr per key); with PAIRS one more read and write per key.
// Workgroup memory: the radix rank's (about 10 KiB at 32 lanes) + 2 KiB.
// Append: key_order.wgsl (encode_key, decode_key).
#import wavekit::block as blk

const SHIFT = 0u;
// Bits of this pass's digit: 8, or fewer in a last pass that ends at the
// caller's end bit (wavekit::device::RadixSort sets it).
const DIGIT_BITS = 8u;
// Key order (see encode_key in key_order.wgsl): 0 u32, 1 i32, 2 f32. The first pass
// encodes the keys it reads, the last decodes those it writes; with u32
// keys both are the identity.
const KEY_ORDER = 0u;
const FIRST_PASS = true;
const LAST_PASS = false;
const PAIRS = false;
const BLOCK = 256u;
const RADIX = 256u;
const ITEMS = 8u;
const TILE = BLOCK * ITEMS;

@group(0) @binding(0) var<storage, read> keys_in: array<u32>;
@group(0) @binding(1) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(2) var<storage, read> values_in: array<u32>;
@group(0) @binding(3) var<storage, read_write> values_out: array<u32>;
@group(0) @binding(4) var<storage, read_write> counts: array<u32>;
@group(0) @binding(5) var<storage, read> offsets: array<u32>;

var<workgroup> histogram: array<atomic<u32>, RADIX>;
// Two banks of the running output offset of each digit: slice s reads one
// and writes the other, so no barrier beyond the rank's is needed.
var<workgroup> running: array<u32, 512>;

// The pass's constants as the functions radix_key64.wgsl calls (which
// radix_onesweep.wgsl computes at run time).
fn pass_shift() -> u32 {
    return SHIFT;
}

fn pass_bits() -> u32 {
    return DIGIT_BITS;
}

fn pass_first() -> bool {
    return FIRST_PASS;
}

fn pass_last() -> bool {
    return LAST_PASS;
}

// Key `i` of keys_in, encoded when this pass reads the caller's keys.
fn load_key(i: u32) -> u32 {
    let k = keys_in[i];
    if FIRST_PASS {
        return encode_key(k);
    }
    return k;
}

// `key` as keys_out holds it: decoded when this pass writes the result.
fn store_key(key: u32) -> u32 {
    if LAST_PASS {
        return decode_key(key);
    }
    return key;
}

// The keys [begin, end) of partition p of `parts`.
fn keys_of_partition(p: u32, parts: u32) -> vec2<u32> {
    let n = arrayLength(&keys_in);
    let tiles = (n + TILE - 1u) / TILE;
    let per = (tiles + parts - 1u) / parts;
    let begin = min(p * per, tiles) * TILE;
    let end = min(min((p + 1u) * per, tiles) * TILE, n);
    return vec2<u32>(begin, max(begin, end));
}

@compute @workgroup_size(BLOCK)
fn upsweep(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
           @builtin(num_workgroups) nwg: vec3<u32>) {
    let parts = arrayLength(&counts) / RADIX;
    let p = wid.x + wid.y * nwg.x;
    if p >= parts {
        return;
    }
    atomicStore(&histogram[t], 0u);
    workgroupBarrier();
    let span = keys_of_partition(p, parts);
    for (var base = span.x; base < span.y; base += TILE) {
        var keys: array<u32, ITEMS>;
        for (var s = 0u; s < ITEMS; s++) {
            let i = base + s * BLOCK + t;
            if i < span.y {
                keys[s] = load_key(i);
            }
        }
        for (var s = 0u; s < ITEMS; s++) {
            if base + s * BLOCK + t < span.y {
                atomicAdd(&histogram[extractBits(keys[s], SHIFT, DIGIT_BITS)], 1u);
            }
        }
    }
    workgroupBarrier();
    counts[t * parts + p] = atomicLoad(&histogram[t]);
}

@compute @workgroup_size(BLOCK)
fn downsweep(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
             @builtin(num_workgroups) nwg: vec3<u32>) {
    let parts = arrayLength(&counts) / RADIX;
    let p = wid.x + wid.y * nwg.x;
    if p >= parts {
        return;
    }
    let span = keys_of_partition(p, parts);
    // Thread t owns digit t; the rank's leading barrier publishes this.
    running[t] = offsets[t * parts + p];
    var bank = 0u;
    for (var base = span.x; base < span.y; base += TILE) {
        var keys: array<u32, ITEMS>;
        var values: array<u32, ITEMS>;
        for (var s = 0u; s < ITEMS; s++) {
            let i = base + s * BLOCK + t;
            if i < span.y {
                keys[s] = load_key(i);
                if PAIRS {
                    values[s] = values_in[i];
                }
            }
        }
        for (var s = 0u; s < ITEMS; s++) {
            let key = keys[s];
            // Every thread ranks, in or out of range (uniform control flow);
            // a key's place depends only on the keys of lower threads, so
            // the out-of-range ones (the slice's last threads) change nothing.
            let rank = blk::radix_rank_match_atomic_or<RADIX, 8, SHIFT, DIGIT_BITS>(key);
            let digit = extractBits(key, SHIFT, DIGIT_BITS);
            if base + s * BLOCK + t < span.y {
                let at = running[bank * RADIX + digit] + rank - wk_blk_radix_excl_prefix__8[digit];
                keys_out[at] = store_key(key);
                if PAIRS {
                    values_out[at] = values[s];
                }
            }
            running[(bank ^ 1u) * RADIX + t] = running[bank * RADIX + t] + wk_blk_radix_bins__8[t];
            bank ^= 1u;
        }
    }
}

