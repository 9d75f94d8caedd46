//! [`Scan`]: device-wide exclusive or inclusive prefix scan, as CUB's
//! `DeviceScan::ExclusiveSum` / `InclusiveSum` / `ExclusiveScan` /
//! `InclusiveScan`: sums of u32 or i32, and f32 sums, min, max and user WGSL
//! operators ([`ScanOperator`]), over `shaders/scan.wgsl`'s vec4 tiles
//! (`shaders/scan_tail.wgsl` for the last `n mod 4` elements).

use super::ScanAlgorithm;
use super::context::{Context, Op, Pipeline, TempLayout, record};
use super::scan_operator::ScanOperator;
use super::shader::Shader;
use super::slice::{Slice, distinct};
use crate::backend::Range;
use crate::backend::{Device, Queue};
use crate::catalog::{self, Family};
use crate::dtype::Dtype;
use crate::error::Error;
use crate::target::{Lowering, Strategy};

/// The strategy that lowers the subgroup reductions and scans (and their
/// tiled and block forms of the same name) by shuffles and leaves every
/// other op at its default: what a tune profile that chose the shuffles
/// for every arithmetic op gives (`docs/tune/2026-11-25-h100-vulkan-...`,
/// the configuration measured for the sum through Vulkan on an H200).
fn shuffled_arithmetic() -> Strategy {
    catalog::tunable_ops()
        .filter(|p| matches!(p.family, Family::Reduction | Family::Scan))
        .fold(Strategy::default(), |strategy, p| {
            strategy.with_op_and_tiled(p.name, Lowering::Shuffle)
        })
}

/// Whether each output includes its own input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScanKind {
    /// `out[i] = in[0] + ... + in[i - 1]` (`out[0] = 0`).
    Exclusive,
    /// `out[i] = in[0] + ... + in[i]`.
    Inclusive,
}

/// A device-wide prefix scan, built once per device, kind, dtype and
/// operator.
///
/// - **Dtypes and operators**: sums of u32 and i32, wrapping on overflow
///   (two's complement, so both are the same bits) — [`Scan::new`]; and
///   with [`Scan::with_operator`], sums of f32, min and max of u32, i32 and
///   f32, and any associative WGSL function of yours with its identity
///   ([`ScanOperator`]). An f32 sum is reassociated (within each vec4, a
///   tree over lanes, then over subgroups and tiles), so it differs from
///   the sequential sum by rounding: by at most about `n ε Σ|x|` in theory
///   and far less in practice (the tests allow `1e-5 Σ|x|` at 2^20
///   elements).
/// - **Placement**: input and output are `n` 4-byte elements at their
///   slices; they must be different buffers (not in place), and the input's
///   buffer is not the temp's. Temp: at least
///   [`Scan::temp_storage_bytes`] bytes, `STORAGE`.
/// - **Algorithm**: lane-striped vec4 tiles of 8192 elements (every load
///   and store of a subgroup whole 32-byte sectors), each vec4 scanned in
///   registers and across the subgroup — `sg::inclusive_add` for the u32 /
///   i32 sum, a shuffle tree of the operator in lane order for every other
///   — and a block pass over the subgroups' totals; tiles chained by
///   decoupled look-back with decoupled fallback (one pass: 1 read and 1
///   write per element; the subgroup of thread 0 reads 32 predecessors a
///   round, combined by a subgroup sum or, for other operators, in tile
///   order, earlier operand first; through wgpu other operators' walk is
///   thread 0's, one predecessor a round) or by reduce-then-scan (three
///   passes: 2 reads and 1 write), by [`ScanAlgorithm::for_adapter`] (the
///   single pass, on every adapter) unless overridden. The last `n mod 4`
///   elements take one more dispatch of one thread. On an H200 the
///   inclusive u32 max ran at 0.98–1.15× CUB's `DeviceScan::InclusiveScan`
///   through CUDA from 2^20 to 2^26, and through Vulkan at 0.61–0.90 of
///   the CUDA figure, 0.76–0.90 from 2^23
///   (`docs/benchmarks/2026-11-29a-h200-operator-scan-quads`).
/// - **Cost of a call**: up to 2 clears and 4 dispatches; a bind group per
///   dispatch; nothing allocated.
pub struct Scan {
    ctx: Context,
    kind: ScanKind,
    /// Elements a tile: 4 × the shader's BLOCK × QUADS (256 × 8 vec4s,
    /// unless `WAVEKIT_SHADER_PARAMS` changes them).
    tile: u64,
    algorithm: ScanAlgorithm,
    kernels: Kernels,
}

/// The pipelines of a scan: the single pass, the three of
/// reduce-then-scan, and the tail.
struct Kernels {
    lookback: Pipeline,
    tile_reduce: Pipeline,
    scan_tile_sums: Pipeline,
    tile_scan: Pipeline,
    tail: Pipeline,
}

impl Scan {
    /// The scan of `kind` over `dtype` (u32 or i32) on `device`, which must
    /// have been created with the subgroup features
    /// ([`Target::wgpu_features`](crate::Target::wgpu_features)).
    /// Composes and compiles its pipelines (once).
    pub fn new<'d>(
        device: impl Into<Device<'d>>,
        kind: ScanKind,
        dtype: Dtype,
    ) -> Result<Self, Error> {
        if !matches!(dtype, Dtype::U32 | Dtype::I32) {
            return Err(Error::Usage(format!(
                "wavekit::device::Scan sums u32 or i32, not {dtype}"
            )));
        }
        Scan::with_context(Context::new(device.into())?, kind, false, None)
    }

    /// The scan of `kind` over `dtype` (u32, i32 or f32) under `operator`
    /// on `device` (created with the subgroup features, as for
    /// [`Scan::new`]). [`ScanOperator::Add`] of u32 or i32 is the same scan
    /// as [`Scan::new`]'s; every other operator runs the same tiles with
    /// its own combinations.
    /// Composes and compiles its pipelines (once); a user operator that
    /// does not compile is an [`Error::Compose`] pointing at its text.
    pub fn with_operator<'d>(
        device: impl Into<Device<'d>>,
        kind: ScanKind,
        dtype: Dtype,
        operator: ScanOperator,
    ) -> Result<Self, Error> {
        if !matches!(dtype, Dtype::U32 | Dtype::I32 | Dtype::F32) {
            return Err(Error::Usage(format!(
                "wavekit::device::Scan scans u32, i32 or f32, not {dtype}"
            )));
        }
        let ctx = Context::new(device.into())?;
        let sum = operator == ScanOperator::Add && dtype != Dtype::F32;
        Scan::with_context(ctx, kind, false, (!sum).then_some((dtype, &operator)))
    }

    /// The exclusive sum ([`ScanKind::Exclusive`]).
    pub fn exclusive_sum<'d>(device: impl Into<Device<'d>>, dtype: Dtype) -> Result<Self, Error> {
        Scan::new(device, ScanKind::Exclusive, dtype)
    }

    /// The inclusive sum ([`ScanKind::Inclusive`]).
    pub fn inclusive_sum<'d>(device: impl Into<Device<'d>>, dtype: Dtype) -> Result<Self, Error> {
        Scan::new(device, ScanKind::Inclusive, dtype)
    }

    /// The scan on `ctx`'s device: the u32 sum, or with `operator` that
    /// dtype and operator (not the u32 / i32 sum); `writable_input`
    /// declares the input `read_write` (for callers whose input shares a
    /// buffer with the output or temp, as the radix sort's count matrix
    /// does).
    pub(crate) fn with_context(
        ctx: Context,
        kind: ScanKind,
        writable_input: bool,
        operator: Option<(Dtype, &ScanOperator)>,
    ) -> Result<Self, Error> {
        // The look-back clears its tile state.
        let ctx = ctx.with_clears()?;
        let inclusive = matches!(kind, ScanKind::Inclusive);
        let declarations = match operator {
            Some((dtype, operator)) => Some((dtype, operator.declarations(dtype)?)),
            None => None,
        };
        let shader = |name| {
            let shader = Shader::new(name)?
                .map(|text| {
                    Ok(if writable_input {
                        super::shaders::writable(text)
                    } else {
                        text.to_string()
                    })
                })?
                .set("INCLUSIVE", inclusive);
            Ok::<_, Error>(match &declarations {
                Some((dtype, (op, identity))) => shader
                    .set("T", dtype)
                    .function("scan_op", op.clone())
                    .function("scan_identity", identity.clone()),
                None => shader,
            })
        };
        // Any operator but the sum: its combinations in tile order, the
        // look-back's window too.
        let ordered = declarations.is_some();
        let mut scan = shader("scan.wgsl")?
            .set_all(ctx.look_back_params())
            .set("SUM", !ordered)
            .set("ORDERED_WINDOW", ordered);
        // Through wgpu the other operators' look-back is thread 0's walk,
        // one predecessor a round: on an H200 through Vulkan the ordered
        // window made the inclusive u32 max 1.5x slower (278 against 185 us
        // at 2^26; natively the window is 1.34x faster, 165 against 221;
        // docs/benchmarks/2026-11-29a-h200-operator-scan-quads).
        if ordered && !ctx.is_native() {
            scan = scan.set("WINDOW", false);
        }
        let [block, quads] = scan.u32_values_in(
            "wavekit::device::Scan",
            [
                ("BLOCK", 1..=256, "threads"),
                ("QUADS", 1..=32, "vec4s per thread"),
            ],
        )?;
        // The sum's subgroup scans by shuffles on NVIDIA's Vulkan driver
        // (unless a tune profile or the caller chose): its
        // `subgroupInclusiveAdd` ran at 0.14 G ops/s an SM on an H200
        // against 0.39 for the shuffles (wavekit-micro), and the scan took
        // 13-22 % less time at 2^18-2^24 shuffled (62.8 -> 51.5 us at 2^24,
        // CUB 51.8; docs/benchmarks/2026-11-29o). The operator scans keep
        // the device's lowering: shuffled they were no faster there.
        let module = if !ordered && ctx.is_untuned_nvidia_vulkan() {
            ctx.compose_lowered(&scan, shuffled_arithmetic())?
        } else {
            ctx.compose(&scan)?
        };
        // Without the fallback, the sum's plain look-back (other operators
        // take the look-back's own FALLBACK switch).
        let single_pass = if ctx.fallback() || ordered {
            "scan_lookback"
        } else {
            "scan_lookback_plain"
        };
        let [lookback, tile_reduce, scan_tile_sums, tile_scan] = ctx.pipelines(
            &module,
            [single_pass, "tile_reduce", "scan_tile_sums", "tile_scan"],
        )?;
        let tail_module = ctx.compose(&shader("scan_tail.wgsl")?)?;
        let [tail] = ctx.pipelines(&tail_module, ["scan_tail"])?;
        Ok(Scan {
            algorithm: ctx.scan_algorithm(),
            ctx,
            kind,
            tile: 4 * u64::from(block) * u64::from(quads),
            kernels: Kernels {
                lookback,
                tile_reduce,
                scan_tile_sums,
                tile_scan,
                tail,
            },
        })
    }

    /// The same scan with `algorithm` instead of the device's choice (the
    /// single pass everywhere; [`ScanAlgorithm::ReduceThenScan`] is the
    /// explicit alternative).
    pub fn with_algorithm(mut self, algorithm: ScanAlgorithm) -> Self {
        self.algorithm = algorithm;
        self
    }

    /// The algorithm its calls record.
    pub fn algorithm(&self) -> ScanAlgorithm {
        self.algorithm
    }

    /// Exclusive or inclusive.
    pub fn kind(&self) -> ScanKind {
        self.kind
    }

    /// Temp bytes a call on `n` elements needs (8 bytes per tile of 8192
    /// elements, plus a word and alignment padding).
    pub fn temp_storage_bytes(&self, n: u32) -> u64 {
        self.temp_layout(n).0.bytes()
    }

    /// The temp regions: tile state, tile counter.
    fn temp_layout(&self, n: u32) -> (TempLayout, [(u64, u64); 2], u32) {
        let tiles = (u64::from(n) / 4 * 4).div_ceil(self.tile) as u32;
        let mut layout = TempLayout::new(&self.ctx.limits);
        let state = layout.place(8 * u64::from(tiles));
        let counter = layout.place(4);
        (layout, [state, counter], tiles)
    }

    /// Records the scan of the `n` elements at `input` into the `n`
    /// elements at `output`, with scratch at `temp`. Checks every slice
    /// first (an error names the slice and the numbers, and nothing is
    /// recorded); `n = 0` records nothing.
    pub fn record<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        input: Slice<'_>,
        output: Slice<'_>,
        n: u32,
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        const NAME: &str = "wavekit::device::Scan";
        distinct(NAME, ("input", input), ("output", output))?;
        distinct(NAME, ("input", input), ("temp", temp))?;
        let limits = &self.ctx.limits;
        let bytes = 4 * u64::from(n);
        let input = limits.check(NAME, "input", input, bytes)?;
        let output = limits.check(NAME, "output", output, bytes)?;
        let temp = limits.check(NAME, "temp", temp, self.temp_storage_bytes(n))?;
        if n == 0 {
            return Ok(());
        }
        record(&self.ctx, queue.into(), &self.ops(input, output, n, temp))
    }

    /// The commands of a checked call (`n > 0`, `temp` at least
    /// `temp_storage_bytes(n)`).
    pub(crate) fn ops<'a>(
        &'a self,
        input: Range<'a>,
        output: Range<'a>,
        n: u32,
        temp: Range<'a>,
    ) -> Vec<Op<'a>> {
        let Kernels {
            lookback,
            tile_reduce,
            scan_tile_sums,
            tile_scan,
            tail,
        } = &self.kernels;
        let (_, [state, counter], tiles) = self.temp_layout(n);
        let state = temp.sub(state.0, state.1);
        let counter = temp.sub(counter.0, counter.1);
        let quads_bytes = u64::from(n / 4) * 16;
        let mut ops = Vec::new();
        if quads_bytes > 0 {
            let bindings = vec![
                input.sub(0, quads_bytes),
                output.sub(0, quads_bytes),
                state,
                counter,
            ];
            let grid = self.ctx.grid(tiles);
            match self.algorithm {
                ScanAlgorithm::DecoupledLookBack => {
                    // One clear: the counter follows the state in temp.
                    ops.push(Op::Clear(state.through(&counter)));
                    ops.push(Op::Dispatch(lookback, bindings, grid));
                }
                ScanAlgorithm::ReduceThenScan => {
                    ops.push(Op::Dispatch(tile_reduce, bindings.clone(), grid));
                    ops.push(Op::Dispatch(scan_tile_sums, bindings.clone(), [1, 1, 1]));
                    ops.push(Op::Dispatch(tile_scan, bindings, grid));
                }
            }
        }
        if !n.is_multiple_of(4) {
            ops.push(Op::Dispatch(tail, vec![input, output], [1, 1, 1]));
        }
        ops
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::target::profile::Profile;

    /// The sum's strategy on NVIDIA's Vulkan driver lowers every op of the
    /// catalog as the tune profile it was measured with does (the H100's,
    /// which chose the shuffles for every op it timed), but `all_equal`,
    /// which that profile timed too and no scan calls.
    #[test]
    fn shuffled_arithmetic_is_the_measured_profile() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("docs/tune/2026-11-25-h100-vulkan-nvidia-580.159.04.json");
        let measured = Profile::read(&path).expect("the profile").strategy();
        let ours = shuffled_arithmetic();
        let mut shuffled = 0;
        for p in catalog::primitives() {
            let lowering = ours.lowering(p.name, p.lowerings);
            if !p.name.starts_with("all_equal") {
                assert_eq!(
                    lowering,
                    measured.lowering(p.name, p.lowerings),
                    "{}",
                    p.name
                );
            }
            shuffled += usize::from(lowering == Some(Lowering::Shuffle) && p.lowerings.len() > 1);
        }
        assert!(shuffled >= 10, "{shuffled} ops shuffled");
        for op in ["inclusive_add", "reduce_all_add", "reduce_all_min"] {
            assert_eq!(
                ours.lowering(op, &Lowering::ALL),
                Some(Lowering::Shuffle),
                "{op}"
            );
        }
        for op in ["any_true", "all_true", "shuffle", "broadcast"] {
            assert_eq!(
                ours.lowering(op, &Lowering::ALL),
                Some(Lowering::Builtin),
                "{op}"
            );
        }
    }
}
