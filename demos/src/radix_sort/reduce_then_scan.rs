//! The reduce-then-scan sort (`shaders/radix_sort.wgsl`), for adapters
//! without the look-back's forward-progress guarantee: per pass an upsweep
//! counting each partition's digits, the device scan of the count matrix,
//! and a downsweep ranking 256-key slices with
//! `block::radix_rank_match_atomic_or` and scattering.

use wavekit::Error;
use wavekit::runner::{Buffer, Kernel, Step};

use super::{SHIFTS, SortBuffers};
use crate::harness::{Ctx, grid};
use crate::scan::{DeviceScan, ScanScratch};

static SHADER: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    wavekit::device::shaders::source("radix_sort.wgsl").expect("a device shader")
});
/// Keys per tile: 256 threads × 8.
const TILE: usize = 2048;
/// Digits per pass.
const RADIX: usize = 256;
/// The most partitions (workgroups) of a pass: a few waves of resident
/// workgroups on an H100 (132 SMs × 8 workgroups of 256 threads), and a
/// count matrix of at most 1 Mi entries.
const MAX_PARTITIONS: usize = 4096;

struct Pass {
    upsweep: Kernel,
    downsweep: Kernel,
}

/// The kernels of the reduce-then-scan sort, composed for one device.
pub struct ReduceThenScan<'c> {
    passes: Vec<Pass>,
    scan: DeviceScan<'c>,
}

/// The sort's scratch buffers for one key count.
pub struct ReduceThenScanScratch {
    counts: Buffer,
    offsets: Buffer,
    scan: ScanScratch,
    partitions: u32,
}

impl<'c> ReduceThenScan<'c> {
    /// Composes the four passes for `ctx`'s device; `pairs` moves values
    /// with the keys.
    pub fn new(ctx: &'c Ctx<'c>, pairs: bool) -> Result<Self, Error> {
        let pairs_decl = format!("const PAIRS = {pairs};");
        let mut passes = Vec::new();
        for shift in SHIFTS {
            let shift_decl = format!("const SHIFT = {shift}u;");
            let module = ctx.compose(
                &SHADER,
                "radix_sort.wgsl",
                &[
                    ("const SHIFT = 0u;", &shift_decl),
                    ("const PAIRS = false;", &pairs_decl),
                ],
            )?;
            let [upsweep, downsweep] = ctx.kernels(&module, ["upsweep", "downsweep"])?;
            passes.push(Pass { upsweep, downsweep });
        }
        Ok(ReduceThenScan {
            passes,
            scan: DeviceScan::new(ctx, None)?,
        })
    }

    /// What the sort does, in words, for reports.
    pub fn describe(&self) -> String {
        format!(
            "LSD radix sort, 4 passes of 8 bits: upsweep digit counts, device scan ({}), \
             downsweep ranking 256-key slices with block::radix_rank_match_atomic_or and \
             scattering",
            self.scan.algorithm().describe()
        )
    }

    /// Scratch for sorting `n` keys.
    pub fn scratch(&self, ctx: &Ctx<'_>, n: usize) -> Result<ReduceThenScanScratch, Error> {
        let partitions = n.div_ceil(TILE).clamp(1, MAX_PARTITIONS);
        let matrix = (4 * RADIX * partitions) as u64;
        Ok(ReduceThenScanScratch {
            counts: ctx.gpu.buffer(matrix)?,
            offsets: ctx.gpu.buffer(matrix)?,
            scan: self.scan.scratch(RADIX * partitions)?,
            partitions: partitions as u32,
        })
    }

    /// The whole sort: input → 1 → 2 → 1 → 2 (buffer 0 is only read).
    pub fn steps<'b>(
        &'b self,
        b: &'b SortBuffers,
        scratch: &'b ReduceThenScanScratch,
    ) -> Vec<Step<'b>> {
        let mut steps = Vec::new();
        let workgroups = grid(scratch.partitions);
        for (pass, kernels) in self.passes.iter().enumerate() {
            let (src, dst) = super::ping_pong(pass);
            let buffers = [
                &b.keys[src],
                &b.keys[dst],
                &b.values[src],
                &b.values[dst],
                &scratch.counts,
                &scratch.offsets,
            ];
            steps.push(Step::dispatch(&kernels.upsweep, &buffers, workgroups));
            steps.extend(
                self.scan
                    .steps(&scratch.counts, &scratch.offsets, &scratch.scan),
            );
            steps.push(Step::dispatch(&kernels.downsweep, &buffers, workgroups));
        }
        steps
    }
}
