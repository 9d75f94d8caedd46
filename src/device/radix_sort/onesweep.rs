//! The OneSweep sort (`shaders/radix_onesweep.wgsl`): one histogram kernel
//! for every pass's digits, one scan of the digit counts, then one kernel
//! per pass that ranks a tile with subgroup ballots, finds its digits'
//! output offsets by decoupled look-back and scatters. Through wgpu one
//! module serves every pass (a pass reads its number from the length of its
//! `pass_info` binding); natively each pass has its own ([`PassModules`]).
//! 64-bit keys take the same shader through [`wide::widen`].

use super::{RadixSortOptions, SortRanges, passes, wide};
use crate::backend::Range;
use crate::device::context::{Context, Op, Pipeline, TempLayout};
use crate::device::shader::Shader;
use crate::device::shaders;
use crate::device::shaders::writable;
use crate::error::Error;
use crate::expand::ValidModule;
use crate::target::EMULATED_MAX_THREADS;

/// Digits per pass.
const RADIX: u64 = 256;
/// The most workgroups of the histogram kernel: enough to fill a large GPU,
/// few enough that each adds its counts to the 1024 global ones once.
const MAX_HISTOGRAM_GROUPS: u64 = 1024;

/// Histogram workgroups a multiprocessor holds at once where the device
/// says how many it has (CUDA): the kernel is compiled for that many
/// (512 threads: at most 40 registers, as it takes on sm_90 anyway).
const HISTOGRAM_RESIDENT: u32 = 3;

/// The histogram kernel's workgroups at most: one wave of
/// [`HISTOGRAM_RESIDENT`] a multiprocessor where the device says how many
/// it has, as CUB sizes its histogram grid from the SM count; else
/// [`MAX_HISTOGRAM_GROUPS`]. Each workgroup counts an equal span of tiles,
/// so in one wave they finish together: 1024 on an H200's 132 SMs ran 2.6
/// waves, the last partly empty (Nsight Compute, 2^26 keys: 168 µs
/// against CUB's 154 in one wave, docs/benchmarks/2026-11-29o).
fn histogram_groups_limit(multiprocessors: Option<u32>) -> u64 {
    multiprocessors.map_or(MAX_HISTOGRAM_GROUPS, |sms| {
        (u64::from(sms) * u64::from(HISTOGRAM_RESIDENT)).clamp(1, MAX_HISTOGRAM_GROUPS)
    })
}

/// Workgroup shape of the pass kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    /// Threads per workgroup.
    pub block: u32,
    /// Keys per thread and tile.
    pub items: u32,
    /// The tile staged in the counter rows' workgroup memory
    /// (`STAGE_IN_COUNTERS` in `radix_onesweep.wgsl`).
    pub stage_in_counters: bool,
    /// The parts in which the tile is staged and written out
    /// (`STAGE_PARTS`; 1: whole). Divides `items`.
    pub stage_parts: u32,
    /// A pair sort's values loaded once the keys are staged
    /// (`LATE_VALUES`).
    pub late_values: bool,
    /// Natively, the workgroups a multiprocessor holds at once that the
    /// pass kernel is compiled for (its registers capped to fit them).
    pub resident: Option<u32>,
}

impl Shape {
    /// Workgroup memory of the pass kernel at subgroups of at least `min`
    /// lanes (bytes; [`shaders::onesweep_workgroup_bytes`]). Native shapes
    /// may take full-word counter rows ([`Rank::wide_counters`]), twice as
    /// large.
    fn workgroup_bytes(self, min: u32) -> u64 {
        shaders::onesweep_workgroup_bytes(
            self.block,
            self.items,
            min,
            self.stage_in_counters,
            self.stage_parts,
        )
    }

    /// On CUDA and HIP, 512 × 16 compiled for two workgroups a
    /// multiprocessor (64 registers on sm_90), the values loaded late; 512
    /// × 6 for 64-bit keys. With values the kernel takes 51 KiB of
    /// workgroup memory, which CUDA gets as dynamic shared memory (the
    /// native lowering's, past the 48 KiB ptxas allows statically).
    /// Measured through CUDA on an H200 at 2^26 by the demo's own steps
    /// (docs/benchmarks/2026-11-29r-h200-late-values), pairs: 2.33 ms at
    /// 512 × 12 with the values early (the shape before), 2.19 at 512 × 12
    /// late, 2.04 at 512 × 14 and 512 × 15 (u16 counters), 2.02 at 384 ×
    /// 20, 1.96 at 512 × 16 and 1.94 at 384 × 23 (CUB's shape, 80
    /// registers, slower from 2^22 to 2^25); staged in the counter rows
    /// (37 KiB) 512 × 16 took 2.25 ms, with u16 counters it spilled. Keys:
    /// 1.58 ms at 512 × 16 against 1.63 at 512 × 15 and 1.60 at 384 × 23.
    ///
    /// Through wgpu, the first shape the device holds: 512 × 12 with the
    /// tile staged in the counter rows in two parts for 32-bit keys, 512 ×
    /// 10 staged whole with values (512 × 6 apart for 64-bit keys;
    /// subgroups of at least 16 lanes, for the counter rows), else 256 × 8
    /// (at least 8), else 128 × 8.
    /// NVIDIA's Vulkan driver gives the workgroups of an SM about 50–60
    /// KiB of workgroup memory: 512 × 6 with the tile apart ran two
    /// workgroups an SM on an H100 (CUDA three), with it staged in the
    /// rows three, and 512 × 10 staged two (512 × 12 one). Keys at 2^26
    /// through Vulkan (the pass kernel's own steps): 3.13 ms at 512 × 6
    /// apart, 2.72 staged, 2.53 at 512 × 10 staged, 2.71 at 384 × 12 and
    /// 2.75 at 256 × 12 staged; pairs 3.55, 3.20 and 3.00
    /// (docs/benchmarks/2026-11-27t-h100-vulkan-onesweep-occupancy).
    /// Staged in two parts, 512 × 12 keeps half the tile's words, and an
    /// H200 took 2.35 ms for the keys against 2.59 at 512 × 10 staged
    /// whole, 2.47 at 512 × 10 and 2.52 at 512 × 12 in three parts, and
    /// 2.87–3.18 at 512 × 14, 15 and 16 and 384 × 15 and 16 in parts;
    /// pairs 2.99 ms at 512 × 12 in two parts against 3.27 at 512 × 10 and
    /// 3.57 at 512 × 12 in three. The driver's code (an H100) says why:
    /// at 512 × 12 in two parts it kept the keys' pass to 40 registers, so
    /// three workgroups an SM (56 registers and two at 512 × 10 whole);
    /// from 14 keys a thread it spilled; pairs took 64 registers either
    /// way.
    /// Through the library the keys took 5–9 % less time from 2^23 than
    /// at 512 × 10 staged whole, 2–3 % more at 2^20 and 2^22 (an H100,
    /// 2^26: 2.61 -> 2.37 ms; the H200 alike); the pairs at 512 × 12 in
    /// two parts were no faster, and 2–6 % slower below 2^24, so they
    /// keep 512 × 10 staged whole. Reading the values after the keys are
    /// written out (as CUB does) was 0–9 % slower at every pairs shape,
    /// through CUDA too (docs/benchmarks/2026-11-27v-vulkan-staged-parts).
    /// Emulated subgroups take at most [`EMULATED_MAX_THREADS`] threads:
    /// never 512.
    pub fn for_context(ctx: &Context, min: u32, options: &RadixSortOptions) -> Shape {
        let shape = |block, items, stage_in_counters| Shape {
            block,
            items,
            stage_in_counters,
            stage_parts: 1,
            late_values: false,
            resident: None,
        };
        let Some(limits) = ctx.wgpu_limits() else {
            if options.key.is_wide() {
                return shape(512, 6, false);
            }
            return Shape {
                late_values: options.pairs,
                resident: Some(2),
                ..shape(512, 16, false)
            };
        };
        let wide = match (options.key.is_wide(), options.pairs) {
            (true, _) => shape(512, 6, false),
            (false, true) => shape(512, 10, true),
            (false, false) => Shape {
                stage_parts: 2,
                ..shape(512, 12, true)
            },
        };
        let emulated = ctx.target.is_emulated();
        if min >= 16
            && (!emulated || wide.block <= EMULATED_MAX_THREADS)
            && limits.max_compute_invocations_per_workgroup >= wide.block
            && u64::from(limits.max_compute_workgroup_storage_size) >= wide.workgroup_bytes(min)
        {
            return wide;
        }
        shape(if min >= 8 { 256 } else { 128 }, 8, false)
    }
}

/// How the pass kernel ranks a tile (`PEERS` and `WIDE_COUNTERS` in
/// `radix_onesweep.wgsl`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rank {
    /// The peers' ballots as `wk_sg_match_bits8`, which the CUDA back end
    /// writes as CUB's MatchAny (`PEERS = 2u`).
    pub match_bits: bool,
    /// Full-word counter rows instead of u16 halves.
    pub wide_counters: bool,
    /// The counting atomics' results used (`RETURNING_COUNTS`).
    pub returning_counts: bool,
}

impl Rank {
    /// On CUDA, the ballots as CUB writes them (an H100 at 2^26: keys
    /// 2.14 -> 1.89 ms, pairs 2.94 -> 2.82 at 512 × 12; `match.any.sync`
    /// instead took 3.18 and 3.63 ms), and with values full-word counters
    /// (pairs 2.82 -> 2.68 ms at 512 × 12; keys unchanged). Through
    /// Vulkan the full-word counters were slower (2^26 keys 3.19 -> 4.91
    /// ms), and the ballots have no other form there: both off
    /// (docs/benchmarks/2026-11-26e-h100-sort). Through wgpu, 32-bit keys
    /// alone use the counting atomics' results: NVIDIA's Vulkan driver
    /// then leaves out its MATCH.ALL and branch a key, and the pass ran
    /// 1–2 % faster on an H100 (pairs no faster;
    /// docs/benchmarks/2026-11-27v-vulkan-staged-parts, call 9).
    pub fn for_context(ctx: &Context, options: &RadixSortOptions) -> Rank {
        let cuda = ctx.target.is_native_cuda();
        let narrow = !options.key.is_wide();
        Rank {
            match_bits: cuda,
            wide_counters: cuda && options.pairs && narrow,
            returning_counts: !ctx.is_native() && !options.pairs && narrow,
        }
    }
}

/// How the pass kernel learns its pass (`RUNTIME_PASS` in
/// `radix_onesweep.wgsl`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PassModules {
    /// One module for every pass, the pass number read at run time: the
    /// driver compiles the pass kernel once (lavapipe: `device_radix_sort`
    /// 50 -> 25 CPU s; an H100 through Vulkan: 2-3 % faster at 2^21-2^23,
    /// 0.5-1.5 % slower at 2^25-2^26 than a module per pass,
    /// docs/benchmarks/2026-11-27j).
    Shared,
    /// A module per pass with `const PASS`: on CUDA the runtime pass number
    /// made the keys-only sort 46 % slower at 2^26 (H100, 2026-11-27j).
    PerPass,
}

impl PassModules {
    /// Per pass natively (CUDA, HIP), shared through wgpu.
    pub fn for_context(ctx: &Context) -> PassModules {
        if ctx.is_native() {
            PassModules::PerPass
        } else {
            PassModules::Shared
        }
    }
}

/// Compiles `entries` of a OneSweep module, natively for `resident`
/// workgroups a multiprocessor where given. 32-bit keys: the shader proves
/// its accesses in bounds ("Bounds" in `radix_onesweep.wgsl`), so CUDA runs
/// them unchecked (wgpu keeps its checks either way); 64-bit keys (the
/// widened shader) keep the checks.
fn build<const N: usize>(
    ctx: &Context,
    options: &RadixSortOptions,
    module: &ValidModule,
    entries: [&str; N],
    resident: Option<u32>,
) -> Result<[Pipeline; N], Error> {
    if options.key.is_wide() {
        return ctx.pipelines_resident(module, entries, resident);
    }
    // SAFETY: the shader's "Bounds" comment: every index is in range for
    // bindings sized as `OneSweep::ops` binds them.
    unsafe {
        match resident {
            Some(workgroups) => ctx.pipelines_proven_resident(module, entries, workgroups),
            None => ctx.pipelines_proven(module, entries),
        }
    }
}

/// The pipelines of the OneSweep sort for one device and options.
pub(crate) struct OneSweep {
    histogram: Pipeline,
    digit_offsets: Pipeline,
    /// The pass kernel: one for every pass ([`PassModules::Shared`]) or one
    /// per pass.
    onesweep: Vec<Pipeline>,
    /// Passes of the sort (up to 8 bits each).
    passes: u32,
    shape: Shape,
    /// Passes the histogram counts (4 for 32-bit keys, 8 for 64-bit):
    /// the digit counts and tile counters in temp are per pass.
    histograms: u64,
    /// The histogram kernel's workgroups at most ([`histogram_groups_limit`]).
    histogram_groups: u64,
}

impl OneSweep {
    /// Composes the module (of 64-bit keys when the key type is). Fails on
    /// subgroups outside 4..=128.
    pub fn new(ctx: &Context, options: &RadixSortOptions) -> Result<Self, Error> {
        let sizes = &ctx.target.subgroup_size;
        let (min, max) = (sizes.min(), sizes.max());
        if !(4..=128).contains(&min) || !(4..=128).contains(&max) {
            return Err(Error::Usage(format!(
                "the OneSweep radix sort needs subgroups of 4 to 128 lanes, not {min}..={max}"
            )));
        }
        let shape = Shape::for_context(ctx, min, options);
        let rank = Rank::for_context(ctx, options);
        // CPU adapters spin with read-modify-writes, which spend lavapipe's
        // loop budget more slowly (scan.wgsl); on an H100 the
        // read-modify-write spin cost 45% more through CUDA.
        let cpu = ctx.is_cpu();
        let mut shader = Shader::new("radix_onesweep.wgsl")?.map(|text| Ok(writable(text)))?;
        if options.key.is_wide() {
            shader = shader.map(|text| wide::widen(text, wide::PassShader::OneSweep))?;
        }
        let shader = shader
            .set("PAIRS", options.pairs)
            .set("BLOCK", format!("{}u", shape.block))
            .set("ITEMS", format!("{}u", shape.items))
            .set("STAGE_IN_COUNTERS", shape.stage_in_counters)
            .set("STAGE_PARTS", format!("{}u", shape.stage_parts))
            .set("LATE_VALUES", shape.late_values)
            .set("SUBGROUPS", format!("{}u", shape.block / min))
            .set("SPIN_WITH_RMW", cpu)
            .set("NARROW", max <= 32)
            .set("PEERS", if rank.match_bits { "2u" } else { "0u" })
            .set("WIDE_COUNTERS", rank.wide_counters)
            .set("RETURNING_COUNTS", rank.returning_counts)
            .set("FULL_TILES", !ctx.is_native())
            .set("KEY_ORDER", format!("{}u", options.key.order()))
            .set("BEGIN_BIT", format!("{}u", options.bits.start))
            .set("END_BIT", format!("{}u", options.bits.end))
            .set_all(ctx.look_back_switches());
        let plan = passes(&options.bits);
        let modules = PassModules::for_context(ctx);
        let compose = |index: usize| {
            let shader = match modules {
                PassModules::Shared => shader.clone(),
                PassModules::PerPass => shader
                    .clone()
                    .set("RUNTIME_PASS", false)
                    .set("PASS", format!("{index}u")),
            };
            ctx.compose(&shader)
        };
        // The histogram and the digit offsets do not depend on the pass:
        // they come from pass 0's module; the histogram of 32-bit keys for
        // one wave where the device says how many multiprocessors it has
        // (measured so; 64-bit keys' histogram was not, and its registers
        // are not capped).
        let multiprocessors = ctx
            .server
            .multiprocessors()
            .filter(|_| !options.key.is_wide());
        let first_module = compose(0)?;
        let [histogram] = build(
            ctx,
            options,
            &first_module,
            ["histogram"],
            multiprocessors.map(|_| HISTOGRAM_RESIDENT),
        )?;
        // The pass kernel's residency bounds digit_offsets too (one
        // workgroup, 31 registers on sm_90): one build of the module.
        let [digit_offsets, first] = build(
            ctx,
            options,
            &first_module,
            ["digit_offsets", "onesweep"],
            shape.resident,
        )?;
        let mut onesweep = vec![first];
        if modules == PassModules::PerPass {
            for index in 1..plan.len() {
                let [pass] = build(ctx, options, &compose(index)?, ["onesweep"], shape.resident)?;
                onesweep.push(pass);
            }
        }
        Ok(OneSweep {
            histogram,
            digit_offsets,
            onesweep,
            passes: plan.len() as u32,
            shape,
            histograms: u64::from(options.key.bits() / 8),
            histogram_groups: histogram_groups_limit(multiprocessors),
        })
    }

    /// Pass `i`'s kernel: its own, or the one every pass shares.
    fn pass_kernel(&self, i: usize) -> &Pipeline {
        self.onesweep.get(i).unwrap_or(&self.onesweep[0])
    }

    /// Keys per tile (and workgroup of a pass).
    fn tile(&self) -> u64 {
        u64::from(self.shape.block * self.shape.items)
    }

    fn tiles(&self, n: u32) -> u64 {
        u64::from(n).div_ceil(self.tile()).max(1)
    }

    /// What the sort does, in words, for reports.
    pub fn describe(&self) -> String {
        format!(
            "OneSweep LSD radix sort, {} passes of up to 8 bits: one histogram read, then per \
             pass one kernel ranking {}-key tiles with subgroup ballots, decoupled look-back \
             over per-digit tile counts, scatter staged in workgroup memory",
            self.passes,
            self.tile()
        )
    }

    /// Places its temp regions: digit counts, tile state, tile counters,
    /// and the words whose bound length tells a pass its number (never
    /// written or read).
    pub fn temp(&self, layout: &mut TempLayout, n: u32) -> Vec<(u64, u64)> {
        vec![
            layout.place(4 * RADIX * self.histograms),
            layout.place(4 * RADIX * self.tiles(n)),
            layout.place(4 * self.histograms),
            layout.place(4 * u64::from(self.passes)),
        ]
    }

    /// The commands of a checked call (`n > 0`).
    pub fn ops<'a>(
        &'a self,
        ctx: &Context,
        sort: &SortRanges<'a>,
        own: &[Range<'a>],
        n: u32,
        count: usize,
    ) -> Vec<Op<'a>> {
        let (digits, tile_state, tile_counter, pass_info) = (own[0], own[1], own[2], own[3]);
        let bind = |i: usize| {
            let b = sort.pass(i, count);
            vec![
                b.keys_in,
                b.keys_out,
                b.values_in,
                b.values_out,
                digits,
                tile_state,
                tile_counter,
                pass_info.sub(0, 4 * (i as u64 + 1)),
            ]
        };
        let tiles = self.tiles(n);
        let histogram_groups = tiles.min(self.histogram_groups) as u32;
        let mut ops = vec![
            Op::Clear(digits),
            Op::Dispatch(&self.histogram, bind(0), [histogram_groups, 1, 1]),
            Op::Dispatch(&self.digit_offsets, bind(0), [1, 1, 1]),
        ];
        for i in 0..self.passes as usize {
            ops.push(Op::Dispatch(
                self.pass_kernel(i),
                bind(i),
                ctx.grid(tiles as u32),
            ));
        }
        ops
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compose::Composer;
    use crate::{Backend, SubgroupSize, Target};

    /// One wave of the histogram kernel where the multiprocessors are
    /// known, within 1..=1024; 1024 where they are not.
    #[test]
    fn the_histogram_grid_is_one_wave_where_the_multiprocessors_are_known() {
        assert_eq!(histogram_groups_limit(Some(132)), 396);
        assert_eq!(histogram_groups_limit(Some(1)), 3);
        assert_eq!(histogram_groups_limit(Some(0)), 1);
        assert_eq!(histogram_groups_limit(Some(500)), MAX_HISTOGRAM_GROUPS);
        assert_eq!(histogram_groups_limit(None), MAX_HISTOGRAM_GROUPS);
    }

    /// The workgroup memory the hosts count ([`Shape::workgroup_bytes`])
    /// is what the composed pass kernel declares: the workgroup variables
    /// its entry point uses, in bytes.
    #[test]
    fn workgroup_bytes_are_the_shaders() {
        let min = 32;
        for (block, items, stage_in_counters, stage_parts) in [
            (512, 10, true, 1),
            (512, 6, true, 1),
            (512, 6, false, 1),
            (256, 8, false, 1),
            (128, 8, true, 1),
            (512, 15, true, 3),
            (512, 12, true, 2),
            (256, 12, false, 4),
        ] {
            let shape = Shape {
                block,
                items,
                stage_in_counters,
                stage_parts,
                late_values: false,
                resident: None,
            };
            let text = Shader::new("radix_onesweep.wgsl")
                .expect("the shader")
                .set("BLOCK", format!("{block}u"))
                .set("ITEMS", format!("{items}u"))
                .set("SUBGROUPS", format!("{}u", block / min))
                .set("NARROW", true)
                .set("STAGE_IN_COUNTERS", stage_in_counters)
                .set("STAGE_PARTS", format!("{stage_parts}u"))
                .text()
                .expect("its parameters");
            let target = Target::new(Backend::Vulkan, SubgroupSize::fixed(min).expect("32"));
            let valid = Composer::new(target)
                .compose(&text, "radix_onesweep.wgsl")
                .expect("composes")
                .module;
            let declared = valid
                .entry_workgroup_memory_bytes("onesweep")
                .expect("the pass kernel");
            assert_eq!(
                shape.workgroup_bytes(min),
                u64::from(declared),
                "{block} x {items}, staged {stage_in_counters}, {stage_parts} parts"
            );
        }
    }
}
