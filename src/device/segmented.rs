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

/// An entry point as a call dispatches it: how many segments a workgroup
/// takes, and which vec4 views of its data it binds.
#[derive(Clone, Copy)]
pub(crate) struct Kernel<'p> {
    pipeline: &'p Pipeline,
    /// Segments a workgroup takes: 1, or its threads (a thread a segment).
    per_workgroup: u32,
    /// The quads bound after bindings 0–3.
    quads: Quads,
}

/// The vec4 views of a call's data that a kernel binds after bindings
/// 0–3, each the first `n / 4` quads of the same memory (`n` ≥ 4).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Quads {
    /// None.
    None,
    /// Binding 4, the input's (`segmented_reduce.wgsl`).
    Input,
    /// Bindings 4 and 5, the input's and the output's (`segmented.wgsl`).
    InputOutput,
}

impl<'p> Kernel<'p> {
    /// One workgroup a segment, bindings 0–3.
    pub fn workgroup_each(pipeline: &'p Pipeline) -> Self {
        Kernel {
            pipeline,
            per_workgroup: 1,
            quads: Quads::None,
        }
    }

    /// One thread a segment in workgroups of `threads`, bindings 0–3.
    fn thread_each(pipeline: &'p Pipeline, threads: u32) -> Self {
        Kernel {
            pipeline,
            per_workgroup: threads,
            quads: Quads::None,
        }
    }

    /// One workgroup a segment, bindings 4 and on the quads `quads` names.
    fn with_quads(pipeline: &'p Pipeline, quads: Quads) -> Self {
        Kernel {
            pipeline,
            per_workgroup: 1,
            quads,
        }
    }
}

impl Built {
    /// The context on `device` for elements of `dtype`.
    fn new(device: Device<'_>, dtype: Dtype) -> Result<Self, Error> {
        let ctx = Context::new(device)?;
        Ok(Built { ctx, dtype })
    }

    /// Shader `file` (`writable_bindings`: every binding read-write) with
    /// T (u32, i32 or f32, else an error naming `name`) and `operator`'s
    /// `scan_op` and `scan_identity` set.
    fn shader(
        &self,
        name: &str,
        file: &'static str,
        operator: &ScanOperator,
        writable_bindings: bool,
    ) -> Result<Shader, Error> {
        let element = user_fn::element(name, self.dtype, &[Dtype::U32, Dtype::I32, Dtype::F32])?;
        let (op, identity) = operator.declarations(self.dtype)?;
        Ok(Shader::new(file)?
            .map(|text| {
                Ok(if writable_bindings {
                    writable(text)
                } else {
                    text.to_string()
                })
            })?
            .set("T", element)
            .function("scan_op", op)
            .function("scan_identity", identity))
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

    /// The op of `kernel` over `num_segments` segments of the `n` checked
    /// elements at `input`, `bindings` its bindings 0–3 (1 the output).
    fn dispatch<'a>(
        &self,
        kernel: Kernel<'a>,
        mut bindings: Vec<Range<'a>>,
        (input, n): (Range<'a>, u32),
        num_segments: u32,
    ) -> Op<'a> {
        let quads = 16 * u64::from(n / 4);
        if kernel.quads != Quads::None {
            bindings.push(input.sub(0, quads));
        }
        if kernel.quads == Quads::InputOutput {
            bindings.push(bindings[1].sub(0, quads));
        }
        let workgroups = num_segments.div_ceil(kernel.per_workgroup);
        Op::Dispatch(kernel.pipeline, bindings, self.ctx.grid(workgroups))
    }

    /// Checks and records a reduction of each of `segments` (their count,
    /// begin and end offsets) of the `n` elements at `input` into
    /// `per_segment` bytes a segment at `output`, its errors naming
    /// `name`: `kernels` are the offsets' entry point and the one for
    /// `n = 0` (every segment empty, the offsets bound as the input).
    pub fn record_reduction(
        &self,
        name: &str,
        queue: Queue<'_>,
        [offsets, fill]: [Kernel<'_>; 2],
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
        let op = if n == 0 {
            // No elements: every segment is empty. The offsets stand in
            // for the (unread) input, which cannot be bound empty.
            self.dispatch(
                fill,
                vec![begin, output, begin, end],
                (begin, 0),
                num_segments,
            )
        } else {
            self.dispatch(
                offsets,
                vec![input, output, begin, end],
                (input, n),
                num_segments,
            )
        };
        record(&self.ctx, queue, &[op])
    }

    /// Checks and records a reduction of each of `num_segments` segments
    /// of `segment_size` elements (≥ 1) at `input` into `per_segment`
    /// bytes a segment at `output` by `fixed(n)` (the entry point for the
    /// checked `n` elements), its errors naming `name`.
    pub fn record_fixed_reduction<'k>(
        &self,
        name: &str,
        queue: Queue<'_>,
        fixed: impl FnOnce(u32) -> Kernel<'k>,
        [input, output]: [Slice<'_>; 2],
        per_segment: u64,
        (num_segments, segment_size): (u32, u32),
    ) -> Result<(), Error> {
        distinct_each(name, &[("input", input)], &[("output", output)])?;
        let n = Built::fixed_count(name, num_segments, segment_size)?;
        let [input, output] = self.data(name, [input, output], n, per_segment, num_segments)?;
        self.record_fixed(queue, fixed(n), (input, n), output, num_segments)
    }

    /// Records `fixed` (a fixed-size entry point) over `num_segments`
    /// segments of the `n` checked elements at `input` into `output`
    /// (nothing for no segments).
    fn record_fixed(
        &self,
        queue: Queue<'_>,
        fixed: Kernel<'_>,
        (input, n): (Range<'_>, u32),
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
        let op = self.dispatch(fixed, bindings, (input, n), num_segments);
        record(&self.ctx, queue, &[op])
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
///   sum is reassociated (per quad, per lane over its quads, then a tree
///   over a subgroup's lanes and over the subgroups' shares).
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
/// - **Algorithm**: one workgroup of 256 threads per segment. A segment is
///   read as the 16-byte quads inside it (vec4 loads) and the up to 3
///   elements before and after them; the quads are cut into one equal
///   share a subgroup, each subgroup folds its share with no barrier
///   (lane l reads quad l of each group of S, 4 or, from segments of 8192
///   elements on average, 8 quads a lane at once), and the workgroup
///   combines the shares once. For sum, min and max each lane keeps its
///   own total and its subgroup combines the lanes once; a user operator
///   combines every group over the subgroup in lane order. An input of
///   fewer than 4 elements takes a thread a segment. A segment of a few
///   elements still takes a workgroup. On an H200 through CUDA, u32 sums
///   ran at 1.08–1.85× CUB's speed over segments of 1024 (2^20–2^26
///   elements), and over segments of 65536 at 0.95–1.01×; through Vulkan
///   at 0.96–1.85× and 0.84–0.95×
///   (`docs/benchmarks/2026-11-28r-h200-segmented-quads`).
/// - **Cost of a call**: 1 dispatch (nothing for no segments).
pub struct SegmentedReduce {
    built: Built,
    operator: ScanOperator,
    /// The entry points by offsets and by fixed size, each in every form.
    offsets: Forms,
    fixed: Forms,
    /// `segmented_few.wgsl`'s for no elements.
    fill: Pipeline,
}

/// One entry point of SegmentedReduce (by offsets or by fixed size) in
/// each form: `segmented_reduce.wgsl`'s for segments of under [`LONG`]
/// elements on average and for longer ones (n ≥ 4), and
/// `segmented_few.wgsl`'s (n < 4).
struct Forms {
    short: Pipeline,
    long: Pipeline,
    few: Pipeline,
}

impl Forms {
    /// The form for `n` elements in segments of `average` elements on
    /// average: by quads from 4 elements (the vec4 view needs 16 bytes),
    /// short or long by [`LONG`]; else a thread a segment.
    fn kernel(&self, n: u32, average: u32) -> Kernel<'_> {
        if n < 4 {
            Kernel::thread_each(&self.few, FEW_BLOCK)
        } else if average < LONG {
            Kernel::with_quads(&self.short, Quads::Input)
        } else {
            Kernel::with_quads(&self.long, Quads::Input)
        }
    }
}

const REDUCE: &str = "wavekit::device::SegmentedReduce";

/// Threads of a workgroup of `segmented_few.wgsl` (a thread a
/// segment).
const FEW_BLOCK: u32 = 64;

/// The quads a lane reads at once (`GROUPS`) in the short form and the
/// long. A segment of under [`LONG`] elements never fills a batch of the
/// long form's, so the short form is the long one with fewer registers:
/// natively 32 with [`SHORT_RESIDENT`] workgroups an SM (8 quads a lane
/// take 40, so 6 workgroups an SM), the occupancy short segments need; long
/// ones need the bytes in flight, one workgroup a segment (H200 through
/// CUDA, docs/benchmarks/2026-11-28r-h200-segmented-quads).
const SHORT_GROUPS: u32 = 4;
const LONG_GROUPS: u32 = 8;
const SHORT_RESIDENT: u32 = 8;
/// A workgroup's elements in a batch of the long form: 256 threads, a
/// quad of 4 elements, [`LONG_GROUPS`] of them.
const LONG: u32 = 256 * 4 * LONG_GROUPS;

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
        let built = Built::new(device.into(), dtype)?;
        // Sum, min and max commute: each lane keeps its own total.
        let commutative = !matches!(operator, ScanOperator::Custom { .. });
        let reduce = built
            .shader(REDUCE, "segmented_reduce.wgsl", &operator, false)?
            .set("COMMUTATIVE", commutative);
        let quads = |groups: u32| {
            let shader = reduce.clone().set("GROUPS", format!("{groups}u"));
            built.ctx.compose(&shader)
        };
        let entries = ["segmented_reduce", "fixed_reduce"];
        // SAFETY: segmented_reduce.wgsl reads quads inside its segment's
        // whole quads (at most n / 4, the quads bound), elements inside
        // its segment (at most n), offsets and outputs below the segment
        // count (both checked to hold it), and writes every subgroup total
        // before the barrier that reads them.
        let [short, short_fixed] = unsafe {
            built
                .ctx
                .pipelines_proven_resident(&quads(SHORT_GROUPS)?, entries, SHORT_RESIDENT)?
        };
        let [long, long_fixed] =
            unsafe { built.ctx.pipelines_proven(&quads(LONG_GROUPS)?, entries)? };
        let few_shader = built
            .shader(REDUCE, "segmented_few.wgsl", &operator, false)?
            .set("BLOCK", format!("{FEW_BLOCK}u"));
        let [few, few_fixed, fill] = built.ctx.pipelines(
            &built.ctx.compose(&few_shader)?,
            ["few_reduce", "few_fixed", "fill_identity"],
        )?;
        Ok(SegmentedReduce {
            built,
            operator,
            offsets: Forms { short, long, few },
            fixed: Forms {
                short: short_fixed,
                long: long_fixed,
                few: few_fixed,
            },
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
        let kernels = [
            self.offsets.kernel(n, n / num_segments.max(1)),
            Kernel::thread_each(&self.fill, FEW_BLOCK),
        ];
        self.built.record_reduction(
            REDUCE,
            queue.into(),
            kernels,
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
            |n| self.fixed.kernel(n, segment_size),
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
///   tiles of 1024 elements that start on 16-byte boundaries, a quad of 4
///   consecutive elements per thread (one vec4 load and one vec4 store
///   where the quad lies wholly inside the segment, element by element at
///   its two ends), with a block scan a tile and a carry running from tile
///   to tile: 1 read and 1 write per element, as CCCL's
///   `DeviceSegmentedScan` (in its main branch, no release yet) does,
///   without the carry's barrier after a segment's last tile. An input of
///   fewer than 4 elements takes a thread a segment. On an H200 through
///   CUDA, inclusive u32 sums ran at 1.04–1.34× that scan's speed over
///   segments of 1024 from 2^20 to 2^26 and 1.22–1.55× over segments of
///   65536; through Vulkan at 0.86–1.28× and 1.39–1.60× up to 2^25
///   (`docs/benchmarks/2026-11-28u-h200-segmented-scan-quads`). Against
///   CUB 3.0's `InclusiveSumByKey` over segment numbers, which spreads any
///   segment over the whole GPU, a few long segments (2^20–2^23 elements
///   in segments of 65536) run at 0.24–0.64× (before the quads;
///   `docs/benchmarks/2026-11-28r-h200-segmented-quads`): each takes one
///   workgroup.
/// - **Cost of a call**: 1 dispatch (nothing for no segments or
///   elements).
pub struct SegmentedScan {
    built: Built,
    kind: ScanKind,
    operator: ScanOperator,
    /// `segmented.wgsl`'s entry points by offsets and by fixed size (n ≥ 4).
    offsets: Pipeline,
    fixed: Pipeline,
    /// `segmented_few.wgsl`'s (n < 4).
    few: Pipeline,
    few_fixed: Pipeline,
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
        let built = Built::new(device.into(), dtype)?;
        let inclusive = kind == ScanKind::Inclusive;
        let shader = built
            .shader(SCAN, "segmented.wgsl", &operator, true)?
            .set("INCLUSIVE", inclusive);
        // SAFETY: segmented.wgsl loads and stores elements only inside
        // their segment (below its end, at most n, the input and output
        // bound), whole quads only when all of their elements are (so
        // below n / 4, the quads bound), reads offsets below the segment
        // count (both offsets hold it), and reads workgroup memory only
        // after the barrier that follows its writes (the tile total, the
        // block scan's subgroup partials).
        let [offsets, fixed] = unsafe {
            built.ctx.pipelines_proven(
                &built.ctx.compose(&shader)?,
                ["segmented_scan", "fixed_scan"],
            )?
        };
        let few_shader = built
            .shader(SCAN, "segmented_few.wgsl", &operator, true)?
            .set("INCLUSIVE", inclusive)
            .set("BLOCK", format!("{FEW_BLOCK}u"));
        let [few, few_fixed] = built.ctx.pipelines(
            &built.ctx.compose(&few_shader)?,
            ["few_scan", "few_fixed_scan"],
        )?;
        Ok(SegmentedScan {
            built,
            kind,
            operator,
            offsets,
            fixed,
            few,
            few_fixed,
        })
    }

    /// The kernel for `n` elements: `whole` (an entry point of
    /// segmented.wgsl, with the quads of the input and the output) from 4
    /// elements (the vec4 views need 16 bytes), else `few` (a thread a
    /// segment).
    fn kernel<'p>(n: u32, whole: &'p Pipeline, few: &'p Pipeline) -> Kernel<'p> {
        if n < 4 {
            Kernel::thread_each(few, FEW_BLOCK)
        } else {
            Kernel::with_quads(whole, Quads::InputOutput)
        }
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
        let op = self.built.dispatch(
            SegmentedScan::kernel(n, &self.offsets, &self.few),
            vec![input, output, begin, end],
            (input, n),
            num_segments,
        );
        record(&self.built.ctx, queue.into(), &[op])
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
        let fixed = SegmentedScan::kernel(n, &self.fixed, &self.few_fixed);
        self.built
            .record_fixed(queue.into(), fixed, (input, n), output, num_segments)
    }
}
