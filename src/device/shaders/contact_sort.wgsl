// Many independent small key/value sorts of one segment length: the
// contact-pruning pattern. Each body owns a segment of 2^LOG2_SEG contact
// slots (key: f32 signed distance, value: u32 contact id; empty slots hold
// the sentinel (+inf, 0xffffffff)); every segment is sorted ascending on
// (key, value), so the body's deepest contacts come first and the sentinels
// last.
//
// Dispatch: ceil(n / (256 ITEMS)) workgroups of BLOCK = 256 threads,
//   spilling into y past 65535 (the host's `grid`); workgroup g = wid.x +
//   wid.y * nwg.x sorts elements g * 256 ITEMS .. (g + 1) * 256 ITEMS, in
//   ITEMS groups of 256 (256 / 2^LOG2_SEG segments each), one element of
//   each group per thread: every thread loads its ITEMS elements first, so
//   that their loads (and then their sorts' shuffles) overlap. Elements
//   past n read as sentinels and are not written (so n need not be a
//   multiple of the segment).
// Placement: thread (subgroup s, lane l) handles element s * S + l of each
//   group (S the subgroup size), so each aligned 2^LOG2_TILE-lane tile of a
//   subgroup holds consecutive elements, whatever order the driver gives
//   subgroups their threads in.
// Sort: `sg::bitonic_sort_kv_tiled<f32, u32, LOG2_TILE>` sorts each tile
//   of 2^LOG2_TILE lanes in registers: LOG2_TILE (LOG2_TILE + 1) / 2
//   compare-exchange stages of 2 shuffle_xor each (12, 20, 30 shuffles per
//   element for 8, 16, 32-element segments), no workgroup memory, no
//   barrier. The host sets LOG2_TILE = min(LOG2_SEG, log2 of the smallest
//   subgroup size), so on 32-lane (and wider) subgroups that is the whole
//   sort. Where subgroups are narrower than a segment (lavapipe's 4, 8 or 16
//   lanes), the sorted tiles are merged pairwise through workgroup memory,
//   LOG2_SEG - LOG2_TILE levels: each element finds its place in the other
//   run by binary search (log2(run) + 1 reads), strictly-less from the lower
//   run and less-or-equal from the upper, then is written there; 2 barriers
//   per level.
// Keys: the bits of u32, i32 or f32 keys (KEY_ORDER 0, 1, 2; f32 by
//   default), encoded to u32 of the same order (radix_sort.wgsl's flip: f32
//   -0 before +0, NaNs by their bits) and decoded on the way out, so the
//   sort compares u32; the empty slot encodes to the largest key.
// Parameters (set by name by the host): LOG2_SEG, LOG2_TILE, KEY_ORDER, PAIRS (false: keys alone;
//   the value bindings are then bound but never read or written, and ties
//   of equal keys go either way, which equal keys cannot show), ITEMS (the
//   groups of 256 per workgroup; the host's grid must match).
//   wavekit::device::FixedSegmentedSort, the demos' `contact_sort` and the
//   browser page run this file.
// Bindings: 0 keys_in (array<u32>, n), 1 values_in (array<u32>, n),
//   2 keys_out (array<u32>, n), 3 values_out (array<u32>, n). Results in the
//   same places as their segment's inputs.
// Append: key_order.wgsl (encode_key, decode_key), sort_merge.wgsl (less, merge_tiles).
#import wavekit::subgroup as sg

const LOG2_SEG = 5u;
const LOG2_TILE = 5u;
const KEY_ORDER = 2u;
const PAIRS = true;
const BLOCK = 256u;
const ITEMS = 1u;

@group(0) @binding(0) var<storage, read> keys_in: array<u32>;
@group(0) @binding(1) var<storage, read> values_in: array<u32>;
@group(0) @binding(2) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(3) var<storage, read_write> values_out: array<u32>;

var<workgroup> merge_keys: array<u32, BLOCK>;
var<workgroup> merge_values: array<u32, BLOCK>;


@compute @workgroup_size(BLOCK)
fn main(@builtin(subgroup_id) subgroup: u32, @builtin(subgroup_invocation_id) lane: u32,
        @builtin(subgroup_size) size: u32, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
    let n = arrayLength(&keys_in);
    let first = (wid.x + wid.y * nwg.x) * BLOCK * ITEMS;
    if first >= n {
        return;
    }
    let p = subgroup * size + lane;
    var keys: array<u32, ITEMS>;
    var values: array<u32, ITEMS>;
    for (var s = 0u; s < ITEMS; s++) {
        let i = first + s * BLOCK + p;
        keys[s] = 0xffffffffu;
        values[s] = 0xffffffffu;
        if i < n {
            keys[s] = encode_key(keys_in[i]);
            values[s] = 0u;
            if PAIRS {
                values[s] = values_in[i];
            }
        }
    }
    for (var s = 0u; s < ITEMS; s++) {
        let sorted = sg::bitonic_sort_kv_tiled<u32, u32, LOG2_TILE>(keys[s], values[s]);
        keys[s] = sorted.key;
        values[s] = sorted.value;
        if LOG2_TILE < LOG2_SEG {
            let merged = merge_tiles(p, keys[s], values[s]);
            keys[s] = merged.x;
            values[s] = merged.y;
        }
    }
    for (var s = 0u; s < ITEMS; s++) {
        let i = first + s * BLOCK + p;
        if i < n {
            keys_out[i] = decode_key(keys[s]);
            if PAIRS {
                values_out[i] = values[s];
            }
        }
    }
}
