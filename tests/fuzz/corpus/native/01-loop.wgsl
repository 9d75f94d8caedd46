@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;
@group(0) @binding(2) var<uniform> n: u32;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    var acc = 0u;
    for (var k = 0u; k < 8u; k++) {
        let i = gid.x * 8u + k;
        if (i < n) { acc += input[i]; }
    }
    output[gid.x] = acc;
}
