//! Choosing an adapter: by name, or the best one with subgroup support.

use crate::error::Error;

/// Which adapter to open.
#[derive(Clone, Debug, Default)]
pub struct AdapterChoice {
    /// Case-insensitive substring of the adapter name; `None` picks the best.
    pub name: Option<String>,
}

impl AdapterChoice {
    /// The adapter whose name contains `name`.
    pub fn named(name: impl Into<String>) -> Self {
        AdapterChoice {
            name: Some(name.into()),
        }
    }

    /// The adapter this choice designates: among adapters with subgroup
    /// operations and a matching name, a discrete GPU first, then integrated,
    /// virtual, and CPU ones last.
    pub fn select(&self) -> Result<wgpu::Adapter, Error> {
        let needle = self.name.as_ref().map(|n| n.to_lowercase());
        let mut adapters: Vec<wgpu::Adapter> = enumerate()
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
            });
        }
        adapters.sort_by_key(|a| {
            let has_subgroups = a.features().contains(wgpu::Features::SUBGROUP);
            (!has_subgroups, rank(a.get_info().device_type))
        });
        Ok(adapters.swap_remove(0))
    }
}

fn rank(device_type: wgpu::DeviceType) -> u8 {
    match device_type {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Other => 3,
        wgpu::DeviceType::Cpu => 4,
    }
}

/// Adapters of the compute-capable native APIs (Vulkan, Metal, DX12).
/// OpenGL is left out: it has no subgroup operations in wgpu.
fn enumerate() -> Vec<wgpu::Adapter> {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    desc.backends = wgpu::Backends::PRIMARY;
    let instance = wgpu::Instance::new(desc);
    pollster::block_on(instance.enumerate_adapters(wgpu::Backends::PRIMARY))
}

/// Descriptions of every adapter wavekit can use.
pub fn list_adapters() -> Vec<wgpu::AdapterInfo> {
    enumerate().iter().map(wgpu::Adapter::get_info).collect()
}
