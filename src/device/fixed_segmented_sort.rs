//! [`FixedSegmentedSort`]: sorts every segment of one power-of-two length
//! up to 32 of 32-bit keys, alone or with u32 values, in registers
//! (`shaders/contact_sort.wgsl`): the many-small-sorts pattern (contacts
//! per body, neighbours per particle) without an offsets array.

use super::KeyType;
use super::context::{Context, Op, Pipeline, record};
use super::segmented_sort::named_sides;
use super::shader::Shader;
use super::slice::{Slice, disjoint, distinct_each, values_match};
use super::sort_network;
use crate::backend::{Device, Queue};
use crate::error::Error;

/// Threads per workgroup of the kernel, and elements per group.
const BLOCK: u64 = 256;
/// Groups of [`BLOCK`] threads' elements per workgroup (`ITEMS` in
/// `contact_sort.wgsl`; `WAVEKIT_SHADER_PARAMS` may change it for
/// benchmarks): two against one took 0.367 against 0.410 ms at 2^26 pairs
/// in segments of 16 (CUDA, H100, 2026-11-28e).
const ITEMS: u32 = 2;

/// A device-wide sort of fixed-length segments, built once per device, key
/// type, whether values travel with the keys, and segment length.
///
/// - **Segments**: elements `s · len .. (s + 1) · len` for a length `len`
///   of 1, 2, 4, 8, 16 or 32; `n` need not be a multiple of it (the last
///   segment is then shorter). The same results as
///   [`SegmentedSort`](super::SegmentedSort) with offsets `0, len, 2 len,
///   …, n`, in a fraction of its time (H100 through Vulkan at 2^24 pairs:
///   `docs/benchmarks/2026-11-25h-h100-device-library/`).
/// - **Order**: [`SegmentedSort`](super::SegmentedSort)'s: ascending by
///   key in the order of [`KeyType`] (f32 `-0.0` before `+0.0`, NaNs by
///   their bits), pairs with equal keys by ascending value.
/// - **Placement**: keys (and values) in and out are `n` 4-byte elements;
///   inputs must not share a buffer with outputs (not in place), and the
///   outputs must not overlap. No temp.
/// - **Algorithm**: segments of 4 and more are sorted in grains: each
///   thread holds 4 consecutive elements of a segment (more where the
///   narrowest subgroup is narrower than a quarter segment), and an aligned
///   tile of `len / 4` lanes holds the segment. A bitonic network in
///   registers, written out per length by the host (`sort_network.rs`),
///   compares within a thread for strides below 4 and shuffles across
///   lanes above: 6 shuffles per element for segments of 16 where one
///   element a thread took 20. Rows of 256 · 4 elements are loaded and
///   stored whole (coalesced) and turned into grains and back through
///   4 KiB of workgroup memory. Two such groups per 256-thread workgroup.
///   Segments of 1 and 2 keep one element a thread. On an H100 at 2^26
///   pairs in segments of 16 this took 0.367 ms against 0.614 one element
///   a thread (CUDA; Vulkan 0.389 against 0.654), and CUB's
///   `DeviceSegmentedSort` 0.582
///   (`docs/benchmarks/2026-11-28e-h100-hold-and-grains`).
/// - **Cost of a call**: one dispatch of `ceil(n / 2048)` workgroups (one
///   element a thread: `ceil(n / 512)`), one read and one write of each
///   key (and value).
pub struct FixedSegmentedSort {
    ctx: Context,
    key: KeyType,
    pairs: bool,
    segment: u32,
    /// Groups of [`BLOCK`] threads' elements per workgroup (`ITEMS`).
    items: u64,
    /// Elements of a segment per thread (`GRAIN`).
    grain: u32,
    kernel: Pipeline,
}

/// The elements of a segment each thread holds (`GRAIN`): 4 for segments
/// of 4 and more, or more where the narrowest subgroup is narrower than a
/// segment over 4 (a segment's lanes must be one subgroup's); 1 (one
/// element a thread, no network in registers) below 4.
fn grain(segment: u32, narrowest: u32) -> u32 {
    if segment < 4 {
        return 1;
    }
    (segment / narrowest.min(segment)).max(4)
}

impl FixedSegmentedSort {
    /// The sort of `key` keys (u32, i32 or f32), with u32 values when
    /// `pairs`, in segments of `segment` elements (1, 2, 4, 8, 16 or 32), on
    /// `device` (created with [`Target::wgpu_features`](crate::Target::wgpu_features)
    /// on wgpu). Composes and compiles its pipeline (once).
    pub fn new<'d>(
        device: impl Into<Device<'d>>,
        key: KeyType,
        pairs: bool,
        segment: u32,
    ) -> Result<Self, Error> {
        const NAME: &str = "wavekit::device::FixedSegmentedSort";
        if key.is_wide() {
            return Err(Error::Usage(format!(
                "{NAME}: {key:?} keys: it sorts 32-bit keys (u32, i32, f32)"
            )));
        }
        let order = key.order();
        if !segment.is_power_of_two() || segment > 32 {
            return Err(Error::Usage(format!(
                "{NAME}: segments of {segment} elements: it sorts segments of 1, 2, 4, 8, 16 \
                 or 32 (SegmentedSort takes any offsets)"
            )));
        }
        let ctx = Context::new(device.into())?;
        let log2_segment = segment.trailing_zeros();
        let narrowest = ctx.target.subgroup_size.min();
        let shader = Shader::new("contact_sort.wgsl")?
            .set("LOG2_SEG", format!("{log2_segment}u"))
            .set("KEY_ORDER", format!("{order}u"))
            .set("PAIRS", pairs)
            .set("GRAIN", format!("{}u", grain(segment, narrowest)))
            .set("ITEMS", format!("{ITEMS}u"));
        let [items, grain] = shader.u32_values_in(
            NAME,
            [
                ("ITEMS", 1..=16, "groups per workgroup"),
                ("GRAIN", 1..=segment, "elements per thread"),
            ],
        )?;
        if !grain.is_power_of_two() || (grain > 1 && segment / grain > narrowest) {
            return Err(Error::Usage(format!(
                "{NAME}: GRAIN = {grain} elements per thread: a power of two, and above 1 at \
                 least the segment ({segment}) over the narrowest subgroup ({narrowest} lanes)"
            )));
        }
        // The lanes that hold a segment (grains), else the widest tile
        // every subgroup of the device sorts in registers.
        let log2_tile = if grain > 1 {
            (segment / grain).trailing_zeros()
        } else {
            log2_segment.min(narrowest.trailing_zeros())
        };
        let mut shader = shader.set("LOG2_TILE", format!("{log2_tile}u"));
        if grain > 1 {
            shader = shader.function("sort_grains", sort_network::grains(log2_segment, grain));
        }
        let module = ctx.compose(&shader)?;
        let [kernel] = ctx.pipelines(&module, ["main"])?;
        Ok(FixedSegmentedSort {
            ctx,
            key,
            pairs,
            segment,
            items: u64::from(items),
            grain,
            kernel,
        })
    }

    /// The key type.
    pub fn key(&self) -> KeyType {
        self.key
    }

    /// Whether values travel with the keys.
    pub fn has_values(&self) -> bool {
        self.pairs
    }

    /// Elements per segment.
    pub fn segment(&self) -> u32 {
        self.segment
    }

    /// What its calls record, in words (for reports).
    pub fn describe(&self) -> String {
        let segment = self.segment;
        if self.grain > 1 {
            let lanes = (segment / self.grain).trailing_zeros();
            let grain = self.grain.trailing_zeros();
            // Stages of stride GRAIN and more: those of sizes past GRAIN.
            let shuffled: u32 = (grain + 1..=grain + lanes).map(|s| s - grain).sum();
            return format!(
                "segments of {segment}: {} elements a thread, a bitonic network in registers \
                 ({} shuffles per element)",
                self.grain,
                2 * shuffled
            );
        }
        let tile = segment
            .min(self.ctx.target.subgroup_size.min())
            .trailing_zeros();
        let merges = segment.trailing_zeros() - tile;
        format!(
            "segments of {segment}: sg::bitonic_sort_kv_tiled<_, _, {tile}> in registers ({} \
             shuffles per element){}",
            tile * (tile + 1),
            if merges > 0 {
                format!(", then {merges} merge levels through workgroup memory")
            } else {
                String::new()
            }
        )
    }

    /// Records the sort of each segment of the `n` keys at `keys_in` into
    /// `keys_out`. Checks every slice first (an error names the slice and
    /// the numbers, and nothing is recorded); `n = 0` records nothing.
    /// Fails on a sort built for pairs.
    pub fn record_keys<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        keys_in: Slice<'_>,
        keys_out: Slice<'_>,
        n: u32,
    ) -> Result<(), Error> {
        self.record(queue.into(), [keys_in, keys_out], None, n)
    }

    /// Records the sort of each segment of the `n` keys at `keys_in` with
    /// their values at `values_in` into `keys_out` and `values_out`; as
    /// [`FixedSegmentedSort::record_keys`] otherwise. Fails on a sort built
    /// for keys alone.
    pub fn record_pairs<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        keys_in: Slice<'_>,
        keys_out: Slice<'_>,
        values_in: Slice<'_>,
        values_out: Slice<'_>,
        n: u32,
    ) -> Result<(), Error> {
        self.record(
            queue.into(),
            [keys_in, keys_out],
            Some([values_in, values_out]),
            n,
        )
    }

    fn record(
        &self,
        queue: Queue<'_>,
        keys: [Slice<'_>; 2],
        values: Option<[Slice<'_>; 2]>,
        n: u32,
    ) -> Result<(), Error> {
        const NAME: &str = "wavekit::device::FixedSegmentedSort";
        values_match(NAME, self.pairs, values.is_some())?;
        let (readers, writers) = named_sides(keys, values);
        distinct_each(NAME, &readers, &writers)?;
        let limits = &self.ctx.limits;
        let bytes = 4 * u64::from(n);
        let keys_in = limits.check(NAME, "keys_in", keys[0], bytes)?;
        let keys_out = limits.check(NAME, "keys_out", keys[1], bytes)?;
        let (values_in, values_out) = match values {
            Some([a, b]) => {
                let values_in = limits.check(NAME, "values_in", a, bytes)?;
                let values_out = limits.check(NAME, "values_out", b, bytes)?;
                disjoint(NAME, &[("keys_out", keys_out), ("values_out", values_out)])?;
                (values_in, values_out)
            }
            // Never read or written without values: bytes of the same
            // access as a binding of the same buffer.
            None => (keys_in, keys_out),
        };
        if n == 0 {
            return Ok(());
        }
        let grid = self
            .ctx
            .grid(u64::from(n).div_ceil(BLOCK * self.items * u64::from(self.grain)) as u32);
        let ops = [Op::Dispatch(
            &self.kernel,
            vec![keys_in, values_in, keys_out, values_out],
            grid,
        )];
        record(&self.ctx, queue, &ops)
    }
}
