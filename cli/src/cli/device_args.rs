//! The device options shared by the commands that dispatch: which back end,
//! which adapter or GPU.

use clap::Args;

use wavekit::runner::Gpu;
use wavekit::{Backend, Error};

/// `--backend`, `--adapter`, `--device`.
#[derive(Args, Debug)]
pub struct DeviceArgs {
    /// Back end: vulkan, metal, dx12 or gl (a wgpu adapter on that API, see
    /// --adapter), cuda (native PTX) or hip (native AMDGPU code objects; set
    /// WAVEKIT_HIP_ARCH). Default: the best wgpu adapter on any API.
    #[arg(long, value_parser = ["vulkan", "metal", "dx12", "gl", "cuda", "hip"])]
    backend: Option<String>,
    /// Use the wgpu adapter whose name contains this (case-insensitive);
    /// default: the best one.
    #[arg(long)]
    adapter: Option<String>,
    /// The device ordinal, with --backend cuda or hip.
    #[arg(long, default_value_t = 0)]
    device: usize,
}

impl DeviceArgs {
    /// Opens the device the options name.
    pub fn open(&self) -> Result<Gpu, Error> {
        let backend = self
            .backend
            .as_deref()
            .map(str::parse::<Backend>)
            .transpose()?;
        Gpu::open_backend(backend, self.adapter.clone(), self.device)
    }
}
