//! `compact`: stream compaction with `ballot` and lane masks
//! (`src/device/shaders/compact.wgsl`): each kept element is ranked inside
//! its subgroup by popcount, and the tiles learn how many elements the
//! tiles before them kept either by decoupled look-back in the same pass or
//! by a count pass and the device scan of the counts (three passes), chosen
//! per device as the scan is ([`crate::scan::algorithm_for`]).
//!
//! Through wgpu the demo records [`wavekit::device::SelectIf`] (the
//! shader's default predicate, as WGSL), so its timings are the library's,
//! the zeroing of the look-back state included; on CUDA and HIP (and with
//! `WAVEKIT_DEMOS_LIBRARY=0`) its own steps over the same shader, whose
//! leading zeros are not timed
//! ([`Ctx::library_device`](crate::harness::Ctx::library_device)).

use wavekit::Error;
use wavekit::device::Queue;
use wavekit::runner::{Buffer, Kernel, Step};

use crate::harness::{Ctx, Report, Timing, bytes_of, check_equal, grid, random_u32, words_of};
use crate::scan::{DeviceScan, ScanAlgorithm};
use crate::{Demo, Prepared, unknown_variant};

static SHADER: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    wavekit::device::shaders::source("compact.wgsl").expect("a device shader")
});
/// The predicate, as the library takes it (the shader's default).
const PREDICATE: &str = "fn keep(x: u32) -> bool { return x < 0x80000000u; }";
/// Elements per tile (256 threads × 16).
const TILE: usize = 4096;
/// Elements below this are kept (about half of uniform u32).
const THRESHOLD: u32 = 0x8000_0000;
/// The single pass publishes counts in 30 bits.
const MAX_LOOKBACK_ELEMENTS: usize = 1 << 30;

/// The `compact` demo.
pub struct Compact;

impl Demo for Compact {
    fn name(&self) -> &'static str {
        "compact"
    }

    /// `u32_half`: keep the u32 below 2^31 (half of them), with the
    /// algorithm chosen for the device; `u32_half_lookback` and
    /// `u32_half_three_pass` force one.
    fn variants(&self) -> &'static [&'static str] {
        &["u32_half", "u32_half_lookback", "u32_half_three_pass"]
    }

    fn prepare<'c>(
        &self,
        ctx: &'c Ctx<'c>,
        variant: &str,
    ) -> Result<Box<dyn Prepared + 'c>, Error> {
        let algorithm = match variant {
            "u32_half" => crate::scan::algorithm_for(ctx.gpu),
            "u32_half_lookback" => ScanAlgorithm::DecoupledLookBack,
            "u32_half_three_pass" => ScanAlgorithm::ReduceThenScan,
            _ => return Err(unknown_variant(self, variant)),
        };
        // Emulated subgroups: thread 0 walks back alone (`WINDOW` in
        // look_back.wgsl), as wavekit::device does.
        let emulated = ctx.gpu.target().is_emulated();
        let edits: &[(&str, &str)] = if emulated {
            &[("const WINDOW = true;", "const WINDOW = false;")]
        } else {
            &[]
        };
        // The library selects (so the benchmark measures it) unless asked
        // not to, and on HIP.
        let library = match ctx.library_device() {
            Some(device) => Some(
                wavekit::device::SelectIf::new(device, wavekit::Dtype::U32, PREDICATE)?
                    .with_algorithm(algorithm),
            ),
            None => None,
        };
        let module = ctx.compose(&SHADER, "compact.wgsl", edits)?;
        let plan = match algorithm {
            ScanAlgorithm::DecoupledLookBack => {
                let [select] = ctx.kernels(&module, ["select_lookback"])?;
                Plan::LookBack { select }
            }
            ScanAlgorithm::ReduceThenScan => {
                let [count_tiles, scatter] = ctx.kernels(&module, ["count_tiles", "scatter"])?;
                Plan::ThreePass {
                    scan: Box::new(DeviceScan::new(ctx, Some(algorithm))?),
                    count_tiles,
                    scatter,
                }
            }
        };
        Ok(Box::new(PreparedCompact {
            ctx,
            variant: variant.to_string(),
            library,
            plan,
        }))
    }
}

/// The kernels of one algorithm.
enum Plan<'c> {
    /// `select_lookback` alone.
    LookBack { select: Kernel },
    /// `count_tiles`, the device scan of the counts, `scatter`.
    ThreePass {
        scan: Box<DeviceScan<'c>>,
        count_tiles: Kernel,
        scatter: Kernel,
    },
}

struct PreparedCompact<'c> {
    ctx: &'c Ctx<'c>,
    variant: String,
    library: Option<wavekit::device::SelectIf>,
    plan: Plan<'c>,
}

impl Prepared for PreparedCompact<'_> {
    fn run(&self, n: usize, seed: u64) -> Result<Report, Error> {
        if matches!(self.plan, Plan::LookBack { .. }) && n >= MAX_LOOKBACK_ELEMENTS {
            return Err(Error::Usage(format!(
                "the single-pass compaction takes fewer than 2^30 elements, not {n}"
            )));
        }
        let gpu = self.ctx.gpu;
        let input = random_u32(n, u32::MAX, seed);
        let tiles = n.div_ceil(TILE);
        // The scan takes a multiple of 4 elements; the padding stays zero.
        let padded_tiles = tiles.next_multiple_of(4);
        let input_buffer = gpu.upload(bytes_of(&input))?;
        let output = gpu.buffer(4 * n as u64)?;
        if let Some(library) = &self.library {
            let count = gpu.buffer(4)?;
            let temp = gpu.buffer(library.temp_storage_bytes(n as u32))?;
            let record = |queue: Queue<'_>| {
                library.record(
                    queue,
                    input_buffer.slice(),
                    output.slice(),
                    count.slice(),
                    n as u32,
                    temp.slice(),
                )
            };
            let timing = self.ctx.run(&[Step::Record(&record)])?;
            return self.check(&input, &output, &count, timing, library.describe());
        }
        let tile_counts = gpu.buffer(4 * padded_tiles as u64)?;
        let tile_offsets = gpu.buffer(4 * padded_tiles as u64)?;
        let count = gpu.buffer(4)?;
        let buffers = [&input_buffer, &output, &tile_counts, &tile_offsets, &count];
        let groups = grid(tiles as u32);
        match &self.plan {
            Plan::LookBack { select } => {
                let steps = [
                    Step::Zero(&tile_counts),
                    Step::Zero(&tile_offsets),
                    Step::dispatch(select, &buffers, groups),
                ];
                let timing = self.ctx.run(&steps)?;
                let how =
                    "ballot + lanemask_lt ranks per subgroup; single pass, decoupled look-back";
                self.check(&input, &output, &count, timing, how)
            }
            Plan::ThreePass {
                scan,
                count_tiles,
                scatter,
            } => {
                let scratch = scan.scratch(padded_tiles)?;
                let mut steps = vec![Step::dispatch(count_tiles, &buffers, groups)];
                steps.extend(scan.steps(&tile_counts, &tile_offsets, &scratch));
                steps.push(Step::dispatch(scatter, &buffers, groups));
                let how = format!(
                    "ballot + lanemask_lt ranks per subgroup; tile counts, the device scan of \
                     them ({}), scatter",
                    scan.algorithm().describe()
                );
                let timing = self.ctx.run(&steps)?;
                self.check(&input, &output, &count, timing, &how)
            }
        }
    }
}

impl PreparedCompact<'_> {
    /// Checks the output against the CPU and reports (`algorithm`: what
    /// ran, in words).
    fn check(
        &self,
        input: &[u32],
        output: &Buffer,
        count: &Buffer,
        timing: Option<Timing>,
        algorithm: &str,
    ) -> Result<Report, Error> {
        let gpu = self.ctx.gpu;
        let want: Vec<u32> = input.iter().copied().filter(|&x| x < THRESHOLD).collect();
        let got_count = words_of::<u32>(&gpu.read(count)?)[0] as usize;
        if got_count != want.len() {
            return Err(Error::Gpu(format!(
                "compact {}: counted {got_count} kept elements, want {}",
                self.variant,
                want.len()
            )));
        }
        let got: Vec<u32> = words_of(&gpu.read(output)?);
        check_equal("compact", &self.variant, &got[..got_count], &want)?;
        Ok(Report::new(
            "compact",
            &self.variant,
            self.ctx,
            algorithm,
            input.len(),
            4 * (input.len() + want.len()) as u64,
            timing,
        ))
    }
}
