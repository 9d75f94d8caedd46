//! `wavekit emit`: compose a shader and write it in a shading language.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use wavekit::Error;
use wavekit::emit::{Emitted, Language, emit};

use super::arch_args::ArchArgs;
use super::compose_args::ComposeArgs;
use super::target_args::TargetArgs;

/// Arguments of `wavekit emit`.
#[derive(Args, Debug)]
pub struct EmitArgs {
    /// The WGSL shader, with `#import wavekit::...` lines.
    pub(super) shader: PathBuf,
    /// Output language: spv (Vulkan), msl (Metal), hlsl (DX12), glsl (GL),
    /// wgsl, wgsl-browser (WebGPU in a browser: WGSL with its `enable`
    /// directives), ptx (the native CUDA back end's PTX, through LLVM's NVPTX
    /// back end, at subgroup size 32; implies `--backend cuda`) or hsaco (the
    /// native HIP back end's AMDGPU code object, through LLVM, for `--arch`
    /// at the wave size `--subgroup-size`; implies `--backend hip`).
    #[arg(long, default_value = "wgsl")]
    pub(super) lang: String,
    /// For ptx: the compute capability × 10 (70, 75, 80, 86, 89, 90).
    #[arg(long, default_value_t = 90)]
    pub(super) sm: u32,
    #[command(flatten)]
    pub(super) arch: ArchArgs,
    /// Write here instead of standard output.
    #[arg(short, long)]
    pub(super) output: Option<PathBuf>,
    /// For spv: write the disassembly (needs `spirv-dis` from spirv-tools).
    #[arg(long)]
    pub(super) disassemble: bool,
    /// The entry point (GLSL writes one per file).
    #[arg(long)]
    pub(super) entry: Option<String>,
    /// For ptx and hsaco: leave array indices unclamped (an out-of-bounds
    /// index is then undefined behaviour; by default every index is clamped
    /// into its array, as wgpu does). Formerly `--unchecked`.
    #[arg(long, alias = "unchecked")]
    pub(super) unclamped: bool,
    #[command(flatten)]
    pub(super) target: TargetArgs,
    #[command(flatten)]
    pub(super) compose: ComposeArgs,
}

/// The native outputs' emitter (`emit_native::run`, with the `native`
/// feature): the arguments, the shader's text and its name.
pub type NativeEmit = fn(&EmitArgs, &str, &str) -> Result<ExitCode, Error>;

/// `wavekit emit`; PTX and code objects through `native`, which the
/// command's dispatch passes (`None` without the `native` feature).
pub fn run(args: &EmitArgs, native: Option<NativeEmit>) -> Result<ExitCode, Error> {
    let source = std::fs::read_to_string(&args.shader)
        .map_err(|e| Error::Usage(format!("cannot read {}: {e}", args.shader.display())))?;
    let name = args.shader.display().to_string();
    if args.lang != "hsaco" {
        args.arch.refuse(&format!("--lang {}", args.lang))?;
    }
    if args.lang == "ptx" || args.lang == "hsaco" {
        return match native {
            Some(native) => native(args, &source, &name),
            None => Err(Error::Usage(format!(
                "--lang {} is a native back end's output: this wavekit was built without the \
                 `native` feature",
                args.lang
            ))),
        };
    }
    let target = args.target.target()?;
    let language: Language = args.lang.parse()?;
    if args.unclamped {
        return Err(Error::Usage(format!(
            "--unclamped applies to --lang ptx and hsaco (the native back ends); \
             --lang {} leaves index clamping to the API that compiles it",
            args.lang
        )));
    }
    let composed = args.compose.compose(target, &source, &name)?;
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

pub(super) fn write(args: &EmitArgs, bytes: &[u8]) -> Result<ExitCode, Error> {
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
