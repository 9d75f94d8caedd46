// Segmented reductions and scans (wavekit::device::SegmentedReduce,
// SegmentedScan) of a 32-bit T under an associative operator with an
// identity: segment s is elements [begin, end) of the input, from offsets
// (begin_offsets[s], end_offsets[s], as CUB's) or of one fixed size
// (s * size, (s + 1) * size).
//
// One workgroup per segment (spilling into y), walking the segment in
// tiles of TILE = BLOCK * ITEMS elements; thread t owns ITEMS consecutive
// elements of a tile (blocked), so every combination takes the earlier
// operand first and the operator need not be commutative. A tile is folded
// per thread and combined over the workgroup with the block layer's
// user-operator scans (`blk::inclusive_scan` / `exclusive_scan<T, BLOCK,
// scan_op>`), and a carry runs from tile to tile. No pass and no state
// spans segments, so there is no temp and no look-back.
//
// Segments, their count and the fixed size's stand-in bindings:
// segment_range.wgsl (appended); no element is read or written out of
// bounds whatever the offsets. An empty segment reduces to the identity and writes no scan
// output. Elements outside every segment are not written by a scan.
//
// Parameters (set by name by the host): `alias T`, `const INCLUSIVE`, the
// operator `fn scan_op` (the host replaces its line by the user's function
// text and a `scan_op` that calls it) and `fn scan_identity`.
// Bindings: 0 input (n of T, as bits: array<u32>, blocked_items.wgsl says
//   why), 1 output (array<T>: one per segment for
//   the reduction, n for the scan), 2 begin_offsets, 3 end_offsets (u32,
//   one per segment).
// fill_identity (n = 0: the offsets bound as the input) writes the
//   identity to each segment's output.
// Cost per element: 1 read (1 write for the scan); per tile one block scan
//   (two for the scan) and a uniform load.
// Append: blocked_items.wgsl (load_tile, fold, tile_aggregate,
// store_scanned), segment_range.wgsl (segment_count, segment).
#import wavekit::subgroup as sg
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

var<workgroup> tile_total: T;

/// Segment `s`'s reduction into output[s].
fn reduce_segment(s: u32, t: u32, fixed: bool) {
    let range = segment(s, t, fixed);
    var acc = scan_identity();
    for (var base = range.x; base < range.y; base += TILE) {
        acc = scan_op(acc, tile_aggregate(load_tile(base, range.y), t));
    }
    if t == 0u {
        output[s] = acc;
    }
}

/// Segment `s`'s scan into its elements of output.
fn scan_segment(s: u32, t: u32, fixed: bool) {
    let range = segment(s, t, fixed);
    var carry = scan_identity();
    for (var base = range.x; base < range.y; base += TILE) {
        let first = base + t * ITEMS;
        let items = load_tile(base, range.y);
        let mine = fold(items);
        let before = blk::exclusive_scan<T, BLOCK, scan_op>(mine, scan_identity());
        store_scanned(first, range.y, items, scan_op(carry, before));
        if t == BLOCK - 1u {
            tile_total = scan_op(before, mine);
        }
        carry = scan_op(carry, workgroupUniformLoad(&tile_total));
    }
}

@compute @workgroup_size(BLOCK)
fn segmented_reduce(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
                    @builtin(num_workgroups) nwg: vec3<u32>) {
    let s = wid.x + wid.y * nwg.x;
    if s >= segment_count() {
        return;
    }
    reduce_segment(s, t, false);
}

@compute @workgroup_size(BLOCK)
fn fixed_reduce(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
                @builtin(num_workgroups) nwg: vec3<u32>) {
    let s = wid.x + wid.y * nwg.x;
    if s >= segment_count() {
        return;
    }
    reduce_segment(s, t, true);
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

/// Without elements (n = 0, the offsets bound as a stand-in input): every
/// segment's reduction is the identity.
@compute @workgroup_size(BLOCK)
fn fill_identity(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
                 @builtin(num_workgroups) nwg: vec3<u32>) {
    let s = wid.x + wid.y * nwg.x;
    if s < segment_count() && t == 0u {
        output[s] = scan_identity();
    }
}
