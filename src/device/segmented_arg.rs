//! [`SegmentedArgReduce`]: the first index of the least or greatest u32,
//! i32 or f32 element of each segment of an array, and the element, as
//! CUB's `DeviceSegmentedReduce::ArgMin` / `ArgMax`
//! (`shaders/segmented_arg.wgsl`: one workgroup per segment), with
//! [`ArgReduce`](super::ArgReduce)'s result pairs and
//! [`SegmentedReduce`](super::SegmentedReduce)'s segments.

use super::arg_reduce::{ArgOp, arg_shader};
use super::context::{Context, Pipeline};
use super::reduce::ReduceType;
use super::segmented::{Built, Kernel};
use super::slice::Slice;
use crate::backend::{Device, Queue};
use crate::dtype::Dtype;
use crate::error::Error;

const NAME: &str = "wavekit::device::SegmentedArgReduce";
/// Bytes of a segment's result: index, then element.
const PAIR: u64 = 8;

/// A device-wide segmented arg-reduction: for each segment of an array,
/// the index within the segment of its first least (or greatest) element
/// and the element. Built once per device, operator and type.
///
/// - **Result**: one pair a segment, two 4-byte words as
///   [`ArgReduce`](super::ArgReduce)'s (CUB's `KeyValuePair<int, T>`):
///   word 0 the index relative to the segment's begin (a u32), word 1 the
///   element's bits. Of equal elements (`==`: `-0.0` equals `0.0`) the
///   first index wins, and the element is the one at that index.
/// - **Empty segment**: the legacy CUB answer, `{1,
///   numeric_limits<T>::max()}` for [`ArgOp::Min`] and `{1,
///   numeric_limits<T>::lowest()}` for [`ArgOp::Max`] (f32: the largest
///   and the lowest finite value). (CCCL's newer overloads write `{-1,
///   max}`; wavekit keeps the answer [`ArgReduce`](super::ArgReduce)
///   gives for no elements.)
/// - **NaN** (f32): a NaN element is skipped, as if it were not in the
///   segment (NumPy's `nanargmin` / `nanargmax`), so the result does not
///   depend on how the elements are grouped; a segment of NaN alone gives
///   the empty segment's pair. (CUB's result with NaN depends on its
///   grouping.) Infinities are ordinary elements.
/// - **Segments**: as [`SegmentedReduce`](super::SegmentedReduce)'s:
///   [`SegmentedArgReduce::record`] takes `num_segments` begin and end
///   offsets (u32 arrays; segments may overlap or leave gaps; offsets past
///   `n` read as `n`, and a begin past its end is an empty segment);
///   [`SegmentedArgReduce::record_fixed`] takes segments of one size
///   (`segment_size` ≥ 1) over `num_segments * segment_size` elements.
/// - **Placement**: the input and offsets are bound read-only, so the
///   output (8 bytes a segment) is in another buffer. No temp.
/// - **Algorithm**: one workgroup of 256 threads per segment; each thread
///   keeps the first extreme of a strided share of the segment, then
///   subgroup reductions (the extreme value, then the least index holding
///   it) and workgroup memory give the segment's first pair.
/// - **Cost of a call**: 1 read of each element in a segment, 1 write a
///   segment, 1 dispatch (nothing for no segments).
pub struct SegmentedArgReduce {
    built: Built,
    op: ArgOp,
    offsets: Pipeline,
    fixed: Pipeline,
    fill: Pipeline,
}

impl SegmentedArgReduce {
    /// The segmented arg-reduction by `op` of `ty` elements on `device`
    /// (created with [`Target::wgpu_features`](crate::Target::wgpu_features)
    /// on wgpu). Composes and compiles its pipelines (once).
    pub fn new<'d>(
        device: impl Into<Device<'d>>,
        op: ArgOp,
        ty: ReduceType,
    ) -> Result<Self, Error> {
        let dtype = match ty {
            ReduceType::F32 => Dtype::F32,
            ReduceType::I32 => Dtype::I32,
            ReduceType::U32 => Dtype::U32,
        };
        let built = Built {
            ctx: Context::new(device.into())?,
            dtype,
        };
        let shader = arg_shader("segmented_arg.wgsl", op, ty)?.set("FLOAT", ty == ReduceType::F32);
        let entries = ["segmented_arg", "fixed_arg", "fill_empty"];
        let [offsets, fixed, fill] = built.ctx.pipelines(&built.ctx.compose(&shader)?, entries)?;
        Ok(SegmentedArgReduce {
            built,
            op,
            offsets,
            fixed,
            fill,
        })
    }

    /// The operator.
    pub fn op(&self) -> ArgOp {
        self.op
    }

    /// The element type.
    pub fn dtype(&self) -> Dtype {
        self.built.dtype
    }

    /// Records the arg-reduction of each of `num_segments` segments of the
    /// `n` elements at `input` (segment `s` is `[begin_offsets[s],
    /// end_offsets[s])`) into the pair at `output[s]` (8 bytes a segment:
    /// index within the segment, then element). Checks every slice first
    /// (an error names the slice and the numbers, and nothing is
    /// recorded).
    #[allow(clippy::too_many_arguments)]
    pub fn record<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        input: Slice<'_>,
        n: u32,
        output: Slice<'_>,
        num_segments: u32,
        begin_offsets: Slice<'_>,
        end_offsets: Slice<'_>,
    ) -> Result<(), Error> {
        self.built.record_reduction(
            NAME,
            queue.into(),
            [
                Kernel::workgroup_each(&self.offsets),
                Kernel::workgroup_each(&self.fill),
            ],
            (input, n),
            (output, PAIR),
            (num_segments, begin_offsets, end_offsets),
        )
    }

    /// Records the arg-reduction of each of `num_segments` segments of
    /// `segment_size` elements (≥ 1) at `input` (`num_segments *
    /// segment_size` elements) into the pair at `output[s]` (index within
    /// the segment, then element). Checks every slice first.
    pub fn record_fixed<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        input: Slice<'_>,
        output: Slice<'_>,
        num_segments: u32,
        segment_size: u32,
    ) -> Result<(), Error> {
        self.built.record_fixed_reduction(
            NAME,
            queue.into(),
            |_| Kernel::workgroup_each(&self.fixed),
            [input, output],
            PAIR,
            (num_segments, segment_size),
        )
    }
}
