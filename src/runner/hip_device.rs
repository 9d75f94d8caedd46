//! The HIP back end of the runner: what it adds to the native device — the
//! module lowered to an AMDGPU code object by `wavekit-native` and loaded
//! through the HIP runtime (`libamdhip64.so`, loaded at run time); the
//! subgroup size is the lowering's wave size.
//!
//! HIP has no stable call for a device's `gfx` name, so the caller names
//! the architecture (`gfx942`, `gfx1100`, ...: `--arch`), and on RDNA the
//! wave size (32 by default).

use wavekit_native::LowerOptions;
use wavekit_native::amdgpu::{self, Amdgpu, Arch};
use wavekit_native::driver::{Driver, Launch};
use wavekit_native::hip::{Hip, HipBuffer};
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

/// The architectures HIP devices are opened for, in words.
pub(super) const ARCH_NAMES: &str = "gfx90a, gfx942, gfx1030, gfx1100 or gfx1200";

/// The AMDGPU target of `arch` at `wave` lanes (`None`: the
/// architecture's first, 64 on CDNA and 32 on RDNA).
pub(super) fn amdgpu(arch: &str, wave: Option<u32>) -> Result<Amdgpu, Error> {
    let arch = Arch::from_name(arch.trim()).ok_or_else(|| {
        Error::Usage(format!(
            "{arch} is not an architecture wavekit compiles for ({ARCH_NAMES})"
        ))
    })?;
    let wave = wave.unwrap_or(arch.wave_sizes()[0]);
    Ok(Amdgpu::new(arch, wave)?)
}

/// Code objects for one architecture and wave size.
pub(super) struct HipTarget {
    amdgpu: Amdgpu,
}

impl NativeTarget for HipTarget {
    type Driver = Hip;
    type Choice = Amdgpu;
    const BACKEND: Backend = Backend::Hip;

    fn open(ordinal: usize, amdgpu: Amdgpu) -> Result<(Hip, Self, String), Error> {
        let hip = Hip::open(ordinal)?;
        let (arch, wave) = (amdgpu.arch, amdgpu.wave_size);
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
