//! HIP's [`NativeCode`]: AMDGPU code objects for one architecture and wave
//! size, lowered by `wavekit-native` (LLVM 19 AMDGPU, linked by `ld.lld`)
//! and loaded through the HIP runtime (`libamdhip64.so`, loaded at run
//! time); the subgroup size is the wave size.
//!
//! HIP has no stable call for a device's `gfx` name, so the caller names
//! the architecture and, on RDNA, the wave size ([`amdgpu`]).

use wavekit_native::LowerOptions;
use wavekit_native::amdgpu::{self, Amdgpu, Arch};
use wavekit_native::driver::Launch;
use wavekit_native::hip::Hip;
use wavekit_native::lower::KernelRequest;

use super::api::ApiKind;
use super::native_server::{NativeCode, NativeKernel, source};
use crate::error::Error;
use crate::expand::ValidModule;
use crate::target::Backend;

/// The architectures code objects are built for, in words.
pub(crate) fn arch_names() -> String {
    Arch::ALL.map(Arch::name).join(", ")
}

/// The AMDGPU target of `arch` at `wave` lanes (`None`: the
/// architecture's first, 64 on CDNA and 32 on RDNA).
pub(crate) fn amdgpu(arch: &str, wave: Option<u32>) -> Result<Amdgpu, Error> {
    let arch = Arch::from_name(arch.trim()).ok_or_else(|| {
        Error::Usage(format!(
            "{arch} is not an architecture wavekit compiles for ({})",
            arch_names()
        ))
    })?;
    let wave = wave.unwrap_or(arch.wave_sizes()[0]);
    Ok(Amdgpu::new(arch, wave)?)
}

/// Code objects for one architecture and wave size.
pub(crate) struct HipCode {
    /// The architecture and wave size.
    pub amdgpu: Amdgpu,
}

impl HipCode {
    /// Code objects for `amdgpu`.
    pub fn new(amdgpu: Amdgpu) -> HipCode {
        HipCode { amdgpu }
    }
}

impl NativeCode for HipCode {
    type Driver = Hip;
    const KIND: ApiKind = ApiKind::Hip;
    const BACKEND: Backend = Backend::Hip;

    fn subgroup_size(&self) -> u32 {
        self.amdgpu.wave_size
    }

    fn load(
        &self,
        hip: &Hip,
        module: &ValidModule,
        entry: &str,
        lower: LowerOptions,
        name: &str,
    ) -> Result<NativeKernel<Hip>, Error> {
        let request = KernelRequest {
            module: &module.module,
            info: &module.info,
            entry,
            name: entry,
            source: Some(source(module, name)),
        };
        let hsaco = amdgpu::compile_many_with(std::slice::from_ref(&request), self.amdgpu, lower)?;
        let abi =
            hsaco.abis.into_iter().next().ok_or_else(|| {
                Error::Gpu(format!("the code object of `{entry}` has no kernel ABI"))
            })?;
        let kernel = hip.load_with_workgroup(&hsaco.bytes, entry, abi.dynamic_workgroup_bytes)?;
        Ok(NativeKernel { kernel, abi })
    }
}
