//! [`Reduce`]: device-wide sum, min or max of f32, i32 or u32
//! (`shaders/reduce.wgsl`'s `partial_*` over the whole vec4s, then
//! `shaders/reduce_final.wgsl`), as CUB's `DeviceReduce::Sum` / `Min` / `Max`.

use super::context::{Context, Op, Pipeline, TempLayout, record};
use super::shader::Shader;
use super::slice::Slice;
use crate::backend::{Device, Queue};
use crate::error::Error;

/// Threads per workgroup of both passes.
const BLOCK: u64 = 256;

/// The reduction operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    /// `+` (wrapping for integers); 0 for no elements.
    Sum,
    /// `min`; for no elements the largest value of the type (f32: the
    /// largest finite, as CUB's `numeric_limits<float>::max()`).
    Min,
    /// `max`; for no elements the lowest value of the type (f32: the
    /// lowest finite).
    Max,
}

/// The element type of a reduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceType {
    /// `f32`.
    F32,
    /// `i32`.
    I32,
    /// `u32`.
    U32,
}

impl ReduceType {
    pub(crate) fn wgsl(self) -> &'static str {
        match self {
            ReduceType::F32 => "f32",
            ReduceType::I32 => "i32",
            ReduceType::U32 => "u32",
        }
    }

    /// The lowest and highest values as WGSL literals.
    pub(crate) fn bounds(self) -> (&'static str, &'static str) {
        match self {
            ReduceType::F32 => ("-3.40282347e+38f", "3.40282347e+38f"),
            ReduceType::I32 => ("i32(-2147483648)", "2147483647i"),
            ReduceType::U32 => ("0u", "4294967295u"),
        }
    }
}

/// A device-wide reduction, built once per device, operator and type.
///
/// - **Placement**: input `n` 4-byte elements, result 1 element; temp at
///   least [`Reduce::temp_storage_bytes`] bytes (`STORAGE`).
///   Input, result and temp must be three different buffers (wgpu binds a
///   buffer read-only or read-write in one dispatch).
/// - **Algorithm** (as CUB's, no float atomics, so an f32 sum is
///   deterministic for a given `n` and device): `G = min(ceil(n / 1024),
///   1056)` workgroups of 256 threads fold vec4s over a grid-stride loop (4
///   reads in flight a thread) and `blk::reduce_<op>` their partial; one
///   workgroup folds the partials and the last `n mod 4` elements. f32 sums
///   are in that order, not sequential. The 1056 (8 resident workgroups on
///   each of an H100's 132 SMs; a few waves on smaller GPUs) is
///   `reduce_final.wgsl`'s `MAX_PARTIALS`, the 4 `reduce.wgsl`'s `LOADS`.
///   Measured on an H100 with `TransformReduce` (x², f32) in one call,
///   1056 against 2048: CUDA 2^20 0.0082 against 0.0118 ms, 2^22 0.0087
///   against 0.0114 (CUB 0.0093), 2^24 and up the same; Vulkan the same
///   at every size (docs/benchmarks/2026-11-27f-h100-first-batch-ab).
/// - **Cost of a call**: 1 read of the input, 2 dispatches, 2 bind groups.
pub struct Reduce {
    ctx: Context,
    op: ReduceOp,
    partial: Pipeline,
    last: Pipeline,
    identity: Pipeline,
    /// Workgroups of the first pass at most (`MAX_PARTIALS`).
    max_partials: u64,
}

impl Reduce {
    /// The reduction by `op` of `ty` elements on `device` (created with the
    /// subgroup features, [`Target::wgpu_features`](crate::Target::wgpu_features)).
    pub fn new<'d>(
        device: impl Into<Device<'d>>,
        op: ReduceOp,
        ty: ReduceType,
    ) -> Result<Self, Error> {
        Self::with_transform(Context::new(device.into())?, op, ty.wgsl(), ty, None)
    }

    /// The reduction by `op` into `ty` of elements of WGSL type `element`,
    /// each mapped by `transform` (the text of `fn transform(x: T) -> U`,
    /// checked by the caller) as it is read; without one, `element` is
    /// `ty`'s.
    pub(crate) fn with_transform(
        ctx: Context,
        op: ReduceOp,
        element: &str,
        ty: ReduceType,
        transform: Option<&str>,
    ) -> Result<Self, Error> {
        let typed = |name| -> Result<Shader, Error> {
            let shader = Shader::new(name)?.set("T", element).set("U", ty.wgsl());
            Ok(match transform {
                Some(text) => shader.function("transform", text),
                None => shader,
            })
        };
        let module = ctx.compose(&typed("reduce.wgsl")?)?;
        let entry = match op {
            ReduceOp::Sum => "add",
            ReduceOp::Min => "min",
            ReduceOp::Max => "max",
        };
        let [partial] = ctx.pipelines(&module, [&format!("partial_{entry}") as &str])?;
        let (lowest, highest) = ty.bounds();
        let last = typed("reduce_final.wgsl")?
            .set("LOWEST", lowest)
            .set("HIGHEST", highest);
        let [max_partials] = last.u32_values_in(
            "wavekit::device::Reduce",
            [("MAX_PARTIALS", 1..=8192, "workgroups")],
        )?;
        let module = ctx.compose(&last)?;
        let [last, identity] = ctx.pipelines(
            &module,
            [
                &format!("final_{entry}") as &str,
                &format!("identity_{entry}"),
            ],
        )?;
        Ok(Reduce {
            ctx,
            op,
            partial,
            last,
            identity,
            max_partials: u64::from(max_partials),
        })
    }

    /// The operator.
    pub fn op(&self) -> ReduceOp {
        self.op
    }

    /// Workgroups of the first pass for `n` elements (0 below 4).
    fn groups(&self, n: u32) -> u64 {
        let quads = u64::from(n) / 4;
        if quads == 0 {
            0
        } else {
            quads.div_ceil(BLOCK).clamp(1, self.max_partials)
        }
    }

    /// Temp bytes a call on `n` elements needs: a partial per workgroup of
    /// the first pass (at most 8 KiB by default), plus alignment.
    pub fn temp_storage_bytes(&self, n: u32) -> u64 {
        let mut layout = TempLayout::new(&self.ctx.limits);
        layout.place(4 * self.groups(n));
        layout.bytes()
    }

    /// Records the reduction of the `n` elements at `input` into the one
    /// element at `result`, with scratch at `temp`. Checks every slice first
    /// (an error names it and the numbers, and nothing is recorded).
    pub fn record<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        input: Slice<'_>,
        result: Slice<'_>,
        n: u32,
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        self.record_as(
            "wavekit::device::Reduce",
            queue.into(),
            input,
            result,
            n,
            temp,
        )
    }

    /// [`Reduce::record`], its errors naming algorithm `name`.
    pub(crate) fn record_as(
        &self,
        name: &str,
        queue: Queue<'_>,
        input: Slice<'_>,
        result: Slice<'_>,
        n: u32,
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        super::slice::distinct(name, ("input", input), ("result", result))?;
        super::slice::distinct(name, ("input", input), ("temp", temp))?;
        super::slice::distinct(name, ("result", result), ("temp", temp))?;
        let limits = &self.ctx.limits;
        let temp = limits.check(name, "temp", temp, self.temp_storage_bytes(n))?;
        let result = limits.check(name, "result", result, 4)?;
        let input = limits.check(name, "input", input, 4 * u64::from(n))?;
        let groups = self.groups(n);
        let partials = temp.sub(0, 4 * groups.max(1));
        let ops = if n == 0 {
            vec![Op::Dispatch(
                &self.identity,
                vec![partials, partials, result],
                [1, 1, 1],
            )]
        } else {
            let mut ops = Vec::new();
            if groups > 0 {
                let quads = input.sub(0, u64::from(n / 4) * 16);
                ops.push(Op::Dispatch(
                    &self.partial,
                    vec![quads, partials, result],
                    [groups as u32, 1, 1],
                ));
            }
            ops.push(Op::Dispatch(
                &self.last,
                vec![input, partials, result],
                [1, 1, 1],
            ));
            ops
        };
        record(&self.ctx, queue, &ops)
    }
}
