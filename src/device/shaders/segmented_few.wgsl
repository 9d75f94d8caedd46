// The segmented reductions and scans (wavekit::device::SegmentedReduce,
// SegmentedScan) of an input of fewer than 4 elements, where
// segmented_reduce.wgsl's and segmented.wgsl's vec4 views cannot be bound
// (wgpu needs 16 bytes there), and the reductions of none: one thread per
// segment combines its elements (at most 3) in order. T, INCLUSIVE,
// `scan_op` and `scan_identity` as those files', set by the host (a
// reduction leaves INCLUSIVE alone).
//
// Entry points (a grid of ceil(segments / BLOCK) workgroups, spilling into
// y), segments from offsets (segment_range.wgsl: offsets past n read as n,
// a begin past its end is empty) or, in the `_fixed` ones, of one size (the
// input's first words stand in for the offsets, as segment_range.wgsl
// says):
// - few_reduce, few_fixed: output[s] = segment s's reduction;
// - fill_identity: no elements (n = 0, the begin offsets bound as the
//   input): every segment's reduction is the identity;
// - few_scan, few_fixed_scan: segment s's elements scanned into the same
//   elements of output, each read before it is written, by the thread
//   that writes it (in place is safe).
// Bindings: 0 input (n of T, as bits: array<u32>), 1 output (array<T>, one
//   per segment for a reduction, n for a scan), 2 begin_offsets, 3
//   end_offsets (u32, one per segment).
// Append: segment_range.wgsl (segment_count, segment).

alias T = u32;
const INCLUSIVE = true;
const BLOCK = 64u;

fn scan_op(a: T, b: T) -> T { return a + b; }
fn scan_identity() -> T { return T(); }

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<T>;
@group(0) @binding(2) var<storage, read> begin_offsets: array<u32>;
@group(0) @binding(3) var<storage, read> end_offsets: array<u32>;

/// The segment of thread `id` (one a thread), or past the segment count.
fn thread_segment(id: vec3<u32>, nwg: vec3<u32>) -> u32 {
    return id.x + id.y * nwg.x * BLOCK;
}

/// Segment `s`'s elements combined in order into output[s].
fn reduce_few(s: u32, fixed: bool) {
    let range = segment(s, fixed);
    var acc = scan_identity();
    for (var i = range.x; i < range.y; i++) {
        acc = scan_op(acc, bitcast<T>(input[i]));
    }
    output[s] = acc;
}

/// Segment `s`'s elements scanned in order into the same elements of
/// output.
fn scan_few(s: u32, fixed: bool) {
    let range = segment(s, fixed);
    var running = scan_identity();
    for (var i = range.x; i < range.y; i++) {
        let exclusive = running;
        running = scan_op(running, bitcast<T>(input[i]));
        output[i] = select(exclusive, running, INCLUSIVE);
    }
}

@compute @workgroup_size(BLOCK)
fn few_reduce(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let s = thread_segment(id, nwg);
    if s < segment_count() {
        reduce_few(s, false);
    }
}

@compute @workgroup_size(BLOCK)
fn few_fixed(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let s = thread_segment(id, nwg);
    if s < segment_count() {
        reduce_few(s, true);
    }
}

@compute @workgroup_size(BLOCK)
fn fill_identity(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let s = thread_segment(id, nwg);
    if s < segment_count() {
        output[s] = scan_identity();
    }
}

@compute @workgroup_size(BLOCK)
fn few_scan(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let s = thread_segment(id, nwg);
    if s < segment_count() {
        scan_few(s, false);
    }
}

@compute @workgroup_size(BLOCK)
fn few_fixed_scan(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let s = thread_segment(id, nwg);
    if s < segment_count() {
        scan_few(s, true);
    }
}
