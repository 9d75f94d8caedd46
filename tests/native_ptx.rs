//! The native CUDA back end, statically (no GPU): every kernel of the
//! conformance suite lowers to LLVM IR that verifies, compiles to PTX for
//! sm_90 and assembles with ptxas; the first kernel of every family and
//! lowering does so for sm_80 too (the two targets share the lowering,
//! and the whole suite twice cost `make test` a minute of CPU).

use wavekit::conformance::{self, Options};
use wavekit::{Backend, ScalarFeatures, SubgroupSize, Target};
use wavekit_native::lower::Source;
use wavekit_native::nvptx::{KernelRequest, compile_many};
use wavekit_native::tools;

fn cuda_target() -> Target {
    let mut target = Target::new(Backend::Cuda, SubgroupSize::fixed(32).expect("32 lanes"));
    target.scalars = ScalarFeatures::ALL;
    target
}

#[test]
fn every_conformance_kernel_compiles_to_ptx_that_ptxas_accepts() {
    let kernels = conformance::kernels(&cuda_target(), &Options::default()).expect("suite kernels");
    assert!(kernels.len() > 20, "{} kernels", kernels.len());
    let names: Vec<String> = (0..kernels.len()).map(|i| format!("suite_{i}")).collect();
    let requests: Vec<KernelRequest> = kernels
        .iter()
        .zip(&names)
        .map(|(kernel, name)| KernelRequest {
            module: &kernel.module.module,
            info: &kernel.module.info,
            entry: "wk_conf_main",
            name,
            source: Some(Source {
                name: "conformance.wgsl",
                text: &kernel.module.source,
            }),
        })
        .collect();
    // sm_80: the first kernel of every family and lowering (labels are
    // `family [lowering] #n`).
    let mut seen = std::collections::HashSet::new();
    let firsts: Vec<KernelRequest> = kernels
        .iter()
        .zip(&requests)
        .filter(|(kernel, _)| {
            let family = kernel
                .label
                .rsplit_once(" #")
                .map_or(&*kernel.label, |(f, _)| f);
            seen.insert(family.to_string())
        })
        .map(|(_, request)| *request)
        .collect();
    assert!(firsts.len() > 10, "{} first kernels", firsts.len());
    // One module per SM, compiled on its own thread.
    let results: Vec<Result<(usize, usize), String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = [(80, &firsts), (90, &requests)]
            .into_iter()
            .map(|(sm, requests)| {
                scope.spawn(move || {
                    let (ptx, abis) =
                        compile_many(requests, sm).map_err(|e| format!("sm_{sm}: {e}"))?;
                    tools::assemble(&ptx, sm).map_err(|e| format!("sm_{sm}: {e}"))?;
                    Ok((abis.len(), requests.len()))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("worker"))
            .collect()
    });
    for result in results {
        let (compiled, asked) = result.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(compiled, asked);
    }
}

/// `wavekit::emit::native`: PTX only for a module composed at the warp's
/// 32 lanes; a code object only at a wave size the architecture runs. A
/// mismatch is an error naming both sizes, never code for another width.
#[test]
fn native_outputs_refuse_a_subgroup_size_the_target_cannot_run() {
    use wavekit::compose::Composer;
    use wavekit::emit::native::{Arch, NativeOptions, hsaco, ptx};
    let shader = "#import wavekit::subgroup as sg\n\
        @group(0) @binding(0) var<storage, read_write> data: array<u32>;\n\
        @compute @workgroup_size(64)\n\
        fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n\
            data[id.x] = sg::inclusive_add<u32>(data[id.x]);\n\
        }\n";
    let compose = |backend, size| {
        let target = Target::new(backend, SubgroupSize::fixed(size).expect("size"));
        Composer::new(target)
            .compose(shader, "k.wgsl")
            .expect("composes")
            .module
    };
    let options = NativeOptions {
        name: "k.wgsl",
        ..NativeOptions::default()
    };
    let text = ptx(&compose(Backend::Cuda, 32), 90, options).expect("PTX at 32 lanes");
    assert!(text.contains(".visible .entry main("), "{text}");
    tools::assemble(&text, 90).expect("ptxas accepts it");
    let error = ptx(&compose(Backend::Cuda, 16), 90, options).expect_err("16 lanes on CUDA");
    let message = error.to_string();
    assert!(
        message.contains("subgroups of 16 lanes") && message.contains("warps of 32"),
        "{message}"
    );
    let error = ptx(&compose(Backend::Vulkan, 32), 90, options).expect_err("a Vulkan module");
    assert!(
        error.to_string().contains("CUDA back end's output"),
        "{error}"
    );
    let bytes = hsaco(&compose(Backend::Hip, 64), Arch::Gfx942, options).expect("wave64");
    assert!(
        tools::amdgpu_notes(&bytes)
            .expect("readelf")
            .contains("gfx942")
    );
    let error = hsaco(&compose(Backend::Hip, 32), Arch::Gfx942, options).expect_err("wave32");
    let message = error.to_string();
    assert!(
        message.contains("subgroups of 32 lanes") && message.contains("gfx942 runs waves of 64"),
        "{message}"
    );
}
