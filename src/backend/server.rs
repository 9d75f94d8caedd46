//! [`Server`]: the [`Api`] a device is on — compiled [`Pipeline`]s, and
//! [`Op`]s recorded into the caller's [`Queue`].

#[cfg(feature = "native")]
use std::sync::Arc;

use super::api::{Api, ApiKind, Device, Queue};
use super::op::{Checks, Op, Pipeline};
use super::wgpu_server::WgpuServer;
use crate::error::Error;
use crate::expand::ValidModule;
use crate::target::Target;

#[cfg(feature = "native")]
use super::cuda_code::CudaCode;
#[cfg(feature = "native")]
use super::hip_code::HipCode;
#[cfg(feature = "native")]
use super::native_server::NativeServer;

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

    /// See [`Api::multiprocessors`].
    pub fn multiprocessors(&self) -> Option<u32> {
        each_api!(self, server => server.multiprocessors())
    }

    /// See [`Api::pipelines`].
    pub fn pipelines<const N: usize>(
        &self,
        module: &ValidModule,
        entries: [&str; N],
        checks: Checks,
        resident: Option<u32>,
    ) -> Result<[Pipeline; N], Error> {
        let built =
            each_api!(self, server => server.pipelines(module, &entries, checks, resident))?;
        Ok(built
            .try_into()
            .unwrap_or_else(|_| unreachable!("one pipeline per entry")))
    }

    /// Puts `ops` in `queue`, which must be of this server's API.
    pub fn record(&self, queue: Queue<'_>, ops: &[Op<'_>]) -> Result<(), Error> {
        match (self, queue) {
            (Server::Wgpu(server), Queue::Wgpu(encoder)) => server.record((encoder, None), ops),
            (Server::Wgpu(server), Queue::WgpuTimed(encoder, writes)) => {
                server.record((encoder, Some(writes)), ops)
            }
            #[cfg(feature = "native")]
            (Server::Cuda(server), Queue::Cuda(stream)) => server.record(stream, ops),
            #[cfg(feature = "native")]
            (Server::Hip(server), Queue::Hip(stream)) => server.record(stream, ops),
            #[cfg(feature = "native")]
            (server, queue) => Err(Error::Usage(format!(
                "wavekit::device: an algorithm built on {} called on {}",
                server.kind().name(),
                match queue {
                    Queue::Wgpu(_) | Queue::WgpuTimed(..) => "a wgpu command encoder",
                    Queue::Cuda(_) => "a CUDA stream",
                    Queue::Hip(_) => "a HIP stream",
                }
            ))),
        }
    }
}
