#import wavekit::subgroup as warp
@group(0) @binding(0) var<storage, read_write> data: array<i32>;
@compute @workgroup_size(32)
fn main(@builtin(subgroup_invocation_id) lane: u32, @builtin(global_invocation_id) id: vec3<u32>) {
    let x = data[id.x];
    let y = warp::shuffle<i32>(x, lane ^ 1u);
    let z = warp::exclusive_max<i32>(y);
    let s = warp::bitonic_sort_tiled<i32, 4>(z);
    data[id.x] = s + warp::broadcast_first<i32>(x);
}
