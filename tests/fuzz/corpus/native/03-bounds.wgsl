struct Tail { count: u32, data: array<u32> }
@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: Tail;
var<workgroup> tile: array<u32, 64>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let x = input[gid.x * 3u];
    tile[(x * 7u) % 100u] = x;
    workgroupBarrier();
    let v = vec4<u32>(x, 1u, 2u, 3u);
    output.data[x + 5u] = tile[li] + v[x & 7u];
}
