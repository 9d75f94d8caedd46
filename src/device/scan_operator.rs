//! [`ScanOperator`]: the operator of a [`Scan`](super::Scan) other than the
//! u32 / i32 sum — f32 sums, min, max, a user WGSL function — and its
//! single-pass and reduce-then-scan pipelines over `shaders/scan_op.wgsl`.

use super::context::{Context, Op, Pipeline, TempLayout};
use super::shader::Shader;
use super::{ScanAlgorithm, ScanKind};
use crate::backend::Range;
use crate::dtype::Dtype;
use crate::error::Error;

/// Items a thread of `scan_op.wgsl` through wgpu (natively the shader's
/// 12): on an H200 through Vulkan the inclusive u32 max took 363 us at
/// 2^26 with 10 against 391 with 12 and 435 with 8; through CUDA 12 was
/// the fastest (218 us against 222 with 10 and 270 with 8;
/// docs/benchmarks/2026-11-28u-h200-segmented-scan-quads).
const WGPU_ITEMS: u32 = 10;

/// The associative operator of a scan, as CUB's `scan_op` functor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScanOperator {
    /// `a + b` (wrapping for u32 and i32; IEEE for f32), identity 0.
    Add,
    /// `min(a, b)`, identity the dtype's largest value (f32: +inf).
    Min,
    /// `max(a, b)`, identity the dtype's smallest value (f32: -inf).
    Max,
    /// Your WGSL function `fn NAME(a: T, b: T) -> T` (T the scan's dtype:
    /// `u32`, `i32` or `f32`, spelled out or as the shader's `alias T`), passed to the block layer's user-operator
    /// scans as `block::exclusive_scan<T, 256, NAME>` is. It must be
    /// associative, need not be commutative (operands are always combined
    /// earlier first), and may call helper functions defined in the same
    /// text (the first `fn` is the operator). `identity` is a WGSL
    /// expression of type T with `F(identity, x) = F(x, identity) = x`,
    /// e.g. `"0u"`; it is what an exclusive scan's first output is.
    Custom {
        /// The function's text (with any helpers it calls).
        wgsl: String,
        /// The identity, a WGSL expression of type T.
        identity: String,
    },
}

impl ScanOperator {
    /// A user operator: `wgsl` holds `fn NAME(a: T, b: T) -> T`,
    /// `identity` its identity as a WGSL expression.
    pub fn custom(wgsl: impl Into<String>, identity: impl Into<String>) -> Self {
        ScanOperator::Custom {
            wgsl: wgsl.into(),
            identity: identity.into(),
        }
    }

    /// The shader's `scan_op` and `scan_identity` declarations for `dtype`.
    pub(crate) fn declarations(&self, dtype: Dtype) -> Result<(String, String), Error> {
        let t = match dtype {
            Dtype::U32 => "u32",
            Dtype::I32 => "i32",
            _ => "f32",
        };
        let (body, identity) = match self {
            ScanOperator::Add => ("a + b", format!("{t}()")),
            ScanOperator::Min => (
                "min(a, b)",
                match dtype {
                    Dtype::U32 => "0xffffffffu".to_string(),
                    Dtype::I32 => "i32(0x7fffffff)".to_string(),
                    _ => "bitcast<f32>(0x7f800000u)".to_string(),
                },
            ),
            ScanOperator::Max => (
                "max(a, b)",
                match dtype {
                    Dtype::U32 => "0u".to_string(),
                    Dtype::I32 => "bitcast<i32>(0x80000000u)".to_string(),
                    _ => "bitcast<f32>(0xff800000u)".to_string(),
                },
            ),
            ScanOperator::Custom { wgsl, identity } => {
                let name = function_name(wgsl)?;
                return Ok((
                    format!(
                        "// The user's operator.\n{wgsl}\n\
                         fn scan_op(a: T, b: T) -> T {{ return {name}(a, b); }}"
                    ),
                    format!("fn scan_identity() -> T {{ return {identity}; }}"),
                ));
            }
        };
        Ok((
            format!("fn scan_op(a: T, b: T) -> T {{ return {body}; }}"),
            format!("fn scan_identity() -> T {{ return {identity}; }}"),
        ))
    }
}

/// The name of the first function `wgsl` declares.
fn function_name(wgsl: &str) -> Result<&str, Error> {
    let missing = || {
        Error::Usage(format!(
            "wavekit::device::ScanOperator::Custom: no `fn NAME(a: T, b: T) -> T` in {wgsl:?}"
        ))
    };
    let at = wgsl
        .match_indices("fn")
        .map(|(i, _)| i)
        .find(|&i| {
            let before = wgsl[..i].chars().next_back();
            let after = wgsl[i + 2..].chars().next();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                && after.is_some_and(char::is_whitespace)
        })
        .ok_or_else(missing)?;
    let rest = wgsl[at + 2..].trim_start();
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    if end == 0 {
        return Err(missing());
    }
    Ok(&rest[..end])
}

/// The pipelines of an operator scan: the single pass and the three of
/// reduce-then-scan.
pub(crate) struct OperatorKernels {
    /// Elements a tile: the shader's BLOCK × ITEMS (256 × 12 natively,
    /// ITEMS [`WGPU_ITEMS`] through wgpu, unless `WAVEKIT_SHADER_PARAMS`
    /// changes them).
    tile: u64,
    lookback: Pipeline,
    tile_reduce: Pipeline,
    scan_tile_sums: Pipeline,
    tile_scan: Pipeline,
}

/// The temp regions of a call: tile sums (reduce-then-scan), tile state
/// (the look-back, 2 words a tile) and the tile counter.
struct Regions {
    sums: (u64, u64),
    state: (u64, u64),
    counter: (u64, u64),
}

impl OperatorKernels {
    pub fn new(
        ctx: &Context,
        kind: ScanKind,
        dtype: Dtype,
        operator: &ScanOperator,
    ) -> Result<Self, Error> {
        let (op, identity) = operator.declarations(dtype)?;
        // The window walk (but on emulated subgroups), its lanes combined
        // in tile order by the operator (`ORDERED_WINDOW`); 12 items a
        // thread natively, 10 through wgpu (WGPU_ITEMS).
        let shader = Shader::new("scan_op.wgsl")?
            .set("T", dtype)
            .set("INCLUSIVE", kind == ScanKind::Inclusive)
            .function("scan_op", op)
            .function("scan_identity", identity)
            .set_all(ctx.look_back_params())
            .set("ORDERED_WINDOW", true);
        let shader = if ctx.is_native() {
            shader
        } else {
            shader.set("ITEMS", format!("{WGPU_ITEMS}u"))
        };
        let [block, items] = shader.u32_values_in(
            "wavekit::device::Scan",
            [
                ("BLOCK", 1..=256, "threads"),
                ("ITEMS", 1..=32, "elements per thread"),
            ],
        )?;
        let module = ctx.compose(&shader)?;
        let [lookback, tile_reduce, scan_tile_sums, tile_scan] = ctx.pipelines(
            &module,
            [
                "scan_lookback",
                "tile_reduce",
                "scan_tile_sums",
                "tile_scan",
            ],
        )?;
        Ok(OperatorKernels {
            tile: u64::from(block) * u64::from(items),
            lookback,
            tile_reduce,
            scan_tile_sums,
            tile_scan,
        })
    }

    fn tiles(&self, n: u32) -> u32 {
        u64::from(n).div_ceil(self.tile) as u32
    }

    fn layout(&self, ctx: &Context, n: u32) -> (TempLayout, Regions) {
        let tiles = u64::from(self.tiles(n));
        let mut layout = TempLayout::new(&ctx.limits);
        let regions = Regions {
            sums: layout.place(4 * tiles),
            state: layout.place(8 * tiles),
            counter: layout.place(4),
        };
        (layout, regions)
    }

    pub fn temp_storage_bytes(&self, ctx: &Context, n: u32) -> u64 {
        self.layout(ctx, n).0.bytes()
    }

    /// The commands of a checked call (`n > 0`) with `algorithm`.
    pub fn ops<'a>(
        &'a self,
        ctx: &Context,
        algorithm: ScanAlgorithm,
        input: Range<'a>,
        output: Range<'a>,
        n: u32,
        temp: Range<'a>,
    ) -> Vec<Op<'a>> {
        let (_, regions) = self.layout(ctx, n);
        let state = temp.sub(regions.state.0, regions.state.1);
        let counter = temp.sub(regions.counter.0, regions.counter.1);
        let bindings = vec![
            input,
            output,
            temp.sub(regions.sums.0, regions.sums.1),
            state,
            counter,
        ];
        let grid = ctx.grid(self.tiles(n));
        match algorithm {
            ScanAlgorithm::DecoupledLookBack => vec![
                // One clear: the counter follows the state in temp.
                Op::Clear(state.through(&counter)),
                Op::Dispatch(&self.lookback, bindings, grid),
            ],
            ScanAlgorithm::ReduceThenScan => vec![
                Op::Dispatch(&self.tile_reduce, bindings.clone(), grid),
                Op::Dispatch(&self.scan_tile_sums, bindings.clone(), [1, 1, 1]),
                Op::Dispatch(&self.tile_scan, bindings, grid),
            ],
        }
    }
}
