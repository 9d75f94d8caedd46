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
//   partial: G workgroups (x only) over tiles of TILE = BLOCK * ITEMS
//     elements, workgroup g taking tiles g, g + G, ...; thread t reads
//     elements t, t + BLOCK, ... of a tile, all ITEMS of them before it
//     folds any (ITEMS reads in flight: one at a time left the loop
//     waiting on memory), into the first of the pairs it sees; the
//     workgroup's first pair goes to partials[g].
//   final: 1 workgroup folds the G partials into result[0], each thread
//     reading FINAL_ITEMS of them at once.
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
// the order, f32's infinity, so that no element comes after it), ITEMS
// (elements per thread and tile, 1..=32) and MAX_PARTIALS (G at most,
// 1..=8192); the host reads both for the grid and the temp, so
// WAVEKIT_SHADER_PARAMS may change them.
// Contract: subgroups are formed of consecutive local_invocation_index
// values, size 4..128 (wavekit's block primitives' contract).
// Append: arg_order.wgsl (Pair, before, first, workgroup_first).
#import wavekit::subgroup as sg

alias T = f32;
const MAX = false;
const EMPTY = 3.40282347e+38f;
const IDENTITY_BITS = 0x7f800000u;
const BLOCK = 256u;
const ITEMS = 16u;
const TILE = BLOCK * ITEMS;
const MAX_PARTIALS = 1024u;
// Partials each thread of the final pass reads at once.
const FINAL_ITEMS = (MAX_PARTIALS + BLOCK - 1u) / BLOCK;

@group(0) @binding(0) var<storage, read> input: array<T>;
@group(0) @binding(1) var<storage, read_write> partials: array<Pair>;
@group(0) @binding(2) var<storage, read_write> result: array<Pair>;

/// `best` after the elements `x` at indices `base + k * BLOCK + t` (`k <
/// ITEMS`, rising) below `n`.
fn fold_tile(best: Pair, x: array<T, ITEMS>, base: u32, t: u32, n: u32) -> Pair {
    var b = best;
    // Indices rise: a later element replaces the best only when strictly
    // before it, so the first index of a value stays.
    for (var k = 0u; k < ITEMS; k++) {
        let i = base + k * BLOCK + t;
        if i < n && (b.index == NONE || before(x[k], b.value)) {
            b = Pair(i, x[k]);
        }
    }
    return b;
}

@compute @workgroup_size(BLOCK)
fn partial(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
           @builtin(num_workgroups) nwg: vec3<u32>) {
    let n = arrayLength(&input);
    let stride = nwg.x * TILE;
    var best = no_element();
    // Whole tiles (n < 2^30: no sum here wraps), every read unguarded.
    var base = wid.x * TILE;
    for (; base + TILE <= n; base += stride) {
        var x: array<T, ITEMS>;
        for (var k = 0u; k < ITEMS; k++) {
            x[k] = input[base + k * BLOCK + t];
        }
        best = fold_tile(best, x, base, t, n);
    }
    // The last tile, part of one, in at most one workgroup.
    if base < n {
        var x: array<T, ITEMS>;
        for (var k = 0u; k < ITEMS; k++) {
            let i = base + k * BLOCK + t;
            if i < n {
                x[k] = input[i];
            }
        }
        best = fold_tile(best, x, base, t, n);
    }
    let all = workgroup_first(best, t);
    if t == 0u {
        partials[wid.x] = all;
    }
}

@compute @workgroup_size(BLOCK)
fn final_pass(@builtin(local_invocation_index) t: u32) {
    let count = arrayLength(&partials);
    var best = no_element();
    // Every read first (count <= MAX_PARTIALS), then the fold.
    var p: array<Pair, FINAL_ITEMS>;
    for (var k = 0u; k < FINAL_ITEMS; k++) {
        let i = k * BLOCK + t;
        if i < count {
            p[k] = partials[i];
        }
    }
    for (var k = 0u; k < FINAL_ITEMS; k++) {
        if k * BLOCK + t < count && (best.index == NONE || first(p[k], best)) {
            best = p[k];
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
