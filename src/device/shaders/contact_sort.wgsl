// Many independent small key/value sorts of one segment length: the
// contact-pruning pattern. Each body owns a segment of 2^LOG2_SEG contact
// slots (key: f32 signed distance, value: u32 contact id; empty slots hold
// the sentinel (+inf, 0xffffffff)); every segment is sorted ascending on
// (key, value), so the body's deepest contacts come first and the sentinels
// last.
//
// Dispatch: ceil(n / (256 ITEMS GRAIN)) workgroups of BLOCK = 256 threads,
//   spilling into y past 65535 (the host's `grid`); workgroup g = wid.x +
//   wid.y * nwg.x sorts elements g * 256 ITEMS .. (g + 1) * 256 ITEMS
//   (times GRAIN, see Grains), in
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
// Grains: with GRAIN > 1 a thread sorts GRAIN consecutive elements of a
//   segment instead of one: thread p sorts elements p * GRAIN ..
//   (p + 1) * GRAIN of each group (of 256 GRAIN, the groups one after
//   another), and each aligned tile of 2^LOG2_TILE = 2^LOG2_SEG / GRAIN
//   lanes holds a segment. The group is loaded and stored in rows (thread
//   p: elements c * 256 + p, coalesced) and turned into grains and back
//   through `exchange` (4 barriers, 8 with values). `sort_grains` runs the
//   bitonic network over element e = (lane in tile) * GRAIN + r: its stages
//   of stride below GRAIN compare registers of one thread (no shuffle), the
//   others shuffle with lane ^ (stride / GRAIN). For segments of 16 in
//   grains of 4 that is 6 shuffles per element (three stages), not 20. No
//   merge through workgroup memory. The host writes `sort_grains` out as
//   straight-line code (its one-line default here returns its input
//   unsorted: a GRAIN above 1 needs the host's).
// Keys: the bits of u32, i32 or f32 keys (KEY_ORDER 0, 1, 2; f32 by
//   default), encoded to u32 of the same order (radix_sort.wgsl's flip: f32
//   -0 before +0, NaNs by their bits) and decoded on the way out, so the
//   sort compares u32; the empty slot encodes to the largest key.
// Parameters (set by name by the host): LOG2_SEG, LOG2_TILE, KEY_ORDER, PAIRS (false: keys alone;
//   the value bindings are then bound but never read or written, and ties
//   of equal keys go either way, which equal keys cannot show), ITEMS (the
//   groups of 256 per workgroup; the host's grid must match), GRAIN (a power of
//   two; above 1, 2^LOG2_TILE * GRAIN must be 2^LOG2_SEG).
//   wavekit::device::FixedSegmentedSort, the demos' `contact_sort` and the
//   browser page run this file.
// Bindings: 0 keys_in (array<u32>, n), 1 values_in (array<u32>, n),
//   2 keys_out (array<u32>, n), 3 values_out (array<u32>, n). Results in the
//   same places as their segment's inputs.
// Append: key_order.wgsl (encode_key, decode_key), sort_merge.wgsl (less, padded).
#import wavekit::subgroup as sg

const LOG2_SEG = 5u;
const LOG2_TILE = 5u;
const KEY_ORDER = 2u;
const PAIRS = true;
const BLOCK = 256u;
const ITEMS = 1u;
const GRAIN = 1u;
const SEG = 1u << LOG2_SEG;

@group(0) @binding(0) var<storage, read> keys_in: array<u32>;
@group(0) @binding(1) var<storage, read> values_in: array<u32>;
@group(0) @binding(2) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(3) var<storage, read_write> values_out: array<u32>;

var<workgroup> merge_keys: array<u32, BLOCK>;
var<workgroup> merge_values: array<u32, BLOCK>;


// Merges the sorted tiles (where subgroups are narrower than a segment) of 2^LOG2_TILE threads of aligned 2^LOG2_SEG-thread
// groups pairwise through workgroup memory, LOG2_SEG - LOG2_TILE levels:
// thread `p`'s pair finds its place in the other run by binary search
// (log2(run) + 1 reads), strictly-less from the lower run and
// less-or-equal from the upper, and is written there; 2 barriers and a
// third per level. Every thread of the workgroup calls it (uniform control
// flow); returns the thread's pair after the merges.
fn merge_tiles(p: u32, key_in: u32, value_in: u32) -> vec2<u32> {
    var key = key_in;
    var value = value_in;
    for (var level = LOG2_TILE; level < LOG2_SEG; level++) {
        merge_keys[p] = key;
        merge_values[p] = value;
        workgroupBarrier();
        let run = 1u << level;
        let pair = p & ~(2u * run - 1u);
        let upper = (p & run) != 0u;
        let other = pair + select(run, 0u, upper);
        // How many of the other run's pairs go before this one.
        var lo = 0u;
        var hi = run;
        while lo < hi {
            let mid = (lo + hi) / 2u;
            let k = merge_keys[other + mid];
            let v = merge_values[other + mid];
            if select(less(k, v, key, value), !less(key, value, k, v), upper) {
                lo = mid + 1u;
            } else {
                hi = mid;
            }
        }
        workgroupBarrier();
        let at = pair + (p & (run - 1u)) + lo;
        merge_keys[at] = key;
        merge_values[at] = value;
        workgroupBarrier();
        key = merge_keys[p];
        value = merge_values[p];
    }
    return vec2<u32>(key, value);
}

/// A thread's GRAIN consecutive pairs of one segment.
struct Grains {
    keys: array<u32, GRAIN>,
    values: array<u32, GRAIN>,
}

/// `g` sorted with the other lanes of its aligned tile of 2^LOG2_TILE lanes
/// (`q`: the lane's place in the tile), ascending on (key, value): the
/// bitonic network over e = q * GRAIN + r, straight-line code that the host
/// writes for the segment and grain (`sort_network::grains`), replacing
/// this line. Every lane of the subgroup calls it (the shuffles).
fn sort_grains(q: u32, g: Grains) -> Grains { return g; }

/// Workgroup memory through which the GRAIN > 1 form loads and stores
/// whole rows (thread p's element c of a row at c * BLOCK + p) and sorts
/// grains (thread p's element r at p * GRAIN + r): one word of padding
/// every 32, so neither side has bank conflicts.
var<workgroup> exchange: array<u32, BLOCK * GRAIN + BLOCK * GRAIN / 32u>;

/// Thread p's `x` moved through `exchange` between a row (element i at
/// i * BLOCK + p) and a grain (elements p * GRAIN + i): into grains where
/// `into_grains`, else back into a row. Every thread of the workgroup calls
/// it (barriers).
fn transpose(p: u32, x: array<u32, GRAIN>, into_grains: bool) -> array<u32, GRAIN> {
    for (var i = 0u; i < GRAIN; i++) {
        exchange[padded(select(p * GRAIN + i, i * BLOCK + p, into_grains))] = x[i];
    }
    workgroupBarrier();
    var y: array<u32, GRAIN>;
    for (var i = 0u; i < GRAIN; i++) {
        y[i] = exchange[padded(select(i * BLOCK + p, p * GRAIN + i, into_grains))];
    }
    workgroupBarrier();
    return y;
}

/// Element i's encoded (key, value), or the empty slot's (the largest
/// pair) past n; without values the value is 0.
fn load_pair(i: u32, n: u32) -> vec2<u32> {
    if i >= n {
        return vec2<u32>(0xffffffffu);
    }
    var value = 0u;
    if PAIRS {
        value = values_in[i];
    }
    return vec2<u32>(encode_key(keys_in[i]), value);
}

/// Stores `pair` (encoded) as element i, unless i is past n.
fn store_pair(i: u32, n: u32, pair: vec2<u32>) {
    if i < n {
        keys_out[i] = decode_key(pair.x);
        if PAIRS {
            values_out[i] = pair.y;
        }
    }
}

/// The GRAIN > 1 form of `main` (ITEMS groups one after another): group s
/// of the workgroup is elements first + s * BLOCK * GRAIN + x for x <
/// BLOCK * GRAIN, loaded and stored a row at a time (element c * BLOCK +
/// p by thread p) and sorted as grains (elements p * GRAIN + r).
fn sort_group_grains(group_first: u32, n: u32, p: u32) {
    let q = p & ((1u << LOG2_TILE) - 1u);
    for (var s = 0u; s < ITEMS; s++) {
        let first = group_first + s * BLOCK * GRAIN;
        // The row's pairs (the same Grains type, element c at c * BLOCK + p).
        var row: Grains;
        for (var c = 0u; c < GRAIN; c++) {
            let pair = load_pair(first + c * BLOCK + p, n);
            row.keys[c] = pair.x;
            row.values[c] = pair.y;
        }
        // Without values, every value is 0: equal keys are equal pairs.
        var g = Grains(transpose(p, row.keys, true), array<u32, GRAIN>());
        if PAIRS {
            g.values = transpose(p, row.values, true);
        }
        g = sort_grains(q, g);
        row.keys = transpose(p, g.keys, false);
        if PAIRS {
            row.values = transpose(p, g.values, false);
        }
        for (var c = 0u; c < GRAIN; c++) {
            store_pair(first + c * BLOCK + p, n, vec2<u32>(row.keys[c], row.values[c]));
        }
    }
}

@compute @workgroup_size(BLOCK)
fn main(@builtin(subgroup_id) subgroup: u32, @builtin(subgroup_invocation_id) lane: u32,
        @builtin(subgroup_size) size: u32, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
    let n = arrayLength(&keys_in);
    let first = (wid.x + wid.y * nwg.x) * BLOCK * ITEMS * GRAIN;
    if first >= n {
        return;
    }
    let p = subgroup * size + lane;
    if GRAIN > 1u {
        sort_group_grains(first, n, p);
        return;
    }
    var keys: array<u32, ITEMS>;
    var values: array<u32, ITEMS>;
    for (var s = 0u; s < ITEMS; s++) {
        let pair = load_pair(first + s * BLOCK + p, n);
        keys[s] = pair.x;
        values[s] = pair.y;
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
        store_pair(first + s * BLOCK + p, n, vec2<u32>(keys[s], values[s]));
    }
}
