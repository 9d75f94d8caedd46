//! `compact`: stream compaction with `ballot` and lane masks
//! (`shaders/compact.wgsl`): tile counts, the device scan of them, then a
//! scatter that ranks each kept element inside its subgroup by popcount.

use wavekit::Error;
use wavekit::runner::{Kernel, Step};

use crate::harness::{Ctx, Report, bytes_of, check_equal, grid, random_u32, words_of};
use crate::scan::DeviceScan;
use crate::{Demo, Prepared, unknown_variant};

const SHADER: &str = include_str!("../shaders/compact.wgsl");
const TILE: usize = 1024;
/// Elements below this are kept (about half of uniform u32).
const THRESHOLD: u32 = 0x8000_0000;

/// The `compact` demo.
pub struct Compact;

impl Demo for Compact {
    fn name(&self) -> &'static str {
        "compact"
    }

    /// `u32_half`: keep the u32 below 2^31 (half of them).
    fn variants(&self) -> &'static [&'static str] {
        &["u32_half"]
    }

    fn prepare<'c>(
        &self,
        ctx: &'c Ctx<'c>,
        variant: &str,
    ) -> Result<Box<dyn Prepared + 'c>, Error> {
        if !self.variants().contains(&variant) {
            return Err(unknown_variant(self, variant));
        }
        let module = ctx.compose(SHADER, "compact.wgsl", &[])?;
        let [count_tiles, scatter] = ctx.kernels(&module, ["count_tiles", "scatter"])?;
        Ok(Box::new(PreparedCompact {
            ctx,
            scan: DeviceScan::new(ctx, None)?,
            count_tiles,
            scatter,
        }))
    }
}

struct PreparedCompact<'c> {
    ctx: &'c Ctx<'c>,
    scan: DeviceScan<'c>,
    count_tiles: Kernel,
    scatter: Kernel,
}

impl Prepared for PreparedCompact<'_> {
    fn run(&self, n: usize, seed: u64) -> Result<Report, Error> {
        let gpu = self.ctx.gpu;
        let input = random_u32(n, u32::MAX, seed);
        let tiles = n.div_ceil(TILE);
        // The scan takes a multiple of 4 elements; the padding stays zero.
        let padded_tiles = tiles.next_multiple_of(4);
        let input_buffer = gpu.upload(bytes_of(&input))?;
        let output = gpu.buffer(4 * n as u64)?;
        let tile_counts = gpu.buffer(4 * padded_tiles as u64)?;
        let tile_offsets = gpu.buffer(4 * padded_tiles as u64)?;
        let count = gpu.buffer(4)?;
        let scratch = self.scan.scratch(padded_tiles)?;
        let buffers = [&input_buffer, &output, &tile_counts, &tile_offsets, &count];
        let mut steps = vec![Step::dispatch(
            &self.count_tiles,
            &buffers,
            grid(tiles as u32),
        )];
        steps.extend(self.scan.steps(&tile_counts, &tile_offsets, &scratch));
        steps.push(Step::dispatch(&self.scatter, &buffers, grid(tiles as u32)));
        let timing = self.ctx.run(&steps)?;
        let want: Vec<u32> = input.iter().copied().filter(|&x| x < THRESHOLD).collect();
        let got_count = words_of::<u32>(&gpu.read(&count)?)[0] as usize;
        if got_count != want.len() {
            return Err(Error::Gpu(format!(
                "compact: counted {got_count} kept elements, want {}",
                want.len()
            )));
        }
        let got: Vec<u32> = words_of(&gpu.read(&output)?);
        check_equal("compact", "u32_half", &got[..got_count], &want)?;
        Ok(Report::new(
            "compact",
            "u32_half",
            self.ctx,
            &format!(
                "ballot + lanemask_lt ranks per subgroup, tile offsets by the device scan ({})",
                self.scan.algorithm().describe()
            ),
            n,
            4 * (n + want.len()) as u64,
            timing,
        ))
    }
}
