//! [`SegmentedReduce`] and [`SegmentedScan`]: a reduction or a prefix scan
//! of each segment of an array, segments given by begin and end offsets or
//! of one fixed size, as CUB's `DeviceSegmentedReduce` and CCCL's
//! `DeviceSegmentedScan`, under any [`ScanOperator`]
//! (`shaders/segmented.wgsl`: one workgroup per segment).

use super::ScanKind;
use super::context::{Context, Op, Pipeline, record};
use super::scan_operator::ScanOperator;
use super::shader::Shader;
use super::shaders::writable;
use super::slice::{Slice, disjoint, distinct_each};
use super::user_fn;
use crate::backend::{Device, Queue, Range};
use crate::dtype::Dtype;
use crate::error::Error;

/// The composed shader's context and value type: the segment machinery
/// (offsets, fixed sizes) that [`SegmentedArgReduce`](super::SegmentedArgReduce)
/// shares.
pub(crate) struct Built {
    pub ctx: Context,
    pub dtype: Dtype,
}

impl Built {
    fn new(
        name: &str,
        device: Device<'_>,
        dtype: Dtype,
        operator: &ScanOperator,
        inclusive: bool,
        in_place: bool,
    ) -> Result<(Self, crate::expand::ValidModule), Error> {
        let element = user_fn::element(name, dtype, &[Dtype::U32, Dtype::I32, Dtype::F32])?;
        let ctx = Context::new(device)?;
        let (op, identity) = operator.declarations(dtype)?;
        let shader = Shader::new("segmented.wgsl")?
            .map(|text| {
                Ok(if in_place {
                    writable(text)
                } else {
                    text.to_string()
                })
            })?
            .set("T", element)
            .set("INCLUSIVE", inclusive)
            .function("scan_op", op)
            .function("scan_identity", identity);
        let module = ctx.compose(&shader)?;
        Ok((Built { ctx, dtype }, module))
    }

    /// The checked offsets of a call on `segments` segments.
    fn offsets<'a>(
        &self,
        name: &str,
        begin_offsets: Slice<'a>,
        end_offsets: Slice<'a>,
        segments: u32,
    ) -> Result<[Range<'a>; 2], Error> {
        let bytes = 4 * u64::from(segments);
        let limits = &self.ctx.limits;
        Ok([
            limits.check(name, "begin_offsets", begin_offsets, bytes)?,
            limits.check(name, "end_offsets", end_offsets, bytes)?,
        ])
    }

    /// `segments * segment_size` elements, or an error naming them.
    fn fixed_count(name: &str, segments: u32, segment_size: u32) -> Result<u32, Error> {
        if segment_size == 0 {
            return Err(Error::Usage(format!(
                "{name}: the fixed segment size is 0 (for {segments} segments); it must be at least 1"
            )));
        }
        segments.checked_mul(segment_size).ok_or_else(|| {
            Error::Usage(format!(
                "{name}: {segments} segments of {segment_size} elements exceed 2^32 - 1 elements"
            ))
        })
    }

    /// The checked input of `n` elements and output of `per_segment`
    /// bytes for each of `num_segments` segments.
    fn data<'a>(
        &self,
        name: &str,
        [input, output]: [Slice<'a>; 2],
        n: u32,
        per_segment: u64,
        num_segments: u32,
    ) -> Result<[Range<'a>; 2], Error> {
        let limits = &self.ctx.limits;
        let bytes = per_segment * u64::from(num_segments);
        Ok([
            limits.check(name, "input", input, 4 * u64::from(n))?,
            limits.check(name, "output", output, bytes)?,
        ])
    }

    /// Checks and records a reduction of each of `segments` (their count,
    /// begin and end offsets) of the `n` elements at `input` into
    /// `per_segment` bytes a segment at `output`, its errors naming
    /// `name`: `pipelines` are the offsets' entry point and the one for
    /// `n = 0` (every segment empty, the offsets bound as the input).
    pub fn record_reduction(
        &self,
        name: &str,
        queue: Queue<'_>,
        [offsets, fill]: [&Pipeline; 2],
        (input, n): (Slice<'_>, u32),
        (output, per_segment): (Slice<'_>, u64),
        (num_segments, begin_offsets, end_offsets): (u32, Slice<'_>, Slice<'_>),
    ) -> Result<(), Error> {
        distinct_each(
            name,
            &[
                ("input", input),
                ("begin_offsets", begin_offsets),
                ("end_offsets", end_offsets),
            ],
            &[("output", output)],
        )?;
        let [input, output] = self.data(name, [input, output], n, per_segment, num_segments)?;
        let [begin, end] = self.offsets(name, begin_offsets, end_offsets, num_segments)?;
        if num_segments == 0 {
            return Ok(());
        }
        let grid = self.ctx.grid(num_segments);
        let op = if n == 0 {
            // No elements: every segment is empty. The offsets stand in
            // for the (unread) input, which cannot be bound empty.
            Op::Dispatch(fill, vec![begin, output, begin, end], grid)
        } else {
            Op::Dispatch(offsets, vec![input, output, begin, end], grid)
        };
        record(&self.ctx, queue, &[op])
    }

    /// Checks and records a reduction of each of `num_segments` segments
    /// of `segment_size` elements (≥ 1) at `input` into `per_segment`
    /// bytes a segment at `output` by `fixed`, its errors naming `name`.
    pub fn record_fixed_reduction(
        &self,
        name: &str,
        queue: Queue<'_>,
        fixed: &Pipeline,
        [input, output]: [Slice<'_>; 2],
        per_segment: u64,
        (num_segments, segment_size): (u32, u32),
    ) -> Result<(), Error> {
        distinct_each(name, &[("input", input)], &[("output", output)])?;
        let n = Built::fixed_count(name, num_segments, segment_size)?;
        let [input, output] = self.data(name, [input, output], n, per_segment, num_segments)?;
        self.record_fixed(queue, fixed, input, output, num_segments)
    }

    /// Records `fixed` (a fixed-size entry point) over `num_segments`
    /// segments of the checked `input` into `output` (nothing for no
    /// segments).
    fn record_fixed(
        &self,
        queue: Queue<'_>,
        fixed: &Pipeline,
        input: Range<'_>,
        output: Range<'_>,
        num_segments: u32,
    ) -> Result<(), Error> {
        if num_segments == 0 {
            return Ok(());
        }
        // The segment count is the end offsets' length: the input's first
        // words stand in for them (never read).
        let bindings = vec![
            input,
            output,
            input.sub(0, 4),
            input.sub(0, 4 * u64::from(num_segments)),
        ];
        let ctx = &self.ctx;
        record(
            ctx,
            queue,
            &[Op::Dispatch(fixed, bindings, ctx.grid(num_segments))],
        )
    }
}

/// The methods [`SegmentedReduce`] and [`SegmentedScan`] share: their
/// element type and operator (from their `built` and `operator` fields).
macro_rules! segmented_methods {
    () => {
        /// The element type.
        pub fn dtype(&self) -> Dtype {
            self.built.dtype
        }

        /// The operator.
        pub fn operator(&self) -> &ScanOperator {
            &self.operator
        }
    };
}

/// A device-wide segmented reduction: the reduction of each segment of an
/// array into one value a segment, as CUB's `DeviceSegmentedReduce::Reduce`
/// / `Sum` / `Min` / `Max` (and its fixed-size form). Built once per
/// device, dtype and operator.
///
/// - **Dtypes and operators**: u32, i32 or f32 under a [`ScanOperator`]
///   (sum, min, max, or your associative WGSL function with its identity;
///   it need not be commutative: a segment is combined in order). An
///   empty segment reduces to the identity (CUB's `initial_value`). An f32
///   sum is reassociated (per lane, then a tree over a subgroup's lanes,
///   then over its groups and the subgroups' shares).
/// - **Segments**: [`SegmentedReduce::record`] takes `num_segments` begin
///   and end offsets (u32 arrays, as CUB's `d_begin_offsets` /
///   `d_end_offsets`; each slice's offset aligned, so CUB's `offsets` and
///   `offsets + 1` are two arrays here); segments may overlap or leave
///   gaps; offsets past `n` read as `n`, and a begin past its end is an
///   empty segment.
///   [`SegmentedReduce::record_fixed`] takes segments of one size
///   (`segment_size` ≥ 1) over `num_segments * segment_size` elements.
/// - **Placement**: the input and offsets are bound read-only, so the
///   output (one element a segment) is in another buffer. No temp.
/// - **Algorithm**: one workgroup of 256 threads per segment, cut into one
///   equal share a subgroup; each subgroup folds its share with no barrier
///   (4 consecutive elements a lane, 4 groups of them read at once, the
///   lanes combined in order by shuffles), and the workgroup combines the
///   shares once. A segment of a few elements still takes a workgroup. On
///   an H200 through CUDA, u32 sums ran at 1.08–1.82× CUB's speed over
///   segments of 1024 (2^20–2^26 elements), and over segments of 65536 at
///   0.56–0.64× while there are fewer segments than SMs (2^20–2^23) and
///   0.90–0.96× from 2^24
///   (`docs/benchmarks/2026-11-28p-h200-segmented-shares`).
/// - **Cost of a call**: 1 dispatch (nothing for no segments).
pub struct SegmentedReduce {
    built: Built,
    operator: ScanOperator,
    offsets: Pipeline,
    fixed: Pipeline,
    fill: Pipeline,
}

const REDUCE: &str = "wavekit::device::SegmentedReduce";

impl SegmentedReduce {
    /// The segmented reduction of `dtype` (u32, i32 or f32) under
    /// `operator` on `device` (created with
    /// [`Target::wgpu_features`](crate::Target::wgpu_features) on wgpu).
    /// Composes and compiles its pipelines (once).
    pub fn new<'d>(
        device: impl Into<Device<'d>>,
        dtype: Dtype,
        operator: ScanOperator,
    ) -> Result<Self, Error> {
        let (built, module) = Built::new(REDUCE, device.into(), dtype, &operator, true, false)?;
        let [offsets, fixed, fill] = built.ctx.pipelines(
            &module,
            ["segmented_reduce", "fixed_reduce", "fill_identity"],
        )?;
        Ok(SegmentedReduce {
            built,
            operator,
            offsets,
            fixed,
            fill,
        })
    }

    segmented_methods!();

    /// Records the reduction of each of `num_segments` segments of the `n`
    /// elements at `input` (segment `s` is `[begin_offsets[s],
    /// end_offsets[s])`) into `output[s]`. Checks every slice first (an
    /// error names the slice and the numbers, and nothing is recorded).
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
        let segments = (num_segments, begin_offsets, end_offsets);
        self.built.record_reduction(
            REDUCE,
            queue.into(),
            [&self.offsets, &self.fill],
            (input, n),
            (output, 4),
            segments,
        )
    }

    /// Records the reduction of each of `num_segments` segments of
    /// `segment_size` elements (≥ 1) at `input` (`num_segments *
    /// segment_size` elements) into `output[s]`. Checks every slice first.
    pub fn record_fixed<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        input: Slice<'_>,
        output: Slice<'_>,
        num_segments: u32,
        segment_size: u32,
    ) -> Result<(), Error> {
        self.built.record_fixed_reduction(
            REDUCE,
            queue.into(),
            &self.fixed,
            [input, output],
            4,
            (num_segments, segment_size),
        )
    }
}

/// A device-wide segmented prefix scan: each segment of an array scanned
/// on its own, inclusive or exclusive, as CCCL's `DeviceSegmentedScan`
/// (and a fixed-size form). Built once per device, kind, dtype and
/// operator.
///
/// - **Dtypes, operators and segments**: [`SegmentedReduce`]'s. The
///   exclusive scan starts each segment at the identity. Elements outside
///   every segment are not written; overlapping segments give unspecified
///   values where they overlap.
/// - **Placement**: the output is `n` elements; it may be the input
///   itself (in place, as CUB allows: each element is read before it is
///   written, by the thread that writes it), else it must not overlap it.
///   The offsets must not share bytes with the output. No temp.
/// - **Algorithm**: one workgroup of 256 threads per segment, walking it in
///   tiles of 1024 elements (4 consecutive per thread) with a block scan a
///   tile and a carry running from tile to tile: 1 read and 1 write per
///   element. On an H200 through CUDA, inclusive u32 sums ran at 1.24–2.23×
///   the speed of CUB's `InclusiveSumByKey` over segment numbers (CUB 3.0
///   has no segmented scan) over segments of 1024, and over segments of
///   65536 at 0.24–0.63× from 2^20 to 2^23 (a segment's tiles one after
///   another in one workgroup, a few workgroups on the GPU), 0.94× at 2^24
///   and 1.29–1.51× above (`docs/benchmarks/2026-11-28p-h200-segmented-shares`).
/// - **Cost of a call**: 1 dispatch (nothing for no segments or
///   elements).
pub struct SegmentedScan {
    built: Built,
    kind: ScanKind,
    operator: ScanOperator,
    offsets: Pipeline,
    fixed: Pipeline,
}

const SCAN: &str = "wavekit::device::SegmentedScan";

impl SegmentedScan {
    /// The segmented scan of `kind` of `dtype` (u32, i32 or f32) under
    /// `operator` on `device` (created with
    /// [`Target::wgpu_features`](crate::Target::wgpu_features) on wgpu).
    /// Composes and compiles its pipelines (once).
    pub fn new<'d>(
        device: impl Into<Device<'d>>,
        kind: ScanKind,
        dtype: Dtype,
        operator: ScanOperator,
    ) -> Result<Self, Error> {
        let inclusive = kind == ScanKind::Inclusive;
        let (built, module) = Built::new(SCAN, device.into(), dtype, &operator, inclusive, true)?;
        let [offsets, fixed] = built
            .ctx
            .pipelines(&module, ["segmented_scan", "fixed_scan"])?;
        Ok(SegmentedScan {
            built,
            kind,
            operator,
            offsets,
            fixed,
        })
    }

    /// Exclusive or inclusive.
    pub fn kind(&self) -> ScanKind {
        self.kind
    }

    segmented_methods!();

    /// The checked input and output of `n` elements: the same range (in
    /// place) or ranges that do not overlap.
    fn data<'a>(
        &self,
        input: Slice<'a>,
        output: Slice<'a>,
        n: u32,
    ) -> Result<(Range<'a>, Range<'a>), Error> {
        let limits = &self.built.ctx.limits;
        let bytes = 4 * u64::from(n);
        let input = limits.check(SCAN, "input", input, bytes)?;
        let output = limits.check(SCAN, "output", output, bytes)?;
        if !(input.buffer == output.buffer && input.offset == output.offset) {
            disjoint(SCAN, &[("input", input), ("output", output)])?;
        }
        Ok((input, output))
    }

    /// Records the scan of each of `num_segments` segments of the `n`
    /// elements at `input` (segment `s` is `[begin_offsets[s],
    /// end_offsets[s])`) into the same elements of `output` (`n`
    /// elements; may be `input`). Checks every slice first (an error names
    /// the slice and the numbers, and nothing is recorded).
    #[allow(clippy::too_many_arguments)]
    pub fn record<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        input: Slice<'_>,
        output: Slice<'_>,
        n: u32,
        num_segments: u32,
        begin_offsets: Slice<'_>,
        end_offsets: Slice<'_>,
    ) -> Result<(), Error> {
        let (input, output) = self.data(input, output, n)?;
        let [begin, end] = self
            .built
            .offsets(SCAN, begin_offsets, end_offsets, num_segments)?;
        disjoint(SCAN, &[("output", output), ("begin_offsets", begin)])?;
        disjoint(SCAN, &[("output", output), ("end_offsets", end)])?;
        if num_segments == 0 || n == 0 {
            return Ok(());
        }
        let ctx = &self.built.ctx;
        record(
            ctx,
            queue.into(),
            &[Op::Dispatch(
                &self.offsets,
                vec![input, output, begin, end],
                ctx.grid(num_segments),
            )],
        )
    }

    /// Records the scan of each of `num_segments` segments of
    /// `segment_size` elements (≥ 1) at `input` (`num_segments *
    /// segment_size` elements) into `output` (as many; may be `input`).
    /// Checks every slice first.
    pub fn record_fixed<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        input: Slice<'_>,
        output: Slice<'_>,
        num_segments: u32,
        segment_size: u32,
    ) -> Result<(), Error> {
        let n = Built::fixed_count(SCAN, num_segments, segment_size)?;
        let (input, output) = self.data(input, output, n)?;
        self.built
            .record_fixed(queue.into(), &self.fixed, input, output, num_segments)
    }
}
