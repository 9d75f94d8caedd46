//! `wavekit tune`: time the builtin and shuffle lowerings of every subgroup
//! op that has both on one adapter, print the table, and store the profile
//! that `Target::from_adapter` then uses on that adapter and driver.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use comfy_table::{Table, presets::UTF8_FULL_CONDENSED};

use wavekit::runner::{AdapterChoice, Gpu};
use wavekit::target::profile::Profile;
use wavekit::tune::{TuneOptions, tune};
use wavekit::{Dtype, Error};

/// `wavekit tune` options.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The wgpu adapter whose name contains this (case-insensitive); default: the best.
    #[arg(long)]
    adapter: Option<String>,
    /// An op to tune (repeatable; also comma-separated; default: every
    /// subgroup op with both lowerings).
    #[arg(long = "op", value_name = "OP", value_delimiter = ',')]
    ops: Vec<String>,
    /// A dtype to time each op with (repeatable; also comma-separated).
    /// Formerly `--dtypes`.
    #[arg(
        long = "dtype",
        alias = "dtypes",
        value_name = "DTYPE",
        value_delimiter = ',',
        default_values = ["u32", "f32"]
    )]
    dtypes: Vec<String>,
    /// Loop trips per thread (8 steps each).
    #[arg(long, default_value_t = TuneOptions::default().trips)]
    trips: u32,
    /// Workgroups of 256 threads per dispatch.
    #[arg(long, default_value_t = TuneOptions::default().workgroups)]
    workgroups: u32,
    /// Timed dispatches per kernel (the median is kept).
    #[arg(long, default_value_t = TuneOptions::default().runs)]
    runs: usize,
    /// Directory to store the profile in (default: $WAVEKIT_PROFILE_DIR, else
    /// $XDG_CONFIG_HOME/wavekit/profiles, else ~/.config/wavekit/profiles).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Print the profile, store nothing.
    #[arg(long)]
    dry_run: bool,
}

/// Runs `wavekit tune`.
pub fn run(args: &TuneArgs) -> Result<ExitCode, Error> {
    let dtypes = args
        .dtypes
        .iter()
        .map(|d| {
            d.parse::<Dtype>()
                .map_err(|e| Error::Usage(format!("--dtype: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let options = TuneOptions {
        ops: args.ops.clone(),
        dtypes,
        trips: args.trips,
        workgroups: args.workgroups,
        runs: args.runs,
        ..TuneOptions::default()
    };
    let choice = AdapterChoice {
        name: args.adapter.clone(),
        ..AdapterChoice::default()
    };
    let gpu = Gpu::open(&choice)?;
    println!("tuning on {} ({})", gpu.info().name, gpu.info().driver);
    let profile = tune(&gpu, &options)?;

    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header(["op", "dtype", "builtin ns/op", "shuffle ns/op", "chosen"]);
    for pair in profile.measurements.chunks(2) {
        let [builtin, shuffle] = pair else { continue };
        table.add_row([
            builtin.op.clone(),
            builtin.dtype.clone(),
            format!("{:.3}", builtin.ns_per_op),
            format!("{:.3}", shuffle.ns_per_op),
            profile
                .ops
                .get(&builtin.op)
                .map_or("-".into(), |l| l.to_string()),
        ]);
    }
    println!("{table}");

    if args.dry_run {
        println!(
            "{}",
            serde_json::to_string_pretty(&profile).expect("a profile serialises")
        );
        return Ok(ExitCode::SUCCESS);
    }
    let dir = match &args.dir {
        Some(dir) => dir.clone(),
        None => Profile::dir().ok_or_else(|| {
            Error::Usage(
                "no profile directory: set WAVEKIT_PROFILE_DIR or HOME, or pass --dir".into(),
            )
        })?,
    };
    let path = profile.write(&dir)?;
    println!("profile written to {}", path.display());
    Ok(ExitCode::SUCCESS)
}
