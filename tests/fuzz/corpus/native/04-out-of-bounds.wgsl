struct Tail { count: u32, data: array<u32> }
@group(0) @binding(0) var<storage, read> before: array<u32>;
@group(0) @binding(1) var<storage, read_write> victim: Tail;
@group(0) @binding(2) var<storage, read_write> after: array<u32>;
@group(0) @binding(3) var<storage, read_write> result: array<u32>;
var<workgroup> first: array<u32, 32>;
var<workgroup> second: array<u32, 32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_index) li: u32,
        @builtin(num_workgroups) groups: vec3<u32>) {
    // Stores past the end of a runtime-sized array behind a fixed part,
    // word after word over the next kilobyte, and before its start.
    victim.data[4u + gid.x] = 0xA0000000u | gid.x;
    victim.data[i32(gid.x) - 1000] = 0xB0000000u | gid.x;
    // A workgroup array written past its end must not reach its neighbour.
    if (li < 32u) {
        first[li] = li;
        second[li] = 1000u + li;
    }
    workgroupBarrier();
    first[li + 40u] = 0xBADu;
    workgroupBarrier();
    let n = groups.x * 64u;
    result[gid.x] = second[li % 32u];
    // A load past the end reads an element of the same buffer.
    result[n + gid.x] = before[gid.x + 100000u];
}
