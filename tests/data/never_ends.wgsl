@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@compute @workgroup_size(32)
fn never_ends(@builtin(global_invocation_id) id: vec3<u32>) {
    loop {
        if data[0] == 12345u {
            break;
        }
        data[1 + id.x] += 1u;
    }
}
