// Segmented reductions (wavekit::device::SegmentedReduce) of an input of
// fewer than 4 elements, where segmented_reduce.wgsl's vec4 view cannot be
// bound (wgpu needs 16 bytes there), and of none: one thread per segment
// folds its elements (at most 3) in order. T, `scan_op` and
// `scan_identity` as segmented_reduce.wgsl's, set by the host.
//
// Entry points (a grid of ceil(segments / BLOCK) workgroups, spilling into
// y):
// - few_reduce: segments from offsets (segment_range.wgsl: offsets past n
//   read as n, a begin past its end is empty);
// - few_fixed: segments of one size (the input's first words stand in for
//   the offsets, as segment_range.wgsl says);
// - fill_identity: no elements (n = 0, the begin offsets bound as the
//   input): every segment's reduction is the identity.
// Bindings: 0 input (n of T, as bits: array<u32>), 1 output (array<T>, one
//   per segment), 2 begin_offsets, 3 end_offsets (u32, one per segment).
// Append: segment_range.wgsl (segment_count, segment).

alias T = u32;
const BLOCK = 64u;

fn scan_op(a: T, b: T) -> T { return a + b; }
fn scan_identity() -> T { return T(); }

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<T>;
@group(0) @binding(2) var<storage, read> begin_offsets: array<u32>;
@group(0) @binding(3) var<storage, read> end_offsets: array<u32>;

/// Segment `s`'s elements combined in order into output[s].
fn reduce_few(s: u32, fixed: bool) {
    let range = segment(s, fixed);
    var acc = scan_identity();
    for (var i = range.x; i < range.y; i++) {
        acc = scan_op(acc, bitcast<T>(input[i]));
    }
    output[s] = acc;
}

@compute @workgroup_size(BLOCK)
fn few_reduce(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let s = id.x + id.y * nwg.x * BLOCK;
    if s < segment_count() {
        reduce_few(s, false);
    }
}

@compute @workgroup_size(BLOCK)
fn few_fixed(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let s = id.x + id.y * nwg.x * BLOCK;
    if s < segment_count() {
        reduce_few(s, true);
    }
}

@compute @workgroup_size(BLOCK)
fn fill_identity(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let s = id.x + id.y * nwg.x * BLOCK;
    if s < segment_count() {
        output[s] = scan_identity();
    }
}
