//! The native CUDA back end, statically (no GPU): every kernel of the
//! conformance suite lowers to LLVM IR that verifies, compiles to PTX for
//! sm_80 and sm_90, and assembles with ptxas.

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
    // One module per SM, compiled on its own thread.
    let results: Vec<Result<usize, String>> = std::thread::scope(|scope| {
        let requests = &requests;
        let handles: Vec<_> = [80, 90]
            .into_iter()
            .map(|sm| {
                scope.spawn(move || {
                    let (ptx, abis) =
                        compile_many(requests, sm).map_err(|e| format!("sm_{sm}: {e}"))?;
                    tools::assemble(&ptx, sm).map_err(|e| format!("sm_{sm}: {e}"))?;
                    Ok(abis.len())
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("worker"))
            .collect()
    });
    for result in results {
        assert_eq!(result.unwrap_or_else(|e| panic!("{e}")), kernels.len());
    }
}
