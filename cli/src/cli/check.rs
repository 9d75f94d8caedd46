//! `wavekit check`: the conformance suite on one adapter.

use std::process::ExitCode;

use clap::Args;

use wavekit::conformance::{self, Options};
use wavekit::{Dtype, Error, Lowering, catalog};

use super::device_args::DeviceArgs;

/// Arguments of `wavekit check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    device: DeviceArgs,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// Seed of the random inputs.
    #[arg(long, default_value_t = Options::default().seed)]
    seed: u64,
    /// Test only this lowering, builtin or shuffle (repeatable; also
    /// comma-separated; default: both).
    #[arg(long, value_delimiter = ',')]
    lowering: Vec<String>,
    /// Test only ops whose name contains this (repeatable; also
    /// comma-separated).
    #[arg(long, value_delimiter = ',')]
    op: Vec<String>,
    /// Test only this dtype, plus ops without one (repeatable; also
    /// comma-separated).
    #[arg(long, value_delimiter = ',')]
    dtype: Vec<String>,
    /// Leave out the ops of this family, by the name `wavekit list` shows
    /// (`block exchange`; repeatable).
    #[arg(long, value_name = "FAMILY")]
    skip_family: Vec<String>,
}

pub fn run(args: &CheckArgs) -> Result<ExitCode, Error> {
    // The filters are checked before an adapter is opened: one that selects
    // nothing is a mistake, not an empty suite.
    for op in &args.op {
        check_op_filter(op)?;
    }
    let dtypes = args
        .dtype
        .iter()
        .map(|d| d.parse::<Dtype>().map_err(|e| Error::Usage(e.to_string())))
        .collect::<Result<Vec<_>, _>>()?;
    let lowerings = args
        .lowering
        .iter()
        .map(|l| l.parse::<Lowering>())
        .collect::<Result<Vec<_>, _>>()?;
    let skip_families = args
        .skip_family
        .iter()
        .map(|name| family_named(name))
        .collect::<Result<Vec<_>, _>>()?;
    let gpu = args.device.open()?;
    let mut options = Options {
        seed: args.seed,
        ops: args.op.clone(),
        dtypes,
        skip_families,
        ..Options::default()
    };
    if !lowerings.is_empty() {
        options.lowerings = lowerings;
    }
    let report = conformance::run(&gpu, &options)?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).expect("report serialises")
        );
    } else {
        println!("adapter: {} ({})", report.adapter, report.driver);
        println!("target:  {}", report.target);
        if report.adapter_passed() {
            println!("{}", report.table());
        }
        for line in report.failures() {
            println!("{line}");
        }
        println!("{}", report.summary_line());
    }
    Ok(if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The family `wavekit list` calls `name`.
fn family_named(name: &str) -> Result<catalog::Family, Error> {
    let mut families: Vec<catalog::Family> = catalog::primitives().map(|p| p.family).collect();
    families.sort_by_key(|f| f.name());
    families.dedup();
    families
        .iter()
        .copied()
        .find(|f| f.name() == name)
        .ok_or_else(|| {
            let names: Vec<&str> = families.iter().map(|f| f.name()).collect();
            Error::Usage(format!(
                "--skip-family `{name}`: expected one of {}",
                names.join(", ")
            ))
        })
}

/// `--op NAME` selects the ops whose qualified name contains `NAME`; one
/// that selects none is an unknown op, with the closest name as a hint.
fn check_op_filter(op: &str) -> Result<(), Error> {
    if catalog::primitives().any(|p| p.qualified_name().contains(op)) {
        return Ok(());
    }
    Err(match catalog::suggest(op) {
        Some(suggestion) => Error::UnknownOp {
            name: op.to_string(),
            suggestion: Some(suggestion),
        },
        None => Error::Usage(format!(
            "unknown op `{op}`: no op's name contains it (`wavekit list` shows the catalog)"
        )),
    })
}
