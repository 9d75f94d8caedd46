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
// pair; the pairs are scanned over the workgroup in workgroup memory
// (`block_scan`: Kogge-Stone, log2(BLOCK) rounds; the segmented operator
// is not one of the block layer's scalar scans), which also scans each
// thread's head count.
//
// Tiles chained by decoupled look-back with decoupled fallback
// (look_back.wgsl, appended, thread 0 walking one predecessor a round:
// WINDOW is false). The value a tile publishes is its pair's value; the
// pair's flag is the publication's state: a tile that holds a head
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
//   With NON_TRIVIAL (RunLengthEncode::non_trivial_runs; T u32 under the
//     sum, the keys bound as values too): every value is 1, only runs
//     longer than one count (a head that does not end its run), and
//     out_keys gets each such run's offset, out_values its length.
// Elements past n are no heads and hold the identity, and are not written.
//
// Parameters (set by name by the host): `const ITEMS` (1 to 32: heads are
// bits of a u32; the host reads it for the grid), `const LOAD_TRANSPOSED`,
// `alias K`, `alias T`,
// `const INCLUSIVE`, `const NON_TRIVIAL`, the operator `fn scan_op` (the host replaces its line
// by the user's function text and a `scan_op` that calls it) and
// `fn scan_identity`; FALLBACK and STALL_EVERY (look_back.wgsl).
// Bindings: 0 keys (K's bits, array<u32>, n), 1 values (T's bits,
//   array<u32>, n; the block layer's loads take u32 rows), 2 out_values
//   (T: n for the scan, room for n runs for the reduction; as T's bits,
//   array<u32>, which `block::store_transpose` stores from an
//   `array<u32, ITEMS>`: naga gives `alias T` a type of its own, so an
//   `array<T, ITEMS>` is no row's), 3
//   out_keys (array<K>, room for n runs; a spare word for the scan), 4
//   num_runs (1 word; spare for the scan), 5 tile_heads (one per tile;
//   spare for the scan), 6 tile_state (2 words per tile), 7 tile_counter
//   (1 word). Every entry point binds all eight.
// Cost per element: 1 read of each key (2 for the reduction) and value,
//   1 write (the scan; the reduction writes 2 per run); log2(BLOCK)
//   barriers a tile (the scan's transposed store 2 more); a uniform load
//   per look-back round.
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
// The loads: the tile read striped (coalesced) and turned blocked through
// workgroup memory (`block::load_transpose`, CUB's BLOCK_LOAD_TRANSPOSE;
// 2 barriers per array), or each thread's ITEMS consecutive words read
// directly (false: each warp load touches ITEMS-word strides).
const LOAD_TRANSPOSED = false;
// The scan's store: blocked items turned striped through workgroup memory
// and stored coalesced (`block::store_transpose`, CUB's
// BLOCK_STORE_TRANSPOSE), or each thread's 8 consecutive words stored
// directly (false: 8 stores a thread 32 bytes apart, each warp store
// touching 32 sectors; an H100 measured the scan's L2 at 84 % busy,
// 6x CUB's L2 write sectors, docs/benchmarks/2026-11-27h).
const STORE_TRANSPOSED = true;

fn scan_op(a: T, b: T) -> T { return a + b; }
fn scan_identity() -> T { return T(); }

@group(0) @binding(0) var<storage, read> keys: array<u32>;
@group(0) @binding(1) var<storage, read> values: array<u32>;
@group(0) @binding(2) var<storage, read_write> out_values: array<u32>;
@group(0) @binding(3) var<storage, read_write> out_keys: array<K>;
@group(0) @binding(4) var<storage, read_write> num_runs: array<u32>;
@group(0) @binding(5) var<storage, read_write> tile_heads: array<u32>;
@group(0) @binding(6) var<storage, read_write> tile_state: array<atomic<u32>>;
@group(0) @binding(7) var<storage, read_write> tile_counter: array<atomic<u32>>;

// The look-back (look_back.wgsl): thread 0 walks, one predecessor a round.
const WINDOW = false;
const FALLBACK = true;
const STALL_EVERY = 0u;

var<workgroup> shared_tile: u32;
var<workgroup> scan_flags: array<u32, BLOCK>;
var<workgroup> scan_values: array<T, BLOCK>;
var<workgroup> scan_counts: array<u32, BLOCK>;
// The pair of the tile `tile_pair` last combined, and its head flag, for
// `lb_install` (thread 0, after the barrier that ends `tile_pair`).
var<workgroup> pair_flag: u32;
var<workgroup> pair_value: T;
var<workgroup> chunk_total: u32;

// The calling workgroup's own tile's pair (every thread), for lb_publish.
var<private> own_head: bool;
var<private> own_value: T;

fn element_count() -> u32 {
    return arrayLength(&values);
}

fn tile_count() -> u32 {
    return (element_count() + TILE - 1u) / TILE;
}

/// Key `i` (the keys are bound as their bits).
fn key_at(i: u32) -> K {
    return bitcast<K>(keys[i]);
}

/// A thread's items: values (the identity past n), head flags (bit k),
/// and the key of its last element below n (K() if none).
struct Items {
    values: array<T, ITEMS>,
    heads: u32,
    last: K,
}

/// Thread `t`'s ITEMS elements of tile `tile`.
fn load_items(tile: u32, t: u32) -> Items {
    let n = element_count();
    let first = tile * TILE + t * ITEMS;
    var items: Items;
    var before = K();
    if first > 0u && first <= n {
        before = key_at(first - 1u);
    }
    // The tile's words, blocked (only those below n are read).
    var key_bits: array<u32, ITEMS>;
    var value_bits: array<u32, ITEMS>;
    if LOAD_TRANSPOSED {
        let offset = tile * TILE;
        let valid = select(0u, n - offset, offset < n);
        blk::load_transpose<u32, BLOCK, ITEMS, keys>(offset, valid, &key_bits);
        if !NON_TRIVIAL {
            blk::load_transpose<u32, BLOCK, ITEMS, values>(offset, valid, &value_bits);
        }
    } else {
        for (var k = 0u; k < ITEMS; k++) {
            let i = first + k;
            if i < n {
                key_bits[k] = keys[i];
                if !NON_TRIVIAL {
                    value_bits[k] = values[i];
                }
            }
        }
    }
    for (var k = 0u; k < ITEMS; k++) {
        items.values[k] = scan_identity();
        let i = first + k;
        if i < n {
            if NON_TRIVIAL {
                items.values[k] = bitcast<T>(1u);
            } else {
                items.values[k] = bitcast<T>(value_bits[k]);
            }
            let key = bitcast<K>(key_bits[k]);
            if i == 0u || key != before {
                items.heads |= 1u << k;
            }
            before = key;
        }
    }
    items.last = before;
    return items;
}

/// The run ends of thread `t`'s `items` of tile `tile`: bit k where
/// element k is the last of its run (the next key differs, or it is the
/// last element).
fn run_ends(tile: u32, t: u32, items: Items) -> u32 {
    let n = element_count();
    let first = tile * TILE + t * ITEMS;
    let heads = items.heads;
    // The element after this thread's last is a head (or past n).
    var next_head = first + ITEMS >= n;
    if !next_head {
        next_head = key_at(first + ITEMS) != items.last;
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

/// The inclusive scan of each thread's (flag, value, count) over the
/// workgroup, in workgroup memory: afterwards scan_*[t] hold thread t's
/// inclusive pair and head count. Every thread calls it, in uniform
/// control flow; it ends with a barrier.
fn block_scan(t: u32, flag: u32, value: T, count: u32) {
    var f = flag;
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
}

/// Tile `tile`'s pair from thread `t`'s `items`, in every thread: the one
/// function that the owner and a fallback use, so both get its bits. The
/// pair is left in pair_flag / pair_value (after a barrier), and the
/// block's scan in scan_* until the next call.
fn tile_pair(items: Items, t: u32, counted: u32) {
    block_scan(t, select(0u, 1u, items.heads != 0u), fold(items), countOneBits(counted));
    if t == BLOCK - 1u {
        pair_flag = scan_flags[t];
        pair_value = scan_values[t];
    }
    workgroupBarrier();
}

fn lb_tile_aggregate(p: u32, t: u32) -> u32 {
    // The fallback needs the pair alone, not the counts.
    tile_pair(load_items(p, t), t, 0u);
    return bitcast<u32>(pair_value);
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
    let state = select(STATE_AGGREGATE, STATE_PREFIX, pair_flag != 0u);
    return install_publication(p, state, aggregate);
}

/// The tile's number from tile_counter, in every thread.
fn next_tile(t: u32) -> u32 {
    if t == 0u {
        shared_tile = atomicAdd(&tile_counter[0], 1u);
    }
    return workgroupUniformLoad(&shared_tile);
}

/// Thread `t`'s running value before its first item (the inclusive pair
/// of thread t - 1 after the tile's carry) and the tile's heads before it.
struct Running {
    value: T,
    heads: u32,
}

/// Combines the tile's pair, publishes it and looks back (every thread,
/// in uniform control flow): thread `t`'s running value and head count
/// before its first item. What thread t needs of the block's scan is read
/// before the look-back, whose fallbacks reuse the workgroup memory.
fn tile_start(tile: u32, t: u32, items: Items, counted: u32) -> Running {
    tile_pair(items, t, counted);
    own_head = pair_flag != 0u;
    own_value = pair_value;
    var flag = 0u;
    var value = scan_identity();
    var heads = 0u;
    if t > 0u {
        flag = scan_flags[t - 1u];
        value = scan_values[t - 1u];
        heads = scan_counts[t - 1u];
    }
    let carry = bitcast<T>(tile_prefix(tile, t, bitcast<u32>(own_value)));
    if t == 0u {
        return Running(carry, 0u);
    }
    return Running(select(scan_op(carry, value), value, flag != 0u), heads);
}

@compute @workgroup_size(BLOCK)
fn scan_by_key(@builtin(local_invocation_index) t: u32) {
    let tile = next_tile(t);
    if tile >= tile_count() {
        return;
    }
    let items = load_items(tile, t);
    var running = tile_start(tile, t, items, items.heads).value;
    var bits: array<u32, ITEMS>;
    for (var k = 0u; k < ITEMS; k++) {
        let head = (items.heads & (1u << k)) != 0u;
        let exclusive = select(running, scan_identity(), head);
        running = select(scan_op(running, items.values[k]), items.values[k], head);
        bits[k] = bitcast<u32>(select(exclusive, running, INCLUSIVE));
    }
    let offset = tile * TILE;
    if STORE_TRANSPOSED {
        blk::store_transpose<u32, BLOCK, ITEMS, out_values>(offset, element_count() - offset, &bits);
    } else {
        blk::store_direct_blocked<u32, BLOCK, ITEMS, out_values>(offset, element_count() - offset, &bits);
    }
}

@compute @workgroup_size(BLOCK)
fn count_heads(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    let tile = wid.x + wid.y * nwg.x;
    if tile >= tile_count() {
        return;
    }
    let items = load_items(tile, t);
    let total = lb_workgroup_sum(countOneBits(counted_heads(items.heads, run_ends(tile, t, items))), t);
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
    let tile = next_tile(t);
    if tile >= tile_count() {
        return;
    }
    let items = load_items(tile, t);
    let ends = run_ends(tile, t, items);
    let counted = counted_heads(items.heads, ends);
    let before = tile_start(tile, t, items, counted);
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
                out_keys[run] = key_at(first + k);
            }
            run += 1u;
        }
        // A run of one is no non-trivial run.
        if (ends & bit) != 0u && !(NON_TRIVIAL && head) {
            out_values[run - 1u] = bitcast<u32>(running);
        }
    }
}
