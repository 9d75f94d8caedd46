//! The HIP back end of the runner: what it adds to the seam's HIP code
//! ([`HipCode`]: AMDGPU code objects loaded through the HIP runtime) —
//! opening a device by ordinal for the architecture the caller names, and
//! its kernels and buffers in the runner's enums.

use wavekit_native::amdgpu::Amdgpu;
use wavekit_native::driver::Driver;
use wavekit_native::hip::{Hip, HipBuffer};

use super::native_device::{NativeDevice, NativeTarget};
use super::program::{Buffer, BufferInner, Recorder};
use super::{Kernel, KernelInner};
use crate::backend::Queue;
use crate::backend::hip_code::HipCode;
use crate::backend::native_server::NativeKernel;
use crate::error::Error;

/// An opened HIP device.
pub(super) type HipDevice = NativeDevice<HipTarget>;
/// A compiled, loaded HIP kernel.
pub(super) type HipKernelHandle = NativeKernel<Hip>;

/// The runner's HIP back end.
pub(super) struct HipTarget;

impl NativeTarget for HipTarget {
    type Code = HipCode;
    type Choice = Amdgpu;

    fn open(ordinal: usize, amdgpu: Amdgpu) -> Result<(Hip, HipCode, String), Error> {
        let hip = Hip::open(ordinal)?;
        let description = format!(
            "HIP runtime {}, code objects for {} wave{}",
            hip.version()?,
            amdgpu.arch.name(),
            amdgpu.wave_size
        );
        Ok((hip, HipCode::new(amdgpu), description))
    }

    fn kernel_of(kernel: &Kernel) -> Option<&HipKernelHandle> {
        match &kernel.inner {
            KernelInner::Hip(k) => Some(k),
            _ => None,
        }
    }

    fn buffer_of(buffer: &Buffer) -> Option<&HipBuffer> {
        match &buffer.inner {
            BufferInner::Hip(b) => Some(b),
            _ => None,
        }
    }

    fn buffer_inner(buffer: HipBuffer) -> BufferInner {
        BufferInner::Hip(buffer)
    }

    /// On the null stream, where the driver layer queues.
    fn record(hip: &Hip, record: &Recorder<'_>) -> Result<(), Error> {
        record(Queue::Hip(&hip.null_stream()))
    }
}
