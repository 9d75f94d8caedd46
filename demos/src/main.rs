//! `wavekit-demos`: runs the demos on wgpu adapters and CUDA, checks every
//! result against a CPU reference, and reports GPU-clock medians.
//!
//! ```text
//! wavekit-demos reduce scan --backend vulkan,cuda --log2 10..=28 --runs 20 --json out.json
//! ```

use std::ops::RangeInclusive;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use wavekit::{Backend, Error, SubgroupChoice};
use wavekit_demos::{Ctx, Demo, Report, all, open_gpu, parse_subgroups};

#[derive(Parser)]
#[command(
    version,
    about = "wavekit demos: device-wide algorithms built from wavekit primitives, checked and timed"
)]
struct Args {
    /// Demos to run (default: all): reduce, scan, compact, histogram, radix_sort, contact_sort, by_key, merge_sort, histogram_range, top_k,
    /// arg_reduce, transform_reduce, adjacent_difference, binary_search, partition, unique.
    demos: Vec<String>,
    /// Back ends, comma-separated: vulkan, metal, dx12 or gl (a wgpu adapter
    /// on that API), cuda or hip (native). Default: the best wgpu adapter.
    #[arg(long, value_delimiter = ',', value_parser = ["vulkan", "metal", "dx12", "gl", "cuda", "hip"])]
    backend: Vec<String>,
    /// wgpu adapter: a case-insensitive substring of its name (default: the best).
    #[arg(long)]
    adapter: Option<String>,
    /// CUDA / HIP device ordinal.
    #[arg(long, default_value_t = 0)]
    device: usize,
    /// wgpu adapters: `auto` (hardware subgroups where the adapter has
    /// them, else emulated) or `emulated[:S]` (subgroups of S lanes emulated
    /// in workgroup memory, whatever the adapter has; S = 32 by default).
    #[arg(long, default_value = "auto", value_parser = parse_subgroups)]
    subgroups: SubgroupChoice,
    /// Variants to run (default: every variant of each demo), e.g. sum_f32.
    #[arg(long = "variant")]
    variants: Vec<String>,
    /// Sizes as powers of two: `16` or `10..=28`.
    #[arg(long, default_value = "10..=20", value_parser = parse_log2)]
    log2: RangeInclusive<u32>,
    /// Untimed runs before the timed ones.
    #[arg(long, default_value_t = 3)]
    warmup: usize,
    /// Also keep running untimed for this many milliseconds before timing,
    /// so that a GPU that idled during the CPU's work has raised its clocks.
    #[arg(long, default_value_t = 200)]
    warmup_ms: u64,
    /// Then time batches of `--runs` until none has been 2 % faster than
    /// the best for this many milliseconds (0: one batch); the last batch
    /// is reported. A GPU that ran little work for a while stays slow for a
    /// few hundred milliseconds of load.
    #[arg(long, default_value_t = 300)]
    settle_ms: u64,
    /// Timed runs per size (the median is reported); 0 checks without timing.
    #[arg(long, default_value_t = 10)]
    runs: usize,
    /// Seed of the pseudo-random inputs.
    #[arg(long, default_value_t = 0x5eed)]
    seed: u64,
    /// Also write every report as JSON here.
    #[arg(long)]
    json: Option<std::path::PathBuf>,
}

fn parse_log2(text: &str) -> Result<RangeInclusive<u32>, String> {
    let (lo, hi) = match text.split_once("..=") {
        Some((lo, hi)) => (lo, hi),
        None => (text, text),
    };
    let parse = |s: &str| {
        s.trim()
            .parse::<u32>()
            .map_err(|_| format!("`{text}`: expected `N` or `LO..=HI` (powers of two)"))
    };
    let (lo, hi) = (parse(lo)?, parse(hi)?);
    if lo > hi || hi > 30 {
        return Err(format!("`{text}`: need LO <= HI <= 30"));
    }
    Ok(lo..=hi)
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    // WAVEKIT_LOOK_BACK: wavekit::device::debug's switches for every
    // algorithm object built here (`spin`, `stall=K`, `spins=N`), to measure
    // the look-back's fallback against the plain spin.
    let look_back = match std::env::var("WAVEKIT_LOOK_BACK") {
        Ok(text) => match wavekit::device::debug::LookBackDebug::parse(&text) {
            Ok(debug) => debug,
            Err(error) => {
                eprintln!("error: WAVEKIT_LOOK_BACK: {error}");
                return ExitCode::from(2);
            }
        },
        Err(_) => Default::default(),
    };
    // WAVEKIT_SHADER_PARAMS: device shader parameters given to every
    // algorithm object built here (`PEERS=2u,WIDE_COUNTERS=true`), to
    // measure a shader's variants (wavekit::device::debug).
    let params = match std::env::var("WAVEKIT_SHADER_PARAMS") {
        Ok(text) => match wavekit::device::debug::parse_shader_params(&text) {
            Ok(params) => params,
            Err(error) => {
                eprintln!("error: WAVEKIT_SHADER_PARAMS: {error}");
                return ExitCode::from(2);
            }
        },
        Err(_) => Vec::new(),
    };
    let run_all = || wavekit::device::debug::with_shader_params(params, || run(Args::parse()));
    match wavekit::device::debug::with_look_back(look_back, run_all) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(2)
        }
    }
}

/// Runs every selected demo on every selected device; `Ok(false)` when a
/// demo failed its check (each failure is printed, the others still run).
fn run(args: Args) -> Result<bool, Error> {
    let demos = select_demos(&args.demos)?;
    let backends: Vec<Option<Backend>> = if args.backend.is_empty() {
        vec![None]
    } else {
        args.backend
            .iter()
            .map(|b| b.parse().map(Some))
            .collect::<Result<_, _>>()?
    };
    let mut gpus = Vec::new();
    for backend in backends {
        gpus.push(open_gpu(
            backend,
            args.adapter.clone(),
            args.device,
            args.subgroups,
        )?);
    }
    let mut reports = Vec::new();
    let mut passed = true;
    for gpu in &gpus {
        println!("== {} ({})", gpu.info().name, gpu.info().driver);
        let ctx = Ctx::new(gpu, args.warmup, args.runs)
            .with_warmup_time(Duration::from_millis(args.warmup_ms))
            .with_settle_time(Duration::from_millis(args.settle_ms));
        let jobs = jobs(&demos, &args)?;
        let bar = ProgressBar::new(jobs.iter().map(|(_, _, sizes)| sizes.len() as u64).sum());
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}").expect("valid template"),
        );
        for (demo, variant, sizes) in jobs {
            let prepared = match demo.prepare(&ctx, variant) {
                Ok(p) => p,
                Err(error) => {
                    bar.suspend(|| eprintln!("FAIL {} {variant}: {error}", demo.name()));
                    passed = false;
                    bar.inc(sizes.len() as u64);
                    continue;
                }
            };
            for log2 in sizes {
                bar.set_message(format!("{} {variant} 2^{log2}", demo.name()));
                match prepared.run(1 << log2, args.seed ^ u64::from(log2)) {
                    Ok(report) => {
                        bar.suspend(|| println!("{}", line(&report)));
                        reports.push(report);
                        // Written after every report, so that a sweep cut
                        // short (a time limit) keeps what it measured.
                        if let Some(path) = &args.json {
                            write_json(path, &reports)?;
                        }
                    }
                    Err(error) => {
                        bar.suspend(|| {
                            eprintln!("FAIL {} {variant} 2^{log2}: {error}", demo.name())
                        });
                        passed = false;
                    }
                }
                bar.inc(1);
            }
        }
        bar.finish_and_clear();
    }
    if let Some(path) = &args.json {
        write_json(path, &reports)?;
    }
    Ok(passed)
}

fn write_json(path: &std::path::Path, reports: &[Report]) -> Result<(), Error> {
    let text = serde_json::to_string_pretty(reports).expect("reports serialize");
    std::fs::write(path, text).map_err(|e| Error::Usage(format!("{}: {e}", path.display())))
}

fn select_demos(names: &[String]) -> Result<Vec<&'static dyn Demo>, Error> {
    if names.is_empty() {
        return Ok(all().to_vec());
    }
    names
        .iter()
        .map(|name| {
            all().into_iter().find(|d| d.name() == name).ok_or_else(|| {
                let known: Vec<&str> = all().iter().map(|d| d.name()).collect();
                Error::Usage(format!("no demo `{name}`; the demos: {}", known.join(", ")))
            })
        })
        .collect()
}

/// A demo, one of its variants and the sizes (log2) to run it at.
type Job<'a> = (&'static dyn Demo, &'a str, Vec<u32>);

/// The jobs to run, sizes clipped to what each demo supports.
fn jobs<'a>(demos: &[&'static dyn Demo], args: &'a Args) -> Result<Vec<Job<'a>>, Error> {
    let mut jobs = Vec::new();
    for &demo in demos {
        let (lo, hi) = demo.sizes();
        let sizes: Vec<u32> = args
            .log2
            .clone()
            .filter(|l| (lo..=hi).contains(l))
            .collect();
        let variants: Vec<&str> = if args.variants.is_empty() {
            demo.variants().to_vec()
        } else {
            let mine: Vec<&str> = args
                .variants
                .iter()
                .map(String::as_str)
                .filter(|v| demo.variants().contains(v))
                .collect();
            if mine.is_empty() && demos.len() == 1 {
                return Err(wavekit_demos::unknown_variant(demo, &args.variants[0]));
            }
            mine
        };
        for variant in variants {
            jobs.push((demo, variant, sizes.clone()));
        }
    }
    Ok(jobs)
}

fn line(report: &Report) -> String {
    let timing = match (&report.timing, report.gb_per_s, report.items_per_s) {
        (Some(t), Some(gbps), Some(items)) => format!(
            "{:>10.4} ms  {:>8.1} GB/s  {:>8.3} G items/s{}",
            t.median_ms,
            gbps,
            items / 1e9,
            if t.settled { "" } else { "  (not settled)" }
        ),
        _ => "checked".into(),
    };
    format!(
        "ok  {:<5} {:<13} {:<14} 2^{:<2} {timing}",
        report.backend,
        report.demo,
        report.variant,
        report.n.trailing_zeros()
    )
}
