#import wavekit::subgroup as sg
#import wavekit::block as blk
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let v = data[id.x];
    let total = blk::reduce_add<u32, 256>(v, li);
    let b = sg::ballot(v > 3u);
    if (sg::all_true(v < 9u)) { data[id.x] = total + countOneBits(b.x); }
}
