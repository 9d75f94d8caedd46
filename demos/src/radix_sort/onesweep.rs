//! The OneSweep-style sort (`shaders/radix_onesweep.wgsl`): one histogram
//! kernel for all four digits, one scan of the digit counts, then one kernel
//! per pass that ranks a tile with subgroup ballots, finds its digits' output
//! offsets by decoupled look-back and scatters. Through wgpu one module serves
//! every pass (a pass reads its number from the length of its `pass_info`
//! buffer); natively each pass has its own, as `wavekit::device`'s.

use wavekit::Error;
use wavekit::runner::{Buffer, Kernel, Step};

use super::{SHIFTS, SortBuffers};
use crate::harness::{Ctx, grid};

/// The shader, before the host's edits ([`PassConfig::edits`]).
pub static SOURCE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    wavekit::device::shaders::source("radix_onesweep.wgsl").expect("a device shader")
});
/// Digits per pass.
const RADIX: usize = 256;
/// The most workgroups of the histogram kernel: enough to fill a large GPU,
/// few enough that each adds its counts to the 1024 global ones once.
const MAX_HISTOGRAM_GROUPS: usize = 1024;
/// The subgroup sizes the shader's rank handles (its ballots are 128 bits).
const SUBGROUP_SIZES: std::ops::RangeInclusive<u32> = 4..=128;

/// Workgroup shape of the pass kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Threads per workgroup.
    pub block: u32,
    /// Keys per thread and tile.
    pub items: u32,
    /// Natively, the workgroups an SM is to hold at once (the kernels'
    /// registers are kept to that); `None` leaves the registers to the
    /// code generator.
    pub resident: Option<u32>,
    /// The tile staged in the counter rows' workgroup memory
    /// (`STAGE_IN_COUNTERS`): through wgpu, where NVIDIA's Vulkan driver
    /// then holds more workgroups an SM (see `shape_for`).
    pub stage_in_counters: bool,
    /// The parts in which the tile is staged and written out
    /// (`STAGE_PARTS`; 1: whole). Divides `items`.
    pub stage_parts: u32,
}

/// Everything the host edits into the shader's constants for one device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassConfig {
    /// The pass kernel's shape.
    pub shape: Shape,
    /// Whether values move with the keys.
    pub pairs: bool,
    /// The device's subgroup sizes.
    pub subgroups: std::ops::RangeInclusive<u32>,
    /// Spin with atomicOr(x, 0) (CPU adapters) rather than atomicLoad.
    pub spin_with_rmw: bool,
    /// The native CUDA back end: the rank as `wavekit::device` builds it
    /// there (CUB's ballots, and full-word counters with values).
    pub cuda: bool,
    /// One module for every pass, the pass read at run time (wgpu), rather
    /// than `const PASS` edited per pass (natively). Through wgpu the keys
    /// alone also use their counting atomics' results
    /// (`RETURNING_COUNTS`, as the library), and full tiles skip the
    /// per-key tests (`FULL_TILES`, as the library); natively values are
    /// loaded late (`LATE_VALUES`, as the library).
    pub runtime_pass: bool,
}

impl PassConfig {
    /// The (declaration, replacement) edits of [`SOURCE`], but for `PASS`.
    pub fn edits(&self) -> Vec<(&'static str, String)> {
        let shape = self.shape;
        vec![
            (
                "const PAIRS = false;",
                format!("const PAIRS = {};", self.pairs),
            ),
            (
                "const BLOCK = 256u;",
                format!("const BLOCK = {}u;", shape.block),
            ),
            (
                "const ITEMS = 8u;",
                format!("const ITEMS = {}u;", shape.items),
            ),
            (
                "const SUBGROUPS = 8u;",
                format!(
                    "const SUBGROUPS = {}u;",
                    shape.block / self.subgroups.start()
                ),
            ),
            (
                "const SPIN_WITH_RMW = true;",
                format!("const SPIN_WITH_RMW = {};", self.spin_with_rmw),
            ),
            (
                "const NARROW = false;",
                format!("const NARROW = {};", *self.subgroups.end() <= 32),
            ),
            (
                "const PEERS = 0u;",
                format!("const PEERS = {}u;", if self.cuda { 2 } else { 0 }),
            ),
            (
                "const WIDE_COUNTERS = false;",
                format!("const WIDE_COUNTERS = {};", self.cuda && self.pairs),
            ),
            (
                "const STAGE_IN_COUNTERS = false;",
                format!("const STAGE_IN_COUNTERS = {};", shape.stage_in_counters),
            ),
            (
                "const STAGE_PARTS = 1u;",
                format!("const STAGE_PARTS = {}u;", shape.stage_parts),
            ),
            (
                "const RUNTIME_PASS = true;",
                format!("const RUNTIME_PASS = {};", self.runtime_pass),
            ),
            (
                "const FULL_TILES = true;",
                format!("const FULL_TILES = {};", self.runtime_pass),
            ),
            (
                "const LATE_VALUES = false;",
                format!("const LATE_VALUES = {};", self.pairs && !self.runtime_pass),
            ),
            (
                "const RETURNING_COUNTS = false;",
                format!(
                    "const RETURNING_COUNTS = {};",
                    self.runtime_pass && !self.pairs
                ),
            ),
        ]
    }
}

impl Shape {
    /// The shape on the native back ends (CUDA, HIP), as the library's:
    /// 512 × 16 for two workgroups a multiprocessor (measured: see
    /// `shape_for`).
    pub fn native() -> Shape {
        Shape {
            block: 512,
            items: 16,
            resident: Some(2),
            stage_in_counters: false,
            stage_parts: 1,
        }
    }

    /// Workgroup memory of the pass kernel at subgroups of at least `min`
    /// lanes (bytes), as the library counts it.
    fn workgroup_bytes(self, min: u32) -> u64 {
        wavekit::device::shaders::onesweep_workgroup_bytes(
            self.block,
            self.items,
            min,
            self.stage_in_counters,
            self.stage_parts,
        )
    }
}

/// The first shape the device holds of: on the native back ends 512 × 16
/// for two workgroups a multiprocessor, then 512 × 6, 256 × 8 and 128 × 8;
/// through wgpu 512 × 12 with the tile staged in the counter rows in two
/// parts (512 × 10 staged whole with values), 256 × 8 and 128 × 8, as the
/// library, whose `Shape::for_context` has the measurements. 512 threads
/// need subgroups of at least 16 lanes (the counter rows) and the
/// adapter's limits; 128 serves 4-lane subgroups.
fn shape_for(ctx: &Ctx<'_>, min: u32, pairs: bool) -> Result<Shape, Error> {
    if let Some(forced) = forced_shape()? {
        return Ok(forced);
    }
    let shape = |block, items| Shape {
        block,
        items,
        resident: None,
        stage_in_counters: false,
        stage_parts: 1,
    };
    let fits = |shape: Shape| match ctx.gpu.wgpu() {
        None => true,
        Some(device) => {
            let limits = device.device().limits();
            limits.max_compute_invocations_per_workgroup >= shape.block
                && u64::from(limits.max_compute_workgroup_storage_size)
                    >= shape.workgroup_bytes(min)
        }
    };
    let wide = match ctx.gpu.wgpu() {
        None => vec![Shape::native(), shape(512, 6)],
        Some(_) if pairs => vec![Shape {
            stage_in_counters: true,
            ..shape(512, 10)
        }],
        Some(_) => vec![Shape {
            stage_in_counters: true,
            stage_parts: 2,
            ..shape(512, 12)
        }],
    };
    if min >= 16
        && let Some(best) = wide.into_iter().find(|s| fits(*s))
    {
        return Ok(best);
    }
    Ok(if min >= 8 {
        shape(256, 8)
    } else {
        shape(128, 8)
    })
}

/// The environment variable that forces a pass kernel shape, for
/// benchmarking: `BLOCKxITEMS[s[PARTS]][rRESIDENT]`, e.g. `512x15`,
/// `512x10s` (`s`: the tile staged in the counter rows,
/// `STAGE_IN_COUNTERS`, as through wgpu by default), `512x15s3` (staged
/// in 3 parts, `STAGE_PARTS`; `PARTS` divides `ITEMS`) or `384x20r2`
/// (natively, registers for 2 resident workgroups per SM).
pub const SHAPE_ENV: &str = "WAVEKIT_ONESWEEP_SHAPE";

fn forced_shape() -> Result<Option<Shape>, Error> {
    match std::env::var(SHAPE_ENV) {
        Ok(text) => parse_shape(&text).map(Some),
        Err(_) => Ok(None),
    }
}

/// A shape written as [`SHAPE_ENV`] takes it; an error names the text and
/// what it should be.
fn parse_shape(text: &str) -> Result<Shape, Error> {
    let bad = || {
        Error::Usage(format!(
            "{SHAPE_ENV}=`{text}`: expected BLOCKxITEMS[s[PARTS]][rRESIDENT] with BLOCK 128, \
             256, 384 or 512, ITEMS 1..=32, PARTS dividing ITEMS and RESIDENT 1..=8 (s: the \
             tile staged in the counter rows, in PARTS parts)"
        ))
    };
    let (block, rest) = text.split_once('x').ok_or_else(bad)?;
    let (items, resident) = match rest.split_once('r') {
        Some((items, resident)) => (items, Some(resident.parse().map_err(|_| bad())?)),
        None => (rest, None),
    };
    let (items, stage_in_counters, stage_parts) = match items.split_once('s') {
        Some((items, "")) => (items, true, 1),
        Some((items, parts)) => (items, true, parts.parse().map_err(|_| bad())?),
        None => (items, false, 1),
    };
    let block: u32 = block.parse().map_err(|_| bad())?;
    let items: u32 = items.parse().map_err(|_| bad())?;
    if ![128, 256, 384, 512].contains(&block)
        || !(1..=32).contains(&items)
        || stage_parts == 0
        || !items.is_multiple_of(stage_parts)
        || resident.is_some_and(|r: u32| !(1..=8).contains(&r))
    {
        return Err(bad());
    }
    Ok(Shape {
        block,
        items,
        resident,
        stage_in_counters,
        stage_parts,
    })
}

/// The parameters `wavekit::device::debug::with_shader_params` gives on
/// this thread (`WAVEKIT_SHADER_PARAMS`, `main.rs`) as edits of the
/// shader's `const NAME = ...;` lines, so that the demo's own steps
/// (`WAVEKIT_DEMOS_LIBRARY=0`, e.g. with a forced shape) measure the same
/// variants as the library; as there, a name the shader does not declare
/// is left to the shaders that do.
fn shader_params() -> Vec<(&'static str, String)> {
    let source: &'static str = SOURCE.as_str();
    wavekit::device::debug::shader_params()
        .into_iter()
        .filter_map(|(name, value)| {
            let head = format!("const {name} = ");
            let line = source.lines().find(|line| line.starts_with(&head))?;
            Some((line, format!("{head}{value};")))
        })
        .collect()
}

/// The kernels of the OneSweep sort, composed for one device.
pub struct OneSweep {
    histogram: Kernel,
    digit_offsets: Kernel,
    /// The pass kernel: one for every pass (wgpu) or one per pass.
    onesweep: Vec<Kernel>,
    shape: Shape,
}

/// The sort's scratch buffers for one key count.
pub struct OneSweepScratch {
    digits: Buffer,
    tile_state: Buffer,
    tile_counter: Buffer,
    /// Pass p's `pass_info`: p + 1 words, never read.
    pass_info: Vec<Buffer>,
    tiles: u32,
    histogram_groups: u32,
}

impl OneSweep {
    /// Composes the kernels for `ctx`'s device; `pairs` moves values with
    /// the keys. Fails with a usage error on subgroups outside 4..=128.
    pub fn new(ctx: &Ctx<'_>, pairs: bool) -> Result<Self, Error> {
        let sizes = &ctx.gpu.target().subgroup_size;
        let (min, max) = (sizes.min(), sizes.max());
        if !SUBGROUP_SIZES.contains(&min) || !SUBGROUP_SIZES.contains(&max) {
            return Err(Error::Usage(format!(
                "the OneSweep radix sort needs subgroups of 4 to 128 lanes, not {min}..={max}"
            )));
        }
        let shape = shape_for(ctx, min, pairs)?;
        // CPU adapters spin with read-modify-writes, which spend lavapipe's
        // loop budget more slowly (scan.wgsl); on an H100 the
        // read-modify-write spin cost 45% more through CUDA.
        let cpu = ctx
            .gpu
            .wgpu()
            .is_some_and(|d| d.info().device_type == wgpu::DeviceType::Cpu);
        let config = PassConfig {
            shape,
            pairs,
            subgroups: min..=max,
            spin_with_rmw: cpu,
            cuda: ctx.gpu.target().backend == wavekit::Backend::Cuda,
            runtime_pass: ctx.gpu.wgpu().is_some(),
        };
        // A parameter given through `WAVEKIT_SHADER_PARAMS` replaces the
        // configuration's edit of the same declaration.
        let params = shader_params();
        let mut edits: Vec<(&str, String)> = config
            .edits()
            .into_iter()
            .filter(|(from, _)| !params.iter().any(|(line, _)| line == from))
            .collect();
        edits.extend(params);
        let compose = |pass: usize| {
            let pass_decl = format!("const PASS = {pass}u;");
            let mut all: Vec<(&str, &str)> = vec![("const PASS = 0u;", &pass_decl)];
            all.extend(edits.iter().map(|(from, to)| (*from, to.as_str())));
            ctx.compose(&SOURCE, "radix_onesweep.wgsl", &all)
        };
        // The histogram and the digit offsets do not depend on the pass:
        // they come from pass 0's module.
        // SAFETY: the shader's "Bounds" paragraph proves every access in
        // bounds for the buffers `scratch` and `SortBuffers` size; without
        // the native clamps keys-only sorts ran 10-12 % faster on CUDA
        // (H100, docs/benchmarks/2026-11-25e-h100-cuda-bounds).
        let [histogram, digit_offsets, first_pass] = unsafe {
            ctx.kernels_proven(
                &compose(0)?,
                ["histogram", "digit_offsets", "onesweep"],
                shape.resident,
            )?
        };
        let mut onesweep = vec![first_pass];
        if !config.runtime_pass {
            for pass in 1..SHIFTS.len() {
                // SAFETY: as above.
                let [kernel] =
                    unsafe { ctx.kernels_proven(&compose(pass)?, ["onesweep"], shape.resident)? };
                onesweep.push(kernel);
            }
        }
        Ok(OneSweep {
            histogram,
            digit_offsets,
            onesweep,
            shape,
        })
    }

    /// Keys per tile (and workgroup of a pass).
    pub fn tile(&self) -> usize {
        (self.shape.block * self.shape.items) as usize
    }

    /// What the sort does, in words, for reports.
    pub fn describe(&self) -> String {
        format!(
            "OneSweep LSD radix sort, 4 passes of 8 bits: one histogram read, then per pass \
             one kernel ranking {}-key tiles with subgroup ballots, decoupled look-back over \
             per-digit tile counts, scatter staged in workgroup memory",
            self.tile()
        )
    }

    /// Scratch for sorting `n` keys.
    pub fn scratch(&self, ctx: &Ctx<'_>, n: usize) -> Result<OneSweepScratch, Error> {
        let tiles = n.div_ceil(self.tile()).max(1);
        Ok(OneSweepScratch {
            digits: ctx.gpu.buffer((4 * RADIX * 4) as u64)?,
            tile_state: ctx.gpu.buffer((tiles * RADIX * 4) as u64)?,
            tile_counter: ctx.gpu.buffer(4 * 4)?,
            pass_info: (1..=SHIFTS.len() as u64)
                .map(|words| ctx.gpu.buffer(4 * words))
                .collect::<Result<_, _>>()?,
            tiles: tiles as u32,
            histogram_groups: tiles.min(MAX_HISTOGRAM_GROUPS) as u32,
        })
    }

    /// The whole sort: input → 1 → 2 → 1 → 2 (buffer 0 is only read). The
    /// leading zeroing of the 4 KiB digit counts is the only untimed step:
    /// the histogram kernel clears the look-back state.
    pub fn steps<'b>(&'b self, b: &'b SortBuffers, scratch: &'b OneSweepScratch) -> Vec<Step<'b>> {
        let bind = |src: usize, dst: usize, pass: usize| -> Vec<&'b Buffer> {
            vec![
                &b.keys[src],
                &b.keys[dst],
                &b.values[src],
                &b.values[dst],
                &scratch.digits,
                &scratch.tile_state,
                &scratch.tile_counter,
                &scratch.pass_info[pass],
            ]
        };
        let mut steps = vec![
            Step::Zero(&scratch.digits),
            Step::dispatch(
                &self.histogram,
                &bind(0, 1, 0),
                [scratch.histogram_groups, 1, 1],
            ),
            Step::dispatch(&self.digit_offsets, &bind(0, 1, 0), [1, 1, 1]),
        ];
        for pass in 0..SHIFTS.len() {
            let (src, dst) = super::ping_pong(pass);
            steps.push(Step::dispatch(
                &self.onesweep[pass.min(self.onesweep.len() - 1)],
                &bind(src, dst, pass),
                grid(scratch.tiles),
            ));
        }
        steps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_parse() {
        let shape = |block, items, resident, stage_in_counters, stage_parts| Shape {
            block,
            items,
            resident,
            stage_in_counters,
            stage_parts,
        };
        for (text, want) in [
            ("512x15", shape(512, 15, None, false, 1)),
            ("512x10s", shape(512, 10, None, true, 1)),
            ("512x12s2", shape(512, 12, None, true, 2)),
            ("384x20r2", shape(384, 20, Some(2), false, 1)),
            ("256x24s3r3", shape(256, 24, Some(3), true, 3)),
        ] {
            assert_eq!(parse_shape(text).expect(text), want, "{text}");
        }
    }

    #[test]
    fn bad_shapes_are_errors() {
        for text in [
            "512", "500x10", "512x0", "512x33", "512x15s4", "512x12s0", "512x12sx", "512x10r9",
        ] {
            let e = parse_shape(text).expect_err(text).to_string();
            assert!(
                e.contains(&format!("`{text}`")) && e.contains("PARTS dividing ITEMS"),
                "{e}"
            );
        }
    }
}
