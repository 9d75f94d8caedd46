//! [`PartitionIf`] and [`PartitionFlagged`]: device-wide partitions of u32,
//! i32 or f32 by a caller's WGSL predicate or by flags — the selected
//! elements first, in order, the others after them in reverse order — as
//! CUB's `DevicePartition::If` / `Flagged`; the selections' single-pass
//! compaction ([`SelectIf`], [`SelectFlagged`]) writing both sides.

use super::compaction::{FlagType, Keep};
use super::select::{SelectFlagged, SelectIf, selection_methods};
use super::slice::Slice;
use crate::backend::{Device, Queue};
use crate::dtype::Dtype;
use crate::error::Error;

/// A device-wide partition by a WGSL predicate, as CUB's
/// `DevicePartition::If`: the `s` elements for which the predicate holds
/// into `output[0..s]` in their order, the others into `output[s..n]` in
/// reverse order (the last of them first), and `s` into the count. Built
/// once per device, element type and predicate.
///
/// - **Predicate, dtypes, temp, algorithm and cost**: [`SelectIf`]'s (its
///   errors name `PartitionIf`); every element is written, so the output
///   gets `n` writes.
/// - **Placement**: as [`SelectIf`]'s: the output's `n` elements are all
///   written; it may not be the input (CUB's partition is not in place
///   either).
pub struct PartitionIf(SelectIf);

impl PartitionIf {
    /// The partition of `dtype` elements (u32, i32 or f32) by `predicate`
    /// (the text of `fn keep(x: T) -> bool`) on `device` (created with
    /// [`Target::wgpu_features`](crate::Target::wgpu_features) on wgpu).
    /// Checks the predicate, composes and compiles the pipelines (once).
    pub fn new<'d>(
        device: impl Into<Device<'d>>,
        dtype: Dtype,
        predicate: &str,
    ) -> Result<Self, Error> {
        let name = "wavekit::device::PartitionIf";
        SelectIf::build(device.into(), dtype, Keep::Predicate(predicate), name, true)
            .map(PartitionIf)
    }

    selection_methods!(PartitionIf);

    /// Records the partition of the `n` elements at `input` into the `n`
    /// at `output` and the number selected into `count` (one u32), with
    /// scratch at `temp`. Checks every slice first (an error names the
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

/// A device-wide partition by flags, as CUB's `DevicePartition::Flagged`:
/// the elements whose flag is not zero first, in order, the others after
/// them in reverse order, and the number flagged. Built once per device,
/// element type and flag type.
///
/// - **Dtypes, flags, placement, algorithm and cost**: [`SelectFlagged`]'s
///   (its errors name `PartitionFlagged`), every element written as in
///   [`PartitionIf`].
pub struct PartitionFlagged(SelectFlagged);

impl PartitionFlagged {
    /// The partition of `dtype` elements (u32, i32 or f32) by `flags` on
    /// `device` (created with [`Target::wgpu_features`](crate::Target::wgpu_features)
    /// on wgpu). Composes and compiles the pipelines (once).
    pub fn new<'d>(
        device: impl Into<Device<'d>>,
        dtype: Dtype,
        flags: FlagType,
    ) -> Result<Self, Error> {
        let name = "wavekit::device::PartitionFlagged";
        SelectFlagged::build(device.into(), dtype, flags, name, true).map(PartitionFlagged)
    }

    selection_methods!(PartitionFlagged);

    /// The flag type.
    pub fn flag_type(&self) -> FlagType {
        self.0.flag_type()
    }

    /// Records the partition of the `n` elements at `input` by their flags
    /// at `flags` into the `n` at `output` and the number flagged into
    /// `count` (one u32), with scratch at `temp`. Checks every slice first
    /// (an error names the slice and the numbers, and nothing is recorded).
    #[allow(clippy::too_many_arguments)]
    pub fn record<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        input: Slice<'_>,
        flags: Slice<'_>,
        output: Slice<'_>,
        count: Slice<'_>,
        n: u32,
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        self.0.record(queue, input, flags, output, count, n, temp)
    }
}
