//! The one seam between wavekit's host code and the APIs it runs on: wgpu,
//! CUDA and HIP.
//!
//! Shaped like `wavekit-native`'s [`Driver`](wavekit_native::driver::Driver)
//! and CubeCL's one server per runtime: each API is a [`Api`]
//! implementation in a file of its own ([`wgpu_server`], and with the
//! `native` feature [`native_server`] over [`cuda_code`] and [`hip_code`]),
//! which compiles a validated module's entry points into pipelines and
//! records [`Op`]s — clears and dispatches over byte ranges of the caller's
//! memory — into the caller's queue (a wgpu command encoder, a CUDA or HIP
//! stream). [`Server`] is the one of them a device is on.
//!
//! `wavekit::device` (the algorithms on the caller's buffers) and
//! `wavekit::runner` (the CLI's, the demos' and the conformance suite's
//! runs) both sit on this layer; nothing here names either of them.

mod api;
mod memory;
mod op;
mod server;
mod wgpu_server;

#[cfg(feature = "native")]
pub(crate) mod cuda_code;
#[cfg(feature = "native")]
pub(crate) mod hip_code;
#[cfg(feature = "native")]
pub(crate) mod native_server;

pub(crate) use api::ApiKind;
pub use api::{Device, Queue};
pub(crate) use memory::{Memory, Range};
pub(crate) use op::{Checks, Op, Pipeline, grid};
pub(crate) use server::Server;
