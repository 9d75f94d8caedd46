//! The exported naga_oil module composes in naga_oil 0.23 (Bevy's shader
//! composer) and the composed shader runs on lavapipe with correct results.

use naga_oil::compose::{
    ComposableModuleDescriptor, Composer, NagaModuleDescriptor, ShaderLanguage, ShaderType,
};
use wavekit::ValidModule;
use wavekit::emit::export::naga_oil_subgroup_module;
use wavekit::emit::snippets::DtypeFamily;
use wavekit::runner::{AdapterChoice, Binding, Gpu, words};

const SHADER: &str = "#import wavekit::subgroup::{wk_sg_init, wk_sg_reduce_all_add_u32}
#import wavekit::subgroup as sg

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;

@compute @workgroup_size(64)
fn main(
    @builtin(global_invocation_id) id: vec3<u32>,
    @builtin(subgroup_invocation_id) lane: u32,
    @builtin(subgroup_size) lanes: u32,
) {
    wk_sg_init(lane, lanes);
    let x = input[id.x];
    let sorted = sg::wk_sg_bitonic_sort_kv_tiled_u32_u32_2(x, id.x);
    output[id.x] = wk_sg_reduce_all_add_u32(x) * 1000000u
        + sg::wk_sg_exclusive_add_tiled_u32_1(x) * 1000u
        + sorted.key;
}
";

fn composer() -> Composer {
    Composer::default().with_capabilities(gpu_capabilities())
}

fn compose(composer: &mut Composer, module: &str, shader: &str) -> naga::Module {
    if let Err(e) = composer.add_composable_module(ComposableModuleDescriptor {
        source: module,
        file_path: "wavekit_subgroup.wgsl",
        language: ShaderLanguage::Wgsl,
        ..Default::default()
    }) {
        panic!("{}", e.emit_to_string(composer));
    }
    composer
        .make_naga_module(NagaModuleDescriptor {
            source: shader,
            file_path: "user.wgsl",
            shader_type: ShaderType::Wgsl,
            ..Default::default()
        })
        .unwrap_or_else(|e| panic!("{}", e.emit_to_string(composer)))
}

#[test]
fn naga_oil_composes_the_export_and_the_result_runs() {
    let gpu = Gpu::open(&AdapterChoice::named("llvmpipe")).expect("lavapipe");
    let size = gpu.target().subgroup_size.exact().expect("one size");
    let export = naga_oil_subgroup_module(size, &[DtypeFamily::Core]).expect("export");
    let module = compose(&mut composer(), &export, SHADER);
    let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), gpu_capabilities())
        .validate(&module)
        .expect("naga_oil's output validates");
    let valid = ValidModule {
        module,
        info,
        source: String::new(),
        target: gpu.target().clone(),
    };
    let kernel = gpu.kernel(&valid, "main").expect("pipeline");
    let input: Vec<u32> = (0..256u32)
        .map(|i| i.wrapping_mul(2654435761) % 997)
        .collect();
    let bytes: Vec<u8> = input.iter().flat_map(|w| w.to_le_bytes()).collect();
    let out = gpu
        .run(
            &kernel,
            &[
                Binding::Input(&bytes),
                Binding::Output {
                    size: bytes.len() as u64,
                },
            ],
            [4, 1, 1],
        )
        .expect("dispatch");
    let got = words(&out[0]);
    let s = size as usize;
    for (i, &got) in got.iter().enumerate() {
        let group = &input[i - i % s..i - i % s + s];
        let pair = &input[i - i % 2..i];
        let mut quad = input[i - i % 4..i - i % 4 + 4].to_vec();
        quad.sort_unstable();
        let sum = |xs: &[u32]| xs.iter().fold(0u32, |a, &x| a.wrapping_add(x));
        let want = sum(group)
            .wrapping_mul(1_000_000)
            .wrapping_add(sum(pair) * 1000)
            .wrapping_add(quad[i % 4]);
        assert_eq!(got, want, "invocation {i}");
    }
}

/// Every family composes at every snippet size (the f16 module carries
/// `enable f16;`, the wide one 64-bit types).
#[test]
fn every_family_composes_at_every_size() {
    for size in wavekit::emit::snippets::SIZES {
        for (family, call) in [
            (DtypeFamily::Core, "let e = sg::wk_sg_elect();"),
            (DtypeFamily::F16, "let r = sg::wk_sg_reduce_add_f16(1.0h);"),
            (DtypeFamily::Wide, "let r = sg::wk_sg_reduce_add_u64(1lu);"),
        ] {
            let export = naga_oil_subgroup_module(size, &[family]).expect("export");
            let shader = format!(
                "#import wavekit::subgroup as sg
@compute @workgroup_size(64)
fn main(@builtin(subgroup_invocation_id) lane: u32, @builtin(subgroup_size) lanes: u32) {{
    sg::wk_sg_init(lane, lanes);
    {call}
}}
"
            );
            compose(&mut composer(), &export, &shader);
        }
    }
}

/// What a 64-bit-capable Vulkan target validates with.
fn gpu_capabilities() -> naga::valid::Capabilities {
    let mut target = wavekit::Target::new(
        wavekit::Backend::Vulkan,
        wavekit::SubgroupSize::fixed(32).expect("32 is a subgroup size"),
    );
    target.scalars = wavekit::ScalarFeatures::ALL;
    target.naga_capabilities()
}
