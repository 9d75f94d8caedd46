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
// Append: arg_order.wgsl (Pair, before, first, workgroup_first).
#import wavekit::subgroup as sg

alias T = f32;
const MAX = false;
const EMPTY = 3.40282347e+38f;
const IDENTITY_BITS = 0x7f800000u;
const BLOCK = 256u;

@group(0) @binding(0) var<storage, read> input: array<T>;
@group(0) @binding(1) var<storage, read_write> partials: array<Pair>;
@group(0) @binding(2) var<storage, read_write> result: array<Pair>;

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
