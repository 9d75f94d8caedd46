//! `micro`: micro-benchmarks of single subgroup primitives
//! (`shaders/micro.wgsl`): each op in a dependent chain of `trips × 8`
//! steps per thread, timed on the GPU clock (median after warm-up), printed
//! as one JSON line per op and dtype with the subgroup operations per second
//! per SM. `bench/micro/warp_ops.cu` is the same chain in CUDA C++ (CUB and
//! `__shfl_*_sync`), printing the same lines, for the ratio.
//!
//! ```text
//! micro --backend cuda --sms 132                      # the H100 numbers
//! micro --backend vulkan --adapter llvmpipe --sms 1 --blocks-per-sm 2 --trips 4 --runs 3
//! ```

use std::process::ExitCode;

use clap::Parser;
use serde::Serialize;
use wavekit::compose::Composer;
use wavekit::runner::Binding;
use wavekit::{Backend, Error, Lowering, Strategy, SubgroupChoice};
use wavekit_demos::harness::{backend_name, bytes_of};
use wavekit_demos::{Timing, open_gpu, parse_subgroups};

const SHADER: &str = include_str!("../../shaders/micro.wgsl");
/// The shader's workgroup size.
const BLOCK: u32 = 256;
/// Steps per loop trip (unrolled in the shader).
const STEPS_PER_TRIP: u64 = 8;
/// Ops in the shader: entry point `chain_<op>`.
const OPS: [&str; 6] = [
    "reduce_add",
    "reduce_max",
    "inclusive_add",
    "exclusive_add",
    "shuffle_xor",
    "broadcast",
];

#[derive(Parser)]
#[command(
    about = "Micro-benchmarks of single wavekit subgroup ops: dependent chains, ops/s per SM"
)]
struct Args {
    /// Back end: cuda or hip (native), vulkan, metal, dx12 or gl (a wgpu
    /// adapter on that API).
    #[arg(long, default_value = "cuda", value_parser = ["vulkan", "metal", "dx12", "gl", "cuda", "hip"])]
    backend: String,
    /// wgpu adapter: a case-insensitive substring of its name (default: the best).
    #[arg(long)]
    adapter: Option<String>,
    /// CUDA device ordinal.
    #[arg(long, default_value_t = 0)]
    device: usize,
    /// wgpu adapters: `auto`, or `emulated[:S]` (subgroups of S lanes
    /// emulated in workgroup memory; S = 32 by default).
    #[arg(long, default_value = "auto", value_parser = parse_subgroups)]
    subgroups: SubgroupChoice,
    /// Streaming multiprocessors (compute units) of the device: the grid is
    /// `sms × blocks-per-sm` workgroups, and rates are per SM.
    #[arg(long, default_value_t = 132)]
    sms: u32,
    /// Workgroups of 256 threads per SM (several waves amortise the launch).
    #[arg(long, default_value_t = 32)]
    blocks_per_sm: u32,
    /// Loop trips per thread; each trip is 8 dependent steps.
    #[arg(long, default_value_t = 128)]
    trips: u32,
    /// Untimed dispatches before the timed ones.
    #[arg(long, default_value_t = 3)]
    warmup: usize,
    /// Timed dispatches (the median is reported).
    #[arg(long, default_value_t = 20)]
    runs: usize,
    /// Ops to run (default: all): reduce_add, reduce_max, inclusive_add,
    /// exclusive_add, shuffle_xor, broadcast.
    #[arg(long = "op")]
    ops: Vec<String>,
    /// Dtypes to run (default: f32 and u32).
    #[arg(long = "dtype")]
    dtypes: Vec<String>,
    /// Lowering of the ops that have two: the hardware builtin or the
    /// explicit shuffle network.
    #[arg(long, default_value = "builtin")]
    lowering: Lowering,
}

/// One measurement, one JSON line (the fields `warp_ops.cu` prints too).
#[derive(Serialize)]
struct Line {
    side: &'static str,
    backend: &'static str,
    device: String,
    op: String,
    dtype: String,
    /// What ran: the wavekit call and its lowering.
    #[serde(rename = "impl")]
    implementation: String,
    subgroup_size: u32,
    threads: u64,
    steps_per_thread: u64,
    /// Subgroup (warp) operations in one dispatch.
    warp_ops: u64,
    /// Median dispatch time, nanoseconds.
    ns: f64,
    min_ns: f64,
    runs: usize,
    sms: u32,
    ops_per_s_per_sm: f64,
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    match run(Args::parse()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(2)
        }
    }
}

/// Times every selected op × dtype; `Ok(false)` when one failed (each
/// failure is printed, the others still run).
fn run(args: Args) -> Result<bool, Error> {
    let ops = select(&args.ops, &OPS, "op")?;
    let dtypes = select(&args.dtypes, &["f32", "u32"], "dtype")?;
    let backend: Backend = args.backend.parse()?;
    let gpu = open_gpu(
        Some(backend),
        args.adapter.clone(),
        args.device,
        args.subgroups,
    )?;
    let target = gpu
        .target()
        .clone()
        .with_strategy(Strategy::uniform(args.lowering));
    // Rates count whole subgroups; where the size may vary, the largest is
    // the conservative (fewest ops) count.
    let subgroup_size = target.subgroup_size.max();
    eprintln!(
        "== {} ({}), subgroup size {}, lowering {}",
        gpu.info().name,
        gpu.info().driver,
        target.subgroup_size,
        args.lowering
    );
    let composer = Composer::new(target);
    let groups = args.sms * args.blocks_per_sm;
    let threads = u64::from(groups) * u64::from(BLOCK);
    let mut passed = true;
    for dtype in &dtypes {
        let text = SHADER.replacen("alias T = f32;", &format!("alias T = {dtype};"), 1);
        let module = match composer.compose(&text, "micro.wgsl") {
            Ok(composed) => composed.module,
            Err(error) => {
                eprintln!("FAIL micro.wgsl for {dtype}: {error}");
                passed = false;
                continue;
            }
        };
        for op in &ops {
            let measured = gpu
                .kernel(&module, &format!("chain_{op}"))
                .and_then(|kernel| {
                    let params = params(dtype);
                    let trips = [args.trips];
                    gpu.time_at(
                        &kernel,
                        &[
                            (0, Binding::Input(&params)),
                            (1, Binding::Input(bytes_of(&trips))),
                            (2, Binding::Output { size: 4 * threads }),
                        ],
                        [groups, 1, 1],
                        args.warmup,
                        args.runs,
                    )
                });
            let timing = match measured {
                Ok(times) => Timing::of(times),
                Err(error) => {
                    eprintln!("FAIL {op} {dtype}: {error}");
                    passed = false;
                    continue;
                }
            };
            let steps = u64::from(args.trips) * STEPS_PER_TRIP;
            let warp_ops = threads / u64::from(subgroup_size) * steps;
            let seconds = timing.median_ms / 1e3;
            let line = Line {
                side: "wavekit",
                backend: backend_name(&gpu),
                device: gpu.info().name.clone(),
                op: op.to_string(),
                dtype: dtype.to_string(),
                implementation: format!("sg::{op}<{dtype}> ({} lowering)", args.lowering),
                subgroup_size,
                threads,
                steps_per_thread: steps,
                warp_ops,
                ns: timing.median_ms * 1e6,
                min_ns: timing.min_ms * 1e6,
                runs: timing.runs,
                sms: args.sms,
                ops_per_s_per_sm: warp_ops as f64 / seconds / f64::from(args.sms),
            };
            eprintln!(
                "ok  {op:<14} {dtype}  {:>10.1} us  {:>8.3} G ops/s/SM",
                line.ns / 1e3,
                line.ops_per_s_per_sm / 1e9
            );
            println!(
                "{}",
                serde_json::to_string(&line).expect("a line serializes")
            );
        }
    }
    Ok(passed)
}

/// The shader's `params` (s, k): for f32 s = 1/32 keeps the sums of 32
/// lanes bounded; for u32 s = 1 and the sums wrap. Both are unknown to the
/// compiler, which is the point.
fn params(dtype: &str) -> Vec<u8> {
    if dtype == "f32" {
        bytes_of(&[1.0f32 / 32.0, 1.0]).to_vec()
    } else {
        bytes_of(&[1u32, 1]).to_vec()
    }
}

/// `wanted` (all of `known` when empty), each checked against `known`.
fn select(
    wanted: &[String],
    known: &[&'static str],
    what: &str,
) -> Result<Vec<&'static str>, Error> {
    if wanted.is_empty() {
        return Ok(known.to_vec());
    }
    wanted
        .iter()
        .map(|w| {
            known.iter().copied().find(|k| k == w).ok_or_else(|| {
                Error::Usage(format!("no {what} `{w}`; known: {}", known.join(", ")))
            })
        })
        .collect()
}
