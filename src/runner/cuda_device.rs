//! The CUDA back end of the runner: what it adds to the native device — the
//! compute capability decides the PTX target (sm_70, sm_80 or sm_90), the
//! module is lowered to PTX by `wavekit-native` (LLVM 19 NVPTX) and
//! JIT-loaded through the CUDA driver API, loaded at run time; subgroups are
//! warps of [`nvptx::WARP_SIZE`] lanes.

use wavekit_native::LowerOptions;
use wavekit_native::cuda::{Cuda, CudaBuffer};
use wavekit_native::driver::{Driver, Launch};
use wavekit_native::nvptx::{self, PtxOptions};

use super::native_device::{NativeDevice, NativeKernel, NativeTarget, source};
use super::program::{Buffer, BufferInner};
use super::{Kernel, KernelInner};
use crate::device::Queue;
use crate::error::Error;
use crate::expand::ValidModule;
use crate::target::Backend;

/// An opened CUDA GPU.
pub(super) type CudaDevice = NativeDevice<CudaTarget>;
/// A compiled, loaded CUDA kernel.
pub(super) type CudaKernelHandle = NativeKernel<CudaTarget>;

/// PTX for one compute capability.
pub(super) struct CudaTarget {
    /// Compute capability × 10 of the PTX target.
    sm: u32,
}

impl NativeTarget for CudaTarget {
    type Driver = Cuda;
    type Choice = ();
    const BACKEND: Backend = Backend::Cuda;

    fn open(ordinal: usize, (): ()) -> Result<(Cuda, Self, String), Error> {
        let cuda = Cuda::open(ordinal)?;
        let (major, minor) = cuda.compute_capability()?;
        let sm = cuda.ptx_sm()?;
        let driver = cuda.version()?;
        let description = format!(
            "CUDA {}.{} driver, PTX for sm_{sm} (compute capability {major}.{minor})",
            driver / 1000,
            driver % 1000 / 10
        );
        Ok((cuda, CudaTarget { sm }, description))
    }

    fn subgroup_size(&self) -> u32 {
        nvptx::WARP_SIZE
    }

    fn load(
        &self,
        cuda: &Cuda,
        module: &ValidModule,
        entry: &str,
        lower: LowerOptions,
    ) -> Result<CudaKernelHandle, Error> {
        let ptx = nvptx::compile(
            &module.module,
            &module.info,
            entry,
            &PtxOptions {
                sm: self.sm,
                source: Some(source(module)),
                lower,
            },
        )?;
        let kernel = cuda.load(&ptx.text, &ptx.entry)?;
        Ok(NativeKernel {
            kernel,
            abi: ptx.abi,
        })
    }

    fn kernel_of(kernel: &Kernel) -> Option<&CudaKernelHandle> {
        match &kernel.inner {
            KernelInner::Cuda(k) => Some(k),
            _ => None,
        }
    }

    fn buffer_of(buffer: &Buffer) -> Option<&CudaBuffer> {
        match &buffer.inner {
            BufferInner::Cuda(b) => Some(b),
            _ => None,
        }
    }

    fn buffer_inner(buffer: CudaBuffer) -> BufferInner {
        BufferInner::Cuda(buffer)
    }

    fn queue(cuda: &Cuda) -> Option<Queue<'_>> {
        Some(Queue::Cuda(cuda.stream()))
    }
}
