// Segmented arg-reductions (wavekit::device::SegmentedArgReduce, as CUB's
// DeviceSegmentedReduce::ArgMin / ArgMax): for each segment of the input
// (segment_range.wgsl: begin and end offsets, or one fixed size), the
// index within the segment of its first least (MAX: greatest) element,
// and the element, in arg_order.wgsl's order (ties on `==`: the first
// index).
//
// NaN (FLOAT only): a NaN element is skipped, as if it were not in the
// segment (NumPy's nanargmin / nanargmax), so the result is defined
// whatever the grouping; a segment of NaN alone is reduced as an empty
// one.
// Empty segment: (1, EMPTY), the legacy CUB answer ({1,
// numeric_limits<T>::max()} for ArgMin, {1, lowest()} for ArgMax; f32:
// the largest and the lowest finite value).
//
// One workgroup per segment (spilling into y): thread t folds elements
// begin + t, begin + t + BLOCK, ... (indices rise, so a later element
// replaces the thread's best only when strictly before it), then
// arg_order.wgsl's workgroup_first. No pass and no state spans segments:
// no temp.
// Entry points: segmented_arg (offsets), fixed_arg (one size: the host
//   binds segment_range.wgsl's stand-ins), fill_empty (n = 0: the offsets
//   bound as the input; every segment is empty).
// Bindings: 0 input (array<T>, n), 1 output (array<Pair>, one per
//   segment), 2 begin_offsets, 3 end_offsets (u32, one per segment).
// Parameters (set by name by the host): T (f32, i32 or u32), MAX, EMPTY,
// IDENTITY_BITS (as arg_reduce.wgsl's), FLOAT (true for f32: NaN is
// skipped).
// Cost per element: 1 read; per segment 1 write, one workgroup fold.
// Contract: subgroups are formed of consecutive local_invocation_index
// values, size 4..128 (wavekit's block primitives' contract).
// Append: arg_order.wgsl (Pair, before, first, workgroup_first),
// segment_range.wgsl (segment_count, segment).
#import wavekit::subgroup as sg

alias T = f32;
const MAX = false;
const EMPTY = 3.40282347e+38f;
const IDENTITY_BITS = 0x7f800000u;
const FLOAT = true;
const BLOCK = 256u;

@group(0) @binding(0) var<storage, read> input: array<T>;
@group(0) @binding(1) var<storage, read_write> output: array<Pair>;
@group(0) @binding(2) var<storage, read> begin_offsets: array<u32>;
@group(0) @binding(3) var<storage, read> end_offsets: array<u32>;

/// Whether `x` is a NaN (FLOAT only; by its bits, which no compiler's
/// float assumptions change).
fn is_nan(x: T) -> bool {
    return FLOAT && (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u;
}

/// Segment `s`'s first extreme into output[s].
fn arg_segment(s: u32, t: u32, fixed: bool) {
    let range = segment(s, fixed);
    var best = no_element();
    for (var i = range.x + t; i < range.y; i += BLOCK) {
        let x = input[i];
        if !is_nan(x) && (best.index == NONE || before(x, best.value)) {
            best = Pair(i - range.x, x);
        }
    }
    let all = workgroup_first(best, t);
    if t == 0u {
        if all.index == NONE {
            output[s] = Pair(1u, EMPTY);
        } else {
            output[s] = all;
        }
    }
}

@compute @workgroup_size(BLOCK)
fn segmented_arg(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
                 @builtin(num_workgroups) nwg: vec3<u32>) {
    let s = wid.x + wid.y * nwg.x;
    if s >= segment_count() {
        return;
    }
    arg_segment(s, t, false);
}

@compute @workgroup_size(BLOCK)
fn fixed_arg(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
             @builtin(num_workgroups) nwg: vec3<u32>) {
    let s = wid.x + wid.y * nwg.x;
    if s >= segment_count() {
        return;
    }
    arg_segment(s, t, true);
}

/// Without elements (n = 0, the offsets bound as a stand-in input): every
/// segment is empty.
@compute @workgroup_size(BLOCK)
fn fill_empty(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
              @builtin(num_workgroups) nwg: vec3<u32>) {
    let s = wid.x + wid.y * nwg.x;
    if s < segment_count() && t == 0u {
        output[s] = Pair(1u, EMPTY);
    }
}
