// Device-wide stable merge sort of 32-bit keys by a comparator, alone or
// with u32 values (wavekit::device::MergeSort, as CUB's
// DeviceMergeSort::StableSortKeys / SortPairs), and the stable merge of two
// sorted inputs (wavekit::device::Merge, as CUB's DeviceMerge). The order
// is the caller's `less_than(a, b)`, a strict weak order on T (a pure
// function); keys that neither precedes keep their input order (merges:
// the first input's before the second's). The tile is TILE = BLOCK * ITEMS
// keys, ITEMS a thread (CUB's AgentMergeSortPolicy: BLOCK_THREADS,
// ITEMS_PER_THREAD); every kernel but split_tiles runs BLOCK threads, or
// sort_chunk SORT_THREADS in chunks of CHUNK = SORT_THREADS * ITEMS keys.
//
//   sort_chunk (ceil(n / CHUNK) workgroups): each aligned chunk sorted (CUB's
//     AgentBlockSort / BlockMergeSort): loaded striped (coalesced) into
//     workgroup memory and read back blocked (each thread ITEMS consecutive
//     keys), each thread's keys sorted in registers (stable odd-even
//     transposition), then log2(SORT_THREADS) rounds merge the sorted runs of
//     m = 1, 2, 4, ... threads pairwise through workgroup memory (each
//     thread finds its merge-path split in its pair of runs and merges
//     ITEMS keys serially); 2 barriers a round. Stored striped (coalesced)
//     to the outputs where n <= CHUNK, else to run A of the scratch. The
//     keys past n (the last tile) are never compared: each run's count
//     stops at n. (In its own module, with SORTS, its tile is the chunk.)
//   split_tiles (ceil(tiles / SPLIT_BLOCK) workgroups, a thread per tile of
//     TILE outputs), pass p = arrayLength(&pass_info) - 1: the merge-path
//     split of each tile's start in its pair of runs of width w = CHUNK << p
//     (one binary search per tile, CUB's DeviceMergeSortPartitionKernel),
//     into the scratch after the runs.
//   merge_pass (tiles workgroups), pass p: the runs of width w merged
//     pairwise into runs of 2w, from run A (p even) or B (p odd) into the
//     other, or into the outputs once 2w >= n; each workgroup merges one
//     tile between its split and the next (merge_tile, CUB's AgentMerge:
//     both ranges loaded coalesced into workgroup memory, each thread's
//     split found there, ITEMS merged serially, stored coalesced; 3
//     barriers). The host records split_tiles and merge_pass
//     ceil(log2(n / CHUNK)) times.
//   merge (ceil((n_a + n_b) / TILE) workgroups, x and y): the merge of the
//     first input (keys_in, n_a = its length) and the second (keys_b, n_b =
//     arrayLength(&keys_out) - n_a) by merge_tile, each workgroup finding
//     its tile's two splits itself (Merge takes no temp for a partition
//     pass).
//
// Keys are held as their bits (u32) in workgroup memory and the scratch
// and compared as T.
// Parameters (set by name by the host): T (u32, i32, f32); PAIRS; the
// comparator `less_than` (its default: ascending); BLOCK (a power of two,
// 1..=1024) and ITEMS (1..=32), which the host reads back for its grids
// and run widths (WAVEKIT_SHADER_PARAMS may change them); SPLIT_BLOCK;
// SORT_BLOCK and SORTS (sort_chunk's threads, 0 for BLOCK, and its own
// module);
// LOADS_FIRST (true through wgpu) and FULL_TILES (off on CPU adapters),
// how the striped moves load and test their items.
// Workgroup memory: 8 (TILE + 1 + TILE / 32 where ITEMS is even) + 8 bytes
// (sort_chunk's module with SORTS: its TILE is CHUNK).
// Bindings: 0 keys_in, 1 values_in (the sort's input or the merge's first
//   input; values any 4 bytes without PAIRS), 2 keys_b (the merge's second
//   input; any 4 bytes for the sort), 3 values_b (the merge's second
//   input's values; the sort's value runs A and B, n words each, with
//   PAIRS: apart from the keys' so that no binding of a sort of 2^28 pairs
//   exceeds 2 GiB + a split per tile; any 4 bytes without), 4 keys_out, 5
//   values_out, 6 scratch (the sort's keys A, keys B, n words each, then a
//   split per tile), 7 pass_info (p + 1 words, not read).
//   Inputs are array<u32> (bits), compared through bitcast<T>.
// Append: sort_scratch.wgsl (run_key, run_value, store_run).

alias T = u32;
const PAIRS = true;
fn less_than(a: T, b: T) -> bool { return a < b; }

const BLOCK = 256u;
const ITEMS = 17u;
const SPLIT_BLOCK = 256u;
// sort_chunk's threads, SORT_THREADS: BLOCK (SORT_BLOCK 0), or SORT_BLOCK,
// a power of two of at least BLOCK. The sort's first runs are CHUNK =
// SORT_THREADS * ITEMS keys wide, so that more threads there leave fewer
// merge passes (the merges' tile, TILE, divides CHUNK). Where they are not
// BLOCK, the host composes sort_chunk apart with SORTS true: that module's
// kernels run THREADS = SORT_THREADS threads in tiles of CHUNK.
const SORT_BLOCK = 0u;
const SORTS = false;
const SORT_THREADS = select(SORT_BLOCK, BLOCK, SORT_BLOCK == 0u);
const THREADS = select(BLOCK, SORT_THREADS, SORTS);
const TILE = THREADS * ITEMS;
const CHUNK = SORT_THREADS * ITEMS;
// How a thread moves its striped items between memory and the tile
// (move_in, move_out): false, each item stored as it is loaded (natively:
// ptxas schedules the loads itself, and holding them all took merge_pass
// from 80 to 104 registers before FULL_TILES, 8-16 % slower on an H200
// from 2^22); true, through registers, every load of the loop before the
// first store (the host's choice through wgpu: with each store in one `if`
// with its load, NVIDIA's Vulkan compiler waited out every load before the
// next, one memory latency an item; H200, 2^24 pairs at 256 x 3: 2.22 ->
// 1.92 ms; docs/benchmarks/2026-11-29i-h200-merge-sort-loads).
const LOADS_FIRST = false;
// Whole tiles (all but a pass's last) move without a test of each item
// (move_in, move_out with `full`): H200, 2^21-2^26 pairs, 1-9 % less time
// through CUDA (merge_pass 80 -> 64 registers, sort_chunk 64 -> 48) and 0-1 %
// through Vulkan (docs/benchmarks/2026-11-29i-h200-merge-sort-loads, call
// 4). The host turns it off on CPU adapters, where the second form doubled
// what lavapipe compiles (device_merge_topk 19 -> 34 s). Each call site
// chooses the form: the same choice inside one wrapper of move_in and
// move_out gave sort_chunk 64 registers through ptxas, not 48.
const FULL_TILES = true;
// A word of padding every 32 where ITEMS is even, so that a thread's
// blocked items fall in distinct banks (with ITEMS odd they do unpadded);
// and a word past the tile, which a serial merge may read past its runs
// (CUB's TILE + 1).
const PAD = 1u - ITEMS % 2u;
const TILE_WORDS = TILE + 1u + PAD * (TILE / 32u);

@group(0) @binding(0) var<storage, read> keys_in: array<u32>;
@group(0) @binding(1) var<storage, read> values_in: array<u32>;
@group(0) @binding(2) var<storage, read> keys_b: array<u32>;
@group(0) @binding(3) var<storage, read_write> values_b: array<u32>;
@group(0) @binding(4) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(5) var<storage, read_write> values_out: array<u32>;
@group(0) @binding(6) var<storage, read_write> scratch: array<u32>;
@group(0) @binding(7) var<storage, read_write> pass_info: array<u32>;

var<workgroup> tile_keys: array<u32, TILE_WORDS>;
var<workgroup> tile_values: array<u32, TILE_WORDS>;
var<workgroup> tile_splits: array<u32, 2>;

/// Whether key bits `a` go before key bits `b`.
fn before(a: u32, b: u32) -> bool {
    return less_than(bitcast<T>(a), bitcast<T>(b));
}

/// Word k of the sort's value runs (sort_scratch.wgsl's): `values_b`.
fn load_run_value(k: u32) -> u32 { return values_b[k]; }
fn store_run_value(k: u32, value: u32) { values_b[k] = value; }

fn store_out(i: u32, key: u32, value: u32) {
    keys_out[i] = key;
    if PAIRS {
        values_out[i] = value;
    }
}

/// Item `i`'s place in tile_keys / tile_values: at most TILE for every
/// read whose key is used (a serial merge's junk outputs past both runs
/// may read further, clamped into the array as WGSL's bounds do).
fn tile_at(i: u32) -> u32 {
    return i + PAD * (i / 32u);
}

/// The thread's index, as the compiler can bound it (< BLOCK: the blocked
/// items' places t * ITEMS + k then need no clamp into the tile).
fn thread_index(t: u32) -> u32 {
    return min(t, THREADS - 1u);
}

/// `a - b`, or 0 where b > a.
fn minus(a: u32, b: u32) -> u32 {
    return select(0u, a - b, a > b);
}

/// Merge path (CUB's MergePath) in the tile: how many of the sorted run
/// at tile items a0..a0 + na are among the first `diag` outputs of its
/// stable merge with the run at b0..b0 + nb (the first run's keys first
/// among equals). log2(min(na, nb)) + 1 steps.
fn tile_split(a0: u32, na: u32, b0: u32, nb: u32, diag: u32) -> u32 {
    var lo = minus(diag, nb);
    var hi = min(diag, na);
    while lo < hi {
        let mid = (lo + hi) / 2u;
        if before(tile_keys[tile_at(b0 + diag - 1u - mid)], tile_keys[tile_at(a0 + mid)]) {
            hi = mid;
        } else {
            lo = mid + 1u;
        }
    }
    return lo;
}

/// Merges ITEMS outputs serially (CUB's SerialMerge) into `keys` and
/// `values`: from the tile's run A at items a..a_end and run B at
/// b..b_end, B's key first only where it goes before A's (stable). Past
/// both ends the items are junk (never stored).
fn serial_merge(a_start: u32, a_end: u32, b_start: u32, b_end: u32,
                keys: ptr<function, array<u32, ITEMS>>, values: ptr<function, array<u32, ITEMS>>) {
    var a = a_start;
    var b = b_start;
    var key_a = tile_keys[tile_at(a)];
    var key_b = tile_keys[tile_at(b)];
    for (var k = 0u; k < ITEMS; k++) {
        let take_b = (b < b_end) & ((a >= a_end) | before(key_b, key_a));
        (*keys)[k] = select(key_a, key_b, take_b);
        if PAIRS {
            (*values)[k] = tile_values[tile_at(select(a, b, take_b))];
        }
        a += select(1u, 0u, take_b);
        b += select(0u, 1u, take_b);
        let next = tile_keys[tile_at(select(a, b, take_b))];
        key_a = select(next, key_a, take_b);
        key_b = select(key_b, next, take_b);
    }
}

/// Swaps keys (and values) `j` and `j + 1` where the second goes before
/// the first (stable) and both are among the thread's first `mine`.
fn compare_swap(j: u32, mine: u32, keys: ptr<function, array<u32, ITEMS>>,
                values: ptr<function, array<u32, ITEMS>>) {
    let x = (*keys)[j];
    let y = (*keys)[j + 1u];
    let swap = (j + 1u < mine) & before(y, x);
    (*keys)[j] = select(x, y, swap);
    (*keys)[j + 1u] = select(y, x, swap);
    if PAIRS {
        let v = (*values)[j];
        let w = (*values)[j + 1u];
        (*values)[j] = select(v, w, swap);
        (*values)[j + 1u] = select(w, v, swap);
    }
}

/// Writes thread `t`'s blocked `keys` and `values` to the tile (items
/// t * ITEMS ..), without a barrier.
fn put_blocked(t: u32, keys: ptr<function, array<u32, ITEMS>>, values: ptr<function, array<u32, ITEMS>>) {
    for (var k = 0u; k < ITEMS; k++) {
        put_item(t * ITEMS + k, (*keys)[k], (*values)[k]);
    }
}

@compute @workgroup_size(THREADS)
fn sort_chunk(@builtin(local_invocation_index) thread: u32, @builtin(workgroup_id) wid: vec3<u32>,
              @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = thread_index(thread);
    let n = arrayLength(&keys_in);
    let first = (wid.x + wid.y * nwg.x) * TILE;
    if first >= n {
        return;
    }
    let count = min(n - first, TILE);
    // Striped (coalesced) into the tile, read back blocked.
    var keys: array<u32, ITEMS>;
    var values: array<u32, ITEMS>;
    if FULL_TILES && count == TILE {
        move_in(true, t, SOURCE_INPUTS, first, count, 0u, count, &keys, &values);
    } else {
        move_in(false, t, SOURCE_INPUTS, first, count, 0u, count, &keys, &values);
    }
    workgroupBarrier();
    for (var k = 0u; k < ITEMS; k++) {
        let i = tile_at(t * ITEMS + k);
        keys[k] = tile_keys[i];
        if PAIRS {
            values[k] = tile_values[i];
        }
    }
    // This thread's keys sorted (CUB's StableOddEvenSort): ITEMS phases
    // of compare-swaps, even pairs then odd pairs (constant indices once
    // unrolled: the keys stay in registers).
    let mine = min(minus(count, t * ITEMS), ITEMS);
    for (var round = 0u; round < ITEMS; round += 2u) {
        for (var j = 0u; j + 1u < ITEMS; j += 2u) {
            compare_swap(j, mine, &keys, &values);
        }
        if round + 1u < ITEMS {
            for (var j = 1u; j + 1u < ITEMS; j += 2u) {
                compare_swap(j, mine, &keys, &values);
            }
        }
    }
    // Runs of m threads merged pairwise: thread t's outputs are the
    // merged run's from diagonal p * ITEMS; each run's keys stop at n.
    // The round m = BLOCK only writes the sorted tile back (blocked).
    for (var m = 1u; m <= THREADS; m *= 2u) {
        // The first round's writes are this thread's own blocked reads.
        if m > 1u {
            workgroupBarrier();
        }
        put_blocked(t, &keys, &values);
        workgroupBarrier();
        if m == THREADS {
            break;
        }
        let p = t & (2u * m - 1u);
        let a0 = (t - p) * ITEMS;
        let size = m * ITEMS;
        let b0 = a0 + size;
        let na = min(minus(count, a0), size);
        let nb = min(minus(count, b0), size);
        let diag = min(p * ITEMS, na + nb);
        let split = tile_split(a0, na, b0, nb, diag);
        serial_merge(a0 + split, a0 + na, b0 + diag - split, b0 + nb, &keys, &values);
    }
    // Stored striped (coalesced).
    let dst = select(0u, DEST_OUT, n <= TILE);
    if FULL_TILES && count == TILE {
        move_out(true, t, count, dst, first, &keys, &values);
    } else {
        move_out(false, t, count, dst, first, &keys, &values);
    }
}

// ---- The global merges, by merge path (CUB's AgentMergeSort / DeviceMerge) ----

// merge_tile's sources and destinations besides the scratch runs (0: A,
// 1: B): Merge's inputs (keys_in, keys_b) and the outputs.
const SOURCE_INPUTS = 2u;
const DEST_OUT = 2u;

/// Key bits at index `i` of the first (`second` false) or second input of
/// `src` (a scratch run holds both, one after the other).
fn source_key(src: u32, second: bool, i: u32) -> u32 {
    if src == SOURCE_INPUTS {
        if second {
            return keys_b[i];
        }
        return keys_in[i];
    }
    return run_key(src, i);
}

fn source_value(src: u32, second: bool, i: u32) -> u32 {
    if !PAIRS {
        return 0u;
    }
    if src == SOURCE_INPUTS {
        if second {
            return values_b[i];
        }
        return values_in[i];
    }
    return run_value(src, i);
}

fn store_dest(dst: u32, i: u32, key: u32, value: u32) {
    if dst == DEST_OUT {
        store_out(i, key, value);
    } else {
        store_run(dst, i, key, value);
    }
}

/// Merge path (CUB's MergePath): how many of the first input's `na` keys
/// (from `a0` of `src`) are among the first `diag` outputs of the stable
/// merge with the second's `nb` (from `b0`), the first's keys first among
/// equals. log2(min(na, nb)) + 1 steps.
fn path_split(src: u32, a0: u32, na: u32, b0: u32, nb: u32, diag: u32) -> u32 {
    var lo = minus(diag, nb);
    var hi = min(diag, na);
    while lo < hi {
        let mid = (lo + hi) / 2u;
        if before(source_key(src, true, b0 + diag - 1u - mid), source_key(src, false, a0 + mid)) {
            hi = mid;
        } else {
            lo = mid + 1u;
        }
    }
    return lo;
}

/// Merges the `na` keys from `a0` of `src`'s first input and the `nb` from
/// `b0` of its second (`na + nb <= TILE`) into `out0..out0 + na + nb` of
/// `dst`: both ranges loaded striped (coalesced) into the tile, each
/// thread's merge-path split found there, ITEMS merged serially into
/// registers (CUB's SerialMerge), written back blocked and stored striped
/// (coalesced). 3 barriers; every thread of the workgroup calls it.
fn merge_tile(t: u32, src: u32, a0: u32, na: u32, b0: u32, nb: u32, dst: u32, out0: u32) {
    let count = na + nb;
    var keys: array<u32, ITEMS>;
    var values: array<u32, ITEMS>;
    if FULL_TILES && count == TILE {
        move_in(true, t, src, a0, na, b0, count, &keys, &values);
    } else {
        move_in(false, t, src, a0, na, b0, count, &keys, &values);
    }
    workgroupBarrier();
    // This thread's outputs: diag..diag + ITEMS of the tile. B's keys sit
    // at na.. in the tile.
    let diag = min(t * ITEMS, count);
    let split = tile_split(0u, na, na, nb, diag);
    serial_merge(split, na, na + diag - split, count, &keys, &values);
    workgroupBarrier();
    put_blocked(t, &keys, &values);
    workgroupBarrier();
    if FULL_TILES && count == TILE {
        move_out(true, t, count, dst, out0, &keys, &values);
    } else {
        move_out(false, t, count, dst, out0, &keys, &values);
    }
}

/// Moves the thread's striped items i = t + BLOCK * k below `count` into
/// the tile, passing through `keys` and `values` (item k): the first `na`
/// from `a0` of `src`'s first input, the rest from `b0 + i - na` of its
/// second. No barrier. `full` (uniform): `count` is TILE, and no item is
/// tested (the helpers are inlined once with each value).
fn move_in(full: bool, t: u32, src: u32, a0: u32, na: u32, b0: u32, count: u32,
           keys: ptr<function, array<u32, ITEMS>>, values: ptr<function, array<u32, ITEMS>>) {
    for (var k = 0u; k < ITEMS; k++) {
        let i = t + THREADS * k;
        if full || i < count {
            let second = i >= na;
            let at = select(a0 + i, b0 + i - na, second);
            (*keys)[k] = source_key(src, second, at);
            if PAIRS {
                (*values)[k] = source_value(src, second, at);
            }
            if !LOADS_FIRST {
                put_item(i, (*keys)[k], (*values)[k]);
            }
        }
    }
    if LOADS_FIRST {
        for (var k = 0u; k < ITEMS; k++) {
            let i = t + THREADS * k;
            if full || i < count {
                put_item(i, (*keys)[k], (*values)[k]);
            }
        }
    }
}

/// Moves the thread's striped items below `count` from the tile to
/// `out0 + i` of `dst` (a scratch run or the outputs), passing through
/// `keys` and `values`.
fn move_out(full: bool, t: u32, count: u32, dst: u32, out0: u32,
            keys: ptr<function, array<u32, ITEMS>>, values: ptr<function, array<u32, ITEMS>>) {
    for (var k = 0u; k < ITEMS; k++) {
        let i = t + THREADS * k;
        if full || i < count {
            (*keys)[k] = tile_keys[tile_at(i)];
            if PAIRS {
                (*values)[k] = tile_values[tile_at(i)];
            }
            if !LOADS_FIRST {
                store_dest(dst, out0 + i, (*keys)[k], (*values)[k]);
            }
        }
    }
    if LOADS_FIRST {
        for (var k = 0u; k < ITEMS; k++) {
            let i = t + THREADS * k;
            if full || i < count {
                store_dest(dst, out0 + i, (*keys)[k], (*values)[k]);
            }
        }
    }
}

/// Item `i` of the tile (and its value) written.
fn put_item(i: u32, key: u32, value: u32) {
    tile_keys[tile_at(i)] = key;
    if PAIRS {
        tile_values[tile_at(i)] = value;
    }
}

/// The sort's run width this pass, w = CHUNK << p, p = arrayLength(&pass_info) - 1.
fn pass_width() -> u32 {
    return CHUNK << (arrayLength(&pass_info) - 1u);
}

/// The pass's source run: A (0) on even passes, B (1) on odd.
fn pass_source() -> u32 {
    return (arrayLength(&pass_info) - 1u) & 1u;
}

/// The pair of runs of width `w` that output `d` falls in: (start, end of
/// the first run = start of the second, end of the second), cut at `n`.
fn pair_of(d: u32, w: u32, n: u32) -> vec3<u32> {
    let s = d / (2u * w) * (2u * w);
    return vec3<u32>(s, min(s + w, n), min(s + 2u * w, n));
}

/// Tile `j`'s merge-path split (split_tiles writes it) in the scratch, after
/// the key runs A and B, n words each.
fn split_index(j: u32) -> u32 {
    return 2u * arrayLength(&keys_in) + j;
}

fn tile_count(n: u32) -> u32 {
    return (n + TILE - 1u) / TILE;
}

@compute @workgroup_size(SPLIT_BLOCK)
fn split_tiles(@builtin(global_invocation_id) gid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    let j = gid.x + gid.y * nwg.x * SPLIT_BLOCK;
    let n = arrayLength(&keys_in);
    if j >= tile_count(n) {
        return;
    }
    let d = j * TILE;
    let pair = pair_of(d, pass_width(), n);
    let split = path_split(pass_source(), pair.x, pair.y - pair.x, pair.y, pair.z - pair.y, d - pair.x);
    scratch[split_index(j)] = split;
}

@compute @workgroup_size(THREADS)
fn merge_pass(@builtin(local_invocation_index) thread: u32, @builtin(workgroup_id) wid: vec3<u32>,
              @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = thread_index(thread);
    let n = arrayLength(&keys_in);
    let j = wid.x + wid.y * nwg.x;
    if j >= tile_count(n) {
        return;
    }
    let w = pass_width();
    let src = pass_source();
    let d0 = j * TILE;
    let d1 = min(d0 + TILE, n);
    let pair = pair_of(d0, w, n);
    // The first run's keys before the tile and before its end (the whole
    // run where the tile ends the pair: TILE divides 2w).
    let a_start = scratch[split_index(j)];
    var a_end = pair.y - pair.x;
    if d1 < pair.z {
        a_end = scratch[split_index(j + 1u)];
    }
    let b_start = d0 - pair.x - a_start;
    let b_end = d1 - pair.x - a_end;
    let dst = select(1u - src, DEST_OUT, n <= 2u * w);
    merge_tile(t, src, pair.x + a_start, a_end - a_start, pair.y + b_start, b_end - b_start, dst, d0);
}

@compute @workgroup_size(THREADS)
fn merge(@builtin(local_invocation_index) thread: u32, @builtin(workgroup_id) wid: vec3<u32>,
         @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = thread_index(thread);
    let n_a = arrayLength(&keys_in);
    let total = arrayLength(&keys_out);
    let n_b = total - n_a;
    let j = wid.x + wid.y * nwg.x;
    if j >= tile_count(total) {
        return;
    }
    let d0 = j * TILE;
    let d1 = min(d0 + TILE, total);
    // The tile's two splits, one search each (no split_tiles pass: Merge
    // takes no temp).
    for (var s = t; s < 2u; s += THREADS) {
        tile_splits[s] = path_split(SOURCE_INPUTS, 0u, n_a, 0u, n_b, select(d0, d1, s == 1u));
    }
    workgroupBarrier();
    let a_start = tile_splits[0];
    let a_end = tile_splits[1];
    let b_start = d0 - a_start;
    let b_end = d1 - a_end;
    merge_tile(t, SOURCE_INPUTS, a_start, a_end - a_start, b_start, b_end - b_start, DEST_OUT, d0);
}
