//! `alloc_probe`: a minimal reproduction of the large-size "cliff" of
//! issue 19 (through wgpu's Vulkan back end on an H100, a 2^28 scan took
//! 3.81 ms after smaller sizes had run in the same process, 2.76 ms in a
//! fresh one, against 0.67 ms at 2^27). It uses plain wgpu 30, none of
//! wavekit's runner, and measures the bandwidth of one streaming dispatch
//! over two buffers of 2^N u32 words under named allocation patterns, to
//! tell which allocation history makes streaming slow.
//!
//! **What it measures.** For each pattern it creates `src` and `dst`
//! (`STORAGE | COPY_SRC | COPY_DST`, 4 · 2^N bytes each, as wavekit's
//! resident buffers), fills `src` with `src[i] = i` (on the GPU with a fill
//! kernel, or from the host where the pattern says so), warms up (at least
//! `--warmup` runs and `--warmup-ms` of untimed work, so the clocks are up),
//! then times `--runs` runs of
//! - `kernel`: a WGSL kernel `dst[i] = src[i]` over `vec4<u32>`, one thread
//!   per vec4 (a 2-D grid of 256-thread workgroups), bounds checks on;
//! - `copy`: `copy_buffer_to_buffer(src, dst)`,
//!
//! each on the GPU clock (timestamps on the compute pass, or on empty
//! passes around the copy; the wall clock around submit-and-wait where the
//! adapter has no timestamp queries), checks sampled words of `dst`, and
//! prints one JSON line: `pattern`, `log2`, `bytes` (of one buffer),
//! `kernel` and `copy` each with `median_ms`, `min_ms`, `max_ms` and `gbs`
//! (read + write bytes, 2 · bytes, over the median), and
//! `allocator`: wgpu's `generate_allocator_report` (gpu-allocator's view)
//! summarised while the buffers are alive (allocated and reserved bytes,
//! blocks, largest block, and the block, offset and size of each `probe`
//! buffer: a buffer alone in a block of its own size has its own
//! `VkDeviceMemory`, as gpu-allocator gives anything above its 256 MiB block
//! size) and `allocator_after` once they are dropped. A first line describes
//! the adapter, its driver, and (on Vulkan) its memory heaps and types, which
//! show whether host-visible device-local (ReBAR) memory exists.
//!
//! **Patterns** (`--pattern NAME`, repeatable; default all, in this order,
//! one after another in one process):
//! - `fresh`: allocate `src`, `dst` (never mapped: wgpu zeroes them, the
//!   fill kernel writes `src`) and time;
//! - `upload`: `src` created `mapped_at_creation: true` and filled from the
//!   host, as wavekit uploads (wgpu stages it through a `MAP_WRITE` buffer);
//! - `churn`: first, for every size 2^`--churn-from` .. 2^N in increasing
//!   order, as the demos do: upload a `src` (mapped at creation), allocate a
//!   `dst`, run one dispatch, read `dst` back through a new full-size
//!   `MAP_READ` buffer, drop all three; then allocate `src`, `dst` as `fresh`
//!   and time;
//! - `churn-poll`: like `churn` with `device.poll(wait)` after each drop;
//! - `churn-upload`: like `churn`, but the timed `src` is uploaded as in
//!   `upload` (the demos' own sequence);
//! - `reuse`: allocate `src`, `dst` at 2^N first, run the churn on other
//!   buffers, then time on the first ones (what an arena would do);
//! - `churn-keep`: the churn without its drops (every buffer stays alive
//!   until the timing is done), then `src`, `dst` as `fresh`;
//! - `arena`: allocate `src`, `dst` at 2^N first and run the churn's
//!   dispatches on their prefixes (nothing allocated or dropped but one
//!   64 MiB read-back buffer): what a caching buffer pool would do;
//! - `readback-first`: create a full-size `MAP_READ` buffer and a full-size
//!   `MAP_WRITE` staging buffer (filled, unmapped), keep them alive, then
//!   allocate `src`, `dst` as `fresh` and time.
//!
//! Patterns run in one process see the allocations of those before them, so
//! compare each against its own process too. On the H100 (Vulkan):
//!
//! ```text
//! cargo build --release -p wavekit-demos --bin wavekit-alloc-probe
//! P=./target/release/wavekit-alloc-probe
//! $P --adapter NVIDIA --log2 28 --json alloc.json                 # all, one process
//! for p in fresh upload churn churn-poll churn-upload reuse readback-first; do
//!     $P --adapter NVIDIA --log2 28 --pattern $p --json alloc.json   # one process each
//! done
//! $P --adapter NVIDIA --log2 27 --pattern fresh --pattern churn     # below the cliff
//! $P --adapter NVIDIA --log2 28 --memory-hints memory-usage         # 64 MiB blocks
//! ```
//!
//! On lavapipe (small sizes only):
//! `LP_NATIVE_VECTOR_WIDTH=256 cargo run -p wavekit-demos --bin
//! wavekit-alloc-probe -- --adapter llvmpipe --log2 20 --runs 3` (lavapipe's
//! storage bindings stop at 128 MiB: `--log2 25`).
//!
//! Options: `--adapter NAME` (case-insensitive substring of a Vulkan
//! adapter's name; default the best), `--log2 N` (10..=30, default 24),
//! `--churn-from M` (default 20), `--runs` (default 20), `--warmup`
//! (default 3), `--warmup-ms` (default 200), `--memory-hints performance |
//! memory-usage` (wgpu's allocator block sizes: 128–256 MiB or 8–64 MiB),
//! `--idle-ms N` (the GPU idles N ms before each warm-up), `--staging-mib N` (host data through chunks of at most N MiB instead of
//! full-size staging buffers: does the cliff follow the large host-visible
//! allocations?), `--json FILE` (appends every line printed).

use std::fs::OpenOptions;
use std::future::Future;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, mpsc};
use std::task::{Context, Poll, Wake, Waker};
use std::time::{Duration, Instant};

use clap::Parser;
use serde_json::{Value, json};

/// The two kernels: the streaming copy and the fill of `src[i] = i`.
const SHADER: &str = r#"
@group(0) @binding(0) var<storage, read> src: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<u32>>;

fn index(wg: vec3<u32>, groups: vec3<u32>, lane: u32) -> u32 {
    return (wg.y * groups.x + wg.x) * 256u + lane;
}

@compute @workgroup_size(256)
fn copy(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    let i = index(wg, groups, lane);
    if i < arrayLength(&dst) {
        dst[i] = src[i];
    }
}

@compute @workgroup_size(256)
fn fill(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    let i = index(wg, groups, lane);
    if i < arrayLength(&dst) {
        let w = 4u * i;
        dst[i] = vec4<u32>(w, w + 1u, w + 2u, w + 3u);
    }
}
"#;

/// Threads per workgroup in the shader.
const WORKGROUP: u64 = 256;
/// Workgroups along x; the rest of the grid goes along y.
const GRID_X: u64 = 32768;
/// The patterns, in the order `--pattern` defaults to.
const PATTERNS: [&str; 9] = [
    "fresh",
    "upload",
    "churn",
    "churn-poll",
    "churn-upload",
    "reuse",
    "readback-first",
    "churn-keep",
    "arena",
];
/// Words of `dst` checked at its start and at its end.
const SAMPLE_WORDS: u64 = 1024;

type Result<T> = std::result::Result<T, String>;

#[derive(Parser)]
#[command(
    about = "Streaming bandwidth of two 2^N-word buffers under allocation patterns (issue 19), through wgpu on Vulkan"
)]
struct Args {
    /// Vulkan adapter: a case-insensitive substring of its name (default: the best).
    #[arg(long)]
    adapter: Option<String>,
    /// The buffers hold 2^N u32 words each.
    #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u32).range(10..=30))]
    log2: u32,
    /// The churn allocates every size from 2^M words up to 2^N.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(10..=30))]
    churn_from: u32,
    /// Patterns to run (default: all, in order): fresh, upload, churn,
    /// churn-poll, churn-upload, reuse, readback-first, churn-keep, arena.
    #[arg(long = "pattern", value_parser = PATTERNS)]
    patterns: Vec<String>,
    /// Timed runs of each of kernel and copy (the median is reported).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=2048))]
    runs: u32,
    /// Untimed runs before the timed ones (at least).
    #[arg(long, default_value_t = 3)]
    warmup: usize,
    /// Untimed runs go on until this many milliseconds have passed.
    #[arg(long, default_value_t = 200)]
    warmup_ms: u64,
    /// Sleep this many milliseconds (GPU idle) before each pattern's
    /// warm-up: does the slowdown follow idle time rather than allocation?
    #[arg(long, default_value_t = 0)]
    idle_ms: u64,
    /// After the timed runs, keep timing batches of `--runs` for this many
    /// milliseconds and report each batch's median with its start time
    /// (`trace`): how long a slow state lasts.
    #[arg(long, default_value_t = 0)]
    trace_ms: u64,
    /// wgpu's memory hints, which set gpu-allocator's block sizes.
    #[arg(long, default_value = "performance", value_parser = ["performance", "memory-usage"])]
    memory_hints: String,
    /// Stage host data through chunks of at most this many MiB (uploads by
    /// `queue.write_buffer` per chunk, read-backs through one chunk-sized
    /// `MAP_READ` buffer) instead of one full-size staging buffer; 0 keeps
    /// the full-size ones (`mapped_at_creation`, a full-size `MAP_READ`).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=1024))]
    staging_mib: u64,
    /// Append every JSON line to this file as well.
    #[arg(long)]
    json: Option<PathBuf>,
}

fn main() -> ExitCode {
    env_logger::init();
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<()> {
    let mut out = Output::new(args.json.as_ref())?;
    let patterns: Vec<&str> = if args.patterns.is_empty() {
        PATTERNS.to_vec()
    } else {
        args.patterns.iter().map(String::as_str).collect()
    };
    let (probe, adapter_line) = Probe::open(args)?;
    out.line(&adapter_line)?;
    for pattern in patterns {
        let line = probe
            .pattern(pattern, args)
            .map_err(|e| format!("pattern `{pattern}` at 2^{}: {e}", args.log2))?;
        out.line(&line)?;
    }
    Ok(())
}

/// Standard output, and the `--json` file.
struct Output {
    file: Option<std::fs::File>,
}

impl Output {
    fn new(path: Option<&PathBuf>) -> Result<Output> {
        let file = path
            .map(|path| {
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| format!("cannot open `{}`: {e}", path.display()))
            })
            .transpose()?;
        Ok(Output { file })
    }

    fn line(&mut self, value: &Value) -> Result<()> {
        let text = value.to_string();
        println!("{text}");
        if let Some(file) = &mut self.file {
            writeln!(file, "{text}").map_err(|e| format!("writing the JSON file: {e}"))?;
        }
        Ok(())
    }
}

/// How a new buffer's contents are made.
#[derive(Clone, Copy)]
enum Fill {
    /// Zeroed by wgpu, never written.
    None,
    /// `mapped_at_creation: true` and written from the host.
    Host,
    /// Written by the fill kernel.
    Gpu,
}

/// The opened device and the two pipelines.
struct Probe {
    device: wgpu::Device,
    queue: wgpu::Queue,
    copy: wgpu::ComputePipeline,
    fill: wgpu::ComputePipeline,
    timestamps: bool,
    /// `--staging-mib` in bytes (0: full-size staging).
    staging: u64,
}

/// Median, min and max of one method's runs, in milliseconds.
struct Timing {
    median: f64,
    min: f64,
    max: f64,
}

impl Probe {
    /// Opens the Vulkan adapter `--adapter` names; returns the probe and the
    /// adapter's JSON line.
    fn open(args: &Args) -> Result<(Probe, Value)> {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        desc.backends = wgpu::Backends::VULKAN;
        let instance = wgpu::Instance::new(desc);
        let adapters = block_on(instance.enumerate_adapters(wgpu::Backends::VULKAN));
        let needle = args.adapter.as_ref().map(|n| n.to_lowercase());
        let mut matching: Vec<&wgpu::Adapter> = adapters
            .iter()
            .filter(|a| {
                needle
                    .as_ref()
                    .is_none_or(|n| a.get_info().name.to_lowercase().contains(n))
            })
            .collect();
        matching.sort_by_key(|a| rank(a.get_info().device_type));
        let Some(adapter) = matching.first() else {
            let names: Vec<String> = adapters
                .iter()
                .map(|a| format!("`{}`", a.get_info().name))
                .collect();
            return Err(format!(
                "no Vulkan adapter{} (found: {})",
                args.adapter
                    .as_ref()
                    .map(|n| format!(" named like `{n}`"))
                    .unwrap_or_default(),
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ));
        };
        let info = adapter.get_info();
        let limits = adapter.limits();
        let bytes = 4u64 << args.log2;
        if bytes > limits.max_buffer_size || bytes > limits.max_storage_buffer_binding_size {
            return Err(format!(
                "2^{} words ({bytes} bytes) exceed `{}`'s limits (buffer {} bytes, storage binding {} bytes)",
                args.log2,
                info.name,
                limits.max_buffer_size,
                limits.max_storage_buffer_binding_size
            ));
        }
        let memory_hints = match args.memory_hints.as_str() {
            "memory-usage" => wgpu::MemoryHints::MemoryUsage,
            _ => wgpu::MemoryHints::Performance,
        };
        let features = adapter.features() & wgpu::Features::TIMESTAMP_QUERY;
        let (device, queue) = block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("alloc probe"),
            required_features: features,
            required_limits: limits,
            memory_hints,
            ..Default::default()
        }))
        .map_err(|e| format!("cannot open `{}`: {e}", info.name))?;
        device.on_uncaptured_error(Arc::new(|error: wgpu::Error| {
            eprintln!("error: wgpu: {error}");
            std::process::exit(1);
        }));
        device.set_device_lost_callback(|reason, message| {
            if reason != wgpu::DeviceLostReason::Destroyed {
                eprintln!("error: device lost ({reason:?}): {message}");
            }
        });
        let timestamps = features.contains(wgpu::Features::TIMESTAMP_QUERY);
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("alloc probe"),
            source: wgpu::ShaderSource::Wgsl(SHADER.into()),
        });
        let pipeline = |entry: &str| {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: None,
                module: &module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            })
        };
        let (copy, fill) = (pipeline("copy"), pipeline("fill"));
        if let Some(error) = block_on(scope.pop()) {
            return Err(format!("building the kernels: {error}"));
        }
        let line = json!({
            "adapter": info.name,
            "backend": info.backend.to_string(),
            "device_type": format!("{:?}", info.device_type),
            "driver": info.driver,
            "driver_info": info.driver_info,
            "vendor": format!("{:#06x}", info.vendor),
            "timestamps": timestamps,
            "memory_hints": args.memory_hints,
            "memory": memory_properties(adapter),
        });
        let probe = Probe {
            device,
            queue,
            copy,
            fill,
            timestamps,
            staging: args.staging_mib << 20,
        };
        Ok((probe, line))
    }

    /// Runs pattern `name` and returns its JSON line.
    fn pattern(&self, name: &str, args: &Args) -> Result<Value> {
        let words = 1u64 << args.log2;
        let bytes = 4 * words;
        let mut kept = Vec::new();
        let fresh = || -> Result<(wgpu::Buffer, wgpu::Buffer)> {
            Ok((
                self.resident("probe src", bytes, Fill::Gpu)?,
                self.resident("probe dst", bytes, Fill::None)?,
            ))
        };
        let (src, dst) = match name {
            "fresh" => fresh()?,
            "upload" => (
                self.resident("probe src", bytes, Fill::Host)?,
                self.resident("probe dst", bytes, Fill::None)?,
            ),
            "churn" => {
                self.churn(args, false)?;
                fresh()?
            }
            "churn-poll" => {
                self.churn(args, true)?;
                fresh()?
            }
            "churn-upload" => {
                self.churn(args, false)?;
                (
                    self.resident("probe src", bytes, Fill::Host)?,
                    self.resident("probe dst", bytes, Fill::None)?,
                )
            }
            "reuse" => {
                let pair = fresh()?;
                self.churn(args, false)?;
                pair
            }
            "churn-keep" => {
                kept.extend(self.churn_kept(args)?);
                fresh()?
            }
            "arena" => {
                let pair = fresh()?;
                self.arena_churn(args, &pair.0, &pair.1)?;
                pair
            }
            "readback-first" => {
                kept.push(self.mappable(
                    "probe readback",
                    bytes,
                    wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                )?);
                kept.push(self.mappable(
                    "probe staging",
                    bytes,
                    wgpu::BufferUsages::MAP_WRITE | wgpu::BufferUsages::COPY_SRC,
                )?);
                fresh()?
            }
            _ => return Err(format!("no pattern `{name}`")),
        };
        let copy_group = self.bind_group(&self.copy, Some(&src), &dst)?;
        std::thread::sleep(Duration::from_millis(args.idle_ms));
        self.warm_up(&copy_group, &src, &dst, words, args)?;
        let kernel = self.time(args.runs, |encoder, stamps| {
            self.encode_kernel(encoder, &copy_group, words, stamps)
        })?;
        let mut trace = Vec::new();
        let traced = Instant::now();
        while traced.elapsed() < Duration::from_millis(args.trace_ms) {
            let at = traced.elapsed().as_secs_f64() * 1e3;
            let batch = self.time(args.runs, |encoder, stamps| {
                self.encode_kernel(encoder, &copy_group, words, stamps)
            })?;
            trace.push(json!([(at * 10.0).round() / 10.0, batch.median]));
        }
        self.verify(&dst, words)
            .map_err(|e| format!("kernel: {e}"))?;
        self.gpu("clearing dst", |encoder| {
            encoder.clear_buffer(&dst, 0, None)
        })?;
        let copy = self.time(args.runs, |encoder, stamps| {
            let marker = |encoder: &mut wgpu::CommandEncoder, begin: bool| {
                let writes = stamps.map(|(query_set, at)| wgpu::ComputePassTimestampWrites {
                    query_set,
                    beginning_of_pass_write_index: begin.then_some(at),
                    end_of_pass_write_index: (!begin).then_some(at + 1),
                });
                if writes.is_some() {
                    drop(encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                        label: Some("probe timestamp"),
                        timestamp_writes: writes,
                    }));
                }
            };
            marker(encoder, true);
            encoder.copy_buffer_to_buffer(&src, 0, &dst, 0, bytes);
            marker(encoder, false);
        })?;
        self.verify(&dst, words).map_err(|e| format!("copy: {e}"))?;
        let live = allocator_summary(self.device.generate_allocator_report());
        drop((copy_group, src, dst, kept));
        self.wait("dropping the buffers")?;
        let after = allocator_summary(self.device.generate_allocator_report());
        let method = |t: &Timing| {
            json!({
                "median_ms": t.median,
                "min_ms": t.min,
                "max_ms": t.max,
                "gbs": 2.0 * bytes as f64 / (t.median * 1e6),
            })
        };
        Ok(json!({
            "pattern": name,
            "log2": args.log2,
            "bytes": bytes,
            "runs": args.runs,
            "staging_mib": args.staging_mib,
            "idle_ms": args.idle_ms,
            "trace": trace,
            "warmup_ms": args.warmup_ms,
            "clock": if self.timestamps { "gpu" } else { "wall" },
            "kernel": method(&kernel),
            "copy": method(&copy),
            "allocator": live,
            "allocator_after": after,
        }))
    }

    /// For every size 2^`churn_from` ..= 2^N: upload a source, allocate a
    /// destination, run one dispatch, read the destination back through a
    /// new full-size `MAP_READ` buffer, and drop all three (then wait for
    /// the device, with `poll`).
    fn churn(&self, args: &Args, poll: bool) -> Result<()> {
        for log2 in args.churn_from.min(args.log2)..=args.log2 {
            let words = 1u64 << log2;
            let bytes = 4 * words;
            let src = self.resident("churn src", bytes, Fill::Host)?;
            let dst = self.resident("churn dst", bytes, Fill::None)?;
            let group = self.bind_group(&self.copy, Some(&src), &dst)?;
            self.gpu("a churn dispatch", |encoder| {
                self.encode_kernel(encoder, &group, words, None)
            })?;
            let chunk = if self.staging == 0 {
                bytes
            } else {
                self.staging.min(bytes)
            };
            let readback = self.mappable(
                "churn readback",
                chunk,
                wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            )?;
            for at in (0..bytes).step_by(chunk as usize) {
                self.gpu("a churn read-back", |encoder| {
                    encoder.copy_buffer_to_buffer(&dst, at, &readback, 0, chunk)
                })?;
                let part = self.map_read(&readback)?;
                copied(&part, at / 4).map_err(|e| format!("the churn at 2^{log2}: {e}"))?;
            }
            drop((group, src, dst, readback));
            if poll {
                self.wait("polling after a drop")?;
            }
        }
        Ok(())
    }

    /// The churn's allocations without its drops: every buffer it makes is
    /// returned, to stay alive until the pattern's timing is done.
    fn churn_kept(&self, args: &Args) -> Result<Vec<wgpu::Buffer>> {
        let mut kept = Vec::new();
        for log2 in args.churn_from.min(args.log2)..=args.log2 {
            let words = 1u64 << log2;
            let bytes = 4 * words;
            let src = self.resident("churn src", bytes, Fill::Host)?;
            let dst = self.resident("churn dst", bytes, Fill::None)?;
            let group = self.bind_group(&self.copy, Some(&src), &dst)?;
            self.gpu("a churn dispatch", |encoder| {
                self.encode_kernel(encoder, &group, words, None)
            })?;
            kept.extend([src, dst]);
        }
        Ok(kept)
    }

    /// The churn's work on prefixes of `src` and `dst` (what a caching pool
    /// would do): no buffer is allocated or dropped except one read-back
    /// buffer of at most 64 MiB, reused.
    fn arena_churn(&self, args: &Args, src: &wgpu::Buffer, dst: &wgpu::Buffer) -> Result<()> {
        let group = self.bind_group(&self.copy, Some(src), dst)?;
        let chunk = (64u64 << 20).min(src.size());
        let readback = self.mappable(
            "arena readback",
            chunk,
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        )?;
        for log2 in args.churn_from.min(args.log2)..=args.log2 {
            let words = 1u64 << log2;
            self.gpu("an arena dispatch", |encoder| {
                encoder.clear_buffer(dst, 0, Some(4 * words));
                self.encode_kernel(encoder, &group, words, None);
                encoder.copy_buffer_to_buffer(dst, 0, &readback, 0, chunk.min(4 * words));
            })?;
            let data = self.map_read(&readback)?;
            copied(&data, 0).map_err(|e| format!("the arena at 2^{log2}: {e}"))?;
        }
        Ok(())
    }

    /// A storage buffer as wavekit's resident ones, filled by `fill`.
    fn resident(&self, label: &str, bytes: u64, fill: Fill) -> Result<wgpu::Buffer> {
        let buffer = self.scoped(&format!("allocating `{label}` ({bytes} bytes)"), || {
            let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: bytes,
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::COPY_SRC
                    | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: matches!(fill, Fill::Host) && self.staging == 0,
            });
            if matches!(fill, Fill::Host) && self.staging == 0 {
                write_words(&buffer)?;
                buffer.unmap();
            }
            Ok::<_, String>(buffer)
        })??;
        if matches!(fill, Fill::Host) && self.staging > 0 {
            // Chunk by chunk through wgpu's staging (`write_buffer`), each
            // chunk submitted and waited for, so at most one chunk of
            // host-visible memory exists at a time.
            for at in (0..bytes).step_by(self.staging as usize) {
                let end = (at + self.staging).min(bytes);
                let chunk: Vec<u8> = (at / 4..end / 4)
                    .flat_map(|i| (i as u32).to_ne_bytes())
                    .collect();
                self.queue.write_buffer(&buffer, at, &chunk);
                self.gpu("uploading a chunk", |_| {})?;
            }
        }
        if matches!(fill, Fill::Gpu) {
            let words = bytes / 4;
            let group = self.bind_group(&self.fill, None, &buffer)?;
            self.gpu("filling `src`", |encoder| {
                let mut pass = encoder.begin_compute_pass(&Default::default());
                pass.set_pipeline(&self.fill);
                pass.set_bind_group(0, &group, &[]);
                let [x, y] = grid(words);
                pass.dispatch_workgroups(x, y, 1);
            })?;
        }
        Ok(buffer)
    }

    /// A mappable buffer of `usage`; a `MAP_WRITE` one is created mapped
    /// and filled, as wgpu's staging buffers are.
    fn mappable(&self, label: &str, bytes: u64, usage: wgpu::BufferUsages) -> Result<wgpu::Buffer> {
        let write = usage.contains(wgpu::BufferUsages::MAP_WRITE);
        self.scoped(&format!("allocating `{label}` ({bytes} bytes)"), || {
            let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: bytes,
                usage,
                mapped_at_creation: write,
            });
            if write {
                write_words(&buffer)?;
                buffer.unmap();
            }
            Ok(buffer)
        })?
    }

    /// A bind group of `pipeline` with `src` at binding 0 (where it has
    /// one) and `dst` at binding 1.
    fn bind_group(
        &self,
        pipeline: &wgpu::ComputePipeline,
        src: Option<&wgpu::Buffer>,
        dst: &wgpu::Buffer,
    ) -> Result<wgpu::BindGroup> {
        let mut entries = Vec::new();
        if let Some(src) = src {
            entries.push(wgpu::BindGroupEntry {
                binding: 0,
                resource: src.as_entire_binding(),
            });
        }
        entries.push(wgpu::BindGroupEntry {
            binding: 1,
            resource: dst.as_entire_binding(),
        });
        self.scoped("a bind group", || {
            self.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &pipeline.get_bind_group_layout(0),
                entries: &entries,
            })
        })
    }

    /// One copy-kernel dispatch over `words`, its pass timestamped at
    /// `stamps`.
    fn encode_kernel(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        group: &wgpu::BindGroup,
        words: u64,
        stamps: Option<(&wgpu::QuerySet, u32)>,
    ) {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("probe copy"),
            timestamp_writes: stamps.map(|(query_set, at)| wgpu::ComputePassTimestampWrites {
                query_set,
                beginning_of_pass_write_index: Some(at),
                end_of_pass_write_index: Some(at + 1),
            }),
        });
        pass.set_pipeline(&self.copy);
        pass.set_bind_group(0, group, &[]);
        let [x, y] = grid(words);
        pass.dispatch_workgroups(x, y, 1);
    }

    /// Untimed kernels and copies, one submission each, until `--warmup`
    /// runs and `--warmup-ms` have passed.
    fn warm_up(
        &self,
        group: &wgpu::BindGroup,
        src: &wgpu::Buffer,
        dst: &wgpu::Buffer,
        words: u64,
        args: &Args,
    ) -> Result<()> {
        let start = Instant::now();
        let mut done = 0;
        while done < args.warmup || start.elapsed() < Duration::from_millis(args.warmup_ms) {
            self.gpu("warming up", |encoder| {
                self.encode_kernel(encoder, group, words, None);
                encoder.copy_buffer_to_buffer(src, 0, dst, 0, 4 * words);
            })?;
            done += 1;
        }
        Ok(())
    }

    /// Times `runs` runs of what `encode` records (given the query set and
    /// the index of its first timestamp): all in one submission on the GPU
    /// clock, or one submission and wait each on the wall clock.
    fn time(
        &self,
        runs: u32,
        encode: impl Fn(&mut wgpu::CommandEncoder, Option<(&wgpu::QuerySet, u32)>),
    ) -> Result<Timing> {
        let ms = if self.timestamps {
            let count = 2 * runs;
            let queries = self.device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("probe timestamps"),
                ty: wgpu::QueryType::Timestamp,
                count,
            });
            self.gpu("timed runs", |encoder| {
                for run in 0..runs {
                    encode(encoder, Some((&queries, 2 * run)));
                }
            })?;
            self.resolve(&queries, count)?
        } else {
            (0..runs)
                .map(|_| {
                    let start = Instant::now();
                    self.gpu("a timed run", |encoder| encode(encoder, None))?;
                    Ok(start.elapsed().as_secs_f64() * 1e3)
                })
                .collect::<Result<Vec<f64>>>()?
        };
        Ok(timing(ms))
    }

    /// The milliseconds between timestamps `2i` and `2i + 1`, for each `i`.
    fn resolve(&self, queries: &wgpu::QuerySet, count: u32) -> Result<Vec<f64>> {
        let bytes = 8 * u64::from(count);
        let resolved = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("probe timestamps"),
            size: bytes,
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let readback = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("probe timestamps readback"),
            size: bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        self.gpu("resolving timestamps", |encoder| {
            encoder.resolve_query_set(queries, 0..count, &resolved, 0);
            encoder.copy_buffer_to_buffer(&resolved, 0, &readback, 0, bytes);
        })?;
        let data = self.map_read(&readback)?;
        let period_ns = f64::from(self.queue.get_timestamp_period());
        Ok(data
            .chunks_exact(16)
            .map(|pair| {
                let tick = |b: &[u8]| u64::from_ne_bytes(b.try_into().unwrap_or([0; 8]));
                tick(&pair[8..]).saturating_sub(tick(&pair[..8])) as f64 * period_ns / 1e6
            })
            .collect())
    }

    /// Checks the first and last `SAMPLE_WORDS` words of `dst` hold their
    /// indices.
    fn verify(&self, dst: &wgpu::Buffer, words: u64) -> Result<()> {
        let sample = SAMPLE_WORDS.min(words / 2);
        let readback = self.mappable(
            "probe check",
            8 * sample,
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        )?;
        let tail = words - sample;
        self.gpu("reading samples", |encoder| {
            encoder.copy_buffer_to_buffer(dst, 0, &readback, 0, 4 * sample);
            encoder.copy_buffer_to_buffer(dst, 4 * tail, &readback, 4 * sample, 4 * sample);
        })?;
        let data = self.map_read(&readback)?;
        let expected = (0..sample).chain(tail..words);
        for (k, (chunk, want)) in data.chunks_exact(4).zip(expected).enumerate() {
            let got = u32::from_ne_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
            if u64::from(got) != want {
                return Err(format!(
                    "dst[{want}] is {got}, not {want} (sample {k}): the copy is wrong"
                ));
            }
        }
        Ok(())
    }

    /// Maps `buffer` (a `MAP_READ` one whose copies were submitted), waits,
    /// and copies it out.
    fn map_read(&self, buffer: &wgpu::Buffer) -> Result<Vec<u8>> {
        let (sender, receiver) = mpsc::channel();
        buffer
            .slice(..)
            .map_async(wgpu::MapMode::Read, move |result| {
                let _ = sender.send(result);
            });
        self.wait("mapping a read-back")?;
        receiver
            .recv()
            .map_err(|_| "a mapping never finished".to_string())?
            .map_err(|e| format!("mapping a read-back: {e}"))?;
        let data = buffer
            .slice(..)
            .get_mapped_range()
            .map_err(|e| format!("reading a read-back: {e}"))?
            .to_vec();
        buffer.unmap();
        Ok(data)
    }

    /// Records with `record`, submits, and waits.
    fn gpu(&self, what: &str, record: impl FnOnce(&mut wgpu::CommandEncoder)) -> Result<()> {
        self.scoped(what, || {
            let mut encoder = self.device.create_command_encoder(&Default::default());
            record(&mut encoder);
            self.queue.submit([encoder.finish()]);
        })?;
        self.wait(what)
    }

    /// Waits for the queue.
    fn wait(&self, what: &str) -> Result<()> {
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map(|_| ())
            .map_err(|e| format!("{what}: waiting for the device: {e}"))
    }

    /// Runs `f` inside out-of-memory and validation error scopes.
    fn scoped<T>(&self, what: &str, f: impl FnOnce() -> T) -> Result<T> {
        let memory = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let value = f();
        let invalid = block_on(validation.pop());
        let oom = block_on(memory.pop());
        match (oom, invalid) {
            (Some(error), _) => Err(format!("{what}: out of memory: {error}")),
            (None, Some(error)) => Err(format!("{what}: {error}")),
            (None, None) => Ok(value),
        }
    }
}

/// Checks that a read-back of `dst` from word `first` on holds the copy's
/// `src[i] = i` (its second word, `first + 1`).
fn copied(data: &[u8], first: u64) -> Result<()> {
    let want = (first + 1) as u32;
    match data.get(4..8) {
        Some(word) if word == want.to_ne_bytes() => Ok(()),
        _ => Err(format!("word {} read back wrong, want {want}", first + 1)),
    }
}

/// Writes word `i` = `i` over a buffer mapped at creation, from the host
/// in chunks of 1 MiB (mapped memory is write-only: wgpu's `WriteOnly`).
fn write_words(buffer: &wgpu::Buffer) -> Result<()> {
    const CHUNK: usize = 1 << 20;
    let mut mapped = buffer
        .slice(..)
        .get_mapped_range_mut()
        .map_err(|e| format!("writing a mapped buffer: {e}"))?;
    let len = mapped.len();
    let mut chunk = Vec::with_capacity(CHUNK.min(len));
    for start in (0..len).step_by(CHUNK) {
        let end = (start + CHUNK).min(len);
        chunk.clear();
        chunk.extend((start / 4..end / 4).flat_map(|i| (i as u32).to_ne_bytes()));
        mapped.slice(start..end).copy_from_slice(&chunk);
    }
    Ok(())
}

/// The 2-D grid of workgroups with one thread per vec4 of `words`.
fn grid(words: u64) -> [u32; 2] {
    let groups = (words / 4).div_ceil(WORKGROUP);
    let x = groups.min(GRID_X);
    [x as u32, groups.div_ceil(x) as u32]
}

/// Median, min and max of `ms`.
fn timing(mut ms: Vec<f64>) -> Timing {
    ms.sort_by(f64::total_cmp);
    let n = ms.len();
    let median = if n % 2 == 1 {
        ms[n / 2]
    } else {
        (ms[n / 2 - 1] + ms[n / 2]) / 2.0
    };
    Timing {
        median,
        min: ms[0],
        max: ms[n - 1],
    }
}

/// gpu-allocator's report, summarised: totals, blocks, and where each
/// `probe` buffer lives.
fn allocator_summary(report: Option<wgpu::AllocatorReport>) -> Value {
    let Some(report) = report else {
        return Value::Null;
    };
    let block_of = |index: usize| {
        report
            .blocks
            .iter()
            .find(|block| block.allocations.contains(&index))
    };
    let probes: Vec<Value> = report
        .allocations
        .iter()
        .enumerate()
        .filter(|(_, a)| a.name.starts_with("probe "))
        .map(|(i, a)| {
            let block = block_of(i);
            json!({
                "name": a.name,
                "size": a.size,
                "offset": a.offset,
                "block_size": block.map(|b| b.size),
                "block_allocations": block.map(|b| b.allocations.len()),
            })
        })
        .collect();
    json!({
        "allocated_bytes": report.total_allocated_bytes,
        "reserved_bytes": report.total_reserved_bytes,
        "allocations": report.allocations.len(),
        "blocks": report.blocks.len(),
        "largest_block": report.blocks.iter().map(|b| b.size).max().unwrap_or(0),
        "block_sizes": report.blocks.iter().map(|b| b.size).collect::<Vec<u64>>(),
        "probe_buffers": probes,
    })
}

/// Discrete GPUs first, CPU adapters last.
fn rank(device_type: wgpu::DeviceType) -> u8 {
    match device_type {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Other => 3,
        wgpu::DeviceType::Cpu => 4,
    }
}

/// The Vulkan memory heaps and types of `adapter`: which heaps are device
/// local, and whether a type is both device local and host visible (ReBAR).
#[cfg(any(target_os = "linux", target_os = "windows", target_os = "android"))]
fn memory_properties(adapter: &wgpu::Adapter) -> Value {
    // SAFETY: the hal adapter is only read (its instance and physical device
    // handles, for one query) while `adapter` keeps it alive.
    let Some(hal) = (unsafe { adapter.as_hal::<wgpu::hal::api::Vulkan>() }) else {
        return Value::Null;
    };
    let instance = hal.shared_instance().raw_instance();
    // SAFETY: a valid physical device of this live instance.
    let props =
        unsafe { instance.get_physical_device_memory_properties(hal.raw_physical_device()) };
    let heaps: Vec<Value> = props
        .memory_heaps
        .iter()
        .take(props.memory_heap_count as usize)
        .map(|heap| {
            json!({
                "size": heap.size,
                "device_local": heap.flags.as_raw() & 1 != 0,
            })
        })
        .collect();
    let names = [
        "DEVICE_LOCAL",
        "HOST_VISIBLE",
        "HOST_COHERENT",
        "HOST_CACHED",
        "LAZILY_ALLOCATED",
        "PROTECTED",
    ];
    let types: Vec<Value> = props
        .memory_types
        .iter()
        .take(props.memory_type_count as usize)
        .map(|ty| {
            let bits = ty.property_flags.as_raw();
            let flags: Vec<&str> = names
                .iter()
                .enumerate()
                .filter(|(bit, _)| bits & (1 << bit) != 0)
                .map(|(_, name)| *name)
                .collect();
            json!({ "heap": ty.heap_index, "flags": flags.join("|") })
        })
        .collect();
    json!({ "heaps": heaps, "types": types })
}

#[cfg(not(any(target_os = "linux", target_os = "windows", target_os = "android")))]
fn memory_properties(_adapter: &wgpu::Adapter) -> Value {
    Value::Null
}

/// Runs a future to completion on this thread (wgpu's native futures are
/// ready once the device has been polled, so parking suffices).
fn block_on<F: Future>(future: F) -> F::Output {
    struct Unpark(std::thread::Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut context = Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    loop {
        match future.as_mut().poll(&mut context) {
            Poll::Ready(value) => return value,
            Poll::Pending => std::thread::park(),
        }
    }
}
