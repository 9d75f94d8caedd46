//! The native CUDA back end, statically (no GPU): every kernel of the
//! conformance suite lowers to LLVM IR that verifies, compiles to PTX for
//! sm_80 and sm_90, and assembles with ptxas.

use wavekit::conformance::{self, Options};
use wavekit::{Backend, ScalarFeatures, SubgroupSize, Target};
use wavekit_native::lower::Source;
use wavekit_native::nvptx::{PtxOptions, compile};
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
    let mut failures = Vec::new();
    for kernel in &kernels {
        for sm in [80, 90] {
            let result = compile(
                &kernel.module.module,
                &kernel.module.info,
                "wk_conf_main",
                &PtxOptions {
                    sm,
                    source: Some(Source {
                        name: "conformance.wgsl",
                        text: &kernel.module.source,
                    }),
                },
            )
            .map_err(|e| e.to_string())
            .and_then(|ptx| tools::assemble(&ptx.text, sm).map_err(|e| e.to_string()));
            if let Err(e) = result {
                failures.push(format!("{} (sm_{sm}): {e}", kernel.label));
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
