// Device-wide reduction: sum, min or max of `input`.
//
// Two passes, as in CUB's DeviceReduce (no float atomics, so f32 sums are
// deterministic for a given grid):
//   partial_<op>: dispatch G workgroups (x only, G <= 65535). Workgroup g
//     folds vec4 elements g*BLOCK + t, stepping by G*BLOCK, with a per-thread
//     accumulator, LOADS vec4s read at once (all read before any is folded:
//     LOADS reads in flight per thread), then `blk::reduce_<op><T, BLOCK>`
//     leaves the workgroup's result in thread 0, which writes partials[g].
//   final_<op>: dispatch 1 workgroup over `partials` (G elements), writing
//     result[0].
// Bindings: 0 input (array<vec4<T>>, n / 4 elements: n a multiple of 4),
//   1 partials (array<U>, G elements), 2 result (array<U>, 1 element).
//   partial_* binds 0 and 1 (2 is bound but unused); final_* reads 1, writes 2.
// Parameters (set by name by the host): the input's element type T, the
// reduced type U and `transform` from one to the other, applied to each
// element as it is read (DeviceReduce::TransformReduce; the identity for
// a plain reduction, where U is T), and LOADS (vec4 reads in flight per
// thread, 1..=16; WAVEKIT_SHADER_PARAMS may change it).
// min / max need no identity: every accumulator starts from input[0].
// Append: reduce_op.wgsl (ADD, MIN, MAX, combine4, combine).
#import wavekit::block as blk

alias T = f32;
alias U = T;
fn transform(x: T) -> U { return x; }
const BLOCK = 256u;
const LOADS = 4u;

@group(0) @binding(0) var<storage, read> input: array<vec4<T>>;
@group(0) @binding(1) var<storage, read_write> partials: array<U>;
@group(0) @binding(2) var<storage, read_write> result: array<U>;

/// `transform` of each element of `q`.
fn transform4(q: vec4<T>) -> vec4<U> {
    return vec4<U>(transform(q.x), transform(q.y), transform(q.z), transform(q.w));
}

/// Thread t's fold under `op` of its share of the vec4s (workgroup g of
/// `groups`: g*BLOCK + t, stepping by groups*BLOCK), from `start`.
fn fold_share(op: u32, start: vec4<U>, t: u32, g: u32, groups: u32) -> vec4<U> {
    let quads = arrayLength(&input);
    let stride = groups * BLOCK;
    var acc = start;
    var i = g * BLOCK + t;
    // LOADS reads, then their fold (quads < 2^28: no sum here wraps).
    for (; i + (LOADS - 1u) * stride < quads; i += LOADS * stride) {
        var q: array<vec4<T>, LOADS>;
        for (var k = 0u; k < LOADS; k++) {
            q[k] = input[i + k * stride];
        }
        var group = transform4(q[0]);
        for (var k = 1u; k < LOADS; k++) {
            group = combine4(op, group, transform4(q[k]));
        }
        acc = combine4(op, acc, group);
    }
    // The last round, fewer than LOADS reads (all in flight too: one at
    // a time, a thread with 2 quads at 2^22 elements waited twice).
    var rest: array<vec4<T>, LOADS>;
    for (var k = 0u; k < LOADS; k++) {
        if i + k * stride < quads {
            rest[k] = input[i + k * stride];
        }
    }
    for (var k = 0u; k < LOADS; k++) {
        if i + k * stride < quads {
            acc = combine4(op, acc, transform4(rest[k]));
        }
    }
    return acc;
}

/// Thread t's fold under `op` of the partials t, t + BLOCK, .., from `start`.
fn fold_partials(op: u32, start: U, t: u32) -> U {
    var acc = start;
    for (var i = t; i < arrayLength(&partials); i += BLOCK) {
        acc = combine(op, acc, partials[i]);
    }
    return acc;
}

@compute @workgroup_size(BLOCK)
fn partial_add(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    let acc = fold_share(ADD, vec4<U>(U(0)), t, wid.x, nwg.x);
    let total = blk::reduce_add<U, BLOCK>((acc.x + acc.y) + (acc.z + acc.w));
    if t == 0u {
        partials[wid.x] = total;
    }
}

@compute @workgroup_size(BLOCK)
fn partial_min(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    let acc = fold_share(MIN, transform4(input[0]), t, wid.x, nwg.x);
    let total = blk::reduce_min<U, BLOCK>(min(min(acc.x, acc.y), min(acc.z, acc.w)));
    if t == 0u {
        partials[wid.x] = total;
    }
}

@compute @workgroup_size(BLOCK)
fn partial_max(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    let acc = fold_share(MAX, transform4(input[0]), t, wid.x, nwg.x);
    let total = blk::reduce_max<U, BLOCK>(max(max(acc.x, acc.y), max(acc.z, acc.w)));
    if t == 0u {
        partials[wid.x] = total;
    }
}

@compute @workgroup_size(BLOCK)
fn final_add(@builtin(local_invocation_index) t: u32) {
    let total = blk::reduce_add<U, BLOCK>(fold_partials(ADD, U(0), t));
    if t == 0u {
        result[0] = total;
    }
}

@compute @workgroup_size(BLOCK)
fn final_min(@builtin(local_invocation_index) t: u32) {
    let total = blk::reduce_min<U, BLOCK>(fold_partials(MIN, partials[0], t));
    if t == 0u {
        result[0] = total;
    }
}

@compute @workgroup_size(BLOCK)
fn final_max(@builtin(local_invocation_index) t: u32) {
    let total = blk::reduce_max<U, BLOCK>(fold_partials(MAX, partials[0], t));
    if t == 0u {
        result[0] = total;
    }
}
