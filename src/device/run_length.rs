//! [`RunLengthEncode`]: device-wide run-length encoding of u32 or i32 keys
//! (the run starts by [`Compaction`](super::compaction) with
//! `RUN_STARTS`, then `shaders/run_length.wgsl`), as CUB's
//! `DeviceRunLengthEncode::Encode`.

use super::ScanAlgorithm;
use super::compaction::{Compaction, Keep};
use super::context::{Context, Op, Pipeline, TempLayout, record};
use super::shader::Shader;
use super::slice::{Slice, disjoint, distinct};
use super::user_fn;
use super::{ReduceByKey, ScanOperator};
use crate::backend::{Device, Queue};
use crate::dtype::Dtype;
use crate::error::Error;

const NAME: &str = "wavekit::device::RunLengthEncode";

/// A device-wide run-length encoding: for each maximal run of equal
/// consecutive keys, the key and the run's length, in order, and the number
/// of runs. Built once per device and key type.
///
/// - **Dtypes**: u32 and i32 keys (equal bits, equal keys); u32 lengths.
/// - **Placement**: input `n` keys; unique keys and lengths room for `n`
///   each (the first `runs` are written, the rest untouched); runs one u32;
///   temp at least [`RunLengthEncode::temp_storage_bytes`] bytes
///   (`STORAGE`), about 4 bytes per key. The input's buffer is
///   none of the others (it is bound read-only); the others may share a
///   buffer where their bytes do not overlap.
/// - **Algorithm**: the run starts (the first key and each that differs
///   from the key before it) are compacted as [`SelectIf`](super::SelectIf)
///   compacts, writing each start's index into temp and the number of runs
///   into `runs` (decoupled look-back or tile counts, the device scan and a
///   scatter, by [`ScanAlgorithm::for_adapter`] unless overridden); then
///   one thread per run reads its key at its start and its length as the
///   distance to the next start (the last run ends at `n`). CUB fuses the
///   lengths into one pass (a reduce-by-key); this takes one more pass,
///   over `n` threads of which the first `runs` work.
/// - **Non-trivial runs** ([`RunLengthEncode::non_trivial_runs`], CUB's
///   `NonTrivialRuns`): the offset and length of each run longer than one,
///   by [`ReduceByKey`]'s passes (its pipelines built with the encoding's).
/// - **Cost of a call**: 2 reads of each key and 1 write of each start,
///   then 2 reads of each start and 2 writes per run; up to 2 clears and
///   6 dispatches (1 for `n = 0`, which writes a zero run count).
pub struct RunLengthEncode {
    compaction: Compaction,
    lengths: Pipeline,
    /// [`RunLengthEncode::non_trivial_runs`]: a reduction by key of ones,
    /// counting the runs longer than one.
    /// Boxed: the encoding stays small to move.
    non_trivial: Box<ReduceByKey>,
}

impl RunLengthEncode {
    /// The encoding of `dtype` keys (u32 or i32) on `device`, which must
    /// have been created with [`Target::wgpu_features`](crate::Target::wgpu_features).
    /// Composes and compiles its pipelines (once).
    pub fn new<'d>(device: impl Into<Device<'d>>, dtype: Dtype) -> Result<Self, Error> {
        let element = user_fn::element(NAME, dtype, &[Dtype::U32, Dtype::I32])?;
        let ctx = Context::new(device.into())?;
        let module = ctx.compose(&Shader::new("run_length.wgsl")?.set("T", element))?;
        let [lengths] = ctx.pipelines(&module, ["run_lengths"])?;
        let non_trivial = Box::new(ReduceByKey::with_context(
            NAME,
            ctx.clone(),
            dtype,
            Dtype::U32,
            ScanOperator::Add,
            true,
        )?);
        Ok(RunLengthEncode {
            compaction: Compaction::new(ctx, element, Keep::RunStarts, false)?,
            lengths,
            non_trivial,
        })
    }

    /// The same encoding with `algorithm` instead of the device's choice
    /// for the compaction of the run starts (see
    /// [`SelectIf::with_algorithm`](super::SelectIf::with_algorithm)).
    pub fn with_algorithm(mut self, algorithm: ScanAlgorithm) -> Self {
        self.compaction.algorithm = algorithm;
        self
    }

    /// The algorithm its calls record.
    pub fn algorithm(&self) -> ScanAlgorithm {
        self.compaction.algorithm
    }

    /// The temp layout: the compaction's regions, then the starts.
    fn layout(&self, n: u32) -> (TempLayout, super::compaction::Regions, (u64, u64)) {
        let (mut layout, regions) = self.compaction.layout(n);
        let starts = layout.place(4 * u64::from(n));
        (layout, regions, starts)
    }

    /// Temp bytes a call on `n` keys needs: 4 per key for the run starts,
    /// a few per 4096 keys, plus alignment padding (enough for
    /// [`RunLengthEncode::non_trivial_runs`] too).
    pub fn temp_storage_bytes(&self, n: u32) -> u64 {
        self.layout(n)
            .0
            .bytes()
            .max(self.non_trivial.temp_storage_bytes(n))
    }

    /// Records the encoding of the `n` keys at `input`: the key of each run
    /// into `unique`, its length into `lengths`, the number of runs into
    /// `runs` (one u32), with scratch at `temp`. Checks every slice first
    /// (an error names the slice and the numbers, and nothing is recorded).
    #[allow(clippy::too_many_arguments)]
    pub fn record<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        input: Slice<'_>,
        unique: Slice<'_>,
        lengths: Slice<'_>,
        runs: Slice<'_>,
        n: u32,
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        self.compaction.check(NAME, n)?;
        for (what, slice) in [
            ("unique", unique),
            ("lengths", lengths),
            ("runs", runs),
            ("temp", temp),
        ] {
            distinct(NAME, ("input", input), (what, slice))?;
        }
        let ctx = &self.compaction.ctx;
        let bytes = 4 * u64::from(n);
        let input = ctx.limits.check(NAME, "input", input, bytes)?;
        let unique = ctx.limits.check(NAME, "unique", unique, bytes)?;
        let lengths = ctx.limits.check(NAME, "lengths", lengths, bytes)?;
        let runs = ctx.limits.check(NAME, "runs", runs, 4)?;
        let (layout, regions, starts) = self.layout(n);
        let temp = layout.check(&ctx.limits, NAME, temp)?;
        disjoint(
            NAME,
            &[
                ("unique", unique),
                ("lengths", lengths),
                ("runs", runs),
                ("temp", temp),
            ],
        )?;
        let starts = temp.sub(starts.0, bytes);
        let mut ops = self
            .compaction
            .ops(input, &[], starts, runs, n, temp, &regions);
        if n > 0 {
            ops.push(Op::Dispatch(
                &self.lengths,
                vec![input, starts, runs, unique, lengths],
                ctx.grid(n.div_ceil(256)),
            ));
        }
        record(ctx, queue.into(), &ops)
    }

    /// Records the runs longer than one of the `n` keys at `input`, as
    /// CUB's `DeviceRunLengthEncode::NonTrivialRuns`: the offset of each
    /// such run's first key into `offsets`, its length into `lengths`
    /// (u32, room for `n` each; the first `runs` written), their
    /// number into `runs` (one u32), with scratch at `temp`. Checks every
    /// slice first (an error names the slice and the numbers, and nothing
    /// is recorded).
    ///
    /// Algorithm: not the compaction's: [`ReduceByKey`]'s one pass over
    /// the keys, counting only the heads that do not end their run and
    /// summing ones; 1 clear and 1 dispatch (1 clear for `n = 0`).
    #[allow(clippy::too_many_arguments)]
    pub fn non_trivial_runs<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        input: Slice<'_>,
        offsets: Slice<'_>,
        lengths: Slice<'_>,
        runs: Slice<'_>,
        n: u32,
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        self.non_trivial.record_as(
            ["input", "input", "offsets", "lengths", "runs"],
            queue.into(),
            [input, input, offsets, lengths, runs],
            n,
            temp,
        )
    }
}
