//! [`Api`], what every API offers the host code above it, and [`Server`],
//! the one of them a device is on: compiled [`Pipeline`]s, and [`Op`]s
//! recorded into the caller's [`Queue`].

#[cfg(feature = "native")]
use std::sync::Arc;

use super::api::{Device, Queue};
use super::memory::Range;
use super::wgpu_server::{WgpuPipeline, WgpuServer};
use crate::error::Error;
use crate::expand::ValidModule;
use crate::target::Target;

#[cfg(feature = "native")]
use super::cuda_code::CudaCode;
#[cfg(feature = "native")]
use super::hip_code::HipCode;
#[cfg(feature = "native")]
use super::native_server::{NativeKernel, NativeServer};
#[cfg(feature = "native")]
use wavekit_native::{cuda::Cuda, hip::Hip};

/// How a pipeline's array accesses are checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Checks {
    /// Every access checked: wgpu's bounds checks (without its loop
    /// bounding: every loop of wavekit's shaders terminates), the native
    /// lowering's clamped indices.
    Bounded,
    /// Native kernels without checks, for shaders that prove every access
    /// stays in bounds; wgpu keeps its checks (without them the OneSweep
    /// sort ran 1–4 % slower through Vulkan, H100,
    /// docs/benchmarks/2026-11-25j-h100-workgroup-zeroing).
    Proven,
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

/// One command of an algorithm.
pub(crate) enum Op<'a> {
    /// Zeroes a range: on wgpu a dispatch of `shaders/zero.wgsl` in the
    /// algorithm's compute pass, natively an asynchronous memset.
    Clear(Range<'a>),
    /// A dispatch with bindings 0, 1, ... of group 0.
    Dispatch(&'a Pipeline, Vec<Range<'a>>, [u32; 3]),
}

/// A compiled entry point of one API.
pub(crate) enum Pipeline {
    /// A wgpu compute pipeline.
    Wgpu(WgpuPipeline),
    /// A CUDA kernel and its ABI.
    #[cfg(feature = "native")]
    Cuda(NativeKernel<Cuda>),
    /// A HIP kernel and its ABI.
    #[cfg(feature = "native")]
    Hip(NativeKernel<Hip>),
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

    /// Compiles `entries` of `module`, checked as `checks` says.
    fn pipelines(
        &self,
        module: &ValidModule,
        entries: &[&str],
        checks: Checks,
    ) -> Result<Vec<Pipeline>, Error>;

    /// Puts `ops` (of pipelines this server compiled, on ranges of its
    /// memory) in `queue`.
    fn record(&self, queue: Self::Queue<'_>, ops: &[Op<'_>]) -> Result<(), Error>;
}

/// The server of the API a device is on.
#[derive(Clone)]
pub(crate) enum Server {
    /// A wgpu device.
    Wgpu(WgpuServer),
    /// A CUDA context.
    #[cfg(feature = "native")]
    Cuda(Arc<NativeServer<CudaCode>>),
    /// A HIP device.
    #[cfg(feature = "native")]
    Hip(Arc<NativeServer<HipCode>>),
}

/// `$body` with `$server` bound to the API's server, whatever it is.
macro_rules! each_api {
    ($self:expr, $server:ident => $body:expr) => {
        match $self {
            Server::Wgpu($server) => $body,
            #[cfg(feature = "native")]
            Server::Cuda($server) => $body,
            #[cfg(feature = "native")]
            Server::Hip($server) => $body,
        }
    };
}

impl Server {
    /// The server of `device`: a wgpu device must have been created with
    /// [`Target::wgpu_features`] (subgroups).
    pub fn open(device: Device<'_>) -> Result<Server, Error> {
        Ok(match device {
            Device::Wgpu(device) => Server::Wgpu(WgpuServer::new(device)?),
            #[cfg(feature = "native")]
            Device::Cuda(context) => Server::Cuda(Arc::new(NativeServer::new(
                wavekit_native::cuda::Cuda::on_context(context.clone()),
                CudaCode::of,
            )?)),
            #[cfg(feature = "native")]
            Device::Hip(hip, target) => {
                Server::Hip(Arc::new(NativeServer::new(hip.clone(), |_| {
                    Ok(HipCode::new(target))
                })?))
            }
        })
    }

    /// The API.
    pub fn kind(&self) -> ApiKind {
        each_api!(self, server => server.kind())
    }

    /// The wgpu server, on a wgpu device.
    pub fn wgpu(&self) -> Option<&WgpuServer> {
        match self {
            Server::Wgpu(server) => Some(server),
            #[cfg(feature = "native")]
            _ => None,
        }
    }

    /// See [`Api::target`].
    pub fn target(&self) -> &Target {
        each_api!(self, server => server.target())
    }

    /// See [`Api::bind_limits`].
    pub fn bind_limits(&self) -> (u64, u64) {
        each_api!(self, server => server.bind_limits())
    }

    /// See [`Api::max_workgroups`].
    pub fn max_workgroups(&self) -> u32 {
        each_api!(self, server => server.max_workgroups())
    }

    /// See [`Api::pipelines`].
    pub fn pipelines<const N: usize>(
        &self,
        module: &ValidModule,
        entries: [&str; N],
        checks: Checks,
    ) -> Result<[Pipeline; N], Error> {
        let built = each_api!(self, server => server.pipelines(module, &entries, checks))?;
        Ok(built
            .try_into()
            .unwrap_or_else(|_| unreachable!("one pipeline per entry")))
    }

    /// Puts `ops` in `queue`, which must be of this server's API.
    pub fn record(&self, queue: Queue<'_>, ops: &[Op<'_>]) -> Result<(), Error> {
        match (self, queue) {
            (Server::Wgpu(server), Queue::Wgpu(encoder)) => server.record(encoder, ops),
            #[cfg(feature = "native")]
            (Server::Cuda(server), Queue::Cuda(stream)) => server.record(stream, ops),
            #[cfg(feature = "native")]
            (Server::Hip(server), Queue::Hip(stream)) => server.record(stream, ops),
            #[cfg(feature = "native")]
            (server, queue) => Err(Error::Usage(format!(
                "wavekit::device: an algorithm built on {} called on {}",
                server.kind().name(),
                match queue {
                    Queue::Wgpu(_) => "a wgpu command encoder",
                    Queue::Cuda(_) => "a CUDA stream",
                    Queue::Hip(_) => "a HIP stream",
                }
            ))),
        }
    }
}
