//! The seam to wgpu (feature `wgpu`): filling a [`Target`] from what an
//! adapter reports, and the device features its modules need.

use super::profile::Profile;
use super::{
    Backend, EMULATED_DEFAULT_SIZE, ScalarFeatures, Strategy, SubgroupMode, SubgroupSize, Target,
};
use crate::error::Error;

impl Target {
    /// The target a wgpu adapter offers: its back end, subgroup size range and
    /// optional scalar types. An adapter without `SUBGROUP` and
    /// `SUBGROUP_BARRIER` gets emulated subgroups of
    /// [`EMULATED_DEFAULT_SIZE`] lanes ([`SubgroupMode::Emulated`]).
    ///
    /// Devices for this target must be created with [`Target::wgpu_features`].
    ///
    /// The lowering strategy comes from the adapter's tune profile when one
    /// is stored (written by `wavekit tune`, see [`super::profile`]), else it
    /// is the default (the builtin where an op has one). A stored profile
    /// that does not read is an error.
    pub fn from_adapter(adapter: &wgpu::Adapter) -> Result<Target, Error> {
        let mut target = Target::from_adapter_untuned(adapter)?;
        let info = adapter.get_info();
        if let Some(profile) = Profile::stored_for(&info)? {
            target.strategy = profile.strategy();
        }
        Ok(target)
    }

    /// The target of a device the caller opened: its adapter's back end and
    /// subgroup size range, and the scalar types the device was created
    /// with, with the adapter's stored tune profile as in
    /// [`Target::from_adapter`]. Fails if the device was created without
    /// subgroup operations ([`Target::wgpu_features`]).
    pub fn from_device(device: &wgpu::Device) -> Result<Target, Error> {
        let info = device.adapter_info();
        let mut target = Target::from_info(&info, device.features())?;
        if let Some(profile) = Profile::stored_for(&info)? {
            target.strategy = profile.strategy();
        }
        Ok(target)
    }

    /// Like [`Target::from_adapter`], with the default strategy whatever
    /// profile is stored.
    pub fn from_adapter_untuned(adapter: &wgpu::Adapter) -> Result<Target, Error> {
        Target::from_info(&adapter.get_info(), adapter.features())
    }

    /// The target of an adapter described by `info` offering `features`.
    fn from_info(info: &wgpu::AdapterInfo, features: wgpu::Features) -> Result<Target, Error> {
        let info = info.clone();
        let needed = wgpu::Features::SUBGROUP | wgpu::Features::SUBGROUP_BARRIER;
        let scalars = ScalarFeatures {
            f16: features.contains(wgpu::Features::SHADER_F16),
            int64: features.contains(wgpu::Features::SHADER_INT64),
            f64: features.contains(wgpu::Features::SHADER_F64),
        };
        if !features.contains(needed) {
            return Ok(
                Target::emulated(backend_of(info.backend), EMULATED_DEFAULT_SIZE)?
                    .with_scalars(scalars),
            );
        }
        let subgroup_size = SubgroupSize::range(info.subgroup_min_size, info.subgroup_max_size)
            .map_err(|_| Error::AdapterSubgroupSize {
                adapter: info.name.clone(),
                min: info.subgroup_min_size,
                max: info.subgroup_max_size,
            })?;
        Ok(Target {
            backend: backend_of(info.backend),
            subgroup_size,
            scalars,
            strategy: Strategy::default(),
            subgroups: SubgroupMode::Hardware,
        })
    }

    /// The target of `adapter` with subgroups of `size` lanes emulated
    /// ([`SubgroupMode::Emulated`]) whether or not it has its own: its back
    /// end and scalar types, the default strategy.
    pub fn from_adapter_emulated(adapter: &wgpu::Adapter, size: u32) -> Result<Target, Error> {
        let info = adapter.get_info();
        let features = adapter.features();
        Ok(
            Target::emulated(backend_of(info.backend), size)?.with_scalars(ScalarFeatures {
                f16: features.contains(wgpu::Features::SHADER_F16),
                int64: features.contains(wgpu::Features::SHADER_INT64),
                f64: features.contains(wgpu::Features::SHADER_F64),
            }),
        )
    }

    /// The wgpu features a device must enable to run modules for this target
    /// (no subgroup feature when subgroups are emulated).
    pub fn wgpu_features(&self) -> wgpu::Features {
        let mut features = if self.is_emulated() {
            wgpu::Features::empty()
        } else {
            wgpu::Features::SUBGROUP | wgpu::Features::SUBGROUP_BARRIER
        };
        if self.scalars.f16 {
            features |= wgpu::Features::SHADER_F16;
        }
        if self.scalars.int64 {
            features |= wgpu::Features::SHADER_INT64;
        }
        if self.scalars.f64 {
            features |= wgpu::Features::SHADER_F64;
        }
        features
    }
}

fn backend_of(backend: wgpu::Backend) -> Backend {
    match backend {
        wgpu::Backend::Metal => Backend::Metal,
        wgpu::Backend::Dx12 => Backend::Dx12,
        wgpu::Backend::Gl => Backend::Gl,
        wgpu::Backend::BrowserWebGpu => Backend::WebGpu,
        _ => Backend::Vulkan,
    }
}
