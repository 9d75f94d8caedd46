#import wavekit::subgroup as sg
@group(0) @binding(0) var<storage, read_write> data: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let x = data[id.x];
    data[id.x] = sg::reduce_all_add<f32>(x) + sg::inclusive_add_tiled<f32, 3>(x);
}
