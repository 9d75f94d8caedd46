// Device-wide stable merge sort of 32-bit keys by a comparator, alone or
// with u32 values (wavekit::device::MergeSort, as CUB's
// DeviceMergeSort::StableSortKeys / SortPairs), and the stable merge of two
// sorted inputs (wavekit::device::Merge, as CUB's DeviceMerge). The order
// is the caller's `less_than(a, b)`, a strict weak order on T (a pure
// function); keys that neither precedes keep their input order (merges:
// the first input's before the second's). This is segmented_sort.wgsl's
// chunk and merge machinery for one segment, with the comparator in place
// of the encoded (key, value) order; the places of a merge of runs come
// from sort_merge.wgsl (inside_run, partner_run, merge_target).
//
//   sort_chunk (ceil(n / CHUNK) workgroups): each aligned chunk of CHUNK
//     keys sorted in workgroup memory by log2(CHUNK) merge levels (each
//     key binary-searches its place in the partner run: the keys of a
//     lower run count the partner's keys that precede them, those of an
//     upper run the partner's keys they do not precede, so equal keys keep
//     their order; 2 barriers a level). Written to the outputs where n <=
//     CHUNK, else to run A of the scratch.
//   split_tiles (ceil(tiles / BLOCK) workgroups, a thread per tile of TILE
//     outputs), pass p = arrayLength(&pass_info) - 1: the merge-path split
//     of each tile's start in its pair of runs of width w = CHUNK << p
//     (one binary search per tile, CUB's DeviceMergeSortPartitionKernel),
//     into the scratch after the runs.
//   merge_pass (tiles workgroups of MERGE_BLOCK threads, MERGE_ITEMS keys
//     each), pass p: the runs of width w merged pairwise into runs of 2w,
//     from run A (p even) or B (p odd) into the other, or into the outputs
//     once 2w >= n; each workgroup merges one tile between its split and
//     the next (merge_tile, CUB's AgentMergeSort / SerialMerge). The host
//     records split_tiles and merge_pass ceil(log2(n / CHUNK)) times.
//   merge (ceil((n_a + n_b) / TILE) workgroups, x and y): the merge of the
//     first input (keys_in, n_a = its length) and the second (keys_b, n_b =
//     arrayLength(&keys_out) - n_a) by merge_tile, each workgroup finding
//     its tile's two splits itself (Merge takes no temp for a partition
//     pass).
//
// Keys are held as their bits (u32) in workgroup memory and the scratch
// and compared as T.
// Parameters (set by name by the host): T (u32, i32, f32); PAIRS; the
// comparator `less_than` (its default: ascending).
// Bindings: 0 keys_in, 1 values_in (the sort's input or the merge's first
//   input; values any 4 bytes without PAIRS), 2 keys_b, 3 values_b (the
//   merge's second input; any 4 bytes for the sort), 4 keys_out, 5
//   values_out, 6 scratch (the sort's keys A, keys B, then with PAIRS
//   values A, values B, n words each, then a split per tile), 7 pass_info
//   (p + 1 words, not read).
//   Inputs are array<u32> (bits), compared through bitcast<T>.
// Append: sort_merge.wgsl (inside_run, partner_run, merge_target), sort_scratch.wgsl
// (run_key, run_value, store_run, value_in).

alias T = u32;
const PAIRS = true;
fn less_than(a: T, b: T) -> bool { return a < b; }

const BLOCK = 256u;
const CHUNK = 1024u;
const PER_THREAD = CHUNK / BLOCK;
// sort_merge.wgsl's register-tile merge is not used here.
const LOG2_TILE = 0u;
const LOG2_SEG = 0u;

@group(0) @binding(0) var<storage, read> keys_in: array<u32>;
@group(0) @binding(1) var<storage, read> values_in: array<u32>;
@group(0) @binding(2) var<storage, read> keys_b: array<u32>;
@group(0) @binding(3) var<storage, read> values_b: array<u32>;
@group(0) @binding(4) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(5) var<storage, read_write> values_out: array<u32>;
@group(0) @binding(6) var<storage, read_write> scratch: array<u32>;
@group(0) @binding(7) var<storage, read_write> pass_info: array<u32>;

var<workgroup> merge_keys: array<u32, CHUNK>;
var<workgroup> merge_values: array<u32, CHUNK>;

/// Whether key bits `a` go before key bits `b`.
fn before(a: u32, b: u32) -> bool {
    return less_than(bitcast<T>(a), bitcast<T>(b));
}

/// Whether a key `mine` of the lower (`upper` false) or upper run goes
/// after the partner run's key `theirs`: the partner's keys that go before
/// it are counted (stable: the lower run's first among equals).
fn goes_after(theirs: u32, mine: u32, upper: bool) -> bool {
    return select(before(theirs, mine), !before(mine, theirs), upper);
}

fn store_out(i: u32, key: u32, value: u32) {
    keys_out[i] = key;
    if PAIRS {
        values_out[i] = value;
    }
}

@compute @workgroup_size(BLOCK)
fn sort_chunk(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
              @builtin(num_workgroups) nwg: vec3<u32>) {
    let n = arrayLength(&keys_in);
    let first = (wid.x + wid.y * nwg.x) * CHUNK;
    if first >= n {
        return;
    }
    // The chunk's keys, one segment; places past n stay alone.
    let chunk = vec2<u32>(first, min(first + CHUNK, n));
    for (var k = 0u; k < PER_THREAD; k++) {
        let p = first + t + BLOCK * k;
        var key = 0u;
        var value = 0u;
        if p < n {
            key = keys_in[p];
            value = value_in(p);
        }
        merge_keys[t + BLOCK * k] = key;
        merge_values[t + BLOCK * k] = value;
    }
    workgroupBarrier();
    for (var w = 1u; w < CHUNK; w *= 2u) {
        var dests: array<u32, PER_THREAD>;
        var keys: array<u32, PER_THREAD>;
        var values: array<u32, PER_THREAD>;
        for (var k = 0u; k < PER_THREAD; k++) {
            let p = first + t + BLOCK * k;
            let key = merge_keys[t + BLOCK * k];
            keys[k] = key;
            values[k] = merge_values[t + BLOCK * k];
            if p >= n {
                dests[k] = p - first;
                continue;
            }
            let partner = partner_run(p, chunk, w);
            let upper = ((p / w) & 1u) == 1u;
            var a = partner.x;
            var b = partner.y;
            while a < b {
                let mid = (a + b) / 2u;
                if goes_after(merge_keys[mid - first], key, upper) {
                    a = mid + 1u;
                } else {
                    b = mid;
                }
            }
            dests[k] = merge_target(p, chunk, w, a - partner.x) - first;
        }
        workgroupBarrier();
        for (var k = 0u; k < PER_THREAD; k++) {
            merge_keys[dests[k]] = keys[k];
            merge_values[dests[k]] = values[k];
        }
        workgroupBarrier();
    }
    for (var k = 0u; k < PER_THREAD; k++) {
        let p = first + t + BLOCK * k;
        if p < n {
            let key = merge_keys[t + BLOCK * k];
            let value = merge_values[t + BLOCK * k];
            if n <= CHUNK {
                store_out(p, key, value);
            } else {
                store_run(0u, p, key, value);
            }
        }
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
    var lo = select(0u, diag - nb, diag > nb);
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

// The merge kernels' tile: TILE outputs, MERGE_ITEMS a thread (CUB's
// ITEMS_PER_THREAD), in workgroup memory with a word of padding every 32
// so that a thread's blocked items fall in distinct banks.
const TILE = CHUNK;
const MERGE_ITEMS = 8u;
const MERGE_BLOCK = TILE / MERGE_ITEMS;
const TILE_WORDS = TILE + TILE / 32u;

var<workgroup> tile_keys: array<u32, TILE_WORDS>;
var<workgroup> tile_values: array<u32, TILE_WORDS>;
var<workgroup> tile_splits: array<u32, 2>;

/// Item `i` of the tile's place in tile_keys / tile_values (clamped
/// inside the tile).
fn tile_at(i: u32) -> u32 {
    let j = min(i, TILE - 1u);
    return j + j / 32u;
}

/// Merges the `na` keys from `a0` of `src`'s first input and the `nb` from
/// `b0` of its second (`na + nb <= TILE`) into `out0..out0 + na + nb` of
/// `dst`: both ranges loaded coalesced into the tile, each thread's
/// merge-path split found there, MERGE_ITEMS merged serially into
/// registers (CUB's SerialMerge), written back blocked and stored striped
/// (coalesced). 3 barriers; every thread of the workgroup calls it.
fn merge_tile(t: u32, src: u32, a0: u32, na: u32, b0: u32, nb: u32, dst: u32, out0: u32) {
    let count = na + nb;
    for (var k = 0u; k < MERGE_ITEMS; k++) {
        let i = t + MERGE_BLOCK * k;
        if i < count {
            let second = i >= na;
            let at = select(a0 + i, b0 + i - na, second);
            tile_keys[tile_at(i)] = source_key(src, second, at);
            if PAIRS {
                tile_values[tile_at(i)] = source_value(src, second, at);
            }
        }
    }
    workgroupBarrier();
    // This thread's outputs: diag..diag + MERGE_ITEMS of the tile. B's
    // keys sit at na.. in the tile.
    let diag = min(t * MERGE_ITEMS, count);
    var lo = select(0u, diag - nb, diag > nb);
    var hi = min(diag, na);
    while lo < hi {
        let mid = (lo + hi) / 2u;
        if before(tile_keys[tile_at(na + diag - 1u - mid)], tile_keys[tile_at(mid)]) {
            hi = mid;
        } else {
            lo = mid + 1u;
        }
    }
    var ai = lo;
    var bi = na + diag - lo;
    var key_a = tile_keys[tile_at(ai)];
    var key_b = tile_keys[tile_at(bi)];
    var keys: array<u32, MERGE_ITEMS>;
    var values: array<u32, MERGE_ITEMS>;
    for (var k = 0u; k < MERGE_ITEMS; k++) {
        // B's key goes first only if it precedes A's (stable); past the
        // tile's outputs the items are not stored.
        let take_b = bi < count && (ai >= na || before(key_b, key_a));
        keys[k] = select(key_a, key_b, take_b);
        if PAIRS {
            values[k] = tile_values[tile_at(select(ai, bi, take_b))];
        }
        ai = select(ai + 1u, ai, take_b);
        bi = select(bi, bi + 1u, take_b);
        let next = tile_keys[tile_at(select(ai, bi, take_b))];
        key_a = select(next, key_a, take_b);
        key_b = select(key_b, next, take_b);
    }
    workgroupBarrier();
    for (var k = 0u; k < MERGE_ITEMS; k++) {
        let i = t * MERGE_ITEMS + k;
        tile_keys[tile_at(i)] = keys[k];
        if PAIRS {
            tile_values[tile_at(i)] = values[k];
        }
    }
    workgroupBarrier();
    for (var k = 0u; k < MERGE_ITEMS; k++) {
        let i = t + MERGE_BLOCK * k;
        if i < count {
            var value = 0u;
            if PAIRS {
                value = tile_values[tile_at(i)];
            }
            store_dest(dst, out0 + i, tile_keys[tile_at(i)], value);
        }
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
/// the runs: keys A, keys B (and values A, values B with PAIRS), n words each.
fn split_index(j: u32) -> u32 {
    return select(2u, 4u, PAIRS) * arrayLength(&keys_in) + j;
}

fn tile_count(n: u32) -> u32 {
    return (n + TILE - 1u) / TILE;
}

@compute @workgroup_size(BLOCK)
fn split_tiles(@builtin(global_invocation_id) gid: vec3<u32>,
             @builtin(num_workgroups) nwg: vec3<u32>) {
    let j = gid.x + gid.y * nwg.x * BLOCK;
    let n = arrayLength(&keys_in);
    if j >= tile_count(n) {
        return;
    }
    let d = j * TILE;
    let pair = pair_of(d, pass_width(), n);
    let split = path_split(pass_source(), pair.x, pair.y - pair.x, pair.y, pair.z - pair.y, d - pair.x);
    scratch[split_index(j)] = split;
}

@compute @workgroup_size(MERGE_BLOCK)
fn merge_pass(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
              @builtin(num_workgroups) nwg: vec3<u32>) {
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

@compute @workgroup_size(MERGE_BLOCK)
fn merge(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
         @builtin(num_workgroups) nwg: vec3<u32>) {
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
    if t < 2u {
        tile_splits[t] = path_split(SOURCE_INPUTS, 0u, n_a, 0u, n_b, select(d0, d1, t == 1u));
    }
    workgroupBarrier();
    let a_start = tile_splits[0];
    let a_end = tile_splits[1];
    let b_start = d0 - a_start;
    let b_end = d1 - a_end;
    merge_tile(t, SOURCE_INPUTS, a_start, a_end - a_start, b_start, b_end - b_start, DEST_OUT, d0);
}
