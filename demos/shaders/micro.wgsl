// Micro-benchmarks of single subgroup primitives (`src/bin/micro.rs`).
//
// Each entry point runs one op in a dependent chain, per thread:
//     for trips[0] times { 8 × (x = op(x) * s + k) }
// s and k come from a buffer, so the compiler can neither fold the chain nor
// hoist an op out of the loop (each step needs the previous x), and every
// thread writes its x once at the end, so the chain is not dead code.
// `* s + k` is one FMA (f32) or IMAD (u32) per step, the same as in the
// CUDA C++ twin `bench/micro/warp_ops.cu`, which must stay step-for-step equal.
// The host counts threads / subgroup_size × trips × 8 subgroup operations.
//
// Masks and lanes are below 4 so that every subgroup size wavekit supports
// (4 to 128) runs the same code; their values do not change the cost.
// Bindings: 0 params (array<T>: s, k), 1 trips (array<u32>: the trip
// count), 2 out (array<T>, one per thread of the dispatch).
// `alias T` may be edited to u32 (the host does) — the shader is the same.
#import wavekit::subgroup as sg

alias T = f32;
const BLOCK = 256u;

@group(0) @binding(0) var<storage, read> params: array<T>;
@group(0) @binding(1) var<storage, read> trips: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<T>;

fn step_reduce_add(x: T, s: T, k: T) -> T {
    return sg::reduce_add<T>(x) * s + k;
}

fn step_reduce_max(x: T, s: T, k: T) -> T {
    return sg::reduce_max<T>(x) * s + k;
}

fn step_inclusive_add(x: T, s: T, k: T) -> T {
    return sg::inclusive_add<T>(x) * s + k;
}

fn step_exclusive_add(x: T, s: T, k: T) -> T {
    return sg::exclusive_add<T>(x) * s + k;
}

fn step_shuffle_xor(x: T, mask: u32, s: T, k: T) -> T {
    return sg::shuffle_xor<T>(x, mask) * s + k;
}

fn step_broadcast(x: T, lane: u32, s: T, k: T) -> T {
    return sg::broadcast<T>(x, lane) * s + k;
}

// The thread's starting value: differs between lanes, unknown to the compiler.
fn start(gid: u32) -> T {
    return params[1] + T(gid & 31u);
}

@compute @workgroup_size(BLOCK)
fn chain_reduce_add(@builtin(global_invocation_id) gid: vec3<u32>) {
    let s = params[0];
    let k = start(gid.x);
    let n = trips[0];
    var x = k;
    for (var i = 0u; i < n; i++) {
        x = step_reduce_add(x, s, k);
        x = step_reduce_add(x, s, k);
        x = step_reduce_add(x, s, k);
        x = step_reduce_add(x, s, k);
        x = step_reduce_add(x, s, k);
        x = step_reduce_add(x, s, k);
        x = step_reduce_add(x, s, k);
        x = step_reduce_add(x, s, k);
    }
    out[gid.x] = x;
}

@compute @workgroup_size(BLOCK)
fn chain_reduce_max(@builtin(global_invocation_id) gid: vec3<u32>) {
    let s = params[0];
    let k = start(gid.x);
    let n = trips[0];
    var x = k;
    for (var i = 0u; i < n; i++) {
        x = step_reduce_max(x, s, k);
        x = step_reduce_max(x, s, k);
        x = step_reduce_max(x, s, k);
        x = step_reduce_max(x, s, k);
        x = step_reduce_max(x, s, k);
        x = step_reduce_max(x, s, k);
        x = step_reduce_max(x, s, k);
        x = step_reduce_max(x, s, k);
    }
    out[gid.x] = x;
}

@compute @workgroup_size(BLOCK)
fn chain_inclusive_add(@builtin(global_invocation_id) gid: vec3<u32>) {
    let s = params[0];
    let k = start(gid.x);
    let n = trips[0];
    var x = k;
    for (var i = 0u; i < n; i++) {
        x = step_inclusive_add(x, s, k);
        x = step_inclusive_add(x, s, k);
        x = step_inclusive_add(x, s, k);
        x = step_inclusive_add(x, s, k);
        x = step_inclusive_add(x, s, k);
        x = step_inclusive_add(x, s, k);
        x = step_inclusive_add(x, s, k);
        x = step_inclusive_add(x, s, k);
    }
    out[gid.x] = x;
}

@compute @workgroup_size(BLOCK)
fn chain_exclusive_add(@builtin(global_invocation_id) gid: vec3<u32>) {
    let s = params[0];
    let k = start(gid.x);
    let n = trips[0];
    var x = k;
    for (var i = 0u; i < n; i++) {
        x = step_exclusive_add(x, s, k);
        x = step_exclusive_add(x, s, k);
        x = step_exclusive_add(x, s, k);
        x = step_exclusive_add(x, s, k);
        x = step_exclusive_add(x, s, k);
        x = step_exclusive_add(x, s, k);
        x = step_exclusive_add(x, s, k);
        x = step_exclusive_add(x, s, k);
    }
    out[gid.x] = x;
}

@compute @workgroup_size(BLOCK)
fn chain_shuffle_xor(@builtin(global_invocation_id) gid: vec3<u32>) {
    let s = params[0];
    let k = start(gid.x);
    let n = trips[0];
    var x = k;
    for (var i = 0u; i < n; i++) {
        x = step_shuffle_xor(x, 1u, s, k);
        x = step_shuffle_xor(x, 2u, s, k);
        x = step_shuffle_xor(x, 3u, s, k);
        x = step_shuffle_xor(x, 1u, s, k);
        x = step_shuffle_xor(x, 2u, s, k);
        x = step_shuffle_xor(x, 3u, s, k);
        x = step_shuffle_xor(x, 1u, s, k);
        x = step_shuffle_xor(x, 2u, s, k);
    }
    out[gid.x] = x;
}

@compute @workgroup_size(BLOCK)
fn chain_broadcast(@builtin(global_invocation_id) gid: vec3<u32>) {
    let s = params[0];
    let k = start(gid.x);
    let n = trips[0];
    var x = k;
    for (var i = 0u; i < n; i++) {
        x = step_broadcast(x, 0u, s, k);
        x = step_broadcast(x, 1u, s, k);
        x = step_broadcast(x, 2u, s, k);
        x = step_broadcast(x, 3u, s, k);
        x = step_broadcast(x, 0u, s, k);
        x = step_broadcast(x, 1u, s, k);
        x = step_broadcast(x, 2u, s, k);
        x = step_broadcast(x, 3u, s, k);
    }
    out[gid.x] = x;
}
