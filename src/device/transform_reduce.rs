//! [`TransformReduce`]: the sum, min or max of a caller's WGSL map of each
//! u32, i32 or f32 element (`shaders/reduce.wgsl` and `reduce_final.wgsl`
//! with the map composed in), as CUB's `DeviceReduce::TransformReduce`.

use super::context::Context;
use super::reduce::{Reduce, ReduceOp, ReduceType};
use super::slice::Slice;
use super::user_fn::{self, Signature};
use crate::backend::{Device, Queue};
use crate::dtype::Dtype;
use crate::error::Error;

const NAME: &str = "wavekit::device::TransformReduce";

/// A device-wide reduction of mapped elements: `op` over `transform(x)`
/// for every element `x`, built once per device, element type, result
/// type, map and operator.
///
/// - **Map**: the WGSL text of `fn transform(x: T) -> U` (`T` the element
///   type, `U` the result type, both also spelled out: `fn transform(x:
///   u32) -> f32 { return f32(x) * 0.5; }`), a pure function of the
///   element; it may bring helper functions and module-scope constants,
///   imports nothing and calls no subgroup or barrier operation. It is
///   composed on its own first: a malformed one is an
///   [`Error::Compose`](crate::Error::Compose) or [`Error::Wgsl`](crate::Error::Wgsl)
///   at its own line and column, and one that does not declare `fn
///   transform(x: T) -> U` an [`Error::Usage`](crate::Error::Usage).
/// - **Operator and result**: [`ReduceOp`]'s sum, min or max of `U`, with
///   [`Reduce`]'s values for no elements (0, the largest, the lowest).
/// - **Placement, algorithm and cost**: [`Reduce`]'s (input `n` elements of
///   `T`, result one `U`): the map is applied in registers as each element
///   is read, so there is no mapped copy and temp is [`Reduce`]'s, a few
///   bytes per workgroup.
pub struct TransformReduce {
    reduce: Reduce,
    dtype: Dtype,
    output: ReduceType,
}

impl TransformReduce {
    /// The reduction by `op` into `output` of `transform` (the text of `fn
    /// transform(x: T) -> U`) over `dtype` elements (u32, i32 or f32) on
    /// `device` (created with [`Target::wgpu_features`](crate::Target::wgpu_features)
    /// on wgpu). Checks the map, composes and compiles the pipelines (once).
    pub fn new<'d>(
        device: impl Into<Device<'d>>,
        dtype: Dtype,
        transform: &str,
        op: ReduceOp,
        output: ReduceType,
    ) -> Result<Self, Error> {
        let element = user_fn::element(NAME, dtype, &[Dtype::U32, Dtype::I32, Dtype::F32])?;
        let ctx = Context::new(device.into())?;
        let signature = Signature {
            algorithm: NAME,
            name: "transform",
            parameters: &["x"],
            returns: "U",
        };
        user_fn::check(&ctx, &signature, transform, element, Some(output.wgsl()))?;
        Ok(TransformReduce {
            reduce: Reduce::with_transform(ctx, op, element, output, Some(transform))?,
            dtype,
            output,
        })
    }

    /// The operator.
    pub fn op(&self) -> ReduceOp {
        self.reduce.op()
    }

    /// The element type.
    pub fn dtype(&self) -> Dtype {
        self.dtype
    }

    /// The result type.
    pub fn output(&self) -> ReduceType {
        self.output
    }

    /// Temp bytes a call on `n` elements needs ([`Reduce::temp_storage_bytes`]).
    pub fn temp_storage_bytes(&self, n: u32) -> u64 {
        self.reduce.temp_storage_bytes(n)
    }

    /// Records the reduction of the mapped `n` elements at `input` into the
    /// one `U` at `result`, with scratch at `temp`. Checks every slice
    /// first (an error names it and the numbers, and nothing is recorded).
    pub fn record<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        input: Slice<'_>,
        result: Slice<'_>,
        n: u32,
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        self.reduce
            .record_as(NAME, queue.into(), input, result, n, temp)
    }
}
