//! What every demo shares: composing its shader for the device, building
//! kernels, timing a program on the GPU clock, and the report of one run.

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use wavekit::compose::Composer;
use wavekit::runner::{AdapterChoice, Gpu, Kernel, KernelOptions, Step};
use wavekit::{Backend, Error, SubgroupChoice, ValidModule};

/// A device and how the demos time it.
pub struct Ctx<'g> {
    /// The device.
    pub gpu: &'g Gpu,
    composer: Composer,
    /// Untimed runs before the timed ones.
    pub warmup: usize,
    /// Wall time to keep running untimed before the timed runs (after at
    /// least `warmup` runs): a GPU that idled while the CPU prepared the
    /// input has lowered its clocks, and a few short runs do not raise them
    /// (on an H100 through Vulkan, a 2^28 compaction took 8.5 ms after 3
    /// warm-up runs and 1.75 ms after 100).
    pub warmup_time: Duration,
    /// Timed batches of `runs` go on until no batch has been more than
    /// [`SETTLE_GAIN`] faster than the best before it for this long (zero:
    /// one batch). A GPU that ran little work for a while (the CPU
    /// preparing inputs, allocating, reading back) stays slow for a few
    /// hundred milliseconds of load: on an H100 through Vulkan, a 2^28
    /// copy ran at 1.25 ms for the first ~180 ms of batches after a 200 ms
    /// warm-up and at 0.71 ms from then on (docs/benchmarks/2026-11-25b-h100-vulkan/).
    pub settle_time: Duration,
    /// Timed runs; 0 runs each demo once, untimed (a correctness check).
    pub runs: usize,
}

/// A batch faster than the best so far by more than this fraction restarts
/// the settle window.
pub const SETTLE_GAIN: f64 = 0.02;
/// The settling gives up after this long; the timing then says so.
pub const SETTLE_LIMIT: Duration = Duration::from_secs(5);

impl<'g> Ctx<'g> {
    /// A context composing for `gpu`'s target.
    pub fn new(gpu: &'g Gpu, warmup: usize, runs: usize) -> Self {
        Ctx {
            gpu,
            composer: Composer::new(gpu.target().clone()),
            warmup,
            warmup_time: Duration::ZERO,
            settle_time: Duration::ZERO,
            runs,
        }
    }

    /// The same, timing batches until they have not improved for `time`.
    pub fn with_settle_time(mut self, time: Duration) -> Self {
        self.settle_time = time;
        self
    }

    /// The same, warming up for at least `time` before timing.
    pub fn with_warmup_time(mut self, time: Duration) -> Self {
        self.warmup_time = time;
        self
    }

    /// The device on which a demo records its `wavekit::device` algorithm
    /// (the wgpu device or the CUDA context, [`Gpu::library_device`]), or
    /// `None` to run its own steps over the library's shaders: on HIP, and
    /// with `WAVEKIT_DEMOS_LIBRARY=0` (the library's cost against those
    /// steps, in the same run: bench/device-run.sh's `cuda_steps` and
    /// `vulkan_steps`). The library's timings include its zeroing of
    /// look-back state and bins, as CUB's include its init kernels; the
    /// steps' leading zeros are not timed.
    pub fn library_device(&self) -> Option<wavekit::device::Device<'_>> {
        if std::env::var("WAVEKIT_DEMOS_LIBRARY").as_deref() == Ok("0") {
            None
        } else {
            Some(self.gpu.library_device())
        }
    }

    /// Composes a demo shader, after replacing each `from` of `edits` (a
    /// declaration such as `alias T = f32;`) by its `to`.
    pub fn compose(
        &self,
        source: &str,
        file_name: &str,
        edits: &[(&str, &str)],
    ) -> Result<ValidModule, Error> {
        let text = edited(source, file_name, edits)?;
        Ok(self.composer.compose(&text, file_name)?.module)
    }

    /// Builds the kernels of `entries`, without wgpu's loop bounding
    /// ([`KernelOptions::without_loop_bounding`]): on NVIDIA's Vulkan driver
    /// it kept the demos' item loops rolled and their private arrays in
    /// local memory (H100, 2^24: scan 67 against 244 G items/s).
    pub fn kernels<const N: usize>(
        &self,
        module: &ValidModule,
        entries: [&str; N],
    ) -> Result<[Kernel; N], Error> {
        self.build(module, entries, false, None)
    }

    /// Builds the kernels of `entries` as [`Ctx::kernels`] does: on the
    /// native back ends (CUDA, HIP) without the lowering's bounds checks
    /// ([`KernelOptions::without_bounds_checks`]), through wgpu without
    /// zeroing workgroup memory
    /// ([`KernelOptions::without_workgroup_zeroing`]). Through wgpu the
    /// bounds checks stay unless `WAVEKIT_DEMOS_UNCHECKED` is set, so that
    /// the demos' own steps can measure them (the OneSweep sort: 2.5 %, H100,
    /// docs/benchmarks/2026-11-25d-h100-vulkan-radix). `wavekit::device`
    /// keeps both through wgpu: its sort ran 1–4 % slower without them
    /// (docs/benchmarks/2026-11-25j-h100-workgroup-zeroing).
    ///
    /// # Safety
    ///
    /// Every array access of the entries must stay in bounds for every
    /// input the demo passes them, and every workgroup word must be written
    /// before it is read: a kernel that proves both, as the OneSweep passes
    /// do (`radix_onesweep.wgsl` says how). An access out of bounds or a
    /// read of an unwritten word is then undefined behaviour.
    ///
    /// `min_resident`: natively, registers kept to what that many
    /// workgroups per multiprocessor leave
    /// ([`KernelOptions::with_min_resident_workgroups`]).
    pub unsafe fn kernels_proven<const N: usize>(
        &self,
        module: &ValidModule,
        entries: [&str; N],
        min_resident: Option<u32>,
    ) -> Result<[Kernel; N], Error> {
        self.build(module, entries, true, min_resident)
    }

    /// [`Ctx::kernels`], with the native bounds checks and the wgpu
    /// workgroup zeroing off when `proven`.
    fn build<const N: usize>(
        &self,
        module: &ValidModule,
        entries: [&str; N],
        proven: bool,
        min_resident: Option<u32>,
    ) -> Result<[Kernel; N], Error> {
        // SAFETY: every loop of the demo shaders terminates: item loops are
        // counted, and the look-back spin loops end once the earlier tiles
        // publish, which they do where the demos use look-back (devices
        // that keep started workgroups running, `scan::algorithm_for`;
        // lavapipe in the tests, where the forced look-back variants run).
        let mut options = unsafe { KernelOptions::default().without_loop_bounding() };
        let native = self.gpu.wgpu().is_none();
        if proven && !native {
            // SAFETY: `kernels_proven`'s contract. Only through wgpu, where
            // these steps ran 0.5-1.4 % faster without the zeroing; on CUDA
            // the OneSweep pass ran 10 % slower without it.
            options = unsafe { options.without_workgroup_zeroing() };
        }
        if (proven && native) || std::env::var_os("WAVEKIT_DEMOS_UNCHECKED").is_some() {
            // SAFETY: `proven` is `kernels_proven`'s contract. The variable
            // is an experiment of issues 19 and 23 (what the bounds checks
            // cost), never on by default: the demos' item loads and stores
            // are guarded by `i < n` tests, which the lavapipe tests
            // exercise with the checks on.
            options = unsafe { options.without_bounds_checks() };
        }
        if let Some(workgroups) = min_resident {
            options = options.with_min_resident_workgroups(workgroups);
        }
        let built = entries
            .iter()
            .map(|entry| self.gpu.kernel_with(module, entry, options))
            .collect::<Result<Vec<_>, Error>>()?;
        Ok(built
            .try_into()
            .unwrap_or_else(|_| unreachable!("one kernel per entry")))
    }

    /// Runs `steps` once, or times them when `runs > 0` (the buffers then
    /// hold the last run's result, which every demo's program makes equal
    /// to a single run's).
    pub fn run(&self, steps: &[Step<'_>]) -> Result<Option<Timing>, Error> {
        if self.runs == 0 {
            self.gpu.execute(steps)?;
            return Ok(None);
        }
        let start = Instant::now();
        while start.elapsed() < self.warmup_time {
            self.gpu.execute(steps)?;
        }
        let mut timing = Timing::of(self.gpu.time_program(steps, self.warmup, self.runs)?);
        if self.settle_time.is_zero() {
            return Ok(Some(timing));
        }
        // Batches until none has beaten the best by SETTLE_GAIN for
        // `settle_time`; the last batch is reported, not the best, so the
        // settling adds no selection bias beyond the gain.
        let settling = Instant::now();
        let mut best = timing.median_ms;
        let mut best_at = Instant::now();
        let mut batches = 1;
        while best_at.elapsed() < self.settle_time {
            if settling.elapsed() >= SETTLE_LIMIT {
                timing.settled = false;
                break;
            }
            timing = Timing::of(self.gpu.time_program(steps, 0, self.runs)?);
            batches += 1;
            if timing.median_ms < best * (1.0 - SETTLE_GAIN) {
                best_at = Instant::now();
            }
            best = best.min(timing.median_ms);
        }
        timing.batches = batches;
        Ok(Some(timing))
    }
}

/// `source` with each `from` of `edits` (a declaration such as
/// `alias T = f32;`) replaced by its `to`; an error names a declaration
/// that is not there (the shader changed under its host).
pub fn edited(source: &str, file_name: &str, edits: &[(&str, &str)]) -> Result<String, Error> {
    let mut text = source.to_string();
    for (from, to) in edits {
        if !text.contains(from) {
            return Err(Error::Usage(format!(
                "{file_name}: the declaration `{from}` to edit is not there"
            )));
        }
        text = text.replacen(from, to, 1);
    }
    Ok(text)
}

/// GPU times of a program's timed runs.
#[derive(Clone, Debug, Serialize)]
pub struct Timing {
    /// Median milliseconds.
    pub median_ms: f64,
    /// Fastest run, milliseconds.
    pub min_ms: f64,
    /// Number of timed runs.
    pub runs: usize,
    /// Batches of `runs` timed before these (1: no settling).
    pub batches: usize,
    /// False where the batches were still getting faster after
    /// [`SETTLE_LIMIT`].
    pub settled: bool,
}

impl Timing {
    /// The median and minimum of `times`.
    pub fn of(mut times: Vec<f64>) -> Timing {
        times.sort_by(f64::total_cmp);
        let n = times.len();
        let median_ms = if n == 0 {
            f64::NAN
        } else if n % 2 == 1 {
            times[n / 2]
        } else {
            (times[n / 2 - 1] + times[n / 2]) / 2.0
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

/// One demo run: what ran, on what, how much data, how fast.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Demo name (`reduce`, `scan`, ...).
    pub demo: String,
    /// Variant (`sum_f32`, `keys`, ...).
    pub variant: String,
    /// `wgpu` or `cuda`.
    pub backend: String,
    /// Device name.
    pub device: String,
    /// The algorithm that ran, e.g. "decoupled look-back".
    pub algorithm: String,
    /// Input elements.
    pub n: u64,
    /// Bytes the algorithm must move at least (reads + writes of its input
    /// and output), the basis of the effective bandwidth.
    pub bytes: u64,
    /// GPU time, when timed.
    pub timing: Option<Timing>,
    /// Elements per second (median), when timed.
    pub items_per_s: Option<f64>,
    /// Effective bandwidth, GB/s (10^9 bytes), when timed.
    pub gb_per_s: Option<f64>,
}

impl Report {
    /// A report, with rates derived from `timing`.
    pub fn new(
        demo: &str,
        variant: &str,
        ctx: &Ctx<'_>,
        algorithm: &str,
        n: usize,
        bytes: u64,
        timing: Option<Timing>,
    ) -> Report {
        let seconds = timing.as_ref().map(|t| t.median_ms / 1e3);
        Report {
            demo: demo.into(),
            variant: variant.into(),
            backend: backend_name(ctx.gpu).into(),
            device: ctx.gpu.info().name.clone(),
            algorithm: algorithm.into(),
            n: n as u64,
            bytes,
            items_per_s: seconds.map(|s| n as f64 / s),
            gb_per_s: seconds.map(|s| bytes as f64 / s / 1e9),
            timing,
        }
    }
}

/// Opens the device of `backend` as [`Gpu::open_backend`] does, wgpu
/// adapters with `subgroups` (hardware where the adapter has them, else
/// emulated; or emulated whatever it has). Emulation on a native back end
/// is a usage error: CUDA and HIP have hardware subgroups only.
pub fn open_gpu(
    backend: Option<Backend>,
    adapter: Option<String>,
    device: usize,
    subgroups: SubgroupChoice,
) -> Result<Gpu, Error> {
    match (backend, subgroups) {
        (_, SubgroupChoice::Auto) => Gpu::open_backend(backend, adapter, device, None),
        (Some(native @ (Backend::Cuda | Backend::Hip)), SubgroupChoice::Emulated(_)) => {
            Err(Error::Usage(format!(
                "--subgroups emulated applies to wgpu adapters; {native} has hardware subgroups only"
            )))
        }
        (_, SubgroupChoice::Emulated(_)) => Gpu::open(&AdapterChoice {
            name: adapter,
            backend,
            subgroups,
        }),
    }
}

/// `--subgroups`: `auto`, `emulated` or `emulated:S`.
pub fn parse_subgroups(text: &str) -> Result<SubgroupChoice, String> {
    text.parse().map_err(|e: Error| e.to_string())
}

/// The device's back end, as `--backend` spells it: `vulkan`, `metal`,
/// `dx12` or `gl` for a wgpu adapter, `cuda` or `hip`.
pub fn backend_name(gpu: &Gpu) -> &'static str {
    gpu.target().backend.name()
}

/// Deterministic pseudo-random input.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// `n` random u32 below `bound`.
pub fn random_u32(n: usize, bound: u32, seed: u64) -> Vec<u32> {
    let mut rng = rng(seed);
    (0..n).map(|_| rng.random_range(0..bound)).collect()
}

/// Little-endian bytes of 32-bit words.
pub fn bytes_of<T: bytemuck::Pod>(values: &[T]) -> &[u8] {
    bytemuck::cast_slice(values)
}

/// Words of a read-back buffer.
pub fn words_of<T: bytemuck::Pod>(bytes: &[u8]) -> Vec<T> {
    bytemuck::pod_collect_to_vec(bytes)
}

/// Workgroups for `n` items at `per_group` items each.
pub fn groups(n: usize, per_group: usize) -> u32 {
    n.div_ceil(per_group).max(1) as u32
}

/// The most workgroups one dispatch dimension may have.
const MAX_GROUPS_PER_DIMENSION: u32 = 65535;

/// A dispatch of at least `count` workgroups: one-dimensional up to 65535,
/// then spilling into y. Shaders take the linear workgroup index as
/// `wid.x + wid.y * nwg.x` and let indices at or past `count` return.
pub fn grid(count: u32) -> [u32; 3] {
    if count <= MAX_GROUPS_PER_DIMENSION {
        [count.max(1), 1, 1]
    } else {
        [
            MAX_GROUPS_PER_DIMENSION,
            count.div_ceil(MAX_GROUPS_PER_DIMENSION),
            1,
        ]
    }
}

/// The first index where `got` and `want` differ, as an error.
pub fn check_equal<T: PartialEq + std::fmt::Debug>(
    demo: &str,
    variant: &str,
    got: &[T],
    want: &[T],
) -> Result<(), Error> {
    if got.len() != want.len() {
        return Err(Error::Gpu(format!(
            "{demo} {variant}: {} results, want {}",
            got.len(),
            want.len()
        )));
    }
    let wrong: Vec<usize> = (0..got.len()).filter(|&i| got[i] != want[i]).collect();
    match wrong.first() {
        Some(&i) => Err(Error::Gpu(format!(
            "{demo} {variant}: {} of {} results wrong, the first at index {i}: got {:?}, want {:?}; wrong indices begin {:?}",
            wrong.len(),
            got.len(),
            got[i],
            want[i],
            &wrong[..wrong.len().min(8)]
        ))),
        None => Ok(()),
    }
}
