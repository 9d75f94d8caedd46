//! What the native tests share: a WGSL source parsed and validated by
//! naga, with every capability (the lowering decides what it supports).

/// `source` parsed and validated; a failure panics with naga's report.
pub fn module(source: &str) -> (naga::Module, naga::valid::ModuleInfo) {
    let module = naga::front::wgsl::parse_str(source)
        .unwrap_or_else(|e| panic!("{}", e.emit_to_string(source)));
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .unwrap_or_else(|e| panic!("{}", e.emit_to_string(source)));
    (module, info)
}

/// Entry point `main` of `source` (named `name` in error locations)
/// lowered to PTX for sm_90 with `lower`; a failure panics.
#[allow(dead_code)]
pub fn ptx_sm90(
    source: &str,
    name: &str,
    lower: wavekit_native::LowerOptions,
) -> wavekit_native::nvptx::Ptx {
    let (module, info) = module(source);
    wavekit_native::nvptx::compile(
        &module,
        &info,
        "main",
        &wavekit_native::nvptx::PtxOptions {
            sm: 90,
            source: Some(wavekit_native::lower::Source { name, text: source }),
            lower,
        },
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// Entry point `main` of `source` compiled for gfx942 (wave64) with
/// `lower`; a failure panics.
#[allow(dead_code)]
pub fn hsaco_gfx942(
    source: &str,
    lower: impl Into<wavekit_native::LowerOptions>,
) -> wavekit_native::amdgpu::Hsaco {
    use wavekit_native::amdgpu::{self, Amdgpu, Arch};
    let (module, info) = module(source);
    let request = wavekit_native::lower::KernelRequest {
        module: &module,
        info: &info,
        entry: "main",
        name: "main",
        source: None,
    };
    let target = Amdgpu::new(Arch::Gfx942, 64).expect("gfx942 wave64");
    amdgpu::compile_many_with(std::slice::from_ref(&request), target, lower)
        .unwrap_or_else(|e| panic!("{e}"))
}
