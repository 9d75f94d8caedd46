// Device-wide exclusive or inclusive scan of a 32-bit T under an
// associative operator with an identity (wavekit::device::Scan for f32 sums,
// min, max and user operators; the u32 / i32 sums keep scan.wgsl's vec4
// tiles and look-back, whose generated code this file leaves unchanged).
//
// Reduce-then-scan over tiles of TILE = BLOCK * ITEMS elements; thread t of
// a tile owns its ITEMS consecutive elements (blocked), so every
// combination takes the earlier operand first and the operator need not be
// commutative:
//   tile_reduce (grid of tiles): tile_sums[tile] = the tile's combination
//     (each thread folds its items, `blk::inclusive_scan<T, BLOCK, scan_op>`
//     over the threads' folds, the last thread writes);
//   scan_tile_sums (1 workgroup): tile_sums becomes its exclusive scan;
//   tile_scan (grid of tiles): each tile scanned from tile_sums[tile].
// Elements past n read as the identity and are not written, so n need not
// be a multiple of anything. No look-back: a tile's publication would need
// the operator's combination of a window of predecessors in order, and
// three passes need no forward progress.
//
// Host edits: `alias T`, `const INCLUSIVE`, the operator `fn scan_op` (the
// host replaces its line by the user's function text and a `scan_op` that
// calls it) and `fn scan_identity`.
// Bindings: 0 input (array<T>, n), 1 output (array<T>, n), 2 tile_sums
//   (array<T>, one per tile).
// Cost per element: 2 reads and 1 write, 2 calls of the operator; per
//   tile 2 block scans (log2(S) shuffles and operator calls per thread and
//   one barrier each); scan_tile_sums reads and writes each tile sum once.
#import wavekit::block as blk

alias T = u32;
const INCLUSIVE = false;
const BLOCK = 256u;
const ITEMS = 8u;
const TILE = BLOCK * ITEMS;

fn scan_op(a: T, b: T) -> T { return a + b; }
fn scan_identity() -> T { return T(); }

@group(0) @binding(0) var<storage, read> input: array<T>;
@group(0) @binding(1) var<storage, read_write> output: array<T>;
@group(0) @binding(2) var<storage, read_write> tile_sums: array<T>;

var<workgroup> chunk_total: T;

fn tile_count() -> u32 {
    return (arrayLength(&input) + TILE - 1u) / TILE;
}

/// Thread `t`'s ITEMS elements of tile `tile` (the identity past n).
fn load_items(tile: u32, t: u32) -> array<T, ITEMS> {
    let n = arrayLength(&input);
    let first = tile * TILE + t * ITEMS;
    var items: array<T, ITEMS>;
    for (var k = 0u; k < ITEMS; k++) {
        items[k] = scan_identity();
        if first + k < n {
            items[k] = input[first + k];
        }
    }
    return items;
}

fn fold(items: array<T, ITEMS>) -> T {
    var acc = items[0];
    for (var k = 1u; k < ITEMS; k++) {
        acc = scan_op(acc, items[k]);
    }
    return acc;
}

@compute @workgroup_size(BLOCK)
fn tile_reduce(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    let tile = wid.x + wid.y * nwg.x;
    if tile >= tile_count() {
        return;
    }
    let total = blk::inclusive_scan<T, BLOCK, scan_op>(fold(load_items(tile, t)));
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
    let items = load_items(tile, t);
    let before = blk::exclusive_scan<T, BLOCK, scan_op>(fold(items), scan_identity());
    var running = scan_op(tile_sums[tile], before);
    let n = arrayLength(&output);
    let first = tile * TILE + t * ITEMS;
    for (var k = 0u; k < ITEMS; k++) {
        let exclusive = running;
        running = scan_op(running, items[k]);
        if first + k < n {
            output[first + k] = select(exclusive, running, INCLUSIVE);
        }
    }
}
