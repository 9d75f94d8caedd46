//! The APIs: what a caller hands wavekit — [`Device`], the device an
//! algorithm is built for, and [`Queue`], what one of its calls records
//! into — and [`Api`], what each API's server offers the code above it.

#[cfg(feature = "native")]
use std::sync::Arc;

use super::op::{Checks, Op, Pipeline};
use crate::error::Error;
use crate::expand::ValidModule;
use crate::target::Target;

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
/// `&mut encoder`, `(&mut encoder, timestamp_writes)` or `&stream`. A call
/// on another API than the algorithm's is an error.
#[derive(Debug)]
pub enum Queue<'q> {
    /// A wgpu command encoder.
    Wgpu(&'q mut wgpu::CommandEncoder),
    /// A wgpu command encoder, and the timestamps the call's compute pass
    /// writes at its beginning and end: wgpu's way to time a pass, and on
    /// WebGPU the only one. Every call on a wgpu device records one compute
    /// pass, or none where it has nothing to do (`n = 0`), which writes no
    /// timestamp. Needs `wgpu::Features::TIMESTAMP_QUERY`. Writes wgpu
    /// would refuse (a query set of another type, an index outside it, the
    /// same index twice, none) are an [`Error::Usage`](crate::Error::Usage),
    /// and nothing is recorded.
    ///
    /// Timestamps written by the encoder around the call instead
    /// (`CommandEncoder::write_timestamp`) also time wgpu's reset of the
    /// end query, which wgpu records just before it, and the pass's
    /// barriers: on an H100 through Vulkan 4.5-4.8 µs more for the same
    /// dispatches (docs/benchmarks/2026-11-28a-vulkan-pass-timestamps).
    WgpuTimed(
        &'q mut wgpu::CommandEncoder,
        wgpu::ComputePassTimestampWrites<'q>,
    ),
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

impl<'q>
    From<(
        &'q mut wgpu::CommandEncoder,
        wgpu::ComputePassTimestampWrites<'q>,
    )> for Queue<'q>
{
    fn from(
        (encoder, writes): (
            &'q mut wgpu::CommandEncoder,
            wgpu::ComputePassTimestampWrites<'q>,
        ),
    ) -> Self {
        Queue::WgpuTimed(encoder, writes)
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

/// Which API a server is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(feature = "native"), allow(dead_code))]
pub(crate) enum ApiKind {
    /// wgpu: Vulkan, Metal, DX12, GL or the browser's WebGPU.
    Wgpu,
    /// CUDA, natively.
    Cuda,
    /// HIP, natively.
    Hip,
}

impl ApiKind {
    /// The API in words, for errors.
    pub fn name(self) -> &'static str {
        match self {
            ApiKind::Wgpu => "a wgpu device",
            ApiKind::Cuda => "CUDA",
            ApiKind::Hip => "HIP",
        }
    }
}

/// What an API offers the host code above it.
pub(crate) trait Api {
    /// What a call records into.
    type Queue<'q>;

    /// The API.
    const KIND: ApiKind;

    /// The API ([`Api::KIND`]).
    fn kind(&self) -> ApiKind {
        Self::KIND
    }

    /// The target the device offers: subgroup size, scalar types.
    fn target(&self) -> &Target;

    /// The alignment of a bound range's start (of the offset on wgpu, of
    /// the address natively) and the most bytes one binding may span.
    fn bind_limits(&self) -> (u64, u64);

    /// The most workgroups of a dispatch in one dimension.
    fn max_workgroups(&self) -> u32;

    /// The device's multiprocessors where the API says so (CUDA; wgpu
    /// does not, nor does HIP here: `Driver::multiprocessors`).
    fn multiprocessors(&self) -> Option<u32> {
        None
    }

    /// Compiles `entries` of `module`, checked as `checks` says, natively
    /// for `resident` workgroups a multiprocessor at once where given
    /// (`LowerOptions::min_resident_workgroups`: the registers capped to
    /// fit them; wgpu has no such hint).
    fn pipelines(
        &self,
        module: &ValidModule,
        entries: &[&str],
        checks: Checks,
        resident: Option<u32>,
    ) -> Result<Vec<Pipeline>, Error>;

    /// Puts `ops` (of pipelines this server compiled, on ranges of its
    /// memory) in `queue`.
    fn record(&self, queue: Self::Queue<'_>, ops: &[Op<'_>]) -> Result<(), Error>;
}
