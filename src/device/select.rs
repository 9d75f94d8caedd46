//! [`SelectIf`]: device-wide stream compaction of u32, i32 or f32 by a
//! caller's WGSL predicate (`shaders/compact.wgsl` through
//! [`Compaction`](super::compaction)), as CUB's `DeviceSelect::If`.

use super::ScanAlgorithm;
use super::compaction::{Compaction, FlagType, Keep};
use super::context::{Context, record};
use super::slice::{Slice, disjoint, distinct_each};
use super::user_fn::{self, Signature};
use crate::backend::{Device, Queue};
use crate::dtype::Dtype;
use crate::error::Error;

const NAME: &str = "wavekit::device::SelectIf";

/// The methods a selection built on [`SelectIf`] or [`SelectFlagged`]
/// (a newtype of one: [`PartitionIf`](super::PartitionIf),
/// [`PartitionFlagged`](super::PartitionFlagged), [`Unique`](super::Unique),
/// [`ThreeWayPartition`](super::ThreeWayPartition))
/// passes on to it: its algorithm, element type and temp size.
macro_rules! selection_methods {
    ($wrapper:ident) => {
        /// The same algorithm with `algorithm` instead of the device's
        /// choice (as [`SelectIf::with_algorithm`](super::SelectIf::with_algorithm)).
        pub fn with_algorithm(self, algorithm: super::ScanAlgorithm) -> Self {
            $wrapper(self.0.with_algorithm(algorithm))
        }

        /// The algorithm its calls record.
        pub fn algorithm(&self) -> super::ScanAlgorithm {
            self.0.algorithm()
        }

        /// The element type.
        pub fn dtype(&self) -> crate::dtype::Dtype {
            self.0.dtype()
        }

        /// Temp bytes a call on `n` elements needs
        /// ([`SelectIf::temp_storage_bytes`](super::SelectIf::temp_storage_bytes)'s).
        pub fn temp_storage_bytes(&self, n: u32) -> u64 {
            self.0.temp_storage_bytes(n)
        }
    };
}
pub(crate) use selection_methods;

/// A device-wide selection: the elements for which a WGSL predicate holds,
/// in their order, and how many there are. Built once per device, element
/// type and predicate.
///
/// - **Predicate**: the WGSL text of `fn keep(x: T) -> bool` (`T` is the
///   element type, also spelled out: `fn keep(x: u32) -> bool { return x <
///   100u; }`), a pure function of the element; it may bring helper
///   functions and module-scope constants, imports nothing and calls no
///   subgroup or barrier operation (it runs in non-uniform control flow).
///   It is composed on its own first: a malformed one is an
///   [`Error::Compose`] or [`Error::Wgsl`] at its own line and column.
/// - **Dtypes**: u32, i32, f32 (4-byte elements).
/// - **Placement**: input `n` elements; output room for `n` elements (the
///   kept ones are its first `count`, the rest untouched); count one u32;
///   temp at least [`SelectIf::temp_storage_bytes`] bytes
///   (`STORAGE`). The input's buffer is none of the others
///   (it is bound read-only); output, count and temp may share a buffer
///   where their bytes do not overlap.
/// - **Algorithm**: tiles of 4096 elements (256 threads × 16, lane-striped;
///   a full tile loaded without a test of each element); each kept element is ranked in its subgroup by `sg::ballot` and
///   `sg::lanemask_lt` (a popcount), the subgroups' totals through
///   workgroup memory; tiles learn the kept elements before them by
///   decoupled look-back in the same pass (1 read of each element, 1 write
///   of each kept one; at most 2^30 − 1 elements), or by a count pass, the
///   device scan of the tile counts and a scatter pass (2 reads, 1 write),
///   by [`ScanAlgorithm::for_adapter`] unless overridden (reduce-then-scan
///   on emulated subgroups, where the look-back cannot run).
/// - **Cost of a call**: up to 2 clears and 5 dispatches (1 for `n = 0`,
///   which writes a zero count); a bind group per dispatch; nothing
///   allocated, nothing read back.
pub struct SelectIf {
    compaction: Compaction,
    dtype: Dtype,
    /// The algorithm's name in errors (`PartitionIf` and `Unique` are
    /// selections too).
    name: &'static str,
}

impl SelectIf {
    /// The selection of `dtype` elements (u32, i32 or f32) by `predicate`
    /// (the text of `fn keep(x: T) -> bool`) on `device`, which must have
    /// been created with [`Target::wgpu_features`](crate::Target::wgpu_features).
    /// Checks the predicate, composes and compiles the pipelines (once).
    pub fn new<'d>(
        device: impl Into<Device<'d>>,
        dtype: Dtype,
        predicate: &str,
    ) -> Result<Self, Error> {
        Self::build(
            device.into(),
            dtype,
            Keep::Predicate(predicate),
            NAME,
            false,
        )
    }

    /// The compaction of `dtype` elements by `keep` (its predicates checked
    /// here), its errors naming algorithm `name`; `partition` writes the
    /// elements not kept too ([`PartitionIf`](super::PartitionIf)).
    pub(crate) fn build(
        device: Device<'_>,
        dtype: Dtype,
        keep: Keep<'_>,
        name: &'static str,
        partition: bool,
    ) -> Result<Self, Error> {
        let element = user_fn::element(name, dtype, &[Dtype::U32, Dtype::I32, Dtype::F32])?;
        let ctx = Context::new(device)?;
        let predicates = match keep {
            Keep::Predicate(predicate) => vec![("keep", predicate)],
            Keep::ThreeWay(first, second) => vec![("first_part", first), ("second_part", second)],
            _ => Vec::new(),
        };
        for (function, text) in predicates {
            let signature = Signature {
                algorithm: name,
                name: function,
                parameters: &["x"],
                returns: "bool",
            };
            user_fn::check(&ctx, &signature, text, element, None)?;
        }
        Ok(SelectIf {
            compaction: Compaction::new(ctx, element, keep, partition)?,
            dtype,
            name,
        })
    }

    /// The same selection with `algorithm` instead of the device's choice.
    /// Forcing [`ScanAlgorithm::DecoupledLookBack`] on a device that does
    /// not keep started workgroups running may hang it; on emulated
    /// subgroups its calls are errors (the look-back is one subgroup's).
    pub fn with_algorithm(mut self, algorithm: ScanAlgorithm) -> Self {
        self.compaction.algorithm = algorithm;
        self
    }

    /// The algorithm its calls record.
    pub fn algorithm(&self) -> ScanAlgorithm {
        self.compaction.algorithm
    }

    /// The element type.
    pub fn dtype(&self) -> Dtype {
        self.dtype
    }

    /// What a call does, in words, for reports.
    pub fn describe(&self) -> &'static str {
        self.compaction.describe()
    }

    /// The compaction its calls record, and the algorithm's name in
    /// errors ([`ThreeWayPartition`](super::ThreeWayPartition) records
    /// its own calls).
    pub(crate) fn compaction(&self) -> (&Compaction, &'static str) {
        (&self.compaction, self.name)
    }

    /// Temp bytes a call on `n` elements needs (a few bytes per 4096
    /// elements, plus alignment padding).
    pub fn temp_storage_bytes(&self, n: u32) -> u64 {
        self.compaction.layout(n).0.bytes()
    }

    /// Records the selection of the `n` elements at `input` into `output`
    /// (the kept elements in order) and `count` (their number, one u32),
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
        select(
            self.name,
            &self.compaction,
            queue.into(),
            [input, output, count, temp],
            None,
            n,
        )
    }
}

/// A device-wide selection by flags: the elements whose flag is not zero,
/// in their order, and how many there are, as CUB's
/// `DeviceSelect::Flagged`. Built once per device, element type and flag
/// type.
///
/// - **Dtypes**: u32, i32, f32 elements; u8 or u32 flags ([`FlagType`]).
/// - **Placement**: as [`SelectIf`]'s, and the flags of the `n` elements
///   (u8: `n` bytes rounded up to a multiple of 4), which may share the
///   input's buffer (both are read-only) and no other.
/// - **Algorithm and cost**: [`SelectIf`]'s, each element's flag read
///   beside it.
pub struct SelectFlagged {
    compaction: Compaction,
    dtype: Dtype,
    flags: FlagType,
    /// The algorithm's name in errors.
    name: &'static str,
}

impl SelectFlagged {
    /// The selection of `dtype` elements (u32, i32 or f32) by `flags` on
    /// `device` (created with [`Target::wgpu_features`](crate::Target::wgpu_features)
    /// on wgpu). Composes and compiles the pipelines (once).
    pub fn new<'d>(
        device: impl Into<Device<'d>>,
        dtype: Dtype,
        flags: FlagType,
    ) -> Result<Self, Error> {
        Self::build(device.into(), dtype, flags, FLAGGED, false)
    }

    /// [`SelectFlagged::new`], its errors naming algorithm `name`;
    /// `partition` writes the elements not kept too
    /// ([`PartitionFlagged`](super::PartitionFlagged)).
    pub(crate) fn build(
        device: Device<'_>,
        dtype: Dtype,
        flags: FlagType,
        name: &'static str,
        partition: bool,
    ) -> Result<Self, Error> {
        let element = user_fn::element(name, dtype, &[Dtype::U32, Dtype::I32, Dtype::F32])?;
        let ctx = Context::new(device)?;
        Ok(SelectFlagged {
            compaction: Compaction::new(ctx, element, Keep::Flags(flags), partition)?,
            dtype,
            flags,
            name,
        })
    }

    /// The same selection with `algorithm` instead of the device's choice
    /// (as [`SelectIf::with_algorithm`]).
    pub fn with_algorithm(mut self, algorithm: ScanAlgorithm) -> Self {
        self.compaction.algorithm = algorithm;
        self
    }

    /// The algorithm its calls record.
    pub fn algorithm(&self) -> ScanAlgorithm {
        self.compaction.algorithm
    }

    /// The element type.
    pub fn dtype(&self) -> Dtype {
        self.dtype
    }

    /// The flag type.
    pub fn flag_type(&self) -> FlagType {
        self.flags
    }

    /// Temp bytes a call on `n` elements needs ([`SelectIf::temp_storage_bytes`]'s).
    pub fn temp_storage_bytes(&self, n: u32) -> u64 {
        self.compaction.layout(n).0.bytes()
    }

    /// Records the selection of the `n` elements at `input` whose flag at
    /// `flags` is not zero into `output` (in order) and `count` (their
    /// number, one u32), with scratch at `temp`. Checks every slice first
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
        select(
            self.name,
            &self.compaction,
            queue.into(),
            [input, output, count, temp],
            Some((flags, self.flags.bytes(n))),
            n,
        )
    }
}

const FLAGGED: &str = "wavekit::device::SelectFlagged";

/// A selection's call: `slices` are input, output, count and temp; `flags`
/// the flags' slice and bytes where the compaction reads flags.
fn select(
    name: &str,
    compaction: &Compaction,
    queue: Queue<'_>,
    [input, output, count, temp]: [Slice<'_>; 4],
    flags: Option<(Slice<'_>, u64)>,
    n: u32,
) -> Result<(), Error> {
    // The algorithm's own limit first: no buffer could make a call over it
    // run.
    compaction.check(name, n)?;
    let readers: Vec<_> = std::iter::once(("input", input))
        .chain(flags.map(|(f, _)| ("flags", f)))
        .collect();
    distinct_each(
        name,
        &readers,
        &[("output", output), ("count", count), ("temp", temp)],
    )?;
    let ctx = &compaction.ctx;
    let bytes = 4 * u64::from(n);
    let input = ctx.limits.check(name, "input", input, bytes)?;
    let flags = flags
        .map(|(f, bytes)| ctx.limits.check(name, "flags", f, bytes))
        .transpose()?;
    let output = ctx.limits.check(name, "output", output, bytes)?;
    let count = ctx.limits.check(name, "count", count, 4)?;
    let (layout, regions) = compaction.layout(n);
    let temp = layout.check(&ctx.limits, name, temp)?;
    disjoint(
        name,
        &[("output", output), ("count", count), ("temp", temp)],
    )?;
    let ops = compaction.ops(input, flags.as_slice(), output, count, n, temp, &regions);
    record(ctx, queue, &ops)
}
