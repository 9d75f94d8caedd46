//! Choosing a device: a wgpu adapter by name and API, or the best one with
//! subgroup support; a native CUDA or HIP device by ordinal. `--backend`
//! means the same [`Backend`] in every command: the API a module is produced
//! for and run through.

use super::Gpu;
use crate::error::Error;
use crate::target::{Backend, SubgroupChoice, SubgroupMode};

/// Which wgpu adapter to open.
#[derive(Clone, Debug, Default)]
pub struct AdapterChoice {
    /// Case-insensitive substring of the adapter name; `None` picks the best.
    pub name: Option<String>,
    /// The API the adapter must run on (Vulkan, Metal, DX12 or GL); `None`:
    /// any of Vulkan, Metal and DX12.
    pub backend: Option<Backend>,
    /// Hardware subgroups where the adapter has them (else emulated), or
    /// emulated ones whatever it has.
    pub subgroups: SubgroupChoice,
}

impl AdapterChoice {
    /// The adapter whose name contains `name`.
    pub fn named(name: impl Into<String>) -> Self {
        AdapterChoice {
            name: Some(name.into()),
            ..AdapterChoice::default()
        }
    }

    /// This choice, among the adapters of `backend` only.
    pub fn on(mut self, backend: Backend) -> Self {
        self.backend = Some(backend);
        self
    }

    /// This choice, with subgroups emulated at `size` lanes.
    pub fn emulated(mut self, size: u32) -> Self {
        self.subgroups = SubgroupChoice::Emulated(size);
        self
    }

    /// The adapter this choice designates: among adapters with subgroup
    /// operations and a matching name, a discrete GPU first, then integrated,
    /// virtual, and CPU ones last.
    pub fn select(&self) -> Result<wgpu::Adapter, Error> {
        let needle = self.name.as_ref().map(|n| n.to_lowercase());
        let apis = match self.backend {
            None => wgpu::Backends::PRIMARY,
            Some(backend) => wgpu_api(backend)?,
        };
        let all = enumerate(apis);
        let names: Vec<String> = all.iter().map(|a| a.get_info().name).collect();
        let mut adapters: Vec<wgpu::Adapter> = all
            .into_iter()
            .filter(|a| {
                needle
                    .as_ref()
                    .is_none_or(|n| a.get_info().name.to_lowercase().contains(n))
            })
            .collect();
        if adapters.is_empty() {
            return Err(Error::NoAdapter {
                filter: self.name.clone(),
                backend: self.backend.map(|b| b.to_string()),
                why: if names.is_empty() {
                    NO_DRIVER.to_string()
                } else {
                    format!("the adapters are {}", names.join(", "))
                },
            });
        }
        adapters.sort_by_key(|a| {
            let has_subgroups = a.features().contains(wgpu::Features::SUBGROUP);
            (!has_subgroups, rank(a.get_info().device_type))
        });
        Ok(adapters.swap_remove(0))
    }
}

/// What to do when no wgpu API answered at all.
pub const NO_DRIVER: &str = "no driver answered (on Linux the Vulkan loader, libvulkan.so.1, found \
    none): install the GPU's Vulkan driver, or Mesa's lavapipe (Debian: mesa-vulkan-drivers) for \
    a CPU adapter; VK_DRIVER_FILES and VK_ICD_FILENAMES choose the driver files";

fn rank(device_type: wgpu::DeviceType) -> u8 {
    match device_type {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Other => 3,
        wgpu::DeviceType::Cpu => 4,
    }
}

/// The wgpu API of a back end that runs through wgpu.
fn wgpu_api(backend: Backend) -> Result<wgpu::Backends, Error> {
    match backend {
        Backend::Vulkan => Ok(wgpu::Backends::VULKAN),
        Backend::Metal => Ok(wgpu::Backends::METAL),
        Backend::Dx12 => Ok(wgpu::Backends::DX12),
        Backend::Gl => Ok(wgpu::Backends::GL),
        Backend::WebGpu | Backend::Cuda | Backend::Hip => Err(Error::Usage(format!(
            "back end `{backend}` does not run through a wgpu adapter in this process"
        ))),
    }
}

/// Adapters of `apis`. Without a choice, the compute-capable native APIs
/// (Vulkan, Metal, DX12): OpenGL has no subgroup operations in wgpu.
fn enumerate(apis: wgpu::Backends) -> Vec<wgpu::Adapter> {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    desc.backends = apis;
    let instance = wgpu::Instance::new(desc);
    pollster::block_on(instance.enumerate_adapters(apis))
}

/// Every adapter wavekit can use, with the subgroups `auto` gives it:
/// hardware where it has `SUBGROUP` and `SUBGROUP_BARRIER`, else emulated.
pub fn list_adapter_modes() -> Vec<(wgpu::AdapterInfo, SubgroupMode)> {
    let needed = wgpu::Features::SUBGROUP | wgpu::Features::SUBGROUP_BARRIER;
    enumerate(wgpu::Backends::PRIMARY)
        .iter()
        .map(|a| {
            let mode = if a.features().contains(needed) {
                SubgroupMode::Hardware
            } else {
                SubgroupMode::Emulated
            };
            (a.get_info(), mode)
        })
        .collect()
}

/// Descriptions of every adapter wavekit can use.
pub fn list_adapters() -> Vec<wgpu::AdapterInfo> {
    enumerate(wgpu::Backends::PRIMARY)
        .iter()
        .map(wgpu::Adapter::get_info)
        .collect()
}

impl Gpu {
    /// Opens a device of `backend`: CUDA and HIP natively (device
    /// `ordinal`, feature `native`; HIP's code objects for `arch`, such as
    /// `gfx942`, at its default wave size), Vulkan, Metal, DX12 and GL as
    /// the wgpu adapter `adapter` names on that API; `None`: the best wgpu
    /// adapter. `arch` is for HIP only: with another back end it is an
    /// error, as is HIP without it.
    pub fn open_backend(
        backend: Option<Backend>,
        adapter: Option<String>,
        ordinal: usize,
        arch: Option<&str>,
    ) -> Result<Gpu, Error> {
        if let (Some(arch), false) = (arch, backend == Some(Backend::Hip)) {
            return Err(Error::Usage(format!(
                "an AMD architecture ({arch}) chooses HIP code objects: it needs the hip back end"
            )));
        }
        let choice = AdapterChoice {
            name: adapter,
            backend,
            subgroups: SubgroupChoice::Auto,
        };
        match backend {
            #[cfg(feature = "native")]
            Some(Backend::Cuda) => Gpu::open_cuda(ordinal),
            #[cfg(feature = "native")]
            Some(Backend::Hip) => match arch {
                Some(arch) => Gpu::open_hip(ordinal, arch, None),
                None => Err(Error::Usage(format!(
                    "the hip back end needs the GPU's architecture (--arch: {}); `rocminfo` or \
                     `amdgpu-arch` print it",
                    crate::backend::hip_code::arch_names()
                ))),
            },
            #[cfg(not(feature = "native"))]
            Some(backend @ (Backend::Cuda | Backend::Hip)) => {
                let _ = (ordinal, arch);
                Err(Error::Usage(format!(
                    "back end `{backend}` needs wavekit's `native` feature"
                )))
            }
            _ => Gpu::open(&choice),
        }
    }
}
