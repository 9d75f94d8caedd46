@group(0) @binding(0) var<storage, read> data: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(32)
fn reads_past_the_end(@builtin(global_invocation_id) id: vec3<u32>) {
    out[id.x] = data[data[0] + id.x];
}
