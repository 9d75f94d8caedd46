//! `wavekit export`: the library as a module for another shader composer.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use wavekit::Error;
use wavekit::emit::snippets::DtypeFamily;

/// The composers wavekit exports to.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    /// A naga_oil composable module at `wavekit::subgroup`.
    NagaOil,
}

/// Arguments of `wavekit export`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The composer.
    #[arg(value_enum)]
    format: Format,
    /// The subgroup size the module is expanded for.
    #[arg(long)]
    subgroup_size: u32,
    /// A group of dtypes to include: core (i32, u32, f32), f16 or wide
    /// (i64, u64, f64) (repeatable; also comma-separated). Formerly
    /// `--family`: "family" names a catalog family (`wavekit list`).
    #[arg(
        long = "dtype-group",
        aliases = ["family", "families"],
        value_name = "GROUP",
        value_delimiter = ',',
        default_value = "core"
    )]
    dtype_groups: Vec<String>,
    /// Write here instead of standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

pub fn run(args: &ExportArgs) -> Result<ExitCode, Error> {
    let groups = args
        .dtype_groups
        .iter()
        .map(|name| {
            DtypeFamily::ALL
                .into_iter()
                .find(|f| f.name() == name)
                .ok_or_else(|| {
                    Error::Usage(format!(
                        "--dtype-group `{name}`: unknown dtype group (expected core, f16 or wide)"
                    ))
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let text = match args.format {
        Format::NagaOil => {
            wavekit::emit::export::naga_oil_subgroup_module(args.subgroup_size, &groups)?
        }
    };
    match &args.output {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| Error::Usage(format!("cannot write {}: {e}", path.display())))?,
        None => std::io::stdout()
            .write_all(text.as_bytes())
            .map_err(|e| Error::Usage(format!("cannot write to standard output: {e}")))?,
    }
    Ok(ExitCode::SUCCESS)
}
