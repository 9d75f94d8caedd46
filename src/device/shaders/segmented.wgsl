// Segmented prefix scans (wavekit::device::SegmentedScan) of a 32-bit T
// under an associative operator with an identity: segment s is elements
// [begin, end) of the input, from offsets (begin_offsets[s],
// end_offsets[s], as CUB's) or of one fixed size (s * size, (s + 1) *
// size). The reductions are segmented_reduce.wgsl's.
//
// One workgroup per segment (spilling into y), walking it in tiles of
// TILE = BLOCK * ITEMS elements, thread t owning ITEMS consecutive
// elements of each (blocked); a tile is folded per thread, scanned over
// the workgroup with the block layer's user-operator scan
// (`blk::exclusive_scan<T, BLOCK, scan_op>`) and stored, and a carry runs
// from tile to tile. Every combination takes the earlier operand first,
// so the operator need not be commutative. One read and one write an
// element, each element read by the thread that writes it (in place is
// safe).
// On an H200 through CUDA (docs/benchmarks/2026-11-28p-h200-segmented-shares),
// tried and not kept: tiles of 4096 with one barrier (8.0 against 6.0 us
// at 2^20 over segments of 1024), and reading the next tile before
// scanning this one (up to 1.4x faster over a few long segments, but 9-18 %
// slower over segments of 1024 and 1.4x slower at 2^26 over segments of
// 65536); and in 2026-11-28r-h200-segmented-quads, other workgroup shapes
// (128 x 4 about as fast over segments of 1024, 1.1-1.5x slower over 65536;
// 256 x 8 faster over a few long segments, 1.8-2.7x slower elsewhere).
// Built without bounds checks or workgroup zeroing natively
// (`Context::pipelines_proven`): every load and store is below its
// segment's end (at most n), offsets are read below the segment count, and
// workgroup memory is read only after the barrier that follows its writes.
// No pass and no state spans segments, so there is no temp and no
// look-back. Element indices stay below 2^32 - BLOCK * ITEMS.
//
// Segments, their count and the fixed size's stand-in bindings:
// segment_range.wgsl (appended); no element is read or written out of
// bounds whatever the offsets. An empty segment writes no output. Elements
// outside every segment are not written.
//
// Parameters (set by name by the host): `alias T`, `const INCLUSIVE`, the
// operator `fn scan_op` (the host replaces its line by the user's function
// text and a `scan_op` that calls it) and `fn scan_identity`; ITEMS
// (WAVEKIT_SHADER_PARAMS may change it).
// Bindings: 0 input (n of T, as bits: array<u32>: blocked_items.wgsl says
//   why), 1 output (array<T>, n), 2 begin_offsets, 3 end_offsets (u32, one
//   per segment).
// Cost per element: 1 read and 1 write; per tile one block scan and a
//   uniform load.
// Append: blocked_items.wgsl (load_tile, fold, store_scanned),
// segment_range.wgsl (segment_count, segment).
#import wavekit::block as blk

alias T = u32;
const INCLUSIVE = true;
const BLOCK = 256u;
const ITEMS = 4u;
const TILE = BLOCK * ITEMS;

fn scan_op(a: T, b: T) -> T { return a + b; }
fn scan_identity() -> T { return T(); }

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<T>;
@group(0) @binding(2) var<storage, read> begin_offsets: array<u32>;
@group(0) @binding(3) var<storage, read> end_offsets: array<u32>;

/// A tile's total.
var<workgroup> tile_total: T;

/// Segment `s`'s scan into its elements of output: tiles of TILE, thread
/// t's ITEMS consecutive elements of each folded, scanned over the
/// workgroup (`blk::exclusive_scan`) and stored, a carry running from tile
/// to tile.
fn scan_segment(s: u32, t: u32, fixed: bool) {
    let range = segment(s, fixed);
    var carry = scan_identity();
    for (var base = range.x; base < range.y; base += TILE) {
        let first = base + t * ITEMS;
        let items = load_tile(base, range.y);
        let mine = fold(items);
        let before = blk::exclusive_scan<T, BLOCK, scan_op>(mine, scan_identity());
        store_scanned(first, range.y, items, scan_op(carry, before));
        // The last tile's total carries into nothing: no barrier for it (a
        // segment of one tile meets once, in the block scan).
        if base + TILE < range.y {
            if t == BLOCK - 1u {
                tile_total = scan_op(before, mine);
            }
            carry = scan_op(carry, workgroupUniformLoad(&tile_total));
        }
    }
}

@compute @workgroup_size(BLOCK)
fn segmented_scan(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
                  @builtin(num_workgroups) nwg: vec3<u32>) {
    let s = wid.x + wid.y * nwg.x;
    if s >= segment_count() {
        return;
    }
    scan_segment(s, t, false);
}

@compute @workgroup_size(BLOCK)
fn fixed_scan(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
              @builtin(num_workgroups) nwg: vec3<u32>) {
    let s = wid.x + wid.y * nwg.x;
    if s >= segment_count() {
        return;
    }
    scan_segment(s, t, true);
}
