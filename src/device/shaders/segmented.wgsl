// Segmented prefix scans (wavekit::device::SegmentedScan) of a 32-bit T
// under an associative operator with an identity, over an input of at
// least 4 elements: segment s is elements [begin, end) of the input, from
// offsets (begin_offsets[s], end_offsets[s], as CUB's) or of one fixed
// size (s * size, (s + 1) * size). Inputs of fewer than 4 elements take
// segmented_few.wgsl (the quads bindings need 16 bytes). The
// reductions are segmented_reduce.wgsl's.
//
// One workgroup per segment (spilling into y), walking it in tiles of
// TILE = BLOCK * 4 elements that start on a 16-byte boundary (the first at
// the quad that holds the segment's first element): thread t owns quad t
// of a tile, its 4 consecutive elements (blocked). A quad wholly inside
// the segment is one vec4 load and one vec4 store (through `quads_in` and
// `quads_out`, vec4 views of the input's and the output's memory), so a
// subgroup's load and store are S consecutive vec4s; the up to two quads
// that the segment's ends cut are read and written element by element,
// with the identity in place of the elements outside it. A tile is folded
// per thread, scanned over the workgroup with the block layer's
// user-operator scan (`blk::exclusive_scan<T, BLOCK, scan_op>`) and
// stored, and a carry runs from tile to tile. Every combination takes the
// earlier operand first, so the operator need not be commutative. One
// read and one write an element, each element read by the thread that
// writes it (in place is safe).
// On an H200 through CUDA (docs/benchmarks/2026-11-28u-h200-segmented-scan-quads),
// four u32 loads and stores a thread (a blocked tile read as u32s, which
// LLVM does not join) used each 32-byte sector a quarter at a time: the L2
// was 89 % busy at 2^24 over segments of 1024, and the scan ran at 0.85-0.90x
// CCCL's DeviceSegmentedScan at 2^20-2^22 and 2^26.
// Tried and not kept (docs/benchmarks/2026-11-28p-h200-segmented-shares):
// tiles of 4096 with one barrier (8.0 against 6.0 us at 2^20 over segments
// of 1024), and reading the next tile before scanning this one (up to 1.4x
// faster over a few long segments, but 9-18 % slower over segments of 1024
// and 1.4x slower at 2^26 over segments of 65536); and in
// 2026-11-28r-h200-segmented-quads, other workgroup shapes (128 x 4 about
// as fast over segments of 1024, 1.1-1.5x slower over 65536; 256 x 8
// faster over a few long segments, 1.8-2.7x slower elsewhere).
// Built without bounds checks or workgroup zeroing natively
// (`Context::pipelines_proven`): every element loaded or stored lies
// inside its segment (below its end, at most n); a quad is read or
// written whole only when all of it does, so its index is below n / 4 (the
// quads bindings' length); offsets are read below the segment count; and
// workgroup memory is read only after the barrier that follows its writes.
// No pass and no state spans segments, so there is no temp and no
// look-back. Element indices stay below 2^32 - BLOCK * 4.
//
// Segments, their count and the fixed size's stand-in bindings:
// segment_range.wgsl (appended); no element is read or written out of
// bounds whatever the offsets. An empty segment writes no output. Elements
// outside every segment are not written.
//
// Parameters (set by name by the host): `alias T`, `const INCLUSIVE`, the
// operator `fn scan_op` (the host replaces its line by the user's function
// text and a `scan_op` that calls it) and `fn scan_identity`.
// Bindings: 0 input (n of T, as bits: array<u32>, since naga gives
//   `alias T` a type of its own, which a block row instantiated through T
//   does not take by pointer), 1 output (array<T>, n), 2 begin_offsets, 3 end_offsets (u32, one
//   per segment), 4 quads_in and 5 quads_out (the input's and the output's
//   first n / 4 quads, at least one: the same memory from each one's
//   start, which natively is 16-byte aligned).
// Cost per element: 1/4 of a vec4 read and of a vec4 write; per tile one
//   block scan and a uniform load.
// Append: segment_range.wgsl (segment_count, segment).
#import wavekit::block as blk

alias T = u32;
const INCLUSIVE = true;
const BLOCK = 256u;
/// A tile's elements: a quad a thread.
const TILE = BLOCK * 4u;

fn scan_op(a: T, b: T) -> T { return a + b; }
fn scan_identity() -> T { return T(); }

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<T>;
@group(0) @binding(2) var<storage, read> begin_offsets: array<u32>;
@group(0) @binding(3) var<storage, read> end_offsets: array<u32>;
@group(0) @binding(4) var<storage, read> quads_in: array<vec4<u32>>;
@group(0) @binding(5) var<storage, read_write> quads_out: array<vec4<u32>>;

/// A tile's total.
var<workgroup> tile_total: T;

/// Whether quad `q` (elements 4q to 4q + 3) lies wholly inside `range`.
fn whole(q: u32, range: vec2<u32>) -> bool {
    return 4u * q >= range.x && 4u * q + 4u <= range.y;
}

/// Quad `q`'s elements that lie inside `range`, the identity in place of
/// the others: one vec4 load for a whole quad.
fn load_quad(q: u32, range: vec2<u32>) -> vec4<u32> {
    if whole(q, range) {
        return quads_in[q];
    }
    var bits = vec4<u32>(bitcast<u32>(scan_identity()));
    for (var k = 0u; k < 4u; k++) {
        let i = 4u * q + k;
        if i >= range.x && i < range.y {
            bits[k] = input[i];
        }
    }
    return bits;
}

/// A quad's four elements combined in order.
fn fold_quad(q: vec4<u32>) -> T {
    let xy = scan_op(bitcast<T>(q.x), bitcast<T>(q.y));
    return scan_op(scan_op(xy, bitcast<T>(q.z)), bitcast<T>(q.w));
}

/// Writes quad `q`'s elements inside `range` scanned from `start` (the
/// combination of everything before them): inclusive or exclusive by
/// INCLUSIVE; one vec4 store for a whole quad.
fn store_quad(q: u32, range: vec2<u32>, bits: vec4<u32>, start: T) {
    var scanned: vec4<u32>;
    var running = start;
    for (var k = 0u; k < 4u; k++) {
        let exclusive = running;
        running = scan_op(running, bitcast<T>(bits[k]));
        scanned[k] = bitcast<u32>(select(exclusive, running, INCLUSIVE));
    }
    if whole(q, range) {
        quads_out[q] = scanned;
        return;
    }
    for (var k = 0u; k < 4u; k++) {
        let i = 4u * q + k;
        if i >= range.x && i < range.y {
            output[i] = bitcast<T>(scanned[k]);
        }
    }
}

/// Segment `s`'s scan into its elements of output: tiles of TILE from the
/// quad of its first element, thread t's quad of each folded, scanned over
/// the workgroup (`blk::exclusive_scan`) and stored, a carry running from
/// tile to tile.
fn scan_segment(s: u32, t: u32, fixed: bool) {
    let range = segment(s, fixed);
    if range.x >= range.y {
        return;
    }
    var carry = scan_identity();
    for (var base = range.x & ~3u; base < range.y; base += TILE) {
        let q = base / 4u + t;
        let bits = load_quad(q, range);
        let mine = fold_quad(bits);
        let before = blk::exclusive_scan<T, BLOCK, scan_op>(mine, scan_identity());
        store_quad(q, range, bits, scan_op(carry, before));
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
