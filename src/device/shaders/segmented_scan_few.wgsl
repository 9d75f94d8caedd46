// Segmented prefix scans (wavekit::device::SegmentedScan) of an input of
// fewer than 4 elements, where segmented.wgsl's vec4 views cannot be bound
// (wgpu needs 16 bytes there): one thread per segment scans its elements
// (at most 3) in order. T, INCLUSIVE, `scan_op` and `scan_identity` as
// segmented.wgsl's, set by the host.
//
// Entry points (a grid of ceil(segments / BLOCK) workgroups, spilling into
// y):
// - few_scan: segments from offsets (segment_range.wgsl: offsets past n
//   read as n, a begin past its end is empty);
// - few_fixed_scan: segments of one size (the input's first words stand in
//   for the offsets, as segment_range.wgsl says).
// Each element is read before it is written, by the thread that writes it
// (in place is safe).
// Bindings: 0 input (n of T, as bits: array<u32>), 1 output (array<T>, n),
//   2 begin_offsets, 3 end_offsets (u32, one per segment).
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
fn few_scan(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let s = id.x + id.y * nwg.x * BLOCK;
    if s < segment_count() {
        scan_few(s, false);
    }
}

@compute @workgroup_size(BLOCK)
fn few_fixed_scan(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let s = id.x + id.y * nwg.x * BLOCK;
    if s < segment_count() {
        scan_few(s, true);
    }
}
