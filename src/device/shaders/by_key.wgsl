// Device-wide scans and reductions by key: runs of equal consecutive keys
// (wavekit::device::ScanByKey, ReduceByKey), of a 32-bit value T under an
// associative operator with an identity, keys K compared with `!=`.
//
// A head is the first element and each whose key differs from the one
// before it. The by-key scan is the scan of (head, value) pairs under the
// segmented operator (f1, v1) . (f2, v2) = (f1 | f2, f2 ? v2 : v1 . v2),
// associative for any associative `.`; a run's reduction is its inclusive
// scan at the run's last element.
//
// Tiles of TILE = BLOCK * ITEMS elements; thread t of a tile owns its ITEMS
// consecutive elements (blocked), so the operator takes the earlier operand
// first and need not be commutative. Each thread folds its items into one
// pair; the pairs are scanned over the workgroup (`block_scan_subgroups`:
// a segmented subgroup scan, one ballot of the flags and log2(S)
// shuffles, then one pass over the subgroups' pairs in workgroup memory
// behind one barrier; the segmented operator is not one of the block
// layer's scalar scans), which also scans each thread's head count where
// the entry point needs it. SUBGROUP_SCAN false keeps the Kogge-Stone scan
// in workgroup memory this file had before (2 log2(BLOCK) barriers), for
// A/B measurements.
//
// Tiles chained by decoupled look-back with decoupled fallback
// (look_back.wgsl, appended). WINDOW (the host's): for the u32 and i32
// sums the subgroup of thread 0 walks S predecessors a round and sums
// their values with subgroup reductions (the wrapping sum does not care
// about the order of a window's values); for any other operator, and on
// emulated subgroups, thread 0 walks one predecessor a round, combining
// in order. For scan_by_key and the three-pass reduce_by_key, the value a
// tile publishes is its pair's value; the pair's flag is the
// publication's state: a tile that holds a head
// publishes its value as LB_PREFIX at once (what follows its last head
// does not depend on earlier tiles), and a tile without one publishes
// LB_AGGREGATE, then LB_PREFIX once its walk ends (`lb_publish` below does
// both from the tile's own flag). So a walk combines the values of the
// headless tiles before it back to the nearest tile with a head, whose
// value ends the walk: the carry into the tile's first run. The fallback
// computes a stalled tile's pair with the same `tile_pair` as its owner
// (same bits) and installs it as LB_PREFIX where it holds a head.
// Publications are 32-bit values in two words (as look_back_words.wgsl,
// whose three functions this file defines with the head rule).
//
// Entry points:
//   scan_by_key (scan): tile_state and tile_counter zeroed first; one
//     workgroup per tile, taking tiles from tile_counter; out_values gets
//     the inclusive or exclusive (INCLUSIVE) scan by key, the identity at
//     each head for the exclusive one.
//   count_heads (reduce, grid of tiles): tile_heads[tile] = the tile's
//     head count.
//   scan_heads (reduce, 1 workgroup): tile_heads becomes its exclusive
//     scan, num_runs[0] their total.
//   reduce_by_key (reduce): tile_state and tile_counter zeroed before
//     count_heads; as scan_by_key, and at each run's last element the run's
//     reduction goes to out_values[run] and at each head its key to
//     out_keys[run] (run = the heads before it, tile_heads[tile] plus the
//     tile's own).
//   reduce_by_key_single (REDUCE_PASSES = 1u: the reduction alone, no
//     count_heads or scan_heads): tile_state and tile_counter zeroed
//     first; as reduce_by_key, the runs before each tile learnt with the
//     value carried into it from one look-back over pairs (the tile's
//     flag, run count and value, `pair_prefix` below: three words a tile,
//     PREFIX once the walk ends, as CUB's ReduceBySegmentOp), and the last
//     tile writes num_runs[0].
//   With NON_TRIVIAL (RunLengthEncode::non_trivial_runs; T u32 under the
//     sum, the keys bound as values too): every value is 1, only runs
//     longer than one count (a head that does not end its run), and
//     out_keys gets each such run's offset, out_values its length.
// Elements past n are no heads and hold the identity, and are not written.
//
// Parameters (set by name by the host): `alias K`, `alias T`,
// `const INCLUSIVE`, `const NON_TRIVIAL`, the operator `fn scan_op` (the host replaces its line
// by the user's function text and a `scan_op` that calls it) and
// `fn scan_identity`; WINDOW, FALLBACK and STALL_EVERY (look_back.wgsl).
// Switches between this file's code and what it had before, for A/B
// measurements (WAVEKIT_SHADER_PARAMS; docs/device-by-key.md):
// SUBGROUP_SCAN, TRANSPOSED_LOADS, REDUCE_PASSES.
// Bindings: 0 keys (array<K>, n), 1 values (array<T>, n), 2 out_values
//   (T: n for the scan, room for n runs for the reduction; as T's bits,
//   array<u32>, which `block::store_direct_blocked` stores from an
//   `array<u32, ITEMS>`: naga gives `alias T` a type of its own, so an
//   `array<T, ITEMS>` is no row's), 3
//   out_keys (array<K>, room for n runs; a spare word for the scan), 4
//   num_runs (1 word; spare for the scan), 5 tile_heads (one per tile;
//   spare for the scan), 6 tile_state (2 words per tile; 3 for
//   reduce_by_key_single), 7 tile_counter
//   (1 word). Every entry point binds all eight.
// Cost per element: 1 read of each key and value (the three-pass
//   reduction reads the keys twice), 1 write (the scan; the reduction
//   writes 2 per run); with TRANSPOSED_LOADS 2 workgroup-memory words
//   written and read. Per tile: 1 barrier for the loads, and in the block
//   scan one ballot, log2(S) + 1 shuffles (the reduction also scans the
//   counts), 1 barrier and BLOCK / S subgroup pairs read by each thread;
//   a uniform load per look-back round.
// Append: look_back.wgsl (look_back and its protocol), look_back_words.wgsl
// (publications in two words).
#import wavekit::subgroup as sg
#import wavekit::block as blk

alias K = u32;
alias T = u32;
const INCLUSIVE = true;
const NON_TRIVIAL = false;
const BLOCK = 256u;
const ITEMS = 8u;
const TILE = BLOCK * ITEMS;

fn scan_op(a: T, b: T) -> T { return a + b; }
fn scan_identity() -> T { return T(); }

@group(0) @binding(0) var<storage, read> keys: array<K>;
@group(0) @binding(1) var<storage, read> values: array<T>;
@group(0) @binding(2) var<storage, read_write> out_values: array<u32>;
@group(0) @binding(3) var<storage, read_write> out_keys: array<K>;
@group(0) @binding(4) var<storage, read_write> num_runs: array<u32>;
@group(0) @binding(5) var<storage, read_write> tile_heads: array<u32>;
@group(0) @binding(6) var<storage, read_write> tile_state: array<atomic<u32>>;
@group(0) @binding(7) var<storage, read_write> tile_counter: array<atomic<u32>>;

// The look-back (look_back.wgsl): thread 0 walks, one predecessor a round;
// the host sets WINDOW for the integer sums (see the header).
const WINDOW = false;
const FALLBACK = true;
const STALL_EVERY = 0u;

// The block scan: true, subgroup operations and one barrier
// (`block_scan_subgroups`); false, the Kogge-Stone scan in workgroup
// memory with 2 log2(BLOCK) barriers that by_key.wgsl had before
// (`block_scan_kogge_stone`), for A/B measurements
// (WAVEKIT_SHADER_PARAMS=SUBGROUP_SCAN=false).
const SUBGROUP_SCAN = true;
// The reduction's passes, which the host reads: 1, reduce_by_key_single
// (one clear and one dispatch); 3, count_heads, scan_heads and
// reduce_by_key (what by_key.wgsl had before, kept for A/B measurements:
// WAVEKIT_SHADER_PARAMS=REDUCE_PASSES=3u).
const REDUCE_PASSES = 1u;

// The loads: true, striped through workgroup memory (`load_items`; CUB's
// BLOCK_LOAD_WARP_TRANSPOSE); false, each thread's ITEMS consecutive
// elements read directly (what by_key.wgsl had before, for A/B
// measurements: WAVEKIT_SHADER_PARAMS=TRANSPOSED_LOADS=false).
const TRANSPOSED_LOADS = true;

var<workgroup> shared_tile: u32;
// load_items' staged tile with TRANSPOSED_LOADS: element i at staged(i),
// one word of padding per 32, so that the blocked reads (stride ITEMS) hit
// distinct banks.
const STAGED = TILE + TILE / 32u;
var<workgroup> staged_keys: array<K, STAGED>;
var<workgroup> staged_values: array<T, STAGED>;
// block_scan_subgroups: each subgroup's inclusive value, and its head
// count with SUB_HEAD where it holds a head (subgroups of 4 or more lanes).
var<workgroup> sub_values: array<T, 64>;
var<workgroup> sub_meta: array<u32, 64>;
const SUB_HEAD = 0x80000000u;
// block_scan_kogge_stone's scans of the flags, values and counts.
var<workgroup> scan_flags: array<u32, BLOCK>;
var<workgroup> scan_values: array<T, BLOCK>;
var<workgroup> scan_counts: array<u32, BLOCK>;
var<workgroup> chunk_total: u32;

// The calling workgroup's own tile's pair (every thread), for lb_publish.
var<private> own_head: bool;
var<private> own_value: T;
// Whether the tile `lb_tile_aggregate` last combined holds a head, for
// `lb_install` (thread 0).
var<private> fallback_head: bool;

/// Where load_items stages tile element `i`.
fn staged(i: u32) -> u32 {
    return i + i / 32u;
}

fn element_count() -> u32 {
    return arrayLength(&values);
}

fn tile_count() -> u32 {
    return (element_count() + TILE - 1u) / TILE;
}

/// A thread's items: values (the identity past n) and head flags (bit k),
/// and whether each is a run's last element (bit k of `ends`).
struct Items {
    values: array<T, ITEMS>,
    heads: u32,
    ends: u32,
}

/// Thread `t`'s ITEMS elements of tile `tile`: with TRANSPOSED_LOADS,
/// read striped (element k * BLOCK + t of the tile in round k: each round
/// of a subgroup reads consecutive words) into workgroup memory, then
/// blocked from there after one barrier (CUB's BLOCK_LOAD_WARP_TRANSPOSE
/// has no barrier of the whole block; WGSL has no subgroup-scoped one);
/// else read blocked from the buffers directly. Every thread calls it, in
/// uniform control flow; the staged tile is rewritten by the next call:
/// the caller's code between two calls holds a barrier (the block scan's).
fn load_items(tile: u32, t: u32) -> Items {
    if TRANSPOSED_LOADS {
        let n = element_count();
        let base = tile * TILE;
        for (var k = 0u; k < ITEMS; k++) {
            let i = k * BLOCK + t;
            if base + i < n {
                staged_keys[staged(i)] = keys[base + i];
                if !NON_TRIVIAL {
                    staged_values[staged(i)] = values[base + i];
                }
            }
        }
        workgroupBarrier();
    }
    let n = element_count();
    let first = tile * TILE + t * ITEMS;
    var items: Items;
    var before = K();
    if first > 0u && first <= n {
        if TRANSPOSED_LOADS && t > 0u {
            before = staged_keys[staged(t * ITEMS - 1u)];
        } else {
            before = keys[first - 1u];
        }
    }
    for (var k = 0u; k < ITEMS; k++) {
        items.values[k] = scan_identity();
        let i = first + k;
        if i < n {
            var key: K;
            if NON_TRIVIAL {
                items.values[k] = bitcast<T>(1u);
            } else if TRANSPOSED_LOADS {
                items.values[k] = staged_values[staged(t * ITEMS + k)];
            } else {
                items.values[k] = values[i];
            }
            if TRANSPOSED_LOADS {
                key = staged_keys[staged(t * ITEMS + k)];
            } else {
                key = keys[i];
            }
            if i == 0u || key != before {
                items.heads |= 1u << k;
            }
            before = key;
        }
    }
    return items;
}

/// `ends` of `items` (thread `t` of tile `tile`): bit k where element k is
/// the last of its run (the next key differs, or it is the last element).
fn run_ends(tile: u32, t: u32, heads: u32) -> u32 {
    let n = element_count();
    let first = tile * TILE + t * ITEMS;
    // The element after this thread's last is a head (or past n).
    var next_head = first + ITEMS >= n;
    if !next_head {
        next_head = keys[first + ITEMS] != keys[first + ITEMS - 1u];
    }
    var ends = (heads >> 1u) | select(0u, 1u << (ITEMS - 1u), next_head);
    // Only elements below n end runs.
    if first >= n {
        return 0u;
    }
    let count = min(ITEMS, n - first);
    if count < ITEMS {
        ends = (ends & ((1u << count) - 1u)) | (1u << (count - 1u));
    }
    return ends;
}

/// The heads that count runs: every head, or with NON_TRIVIAL those that
/// do not also end their run (the first of a run longer than one).
fn counted_heads(heads: u32, ends: u32) -> u32 {
    if NON_TRIVIAL {
        return heads & ~ends;
    }
    return heads;
}

/// The fold of a thread's items: (any head, the value after its last
/// head, or of all items without one).
fn fold(items: Items) -> T {
    var acc = items.values[0];
    for (var k = 1u; k < ITEMS; k++) {
        acc = select(scan_op(acc, items.values[k]), items.values[k], (items.heads & (1u << k)) != 0u);
    }
    return acc;
}

/// What a block scan (`block_scan_subgroups`, `block_scan_kogge_stone`)
/// gives thread t: the pair and head count before it in the tile (its
/// exclusive: the inclusive of thread t - 1; for t = 0 no head, no count,
/// and an unspecified value), and the tile's pair and head count.
struct BlockScan {
    flag: bool,
    value: T,
    count: u32,
    total_flag: bool,
    total: T,
    total_count: u32,
}

/// Heads of `heads` (a subgroup ballot) at lanes below `end` (at most
/// 128): the last one's lane, or LB_DONE where there is none.
fn last_head_below(heads: vec4<u32>, end: u32) -> u32 {
    var last = LB_DONE;
    for (var w = 0u; w < 4u; w++) {
        let bits = min(end - min(end, 32u * w), 32u);
        let below = heads[w] & select((1u << (bits & 31u)) - 1u, 0xffffffffu, bits == 32u);
        if below != 0u {
            last = 32u * w + firstLeadingBit(below);
        }
    }
    return last;
}

/// The block scan of thread t's (flag, value, count) with subgroup
/// operations (SUBGROUP_SCAN): a segmented inclusive scan of the values in
/// each subgroup (one ballot of the flags; each lane combines only the
/// lanes after its subgroup's last head at or before it, log2(S)
/// shuffles), the counts' sum scan, one pair per subgroup in workgroup
/// memory, one barrier, then every thread folds the subgroups' pairs in
/// order (the same operations in every thread, so all get the same
/// total). Any subgroup size from 4 to 128. Every thread calls it, in
/// uniform control flow, with `counted`: the subgroup's inclusive sum of
/// the counts (`sg::inclusive_add`, the caller's where it needs them;
/// count and counted 0 where it does not). Its workgroup memory is
/// rewritten by the next call: the caller's code between two calls holds
/// a barrier (tile_prefix's uniform load, fall_back's).
fn block_scan_subgroups(t: u32, flag: bool, value: T, count: u32, counted: u32) -> BlockScan {
    let lane = sg::invocation_id();
    let size = sg::group_size();
    let sub = t / size;
    let heads = sg::ballot(flag);
    let last = last_head_below(heads, lane + 1u);
    let distance = select(lane - last, lane, last == LB_DONE);
    var v = value;
    for (var delta = 1u; delta < size; delta <<= 1u) {
        let earlier = sg::shuffle_up<T>(v, delta);
        v = select(v, scan_op(earlier, v), distance >= delta);
    }
    let c = counted;
    // Lane - 1's inclusive value: the value before this lane (lane > 0).
    let before_lane = sg::shuffle_up<T>(v, 1u);
    let head_before_lane = last_head_below(heads, lane) != LB_DONE;
    if lane == size - 1u {
        sub_values[sub] = v;
        sub_meta[sub] = c | select(0u, SUB_HEAD, last != LB_DONE);
    }
    workgroupBarrier();
    // The subgroups' pairs in order: `acc` the pair of subgroups 0..k,
    // `before` that of those before this thread's subgroup (for sub > 0).
    var acc_flag = (sub_meta[0] & SUB_HEAD) != 0u;
    var acc_value = sub_values[0];
    var acc_count = sub_meta[0] & ~SUB_HEAD;
    var before_flag = false;
    var before_value = acc_value;
    var before_count = 0u;
    for (var k = 1u; k < BLOCK / size; k++) {
        if k == sub {
            before_flag = acc_flag;
            before_value = acc_value;
            before_count = acc_count;
        }
        let word = sub_meta[k];
        let x = sub_values[k];
        let head = (word & SUB_HEAD) != 0u;
        acc_value = select(scan_op(acc_value, x), x, head);
        acc_flag = acc_flag || head;
        acc_count += word & ~SUB_HEAD;
    }
    var scan = BlockScan(before_flag, before_value, before_count, acc_flag, acc_value, acc_count);
    if lane > 0u {
        scan.flag = before_flag || head_before_lane;
        scan.value = select(scan_op(before_value, before_lane), before_lane, head_before_lane || sub == 0u);
        scan.count = before_count + c - count;
    }
    return scan;
}

/// The block scan of SUBGROUP_SCAN false: Kogge-Stone in workgroup memory,
/// log2(BLOCK) rounds of two barriers (what by_key.wgsl had before the
/// subgroup scan, kept for A/B measurements). Same contract as
/// `block_scan_subgroups`.
fn block_scan_kogge_stone(t: u32, flag: bool, value: T, count: u32) -> BlockScan {
    var f = select(0u, 1u, flag);
    var v = value;
    var c = count;
    scan_flags[t] = f;
    scan_values[t] = v;
    scan_counts[t] = c;
    workgroupBarrier();
    for (var d = 1u; d < BLOCK; d <<= 1u) {
        var pf = 0u;
        var pv = scan_identity();
        var pc = 0u;
        if t >= d {
            pf = scan_flags[t - d];
            pv = scan_values[t - d];
            pc = scan_counts[t - d];
        }
        workgroupBarrier();
        if t >= d {
            v = select(scan_op(pv, v), v, f != 0u);
            f |= pf;
            c += pc;
            scan_flags[t] = f;
            scan_values[t] = v;
            scan_counts[t] = c;
        }
        workgroupBarrier();
    }
    let last = BLOCK - 1u;
    var scan = BlockScan(false, scan_identity(), 0u, scan_flags[last] != 0u, scan_values[last], scan_counts[last]);
    if t > 0u {
        scan.flag = scan_flags[t - 1u] != 0u;
        scan.value = scan_values[t - 1u];
        scan.count = scan_counts[t - 1u];
    }
    return scan;
}

/// Tile `tile`'s block scan from thread `t`'s `items` and head count
/// `count` (and `counted`, the subgroup's inclusive sum of the counts: 0
/// and 0 where the caller needs no counts), in every thread: the one
/// function that the owner and a fallback use, so both get the tile's
/// pair with the same bits.
fn tile_pair(items: Items, t: u32, count: u32, counted: u32) -> BlockScan {
    if SUBGROUP_SCAN {
        return block_scan_subgroups(t, items.heads != 0u, fold(items), count, counted);
    }
    return block_scan_kogge_stone(t, items.heads != 0u, fold(items), count);
}

fn lb_tile_aggregate(p: u32, t: u32) -> u32 {
    // The fallback needs the pair alone, not the counts.
    let scan = tile_pair(load_items(p, t), t, 0u, 0u);
    fallback_head = scan.total_flag;
    return bitcast<u32>(scan.total);
}

fn lb_combine(earlier: u32, later: u32) -> u32 {
    return bitcast<u32>(scan_op(bitcast<T>(earlier), bitcast<T>(later)));
}

fn lb_identity() -> u32 {
    return bitcast<u32>(scan_identity());
}

// Publications: look_back_words.wgsl's, with the head rule.

/// Thread 0's publication for its own tile: a tile with a head publishes
/// its own value as LB_PREFIX, whatever the look-back asks.
fn lb_publish(tile: u32, state: u32, value: u32) {
    if own_head {
        store_publication(tile, LB_PREFIX, bitcast<u32>(own_value));
    } else {
        store_publication(tile, state, value);
    }
}

/// Installs the pair `lb_tile_aggregate` just combined for tile p: as
/// LB_PREFIX where it holds a head (tile 0 always does).
fn lb_install(p: u32, aggregate: u32) -> Publication {
    let state = select(STATE_AGGREGATE, STATE_PREFIX, fallback_head);
    return install_publication(p, state, aggregate);
}

/// Takes the workgroup's tile number from tile_counter (thread 0), for
/// the entry point's `workgroupUniformLoad(&shared_tile)` (inline, so that
/// the composer sees a uniform tile).
fn take_tile(t: u32) {
    if t == 0u {
        shared_tile = atomicAdd(&tile_counter[0], 1u);
    }
}

/// Thread `t`'s running value before its first item (the inclusive pair
/// of thread t - 1 after the tile's carry) and the tile's heads before it.
struct Running {
    value: T,
    heads: u32,
}

/// Combines the tile's pair, publishes it and looks back (every thread,
/// in uniform control flow): thread `t`'s running value and head count
/// before its first item (from `count` and `counted`, as tile_pair's).
fn tile_start(tile: u32, t: u32, items: Items, count: u32, counted: u32) -> Running {
    let scan = tile_pair(items, t, count, counted);
    own_head = scan.total_flag;
    own_value = scan.total;
    let carry = bitcast<T>(tile_prefix(tile, t, bitcast<u32>(own_value)));
    if t == 0u {
        return Running(carry, 0u);
    }
    return Running(select(scan_op(carry, scan.value), scan.value, scan.flag), scan.count);
}

@compute @workgroup_size(BLOCK)
fn scan_by_key(@builtin(local_invocation_index) t: u32) {
    take_tile(t);
    let tile = workgroupUniformLoad(&shared_tile);
    if tile >= tile_count() {
        return;
    }
    let items = load_items(tile, t);
    var running = tile_start(tile, t, items, 0u, 0u).value;
    var bits: array<u32, ITEMS>;
    for (var k = 0u; k < ITEMS; k++) {
        let head = (items.heads & (1u << k)) != 0u;
        let exclusive = select(running, scan_identity(), head);
        running = select(scan_op(running, items.values[k]), items.values[k], head);
        bits[k] = bitcast<u32>(select(exclusive, running, INCLUSIVE));
    }
    let offset = tile * TILE;
    blk::store_direct_blocked<u32, BLOCK, ITEMS, out_values>(offset, element_count() - offset, &bits);
}

@compute @workgroup_size(BLOCK)
fn count_heads(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    let tile = wid.x + wid.y * nwg.x;
    if tile >= tile_count() {
        return;
    }
    let heads = load_items(tile, t).heads;
    let total = lb_workgroup_sum(countOneBits(counted_heads(heads, run_ends(tile, t, heads))), t);
    if t == 0u {
        tile_heads[tile] = total;
    }
}

fn add_u32(a: u32, b: u32) -> u32 { return a + b; }

@compute @workgroup_size(BLOCK)
fn scan_heads(@builtin(local_invocation_index) t: u32) {
    let tiles = tile_count();
    var carry = 0u;
    for (var base = 0u; base < tiles; base += TILE) {
        // Zero past the tiles.
        var counts: array<u32, ITEMS>;
        blk::load_direct_blocked<u32, BLOCK, ITEMS, tile_heads>(base, tiles - base, &counts);
        var mine = 0u;
        for (var k = 0u; k < ITEMS; k++) {
            mine += counts[k];
        }
        let before = blk::exclusive_scan<u32, BLOCK, add_u32>(mine, 0u);
        var running = carry + before;
        var scanned: array<u32, ITEMS>;
        for (var k = 0u; k < ITEMS; k++) {
            scanned[k] = running;
            running += counts[k];
        }
        blk::store_direct_blocked<u32, BLOCK, ITEMS, tile_heads>(base, tiles - base, &scanned);
        if t == BLOCK - 1u {
            chunk_total = before + mine;
        }
        carry += workgroupUniformLoad(&chunk_total);
    }
    if t == 0u {
        num_runs[0] = carry;
    }
}

@compute @workgroup_size(BLOCK)
fn reduce_by_key(@builtin(local_invocation_index) t: u32) {
    take_tile(t);
    let tile = workgroupUniformLoad(&shared_tile);
    if tile >= tile_count() {
        return;
    }
    let items = load_items(tile, t);
    let ends = run_ends(tile, t, items.heads);
    let counted = counted_heads(items.heads, ends);
    let count = countOneBits(counted);
    let before = tile_start(tile, t, items, count, sg::inclusive_add<u32>(count));
    var running = before.value;
    var run = tile_heads[tile] + before.heads;
    let first = tile * TILE + t * ITEMS;
    for (var k = 0u; k < ITEMS; k++) {
        let bit = 1u << k;
        let head = (items.heads & bit) != 0u;
        running = select(scan_op(running, items.values[k]), items.values[k], head);
        if (counted & bit) != 0u {
            if NON_TRIVIAL {
                out_keys[run] = bitcast<K>(first + k);
            } else {
                out_keys[run] = keys[first + k];
            }
            run += 1u;
        }
        // A run of one is no non-trivial run.
        if (ends & bit) != 0u && !(NON_TRIVIAL && head) {
            out_values[run - 1u] = bitcast<u32>(running);
        }
    }
}

// ReduceByKey in one pass (reduce_by_key_single): each tile's pair with
// its run count, chained by a look-back of its own over three-word
// publications (below; the protocol of look_back.wgsl, whose constants,
// `lb_stalls` and `lb_walker` it uses).

/// The pair of a tile, or of consecutive tiles, with its run count:
/// whether it holds a head, the runs it counts (counted_heads), and the
/// value after its last head (of all its elements without one).
struct Pair {
    flag: bool,
    count: u32,
    value: T,
}

/// `earlier` then `later`: the segmented operator, counts summed (CUB's
/// ReduceBySegmentOp).
fn pair_combine(earlier: Pair, later: Pair) -> Pair {
    let value = select(scan_op(earlier.value, later.value), later.value, later.flag);
    return Pair(earlier.flag || later.flag, earlier.count + later.count, value);
}

fn pair_identity() -> Pair {
    return Pair(false, 0u, scan_identity());
}

/// A pair's publication as read: LB_PENDING, LB_AGGREGATE or LB_PREFIX.
struct PairPublication {
    state: u32,
    pair: Pair,
}

// Publications of pairs: three words per tile, each `state << 30 | 30
// bits`, as look_back_words.wgsl's two: word 0 the value's low 16 bits,
// the flag (bit 16) and the count's top 2 bits (17-18); word 1 the
// value's high 16 bits; word 2 the count's low 30 bits. A reader that
// sees the words in different states (a publication half-way) reads them
// again; the fallback installs with atomicMax on each word (PREFIX
// outranks AGGREGATE; two AGGREGATEs of a tile hold the same bits).
const PAIR_WORDS = 3u;

/// The three words of `pair` in `state` (STATE_AGGREGATE or STATE_PREFIX).
fn pair_words(state: u32, pair: Pair) -> vec3<u32> {
    let value = bitcast<u32>(pair.value);
    let low = state | (value & 0xffffu) | select(0u, 0x10000u, pair.flag) | ((pair.count >> 30u) << 17u);
    return vec3<u32>(low, state | (value >> 16u), state | (pair.count & 0x3fffffffu));
}

/// A publication from its three words: LB_PENDING unless all carry the
/// same state.
fn joined_pair(words: vec3<u32>) -> PairPublication {
    let state = words.x & STATE_MASK;
    if state != (words.y & STATE_MASK) || state != (words.z & STATE_MASK) {
        return PairPublication(LB_PENDING, pair_identity());
    }
    let value = (words.x & 0xffffu) | ((words.y & 0xffffu) << 16u);
    let count = (words.z & 0x3fffffffu) | (((words.x >> 17u) & 3u) << 30u);
    return PairPublication(state >> 30u, Pair((words.x & 0x10000u) != 0u, count, bitcast<T>(value)));
}

/// Publishes `pair` in `state` (an LB_ state) for `tile`.
fn store_pair(tile: u32, state: u32, pair: Pair) {
    let words = pair_words(state << 30u, pair);
    atomicStore(&tile_state[PAIR_WORDS * tile], words.x);
    atomicStore(&tile_state[PAIR_WORDS * tile + 1u], words.y);
    atomicStore(&tile_state[PAIR_WORDS * tile + 2u], words.z);
}

/// Tile p's publication as read now (read-modify-writes, as
/// look_back_words.wgsl's `lb_read`).
fn read_pair(p: u32) -> PairPublication {
    let x = atomicOr(&tile_state[PAIR_WORDS * p], 0u);
    let y = atomicOr(&tile_state[PAIR_WORDS * p + 1u], 0u);
    let z = atomicOr(&tile_state[PAIR_WORDS * p + 2u], 0u);
    return joined_pair(vec3<u32>(x, y, z));
}

/// Installs tile p's pair computed by the fallback (tile 0's as its
/// prefix) unless a prefix is there: the publication it holds then.
fn install_pair(p: u32, pair: Pair) -> PairPublication {
    let state = select(STATE_AGGREGATE, STATE_PREFIX, p == 0u);
    let words = pair_words(state, pair);
    let x = atomicMax(&tile_state[PAIR_WORDS * p], words.x);
    let y = atomicMax(&tile_state[PAIR_WORDS * p + 1u], words.y);
    let z = atomicMax(&tile_state[PAIR_WORDS * p + 2u], words.z);
    let was = joined_pair(vec3<u32>(x, y, z));
    if was.state == LB_PREFIX {
        return was;
    }
    return PairPublication(state >> 30u, pair);
}

/// Where a pair walk stands between rounds: the pair of the tiles in
/// [end, tile), and the tile it waits on (LB_DONE once it has met a
/// PREFIX, and then `pair` is the whole exclusive prefix; LB_WALK before a
/// walk).
struct PairWalk {
    pair: Pair,
    end: u32,
    stalled: u32,
}

/// The serial pair walk: thread 0 alone, one predecessor a round, any
/// operator.
fn walk_pairs_serial(start: PairWalk) -> PairWalk {
    var w = start;
    var spins = 0u;
    loop {
        let seen = read_pair(w.end - 1u);
        if seen.state == LB_PENDING {
            spins += 1u;
            if FALLBACK && spins >= SPINS {
                w.stalled = w.end - 1u;
                return w;
            }
            continue;
        }
        w.pair = pair_combine(seen.pair, w.pair);
        if seen.state == LB_PREFIX {
            w.stalled = LB_DONE;
            return w;
        }
        w.end -= 1u;
        spins = 0u;
    }
    // Not reached (naga wants a return after the loop).
    return w;
}

/// The window pair walk (WINDOW: the u32 and i32 sums only, whose values
/// are summed with subgroup reductions): every lane of the subgroup of
/// thread 0 calls it. Lane i reads tile `end - 1 - i` (lanes past tile 0
/// count as an empty PREFIX); the lanes spin with one vote a round until
/// every lane's tile has published or SPINS rounds have passed. The lanes
/// before the nearest PREFIX or the first unpublished lane, and that PREFIX,
/// are combined: their counts summed, their flags or-ed, and their values
/// summed back to the nearest lane with a head, unless the walk has met
/// one already.
fn walk_pairs_window(start: PairWalk) -> PairWalk {
    let lane = sg::invocation_id();
    let size = sg::group_size();
    var w = start;
    loop {
        var seen = PairPublication(select(LB_PENDING, LB_PREFIX, lane >= w.end), pair_identity());
        var spins = 0u;
        loop {
            if seen.state == LB_PENDING {
                seen = read_pair(w.end - 1u - lane);
            }
            if sg::all_true(seen.state != LB_PENDING) {
                break;
            }
            spins += 1u;
            if FALLBACK && spins >= SPINS {
                break;
            }
        }
        let missing = sg::reduce_all_min<u32>(select(LB_DONE, lane, seen.state == LB_PENDING));
        let nearest = sg::reduce_all_min<u32>(select(LB_DONE, lane, seen.state == LB_PREFIX));
        let done = nearest < missing;
        // Lanes below `limit` are combined.
        let limit = select(min(missing, size), nearest + 1u, done);
        let inside = lane < limit;
        let head = sg::reduce_all_min<u32>(select(LB_DONE, lane, inside && seen.pair.flag));
        let summed = inside && lane <= head && !w.pair.flag;
        w.pair.count += sg::reduce_all_add<u32>(select(0u, seen.pair.count, inside));
        let value = sg::reduce_all_add<u32>(select(0u, bitcast<u32>(seen.pair.value), summed));
        w.pair.value = bitcast<T>(value + bitcast<u32>(w.pair.value));
        w.pair.flag = w.pair.flag || head != LB_DONE;
        if done {
            w.stalled = LB_DONE;
            return w;
        }
        if missing == LB_DONE {
            w.end -= size;
            continue;
        }
        // Stalled: the walk stops at the first unpublished lane's tile.
        w.end -= missing;
        w.stalled = w.end - 1u;
        return w;
    }
    // Not reached.
    return w;
}

fn walk_pairs(walk: PairWalk) -> PairWalk {
    if WINDOW {
        return walk_pairs_window(walk);
    }
    return walk_pairs_serial(walk);
}

// The pair walk's hand-over to the workgroup (thread 0 writes, all read
// after a barrier): the exclusive pair, the tile a walk stalled on, and
// the publication the fallback's install returned.
var<workgroup> pw_flag: u32;
var<workgroup> pw_count: u32;
var<workgroup> pw_value: T;
var<workgroup> pw_stalled: u32;
var<workgroup> pw_got_state: u32;
var<workgroup> pw_got_flag: u32;
var<workgroup> pw_got_count: u32;
var<workgroup> pw_got_value: T;

/// Tile `p`'s pair as its owner computes it (every thread, in uniform
/// control flow): the fallback's.
fn stalled_pair(p: u32, t: u32) -> Pair {
    let items = load_items(p, t);
    let count = countOneBits(counted_heads(items.heads, run_ends(p, t, items.heads)));
    let scan = tile_pair(items, t, count, sg::inclusive_add<u32>(count));
    return Pair(scan.total_flag, scan.total_count, scan.total);
}

/// Thread 0's hand-over of `pair` (the exclusive prefix) to the workgroup.
fn hand_over(pair: Pair) {
    pw_flag = select(0u, 1u, pair.flag);
    pw_count = pair.count;
    pw_value = pair.value;
}

/// The cold path of `pair_prefix` (look_back.wgsl's `fall_back` on pairs):
/// until the walk ends, the workgroup computes the stalled tile's pair,
/// thread 0 installs it, and the walk goes on before that tile. Then
/// thread 0 publishes the inclusive pair (when `publishes`) and hands the
/// exclusive one over, before a barrier.
fn pair_fall_back(tile: u32, t: u32, first: PairWalk, own: Pair, publishes: bool) {
    var walk = first;
    let walker = lb_walker(t);
    loop {
        let stalled = workgroupUniformLoad(&pw_stalled);
        if stalled == LB_DONE {
            break;
        }
        let pair = stalled_pair(stalled, t);
        if t == 0u {
            let got = install_pair(stalled, pair);
            pw_got_state = got.state;
            pw_got_flag = select(0u, 1u, got.pair.flag);
            pw_got_count = got.pair.count;
            pw_got_value = got.pair.value;
        }
        workgroupBarrier();
        if walker {
            let got = Pair(pw_got_flag != 0u, pw_got_count, pw_got_value);
            walk.pair = pair_combine(got, walk.pair);
            walk.end = stalled;
            walk.stalled = select(LB_WALK, LB_DONE, pw_got_state == LB_PREFIX);
            if walk.stalled == LB_WALK {
                walk = walk_pairs(walk);
            }
        }
        if t == 0u {
            pw_stalled = walk.stalled;
        }
    }
    if t == 0u {
        if publishes {
            store_pair(tile, LB_PREFIX, pair_combine(walk.pair, own));
        }
        hand_over(walk.pair);
    }
    workgroupBarrier();
}

/// The pair of every tile before `tile` (tile 0: no head, no runs, the
/// identity), for a tile whose own pair is `own` (the same in every
/// thread): publishes `own` (tile 0 as its PREFIX), looks back and
/// publishes the inclusive pair (thread 0; not at all for a tile the
/// STALL_EVERY switch stalls). Every thread of the workgroup calls it, in
/// uniform control flow; all get the result.
fn pair_prefix(tile: u32, t: u32, own: Pair) -> Pair {
    let publishes = t == 0u && !lb_stalls(tile);
    if publishes {
        store_pair(tile, select(LB_AGGREGATE, LB_PREFIX, tile == 0u), own);
    }
    var walk = PairWalk(pair_identity(), tile, select(LB_WALK, LB_DONE, tile == 0u));
    if lb_walker(t) && walk.stalled == LB_WALK {
        walk = walk_pairs(walk);
    }
    if t == 0u {
        if publishes && tile != 0u && walk.stalled == LB_DONE {
            store_pair(tile, LB_PREFIX, pair_combine(walk.pair, own));
        }
        hand_over(walk.pair);
        pw_stalled = walk.stalled;
    }
    if !FALLBACK {
        // The plain look-back: the walk waited until it ended.
        workgroupBarrier();
        return Pair(pw_flag != 0u, pw_count, pw_value);
    }
    // Outside any branch on `tile` (the fallback holds barriers).
    if workgroupUniformLoad(&pw_stalled) != LB_DONE {
        pair_fall_back(tile, t, walk, own, publishes);
    }
    // Written by thread 0 before the uniform load's (or pair_fall_back's)
    // barrier; rewritten by no one after it.
    return Pair(pw_flag != 0u, pw_count, pw_value);
}

@compute @workgroup_size(BLOCK)
fn reduce_by_key_single(@builtin(local_invocation_index) t: u32) {
    take_tile(t);
    let tile = workgroupUniformLoad(&shared_tile);
    let tiles = tile_count();
    if tile >= tiles {
        return;
    }
    let items = load_items(tile, t);
    let ends = run_ends(tile, t, items.heads);
    let counted = counted_heads(items.heads, ends);
    let count = countOneBits(counted);
    let scan = tile_pair(items, t, count, sg::inclusive_add<u32>(count));
    let own = Pair(scan.total_flag, scan.total_count, scan.total);
    let carry = pair_prefix(tile, t, own);
    if t == 0u && tile == tiles - 1u {
        num_runs[0] = carry.count + own.count;
    }
    var running = carry.value;
    var run = carry.count;
    if t > 0u {
        running = select(scan_op(carry.value, scan.value), scan.value, scan.flag);
        run += scan.count;
    }
    let first = tile * TILE + t * ITEMS;
    for (var k = 0u; k < ITEMS; k++) {
        let bit = 1u << k;
        let head = (items.heads & bit) != 0u;
        running = select(scan_op(running, items.values[k]), items.values[k], head);
        if (counted & bit) != 0u {
            if NON_TRIVIAL {
                out_keys[run] = bitcast<K>(first + k);
            } else {
                out_keys[run] = keys[first + k];
            }
            run += 1u;
        }
        // A run of one is no non-trivial run.
        if (ends & bit) != 0u && !(NON_TRIVIAL && head) {
            out_values[run - 1u] = bitcast<u32>(running);
        }
    }
}
