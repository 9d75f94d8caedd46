//! Command-line interface: one module per subcommand.

mod check;
mod emit;
mod expand;
mod list;
mod target_args;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use wavekit::Error;

/// Portable GPU subgroup primitives: catalog, expansion and conformance.
#[derive(Parser, Debug)]
#[command(name = "wavekit", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the catalog of primitives as a table.
    List(list::ListArgs),
    /// Print the WGSL of one instance (and the instances it uses).
    Expand(expand::ExpandArgs),
    /// Run the conformance suite on an adapter and print op x dtype x log2 -> pass/fail.
    Check(check::CheckArgs),
    /// Compose a shader with wavekit imports and write it as SPIR-V, MSL, HLSL, GLSL or WGSL.
    Emit(emit::EmitArgs),
    /// List the adapters wavekit can use.
    Adapters,
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<ExitCode, Error> {
    match cli.command {
        Command::List(args) => list::run(&args),
        Command::Expand(args) => expand::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Emit(args) => emit::run(&args),
        Command::Adapters => {
            for info in wavekit::runner::list_adapters() {
                println!(
                    "{} ({:?}, {:?}, {} {}), subgroup size {}..={}",
                    info.name,
                    info.backend,
                    info.device_type,
                    info.driver,
                    info.driver_info,
                    info.subgroup_min_size,
                    info.subgroup_max_size
                );
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
