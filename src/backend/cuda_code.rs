//! CUDA's [`NativeCode`]: PTX for the newest of sm_90 / sm_80 / sm_70 the
//! device runs, lowered by `wavekit-native` (LLVM 19 NVPTX) and
//! JIT-loaded through the CUDA driver API; subgroups are warps of
//! [`nvptx::WARP_SIZE`] lanes.

use wavekit_native::LowerOptions;
use wavekit_native::cuda::Cuda;
use wavekit_native::driver::Launch;
use wavekit_native::nvptx::{self, PtxOptions};

use super::api::ApiKind;
use super::native_server::{NativeCode, NativeKernel, source};
use crate::error::Error;
use crate::expand::ValidModule;
use crate::target::Backend;

/// PTX for one compute capability.
pub(crate) struct CudaCode {
    /// Compute capability × 10 of the PTX target.
    pub sm: u32,
}

impl CudaCode {
    /// The code `cuda`'s device runs.
    pub fn of(cuda: &Cuda) -> Result<CudaCode, Error> {
        Ok(CudaCode { sm: cuda.ptx_sm()? })
    }
}

impl NativeCode for CudaCode {
    type Driver = Cuda;
    const KIND: ApiKind = ApiKind::Cuda;
    const BACKEND: Backend = Backend::Cuda;

    fn subgroup_size(&self) -> u32 {
        nvptx::WARP_SIZE
    }

    fn load(
        &self,
        cuda: &Cuda,
        module: &ValidModule,
        entry: &str,
        lower: LowerOptions,
        name: &str,
    ) -> Result<NativeKernel<Cuda>, Error> {
        let ptx = nvptx::compile(
            &module.module,
            &module.info,
            entry,
            &PtxOptions {
                sm: self.sm,
                source: Some(source(module, name)),
                lower,
            },
        )?;
        let kernel =
            cuda.load_with_workgroup(&ptx.text, &ptx.entry, ptx.abi.dynamic_workgroup_bytes)?;
        Ok(NativeKernel {
            kernel,
            abi: ptx.abi,
        })
    }
}
