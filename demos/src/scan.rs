//! `scan`: device-wide exclusive prefix sum of u32 (`shaders/scan.wgsl`),
//! single pass with decoupled look-back where the device lets spinning
//! workgroups wait on each other, reduce-then-scan elsewhere.
//!
//! Through wgpu and CUDA the demo runs [`wavekit::device::Scan`], so its
//! timings are the library's; on HIP (or with `WAVEKIT_DEMOS_LIBRARY=0`) it
//! runs [`DeviceScan`]'s steps over the same shader. [`DeviceScan`] is also
//! the scan the radix sort's reduce-then-scan steps use.

use wavekit::Error;
use wavekit::device::Queue;
use wavekit::runner::{Buffer, Gpu, Kernel, Step};

use crate::harness::{Ctx, Report, bytes_of, check_equal, grid, random_u32, words_of};
use crate::{Demo, Prepared, unknown_variant};

static SHADER: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    wavekit::device::shaders::source("scan.wgsl").expect("a device shader")
});
/// Elements per tile (256 threads × 8 vec4s).
const TILE: usize = 8192;

/// How the tiles learn the sum of the tiles before them: the library's
/// choice, [`wavekit::device::ScanAlgorithm`].
pub use wavekit::device::ScanAlgorithm;

/// The algorithm for `gpu`: the single pass (look-back with fallback) on
/// the native back ends and, by [`ScanAlgorithm::for_adapter`], on every
/// wgpu adapter, emulated subgroups included.
pub fn algorithm_for(gpu: &Gpu) -> ScanAlgorithm {
    match gpu.wgpu() {
        None => ScanAlgorithm::DecoupledLookBack,
        Some(device) => ScanAlgorithm::for_adapter(device.info()),
    }
}

/// Scratch buffers of one scan size.
pub struct ScanScratch {
    tile_state: Buffer,
    tile_counter: Buffer,
    tiles: u32,
}

/// The device scan's kernels on one device.
pub struct DeviceScan<'c> {
    ctx: &'c Ctx<'c>,
    algorithm: ScanAlgorithm,
    lookback: Kernel,
    tile_reduce: Kernel,
    scan_tile_sums: Kernel,
    tile_scan: Kernel,
}

impl<'c> DeviceScan<'c> {
    /// Kernels for `ctx`'s device; `algorithm` `None` picks
    /// [`algorithm_for`].
    pub fn new(ctx: &'c Ctx<'c>, algorithm: Option<ScanAlgorithm>) -> Result<Self, Error> {
        // Emulated subgroups: thread 0 walks back alone (`WINDOW` in
        // look_back.wgsl), as wavekit::device does.
        let edits: &[(&str, &str)] = if ctx.gpu.target().is_emulated() {
            &[("const WINDOW = true;", "const WINDOW = false;")]
        } else {
            &[]
        };
        let module = ctx.compose(&SHADER, "scan.wgsl", edits)?;
        let [lookback, tile_reduce, scan_tile_sums, tile_scan] = ctx.kernels(
            &module,
            [
                "scan_lookback",
                "tile_reduce",
                "scan_tile_sums",
                "tile_scan",
            ],
        )?;
        Ok(DeviceScan {
            ctx,
            algorithm: algorithm.unwrap_or_else(|| algorithm_for(ctx.gpu)),
            lookback,
            tile_reduce,
            scan_tile_sums,
            tile_scan,
        })
    }

    /// The algorithm its steps use.
    pub fn algorithm(&self) -> ScanAlgorithm {
        self.algorithm
    }

    /// Scratch for scanning `n` u32 (`n` a positive multiple of 4).
    pub fn scratch(&self, n: usize) -> Result<ScanScratch, Error> {
        if n == 0 || !n.is_multiple_of(4) {
            return Err(Error::Usage(format!(
                "the device scan takes a positive multiple of 4 elements, not {n}"
            )));
        }
        let tiles = n.div_ceil(TILE);
        Ok(ScanScratch {
            tile_state: self.ctx.gpu.buffer(8 * tiles as u64)?,
            tile_counter: self.ctx.gpu.buffer(4)?,
            tiles: tiles as u32,
        })
    }

    /// Steps writing the exclusive prefix sum of `input` (all of it, u32)
    /// into `output` (the same size, another buffer). The look-back's leading
    /// clears of its tile state are steps too, so a program may run them
    /// any number of times.
    pub fn steps<'b>(
        &'b self,
        input: &'b Buffer,
        output: &'b Buffer,
        scratch: &'b ScanScratch,
    ) -> Vec<Step<'b>> {
        let buffers = [input, output, &scratch.tile_state, &scratch.tile_counter];
        let tiles = grid(scratch.tiles);
        match self.algorithm {
            ScanAlgorithm::DecoupledLookBack => vec![
                Step::Zero(&scratch.tile_state),
                Step::Zero(&scratch.tile_counter),
                Step::dispatch(&self.lookback, &buffers, tiles),
            ],
            ScanAlgorithm::ReduceThenScan => vec![
                Step::dispatch(&self.tile_reduce, &buffers, tiles),
                Step::dispatch(&self.scan_tile_sums, &buffers, [1, 1, 1]),
                Step::dispatch(&self.tile_scan, &buffers, tiles),
            ],
        }
    }
}

/// The `scan` demo.
pub struct Scan;

/// The operator scan's variant.
const MAX: &str = "inclusive_max_u32";

impl Demo for Scan {
    fn name(&self) -> &'static str {
        "scan"
    }

    /// `auto` picks the algorithm for the device; `lookback` and
    /// `reduce_then_scan` force one; `inclusive_max_u32` is the library's
    /// operator scan (`Scan::with_operator`, inclusive u32 max: CUB's
    /// `DeviceScan::InclusiveScan` with `cuda::maximum`), by the device's
    /// algorithm.
    fn variants(&self) -> &'static [&'static str] {
        &["auto", "lookback", "reduce_then_scan", "inclusive_max_u32"]
    }

    fn prepare<'c>(
        &self,
        ctx: &'c Ctx<'c>,
        variant: &str,
    ) -> Result<Box<dyn Prepared + 'c>, Error> {
        let algorithm = match variant {
            "auto" | MAX => None,
            "lookback" => Some(ScanAlgorithm::DecoupledLookBack),
            "reduce_then_scan" => Some(ScanAlgorithm::ReduceThenScan),
            _ => return Err(unknown_variant(self, variant)),
        };
        let scan = DeviceScan::new(ctx, algorithm)?;
        // The library runs (so the benchmark measures it) unless asked
        // not to, and on HIP the demo's own steps over the same shader.
        let library = match ctx.library_device() {
            Some(device) if variant == MAX => Some(wavekit::device::Scan::with_operator(
                device,
                wavekit::device::ScanKind::Inclusive,
                wavekit::Dtype::U32,
                wavekit::device::ScanOperator::Max,
            )?),
            Some(device) => Some(
                wavekit::device::Scan::exclusive_sum(device, wavekit::Dtype::U32)?
                    .with_algorithm(scan.algorithm()),
            ),
            None if variant == MAX => {
                return Err(Error::Usage(format!(
                    "scan {MAX}: the library's operator scan, which runs through wgpu and CUDA only"
                )));
            }
            None => None,
        };
        Ok(Box::new(PreparedScan {
            scan,
            library,
            variant: variant.to_string(),
        }))
    }
}

struct PreparedScan<'c> {
    scan: DeviceScan<'c>,
    library: Option<wavekit::device::Scan>,
    variant: String,
}

impl Prepared for PreparedScan<'_> {
    fn run(&self, n: usize, seed: u64) -> Result<Report, Error> {
        let ctx = self.scan.ctx;
        let input = random_u32(n, u32::MAX, seed);
        let input_buffer = ctx.gpu.upload(bytes_of(&input))?;
        let output = ctx.gpu.buffer(4 * n as u64)?;
        let timing = match &self.library {
            Some(library) => {
                let temp = ctx.gpu.buffer(library.temp_storage_bytes(n as u32))?;
                let record = |queue: Queue<'_>| {
                    library.record(
                        queue,
                        input_buffer.slice(),
                        output.slice(),
                        n as u32,
                        temp.slice(),
                    )
                };
                ctx.run(&[Step::Record(&record)])?
            }
            None => {
                let scratch = self.scan.scratch(n)?;
                ctx.run(&self.scan.steps(&input_buffer, &output, &scratch))?
            }
        };
        let got: Vec<u32> = words_of(&ctx.gpu.read(&output)?);
        let want: Vec<u32> = if self.variant == MAX {
            input
                .iter()
                .scan(0u32, |max, &x| {
                    *max = (*max).max(x);
                    Some(*max)
                })
                .collect()
        } else {
            input
                .iter()
                .scan(0u32, |sum, &x| {
                    let before = *sum;
                    *sum = sum.wrapping_add(x);
                    Some(before)
                })
                .collect()
        };
        check_equal("scan", &self.variant, &got, &want)?;
        Ok(Report::new(
            "scan",
            &self.variant,
            ctx,
            self.scan.algorithm().describe(),
            n,
            8 * n as u64,
            timing,
        ))
    }
}
