// Device-wide exclusive or inclusive scan of a 32-bit T under an
// associative operator with an identity (wavekit::device::Scan for f32 sums,
// min, max and user operators; the u32 / i32 sums keep scan.wgsl's vec4
// tiles and window look-back, whose generated code this file leaves
// unchanged).
//
// Tiles of TILE = BLOCK * ITEMS elements; thread t of a tile owns its ITEMS
// consecutive elements (blocked), so every combination takes the earlier
// operand first and the operator need not be commutative.
//
// Single pass, decoupled look-back with decoupled fallback (look_back.wgsl,
// appended; publications in two words, look_back_words.wgsl):
//   scan_lookback: tile_state and tile_counter zeroed first; one workgroup
//     per tile (spilling into y). Each takes the next tile from
//     tile_counter, scans its tile once (`tile_scan_of`: the fold of each
//     thread's items, then `blk::exclusive_scan<T, BLOCK, scan_op>` over
//     the folds, the total from the last thread), publishes the total, and
//     the subgroup of thread 0 walks back S predecessors a round (WINDOW,
//     the host's choice but on emulated subgroups, where thread 0 walks one
//     a round), combining each window in tile order (ORDERED_WINDOW: a
//     shuffle tree of `scan_op(earlier, later)`);
//     a predecessor unpublished for SPINS rounds is combined again from its
//     input by the whole workgroup with the same `tile_scan_of`, so its
//     bits equal the owner's (what the fallback's atomicMax install needs,
//     float operators included). Then the tile is scanned from that prefix.
// Reduce-then-scan (three passes, portable):
//   tile_reduce (grid of tiles): tile_sums[tile] = the tile's combination;
//   scan_tile_sums (1 workgroup): tile_sums becomes its exclusive scan;
//   tile_scan (grid of tiles): each tile scanned from tile_sums[tile].
// Elements past n read as the identity and are not written, so n need not
// be a multiple of anything.
//
// Parameters (set by name by the host): `alias T`, `const INCLUSIVE`, the
// operator `fn scan_op` (the host replaces its line by the user's function
// text and a `scan_op` that calls it) and `fn scan_identity`; ITEMS (12,
// through wgpu 10); WINDOW, FALLBACK and STALL_EVERY, and ORDERED_WINDOW
// (look_back.wgsl); LOAD_TRANSPOSED and STORE_TRANSPOSED
// (WAVEKIT_SHADER_PARAMS may change them and ITEMS).
// Bindings: 0 input and 1 output (n of T, as bits: array<u32>,
//   blocked_items.wgsl says why), 2 tile_sums
//   (array<T>, one per tile), 3 tile_state (2 words per tile), 4
//   tile_counter (1 word). Every entry point binds all five.
// Cost per element: single pass 1 read and 1 write, 2 calls of the
//   operator; reduce-then-scan 2 reads and 1 write, 2 calls; per tile one
//   block scan (two in reduce-then-scan; log2(S) shuffles and operator
//   calls per thread and a barrier each), the transposed store's 2
//   barriers, and a uniform load per look-back round. scan_tile_sums
//   reads and writes each tile sum once.
// Append: look_back.wgsl (look_back and its protocol), look_back_words.wgsl
// (publications in two words), look_back_words_scan.wgsl (lb_publish,
// lb_install), blocked_items.wgsl (load_tile, fold, tile_scan_of,
// store_scanned).
#import wavekit::subgroup as sg
#import wavekit::block as blk

alias T = u32;
const INCLUSIVE = false;
const BLOCK = 256u;
// 12 a thread (tiles of 3072): on an H200 through CUDA the inclusive u32
// max took 218 us at 2^26 against 271 with 8 and 341 with 16
// (docs/benchmarks/2026-11-28u-h200-segmented-scan-quads).
const ITEMS = 12u;
const TILE = BLOCK * ITEMS;
// The tile's loads and stores through workgroup memory (coalesced), or
// each thread's ITEMS words directly: on an H200 (8 items a thread, the
// window walk) the transposed store made the inclusive u32 max 1.31x
// faster at 2^26 through CUDA (391.6 against 299.7 us) and 1.54x through
// Vulkan, and the transposed load 1.27x slower through CUDA and 1.06x
// through Vulkan (blocked_items.wgsl;
// docs/benchmarks/2026-11-28u-h200-segmented-scan-quads).
const LOAD_TRANSPOSED = false;
const STORE_TRANSPOSED = true;

fn scan_op(a: T, b: T) -> T { return a + b; }
fn scan_identity() -> T { return T(); }

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;
@group(0) @binding(2) var<storage, read_write> tile_sums: array<T>;
@group(0) @binding(3) var<storage, read_write> tile_state: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> tile_counter: array<atomic<u32>>;

// The look-back (look_back.wgsl): the subgroup of thread 0 walks S
// predecessors a round (WINDOW; the host sets it, and ORDERED_WINDOW).
// Thread 0 alone, one a round (WINDOW false), held the single pass at
// about 1 TB/s on an H200 (0.32-0.40x CUB's DeviceScan::InclusiveScan with
// the direct store; the window made it 1.87x faster at 2^26,
// docs/benchmarks/2026-11-28u-h200-segmented-scan-quads).
const WINDOW = false;
const FALLBACK = true;
const STALL_EVERY = 0u;

var<workgroup> chunk_total: T;
var<workgroup> shared_tile: u32;
var<workgroup> tile_total: T;

fn tile_count() -> u32 {
    return (arrayLength(&input) + TILE - 1u) / TILE;
}

/// The calling thread's ITEMS elements of tile `tile` (the identity past
/// n).
fn load_items(tile: u32) -> array<T, ITEMS> {
    return load_tile(tile * TILE, arrayLength(&input));
}

fn lb_tile_aggregate(p: u32, t: u32) -> u32 {
    return bitcast<u32>(tile_scan_of(load_items(p), t).total);
}

fn lb_combine(earlier: u32, later: u32) -> u32 {
    return bitcast<u32>(scan_op(bitcast<T>(earlier), bitcast<T>(later)));
}

fn lb_identity() -> u32 {
    return bitcast<u32>(scan_identity());
}

/// Writes thread `t`'s elements of tile `tile` scanned from `prefix` (the
/// combination of every element before the tile) and `before` (of the
/// tile's threads before this one).
fn store_items(tile: u32, t: u32, items: array<T, ITEMS>, prefix: T, before: T) {
    store_scanned(tile * TILE, t, arrayLength(&output), items, scan_op(prefix, before));
}

@compute @workgroup_size(BLOCK)
fn scan_lookback(@builtin(local_invocation_index) t: u32) {
    if t == 0u {
        shared_tile = atomicAdd(&tile_counter[0], 1u);
    }
    let tile = workgroupUniformLoad(&shared_tile);
    if tile >= tile_count() {
        return;
    }
    let items = load_items(tile);
    // One block scan: its total is the published aggregate, and its
    // `before` what the store scans from.
    let scanned = tile_scan_of(items, t);
    let prefix = bitcast<T>(tile_prefix(tile, t, bitcast<u32>(scanned.total)));
    store_items(tile, t, items, prefix, scanned.before);
}

@compute @workgroup_size(BLOCK)
fn tile_reduce(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    let tile = wid.x + wid.y * nwg.x;
    if tile >= tile_count() {
        return;
    }
    let total = blk::inclusive_scan<T, BLOCK, scan_op>(fold(load_items(tile)));
    if t == BLOCK - 1u {
        tile_sums[tile] = total;
    }
}

@compute @workgroup_size(BLOCK)
fn scan_tile_sums(@builtin(local_invocation_index) t: u32) {
    let tiles = tile_count();
    var carry = scan_identity();
    for (var base = 0u; base < tiles; base += TILE) {
        let first = base + t * ITEMS;
        var sums: array<T, ITEMS>;
        for (var k = 0u; k < ITEMS; k++) {
            sums[k] = scan_identity();
            if first + k < tiles {
                sums[k] = tile_sums[first + k];
            }
        }
        let mine = fold(sums);
        let before = blk::exclusive_scan<T, BLOCK, scan_op>(mine, scan_identity());
        var running = scan_op(carry, before);
        for (var k = 0u; k < ITEMS; k++) {
            if first + k < tiles {
                tile_sums[first + k] = running;
            }
            running = scan_op(running, sums[k]);
        }
        if t == BLOCK - 1u {
            chunk_total = scan_op(before, mine);
        }
        carry = scan_op(carry, workgroupUniformLoad(&chunk_total));
    }
}

@compute @workgroup_size(BLOCK)
fn tile_scan(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
             @builtin(num_workgroups) nwg: vec3<u32>) {
    let tile = wid.x + wid.y * nwg.x;
    if tile >= tile_count() {
        return;
    }
    let items = load_items(tile);
    let before = blk::exclusive_scan<T, BLOCK, scan_op>(fold(items), scan_identity());
    store_items(tile, t, items, tile_sums[tile], before);
}
