//! The device options shared by the commands that dispatch: which back end,
//! which adapter or GPU, and for HIP the architecture and wave size.

use clap::Args;

use wavekit::runner::{AdapterChoice, Gpu};
use wavekit::{Backend, Error, SubgroupChoice};

use super::arch_args::ArchArgs;

/// `--backend`, `--adapter`, `--device`, `--arch`, `--subgroup-size`,
/// `--subgroups`.
#[derive(Args, Debug)]
pub struct DeviceArgs {
    /// Back end: vulkan, metal, dx12 or gl (a wgpu adapter on that API, see
    /// --adapter), cuda (native: PTX through LLVM's NVPTX back end, run by
    /// the NVIDIA driver) or hip (native: AMDGPU code objects through LLVM,
    /// run by the HIP runtime; needs --arch). Default: the best wgpu adapter
    /// on any API.
    #[arg(long, value_parser = ["vulkan", "metal", "dx12", "gl", "cuda", "hip"])]
    backend: Option<String>,
    /// Use the wgpu adapter whose name contains this (case-insensitive);
    /// default: the best one.
    #[arg(long)]
    adapter: Option<String>,
    /// The device ordinal, with --backend cuda or hip.
    #[arg(long, default_value_t = 0)]
    device: usize,
    #[command(flatten)]
    arch: ArchArgs,
    /// With --backend hip: the wave size, 32 or 64 where the --arch runs
    /// both (RDNA: gfx1030, gfx1100, gfx1200); default: 64 on gfx90a and
    /// gfx942, 32 on RDNA.
    #[arg(long, value_name = "32|64")]
    subgroup_size: Option<u32>,
    /// Subgroups: auto (the adapter's own where it has the SUBGROUP
    /// feature, else emulated at 32 lanes), emulated (32 lanes) or
    /// emulated:S (S a power of two in 4..=128), emulated in workgroup
    /// memory without the SUBGROUP feature whatever the adapter offers.
    #[arg(long, default_value = "auto", value_name = "auto|emulated[:S]")]
    subgroups: String,
}

impl DeviceArgs {
    /// Checks the flags against each other before anything is opened or
    /// read: `--backend hip` needs `--arch`, which no other back end takes,
    /// and `--subgroup-size` applies to HIP only. Returns the back end and
    /// the architecture.
    pub fn checked(&self) -> Result<(Option<Backend>, Option<&str>), Error> {
        let backend = self
            .backend
            .as_deref()
            .map(str::parse::<Backend>)
            .transpose()?;
        let elsewhere = || match backend {
            Some(backend) => format!("--backend {backend}"),
            None => "a wgpu adapter".to_string(),
        };
        let arch = if backend == Some(Backend::Hip) {
            Some(self.arch.required("--backend hip")?)
        } else {
            self.arch.refuse(&elsewhere())?;
            None
        };
        if let (Some(size), None) = (self.subgroup_size, arch) {
            return Err(Error::Usage(format!(
                "--subgroup-size {size} chooses the wave size of --backend hip, not of {}: a \
                 wgpu adapter runs its own size (--subgroups emulated:{size} emulates one), CUDA \
                 runs 32",
                elsewhere()
            )));
        }
        self.subgroups.parse::<SubgroupChoice>()?;
        Ok((backend, arch))
    }

    /// Opens the device the options name, once [`DeviceArgs::checked`].
    pub fn open(&self) -> Result<Gpu, Error> {
        let (backend, arch) = self.checked()?;
        match self.subgroups.parse::<SubgroupChoice>()? {
            SubgroupChoice::Auto => match (arch, self.subgroup_size) {
                #[cfg(feature = "native")]
                (Some(arch), Some(wave)) => Gpu::open_hip(self.device, arch, Some(wave)),
                _ => Gpu::open_backend(backend, self.adapter.clone(), self.device, arch),
            },
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
