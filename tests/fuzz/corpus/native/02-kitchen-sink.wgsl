struct Pair { key: u32, value: f32 }
struct Params { n: u32, scale: f32, pad: vec2<u32> }
@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<Pair>;
@group(0) @binding(2) var<uniform> params: Params;
@group(0) @binding(3) var<storage, read_write> counters: array<atomic<u32>, 4>;
var<workgroup> tile: array<u32, 64>;
var<private> seed: u32 = 7u;

fn mix_bits(x: u32) -> u32 {
    var h = x ^ seed;
    for (var i = 0u; i < 3u; i++) {
        h = (h ^ (h >> 16u)) * 0x45d9f3bu;
    }
    return h;
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) li: u32,
        @builtin(subgroup_invocation_id) lane: u32, @builtin(subgroup_size) lanes: u32) {
    let i = gid.x;
    if (i >= arrayLength(&input)) { return; }
    let x = input[i];
    tile[li] = mix_bits(x);
    workgroupBarrier();
    let neighbour = tile[(li + 1u) % 64u];
    let total = subgroupAdd(x);
    let prefix = subgroupExclusiveAdd(f32(x));
    let shuffled = subgroupShuffleXor(vec2<f32>(f32(x), 1.0), 1u);
    let ballot = subgroupBallot(x > 5u);
    let wide = subgroupShuffle(u64(x) << 33u, lane ^ 3u);
    switch (x % 3u) {
        case 0u: { atomicAdd(&counters[0], 1u); }
        case 1u, 2u: { atomicMax(&counters[1], x); }
        default: {}
    }
    let exchanged = atomicCompareExchangeWeak(&counters[2], 0u, x);
    let quad = quadBroadcast(x, 2u) + quadSwapX(x) + quadSwapY(x) + quadSwapDiagonal(x);
    let scans = subgroupMin(i32(x)) + subgroupMax(i32(x)) + subgroupExclusiveMul(i32(x)) + subgroupInclusiveMul(1);
    let bits = subgroupAnd(x) | subgroupOr(x) | subgroupXor(x) | u32(subgroupAll(x > 1u)) | u32(subgroupAny(x > 1u));
    let uniform = workgroupUniformLoad(&tile[0]);
    let first = subgroupBroadcastFirst(x) + subgroupBroadcast(x, 3u) + subgroupShuffleUp(x, 2u) + subgroupShuffleDown(x, 2u);
    atomicStore(&counters[3], quad + u32(scans) + bits + uniform + first + atomicLoad(&counters[3]));
    var v = vec4<f32>(f32(neighbour), prefix, shuffled);
    v = clamp(v * params.scale, vec4(0.0), vec4(1e9));
    output[i] = Pair(total + countOneBits(ballot.x) + u32(wide >> 33u) + select(0u, 1u, exchanged.exchanged),
                     dot(v, vec4(1.0)) + sqrt(abs(v.x)) + exp2(v.y * 0.0));
}
