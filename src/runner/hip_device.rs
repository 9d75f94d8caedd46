//! The HIP back end of the runner: the validated module lowered to an AMDGPU
//! code object by `wavekit-native` and launched through the HIP runtime
//! (`libamdhip64.so`, loaded at run time).
//!
//! HIP has no stable call for a device's `gfx` name, so the architecture
//! comes from `WAVEKIT_HIP_ARCH` (`gfx942`, `gfx1100`, ...), and the wave
//! size from `WAVEKIT_HIP_WAVE` (RDNA only; 32 by default).

use wavekit_native::amdgpu::{self, Amdgpu, Arch};
use wavekit_native::hip::{Hip, HipKernel, arch_from_env};
use wavekit_native::lower::{KernelRequest, Source};

use super::native_buffers::NativeBuffers;
use super::{Binding, DeviceInfo};
use crate::error::Error;
use crate::expand::ValidModule;
use crate::target::{Backend, ScalarFeatures, SubgroupSize, Target};

/// An opened HIP device.
pub struct HipDevice {
    hip: Hip,
    amdgpu: Amdgpu,
    info: DeviceInfo,
    target: Target,
}

/// A compiled, loaded kernel.
pub struct HipKernelHandle {
    kernel: HipKernel,
    abi: wavekit_native::abi::KernelAbi,
}

impl HipDevice {
    /// Opens device `ordinal`; a clear error without a HIP runtime.
    pub fn open(ordinal: usize) -> Result<HipDevice, Error> {
        let hip = Hip::open(ordinal)?;
        let arch_name = arch_from_env().ok_or_else(|| {
            Error::Gpu("set WAVEKIT_HIP_ARCH to the GPU's architecture (gfx90a, gfx942, gfx1030, gfx1100 or gfx1200)".into())
        })?;
        let arch = Arch::from_name(&arch_name).ok_or_else(|| {
            Error::Gpu(format!(
                "{arch_name} is not an architecture wavekit compiles for (gfx90a, gfx942, gfx1030, gfx1100, gfx1200)"
            ))
        })?;
        let wave = match std::env::var("WAVEKIT_HIP_WAVE") {
            Ok(w) => w
                .parse()
                .map_err(|_| Error::Gpu(format!("WAVEKIT_HIP_WAVE={w} is not 32 or 64")))?,
            Err(_) => arch.wave_sizes()[0],
        };
        let amdgpu = Amdgpu::new(arch, wave)?;
        let info = DeviceInfo {
            name: hip.name()?,
            driver: format!(
                "HIP runtime {}, code objects for {} wave{wave}",
                hip.runtime_version()?,
                arch.name()
            ),
        };
        let mut target = Target::new(Backend::Hip, SubgroupSize::fixed(amdgpu.wave_size)?);
        target.scalars = ScalarFeatures::ALL;
        Ok(HipDevice {
            hip,
            amdgpu,
            info,
            target,
        })
    }

    /// The device's description.
    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// The target: the wave size, every scalar type.
    pub fn target(&self) -> &Target {
        &self.target
    }

    /// Lowers `entry` to a code object and loads it.
    pub fn kernel(&self, module: &ValidModule, entry: &str) -> Result<HipKernelHandle, Error> {
        let hsaco = amdgpu::compile(
            &KernelRequest {
                module: &module.module,
                info: &module.info,
                entry,
                name: entry,
                source: Some(Source {
                    name: "shader.wgsl",
                    text: &module.source,
                }),
            },
            self.amdgpu,
        )?;
        let kernel = self.hip.load(&hsaco.bytes, entry)?;
        Ok(HipKernelHandle {
            kernel,
            abi: hsaco.abis.into_iter().next().expect("one kernel"),
        })
    }

    /// Launches with buffers bound by `@binding` number (group 0).
    pub fn run_at(
        &self,
        kernel: &HipKernelHandle,
        numbered: &[(u32, Binding<'_>)],
        workgroups: [u32; 3],
    ) -> Result<Vec<Vec<u8>>, Error> {
        let mut bound = NativeBuffers::bind(&kernel.abi, numbered)?;
        self.hip.launch(
            &kernel.kernel,
            &mut bound.buffers,
            workgroups,
            kernel.abi.workgroup_size,
            0,
        )?;
        Ok(bound.outputs())
    }

    /// Times `runs` launches after `warmup` with HIP events; milliseconds.
    pub fn time_at(
        &self,
        kernel: &HipKernelHandle,
        numbered: &[(u32, Binding<'_>)],
        workgroups: [u32; 3],
        warmup: usize,
        runs: usize,
    ) -> Result<Vec<f64>, Error> {
        let mut bound = NativeBuffers::bind(&kernel.abi, numbered)?;
        let times = self.hip.time(
            &kernel.kernel,
            &mut bound.buffers,
            workgroups,
            kernel.abi.workgroup_size,
            0,
            warmup,
            runs,
        )?;
        Ok(times.into_iter().map(f64::from).collect())
    }
}
