//! `wk-peers`: the peers of wavekit's benchmark on wgpu, timed and checked
//! as wavekit's demos time and check wavekit (demos/src/harness.rs,
//! demos/src/radix_sort/mod.rs). Today one peer: the key-value radix sort of
//! the crate `wgpu_sort` 0.1.0 (a WGSL port of Fuchsia's Vulkan radix sort),
//! vendored in `src/wgpu_sort/` and ported to wgpu 30 (bench/peers/README.md
//! lists every change).
//!
//! ```text
//! wk-peers [--adapter NAME] [--log2 LO HI] [--warmup N] [--warmup-ms MS]
//!          [--settle-ms MS] [--runs N] [--seed S] [--subgroup-size S]
//! ```
//!
//! For each size it sorts the inputs of wavekit's `radix_sort pairs` demo
//! (the same keys, bit for bit: about 8 copies of each key, values their
//! input index), times the sort's passes on the GPU clock and checks the
//! result against a CPU sort. One JSON object a line on stdout, in the shape
//! of wavekit-demos' reports (plus `"side": "peer"`, so `wavekit-bench`
//! keeps it out of wavekit's columns); `ok ...` / `FAIL ...` lines on
//! stderr. Exit status 1 when a check failed, 2 on an error.

// Upstream's code in upstream's layout (README.md lists the port's changes).
#[rustfmt::skip]
mod wgpu_sort;

use std::io::Write;
use std::num::NonZeroU32;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use wgpu::util::DeviceExt;

use wgpu_sort::{GPUSorter, SortBuffers};

/// What the reports call the peer.
const ALGORITHM: &str = "wgpu_sort 0.1.0 (ported to wgpu 30)";
/// The call that is timed.
const IMPLEMENTATION: &str = "wgpu_sort::GPUSorter::sort";
/// A batch faster than the best so far by more than this fraction restarts
/// the settle window (demos/src/harness.rs `SETTLE_GAIN`).
const SETTLE_GAIN: f64 = 0.02;
/// The settling gives up after this long (`SETTLE_LIMIT`).
const SETTLE_LIMIT: Duration = Duration::from_secs(5);

const USAGE: &str = "usage: wk-peers [--adapter NAME] [--log2 LO HI] [--warmup N] [--warmup-ms MS] \
[--settle-ms MS] [--runs N] [--seed S] [--subgroup-size S]";

/// The command line; the defaults are wavekit-demos' (and the sizes
/// wavekit's Vulkan sort runs at in bench/device-run.sh).
struct Args {
    adapter: Option<String>,
    log2: (u32, u32),
    warmup: usize,
    warmup_ms: u64,
    settle_ms: u64,
    runs: usize,
    seed: u64,
    subgroup_size: Option<u32>,
}

fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Args, String> {
    let mut parsed = Args {
        adapter: None,
        log2: (16, 26),
        warmup: 3,
        warmup_ms: 200,
        settle_ms: 300,
        runs: 10,
        seed: 0x5eed,
        subgroup_size: None,
    };
    let mut args = args.into_iter();
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value\n{USAGE}"));
        fn number<T: std::str::FromStr>(flag: &str, text: String) -> Result<T, String> {
            text.parse()
                .map_err(|_| format!("{flag}: `{text}` is not a number\n{USAGE}"))
        }
        match flag.as_str() {
            "--adapter" => parsed.adapter = Some(value()?),
            "--log2" => {
                let lo = number(&flag, value()?)?;
                let hi = number(&flag, value()?)?;
                parsed.log2 = (lo, hi);
            }
            "--warmup" => parsed.warmup = number(&flag, value()?)?,
            "--warmup-ms" => parsed.warmup_ms = number(&flag, value()?)?,
            "--settle-ms" => parsed.settle_ms = number(&flag, value()?)?,
            "--runs" => parsed.runs = number(&flag, value()?)?,
            "--seed" => parsed.seed = number(&flag, value()?)?,
            "--subgroup-size" => parsed.subgroup_size = Some(number(&flag, value()?)?),
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument `{other}`\n{USAGE}")),
        }
    }
    let (lo, hi) = parsed.log2;
    // 2^28 pairs need more than 65535 scatter workgroups, which wgpu_sort
    // dispatches in one dimension.
    if lo > hi || hi > 27 {
        return Err(format!("--log2 {lo} {hi}: need LO <= HI <= 27"));
    }
    if parsed.runs == 0 {
        return Err("--runs must be at least 1".into());
    }
    Ok(parsed)
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(2)
        }
    }
}

/// The Vulkan device, as wavekit's runner opens it (src/runner/select.rs,
/// src/runner/wgpu_device.rs): the adapter whose name contains `name`
/// (case-insensitive), else the best (subgroups first, then discrete,
/// integrated, virtual, other, CPU); the adapter's own limits; timestamp
/// queries, inside encoders where it has them.
struct Gpu {
    info: wgpu::AdapterInfo,
    device: wgpu::Device,
    queue: wgpu::Queue,
}

fn open(name: Option<&str>) -> Result<Gpu, String> {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    desc.backends = wgpu::Backends::VULKAN;
    let instance = wgpu::Instance::new(desc);
    let all = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::VULKAN));
    let names: Vec<String> = all.iter().map(|a| a.get_info().name).collect();
    let wanted = name.map(str::to_lowercase);
    let mut adapters: Vec<wgpu::Adapter> = all
        .into_iter()
        .filter(|a| {
            wanted
                .as_deref()
                .is_none_or(|n| a.get_info().name.to_lowercase().contains(n))
        })
        .collect();
    adapters.sort_by_key(|a| {
        let rank = match a.get_info().device_type {
            wgpu::DeviceType::DiscreteGpu => 0,
            wgpu::DeviceType::IntegratedGpu => 1,
            wgpu::DeviceType::VirtualGpu => 2,
            wgpu::DeviceType::Other => 3,
            wgpu::DeviceType::Cpu => 4,
        };
        (!a.features().contains(wgpu::Features::SUBGROUP), rank)
    });
    if adapters.is_empty() {
        return Err(format!(
            "no Vulkan adapter{}; the adapters: [{}]",
            name.map_or(String::new(), |n| format!(" named like `{n}`")),
            names.join(", ")
        ));
    }
    let adapter = adapters.swap_remove(0);
    let info = adapter.get_info();
    if !adapter.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
        return Err(format!(
            "`{}` has no timestamp queries: nothing to time with",
            info.name
        ));
    }
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("wk-peers"),
        required_features: adapter.features()
            & (wgpu::Features::TIMESTAMP_QUERY | wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS),
        // wgpu_sort's keys buffers take 16 bytes a key (upstream's sizing):
        // 2^26 keys need more than wgpu's default 128 MiB binding.
        required_limits: adapter.limits(),
        ..Default::default()
    }))
    .map_err(|e| format!("cannot open `{}`: {e}", info.name))?;
    Ok(Gpu {
        info,
        device,
        queue,
    })
}

impl Gpu {
    fn wait(&self) -> Result<(), String> {
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map(drop)
            .map_err(|e| format!("waiting for the device: {e}"))
    }

    /// The first `bytes` of `buffer`, after everything queued.
    fn read<T: bytemuck::Pod>(&self, buffer: &wgpu::Buffer, bytes: u64) -> Result<Vec<T>, String> {
        let readback = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("wk-peers readback"),
            size: bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self.device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(buffer, 0, &readback, 0, bytes);
        self.queue.submit([encoder.finish()]);
        readback.slice(..).map_async(wgpu::MapMode::Read, |_| {});
        self.wait()?;
        let view = readback
            .slice(..)
            .get_mapped_range()
            .map_err(|e| format!("reading back: {e}"))?;
        Ok(bytemuck::pod_collect_to_vec(&view))
    }
}

/// One size: the sorter's buffers and the unsorted input they are reset
/// from before every run.
struct Job<'a> {
    gpu: &'a Gpu,
    sorter: &'a GPUSorter,
    buffers: SortBuffers,
    keys_in: wgpu::Buffer,
    values_in: wgpu::Buffer,
    bytes: u64,
}

impl Job<'_> {
    /// Encodes one run: the input copied into the sorter's key and value
    /// buffers (wgpu_sort sorts in place; untimed), then the sort, with
    /// timestamps `at` and `at + 1` around its passes when `timed`.
    fn encode(&self, timed: Option<(&wgpu::QuerySet, u32)>) -> wgpu::CommandBuffer {
        let mut encoder = self.gpu.device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(&self.keys_in, 0, self.buffers.keys(), 0, self.bytes);
        encoder.copy_buffer_to_buffer(&self.values_in, 0, self.buffers.values(), 0, self.bytes);
        if let Some((queries, at)) = timed {
            self.stamp(&mut encoder, queries, at, true);
        }
        self.sorter
            .sort(&mut encoder, &self.gpu.queue, &self.buffers, None);
        if let Some((queries, at)) = timed {
            self.stamp(&mut encoder, queries, at + 1, false);
        }
        encoder.finish()
    }

    /// A timestamp in the encoder where the device can, else on an empty
    /// compute pass: as wavekit times its recorded sort
    /// (src/runner/wgpu_program.rs, `encode`'s marker).
    fn stamp(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        queries: &wgpu::QuerySet,
        at: u32,
        begin: bool,
    ) {
        if self
            .gpu
            .device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS)
        {
            encoder.write_timestamp(queries, at);
        } else {
            drop(encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("wk-peers timestamp"),
                timestamp_writes: Some(wgpu::ComputePassTimestampWrites {
                    query_set: queries,
                    beginning_of_pass_write_index: begin.then_some(at),
                    end_of_pass_write_index: (!begin).then_some(at),
                }),
            }));
        }
    }

    /// Runs once, untimed, and waits.
    fn execute(&self) -> Result<(), String> {
        self.gpu.queue.submit([self.encode(None)]);
        self.gpu.wait()
    }

    /// `warmup` untimed runs then `runs` timed ones, submitted back to back
    /// (one submission a run), as wavekit's `time_program`; milliseconds a run.
    fn time(&self, warmup: usize, runs: usize) -> Result<Vec<f64>, String> {
        let count = 2 * runs as u32;
        let queries = self.gpu.device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("wk-peers timestamps"),
            ty: wgpu::QueryType::Timestamp,
            count,
        });
        for run in 0..warmup + runs {
            let timed = run.checked_sub(warmup).map(|i| (&queries, 2 * i as u32));
            self.gpu.queue.submit([self.encode(timed)]);
        }
        let resolved = self.gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("wk-peers resolved timestamps"),
            size: 8 * u64::from(count),
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let mut encoder = self.gpu.device.create_command_encoder(&Default::default());
        encoder.resolve_query_set(&queries, 0..count, &resolved, 0);
        self.gpu.queue.submit([encoder.finish()]);
        let ticks: Vec<u64> = self.gpu.read(&resolved, 8 * u64::from(count))?;
        let period_ns = f64::from(self.gpu.queue.get_timestamp_period());
        Ok(ticks
            .chunks_exact(2)
            .map(|pair| pair[1].saturating_sub(pair[0]) as f64 * period_ns / 1e6)
            .collect())
    }
}

/// GPU times of the timed runs, as demos/src/harness.rs `Timing`.
struct Timing {
    median_ms: f64,
    min_ms: f64,
    runs: usize,
    batches: usize,
    settled: bool,
}

impl Timing {
    fn of(mut times: Vec<f64>) -> Timing {
        times.sort_by(f64::total_cmp);
        let n = times.len();
        let median_ms = match n {
            0 => f64::NAN,
            _ if n % 2 == 1 => times[n / 2],
            _ => (times[n / 2 - 1] + times[n / 2]) / 2.0,
        };
        Timing {
            median_ms,
            min_ms: times.first().copied().unwrap_or(f64::NAN),
            runs: n,
            batches: 1,
            settled: true,
        }
    }
}

/// Times `job` as wavekit-demos' `Ctx::run` does: untimed runs for
/// `warmup_ms`, `warmup` more and `runs` timed, then batches of `runs` until
/// none has been 2 % faster than the best for `settle_ms`; the last batch.
fn measure(job: &Job<'_>, args: &Args) -> Result<Timing, String> {
    let start = Instant::now();
    while start.elapsed() < Duration::from_millis(args.warmup_ms) {
        job.execute()?;
    }
    let mut timing = Timing::of(job.time(args.warmup, args.runs)?);
    let settle = Duration::from_millis(args.settle_ms);
    if settle.is_zero() {
        return Ok(timing);
    }
    let settling = Instant::now();
    let (mut best, mut best_at, mut batches) = (timing.median_ms, Instant::now(), 1);
    while best_at.elapsed() < settle {
        if settling.elapsed() >= SETTLE_LIMIT {
            timing.settled = false;
            break;
        }
        timing = Timing::of(job.time(0, args.runs)?);
        batches += 1;
        if timing.median_ms < best * (1.0 - SETTLE_GAIN) {
            best_at = Instant::now();
        }
        best = best.min(timing.median_ms);
    }
    timing.batches = batches;
    Ok(timing)
}

/// The keys and values of wavekit's `radix_sort pairs` demo at `n`, seed
/// `seed` (demos/src/radix_sort/mod.rs): `x * 0x9e3779b1` for random
/// `x < n / 8`, values the input index.
fn pairs_input(n: usize, seed: u64) -> (Vec<u32>, Vec<u32>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let bound = (n / 8).max(1) as u32;
    let keys = (0..n)
        .map(|_| rng.random_range(0..bound).wrapping_mul(0x9e37_79b1))
        .collect();
    (keys, (0..n as u32).collect())
}

/// Checks a key-value sort of `keys` (values: input indices). wgpu_sort
/// promises keys in ascending order with their values (its README and
/// docs); it does not promise stability, so the check requires the keys
/// sorted and each value the input index of a key equal to its key, every
/// index once; and it says whether equal keys kept their input order.
fn check(keys: &[u32], got_keys: &[u32], got_values: &[u32]) -> Result<bool, String> {
    let n = keys.len();
    if got_keys.len() != n || got_values.len() != n {
        return Err(format!(
            "{} keys and {} values back, want {n}",
            got_keys.len(),
            got_values.len()
        ));
    }
    let mut want = keys.to_vec();
    want.sort_unstable();
    if let Some(i) = (0..n).find(|&i| got_keys[i] != want[i]) {
        let wrong = (0..n).filter(|&i| got_keys[i] != want[i]).count();
        return Err(format!(
            "{wrong} of {n} keys wrong, the first at index {i}: got {:#010x}, want {:#010x}",
            got_keys[i], want[i]
        ));
    }
    let mut seen = vec![false; n];
    for (i, (&k, &v)) in got_keys.iter().zip(got_values).enumerate() {
        let index = v as usize;
        if index >= n || seen[index] || keys[index] != k {
            return Err(format!(
                "value {v} at index {i} (key {k:#010x}) is not the input index of a key {k:#010x} \
                 not seen before"
            ));
        }
        seen[index] = true;
    }
    Ok((1..n).all(|i| got_keys[i - 1] != got_keys[i] || got_values[i - 1] < got_values[i]))
}

fn run(args: &Args) -> Result<bool, String> {
    let gpu = open(args.adapter.as_deref())?;
    eprintln!(
        "== {} ({}, {}): {ALGORITHM}",
        gpu.info.name, gpu.info.driver, gpu.info.driver_info
    );
    // Upstream's way to a subgroup size: its own guess (utils.rs), the
    // largest of 1, 8, ..., 128 whose test sort comes out right.
    let subgroup_size = match args.subgroup_size {
        Some(size) => size,
        None => pollster::block_on(wgpu_sort::utils::guess_workgroup_size(
            &gpu.device,
            &gpu.queue,
        ))
        .ok_or("wgpu_sort found no subgroup size whose test sort came out right")?,
    };
    eprintln!(
        "   subgroup size {subgroup_size} ({})",
        if args.subgroup_size.is_some() {
            "--subgroup-size"
        } else {
            "wgpu_sort's guess"
        }
    );
    let sorter = GPUSorter::new(&gpu.device, subgroup_size);
    let mut passed = true;
    let stdout = std::io::stdout();
    for log2 in args.log2.0..=args.log2.1 {
        let n = 1usize << log2;
        match size(&gpu, &sorter, args, n, args.seed ^ u64::from(log2)) {
            Ok((timing, stable)) => {
                let seconds = timing.median_ms / 1e3;
                // Bytes as wavekit counts its pair sort: a read of the keys,
                // and per pass a read and a write of each key and value.
                let bytes = 68 * n as u64;
                let report = json!({
                    "demo": "radix_sort",
                    "variant": "pairs",
                    "backend": "vulkan",
                    "side": "peer",
                    "device": gpu.info.name,
                    "driver": format!("{} {}", gpu.info.driver, gpu.info.driver_info),
                    "algorithm": ALGORITHM,
                    "impl": IMPLEMENTATION,
                    "note": format!(
                        "Fuchsia's radix sort in WGSL: zeroing, one histogram of all four 8-bit \
                         digits, a prefix pass, four scatter passes with decoupled look-back; \
                         subgroup size {subgroup_size}; {}",
                        if stable { "equal keys kept their input order" } else { "equal keys did not keep their input order" }
                    ),
                    "subgroup_size": subgroup_size,
                    "stable": stable,
                    "n": n,
                    "bytes": bytes,
                    "timing": {
                        "median_ms": timing.median_ms,
                        "min_ms": timing.min_ms,
                        "runs": timing.runs,
                        "batches": timing.batches,
                        "settled": timing.settled,
                    },
                    "items_per_s": n as f64 / seconds,
                    "gb_per_s": bytes as f64 / seconds / 1e9,
                });
                let mut out = stdout.lock();
                writeln!(out, "{report}")
                    .and_then(|()| out.flush())
                    .map_err(|e| format!("stdout: {e}"))?;
                eprintln!(
                    "ok  vulkan wgpu_sort     pairs          2^{log2:<2} {:>10.4} ms  {:>8.1} GB/s  {:>8.3} G items/s{}{}",
                    timing.median_ms,
                    bytes as f64 / seconds / 1e9,
                    n as f64 / seconds / 1e9,
                    if stable { "" } else { "  (not stable)" },
                    if timing.settled {
                        ""
                    } else {
                        "  (not settled)"
                    }
                );
            }
            Err(error) => {
                eprintln!("FAIL wgpu_sort pairs 2^{log2}: {error}");
                passed = false;
            }
        }
    }
    Ok(passed)
}

/// Sorts, times and checks one size: the timing and whether the sort kept
/// equal keys in input order (in both runs checked).
fn size(
    gpu: &Gpu,
    sorter: &GPUSorter,
    args: &Args,
    n: usize,
    seed: u64,
) -> Result<(Timing, bool), String> {
    let (keys, values) = pairs_input(n, seed);
    let input = |data: &[u32], label| {
        gpu.device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytemuck::cast_slice(data),
                usage: wgpu::BufferUsages::COPY_SRC,
            })
    };
    let length = NonZeroU32::new(n as u32).ok_or("no keys to sort")?;
    // The sorter's buffers may exceed the device's limits (at 2^27 pairs on
    // an H100 they did): wgpu's error for this size, not its panic.
    let creating = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let buffers = sorter.create_sort_buffers(&gpu.device, length);
    if let Some(error) = pollster::block_on(creating.pop()) {
        return Err(format!("wgpu_sort's buffers for {n} pairs: {error}"));
    }
    let job = Job {
        gpu,
        sorter,
        buffers,
        keys_in: input(&keys, "wk-peers keys"),
        values_in: input(&values, "wk-peers values"),
        bytes: 4 * n as u64,
    };
    // The sorter's result, checked: after the first run (on new buffers,
    // before any timing) and after the last timed run.
    let checked = |which: &str| -> Result<bool, String> {
        let got_keys: Vec<u32> = gpu.read(job.buffers.keys(), job.buffers.keys_valid_size())?;
        let got_values: Vec<u32> = gpu.read(job.buffers.values(), job.bytes)?;
        check(&keys, &got_keys, &got_values).map_err(|e| format!("{which}: {e}"))
    };
    let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let first = job.execute().and_then(|()| checked("the first run"));
    let timing = first.and_then(|stable| Ok((measure(&job, args)?, stable)));
    if let Some(error) = pollster::block_on(scope.pop()) {
        return Err(format!("wgpu: {error}"));
    }
    let (timing, first_stable) = timing?;
    let stable = checked("the last timed run")?;
    Ok((timing, first_stable && stable))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_check_takes_any_order_of_equal_keys_and_says_which() {
        let keys = [5, 3, 5, 1];
        assert_eq!(check(&keys, &[1, 3, 5, 5], &[3, 1, 0, 2]), Ok(true));
        assert_eq!(check(&keys, &[1, 3, 5, 5], &[3, 1, 2, 0]), Ok(false));
        assert!(
            check(&keys, &[1, 3, 5, 5], &[3, 1, 0, 0]).is_err(),
            "an index twice"
        );
        assert!(
            check(&keys, &[1, 3, 5, 5], &[3, 1, 0, 1]).is_err(),
            "a value of another key"
        );
        assert!(
            check(&keys, &[1, 5, 3, 5], &[3, 0, 1, 2]).is_err(),
            "keys out of order"
        );
    }

    #[test]
    fn inputs_are_wavekits_pairs() {
        // demos/src/radix_sort/mod.rs: keys `x * 0x9e3779b1`, x < n / 8.
        let (keys, values) = pairs_input(64, 0x5eed ^ 6);
        assert_eq!(values, (0..64).collect::<Vec<u32>>());
        let inverse = 0x9e37_79b1u32.wrapping_mul(0x0e8b_2f51);
        assert_eq!(inverse, 1, "0x0e8b2f51 inverts the multiplier mod 2^32");
        assert!(keys.iter().all(|k| k.wrapping_mul(0x0e8b_2f51) < 8));
    }

    #[test]
    fn arguments() {
        let args = |s: &str| parse_args(s.split_whitespace().map(String::from));
        let a = args("--adapter llvmpipe --log2 10 14 --runs 2").expect("parses");
        assert_eq!(
            (a.adapter.as_deref(), a.log2, a.runs),
            (Some("llvmpipe"), (10, 14), 2)
        );
        assert_eq!(args("").expect("defaults").log2, (16, 26));
        assert!(args("--log2 20 28").is_err());
        assert!(args("--runs").is_err());
    }
}
