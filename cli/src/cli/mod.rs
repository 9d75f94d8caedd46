//! Command-line interface: one module per subcommand.

mod adapters;
mod arch_args;
mod check;
mod compose_args;
mod device_args;
mod emit;
#[cfg(feature = "native")]
mod emit_native;
mod expand;
mod export;
mod list;
mod network;
pub mod report;
mod run;
#[cfg(test)]
mod run_fuzz;
mod run_inputs;
pub mod runtime_dir;
mod target_args;
mod tune;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use wavekit::Error;

/// Portable GPU subgroup primitives: catalog, expansion and conformance.
#[derive(Parser, Debug)]
#[command(name = "wavekit", version, about, after_help = AFTER_HELP)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The back ends and the list style, under `wavekit --help`.
const AFTER_HELP: &str = "\
Back ends: vulkan, metal, dx12 and gl run on wgpu adapters (SPIR-V, MSL, HLSL, GLSL); \
webgpu is a browser's (emit --lang wgsl-browser); cuda is native PTX through LLVM's NVPTX \
back end, run by the NVIDIA driver (libcuda.so); hip is native AMDGPU code objects through \
LLVM, run by the HIP runtime (libamdhip64.so), for the architecture --arch names.

Lists: a flag that takes several values is repeated (--op a --op b) or given them \
comma-separated (--op a,b); --bind and --out, whose values name files, are only repeated.";

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the catalog of primitives, family by family, as a table.
    List(list::ListArgs),
    /// Print the WGSL of one instance (and the instances it uses).
    Expand(expand::ExpandArgs),
    /// Run the conformance suite on a wgpu adapter or a CUDA or HIP device and print op x
    /// dtype x log2 -> pass/fail.
    Check(check::CheckArgs),
    /// Compose a shader with wavekit imports and write it as SPIR-V, MSL, HLSL, GLSL, WGSL,
    /// PTX (CUDA) or an AMDGPU code object (HIP).
    Emit(emit::EmitArgs),
    /// Compose a compute shader and run it on a wgpu adapter or a CUDA or HIP device,
    /// buffers from and to .npy or raw files.
    Run(run::RunArgs),
    /// Write the library as a module for another shader composer (naga_oil).
    Export(export::ExportArgs),
    /// Regenerate the pre-expanded snippet files under wgsl/ (or compare them with --verify).
    GenSnippets {
        /// The repository root.
        #[arg(long, default_value = ".")]
        root: std::path::PathBuf,
        /// Fail if a file is missing or differs, instead of writing. Formerly
        /// `--check`: `check` is the conformance suite.
        #[arg(long, alias = "check")]
        verify: bool,
    },
    /// List the wgpu adapters wavekit can use, with the lowering strategy each gets, and the
    /// CUDA and HIP devices.
    Adapters,
    /// Print the bitonic network that `wavekit::device::FixedSegmentedSort` writes for
    /// segments held in grains (`contact_sort.wgsl`'s `sort_grains`), or with `--segmented`
    /// `wavekit::device::SegmentedSort`'s for its short segments, as WGSL.
    Network(network::NetworkArgs),
    /// Time the builtin and shuffle lowerings of each op on a wgpu adapter and store its
    /// profile.
    Tune(tune::TuneArgs),
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<ExitCode, Error> {
    match cli.command {
        Command::List(args) => list::run(&args),
        Command::Expand(args) => expand::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Emit(args) => {
            #[cfg(feature = "native")]
            let native: Option<emit::NativeEmit> = Some(emit_native::run);
            #[cfg(not(feature = "native"))]
            let native = None;
            emit::run(&args, native)
        }
        Command::Run(args) => run::run(&args),
        Command::Export(args) => export::run(&args),
        Command::GenSnippets { root, verify } => gen_snippets(&root, verify),
        Command::Tune(args) => tune::run(&args),
        Command::Adapters => adapters::run(),
        Command::Network(args) => network::run(&args),
    }
}

fn gen_snippets(root: &std::path::Path, verify: bool) -> Result<ExitCode, Error> {
    let mut stale = Vec::new();
    for snippet in wavekit::emit::snippets::snippets()? {
        let path = root.join(&snippet.path);
        let current = std::fs::read_to_string(&path).ok();
        if current.as_deref() == Some(snippet.contents.as_str()) {
            continue;
        }
        if verify {
            stale.push(snippet.path);
        } else {
            let io =
                |e: std::io::Error| Error::Usage(format!("cannot write {}: {e}", path.display()));
            std::fs::create_dir_all(path.parent().expect("snippets live in wgsl/")).map_err(io)?;
            std::fs::write(&path, &snippet.contents).map_err(io)?;
            println!("wrote {}", snippet.path);
        }
    }
    if stale.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        Err(Error::Usage(format!(
            "stale snippets (run `wavekit gen-snippets`): {}",
            stale.join(", ")
        )))
    }
}
