//! What a caller hands wavekit: [`Device`], the device an algorithm is
//! built for, and [`Queue`], what one of its calls records into.

#[cfg(feature = "native")]
use std::sync::Arc;

#[cfg(feature = "native")]
use wavekit_native::amdgpu::Amdgpu;
#[cfg(feature = "native")]
use wavekit_native::cudarc::driver::{CudaContext, CudaStream};
#[cfg(feature = "native")]
use wavekit_native::hip::{Hip, HipStream};

/// The device an algorithm is built for: a [`wgpu::Device`] (created with
/// [`Target::wgpu_features`](crate::Target::wgpu_features)) or, with the
/// `native` feature, a CUDA context or a HIP device. Every constructor
/// takes `impl Into<Device>`, so `&device`, `&context` or
/// `(&hip, amdgpu)` is all a caller writes.
#[derive(Clone, Copy, Debug)]
pub enum Device<'d> {
    /// A wgpu device: calls record into a [`wgpu::CommandEncoder`].
    Wgpu(&'d wgpu::Device),
    /// A CUDA context (cudarc's, re-exported as `wavekit_native::cudarc`):
    /// the kernels are lowered to PTX for its device and loaded into it
    /// once; calls queue on a [`CudaStream`] of it.
    #[cfg(feature = "native")]
    Cuda(&'d Arc<CudaContext>),
    /// A HIP device and the code objects it runs (its architecture and
    /// wave size: HIP has no stable call that names them): the kernels are
    /// lowered to AMDGPU code objects and loaded once; calls queue on a
    /// [`HipStream`] of it.
    #[cfg(feature = "native")]
    Hip(&'d Hip, Amdgpu),
}

impl<'d> From<&'d wgpu::Device> for Device<'d> {
    fn from(device: &'d wgpu::Device) -> Self {
        Device::Wgpu(device)
    }
}

#[cfg(feature = "native")]
impl<'d> From<&'d Arc<CudaContext>> for Device<'d> {
    fn from(context: &'d Arc<CudaContext>) -> Self {
        Device::Cuda(context)
    }
}

#[cfg(feature = "native")]
impl<'d> From<(&'d Hip, Amdgpu)> for Device<'d> {
    fn from((hip, target): (&'d Hip, Amdgpu)) -> Self {
        Device::Hip(hip, target)
    }
}

/// Where a call puts its commands: the caller's [`wgpu::CommandEncoder`]
/// (they run when the caller submits it, in order with its other commands)
/// or a CUDA or HIP stream (they are queued on it at once, in order with
/// its other work; nothing waits). Every call takes `impl Into<Queue>`:
/// `&mut encoder` or `&stream`. A call on another API than the
/// algorithm's is an error.
#[derive(Debug)]
pub enum Queue<'q> {
    /// A wgpu command encoder.
    Wgpu(&'q mut wgpu::CommandEncoder),
    /// A CUDA stream of the algorithm's context.
    #[cfg(feature = "native")]
    Cuda(&'q CudaStream),
    /// A HIP stream of the algorithm's device.
    #[cfg(feature = "native")]
    Hip(&'q HipStream),
}

impl<'q> From<&'q mut wgpu::CommandEncoder> for Queue<'q> {
    fn from(encoder: &'q mut wgpu::CommandEncoder) -> Self {
        Queue::Wgpu(encoder)
    }
}

#[cfg(feature = "native")]
impl<'q> From<&'q CudaStream> for Queue<'q> {
    fn from(stream: &'q CudaStream) -> Self {
        Queue::Cuda(stream)
    }
}

#[cfg(feature = "native")]
impl<'q> From<&'q Arc<CudaStream>> for Queue<'q> {
    fn from(stream: &'q Arc<CudaStream>) -> Self {
        Queue::Cuda(stream)
    }
}

#[cfg(feature = "native")]
impl<'q> From<&'q HipStream> for Queue<'q> {
    fn from(stream: &'q HipStream) -> Self {
        Queue::Hip(stream)
    }
}
