//! `wavekit emit`: compose a shader and write it in a shading language.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use wavekit::compose::Composer;
use wavekit::emit::{Emitted, Language, emit};
use wavekit::{Backend, Error, Target, ValidModule};
use wavekit_native::amdgpu::{Amdgpu, Arch};
use wavekit_native::lower::Source;
use wavekit_native::nvptx::{KernelRequest, compile_many};

use super::target_args::TargetArgs;

/// Arguments of `wavekit emit`.
#[derive(Args, Debug)]
pub struct EmitArgs {
    /// The WGSL shader, with `#import wavekit::...` lines.
    shader: PathBuf,
    /// Output language: spv, msl, hlsl, glsl, wgsl, wgsl-browser, ptx (the
    /// native CUDA back end's PTX; with `--backend cuda`) or hsaco (the
    /// native AMDGPU back end's code object; with `--backend hip`, `--arch`
    /// and the wave size as `--subgroup-size`).
    #[arg(long, default_value = "wgsl")]
    lang: String,
    /// For ptx: the compute capability × 10 (70, 75, 80, 86, 89, 90).
    #[arg(long, default_value_t = 90)]
    sm: u32,
    /// For hsaco: the AMDGPU architecture (gfx90a, gfx942, gfx1030, gfx1100,
    /// gfx1200).
    #[arg(long)]
    arch: Option<String>,
    /// Write here instead of standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// For spv: write the disassembly (needs `spirv-dis` from spirv-tools).
    #[arg(long)]
    disassemble: bool,
    /// The entry point (GLSL writes one per file).
    #[arg(long)]
    entry: Option<String>,
    #[command(flatten)]
    target: TargetArgs,
}

pub fn run(args: &EmitArgs) -> Result<ExitCode, Error> {
    let source = std::fs::read_to_string(&args.shader)
        .map_err(|e| Error::Usage(format!("cannot read {}: {e}", args.shader.display())))?;
    let name = args.shader.display().to_string();
    let target = args.target.target()?;
    if args.lang == "ptx" {
        if target.backend != Backend::Cuda {
            return Err(Error::Usage(
                "--lang ptx is the CUDA back end's output: add --backend cuda".into(),
            ));
        }
        let composed = Composer::new(target).compose(&source, &name)?;
        let requests = requests(&composed.module, &composed.wgsl, &name, args)?;
        let (ptx, _) = compile_many(&requests.kernels(), args.sm)?;
        return write(args, ptx.as_bytes());
    }
    if args.lang == "hsaco" {
        let amdgpu = amdgpu_target(&target, args.arch.as_deref())?;
        let composed = Composer::new(target).compose(&source, &name)?;
        let requests = requests(&composed.module, &composed.wgsl, &name, args)?;
        let hsaco = wavekit_native::amdgpu::compile_many(&requests.kernels(), amdgpu)?;
        return write(args, &hsaco.bytes);
    }
    let language: Language = args.lang.parse()?;
    let composed = Composer::new(target).compose(&source, &name)?;
    let emitted = emit(&composed.module, language, args.entry.as_deref())?;
    let bytes = match (&emitted, args.disassemble) {
        (Emitted::Binary(_), true) => disassemble(&emitted.to_bytes())?,
        (_, true) => {
            return Err(Error::Usage(
                "--disassemble applies to --lang spv only".into(),
            ));
        }
        _ => emitted.to_bytes(),
    };
    write(args, &bytes)
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

fn write(args: &EmitArgs, bytes: &[u8]) -> Result<ExitCode, Error> {
    match &args.output {
        Some(path) => std::fs::write(path, bytes)
            .map_err(|e| Error::Usage(format!("cannot write {}: {e}", path.display())))?,
        None => std::io::stdout()
            .write_all(bytes)
            .map_err(|e| Error::Usage(format!("cannot write to standard output: {e}")))?,
    }
    Ok(ExitCode::SUCCESS)
}

fn disassemble(spirv: &[u8]) -> Result<Vec<u8>, Error> {
    let path = std::env::temp_dir().join(format!("wavekit-{}.spv", std::process::id()));
    std::fs::write(&path, spirv).map_err(|e| Error::Usage(format!("temporary file: {e}")))?;
    let out = std::process::Command::new("spirv-dis")
        .arg(&path)
        .output()
        .map_err(|e| {
            Error::Usage(format!(
                "cannot run spirv-dis (Debian package spirv-tools): {e}"
            ))
        })?;
    let _ = std::fs::remove_file(&path);
    if !out.status.success() {
        return Err(Error::Usage(format!(
            "spirv-dis failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(out.stdout)
}
