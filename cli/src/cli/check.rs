//! `wavekit check`: the conformance suite on one adapter.

use std::process::ExitCode;

use clap::Args;

use wavekit::conformance::{self, Options};
use wavekit::{Error, Lowering};

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
    /// Test only this lowering (repeatable; default: builtin and shuffle).
    #[arg(long)]
    lowering: Vec<String>,
    /// Test only ops whose name contains this (repeatable).
    #[arg(long)]
    op: Vec<String>,
    /// Test only this dtype, plus ops without one (repeatable).
    #[arg(long)]
    dtype: Vec<wavekit::Dtype>,
}

pub fn run(args: &CheckArgs) -> Result<ExitCode, Error> {
    let gpu = args.device.open()?;
    let mut options = Options {
        seed: args.seed,
        ops: args.op.clone(),
        dtypes: args.dtype.clone(),
        ..Options::default()
    };
    if !args.lowering.is_empty() {
        options.lowerings = args
            .lowering
            .iter()
            .map(|l| l.parse::<Lowering>())
            .collect::<Result<_, _>>()?;
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
