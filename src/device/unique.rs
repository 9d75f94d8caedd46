//! [`Unique`]: the first of each run of equal u32, i32 or f32 elements, in
//! order, and their number, as CUB's `DeviceSelect::Unique` (the
//! selections' compaction, each element kept where it differs from the one
//! before it).

use super::compaction::Keep;
use super::select::{SelectIf, selection_methods};
use super::slice::Slice;
use crate::backend::{Device, Queue};
use crate::dtype::Dtype;
use crate::error::Error;

/// A device-wide unique: the first element and each that differs (`!=`)
/// from the one before it, in order, and how many there are. Built once
/// per device and element type.
///
/// - **Dtypes**: u32, i32, f32 (f32 by `!=`, as CUB's `equality_op`
///   `==`: `-0.0` and `0.0` are one run; with NaN the runs are
///   unspecified, WGSL implementations may assume no NaN).
/// - **Placement, temp, algorithm and cost**: [`SelectIf`]'s (its errors
///   name `Unique`), but tiles of 256 × 12 through wgpu (measured on an
///   H200); each element's predecessor is read beside it.
pub struct Unique(SelectIf);

impl Unique {
    /// The unique of `dtype` elements (u32, i32 or f32) on `device`
    /// (created with [`Target::wgpu_features`](crate::Target::wgpu_features)
    /// on wgpu). Composes and compiles the pipelines (once).
    pub fn new<'d>(device: impl Into<Device<'d>>, dtype: Dtype) -> Result<Self, Error> {
        let name = "wavekit::device::Unique";
        SelectIf::build(device.into(), dtype, Keep::Unique, name, false).map(Unique)
    }

    selection_methods!(Unique);

    /// Records the unique of the `n` elements at `input` into `output` (the
    /// first of each run, in order) and `count` (their number, one u32),
    /// with scratch at `temp`. Checks every slice first (an error names the
    /// slice and the numbers, and nothing is recorded).
    pub fn record<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        input: Slice<'_>,
        output: Slice<'_>,
        count: Slice<'_>,
        n: u32,
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        self.0.record(queue, input, output, count, n, temp)
    }
}
