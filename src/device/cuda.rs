//! The CUDA path of `wavekit::device` (feature `native`): the algorithms'
//! modules lowered to PTX for the context's device by `wavekit-native`
//! (LLVM 19 NVPTX), loaded once into the caller's context, and their
//! commands queued on the caller's stream — clears as `cuMemsetD8Async`,
//! dispatches as `cuLaunchKernel` with each bound range as its device
//! address and byte length (the kernel ABI, [`wavekit_native::abi`]).

use std::sync::Arc;

use wavekit_native::LowerOptions;
use wavekit_native::abi::KernelAbi;
use wavekit_native::cuda::{Cuda, CudaKernel};
use wavekit_native::cudarc::driver::{CudaContext, CudaStream};
use wavekit_native::driver::Launch;
use wavekit_native::lower::Source;
use wavekit_native::nvptx::{self, PtxOptions};

use super::context::{Api, Context, Op, Pipeline};
use super::slice::{Memory, Range, SliceLimits};
use crate::error::Error;
use crate::expand::ValidModule;
use crate::target::{Backend, ScalarFeatures, SubgroupSize, Target};

/// A caller's CUDA context, as an algorithm holds it.
pub(crate) struct CudaApi {
    cuda: Cuda,
    /// Compute capability × 10 of the PTX target.
    sm: u32,
}

/// A loaded kernel and the ABI it was lowered to.
pub(crate) struct CudaPipeline {
    kernel: CudaKernel,
    abi: KernelAbi,
}

impl CudaApi {
    /// The context of an algorithm built on `context`: warps of 32 lanes,
    /// every scalar type, PTX for the newest of sm_90 / sm_80 / sm_70 the
    /// device runs.
    pub fn context(context: &Arc<CudaContext>) -> Result<Context, Error> {
        let cuda = Cuda::on_context(context.clone());
        let sm = cuda.ptx_sm()?;
        let mut target = Target::new(Backend::Cuda, SubgroupSize::fixed(nvptx::WARP_SIZE)?);
        target.scalars = ScalarFeatures::ALL;
        Ok(Context {
            api: Api::Cuda(Arc::new(CudaApi { cuda, sm })),
            target,
            limits: SliceLimits::cuda(),
            look_back: super::debug::LookBackDebug::current(),
        })
    }

    /// Lowers each of `entries` to PTX with `lower` options (bounds checks,
    /// workgroup zeroing) and loads it.
    pub fn pipelines<const N: usize>(
        &self,
        module: &ValidModule,
        entries: [&str; N],
        lower: LowerOptions,
    ) -> Result<[Pipeline; N], Error> {
        let options = PtxOptions {
            sm: self.sm,
            source: Some(Source {
                name: "wavekit::device",
                text: &module.source,
            }),
            lower,
        };
        let built = entries
            .iter()
            .map(|entry| {
                let ptx = nvptx::compile(&module.module, &module.info, entry, &options)?;
                let kernel = self.cuda.load(&ptx.text, &ptx.entry)?;
                Ok(Pipeline::Cuda(CudaPipeline {
                    kernel,
                    abi: ptx.abi,
                }))
            })
            .collect::<Result<Vec<_>, Error>>()?;
        Ok(built
            .try_into()
            .unwrap_or_else(|_| unreachable!("one pipeline per entry")))
    }

    /// Queues `ops` on `stream` (of this context: checked).
    pub fn queue(&self, stream: &CudaStream, ops: &[Op<'_>]) -> Result<(), Error> {
        for op in ops {
            match op {
                Op::Clear(range) => {
                    let (address, _) = cuda_range(range);
                    // SAFETY: the range was checked to lie in the caller's
                    // memory, which the caller keeps allocated until the
                    // stream has run the call (`Slice::cuda`).
                    unsafe { self.cuda.zero_on(stream, address, range.size as usize)? };
                }
                Op::Dispatch(pipeline, ranges, grid) => {
                    let Pipeline::Cuda(pipeline) = pipeline else {
                        unreachable!("a CUDA context builds CUDA pipelines")
                    };
                    let name = pipeline.kernel.name();
                    let buffers = pipeline
                        .abi
                        .buffers
                        .iter()
                        .map(|param| {
                            let range = ranges
                                .get(param.binding as usize)
                                .filter(|_| param.group == 0)
                                .ok_or_else(|| {
                                    Error::Gpu(format!(
                                        "kernel `{name}`: no range for @group({}) @binding({})",
                                        param.group, param.binding
                                    ))
                                })?;
                            let (address, bytes) = cuda_range(range);
                            param
                                .check(bytes as usize)
                                .map_err(|e| Error::Gpu(format!("kernel `{name}`: {e}")))?;
                            Ok((address, bytes))
                        })
                        .collect::<Result<Vec<_>, Error>>()?;
                    // SAFETY: each range was checked to lie in the caller's
                    // memory (kept allocated until the stream has run the
                    // call) and its length against the binding; the pairs
                    // are in the ABI's order; kernels built without bounds
                    // checks are the ones whose shaders prove their
                    // accesses stay inside those lengths.
                    unsafe {
                        self.cuda.launch_on(
                            stream,
                            &pipeline.kernel,
                            *grid,
                            pipeline.abi.workgroup_size,
                            &buffers,
                        )?
                    };
                }
            }
        }
        Ok(())
    }
}

/// The device address and byte length of a range of a CUDA algorithm's
/// call (lengths are at most `u32::MAX`: `SliceLimits::cuda`).
fn cuda_range(range: &Range<'_>) -> (u64, u32) {
    match range.buffer {
        Memory::Cuda { address, .. } => (address + range.offset, range.size.max(4) as u32),
        Memory::Wgpu(_) => unreachable!("slices are checked to be of the algorithm's API"),
    }
}
