//! WGSL compute shaders lowered to PTX and assembled by ptxas, without a GPU.

mod support;

use support::module;
use wavekit_native::NativeError;
use wavekit_native::lower::Source;
use wavekit_native::nvptx::{Ptx, PtxOptions, compile};
use wavekit_native::tools;

fn ptx(source: &str, sm: u32) -> Result<Ptx, NativeError> {
    let (module, info) = module(source);
    compile(
        &module,
        &info,
        "main",
        &PtxOptions {
            sm,
            source: Some(Source {
                name: "shader.wgsl",
                text: source,
            }),
            lower: Default::default(),
        },
    )
}

const KITCHEN_SINK: &str = "
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
";

#[test]
fn a_kitchen_sink_kernel_assembles_for_sm80_and_sm90() {
    for sm in [80, 90] {
        let ptx = ptx(KITCHEN_SINK, sm).unwrap_or_else(|e| panic!("{e}"));
        assert!(ptx.text.contains(".entry main"), "{}", ptx.text);
        assert!(ptx.text.contains(".reqntid 64, 1, 1"), "{}", ptx.text);
        tools::assemble(&ptx.text, sm).unwrap_or_else(|e| panic!("{e}\n{}", ptx.text));
        assert_eq!(ptx.abi.buffers.len(), 4);
    }
}

#[test]
fn sm70_has_no_redux_and_sm80_does() {
    let sm70 = ptx(KITCHEN_SINK, 70).unwrap_or_else(|e| panic!("{e}"));
    assert!(sm70.text.contains(".target sm_70"));
    assert!(!sm70.text.contains("redux.sync"), "redux.sync needs sm_80");
    let sm80 = ptx(KITCHEN_SINK, 80).unwrap_or_else(|e| panic!("{e}"));
    assert!(sm80.text.contains("redux.sync.add.s32"), "{}", sm80.text);
}

#[test]
fn unsupported_constructs_name_themselves_and_the_line() {
    let source = "
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let m = mat2x2<f32>(1.0, 2.0, 3.0, 4.0);
    out[gid.x] = determinant(m);
}
";
    let error = ptx(source, 90).expect_err("determinant is not lowered");
    let message = error.to_string();
    assert!(message.contains("shader.wgsl:6:"), "{message}");
    assert!(message.contains("Determinant"), "{message}");
}

const MATH: &str = "
@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read_write> output: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let x = input[gid.x];
    output[gid.x] = sin(x) + pow(abs(x) + 1.0, 0.5) + exp(x * 0.1) + atan2(x, 2.0) + log(abs(x) + 1.0)
        + f32(tanh(f64(x)));
}
";

#[test]
fn transcendental_functions_link_libdevice() {
    for sm in [80, 90] {
        let ptx = ptx(MATH, sm).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            !ptx.text.contains("__nv_"),
            "libdevice routines are inlined"
        );
        tools::assemble(&ptx.text, sm).unwrap_or_else(|e| panic!("{e}\n{}", ptx.text));
    }
}

#[test]
fn the_kitchen_sink_builds_a_code_object_for_every_amdgpu_target() {
    use wavekit_native::amdgpu::{Amdgpu, Arch, compile};
    use wavekit_native::lower::KernelRequest;
    let (module, info) = module(KITCHEN_SINK);
    for arch in Arch::ALL {
        for &wave in arch.wave_sizes() {
            let target = Amdgpu::new(arch, wave).expect("supported");
            let hsaco = compile(
                &KernelRequest {
                    module: &module,
                    info: &info,
                    entry: "main",
                    name: "main",
                    source: None,
                },
                target,
            )
            .unwrap_or_else(|e| panic!("{} wave{wave}: {e}", arch.name()));
            let notes = tools::amdgpu_notes(&hsaco.bytes).expect("readelf");
            assert!(notes.contains("main.kd"), "{notes}");
            assert!(
                notes.contains(&format!(".wavefront_size: {wave}")),
                "{notes}"
            );
        }
    }
}

/// The shape of the decoupled look-back: thread 0 spins in a branch, then the
/// workgroup meets at `workgroupUniformLoad`. In the look-back scan LLVM
/// tail-duplicated that barrier into both arms, so the lanes of warp 0
/// reached different barrier instructions, and the `.aligned` `bar.sync`
/// hung on the H100. Every workgroup barrier is the non-aligned form.
const BARRIER_AFTER_BRANCH: &str = "
@group(0) @binding(0) var<storage, read_write> flags: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
var<workgroup> shared_prefix: u32;

@compute @workgroup_size(128)
fn main(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    if t == 0u {
        var prefix = 0u;
        if wid.x != 0u {
            loop {
                let seen = atomicOr(&flags[wid.x - 1u], 0u);
                if seen != 0u { prefix = seen; break; }
            }
        }
        atomicStore(&flags[wid.x], prefix + 1u);
        shared_prefix = prefix;
    }
    out[wid.x * 128u + t] = workgroupUniformLoad(&shared_prefix);
}
";

#[test]
fn workgroup_barriers_are_not_aligned() {
    for sm in [80, 90] {
        let ptx = ptx(BARRIER_AFTER_BRANCH, sm).unwrap_or_else(|e| panic!("{e}"));
        assert!(ptx.text.contains("barrier.sync \t0;"), "{}", ptx.text);
        assert!(!ptx.text.contains("bar.sync"), "{}", ptx.text);
        tools::assemble(&ptx.text, sm).unwrap_or_else(|e| panic!("{e}\n{}", ptx.text));
    }
}
