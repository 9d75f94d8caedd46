// Device-wide reduction: sum, min or max of `input`.
//
// Two passes, as in CUB's DeviceReduce (no float atomics, so f32 sums are
// deterministic for a given grid):
//   partial_<op>: dispatch G workgroups (x only, G <= 65535). Workgroup g
//     folds vec4 elements g*BLOCK + t, stepping by G*BLOCK, with a per-thread
//     accumulator, then `blk::reduce_<op><T, BLOCK>` leaves the workgroup's
//     result in thread 0, which writes partials[g].
//   final_<op>: dispatch 1 workgroup over `partials` (G elements), writing
//     result[0].
// Bindings: 0 input (array<vec4<T>>, n / 4 elements: n a multiple of 4),
//   1 partials (array<T>, G elements), 2 result (array<T>, 1 element).
//   partial_* binds 0 and 1 (2 is bound but unused); final_* reads 1, writes 2.
// `alias T` may be set to u32 (the host does) — the shader is the same.
// min / max need no identity: every accumulator starts from input[0].
#import wavekit::block as blk

alias T = f32;
const BLOCK = 256u;

@group(0) @binding(0) var<storage, read> input: array<vec4<T>>;
@group(0) @binding(1) var<storage, read_write> partials: array<T>;
@group(0) @binding(2) var<storage, read_write> result: array<T>;

@compute @workgroup_size(BLOCK)
fn partial_add(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    let quads = arrayLength(&input);
    let stride = nwg.x * BLOCK;
    var acc = vec4<T>(T(0));
    var i = wid.x * BLOCK + t;
    // Two loads in flight per iteration.
    for (; i + stride < quads; i += 2u * stride) {
        acc += input[i] + input[i + stride];
    }
    if i < quads {
        acc += input[i];
    }
    let total = blk::reduce_add<T, BLOCK>((acc.x + acc.y) + (acc.z + acc.w));
    if t == 0u {
        partials[wid.x] = total;
    }
}

@compute @workgroup_size(BLOCK)
fn partial_min(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    let quads = arrayLength(&input);
    let stride = nwg.x * BLOCK;
    var acc = input[0];
    var i = wid.x * BLOCK + t;
    for (; i + stride < quads; i += 2u * stride) {
        acc = min(acc, min(input[i], input[i + stride]));
    }
    if i < quads {
        acc = min(acc, input[i]);
    }
    let total = blk::reduce_min<T, BLOCK>(min(min(acc.x, acc.y), min(acc.z, acc.w)));
    if t == 0u {
        partials[wid.x] = total;
    }
}

@compute @workgroup_size(BLOCK)
fn partial_max(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    let quads = arrayLength(&input);
    let stride = nwg.x * BLOCK;
    var acc = input[0];
    var i = wid.x * BLOCK + t;
    for (; i + stride < quads; i += 2u * stride) {
        acc = max(acc, max(input[i], input[i + stride]));
    }
    if i < quads {
        acc = max(acc, input[i]);
    }
    let total = blk::reduce_max<T, BLOCK>(max(max(acc.x, acc.y), max(acc.z, acc.w)));
    if t == 0u {
        partials[wid.x] = total;
    }
}

@compute @workgroup_size(BLOCK)
fn final_add(@builtin(local_invocation_index) t: u32) {
    var acc = T(0);
    for (var i = t; i < arrayLength(&partials); i += BLOCK) {
        acc += partials[i];
    }
    let total = blk::reduce_add<T, BLOCK>(acc);
    if t == 0u {
        result[0] = total;
    }
}

@compute @workgroup_size(BLOCK)
fn final_min(@builtin(local_invocation_index) t: u32) {
    var acc = partials[0];
    for (var i = t; i < arrayLength(&partials); i += BLOCK) {
        acc = min(acc, partials[i]);
    }
    let total = blk::reduce_min<T, BLOCK>(acc);
    if t == 0u {
        result[0] = total;
    }
}

@compute @workgroup_size(BLOCK)
fn final_max(@builtin(local_invocation_index) t: u32) {
    var acc = partials[0];
    for (var i = t; i < arrayLength(&partials); i += BLOCK) {
        acc = max(acc, partials[i]);
    }
    let total = blk::reduce_max<T, BLOCK>(acc);
    if t == 0u {
        result[0] = total;
    }
}
