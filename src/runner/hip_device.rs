//! The HIP back end of the runner: what it adds to the native device — the
//! module lowered to an AMDGPU code object by `wavekit-native` and loaded
//! through the HIP runtime (`libamdhip64.so`, loaded at run time); the
//! subgroup size is the lowering's wave size.
//!
//! HIP has no stable call for a device's `gfx` name, so the architecture
//! comes from `WAVEKIT_HIP_ARCH` (`gfx942`, `gfx1100`, ...), and the wave
//! size from `WAVEKIT_HIP_WAVE` (RDNA only; 32 by default).

use wavekit_native::LowerOptions;
use wavekit_native::amdgpu::{self, Amdgpu, Arch};
use wavekit_native::driver::{Driver, Launch};
use wavekit_native::hip::{Hip, HipBuffer, arch_from_env};
use wavekit_native::lower::KernelRequest;

use super::native_device::{NativeDevice, NativeKernel, NativeTarget, source};
use super::program::{Buffer, BufferInner};
use super::{Kernel, KernelInner};
use crate::device::Queue;
use crate::error::Error;
use crate::expand::ValidModule;
use crate::target::Backend;

/// An opened HIP device.
pub(super) type HipDevice = NativeDevice<HipTarget>;
/// A compiled, loaded HIP kernel.
pub(super) type HipKernelHandle = NativeKernel<HipTarget>;

/// Code objects for one architecture and wave size.
pub(super) struct HipTarget {
    amdgpu: Amdgpu,
}

impl NativeTarget for HipTarget {
    type Driver = Hip;
    const BACKEND: Backend = Backend::Hip;

    fn open(ordinal: usize) -> Result<(Hip, Self, String), Error> {
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
        let description = format!(
            "HIP runtime {}, code objects for {} wave{wave}",
            hip.version()?,
            arch.name()
        );
        Ok((hip, HipTarget { amdgpu }, description))
    }

    fn subgroup_size(&self) -> u32 {
        self.amdgpu.wave_size
    }

    fn load(
        &self,
        hip: &Hip,
        module: &ValidModule,
        entry: &str,
        lower: LowerOptions,
    ) -> Result<HipKernelHandle, Error> {
        let request = KernelRequest {
            module: &module.module,
            info: &module.info,
            entry,
            name: entry,
            source: Some(source(module)),
        };
        let hsaco = amdgpu::compile_many_with(std::slice::from_ref(&request), self.amdgpu, lower)?;
        let kernel = hip.load(&hsaco.bytes, entry)?;
        Ok(NativeKernel {
            kernel,
            abi: hsaco.abis.into_iter().next().expect("one kernel"),
        })
    }

    fn kernel_of(kernel: &Kernel) -> Option<&HipKernelHandle> {
        match &kernel.inner {
            KernelInner::Hip(k) => Some(k),
            _ => None,
        }
    }

    fn buffer_of(buffer: &Buffer) -> Option<&HipBuffer> {
        match &buffer.inner {
            BufferInner::Hip(b) => Some(b),
            _ => None,
        }
    }

    fn buffer_inner(buffer: HipBuffer) -> BufferInner {
        BufferInner::Hip(buffer)
    }

    fn queue(_: &Hip) -> Option<Queue<'_>> {
        None
    }
}
