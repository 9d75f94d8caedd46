// Each value divided by the sum of its subgroup, and the workgroup's
// exclusive prefix of the values: wavekit subgroup and block primitives
// through build-time typed bindings.
#import wavekit::subgroup as sg
#import wavekit::block as blk

@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read_write> normalised: array<f32>;
@group(0) @binding(2) var<storage, read_write> prefix: array<u32>;

@compute @workgroup_size(128)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let x = input[id.x];
    normalised[id.x] = x / sg::reduce_all_add<f32>(x);
    prefix[id.x] = blk::exclusive_add<u32, 128>(u32(x));
}
