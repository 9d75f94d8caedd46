//! The native outputs of a validated module (feature `native`): PTX text
//! for CUDA and AMDGPU code objects for HIP, through `wavekit-native`'s
//! LLVM back ends, without a GPU.
//!
//! The module's [`Target`](crate::Target) is the one it was composed for:
//! its subgroup size is the one the library code in it assumes. A size the
//! native target cannot run is an error naming both, never code for
//! another width: CUDA runs warps of 32 lanes; AMDGPU runs waves of 64 on
//! CDNA (gfx90a, gfx942) and 32 or 64 on RDNA (gfx1030, gfx1100, gfx1200).

pub use wavekit_native::BoundsChecks;
pub use wavekit_native::amdgpu::Arch;

use wavekit_native::amdgpu::Amdgpu;
use wavekit_native::lower::Source;
use wavekit_native::nvptx::KernelRequest;

use crate::{Backend, Error, ValidModule};

/// What [`ptx`] and [`hsaco`] compile, beside the module.
#[derive(Clone, Copy, Debug)]
pub struct NativeOptions<'a> {
    /// The compute entry point to compile; `None`: every one.
    pub entry: Option<&'a str>,
    /// The name error locations give the module's WGSL (a file name).
    pub name: &'a str,
    /// Bounds checks of the lowering (clamped indices by default, as wgpu).
    pub bounds: BoundsChecks,
}

impl Default for NativeOptions<'_> {
    fn default() -> Self {
        NativeOptions {
            entry: None,
            name: "shader.wgsl",
            bounds: BoundsChecks::Restrict,
        }
    }
}

/// The warp width of CUDA devices, the one subgroup size [`ptx`] accepts.
pub const CUDA_WARP: u32 = 32;

/// `module`'s compute entry points as PTX for compute capability `sm`
/// (× 10: 70, 75, 80, 86, 89 or 90), one `.entry` each.
///
/// Errors: a module composed for another back end than CUDA or for a
/// subgroup size other than 32 ([`Error::Usage`], naming both sizes); no
/// such entry point; an unsupported `sm`; anything the lowering refuses,
/// with its WGSL span.
pub fn ptx(module: &ValidModule, sm: u32, options: NativeOptions<'_>) -> Result<String, Error> {
    let target = &module.target;
    if target.backend != Backend::Cuda {
        return Err(Error::Usage(format!(
            "PTX is the CUDA back end's output, and {} was composed for {:?}: compose it for \
             Backend::Cuda (--backend cuda)",
            options.name, target.backend
        )));
    }
    if target.subgroup_size.exact() != Some(CUDA_WARP) {
        return Err(Error::Usage(format!(
            "{} was composed for subgroups of {} lanes, and CUDA runs warps of {CUDA_WARP}: \
             compose it at subgroup size {CUDA_WARP}",
            options.name, target.subgroup_size
        )));
    }
    let entries = entries(module, options)?;
    let kernels = requests(module, &entries, options);
    let (text, _) = wavekit_native::nvptx::compile_many_with(&kernels, sm, options.bounds)?;
    Ok(text)
}

/// `module`'s compute entry points as one AMDGPU code object (an ELF HIP
/// loads with `hipModuleLoadData`) for `arch`, at the module's subgroup
/// size as the wave size.
///
/// Errors: a module composed for another back end than HIP, or for a
/// subgroup size `arch` does not run ([`Error::Usage`], naming both); no
/// such entry point; anything the lowering refuses, with its WGSL span.
pub fn hsaco(
    module: &ValidModule,
    arch: Arch,
    options: NativeOptions<'_>,
) -> Result<Vec<u8>, Error> {
    let target = &module.target;
    if target.backend != Backend::Hip {
        return Err(Error::Usage(format!(
            "an AMDGPU code object is the HIP back end's output, and {} was composed for {:?}: \
             compose it for Backend::Hip (--backend hip)",
            options.name, target.backend
        )));
    }
    let waves = arch.wave_sizes();
    let wave = target
        .subgroup_size
        .exact()
        .filter(|size| waves.contains(size))
        .ok_or_else(|| {
            Error::Usage(format!(
                "{} was composed for subgroups of {} lanes, and {} runs waves of {}: compose it \
                 at one of those sizes",
                options.name,
                target.subgroup_size,
                arch.name(),
                waves
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(" or ")
            ))
        })?;
    let entries = entries(module, options)?;
    let kernels = requests(module, &entries, options);
    let hsaco = wavekit_native::amdgpu::compile_many_with(
        &kernels,
        Amdgpu::new(arch, wave)?,
        options.bounds,
    )?;
    Ok(hsaco.bytes)
}

/// The compute entry points `options.entry` names (every one without it).
fn entries<'m>(module: &'m ValidModule, options: NativeOptions<'_>) -> Result<Vec<&'m str>, Error> {
    let entries: Vec<&str> = module
        .module
        .entry_points
        .iter()
        .filter(|e| e.stage == naga::ShaderStage::Compute)
        .map(|e| e.name.as_str())
        .filter(|e| options.entry.is_none_or(|wanted| wanted == *e))
        .collect();
    if entries.is_empty() {
        return Err(Error::Usage(match options.entry {
            Some(entry) => format!("{} has no compute entry point `{entry}`", options.name),
            None => format!("{} has no compute entry point", options.name),
        }));
    }
    Ok(entries)
}

/// One lowering request per entry point, with the WGSL for error spans.
fn requests<'a>(
    module: &'a ValidModule,
    entries: &[&'a str],
    options: NativeOptions<'a>,
) -> Vec<KernelRequest<'a>> {
    let source = Source {
        name: options.name,
        text: &module.source,
    };
    entries
        .iter()
        .map(|entry| KernelRequest {
            module: &module.module,
            info: &module.info,
            entry,
            name: entry,
            source: Some(source),
        })
        .collect()
}
