//! [`PartitionIf`] and [`PartitionFlagged`]: device-wide partitions of u32,
//! i32 or f32 by a caller's WGSL predicate or by flags — the selected
//! elements first, in order, the others after them in reverse order — as
//! CUB's `DevicePartition::If` / `Flagged`; the selections' single-pass
//! compaction ([`SelectIf`], [`SelectFlagged`]) writing both sides; and
//! [`ThreeWayPartition`], CUB's `DevicePartition::If` with two predicates,
//! on the same compaction ranking three ways.

use super::compaction::{FlagType, Keep};
use super::context::record;
use super::select::{SelectFlagged, SelectIf, selection_methods};
use super::slice::{Slice, disjoint, distinct_each};
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
///   gets `n` writes. Tiles of 256 × 20 elements on CUDA and 256 × 8
///   through wgpu, not the selection's 256 × 16 (measured on an H100 and
///   an H200; HIP keeps 256 × 16).
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

const THREE_WAY: &str = "wavekit::device::ThreeWayPartition";

/// A device-wide three-way partition by two WGSL predicates, as CUB's
/// `DevicePartition::If` with `select_first_part_op` and
/// `select_second_part_op`: the elements for which the first predicate
/// holds into the first output, in order; of the others, those for which
/// the second holds into the second output, in order; the rest into the
/// unselected output, in order; the sizes of the first two parts into
/// `counts[0]` and `counts[1]` (the unselected are `n - counts[0] -
/// counts[1]`). Built once per device, element type and predicates.
///
/// - **Order of the unselected**: as CUB *does*: the unselected elements
///   fill `unselected[0..u]` in input order (CUB's agent writes
///   `d_unselected_out[num_rejected_prefix + i]`, and its documented example,
///   which passes a `reverse_iterator`, comes out reversed through it). CUB's
///   prose says "in reverse order"; its code and example do not, and
///   wavekit follows them. Pass a slice you read from the end for the
///   reversed layout.
/// - **Predicates**: two WGSL texts, the first declaring `fn
///   first_part(x: T) -> bool`, the second `fn second_part(x: T) -> bool`
///   (`T` the element type, also spelled out), each as
///   [`SelectIf`]'s predicate: pure, no imports, no subgroup or barrier
///   operation, composed and checked on its own first (a malformed one is
///   an error at its own line). The second is called only where the first
///   does not hold. Both go into one module: helpers and constants they
///   declare must have distinct names.
/// - **Dtypes**: u32, i32, f32. **NaN** (f32) reaches the predicates as
///   any value does (a WGSL comparison with NaN is false, so `x < c` and
///   `x > c` both reject it), and every element keeps its bits.
/// - **Placement**: input `n` elements; the three outputs room for `n`
///   elements each (only their parts' first elements are written); counts
///   8 bytes (two u32); temp at least
///   [`ThreeWayPartition::temp_storage_bytes`] bytes (`STORAGE`). The
///   input's buffer is none of the others; the outputs, counts and temp may
///   share a buffer where their bytes do not overlap.
/// - **Algorithm**: [`SelectIf`]'s tiles of 4096 elements, each ranked by
///   two ballots a round (one per predicate); a tile publishes two counts,
///   and finds the two parts before it by two decoupled look-backs in the
///   same pass, one per count, each with the decoupled fallback (at most
///   2^30 − 1 elements), by [`ScanAlgorithm::for_adapter`](super::ScanAlgorithm::for_adapter)
///   as [`SelectIf`]'s; or (reduce-then-scan, where chosen) a count pass,
///   the device scan of the `2 × tiles` counts and a scatter pass.
/// - **Cost of a call**: 1 read of each element (2 with reduce-then-scan),
///   1 write of each; up to 2 clears and 5 dispatches (1 for `n = 0`, which
///   writes zero counts); nothing allocated, nothing read back.
pub struct ThreeWayPartition(SelectIf);

impl ThreeWayPartition {
    /// The three-way partition of `dtype` elements (u32, i32 or f32) by
    /// `first_part` (the text of `fn first_part(x: T) -> bool`) and
    /// `second_part` (of `fn second_part(x: T) -> bool`) on `device`
    /// (created with [`Target::wgpu_features`](crate::Target::wgpu_features)
    /// on wgpu). Checks the predicates, composes and compiles the pipelines
    /// (once).
    pub fn new<'d>(
        device: impl Into<Device<'d>>,
        dtype: Dtype,
        first_part: &str,
        second_part: &str,
    ) -> Result<Self, Error> {
        let keep = Keep::ThreeWay(first_part, second_part);
        SelectIf::build(device.into(), dtype, keep, THREE_WAY, false).map(ThreeWayPartition)
    }

    selection_methods!(ThreeWayPartition);

    /// Records the partition of the `n` elements at `input` into `first`,
    /// `second` and `unselected` (each in order from its start) and the
    /// sizes of the first two parts into `counts` (two u32), with scratch
    /// at `temp`. Checks every slice first (an error names the slice and
    /// the numbers, and nothing is recorded).
    #[allow(clippy::too_many_arguments)]
    pub fn record<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        input: Slice<'_>,
        first: Slice<'_>,
        second: Slice<'_>,
        unselected: Slice<'_>,
        counts: Slice<'_>,
        n: u32,
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        let (compaction, name) = self.0.compaction();
        // The algorithm's own limit first: no buffer could make a call
        // over it run.
        compaction.check(name, n)?;
        let written = [
            ("first", first),
            ("second", second),
            ("unselected", unselected),
            ("counts", counts),
            ("temp", temp),
        ];
        distinct_each(name, &[("input", input)], &written)?;
        let limits = &compaction.ctx.limits;
        let bytes = 4 * u64::from(n);
        let (layout, regions) = compaction.layout(n);
        let sizes = [bytes, bytes, bytes, 8, layout.bytes()];
        let mut ranges = Vec::with_capacity(written.len());
        for ((what, slice), size) in written.into_iter().zip(sizes) {
            ranges.push((what, limits.check(name, what, slice, size)?));
        }
        disjoint(name, &ranges)?;
        let input = limits.check(name, "input", input, bytes)?;
        let [first, second, unselected, counts, temp] = [0, 1, 2, 3, 4].map(|i| ranges[i].1);
        let ops = compaction.ops(
            input,
            &[second, unselected],
            first,
            counts,
            n,
            temp,
            &regions,
        );
        record(&compaction.ctx, queue.into(), &ops)
    }
}
