//! The CUDA back end of the runner: what it adds to the seam's CUDA code
//! ([`CudaCode`]: PTX for the device's compute capability, JIT-loaded
//! through the CUDA driver API) — opening a device by ordinal, and its
//! kernels and buffers in the runner's enums.

use wavekit_native::cuda::{Cuda, CudaBuffer};
use wavekit_native::driver::Driver;

use super::native_device::{NativeDevice, NativeTarget};
use super::program::{Buffer, BufferInner, Recorder};
use super::{Kernel, KernelInner};
use crate::backend::Queue;
use crate::backend::cuda_code::CudaCode;
use crate::backend::native_server::NativeKernel;
use crate::error::Error;

/// An opened CUDA GPU.
pub(super) type CudaDevice = NativeDevice<CudaTarget>;
/// A compiled, loaded CUDA kernel.
pub(super) type CudaKernelHandle = NativeKernel<Cuda>;

/// The runner's CUDA back end.
pub(super) struct CudaTarget;

impl NativeTarget for CudaTarget {
    type Code = CudaCode;
    type Choice = ();

    fn open(ordinal: usize, (): ()) -> Result<(Cuda, CudaCode, String), Error> {
        let cuda = Cuda::open(ordinal)?;
        let (major, minor) = cuda.compute_capability()?;
        let code = CudaCode::of(&cuda)?;
        let driver = cuda.version()?;
        let description = format!(
            "CUDA {}.{} driver, PTX for sm_{} (compute capability {major}.{minor})",
            driver / 1000,
            driver % 1000 / 10,
            code.sm
        );
        Ok((cuda, code, description))
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

    fn record(cuda: &Cuda, record: &Recorder<'_>) -> Result<(), Error> {
        record(Queue::Cuda(cuda.stream()))
    }
}
