//! `wavekit emit --lang ptx|hsaco` (feature `native`): a composed shader
//! through the library's native outputs (`wavekit::emit::native`), as PTX
//! text for CUDA or an AMDGPU code object for HIP, without a GPU.

use std::process::ExitCode;

use wavekit::emit::native::{Arch, BoundsChecks, NativeOptions, hsaco, ptx};
use wavekit::{Backend, Error};

use super::emit::{EmitArgs, write};

/// Emits `source` (named `name`) as `args.lang`, `ptx` (on the CUDA back
/// end unless `--backend` says otherwise) or `hsaco` (on HIP).
pub fn run(args: &EmitArgs, source: &str, name: &str) -> Result<ExitCode, Error> {
    let options = NativeOptions {
        entry: args.entry.as_deref(),
        name,
        bounds: if args.unclamped {
            BoundsChecks::Unchecked
        } else {
            BoundsChecks::Restrict
        },
    };
    if args.lang == "ptx" {
        let target = args.target.target_or(Backend::Cuda)?;
        let composed = args.compose.compose(target, source, name)?;
        return write(args, ptx(&composed.module, args.sm, options)?.as_bytes());
    }
    let arch = arch(args)?;
    let target = args.target.target_or(Backend::Hip)?;
    let composed = args.compose.compose(target, source, name)?;
    write(args, &hsaco(&composed.module, arch, options)?)
}

/// `--arch A`, which `--lang hsaco` needs (checked against
/// [`super::arch_args::ARCH_NAMES`], which are `Arch::ALL`'s names).
fn arch(args: &EmitArgs) -> Result<Arch, Error> {
    let name = args.arch.required("--lang hsaco")?;
    Arch::from_name(name)
        .ok_or_else(|| Error::Usage(format!("--arch {name}: not an architecture of this build")))
}
