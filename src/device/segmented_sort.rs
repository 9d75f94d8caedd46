//! [`SegmentedSort`]: sorts every segment of 32-bit keys (u32, i32, f32),
//! alone or with u32 values, given the segments' begin offsets, as CUB's
//! `DeviceSegmentedSort::SortKeys` / `SortPairs` (`shaders/segmented_sort.wgsl`).

use super::KeyType;
use super::context::{Context, Op, Pipeline, TempLayout, record};
use super::merge_sort::{CHUNK, MAX_PASSES, check_keys, merge_passes, place_runs};
use super::shader::Shader;
use super::shaders;
use super::slice::{Slice, disjoint, distinct_each, values_match};
use super::sort_network::SHORT_LIMIT;
use crate::backend::{Device, Queue};
use crate::error::Error;

/// Segments per `sort_short` workgroup (`SHORT_SEGS` in the shader).
const SHORT_SEGS: u64 = 64;
/// The most workgroups of a merge pass, each taking every such chunk in
/// turn: a pass with nothing to merge (every segment already sorted) then
/// costs that many flag reads (13 µs a pass with a workgroup per chunk at
/// 2^24 on an H100, docs/benchmarks/2026-11-27b-h100-segmented-sorts).
/// Fewer cost less where nothing merges and more where long segments do
/// (H200 through CUDA at 2^24: 512 or 1024 took 1–7 % off segments of
/// 1..=64 and added 16–38 % to segments of 1..=16384, 2026-11-28g).
const MERGE_GROUPS: u64 = 2048;
/// The most workgroups of the chunk sort, each taking every such chunk in
/// turn: where no segment is longer than [`SHORT_LIMIT`] a call then costs
/// that many reads of a word (a workgroup per chunk: 23 µs at 2^24 on an
/// H200 through CUDA, under Nsight Compute, 2026-11-28g).
const CHUNK_GROUPS: u64 = 1024;

/// The global merge passes of a call on `n` keys: four runs merge in each,
/// so `ceil(log4(n / CHUNK))`, half the two-way passes rounded up.
fn four_way_passes(n: u32) -> u32 {
    merge_passes(n).div_ceil(2)
}

/// Pairs a lane in `sort_short` (`GRAIN`): 8, so that a segment of 64
/// takes 8 lanes, or more where the narrowest subgroup is narrower than
/// that (a segment's lanes must be one subgroup's).
fn short_grain(narrowest: u32) -> u32 {
    (SHORT_LIMIT / narrowest.clamp(1, 8)).max(8)
}

/// A device-wide segmented sort, built once per device, key type and
/// whether values travel with the keys.
///
/// - **Segments**: `n_segments + 1` u32 offsets, non-decreasing, the last
///   at most `n`: segment `s` is elements `offsets[s] .. offsets[s + 1]`
///   (CUB's `d_begin_offsets = offsets`, `d_end_offsets = offsets + 1`).
///   Segments may be empty; elements before the first offset or after the
///   last are not written. Offsets that break these rules give unspecified
///   outputs, never an access outside the slices.
/// - **Order**: each segment ascending by key in the order of
///   [`KeyType`] (f32: `-inf < -1 < -0.0 < +0.0 < inf`, NaNs by their
///   bits, as [`RadixSort`](super::RadixSort)), pairs with equal keys by
///   ascending value: the result is the one sort of the (key, value)
///   tuples, deterministic. That is not a stable sort by key, except when
///   the values of equal keys come ascending (as indices do); keys alone
///   are indistinguishable when equal.
/// - **Placement**: keys (and values) in and out are `n` 4-byte elements;
///   the inputs (keys, values, offsets) must not share a buffer with the
///   outputs or the temp (not in place), and the outputs and temp must not
///   overlap. Temp: at least [`SegmentedSort::temp_storage_bytes`] bytes
///   (about 8 n for keys, 16 n for pairs), `STORAGE`; kernels bind it in
///   regions of at most 8 n + n / 256 bytes, each limited by the device's
///   `max_storage_buffer_binding_size` (the whole need not fit one).
/// - **Algorithm**: the length of each segment is read on the device, so
///   every call records three kinds of dispatch. Segments of at most 64
///   elements: 64 consecutive segments a workgroup, each in an aligned
///   group of the fewest lanes that hold it 8 pairs a lane (1 to 8 lanes;
///   16 pairs a lane where subgroups have 4 lanes), the workgroup's groups
///   packed widest first; loaded and stored coalesced through 8 KiB of
///   workgroup memory and sorted in registers by a bitonic network: stages
///   within a lane below 8, shuffles above, each stage across lanes only
///   inside a group (written out by the host, `sort_network.rs`, on
///   subgroups of 8 lanes or more; the shader's loops on narrower or
///   emulated ones). Longer
///   segments: their pieces in each aligned chunk of 1024 elements sorted
///   in workgroup memory by 10 merge levels (binary search per element),
///   done when the segment lies in one chunk; longer ones then merged in
///   global memory, pass p merging runs of `1024 · 4^p` (aligned, cut at
///   the segment's ends) four at a time, `ceil(log4(n / 1024))` passes,
///   each returning at once in chunks without unfinished segments.
/// - **Cost of a call**: a clear of one word and `2 + ceil(log4(n / 1024))`
///   dispatches, a bind group each, nothing allocated. Where no segment is
///   longer than 64, the chunk sort and the merge passes return after one
///   read of a word the short sort sets. Segments up to 64: one read and
///   one write per element, each element's group running the network of its
///   width (segments of 9 to 16: 2 lanes, 10 stages, 1 across lanes; of 33
///   to 64: 8 lanes, 21 stages, 6 across). Segments up to 1024 elements:
///   10 workgroup-memory merge levels. Longer: plus per pass, while the
///   segment is unfinished, one read, one write and three binary searches
///   (`log2(run)` reads each) per element, and a search of its chunk's
///   segments' offsets.
pub struct SegmentedSort {
    ctx: Context,
    key: KeyType,
    pairs: bool,
    /// `sort_short`: the segments of up to [`SHORT_LIMIT`].
    short: Pipeline,
    chunk: Pipeline,
    merge: Pipeline,
}

impl SegmentedSort {
    /// The sort of `key` keys, with u32 values when `pairs`, on `device`
    /// (created with the subgroup features,
    /// [`Target::wgpu_features`](crate::Target::wgpu_features), or without
    /// them, where subgroups are emulated). Composes and compiles its
    /// pipelines (once). Fails on 64-bit keys, which it does not sort.
    pub fn new<'d>(
        device: impl Into<Device<'d>>,
        key: KeyType,
        pairs: bool,
    ) -> Result<Self, Error> {
        if key.is_wide() {
            return Err(Error::Usage(format!(
                "wavekit::device::SegmentedSort: {key:?} keys: it sorts 32-bit keys \
                 (u32, i32, f32); 64-bit keys sort with RadixSort"
            )));
        }
        let order = key.order();
        let ctx = Context::new(device.into())?.with_clears()?;
        let grain = short_grain(ctx.target.subgroup_size.min());
        let emulated = ctx.target.is_emulated();
        let mut shader = Shader::new("segmented_sort.wgsl")?
            .set("KEY_ORDER", format!("{order}u"))
            .set("PAIRS", pairs)
            .set("SHORT_LIMIT", format!("{SHORT_LIMIT}u"))
            .set("SHORT_SEGS", format!("{SHORT_SEGS}u"))
            .set("GRAIN", format!("{grain}u"));
        // Not where subgroups are emulated (see the shader): subgroups
        // without a segment skip the network.
        if !emulated {
            shader = shader.function(
                "subgroup_sorts",
                "fn subgroup_sorts(mine: bool) -> bool {\n    return sg::any_true(mine);\n}",
            );
        }
        // Where a segment of 64 takes at most 8 lanes of a real subgroup,
        // the network written out, each size past the grain skipped by
        // subgroups whose widest group is narrower; elsewhere the shader's
        // loops (see there: they compile in a fraction of the time).
        if !emulated && grain <= 8 {
            shader = shader
                .function(
                    "sort_segment_grains",
                    shaders::segmented_network(grain, true)?,
                )
                .function(
                    "subgroup_widest",
                    "fn subgroup_widest(lanes: u32) -> u32 {\n    return sg::reduce_all_max<u32>(lanes);\n}",
                );
        }
        let module = ctx.compose(&shader)?;
        let [short, chunk, merge] =
            ctx.pipelines(&module, ["sort_short", "sort_chunk", "merge_pass"])?;
        Ok(SegmentedSort {
            ctx,
            key,
            pairs,
            short,
            chunk,
            merge,
        })
    }

    /// Keys alone (CUB's `SortKeys`).
    pub fn keys<'d>(device: impl Into<Device<'d>>, key: KeyType) -> Result<Self, Error> {
        SegmentedSort::new(device, key, false)
    }

    /// Keys with u32 values (CUB's `SortPairs`).
    pub fn pairs<'d>(device: impl Into<Device<'d>>, key: KeyType) -> Result<Self, Error> {
        SegmentedSort::new(device, key, true)
    }

    /// The key type.
    pub fn key(&self) -> KeyType {
        self.key
    }

    /// Whether values travel with the keys.
    pub fn has_values(&self) -> bool {
        self.pairs
    }

    /// The temp regions: the runs ([`place_runs`]) with a flag per chunk,
    /// pass sizes.
    fn temp_layout(&self, n: u32) -> (TempLayout, [(u64, u64); 3]) {
        let mut layout = TempLayout::new(&self.ctx.limits);
        let chunks = u64::from(n).div_ceil(CHUNK);
        let [scratch, scratch_values] = place_runs(&mut layout, n, self.pairs, chunks);
        let pass = layout.place(4 * MAX_PASSES);
        (layout, [scratch, scratch_values, pass])
    }

    /// Temp bytes a call on `n` keys needs: two runs of keys (and of values
    /// for pairs), a flag per 1024 keys, 80 bytes, alignment padding.
    pub fn temp_storage_bytes(&self, n: u32) -> u64 {
        self.temp_layout(n).0.bytes()
    }

    /// Records the sort of each of the `n_segments` segments of the `n`
    /// keys at `keys_in` into `keys_out`, the segments given by the
    /// `n_segments + 1` offsets at `offsets`. Checks every slice first (an
    /// error names the slice and the numbers, and nothing is recorded);
    /// `n = 0` or no segment records nothing. Fails on a sort built for
    /// pairs.
    #[allow(clippy::too_many_arguments)]
    pub fn record_keys<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        keys_in: Slice<'_>,
        keys_out: Slice<'_>,
        n: u32,
        offsets: Slice<'_>,
        n_segments: u32,
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        self.record(
            queue,
            [keys_in, keys_out],
            None,
            n,
            offsets,
            n_segments,
            temp,
        )
    }

    /// Records the sort of each segment of the `n` keys at `keys_in` with
    /// their values at `values_in` into `keys_out` and `values_out`; as
    /// [`SegmentedSort::record_keys`] otherwise. Fails on a sort built for
    /// keys alone.
    #[allow(clippy::too_many_arguments)]
    pub fn record_pairs<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        keys_in: Slice<'_>,
        keys_out: Slice<'_>,
        values_in: Slice<'_>,
        values_out: Slice<'_>,
        n: u32,
        offsets: Slice<'_>,
        n_segments: u32,
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        self.record(
            queue,
            [keys_in, keys_out],
            Some([values_in, values_out]),
            n,
            offsets,
            n_segments,
            temp,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn record<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        keys: [Slice<'_>; 2],
        values: Option<[Slice<'_>; 2]>,
        n: u32,
        offsets: Slice<'_>,
        n_segments: u32,
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        const NAME: &str = "wavekit::device::SegmentedSort";
        values_match(NAME, self.pairs, values.is_some())?;
        check_keys(NAME, n)?;
        let (mut readers, mut writers) = named_sides(keys, values);
        readers.push(("offsets", offsets));
        writers.push(("temp", temp));
        distinct_each(NAME, &readers, &writers)?;
        let limits = &self.ctx.limits;
        let bytes = 4 * u64::from(n);
        let (layout, [scratch, scratch_values, pass]) = self.temp_layout(n);
        let keys_in = limits.check(NAME, "keys_in", keys[0], bytes)?;
        let keys_out = limits.check(NAME, "keys_out", keys[1], bytes)?;
        let offsets = limits.check(NAME, "offsets", offsets, 4 * (u64::from(n_segments) + 1))?;
        let temp = layout.check(limits, NAME, temp)?;
        let (values_in, values_out) = match values {
            Some([a, b]) => (
                limits.check(NAME, "values_in", a, bytes)?,
                limits.check(NAME, "values_out", b, bytes)?,
            ),
            // Never read or written without values: any bytes of the same
            // access as a binding of the same buffer.
            None => (keys_in, keys_out),
        };
        let mut written = vec![("keys_out", keys_out), ("temp", temp)];
        if values.is_some() {
            written.push(("values_out", values_out));
        }
        disjoint(NAME, &written)?;
        if n == 0 || n_segments == 0 {
            return Ok(());
        }
        let scratch = temp.sub(scratch.0, scratch.1);
        let scratch_values = temp.sub(scratch_values.0, scratch_values.1);
        let binding = |pass_index: u64| {
            vec![
                keys_in,
                values_in,
                offsets,
                keys_out,
                values_out,
                scratch,
                temp.sub(pass.0, 4 * (pass_index + 1)),
                scratch_values,
            ]
        };
        let chunks = self
            .ctx
            .grid(u64::from(n).div_ceil(CHUNK).min(CHUNK_GROUPS) as u32);
        // The pass words' first, LONG_SEEN, zeroed: sort_short sets it
        // where a segment is longer than they take, and sort_chunk and the
        // merge passes return at once where none set it.
        let mut ops: Vec<Op<'_>> = vec![Op::Clear(temp.sub(pass.0, 4))];
        let short_groups = u64::from(n_segments).div_ceil(SHORT_SEGS) as u32;
        ops.push(Op::Dispatch(
            &self.short,
            binding(0),
            self.ctx.grid(short_groups),
        ));
        ops.push(Op::Dispatch(&self.chunk, binding(0), chunks));
        let merge_groups = self
            .ctx
            .grid(u64::from(n).div_ceil(CHUNK).min(MERGE_GROUPS) as u32);
        for p in 0..four_way_passes(n) {
            ops.push(Op::Dispatch(
                &self.merge,
                binding(u64::from(p)),
                merge_groups,
            ));
        }
        record(&self.ctx, queue.into(), &ops)
    }

    /// What its calls record, in words (for reports).
    pub fn describe(&self) -> String {
        format!(
            "segmented sort of {} keys{}: segments <= 64 by bitonic networks in registers (8 \
             pairs a lane), <= 1024 by merges in workgroup memory, longer by \
             ceil(log4(n / 1024)) global four-way merge passes",
            match self.key {
                KeyType::U32 => "u32",
                KeyType::I32 => "i32",
                KeyType::F32 => "f32",
                KeyType::U64 => "u64",
                KeyType::I64 => "i64",
                KeyType::F64 => "f64",
            },
            if self.pairs { " with u32 values" } else { "" },
        )
    }
}

/// The named read and written slices of a sort of `keys` (in, out) and
/// optional `values` (in, out), for [`distinct_each`].
#[allow(clippy::type_complexity)]
pub(crate) fn named_sides<'a>(
    keys: [Slice<'a>; 2],
    values: Option<[Slice<'a>; 2]>,
) -> (
    Vec<(&'static str, Slice<'a>)>,
    Vec<(&'static str, Slice<'a>)>,
) {
    let mut readers = vec![("keys_in", keys[0])];
    let mut writers = vec![("keys_out", keys[1])];
    if let Some([values_in, values_out]) = values {
        readers.push(("values_in", values_in));
        writers.push(("values_out", values_out));
    }
    (readers, writers)
}
