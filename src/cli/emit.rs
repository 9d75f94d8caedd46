//! `wavekit emit`: compose a shader and write it in a shading language.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use wavekit::Error;
use wavekit::compose::Composer;
use wavekit::emit::{Emitted, Language, emit};

use super::target_args::TargetArgs;

/// Arguments of `wavekit emit`.
#[derive(Args, Debug)]
pub struct EmitArgs {
    /// The WGSL shader, with `#import wavekit::...` lines.
    shader: PathBuf,
    /// Output language: spv, msl, hlsl, glsl, wgsl or wgsl-browser.
    #[arg(long, default_value = "wgsl")]
    lang: String,
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
    let language: Language = args.lang.parse()?;
    let source = std::fs::read_to_string(&args.shader)
        .map_err(|e| Error::Usage(format!("cannot read {}: {e}", args.shader.display())))?;
    let composed = Composer::new(args.target.target()?)
        .compose(&source, &args.shader.display().to_string())?;
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
    match &args.output {
        Some(path) => std::fs::write(path, bytes)
            .map_err(|e| Error::Usage(format!("cannot write {}: {e}", path.display())))?,
        None => std::io::stdout()
            .write_all(&bytes)
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
