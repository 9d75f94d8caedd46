//! The compaction engine shared by [`SelectIf`](super::SelectIf),
//! [`Unique`](super::Unique), [`PartitionIf`](super::PartitionIf) and
//! [`RunLengthEncode`](super::RunLengthEncode): `shaders/compact.wgsl`
//! composed for an element type and a predicate (or the run starts), its
//! temp layout and its commands, single pass with look-back or tile counts,
//! the device scan of them and a scatter.

use super::ScanAlgorithm;
use super::context::{Context, Op, Pipeline, TempLayout};
use super::scan::{Scan, ScanKind};
use super::shader::Shader;
use crate::backend::Range;
use crate::error::Error;

/// The single pass publishes counts in 30 bits.
pub(crate) const MAX_LOOKBACK: u32 = (1 << 30) - 1;

/// What the compaction keeps and writes.
pub(crate) enum Keep<'a> {
    /// The elements for which the caller's `fn keep(x: T) -> bool` holds
    /// (its WGSL text), written as themselves.
    Predicate(&'a str),
    /// The elements whose flag (binding 5) is not zero, written as
    /// themselves.
    Flags(FlagType),
    /// The first element and each that differs from the one before it,
    /// written as its index.
    RunStarts,
    /// The first element and each that differs (`!=`) from the one before
    /// it, written as themselves.
    Unique,
    /// The three-way partition ([`ThreeWayPartition`](super::ThreeWayPartition)):
    /// the elements for which the caller's `fn first_part(x: T) -> bool`
    /// holds (the first text), else `fn second_part(x: T) -> bool` (the
    /// second), else neither; both checked.
    ThreeWay(&'a str, &'a str),
}

/// The flags of [`SelectFlagged`](super::SelectFlagged): one per element,
/// selected where not zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FlagType {
    /// One byte per element (CUB's usual `char` flags), packed four to a
    /// word: the slice holds `n` bytes rounded up to a multiple of 4.
    U8,
    /// One u32 per element.
    U32,
}

impl FlagType {
    /// Bytes the flags of `n` elements take, as bound.
    pub(crate) fn bytes(self, n: u32) -> u64 {
        match self {
            FlagType::U8 => u64::from(n).next_multiple_of(4),
            FlagType::U32 => 4 * u64::from(n),
        }
    }

    /// The shader's `keep_at` for these flags, with their binding. Indices
    /// past the end (lanes beyond `n`, whose flag is masked off) read the
    /// last word.
    fn keep_at(self) -> &'static str {
        match self {
            FlagType::U8 => {
                "@group(0) @binding(5) var<storage, read> flags: array<u32>;
fn keep_at(i: u32, x: T) -> bool {
    let word = flags[min(i / 4u, arrayLength(&flags) - 1u)];
    return ((word >> (8u * (i % 4u))) & 0xffu) != 0u;
}"
            }
            FlagType::U32 => {
                "@group(0) @binding(5) var<storage, read> flags: array<u32>;
fn keep_at(i: u32, x: T) -> bool { return flags[min(i, arrayLength(&flags) - 1u)] != 0u; }"
            }
        }
    }
}

/// Workgroups an SM the CUDA partition (256 x 20) is compiled for: its
/// registers capped at 64 (sm_90, `kernel_budgets`).
const PARTITION_RESIDENT: u32 = 4;

/// Workgroups an SM the CUDA selections (256 x 16) are compiled for: 48
/// registers without a spill (53, Unique's 64, uncapped with the full
/// tiles' loads).
const SELECT_RESIDENT: u32 = 5;

/// The three-way partition's second and unselected outputs (bindings 5
/// and 6), replacing `write_second`'s line (and `write_unselected`'s, with
/// nothing).
const THREE_WAY_OUTPUTS: &str =
    "@group(0) @binding(5) var<storage, read_write> second_out: array<T>;
@group(0) @binding(6) var<storage, read_write> unselected_out: array<T>;
fn write_second(i: u32, x: T) { second_out[i] = x; }
fn write_unselected(i: u32, x: T) { unselected_out[i] = x; }";

/// The compaction's pipelines on one device, for one element type and
/// predicate.
pub(crate) struct Compaction {
    pub ctx: Context,
    pub algorithm: ScanAlgorithm,
    /// Counts a tile publishes: 1, or 2 for the three-way partition.
    parts: u32,
    /// Elements per tile: the shader's BLOCK × ITEMS (256 × 16; a
    /// partition's and Unique's 256 × 20 on CUDA, a partition's 256 × 8
    /// through wgpu, Unique's 256 × 12 through wgpu; or what
    /// `WAVEKIT_SHADER_PARAMS` sets, for benchmarks).
    tile: u64,
    lookback: Pipeline,
    count_tiles: Pipeline,
    scatter: Pipeline,
    scan: Scan,
}

/// The temp regions of a call: tile counts (the look-back's tile states),
/// tile offsets (the look-back's tile counter in word 0), the scan's temp.
pub(crate) struct Regions {
    tiles: u32,
    counts: (u64, u64),
    offsets: (u64, u64),
    scan: (u64, u64),
}

impl Compaction {
    /// Composes `compact.wgsl` for `element` (a WGSL scalar type) and
    /// `keep`; a predicate must have been checked (`user_fn::check`).
    /// `partition`: the elements not kept are written too, after the kept
    /// ones in reverse order (`PARTITION`).
    pub fn new(
        ctx: Context,
        element: &str,
        keep: Keep<'_>,
        partition: bool,
    ) -> Result<Self, Error> {
        // The look-back's state and an empty input's count are clears.
        let ctx = ctx.with_clears()?;
        let mut shader = Shader::new("compact.wgsl")?
            .set("T", element)
            .set("PARTITION", partition)
            .set_all(ctx.look_back_params());
        // Both sides written: 20 elements a thread on CUDA, 8 through wgpu
        // (HIP, unmeasured, keeps 16). H100, PartitionIf at 2^26 against
        // 16 a thread: CUDA 0.2704 -> 0.2352 ms at 32 (CUB 0.2561), Vulkan
        // 0.2669 -> 0.2562 (docs/benchmarks/2026-11-27k-h100-compaction-tiles).
        // With full tiles loaded without a test, H200, CUDA, 2^22 / 2^24 /
        // 2^26: 21.2 / 61.4 / 204.4 us at 20, 22.7 / 72.7 / 238.4 at 32,
        // 20.5 / 63.3 / 212.5 at 16 (CUB 19.2 / 61.2 / 210.2;
        // docs/benchmarks/2026-11-29g-h200-compaction-full-tiles).
        // Unique through wgpu 12 a thread: H200, Vulkan, 2^22 / 2^24 /
        // 2^26: 19.2 / 48.9 / 157.7 us at 12, 18.7 / 50.9 / 162.4 at 16
        // (2026-11-29g).
        // Unique on CUDA 20 a thread too: H200, 2^22 / 2^24 / 2^26, 15.8 /
        // 37.5 / 118.4 us at 20 against 15.6 / 39.5 / 127.5 at 16 (CUB 15.9 /
        // 42.2 / 139.5; 24: 16.8 / 45.3 / 139.7), and 2-4 % slower at
        // 2^20-2^21 (docs/benchmarks/2026-11-29m-h200-tile-shapes).
        let cuda = ctx.target.is_native_cuda();
        let unique = matches!(keep, Keep::Unique);
        if (partition || unique) && cuda {
            shader = shader.set("ITEMS", "20u");
        } else if (partition || unique) && !ctx.is_native() {
            shader = shader.set("ITEMS", if partition { "8u" } else { "12u" });
        }
        // Predecessors by shuffles, but where subgroups are emulated (each
        // shuffle a workgroup barrier there).
        shader = shader.set("SHUFFLE_BEFORE", !ctx.target.is_emulated());
        // `keep`'s default compares with a u32: flags and run starts, which
        // do not call it, replace it too.
        let unused = "fn keep(x: T) -> bool { return true; }";
        let shader = match keep {
            Keep::Predicate(text) => shader.function("keep", text),
            Keep::Flags(flags) => shader
                .function("keep_at", flags.keep_at())
                .function("keep", unused),
            Keep::RunStarts => shader.set("RUN_STARTS", true).function("keep", unused),
            Keep::Unique => shader.set("UNIQUE", true).function("keep", unused),
            Keep::ThreeWay(first, second) => shader
                .function(
                    "keep",
                    format!("{first}\nfn keep(x: T) -> bool {{ return first_part(x); }}"),
                )
                .function(
                    "keep_second",
                    format!("{second}\nfn keep_second(x: T) -> bool {{ return second_part(x); }}"),
                )
                .function("write_second", THREE_WAY_OUTPUTS)
                .function("write_unselected", ""),
        };
        let [block, items] = shader.u32_values_in(
            "wavekit::device's compaction",
            [
                ("BLOCK", 64..=1024, "threads"),
                ("ITEMS", 1..=32, "elements per thread"),
            ],
        )?;
        let module = ctx.compose(&shader)?;
        let three_way = matches!(keep, Keep::ThreeWay(..));
        // Without the fallback, the plain look-back's entry point (the
        // three-way partition's looks back with or without it).
        let entries = if three_way {
            [
                "three_way_lookback",
                "count_three_way",
                "scatter_three_way_tiles",
            ]
        } else if ctx.fallback() {
            ["select_lookback", "count_tiles", "scatter"]
        } else {
            ["select_lookback_plain", "count_tiles", "scatter"]
        };
        let resident = match (cuda, partition) {
            (true, true) => Some(PARTITION_RESIDENT),
            (true, false) if !three_way => Some(SELECT_RESIDENT),
            _ => None,
        };
        let [lookback, count_tiles, scatter] =
            ctx.pipelines_resident(&module, entries, resident)?;
        let scan = Scan::with_context(ctx.clone(), ScanKind::Exclusive, true, None)?
            .with_algorithm(ScanAlgorithm::ReduceThenScan);
        Ok(Compaction {
            algorithm: ctx.scan_algorithm(),
            parts: if three_way { 2 } else { 1 },
            tile: u64::from(block * items),
            ctx,
            lookback,
            count_tiles,
            scatter,
            scan,
        })
    }

    /// The temp layout of a call on `n` elements: the compaction's regions
    /// alone (what a selection's temp holds).
    pub fn layout(&self, n: u32) -> (TempLayout, Regions) {
        let mut layout = TempLayout::new(&self.ctx.limits);
        let regions = self.place(&mut layout, n);
        (layout, regions)
    }

    /// Places the temp regions of a call on `n` elements in `layout`.
    pub fn place(&self, layout: &mut TempLayout, n: u32) -> Regions {
        let tiles = u64::from(n).div_ceil(self.tile) as u32;
        let words = u64::from(tiles * self.parts);
        Regions {
            tiles,
            counts: layout.place(4 * words),
            offsets: layout.place(4 * words.next_multiple_of(4)),
            scan: layout.place(self.scan.temp_storage_bytes(words as u32)),
        }
    }

    /// Fails where the chosen algorithm cannot run: the look-back on 2^30
    /// elements or more.
    pub fn check(&self, name: &str, n: u32) -> Result<(), Error> {
        if self.algorithm != ScanAlgorithm::DecoupledLookBack {
            return Ok(());
        }
        if n > MAX_LOOKBACK {
            return Err(Error::Usage(format!(
                "{name}: the single pass (decoupled look-back) publishes counts in 30 bits and \
                 takes at most {MAX_LOOKBACK} elements, not {n}: use ScanAlgorithm::ReduceThenScan"
            )));
        }
        Ok(())
    }

    /// The commands of a checked call: `input` and `output` `n` elements,
    /// `count` one word (two for [`Keep::ThreeWay`]), `temp` holding
    /// `regions`, `extra` the bindings after `count`: the flags of a
    /// compaction built with [`Keep::Flags`], the second and unselected
    /// outputs of [`Keep::ThreeWay`] (`n` elements each), else none.
    /// `n = 0` writes a zero count.
    #[allow(clippy::too_many_arguments)]
    pub fn ops<'a>(
        &'a self,
        input: Range<'a>,
        extra: &[Range<'a>],
        output: Range<'a>,
        count: Range<'a>,
        n: u32,
        temp: Range<'a>,
        regions: &Regions,
    ) -> Vec<Op<'a>> {
        if n == 0 {
            return vec![Op::Clear(count)];
        }
        let counts = temp.sub(regions.counts.0, regions.counts.1);
        let offsets = temp.sub(regions.offsets.0, regions.offsets.1);
        let mut bindings = vec![input, output, counts, offsets, count];
        bindings.extend_from_slice(extra);
        let grid = self.ctx.grid(regions.tiles);
        match self.algorithm {
            ScanAlgorithm::DecoupledLookBack => vec![
                // One clear: the offsets follow the counts in temp.
                Op::Clear(counts.through(&offsets)),
                Op::Dispatch(&self.lookback, bindings, grid),
            ],
            ScanAlgorithm::ReduceThenScan => {
                let scan_temp = temp.sub(regions.scan.0, regions.scan.1);
                let words = regions.tiles * self.parts;
                let bytes = 4 * u64::from(words);
                let mut ops = vec![Op::Dispatch(&self.count_tiles, bindings.clone(), grid)];
                ops.extend(self.scan.ops(
                    counts.sub(0, bytes),
                    offsets.sub(0, bytes),
                    words,
                    scan_temp,
                ));
                ops.push(Op::Dispatch(&self.scatter, bindings, grid));
                ops
            }
        }
    }

    /// What a call does, in words.
    pub fn describe(&self) -> &'static str {
        match self.algorithm {
            ScanAlgorithm::DecoupledLookBack => {
                "ballot + lanemask_lt ranks per subgroup; single pass, decoupled look-back"
            }
            ScanAlgorithm::ReduceThenScan => {
                "ballot + lanemask_lt ranks per subgroup; tile counts, the device scan of them \
                 (reduce-then-scan), scatter"
            }
        }
    }
}
