// The library's final pass of a device-wide reduction (wavekit::device::
// Reduce), after reduce.wgsl's partial_<op> over the whole vec4s of the
// input: one workgroup folds the partials and the last n mod 4 elements,
// or writes the identity when there are no elements. Each thread reads
// FINAL_ITEMS partials before it folds them (MAX_PARTIALS partials: one
// round of reads in flight, where a loop waited on a few at a time), in
// the order of one at a time, so the f32 sum is the same.
//
// Bindings: 0 input (array<T>, all n elements), 1 partials (array<U>, G
//   elements from partial_<op>; not read when n < 4, then any 4 bytes),
//   2 result (array<U>, 1 element).
// Entries: final_<op> (1 workgroup) for n > 0; identity_<op> (1 workgroup)
//   for n = 0, where input and partials are any 4 bytes: sum 0, min the
//   largest U (f32: the largest finite, as CUB's numeric_limits max), max
//   the lowest.
// `alias T`, `alias U`, `transform` (reduce.wgsl's) and the constants
// LOWEST / HIGHEST of U are set by the host; it reads MAX_PARTIALS (the
// most workgroups of partial_<op>, 1..=8192: any number of partials is
// folded right, this many in one round), which WAVEKIT_SHADER_PARAMS may
// change.
// Append: reduce_op.wgsl (ADD, MIN, MAX, combine4, combine).
#import wavekit::block as blk

alias T = f32;
alias U = T;
fn transform(x: T) -> U { return x; }
const LOWEST = -3.40282347e+38f;
const HIGHEST = 3.40282347e+38f;
const BLOCK = 256u;
const MAX_PARTIALS = 1056u;
// Partials each thread reads at once.
const FINAL_ITEMS = (MAX_PARTIALS + BLOCK - 1u) / BLOCK;

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

/// Thread t's fold under `op`, from `start`, of its partials (FINAL_ITEMS
/// reads in flight, folded in index order) and of the tail element
/// tail_start() + t.
fn fold(op: u32, start: U, t: u32) -> U {
    var acc = start;
    let count = partial_count();
    for (var base = 0u; base < count; base += BLOCK * FINAL_ITEMS) {
        var p: array<U, FINAL_ITEMS>;
        for (var k = 0u; k < FINAL_ITEMS; k++) {
            let i = base + k * BLOCK + t;
            if i < count {
                p[k] = partials[i];
            }
        }
        for (var k = 0u; k < FINAL_ITEMS; k++) {
            if base + k * BLOCK + t < count {
                acc = combine(op, acc, p[k]);
            }
        }
    }
    let i = tail_start() + t;
    if i < arrayLength(&input) {
        acc = combine(op, acc, transform(input[i]));
    }
    return acc;
}

@compute @workgroup_size(BLOCK)
fn final_add(@builtin(local_invocation_index) t: u32) {
    let total = blk::reduce_add<U, BLOCK>(fold(ADD, U(0), t));
    if t == 0u {
        result[0] = total;
    }
}

@compute @workgroup_size(BLOCK)
fn final_min(@builtin(local_invocation_index) t: u32) {
    let total = blk::reduce_min<U, BLOCK>(fold(MIN, transform(input[0]), t));
    if t == 0u {
        result[0] = total;
    }
}

@compute @workgroup_size(BLOCK)
fn final_max(@builtin(local_invocation_index) t: u32) {
    let total = blk::reduce_max<U, BLOCK>(fold(MAX, transform(input[0]), t));
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
