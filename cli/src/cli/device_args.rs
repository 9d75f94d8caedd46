//! The device options shared by the commands that dispatch: which back end,
//! which adapter or GPU.

use clap::Args;

use wavekit::runner::{AdapterChoice, Gpu};
use wavekit::{Backend, Error, SubgroupChoice};

/// `--backend`, `--adapter`, `--device`, `--subgroups`.
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
    /// Subgroups: auto (the adapter's own where it has the SUBGROUP
    /// feature, else emulated at 32 lanes), emulated (32 lanes) or
    /// emulated:S (S a power of two in 4..=128), emulated in workgroup
    /// memory without the SUBGROUP feature whatever the adapter offers.
    #[arg(long, default_value = "auto", value_name = "auto|emulated[:S]")]
    subgroups: String,
}

impl DeviceArgs {
    /// Opens the device the options name.
    pub fn open(&self) -> Result<Gpu, Error> {
        let backend = self
            .backend
            .as_deref()
            .map(str::parse::<Backend>)
            .transpose()?;
        match self.subgroups.parse::<SubgroupChoice>()? {
            SubgroupChoice::Auto => {
                Gpu::open_backend(backend, self.adapter.clone(), self.device, None)
            }
            SubgroupChoice::Emulated(_)
                if matches!(backend, Some(Backend::Cuda | Backend::Hip)) =>
            {
                Err(Error::Usage(format!(
                    "--subgroups {}: emulated subgroups run on wgpu adapters, not --backend {}",
                    self.subgroups,
                    backend.map_or("", Backend::name)
                )))
            }
            choice => Gpu::open(&AdapterChoice {
                name: self.adapter.clone(),
                backend,
                subgroups: choice,
            }),
        }
    }
}
