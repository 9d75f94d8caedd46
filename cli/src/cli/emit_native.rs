//! `wavekit emit --lang ptx|hsaco` (feature `native`): a composed shader
//! through the native back ends, as PTX text for CUDA or an AMDGPU code
//! object for HIP, without a GPU.

use std::process::ExitCode;

use wavekit::{Backend, Error, Target, ValidModule};
use wavekit_native::BoundsChecks;
use wavekit_native::amdgpu::{Amdgpu, Arch};
use wavekit_native::lower::Source;
use wavekit_native::nvptx::{KernelRequest, compile_many_with};

use super::emit::{EmitArgs, write};

/// Emits `source` (named `name`) as `args.lang`, `ptx` or `hsaco`.
pub fn run(args: &EmitArgs, source: &str, name: &str, target: Target) -> Result<ExitCode, Error> {
    if args.lang == "ptx" {
        if target.backend != Backend::Cuda {
            return Err(Error::Usage(
                "--lang ptx is the CUDA back end's output: add --backend cuda".into(),
            ));
        }
        let composed = args.compose.compose(target, source, name)?;
        let requests = requests(&composed.module, &composed.wgsl, name, args)?;
        let (ptx, _) = compile_many_with(&requests.kernels(), args.sm, bounds(args))?;
        return write(args, ptx.as_bytes());
    }
    let amdgpu = amdgpu_target(&target, args.arch.as_deref())?;
    let composed = args.compose.compose(target, source, name)?;
    let requests = requests(&composed.module, &composed.wgsl, name, args)?;
    let hsaco =
        wavekit_native::amdgpu::compile_many_with(&requests.kernels(), amdgpu, bounds(args))?;
    write(args, &hsaco.bytes)
}

/// `--unchecked` as the lowering's policy.
fn bounds(args: &EmitArgs) -> BoundsChecks {
    if args.unchecked {
        BoundsChecks::Unchecked
    } else {
        BoundsChecks::Restrict
    }
}

/// The compute entry points `--entry` names (all of them without it), with
/// the WGSL for error locations.
struct Requests<'a> {
    module: &'a ValidModule,
    entries: Vec<&'a str>,
    source: Source<'a>,
}

impl Requests<'_> {
    fn kernels(&self) -> Vec<KernelRequest<'_>> {
        self.entries
            .iter()
            .map(|entry| KernelRequest {
                module: &self.module.module,
                info: &self.module.info,
                entry,
                name: entry,
                source: Some(self.source),
            })
            .collect()
    }
}

fn requests<'a>(
    module: &'a ValidModule,
    text: &'a str,
    name: &'a str,
    args: &EmitArgs,
) -> Result<Requests<'a>, Error> {
    let entries: Vec<&str> = module
        .module
        .entry_points
        .iter()
        .filter(|e| e.stage == naga::ShaderStage::Compute)
        .map(|e| e.name.as_str())
        .filter(|e| args.entry.as_deref().is_none_or(|wanted| wanted == *e))
        .collect();
    if entries.is_empty() {
        return Err(Error::Usage(match &args.entry {
            Some(entry) => format!("{name} has no compute entry point `{entry}`"),
            None => format!("{name} has no compute entry point"),
        }));
    }
    Ok(Requests {
        module,
        entries,
        source: Source { name, text },
    })
}

/// The AMDGPU target of `--backend hip --arch A --subgroup-size W`.
fn amdgpu_target(target: &Target, arch: Option<&str>) -> Result<Amdgpu, Error> {
    if target.backend != Backend::Hip {
        return Err(Error::Usage(
            "--lang hsaco is the HIP back end's output: add --backend hip".into(),
        ));
    }
    let names = || {
        Arch::ALL
            .iter()
            .map(|a| a.name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let arch =
        arch.ok_or_else(|| Error::Usage(format!("--lang hsaco needs --arch, one of {}", names())))?;
    let arch = Arch::from_name(arch)
        .ok_or_else(|| Error::Usage(format!("--arch {arch}: expected one of {}", names())))?;
    let wave = target.subgroup_size.exact().ok_or_else(|| {
        Error::Usage("--lang hsaco needs a fixed --subgroup-size (the wave size, 32 or 64)".into())
    })?;
    Ok(Amdgpu::new(arch, wave)?)
}
