// Device-wide index of the least or greatest element
// (wavekit::device::ArgReduce, as CUB's DeviceReduce::ArgMin / ArgMax):
// the first index of the least (MAX: greatest) element, and the element.
//
// Order: a pair (value, index) comes before another when its value is
// less (MAX: greater), or the values are equal (`==`: -0.0 equals 0.0)
// and its index is less. That order is total on the pairs of an input
// without NaN and does not depend on how they are grouped, so the result
// is the first index of the extreme value whatever the grid (CUB's ArgMin
// keeps the lesser key on equal values too). With NaN the result is
// unspecified, as CUB's.
//
// Two passes, as reduce.wgsl's:
//   partial: G workgroups (x only); thread t of workgroup g folds elements
//     g*BLOCK + t, stepping by G*BLOCK, into the first of the pairs it
//     sees; the workgroup's first pair goes to partials[g].
//   final: 1 workgroup folds the G partials into result[0].
//   empty (n = 0): writes (1, EMPTY): CUB's {1, numeric_limits<T>::max()}
//     for ArgMin, {1, numeric_limits<T>::lowest()} for ArgMax (f32: the
//     largest / lowest finite).
// Bindings: 0 input (array<T>, n), 1 partials (array<Pair>, G; empty: any
//   8 bytes), 2 result (array<Pair>, 1). Every entry point binds them all.
// Pair is CUB's KeyValuePair<int, T>: the index (key) in the first word,
// the element's bits in the second.
// Parameters (set by name by the host): T (f32, i32 or u32), MAX (false:
// ArgMin), EMPTY (the value written for no elements), IDENTITY_BITS (the
// bits of the value of a thread that saw no element: the type's last in
// the order, f32's infinity, so that no element comes after it).
// Contract: subgroups are formed of consecutive local_invocation_index
// values, size 4..128 (wavekit's block primitives' contract).
#import wavekit::subgroup as sg

alias T = f32;
const MAX = false;
const EMPTY = 3.40282347e+38f;
const IDENTITY_BITS = 0x7f800000u;
const BLOCK = 256u;
// Subgroups per workgroup at the smallest subgroup size, 4 lanes.
const MAX_SUBGROUPS = BLOCK / 4u;
// The index of a thread that saw no element: after every real index.
const NONE = 0xffffffffu;

struct Pair {
    index: u32,
    value: T,
}

@group(0) @binding(0) var<storage, read> input: array<T>;
@group(0) @binding(1) var<storage, read_write> partials: array<Pair>;
@group(0) @binding(2) var<storage, read_write> result: array<Pair>;

var<workgroup> subgroup_best: array<Pair, MAX_SUBGROUPS>;

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

@compute @workgroup_size(BLOCK)
fn partial(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
           @builtin(num_workgroups) nwg: vec3<u32>) {
    let n = arrayLength(&input);
    let stride = nwg.x * BLOCK;
    var best = Pair(NONE, bitcast<T>(IDENTITY_BITS));
    // Indices rise: a later element replaces the best only when strictly
    // before it, so the first index of a value stays.
    for (var i = wid.x * BLOCK + t; i < n; i += stride) {
        let x = input[i];
        if best.index == NONE || before(x, best.value) {
            best = Pair(i, x);
        }
    }
    let all = workgroup_first(best, t);
    if t == 0u {
        partials[wid.x] = all;
    }
}

@compute @workgroup_size(BLOCK)
fn final_pass(@builtin(local_invocation_index) t: u32) {
    var best = Pair(NONE, bitcast<T>(IDENTITY_BITS));
    for (var i = t; i < arrayLength(&partials); i += BLOCK) {
        let p = partials[i];
        if best.index == NONE || first(p, best) {
            best = p;
        }
    }
    let all = workgroup_first(best, t);
    if t == 0u {
        result[0] = all;
    }
}

@compute @workgroup_size(1)
fn empty() {
    result[0] = Pair(1u, EMPTY);
}
