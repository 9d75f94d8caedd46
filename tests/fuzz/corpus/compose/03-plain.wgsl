@group(0) @binding(0) var<storage, read_write> data: array<u32>;
fn helper(x: u32) -> u32 { return x * 3u + 1u; }
@compute @workgroup_size(32)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    data[id.x] = helper(data[id.x]);
}
