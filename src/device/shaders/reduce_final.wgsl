// The library's final pass of a device-wide reduction (wavekit::device::
// Reduce), after reduce.wgsl's partial_<op> over the whole vec4s of the
// input: one workgroup folds the partials and the last n mod 4 elements,
// or writes the identity when there are no elements.
//
// Bindings: 0 input (array<T>, all n elements), 1 partials (array<U>, G
//   elements from partial_<op>; not read when n < 4, then any 4 bytes),
//   2 result (array<U>, 1 element).
// Entries: final_<op> (1 workgroup) for n > 0; identity_<op> (1 workgroup)
//   for n = 0, where input and partials are any 4 bytes: sum 0, min the
//   largest U (f32: the largest finite, as CUB's numeric_limits max), max
//   the lowest.
// `alias T`, `alias U`, `transform` (reduce.wgsl's) and the constants
// LOWEST / HIGHEST of U are set by the host.
#import wavekit::block as blk

alias T = f32;
alias U = T;
fn transform(x: T) -> U { return x; }
const LOWEST = -3.40282347e+38f;
const HIGHEST = 3.40282347e+38f;
const BLOCK = 256u;

@group(0) @binding(0) var<storage, read> input: array<T>;
@group(0) @binding(1) var<storage, read> partials: array<U>;
@group(0) @binding(2) var<storage, read_write> result: array<U>;

// How many partials to read: none when the input has no whole vec4.
fn partial_count() -> u32 {
    return select(0u, arrayLength(&partials), arrayLength(&input) >= 4u);
}

// The index of the first element after the whole vec4s.
fn tail_start() -> u32 {
    return arrayLength(&input) & ~3u;
}

@compute @workgroup_size(BLOCK)
fn final_add(@builtin(local_invocation_index) t: u32) {
    var acc = U(0);
    for (var i = t; i < partial_count(); i += BLOCK) {
        acc += partials[i];
    }
    let i = tail_start() + t;
    if i < arrayLength(&input) {
        acc += transform(input[i]);
    }
    let total = blk::reduce_add<U, BLOCK>(acc);
    if t == 0u {
        result[0] = total;
    }
}

@compute @workgroup_size(BLOCK)
fn final_min(@builtin(local_invocation_index) t: u32) {
    var acc = transform(input[0]);
    for (var i = t; i < partial_count(); i += BLOCK) {
        acc = min(acc, partials[i]);
    }
    let i = tail_start() + t;
    if i < arrayLength(&input) {
        acc = min(acc, transform(input[i]));
    }
    let total = blk::reduce_min<U, BLOCK>(acc);
    if t == 0u {
        result[0] = total;
    }
}

@compute @workgroup_size(BLOCK)
fn final_max(@builtin(local_invocation_index) t: u32) {
    var acc = transform(input[0]);
    for (var i = t; i < partial_count(); i += BLOCK) {
        acc = max(acc, partials[i]);
    }
    let i = tail_start() + t;
    if i < arrayLength(&input) {
        acc = max(acc, transform(input[i]));
    }
    let total = blk::reduce_max<U, BLOCK>(acc);
    if t == 0u {
        result[0] = total;
    }
}

@compute @workgroup_size(1)
fn identity_add() {
    result[0] = U(0);
}

@compute @workgroup_size(1)
fn identity_min() {
    result[0] = HIGHEST;
}

@compute @workgroup_size(1)
fn identity_max() {
    result[0] = LOWEST;
}
