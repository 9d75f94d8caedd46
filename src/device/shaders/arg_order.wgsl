// The order of an arg-reduction and its workgroup fold, shared by
// arg_reduce.wgsl (wavekit::device::ArgReduce) and segmented_arg.wgsl
// (wavekit::device::SegmentedArgReduce), which append it: a pair (index,
// value) comes before another when its value is less (MAX: greater), or
// the values are equal (`==`: -0.0 equals 0.0) and its index is less.
// The includer declares `alias T`, `const MAX`, `const BLOCK` (at most
// 256), `const IDENTITY_BITS` and imports the subgroup layer as `sg`.

// Subgroups per workgroup at the smallest subgroup size, 4 lanes.
const MAX_SUBGROUPS = BLOCK / 4u;
// The index of a thread that saw no element: after every real index.
const NONE = 0xffffffffu;

struct Pair {
    index: u32,
    value: T,
}

var<workgroup> subgroup_best: array<Pair, MAX_SUBGROUPS>;

/// The pair of a thread that has seen no element: NONE and the value of
/// the bits IDENTITY_BITS. The bits are read from a variable: `bitcast` of
/// the constant would be a constant expression, and WGSL refuses one whose
/// value is not finite (ArgMin's f32 identity, an infinity; browsers:
/// "value inf cannot be represented as 'f32'").
fn no_element() -> Pair {
    var bits = IDENTITY_BITS;
    return Pair(NONE, bitcast<T>(bits));
}

/// Whether value `a` comes before value `b` (strictly).
fn before(a: T, b: T) -> bool {
    return select((a < b), (a > b), MAX);
}

/// Whether pair `a` comes before pair `b`.
fn first(a: Pair, b: Pair) -> bool {
    return before(a.value, b.value) || (a.value == b.value && a.index < b.index);
}

/// The first pair of `p` over the subgroup, in every lane: the extreme
/// value, the least index holding it, and that index's own bits (of -0.0
/// and 0.0, the one at the index).
fn subgroup_first(p: Pair) -> Pair {
    var extreme: T;
    if MAX {
        extreme = sg::reduce_all_max<T>(p.value);
    } else {
        extreme = sg::reduce_all_min<T>(p.value);
    }
    let index = sg::reduce_all_min<u32>(select(NONE, p.index, p.value == extreme));
    let bits = sg::reduce_all_max<u32>(select(0u, bitcast<u32>(p.value), p.index == index));
    return Pair(index, bitcast<T>(bits));
}

/// The first pair of `p` over the workgroup, in thread 0. Every thread
/// calls it, in uniform control flow.
fn workgroup_first(p: Pair, t: u32) -> Pair {
    let size = sg::group_size();
    let best = subgroup_first(p);
    if sg::invocation_id() == 0u {
        subgroup_best[t / size] = best;
    }
    workgroupBarrier();
    var all = subgroup_best[0];
    for (var g = 1u; g < BLOCK / size; g++) {
        let other = subgroup_best[g];
        if first(other, all) {
            all = other;
        }
    }
    return all;
}
