//! The device options shared by the commands that dispatch: which back end,
//! which adapter or GPU.

use clap::Args;

use wavekit::Error;
use wavekit::runner::{AdapterChoice, Gpu};

/// `--backend`, `--adapter`, `--device`.
#[derive(Args, Debug)]
pub struct DeviceArgs {
    /// Back end: wgpu (an adapter, see --adapter), cuda (native PTX) or hip
    /// (native AMDGPU code objects; set WAVEKIT_HIP_ARCH).
    #[arg(long, default_value = "wgpu", value_parser = ["wgpu", "cuda", "hip"])]
    backend: String,
    /// Use the adapter whose name contains this (case-insensitive), with
    /// --backend wgpu; default: the best one.
    #[arg(long)]
    adapter: Option<String>,
    /// The device ordinal, with --backend cuda or hip.
    #[arg(long, default_value_t = 0)]
    device: usize,
}

impl DeviceArgs {
    /// Opens the device the options name.
    pub fn open(&self) -> Result<Gpu, Error> {
        match self.backend.as_str() {
            "cuda" => Gpu::open_cuda(self.device),
            "hip" => Gpu::open_hip(self.device),
            _ => Gpu::open(&AdapterChoice {
                name: self.adapter.clone(),
            }),
        }
    }
}
