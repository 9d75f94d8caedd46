// Segmented reductions (wavekit::device::SegmentedReduce) of a 32-bit T
// under an associative operator with an identity, over an input of at
// least 4 elements: segment s is elements [begin, end) of the input, from
// offsets (begin_offsets[s], end_offsets[s], as CUB's) or of one fixed size
// (s * size, (s + 1) * size). Inputs of fewer than 4 elements take
// segmented_few.wgsl (the quads binding needs 16 bytes).
//
// One workgroup per segment (spilling into y). A segment is read as its
// whole quads (the 16-byte-aligned vec4s inside it, through `quads`, a
// vec4 view of the input's memory) and the up to 3 elements before and
// after them (head and tail, through `input`, read by thread 0). The quads
// are cut into BLOCK / S equal shares of whole groups of S quads (S the
// subgroup size), one a subgroup (the last may run past the segment or be
// empty), so every subgroup takes the same trips; in a group lane l reads
// quad l, so a subgroup's load is S consecutive vec4s. A subgroup folds
// its share GROUPS groups at a time (GROUPS vec4 loads in flight a lane)
// and the rest one at a time, with no barrier; the workgroup meets once,
// for thread 0 to combine the head, the shares' totals and the tail, in
// order.
// - COMMUTATIVE (sum, min, max: what the host sets for its built-in
//   operators): each lane keeps its own total over the share, and the
//   subgroup combines the lanes once, at the end.
// - Otherwise (a user operator, which need not commute): every group is
//   combined over the subgroup in lane order by a shuffle tree, and the
//   groups in order, so every combination takes the earlier operand first.
// The host builds two forms: GROUPS = 4 for segments of under 8192
// elements on average (natively 8 workgroups an SM: 32 registers, the
// occupancy short segments need) and GROUPS = 8 for longer ones (40
// registers: the bytes in flight that one workgroup an SM needs). On an
// H200 through CUDA (docs/benchmarks/2026-11-28r-h200-segmented-quads),
// u32 sums over segments of 65536 took 6.8 us at 2^20 (CUB 6.9) against
// 12.3 with four u32 loads a lane and a shuffle tree a group (LLVM did not
// join the loads: docs/benchmarks/2026-11-28p-h200-segmented-shares), and
// over segments of 1024 25.6 us at 2^24 (CUB 45.3).
// No pass and no state spans segments, so there is no temp and no
// look-back. Any n up to 2^32 - 1 (no index sum wraps).
//
// Segments, their count and the fixed size's stand-in bindings:
// segment_range.wgsl (appended). Every access is in bounds whatever the
// offsets (the host builds these entry points without bounds checks or
// workgroup zeroing natively, `Context::pipelines_proven`): a quad read
// lies inside its segment's whole quads, at most n / 4 (the quads bound;
// a segment without a whole quad has an empty share); an element read
// lies inside its segment, whose end is at most n; offsets and outputs
// are read and written below the segment count, which both hold; every
// subgroup's total is written before the barrier after which thread 0
// reads them. An empty segment reduces to the identity.
//
// Parameters (set by name by the host): `alias T`, the operator `fn
// scan_op` (the host replaces its line by the user's function text and a
// `scan_op` that calls it) and `fn scan_identity`, `const COMMUTATIVE`,
// GROUPS (WAVEKIT_SHADER_PARAMS may change it).
// Bindings: 0 input (n of T, as bits: array<u32>), 1 output (array<T>, one
//   per segment), 2 begin_offsets, 3 end_offsets (u32, one per segment),
//   4 quads (the input's first n / 4 quads, at least one: the same
//   memory from the input's start, which natively is 16-byte aligned).
// Cost per element: 1/4 of a vec4 read; per group of S quads log2(S)
//   shuffles (ordered) or per share log2(S) shuffles (commutative); one
//   barrier a segment.
// Append: segment_range.wgsl (segment_count, segment).
#import wavekit::subgroup as sg

alias T = u32;
const COMMUTATIVE = false;
const BLOCK = 256u;
const GROUPS = 4u;

fn scan_op(a: T, b: T) -> T { return a + b; }
fn scan_identity() -> T { return T(); }

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<T>;
@group(0) @binding(2) var<storage, read> begin_offsets: array<u32>;
@group(0) @binding(3) var<storage, read> end_offsets: array<u32>;
@group(0) @binding(4) var<storage, read> quads: array<vec4<u32>>;

/// The subgroups' share totals (at most BLOCK subgroups).
var<workgroup> subgroup_totals: array<T, BLOCK>;

/// A segment cut at 16-byte boundaries: its elements before its first
/// whole quad (`head`, [x, y) of elements), its whole quads (`body`, [x, y)
/// of quad indices: elements 4x to 4y) and its elements after them
/// (`tail`). A segment without a whole quad is its head and tail.
struct Parts {
    head: vec2<u32>,
    body: vec2<u32>,
    tail: vec2<u32>,
}

/// No sum here wraps, whatever n (up to 2^32 - 1): the head is what lies
/// before the next multiple of 4 (at most 3, at most the segment), and the
/// body and tail are counted from its end.
fn parts(range: vec2<u32>) -> Parts {
    let len = range.y - range.x;
    let head_end = range.x + min((4u - (range.x & 3u)) & 3u, len);
    let quads = (range.y - head_end) / 4u;
    let first = head_end / 4u;
    let tail_start = head_end + 4u * quads;
    return Parts(vec2<u32>(range.x, head_end), vec2<u32>(first, first + quads),
                 vec2<u32>(tail_start, range.y));
}

/// `acc` combined with elements [span.x, span.y) (at most 3), in order:
/// three checked reads (a loop to span.y is unrolled 8 times natively).
fn fold_elements(acc: T, span: vec2<u32>) -> T {
    var x = acc;
    for (var k = 0u; k < 3u; k++) {
        let i = span.x + k;
        if i < span.y {
            x = scan_op(x, bitcast<T>(input[i]));
        }
    }
    return x;
}

/// A quad's four elements combined in order.
fn fold_quad(q: vec4<u32>) -> T {
    let xy = scan_op(bitcast<T>(q.x), bitcast<T>(q.y));
    return scan_op(scan_op(xy, bitcast<T>(q.z)), bitcast<T>(q.w));
}

/// The groups of S quads in every subgroup's share of `count` quads
/// (subgroups of `size` lanes): the same in every invocation, since the
/// subgroups loop over them together (the emulated subgroups' shuffles
/// meet at barriers).
fn share_groups(count: u32, size: u32) -> u32 {
    let subgroups = BLOCK / size;
    let groups = count / size + select(0u, 1u, count % size != 0u);
    return groups / subgroups + select(0u, 1u, groups % subgroups != 0u);
}

/// Lane `lane`'s quad of each of the `count` (1 or GROUPS, a literal at
/// every call, so the loops unroll and the quads stay in registers) groups
/// of S quads from quad `start`, each folded: the identity at `end` and
/// past it. In whole batches every load is issued before any fold.
fn load_groups(start: u32, end: u32, lane: u32, size: u32, count: u32) -> array<T, GROUPS> {
    var folded: array<T, GROUPS>;
    if start + count * size <= end {
        var loaded: array<vec4<u32>, GROUPS>;
        for (var k = 0u; k < count; k++) {
            loaded[k] = quads[start + k * size + lane];
        }
        for (var k = 0u; k < count; k++) {
            folded[k] = fold_quad(loaded[k]);
        }
    } else {
        for (var k = 0u; k < count; k++) {
            let q = start + k * size + lane;
            var x = scan_identity();
            if q < end {
                x = fold_quad(quads[q]);
            }
            folded[k] = x;
        }
    }
    return folded;
}

/// The combination of the subgroup's `value`s in lane order, in lane 0
/// (other lanes hold parts).
fn subgroup_total(value: T, size: u32) -> T {
    var x = value;
    for (var d = 1u; d < size; d <<= 1u) {
        x = scan_op(x, bitcast<T>(sg::shuffle_down<u32>(bitcast<u32>(x), d)));
    }
    return x;
}

/// `acc` combined with the `count` groups from quad `start`: the lane's
/// own quads (COMMUTATIVE: `acc` is the lane's total), or each group over
/// the subgroup in lane order (`acc` is lane 0's total of the groups
/// before, in order).
fn fold_groups(acc: T, start: u32, end: u32, lane: u32, size: u32, count: u32) -> T {
    let folded = load_groups(start, end, lane, size, count);
    var total = acc;
    for (var k = 0u; k < count; k++) {
        if COMMUTATIVE {
            total = scan_op(total, folded[k]);
        } else {
            total = scan_op(total, subgroup_total(folded[k], size));
        }
    }
    return total;
}

/// Segment `s`'s reduction into output[s]: subgroup g of the workgroup
/// folds the g-th of BLOCK / S equal shares of the segment's quads, GROUPS
/// groups at a time and the rest one at a time (two loops, not an `if`:
/// emulated subgroups' calls must not sit under one), and thread 0
/// combines the head, the shares and the tail.
fn reduce_segment(s: u32, t: u32, fixed: bool) {
    let size = sg::group_size();
    let lane = sg::invocation_id();
    // Subgroups of consecutive threads, as compact.wgsl and look_back.wgsl take them.
    let subgroup = t / size;
    let cut = parts(segment(s, fixed));
    // Thread 0's, read before the shares so that their loads overlap the
    // shares'; an aligned segment has neither.
    var head = scan_identity();
    var tail = scan_identity();
    if t == 0u {
        head = fold_elements(head, cut.head);
        tail = fold_elements(tail, cut.tail);
    }
    let groups = share_groups(cut.body.y - cut.body.x, size);
    let first = min(cut.body.x + subgroup * groups * size, cut.body.y);
    let end = min(first + groups * size, cut.body.y);
    var acc = scan_identity();
    var g = 0u;
    for (; g + GROUPS <= groups; g += GROUPS) {
        acc = fold_groups(acc, first + g * size, end, lane, size, GROUPS);
    }
    for (; g < groups; g++) {
        acc = fold_groups(acc, first + g * size, end, lane, size, 1u);
    }
    if COMMUTATIVE {
        acc = subgroup_total(acc, size);
    }
    if lane == 0u {
        subgroup_totals[subgroup] = acc;
    }
    workgroupBarrier();
    if t == 0u {
        var total = head;
        for (var k = 0u; k < BLOCK / size; k++) {
            total = scan_op(total, subgroup_totals[k]);
        }
        output[s] = scan_op(total, tail);
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
