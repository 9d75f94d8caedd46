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
// The carry into a tile's first run (the values since the last head
// before the tile) needs no chain: each tile publishes its pair, its
// *tail* (whether it holds a head, and the value after its last head, or
// of all its elements without one), as soon as its block scan has it, in
// tile_state after the run counts' publications; a tile combines the
// tails of the tiles before it back to the nearest one with a head
// (`start_carry` and `tile_carry`: the last thread, one predecessor a
// round; usually one round, as runs are shorter than tiles; in the
// reduction it walks while thread 0's subgroup walks the run counts). A
// tail does not depend on any other tile's. A walk that waits SPINS rounds on an
// unpublished tail computes that tile's pair itself (the whole workgroup,
// the same `tile_pair` as its owner: the decoupled fallback of
// look_back.wgsl without the install) and walks on; with FALLBACK false
// (CUDA and the GPUs whose started workgroups keep running) it waits.
// Tails are look_back_words.wgsl's publications (`store_publication`,
// `lb_read`) of tile tile_count() + p for tile p, headless as
// LB_AGGREGATE, with a head as LB_PREFIX.
//
// The reduction's run numbers (the heads before each tile) are the u32
// sum of the tiles' head counts, chained by decoupled look-back with
// decoupled fallback (look_back.wgsl, look_back_words.wgsl,
// look_back_words_scan.wgsl, appended: `tile_prefix`); the scan does not
// look back. So the reduction is one pass, as CUB's.
//
// Entry points:
//   scan_by_key (scan): tile_state and tile_counter zeroed first; one workgroup per tile, taking tiles from tile_counter;
//     out_values gets the inclusive or exclusive (INCLUSIVE) scan by key,
//     the identity at each head for the exclusive one.
//   reduce_by_key (reduce): the same zeroing; as scan_by_key, and at each
//     run's last element the run's reduction goes to out_values[run] and
//     at each head its key to out_keys[run] (run = the heads before it:
//     the look-back's prefix plus the tile's own); the last tile writes
//     the number of runs to num_runs[0].
//   With NON_TRIVIAL (RunLengthEncode::non_trivial_runs; T u32 under the
//     sum, the keys bound as values too): every value is 1, only runs
//     longer than one count (a head that does not end its run), and
//     out_keys gets each such run's offset, out_values its length.
// Elements past n are no heads and hold the identity, and are not written.
//
// Parameters (set by name by the host): `const ITEMS` (1 to 32: heads are
// bits of a u32; the host reads it for the grid), `const QUADS` (the vec4
// loads and store; the host leaves it true), `alias K`, `alias T`,
// `const INCLUSIVE`, `const NON_TRIVIAL`, `const SUBGROUP_SCAN`, `const
// STASHED_ENDS` (the reduction's form), the operator `fn scan_op` (the
// host replaces its line by the user's function text and a `scan_op` that
// calls it) and `fn scan_identity`; WINDOW, FALLBACK and STALL_EVERY
// (look_back.wgsl; a stalled tile publishes neither its count nor its
// tail).
// Bindings: 0 keys (K's bits, array<u32>, n), 1 values (T's bits,
//   array<u32>, n), 2 out_values
//   (T: n for the scan, room for n runs for the reduction; as T's bits,
//   array<u32>, which `block::store_direct_blocked` stores from an
//   `array<u32, ITEMS>`: naga gives `alias T` a type of its own, so an
//   `array<T, ITEMS>` is no row's), 3
//   out_keys (array<K>, room for n runs; a spare word for the scan), 4
//   num_runs (1 word; spare for the scan), 5 tile_state (4 words per
//   tile: the run counts' publications, then the tails), 6 tile_counter
//   (1 word), 7 key_quads and 8 value_quads (the first n / 4 vec4s of
//   the keys' and the values' memory: n >= 4, since wgpu binds no fewer
//   than 16 bytes; by_key_few.wgsl takes n < 4), 9 out_quads (the first
//   n / 4 vec4s of out_values' memory). Both entry points bind all ten.
// Bounds (why a host may build these kernels without bounds checks, as
//   wavekit::device does natively): with the
//   bindings sized as above (keys and values exactly n words), every
//   index is in range by construction. keys, values: read at i < n
//   (first - 1 only for 0 < first <= n, first + count only below n).
//   key_quads, value_quads: first / 4 + j for j < ITEMS / 4 in a full
//   tile, whose elements first .. first + ITEMS lie below n, so below
//   n / 4 (first a multiple of 4, as ITEMS is); with STRIPED_TILES
//   tile * TILE / 4 + r * BLOCK + t for r < ITEMS / 4, below
//   (tile + 1) * TILE / 4 <= n / 4 in a full tile.
//   out_quads, out_values (scan): `store_quads` stores quad base + q
//   where its 4 elements lie below n (so below n / 4), else element
//   4 (base + q) + c below n; out_tile: t * ITEMS / 4 + j and r * BLOCK
//   + t, below TILE / 4.
//   out_values[run - 1], out_keys[run] (reduction): run counts the
//   counted heads before an element (`base` and the thread's counted
//   heads below it), at most the runs, at most n; out_values is written
//   at a run's end, after its counted head (run >= 1). run_quads: words t *
//   ITEMS + k for k < ITEMS, and with STRIPED_TILES the words t * ITEMS
//   - 1 (t > 0) and (t + 1) * ITEMS (t + 1 < BLOCK), each through
//   stash_word, which keeps a word below TILE (TILE / 4 a multiple of
//   8). num_runs: word 0. tile_state: 2 words of a publication
//   below 2 ceil(n / TILE) (tiles below ceil(n / TILE); the grid's extra workgroups return first;
//   walks read tiles below their own, down to tile 0 at the least, which
//   holds a head and publishes a prefix). Workgroup arrays: t, t - d >= 0,
//   t - 1 for t > 0, and subgroup t / S < BLOCK / 4 (subgroups of 4 or
//   more lanes).
// Cost per element: 1 read of each key and value, 1 write (the scan; the
//   reduction writes 2 per run); 2 log2(BLOCK) + 1 barriers a tile for
//   the block scan, 2 with SUBGROUP_SCAN (the scan's store 1 more, the
//   reduction's STRIPED full tiles 3 more, 2 with NON_TRIVIAL); a uniform
//   load per walk.
// Append: look_back.wgsl (look_back and its protocol), look_back_words.wgsl
// (publications in two words), look_back_words_scan.wgsl (the sum's).
#import wavekit::subgroup as sg
#import wavekit::block as blk

alias K = u32;
alias T = u32;
const INCLUSIVE = true;
const NON_TRIVIAL = false;
const BLOCK = 256u;
const ITEMS = 8u;
const TILE = BLOCK * ITEMS;
// The block scan by subgroup shuffles (the host's choice but on emulated
// subgroups), or in workgroup memory alone.
const SUBGROUP_SCAN = false;
// The reduction folds each thread's items as they load and keeps the
// value at each run end in workgroup memory (`reduce_stashed`: 32
// registers on CUDA, where it is the host's choice), or keeps the items'
// values in registers until the carry is known (`reduce_held`; faster
// through Vulkan on an H200).
const STASHED_ENDS = false;
// Vec4s where ITEMS is a multiple of 4 (QUAD_TILES), else words:
// - full tiles (all but the last) load each thread's keys and values as
//   ITEMS / 4 vec4s (key_quads, value_quads), without a test of each
//   element against n; the last tile loads word by word, each tested.
//   H200 (docs/benchmarks/2026-11-29c), at 2^26: through Vulkan
//   ReduceByKey 281 -> 262 us and ScanByKey 297 -> 269 against the word
//   loads (NVIDIA's Vulkan compiler does not join them); on CUDA
//   ScanByKey at 12 a thread 207 -> 205 against 10 word loads (LLVM joins
//   aligned words itself, where ITEMS is a multiple of 4);
// - the scan's store writes each thread's items to workgroup memory as its
//   ITEMS / 4 quads, reads them back lane-striped (quad r * BLOCK + t) and
//   stores vec4s (`store_quads`; Vulkan 265 -> 244 us at 2^26), or stores
//   each thread's consecutive words directly (ITEMS stores a thread, each
//   warp store touching 32 sectors; an H100 measured the scan's L2 at 84 %
//   busy, 6x CUB's L2 write sectors, docs/benchmarks/2026-11-27h).
const QUADS = true;
const QUAD_TILES = QUADS && ITEMS % 4u == 0u;
const STASH_QUADS = select(1u, TILE / 4u, STASHED_ENDS);
// STRIPED (the stashed reduction, ITEMS a multiple of 4; the host's
// choice on CUDA): a full tile's keys and values load as lane-striped
// quads (row r's quad t: every warp load 512 consecutive bytes) and reach
// their threads (ITEMS consecutive elements each) through the stash, as
// CUB's BLOCK_LOAD_WARP_TRANSPOSE; else each thread loads its own
// consecutive words (16-byte loads natively, each warp load touching 32
// sectors half: Nsight Compute on an H200 at 2^22 counted 13.2 of 32
// bytes used a sector, docs/benchmarks/2026-11-29g).
const STRIPED = false;
const STRIPED_TILES = STRIPED && STASHED_ENDS && ITEMS % 4u == 0u;

fn scan_op(a: T, b: T) -> T { return a + b; }
fn scan_identity() -> T { return T(); }

@group(0) @binding(0) var<storage, read> keys: array<u32>;
@group(0) @binding(1) var<storage, read> values: array<u32>;
@group(0) @binding(2) var<storage, read_write> out_values: array<u32>;
@group(0) @binding(3) var<storage, read_write> out_keys: array<K>;
@group(0) @binding(4) var<storage, read_write> num_runs: array<u32>;
@group(0) @binding(5) var<storage, read_write> tile_state: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read_write> tile_counter: array<atomic<u32>>;
// The first n / 4 quads of the keys', the values' and out_values' memory
// (QUAD_TILES).
@group(0) @binding(7) var<storage, read> key_quads: array<vec4<u32>>;
@group(0) @binding(8) var<storage, read> value_quads: array<vec4<u32>>;
@group(0) @binding(9) var<storage, read_write> out_quads: array<vec4<u32>>;

// The look-back of the run counts (look_back.wgsl): thread 0 walks, one
// predecessor a round (WINDOW false), or its subgroup a window a round.
const WINDOW = false;
const FALLBACK = true;
const STALL_EVERY = 0u;

var<workgroup> shared_tile: u32;
var<workgroup> scan_flags: array<u32, BLOCK>;
var<workgroup> scan_values: array<T, BLOCK>;
var<workgroup> scan_counts: array<u32, BLOCK>;
// Each subgroup's inclusive total (SUBGROUP_SCAN; subgroups of 4 or more).
var<workgroup> group_flags: array<u32, BLOCK / 4u>;
var<workgroup> group_values: array<T, BLOCK / 4u>;
var<workgroup> group_counts: array<u32, BLOCK / 4u>;
// The pair and head count of the tile `tile_pair` last combined, after
// the barrier that ends it.
var<workgroup> pair_flag: u32;
var<workgroup> pair_value: T;
var<workgroup> pair_count: u32;
// The stash: the reduction's value at each run end of the tile
// (`fold_items`), as T's bits at the end's position in the tile
// (`stash_word`); each thread reads back its own (one quad without
// STASHED_ENDS). With STRIPED_TILES a full tile's keys and values pass
// through it first (`put_quad`, `get_quad`).
var<workgroup> run_quads: array<vec4<u32>, STASH_QUADS>;
// The scan's results of a tile as quads (`store_quads`; thread t's are
// quads t * ITEMS / 4 + j).
var<workgroup> out_tile: array<vec4<u32>, select(1u, TILE / 4u, QUAD_TILES)>;
// Thread 0's carry walk (`tile_carry`), handed to the workgroup.
var<workgroup> carry_value: T;
var<workgroup> carry_stalled: u32;

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
    if QUAD_TILES && tile < n / TILE {
        // first is a multiple of 4 (ITEMS is), and its quads lie below n.
        for (var j = 0u; j < ITEMS / 4u; j++) {
            let key_quad = key_quads[first / 4u + j];
            var value_quad = vec4(1u);
            if !NON_TRIVIAL {
                value_quad = value_quads[first / 4u + j];
            }
            for (var c = 0u; c < 4u; c++) {
                let k = 4u * j + c;
                put_item(&items, &before, k, first + k, bitcast<K>(key_quad[c]), bitcast<T>(value_quad[c]));
            }
        }
    } else {
        for (var k = 0u; k < ITEMS; k++) {
            items.values[k] = scan_identity();
            if first + k < n {
                take_item(&items, &before, k, first + k);
            }
        }
    }
    items.last = before;
    return items;
}

/// Element `i` (< n) as item `k` of `items`, after an element of key
/// `before`, which becomes its key.
fn take_item(items: ptr<function, Items>, before: ptr<function, K>, k: u32, i: u32) {
    put_item(items, before, k, i, key_at(i), value_at(i));
}

/// Element `i` (< n), of `key` and `value`, as item `k` of `items`, after
/// an element of key `before`, which becomes its key.
fn put_item(items: ptr<function, Items>, before: ptr<function, K>, k: u32, i: u32, key: K, value: T) {
    (*items).values[k] = value;
    if starts_run(i, key, *before) {
        (*items).heads |= 1u << k;
    }
    *before = key;
}

/// Whether element `i`, of `key`, after an element of key `before`,
/// starts a run: the first element, or its key differs.
fn starts_run(i: u32, key: K, before: K) -> bool {
    return i == 0u || key != before;
}

/// Value `i`: its bits, or 1 with NON_TRIVIAL.
fn value_at(i: u32) -> T {
    if NON_TRIVIAL {
        return bitcast<T>(1u);
    }
    return bitcast<T>(values[i]);
}

/// The run ends of thread `t`'s `items` of tile `tile`: bit k where
/// element k is the last of its run (the next key differs, or it is the
/// last element).
fn run_ends(tile: u32, t: u32, items: Items) -> u32 {
    let n = element_count();
    let first = tile * TILE + t * ITEMS;
    // Only elements below n end runs.
    if first >= n {
        return 0u;
    }
    let count = min(ITEMS, n - first);
    return ends_of(items.heads, count, head_after(first + count, items.last));
}

/// Whether element `i`, after an element of key `last`, starts a run: its
/// key differs, or it is past n (read only below n).
fn head_after(i: u32, last: K) -> bool {
    return i >= element_count() || key_at(i) != last;
}

/// The run ends of a thread's `count` (>= 1) items with head bits
/// `heads`: each item before a head, and the last where `next_head` (the
/// element after it starts a run).
fn ends_of(heads: u32, count: u32, next_head: bool) -> u32 {
    let last = count - 1u;
    return ((heads >> 1u) & ((1u << last) - 1u)) | select(0u, 1u << last, next_head);
}

/// The heads that count runs: every head, or with NON_TRIVIAL those that
/// do not also end their run (the first of a run longer than one).
fn counted_heads(heads: u32, ends: u32) -> u32 {
    if NON_TRIVIAL {
        return heads & ~ends;
    }
    return heads;
}

/// The runs thread `t`'s `items` of tile `tile` count.
fn counted(tile: u32, t: u32, items: Items) -> u32 {
    return counted_heads(items.heads, run_ends(tile, t, items));
}

/// The fold of a thread's items: the value after its last head, or of all
/// items without one.
fn fold(items: Items) -> T {
    var acc = items.values[0];
    for (var k = 1u; k < ITEMS; k++) {
        acc = select(scan_op(acc, items.values[k]), items.values[k], (items.heads & (1u << k)) != 0u);
    }
    return acc;
}

/// What the reduction keeps of thread `t`'s items (`fold_items`): their
/// head flags and run ends (bit k, as `load_items` and `run_ends` find
/// them) and their fold.
struct Folded {
    heads: u32,
    ends: u32,
    fold: T,
}

/// Item `k` (element `i`, of `key` and `value`) of `fold_items`' pass: its
/// head bit, the value of the item before it where that ends a run, and
/// the fold `acc` on.
fn fold_item(f: ptr<function, Folded>, acc: ptr<function, T>, before: ptr<function, K>, slot: u32, k: u32, i: u32,
             key: K, value: T) {
    fold_value(f, acc, slot, k, starts_run(i, key, *before), value);
    *before = key;
}

/// `fold_item` of item `k` whose `head` bit is known.
fn fold_value(f: ptr<function, Folded>, acc: ptr<function, T>, slot: u32, k: u32, head: bool, value: T) {
    if head && k > 0u {
        // Item k - 1 ends its run.
        stash_store(slot + k - 1u, *acc);
    }
    *acc = select(scan_op(*acc, value), value, head || k == 0u);
    (*f).heads |= select(0u, 1u << k, head);
}

/// The reduction's one pass over thread `t`'s items of tile `tile`, which
/// keeps no item: heads, ends and fold, and at each run end k the fold of
/// the items from the last head at or before it (from the first item
/// without one) in the stash's word t * ITEMS + k. The fold is `fold`'s of
/// `load_items` (the same operations in the same order) where all ITEMS
/// are below n; a thread with fewer is in the last tile, whose fold no
/// other tile reads, and folds only its items below n.
fn fold_items(tile: u32, t: u32) -> Folded {
    let n = element_count();
    if STRIPED_TILES && tile < n / TILE {
        return fold_striped(tile, t);
    }
    let first = tile * TILE + t * ITEMS;
    let slot = t * ITEMS;
    var f = Folded(0u, 0u, scan_identity());
    if first >= n {
        return f;
    }
    let count = min(ITEMS, n - first);
    var before = K();
    if first > 0u {
        before = key_at(first - 1u);
    }
    var acc = scan_identity();
    if count == ITEMS {
        // A whole thread's items, all loaded first: loops the compiler
        // unrolls, the loads straight-line, so that the native back ends
        // join each four consecutive words into one 16-byte load (a
        // thread's first word is 16-byte aligned where ITEMS is a multiple
        // of 4; the kernel ABI's buffers are).
        var item_keys: array<K, ITEMS>;
        var item_values: array<T, ITEMS>;
        for (var k = 0u; k < ITEMS; k++) {
            item_keys[k] = key_at(first + k);
            item_values[k] = value_at(first + k);
        }
        for (var k = 0u; k < ITEMS; k++) {
            fold_item(&f, &acc, &before, slot, k, first + k, item_keys[k], item_values[k]);
        }
    } else {
        for (var k = 0u; k < count; k++) {
            fold_item(&f, &acc, &before, slot, k, first + k, key_at(first + k), value_at(first + k));
        }
    }
    // The last item ends its run where the next key differs or is past n.
    return fold_end(f, acc, slot, count, head_after(first + count, before));
}

/// `f` of a thread's `count` items, folded to `acc`, completed: the last
/// item's run end where `next_head` (stashed), the ends and the fold.
fn fold_end(f: Folded, acc: T, slot: u32, count: u32, next_head: bool) -> Folded {
    if next_head {
        stash_store(slot + count - 1u, acc);
    }
    return Folded(f.heads, ends_of(f.heads, count, next_head), acc);
}

/// Where the stash keeps word `w` of a tile: itself, or with
/// STRIPED_TILES in quad w / 4 swizzled (`stash_quad`).
fn stash_word(w: u32) -> u32 {
    return 4u * stash_quad(w / 4u) + w % 4u;
}

/// Where the stash keeps a tile's quad `q`: itself, or with STRIPED_TILES
/// the quad its bits 0-2 xor bits 3-5 name, so that neither 8 lanes'
/// consecutive quads (a row) nor their blocked quads (t * ITEMS / 4 + j,
/// ITEMS / 4 even) share a bank group, 16-byte accesses being served 8
/// lanes at a time. A swizzled quad stays in its aligned 8 (TILE / 4 is a
/// multiple of 8).
fn stash_quad(q: u32) -> u32 {
    if !STRIPED_TILES {
        return q;
    }
    return q ^ ((q >> 3u) & 7u);
}

/// Word `w` of the stash, as T.
fn stash_load(w: u32) -> T {
    let p = stash_word(w);
    return bitcast<T>(run_quads[p / 4u][p % 4u]);
}

/// `v` into word `w` of the stash.
fn stash_store(w: u32, v: T) {
    let p = stash_word(w);
    run_quads[p / 4u][p % 4u] = bitcast<u32>(v);
}

/// Tile quad `q` (its words 4 q .. 4 q + 3) into the stash.
fn put_quad(q: u32, v: vec4<u32>) {
    run_quads[stash_quad(q)] = v;
}

/// Tile quad `q` from the stash.
fn get_quad(q: u32) -> vec4<u32> {
    return run_quads[stash_quad(q)];
}

/// `fold_items` of a full tile with STRIPED_TILES (every thread, in
/// uniform control flow: 2 barriers, 3 with the values' exchange): the
/// keys and the values loaded as lane-striped quads; the keys handed to
/// their threads through the stash, each thread finding its head bits
/// (its neighbours' keys, before its first and after its last, from the
/// stash where the neighbour is in the tile); then the values, folded as
/// fold_items does. Each thread reads and stashes only its own words after
/// the keys.
fn fold_striped(tile: u32, t: u32) -> Folded {
    let first = tile * TILE + t * ITEMS;
    let slot = t * ITEMS;
    let row = tile * (TILE / 4u) + t;
    for (var r = 0u; r < ITEMS / 4u; r++) {
        put_quad(r * BLOCK + t, key_quads[row + r * BLOCK]);
    }
    workgroupBarrier();
    var before = K();
    if t > 0u {
        before = bitcast<K>(bitcast<u32>(stash_load(slot - 1u)));
    } else if first > 0u {
        before = key_at(first - 1u);
    }
    var f = Folded(0u, 0u, scan_identity());
    for (var j = 0u; j < ITEMS / 4u; j++) {
        let q = get_quad(t * (ITEMS / 4u) + j);
        for (var c = 0u; c < 4u; c++) {
            let key = bitcast<K>(q[c]);
            let k = 4u * j + c;
            f.heads |= select(0u, 1u << k, starts_run(first + k, key, before));
            before = key;
        }
    }
    // The last item ends its run where the next key differs or is past n.
    var next_head: bool;
    if t + 1u < BLOCK {
        next_head = bitcast<K>(bitcast<u32>(stash_load(slot + ITEMS))) != before;
    } else {
        next_head = head_after(first + ITEMS, before);
    }
    // Every thread has read its keys before the values overwrite them.
    workgroupBarrier();
    if !NON_TRIVIAL {
        for (var r = 0u; r < ITEMS / 4u; r++) {
            put_quad(r * BLOCK + t, value_quads[row + r * BLOCK]);
        }
        workgroupBarrier();
    }
    var acc = scan_identity();
    for (var j = 0u; j < ITEMS / 4u; j++) {
        var q = vec4(1u);
        if !NON_TRIVIAL {
            q = get_quad(t * (ITEMS / 4u) + j);
        }
        for (var c = 0u; c < 4u; c++) {
            let k = 4u * j + c;
            fold_value(&f, &acc, slot, k, (f.heads & (1u << k)) != 0u, bitcast<T>(q[c]));
        }
    }
    return fold_end(f, acc, slot, ITEMS, next_head);
}

/// Thread `t`'s (flag, value, count) into the block scan's arrays.
fn store_scan(t: u32, f: u32, v: T, c: u32) {
    scan_flags[t] = f;
    scan_values[t] = v;
    scan_counts[t] = c;
}

/// The inclusive scan of each thread's (flag, value, count) over the
/// workgroup: afterwards scan_*[t] hold thread t's inclusive pair and
/// head count. Every thread calls it, in uniform control flow; it ends
/// with a barrier. With SUBGROUP_SCAN, subgroup scans by shuffles, then
/// each thread combines the totals of the subgroups before its own (2
/// barriers); else Kogge-Stone in workgroup memory (2 log2(BLOCK) + 1
/// barriers; emulated subgroups, whose every shuffle is a barrier).
fn block_scan(t: u32, flag: u32, value: T, count: u32) {
    var f = flag;
    var v = value;
    var c = count;
    if SUBGROUP_SCAN {
        let lane = sg::invocation_id();
        let size = sg::group_size();
        for (var d = 1u; d < size; d <<= 1u) {
            let pf = sg::shuffle_up<u32>(f, d);
            let pv = bitcast<T>(sg::shuffle_up<u32>(bitcast<u32>(v), d));
            let pc = sg::shuffle_up<u32>(c, d);
            if lane >= d {
                v = select(scan_op(pv, v), v, f != 0u);
                f |= pf;
                c += pc;
            }
        }
        let group = t / size;
        if lane == size - 1u {
            group_flags[group] = f;
            group_values[group] = v;
            group_counts[group] = c;
        }
        workgroupBarrier();
        if group > 0u {
            // The subgroups before this one, earliest first.
            var ef = group_flags[0];
            var ev = group_values[0];
            var ec = group_counts[0];
            for (var g = 1u; g < group; g++) {
                ev = select(scan_op(ev, group_values[g]), group_values[g], group_flags[g] != 0u);
                ef |= group_flags[g];
                ec += group_counts[g];
            }
            v = select(scan_op(ev, v), v, f != 0u);
            f |= ef;
            c += ec;
        }
        store_scan(t, f, v, c);
        workgroupBarrier();
        return;
    }
    store_scan(t, f, v, c);
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
            store_scan(t, f, v, c);
        }
        workgroupBarrier();
    }
}

/// Tile `tile`'s pair and count from thread `t`'s items (whether they
/// hold a `head`, their `fold`) and its `counted` heads, in every thread.
/// The owner and a fallback compute the fold with the same operations in
/// the same order (`fold`, `fold_items`), so both get its bits. The pair
/// and count are left in pair_* (after a barrier), and the block's scan in
/// scan_* until the next call.
fn tile_pair(t: u32, head: bool, fold: T, counted: u32) {
    block_scan(t, select(0u, 1u, head), fold, countOneBits(counted));
    if t == BLOCK - 1u {
        pair_flag = scan_flags[t];
        pair_value = scan_values[t];
        pair_count = scan_counts[t];
    }
    workgroupBarrier();
}

// The run counts' look-back: the u32 sum (look_back_words_scan.wgsl
// publishes and installs).

fn lb_tile_aggregate(p: u32, t: u32) -> u32 {
    let items = load_items(p, t);
    return lb_workgroup_sum(countOneBits(counted(p, t, items)), t);
}

fn lb_combine(earlier: u32, later: u32) -> u32 {
    return earlier + later;
}

fn lb_identity() -> u32 {
    return 0u;
}

// Tails.

/// Publishes tile `tile`'s tail: `value`, with or without a head.
fn publish_tail(tile: u32, head: bool, value: T) {
    // An LB_ state: store_publication shifts it into the words' top bits.
    let state = select(LB_AGGREGATE, LB_PREFIX, head);
    store_publication(tile_count() + tile, state, bitcast<u32>(value));
}

/// Tile p's tail as read now: LB_PENDING, LB_AGGREGATE (no head) or
/// LB_PREFIX (a head).
fn read_tail(p: u32) -> Publication {
    return lb_read(tile_count() + p);
}

/// Where a carry walk stands: the combination of the tails of tiles
/// [end, tile), and the tile it waits on (LB_DONE once it met a head).
struct CarryWalk {
    value: T,
    end: u32,
    stalled: u32,
}

/// The carry walker's walk over the tails before `w.end`, one a round
/// (look_back.wgsl's `walk_serial` on tails: WGSL has no generics to share
/// it), until a tile with a head, or (FALLBACK) SPINS rounds on an
/// unpublished one.
fn walk_tails(start: CarryWalk) -> CarryWalk {
    var w = start;
    var spins = 0u;
    loop {
        let seen = read_tail(w.end - 1u);
        if seen.state == LB_PENDING {
            spins += 1u;
            if FALLBACK && spins >= SPINS {
                w.stalled = w.end - 1u;
                return w;
            }
            continue;
        }
        w.value = scan_op(bitcast<T>(seen.value), w.value);
        w.end -= 1u;
        spins = 0u;
        if seen.state == LB_PREFIX {
            w.stalled = LB_DONE;
            return w;
        }
    }
    // Not reached.
    return w;
}

/// The thread that walks the tails: the last, in another subgroup than
/// the run counts' walkers (thread 0's), so that both walks overlap.
const CARRY_WALKER = BLOCK - 1u;

/// The carry walker publishes tile `tile`'s tail (`head`, `value`) and
/// walks the tails before it (thread CARRY_WALKER alone, after
/// `tile_pair`); `tile_carry` ends the walk.
fn start_carry(tile: u32, head: bool, value: T) {
    if !lb_stalls(tile) {
        publish_tail(tile, head, value);
    }
    var w = CarryWalk(scan_identity(), tile, select(LB_WALK, LB_DONE, tile == 0u));
    if w.stalled == LB_WALK {
        w = walk_tails(w);
    }
    carry_value = w.value;
    carry_stalled = w.stalled;
}

/// The carry into tile `tile`'s first run (the identity for tile 0, which
/// starts with a head), in every thread, after `start_carry`; every
/// thread calls it, in uniform control flow. A stalled walk has the
/// workgroup compute the stalled tile's pair (`tile_pair`, which reuses
/// scan_* and pair_*).
fn tile_carry(tile: u32, t: u32) -> T {
    if !FALLBACK {
        // The walk waited until it met a head.
        return workgroupUniformLoad(&carry_value);
    }
    loop {
        let stalled = workgroupUniformLoad(&carry_stalled);
        if stalled == LB_DONE {
            break;
        }
        let items = load_items(stalled, t);
        tile_pair(t, items.heads != 0u, fold(items), 0u);
        if t == CARRY_WALKER {
            // The walk so far is the carry_* words: it stalled before
            // tile `stalled`.
            var w = CarryWalk(
                scan_op(pair_value, carry_value),
                stalled,
                select(LB_WALK, LB_DONE, pair_flag != 0u),
            );
            if w.stalled == LB_WALK {
                w = walk_tails(w);
            }
            carry_value = w.value;
            carry_stalled = w.stalled;
        }
    }
    // Written by the walker before the last uniform load's barrier.
    return carry_value;
}

/// The tile's number from tile_counter, in every thread.
fn next_tile(t: u32) -> u32 {
    if t == 0u {
        shared_tile = atomicAdd(&tile_counter[0], 1u);
    }
    return workgroupUniformLoad(&shared_tile);
}

/// Thread `t`'s share of its tile's block scan: the inclusive pair of
/// thread t - 1 (flag, value; none for thread 0) and the tile's counted
/// heads before thread t, and the tile's own head count.
struct Before {
    flag: u32,
    value: T,
    heads: u32,
    total: u32,
}

/// Combines the tile's pair and starts the carry walk (every thread, in
/// uniform control flow): thread `t`'s share of the block's scan, read
/// before the walks, whose fallbacks reuse the workgroup memory.
fn tile_start(tile: u32, t: u32, head: bool, fold: T, counted: u32) -> Before {
    tile_pair(t, head, fold, counted);
    var before = Before(0u, scan_identity(), 0u, pair_count);
    if t > 0u {
        before.flag = scan_flags[t - 1u];
        before.value = scan_values[t - 1u];
        before.heads = scan_counts[t - 1u];
    }
    if t == CARRY_WALKER {
        start_carry(tile, pair_flag != 0u, pair_value);
    }
    return before;
}

/// Thread `t`'s running value before its first item: `before`'s value
/// after the tile's `carry`.
fn running_value(t: u32, before: Before, carry: T) -> T {
    if t == 0u {
        return carry;
    }
    return select(scan_op(carry, before.value), before.value, before.flag != 0u);
}

@compute @workgroup_size(BLOCK)
fn scan_by_key(@builtin(local_invocation_index) t: u32) {
    let tile = next_tile(t);
    if tile >= tile_count() {
        return;
    }
    let items = load_items(tile, t);
    let before = tile_start(tile, t, items.heads != 0u, fold(items), 0u);
    var running = running_value(t, before, tile_carry(tile, t));
    var bits: array<u32, ITEMS>;
    for (var k = 0u; k < ITEMS; k++) {
        let head = (items.heads & (1u << k)) != 0u;
        let exclusive = select(running, scan_identity(), head);
        running = select(scan_op(running, items.values[k]), items.values[k], head);
        bits[k] = bitcast<u32>(select(exclusive, running, INCLUSIVE));
    }
    if QUAD_TILES {
        store_quads(tile, t, &bits);
    } else {
        let offset = tile * TILE;
        blk::store_direct_blocked<u32, BLOCK, ITEMS, out_values>(offset, element_count() - offset, &bits);
    }
}

/// Thread `t`'s results `bits` of tile `tile` (its items) into out_values,
/// through workgroup memory as quads: written blocked (quads t * ITEMS / 4
/// + j: no bank conflicts where ITEMS / 4 is odd), read lane-striped
/// (quad r * BLOCK + t) and stored as vec4s where the whole quad lies below
/// n, word by word below n where it does not. Every thread, in uniform
/// control flow (one barrier); out_tile is written nowhere else.
fn store_quads(tile: u32, t: u32, bits: ptr<function, array<u32, ITEMS>>) {
    for (var j = 0u; j < ITEMS / 4u; j++) {
        let k = 4u * j;
        out_tile[t * (ITEMS / 4u) + j] = vec4((*bits)[k], (*bits)[k + 1u], (*bits)[k + 2u], (*bits)[k + 3u]);
    }
    workgroupBarrier();
    let n = element_count();
    let base = tile * (TILE / 4u);
    for (var r = 0u; r < ITEMS / 4u; r++) {
        let q = r * BLOCK + t;
        let quad = out_tile[q];
        let first = 4u * (base + q);
        if first + 4u <= n {
            out_quads[base + q] = quad;
        } else {
            for (var c = 0u; c < 4u; c++) {
                if first + c < n {
                    out_values[first + c] = quad[c];
                }
            }
        }
    }
}

/// Where a thread of the reduction starts once its tile's walks end: its
/// running value before its first item, and the runs before it (its k-th
/// counted head starts run `base` + k).
struct Start {
    incoming: T,
    base: u32,
}

/// The reduction's tile `tile` from thread `t`'s `heads`, `fold` and
/// `counted` heads (every thread, in uniform control flow): the block
/// scan, the two walks (thread 0's subgroup walks the counts while the
/// carry walker walks the tails), and the run count from the last tile.
fn tile_runs(tile: u32, t: u32, heads: u32, fold: T, counted: u32) -> Start {
    let before = tile_start(tile, t, heads != 0u, fold, counted);
    let runs_before = tile_prefix(tile, t, before.total);
    let carry = tile_carry(tile, t);
    if t == 0u && tile == tile_count() - 1u {
        num_runs[0] = runs_before + before.total;
    }
    return Start(running_value(t, before, carry), runs_before + before.heads);
}

/// The reduction with the items' values in registers until the carry is
/// known: one pass over them writes each run's key and value.
fn reduce_held(tile: u32, t: u32) {
    let items = load_items(tile, t);
    let ends = run_ends(tile, t, items);
    let counted = counted_heads(items.heads, ends);
    let start = tile_runs(tile, t, items.heads, fold(items), counted);
    var running = start.incoming;
    var run = start.base;
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

/// The reduction with the items folded as they load (`fold_items`, run
/// ends' values in the stash): after the carry, only the thread's heads
/// and ends are visited.
fn reduce_stashed(tile: u32, t: u32) {
    let f = fold_items(tile, t);
    let counted = counted_heads(f.heads, f.ends);
    let start = tile_runs(tile, t, f.heads, f.fold, counted);
    let first = tile * TILE + t * ITEMS;
    var heads_left = counted;
    while heads_left != 0u {
        let k = firstTrailingBit(heads_left);
        let run = start.base + countOneBits(counted & ((1u << k) - 1u));
        if NON_TRIVIAL {
            out_keys[run] = bitcast<K>(first + k);
        } else {
            out_keys[run] = key_at(first + k);
        }
        heads_left &= heads_left - 1u;
    }
    // A run of one is no non-trivial run.
    var ends_left = f.ends & ~select(0u, f.heads, NON_TRIVIAL);
    while ends_left != 0u {
        let k = firstTrailingBit(ends_left);
        // Items 0 ..= k (k <= 31: the shift wraps to 0 for k = 31).
        let through = (2u << k) - 1u;
        var value = stash_load(t * ITEMS + k);
        if (f.heads & through) == 0u {
            // The run began before this thread's items.
            value = scan_op(start.incoming, value);
        }
        // The run's number: the counted heads up to its end, less one.
        out_values[start.base + countOneBits(counted & through) - 1u] = bitcast<u32>(value);
        ends_left &= ends_left - 1u;
    }
}

@compute @workgroup_size(BLOCK)
fn reduce_by_key(@builtin(local_invocation_index) t: u32) {
    let tile = next_tile(t);
    if tile >= tile_count() {
        return;
    }
    if STASHED_ENDS {
        reduce_stashed(tile, t);
    } else {
        reduce_held(tile, t);
    }
}
