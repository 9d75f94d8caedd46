//! [`ArgReduce`]: the first index of the least or greatest f32, i32 or u32
//! element and the element (`shaders/arg_reduce.wgsl`), as CUB's
//! `DeviceReduce::ArgMin` / `ArgMax`.

use super::ReduceType;
use super::context::{Context, Op, Pipeline, TempLayout, record};
use super::shader::Shader;
use super::slice::{Slice, distinct, distinct_each};
use crate::backend::{Device, Queue};
use crate::error::Error;

const NAME: &str = "wavekit::device::ArgReduce";
/// Threads per workgroup of both passes.
const BLOCK: u64 = 256;

/// Which extreme an [`ArgReduce`] finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArgOp {
    /// The least element (CUB's `ArgMin`).
    Min,
    /// The greatest element (CUB's `ArgMax`).
    Max,
}

/// Shader `file` (arg_reduce.wgsl or segmented_arg.wgsl, both on
/// arg_order.wgsl) set for `op` on `ty`: the type, the order, the value of
/// no elements (CUB's) and the value of a thread without elements.
pub(crate) fn arg_shader(file: &'static str, op: ArgOp, ty: ReduceType) -> Result<Shader, Error> {
    let max = op == ArgOp::Max;
    let (lowest, highest) = ty.bounds();
    // The value of a thread without elements: the type's last value in
    // the order (f32: an infinity), so that every element comes first.
    let identity: u32 = match (ty, max) {
        (ReduceType::F32, false) => f32::INFINITY.to_bits(),
        (ReduceType::F32, true) => f32::NEG_INFINITY.to_bits(),
        (ReduceType::I32, false) => i32::MAX as u32,
        (ReduceType::I32, true) => i32::MIN as u32,
        (ReduceType::U32, false) => u32::MAX,
        (ReduceType::U32, true) => 0,
    };
    Ok(Shader::new(file)?
        .set("T", ty.wgsl())
        .set("MAX", max)
        .set("EMPTY", if max { lowest } else { highest })
        .set("IDENTITY_BITS", format!("{identity:#x}u")))
}

/// A device-wide arg-reduction: the index of the first least (or
/// greatest) element and the element, built once per device, operator and
/// type.
///
/// - **Result**: one pair of two 4-byte words, CUB's `KeyValuePair<int,
///   T>`: word 0 the index (a u32; CUB's `int`), word 1 the element's bits.
///   Of equal elements (`==`: `-0.0` equals `0.0`) the first index wins, as
///   in CUB; the element is the one at that index. With NaN in the input
///   the result is unspecified (as CUB's).
/// - **No elements** (`n = 0`): CUB's answer, `{1, numeric_limits<T>::max()}`
///   for [`ArgOp::Min`] and `{1, numeric_limits<T>::lowest()}` for
///   [`ArgOp::Max`] (f32: the largest and the lowest finite value).
/// - **Placement**: input `n` 4-byte elements; result 8 bytes; temp at
///   least [`ArgReduce::temp_storage_bytes`] bytes (`STORAGE`). Input,
///   result and temp are three different buffers (wgpu binds a buffer
///   read-only or read-write in one dispatch), as [`Reduce`](super::Reduce)'s.
/// - **Algorithm** (as [`Reduce`](super::Reduce)'s): `G = min(ceil(n /
///   4096), 1024)` workgroups of 256 threads fold a grid-stride share of
///   the tiles of 4096 elements each (16 a thread, all read before any is
///   folded; the shader parameters `ITEMS` and `MAX_PARTIALS` set the 16
///   and the 1024); subgroup reductions (`sg::reduce_all_min` of
///   the value, then of the index holding it) and workgroup memory give
///   each workgroup's first pair; one workgroup folds the `G` pairs.
///   Against 8 a thread and 2048 workgroups, on an H100 at 2^23: 12.0
///   against 14.3 µs through CUDA (CUB 13.5), 14.3 against 16.0 through
///   Vulkan (`docs/benchmarks/2026-11-28e-h100-hold-and-grains`).
/// - **Cost of a call**: 1 read of the input, 2 dispatches (1 for `n = 0`),
///   2 bind groups.
pub struct ArgReduce {
    ctx: Context,
    op: ArgOp,
    partial: Pipeline,
    last: Pipeline,
    empty: Pipeline,
    /// Elements per tile of the first pass: 256 threads × `ITEMS`.
    tile: u64,
    /// Workgroups of the first pass at most (`MAX_PARTIALS`).
    max_partials: u64,
}

impl ArgReduce {
    /// The arg-reduction by `op` of `ty` elements on `device` (created with
    /// the subgroup features, [`Target::wgpu_features`](crate::Target::wgpu_features),
    /// on wgpu). Composes and compiles its pipelines (once).
    pub fn new<'d>(
        device: impl Into<Device<'d>>,
        op: ArgOp,
        ty: ReduceType,
    ) -> Result<Self, Error> {
        let ctx = Context::new(device.into())?;
        let shader = arg_shader("arg_reduce.wgsl", op, ty)?;
        let [items, max_partials] = shader.u32_values_in(
            NAME,
            [
                ("ITEMS", 1..=32, "elements per thread"),
                ("MAX_PARTIALS", 1..=8192, "workgroups"),
            ],
        )?;
        let module = ctx.compose(&shader)?;
        let [partial, last, empty] = ctx.pipelines(&module, ["partial", "final_pass", "empty"])?;
        Ok(ArgReduce {
            ctx,
            op,
            partial,
            last,
            empty,
            tile: BLOCK * u64::from(items),
            max_partials: u64::from(max_partials),
        })
    }

    /// The operator.
    pub fn op(&self) -> ArgOp {
        self.op
    }

    /// Workgroups of the first pass for `n` elements: each has a tile at
    /// least.
    fn groups(&self, n: u32) -> u64 {
        u64::from(n).div_ceil(self.tile).min(self.max_partials)
    }

    /// Temp bytes a call on `n` elements needs: a pair per workgroup of
    /// the first pass (at most 16 KiB by default), plus alignment.
    pub fn temp_storage_bytes(&self, n: u32) -> u64 {
        let mut layout = TempLayout::new(&self.ctx.limits);
        layout.place(8 * self.groups(n).max(1));
        layout.bytes()
    }

    /// Records the arg-reduction of the `n` elements at `input` into the
    /// pair at `result` (index, then element), with scratch at `temp`.
    /// Checks every slice first (an error names it and the numbers, and
    /// nothing is recorded).
    pub fn record<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        input: Slice<'_>,
        result: Slice<'_>,
        n: u32,
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        // Three buffers: the empty call binds temp read-only beside result.
        distinct_each(
            NAME,
            &[("input", input), ("temp", temp)],
            &[("result", result)],
        )?;
        distinct(NAME, ("input", input), ("temp", temp))?;
        let limits = &self.ctx.limits;
        let input = limits.check(NAME, "input", input, 4 * u64::from(n))?;
        let result = limits.check(NAME, "result", result, 8)?;
        let temp = limits.check(NAME, "temp", temp, self.temp_storage_bytes(n))?;
        let groups = self.groups(n);
        let partials = temp.sub(0, 8 * groups.max(1));
        let ops = if n == 0 {
            vec![Op::Dispatch(
                &self.empty,
                vec![partials, result, result],
                [1, 1, 1],
            )]
        } else {
            vec![
                Op::Dispatch(
                    &self.partial,
                    vec![input, partials, result],
                    [groups as u32, 1, 1],
                ),
                Op::Dispatch(&self.last, vec![input, partials, result], [1, 1, 1]),
            ]
        };
        record(&self.ctx, queue.into(), &ops)
    }
}
