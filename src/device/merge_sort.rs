//! [`MergeSort`]: a stable sort of u32, i32 or f32 keys by a caller's WGSL
//! comparator, alone or with u32 values (CUB's `DeviceMergeSort::SortKeys`
//! / `StableSortKeys` / `SortPairs`), and [`Merge`]: the stable merge of
//! two sorted inputs (CUB's `DeviceMerge::MergeKeys` / `MergePairs`), both
//! from `shaders/merge_sort.wgsl` (CUB's block merge sort and merge-path
//! passes, in tiles of the shader's `BLOCK × ITEMS` keys).

use super::context::{Context, Op, Pipeline, TempLayout, record};
use super::shader::Shader;
use super::shaders::writable;
use super::slice::{Slice, values_match};
use super::user_fn::{self, Signature};
use crate::backend::Range;
use crate::backend::{Device, Queue};
use crate::dtype::Dtype;
use crate::error::Error;

/// Keys a [`SegmentedSort`](super::SegmentedSort) `sort_chunk` workgroup
/// sorts (`CHUNK` in `segmented_sort.wgsl`; [`MergeSort`]'s tile is its
/// shader's `BLOCK * ITEMS`, [`Shape`]).
pub(super) const CHUNK: u64 = 1024;
/// The most keys a call takes (the merge widths stay below 2^31).
pub(super) const MAX_KEYS: u32 = 1 << 30;
/// The segmented sort's merge passes for `MAX_KEYS`: `CHUNK << passes >= n`.
pub(super) const MAX_PASSES: u64 = 20;
/// Words of `pass_info` a [`MergeSort`] call may bind: one more than its
/// passes, at most 30 (a tile of one key, `MAX_KEYS` keys).
const PASS_WORDS: u64 = 31;

/// Places the merge sorts' runs A and B in temp, as `sort_scratch.wgsl`
/// reads them: the keys' runs (n words each) followed by `words` more
/// words (the merge sort's splits, the segmented sort's chunk flags), then
/// the values' runs (4 bytes without values). Apart, so that no region of
/// a sort of 2^28 pairs exceeds 2 GiB and those words (together they would
/// be 4 GiB, over what a binding holds). Returns (keys, values) regions.
pub(super) fn place_runs(
    layout: &mut TempLayout,
    n: u32,
    pairs: bool,
    words: u64,
) -> [(u64, u64); 2] {
    let n = u64::from(n);
    let keys = layout.place(4 * (2 * n + words));
    let values = layout.place(if pairs { 8 * n } else { 4 });
    [keys, values]
}

/// The two-way merge passes after chunks of [`CHUNK`] keys:
/// `ceil(log2(n / CHUNK))` (SegmentedSort merges four runs a pass, half as
/// many).
pub(super) fn merge_passes(n: u32) -> u32 {
    passes(n, CHUNK)
}

/// The merge passes after tiles of `tile` keys: `ceil(log2(n / tile))`.
fn passes(n: u32, tile: u64) -> u32 {
    u64::from(n)
        .div_ceil(tile)
        .next_power_of_two()
        .trailing_zeros()
}

/// The tile of `merge_sort.wgsl`'s kernels: `block` threads (`BLOCK`,
/// CUB's `BLOCK_THREADS`), `items` keys each (`ITEMS`,
/// `ITEMS_PER_THREAD`), `block * items` keys a workgroup merges;
/// `sort_block` threads of `sort_chunk` (`SORT_BLOCK`, 0 for `BLOCK`),
/// `sort_block * items` keys a workgroup sorts (the chunk); and `split`
/// threads (`SPLIT_BLOCK`) of `split_tiles`, a tile each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    block: u32,
    items: u32,
    sort_block: u32,
    split: u32,
}

impl Shape {
    /// On CUDA and HIP: 256 threads × 17 keys, CUB's sm_90 policy for
    /// 4-byte keys (odd: a thread's blocked keys in distinct banks
    /// unpadded; 4352 keys: at powers of two from 2^13 on, the merge passes
    /// of a 4096 tile without its padding, one fewer than 256 × 15:
    /// docs/device-merge-sort.md). An H100 through CUDA: 0.80-0.98x of
    /// CUB's time from 2^20 to 2^26 (docs/benchmarks/2026-11-27h-h100-by-key-merge-search).
    const LARGE: Shape = Shape {
        block: 256,
        items: 17,
        sort_block: 256,
        split: 256,
    };
    /// On wgpu: 128 × 9, 9 232 bytes of workgroup memory, within WebGPU's
    /// minimum limits (16 KiB, 256 invocations); `sort_chunk` as wide as
    /// the device holds ([`Shape::for_context`]). Through Vulkan on an
    /// H200, 2^26 pairs took 7.25 ms at 128 × 9 against 7.55 at 256 × 5,
    /// 7.61 at 128 × 11, 7.65 at 128 × 7, 7.95 at 128 × 15, 8.48 at 64 × 17
    /// and 7.82–11.5 at 512 and 1024 threads (2^21–2^25 alike; 2^20 6 %
    /// slower than 256 × 5, which sorting with 512 threads makes up;
    /// docs/benchmarks/2026-11-29k-h200-merge-sort-chunks). With the
    /// striped moves' loads first (`LOADS_FIRST`), 256 threads took 1.85
    /// ms at 5 keys a thread at 2^24 against 1.92 at 3, 1.90 at 7, 2.04 at
    /// 9 and 2.53 at 17 (docs/benchmarks/2026-11-29i-h200-merge-sort-loads);
    /// before that change every load waited out the one before it, and the
    /// fewer keys a thread the faster (256 × 3: 2.22 ms; 256 × 17: 5.1).
    const SMALL: Shape = Shape {
        block: 128,
        items: 9,
        sort_block: 128,
        split: 256,
    };
    /// The widest `sort_chunk` on wgpu where the device holds it (a GPU:
    /// CPU adapters keep one module, `sort_block` = `block`, for their
    /// compile time): 512 threads sort chunks of 4608 keys, 36 880 bytes.
    /// Through Vulkan on an H200 at 128 × 9, 2^20 / 2^22 / 2^26 pairs took
    /// 160.5 / 508.5 / 7186 µs, against 169.9 / 522.3 / 7237 with 256
    /// threads and 181.1 / 535.0 / 7248 with 128 (two fewer merge passes
    /// than 128 at 2^26; docs/benchmarks/2026-11-29k-h200-merge-sort-chunks).
    const SORT_BLOCKS: [u32; 2] = [512, 256];
    /// Workgroup memory the native back ends give a kernel (CUDA's static
    /// shared memory; HIP gives 64 KiB).
    const NATIVE_BYTES: u64 = 48 << 10;

    fn tile(&self) -> u64 {
        u64::from(self.block) * u64::from(self.items)
    }

    /// Keys a `sort_chunk` workgroup sorts: the width of the runs the
    /// first merge pass merges.
    fn chunk(&self) -> u64 {
        u64::from(self.sort_block) * u64::from(self.items)
    }

    /// Workgroup memory of the largest kernel (`merge_sort.wgsl`'s
    /// header), `sort_chunk`, whose chunk holds the merges' tile: keys and
    /// values of a chunk and a word past it, a word of padding every 32
    /// where `items` is even, and two split words.
    fn workgroup_bytes(&self) -> u64 {
        let tile = self.chunk();
        let pad = if self.items.is_multiple_of(2) {
            tile / 32
        } else {
            0
        };
        8 * (tile + 1 + pad) + 8
    }

    /// Threads (x) and workgroup memory bytes a kernel of `ctx`'s device
    /// may have.
    fn device_limits(ctx: &Context) -> (u32, u64) {
        match ctx.wgpu_limits() {
            Some(limits) => (
                limits
                    .max_compute_invocations_per_workgroup
                    .min(limits.max_compute_workgroup_size_x),
                u64::from(limits.max_compute_workgroup_storage_size),
            ),
            None => (1024, Shape::NATIVE_BYTES),
        }
    }

    /// The default for `ctx`'s API: [`Shape::LARGE`] natively,
    /// [`Shape::SMALL`] on wgpu with the widest of [`Shape::SORT_BLOCKS`]
    /// the device holds on a GPU.
    fn for_context(ctx: &Context) -> Shape {
        if ctx.is_native() {
            return Shape::LARGE;
        }
        if ctx.is_cpu() {
            return Shape::SMALL;
        }
        let (threads, bytes) = Shape::device_limits(ctx);
        Shape::SORT_BLOCKS
            .into_iter()
            .map(|sort_block| Shape {
                sort_block,
                ..Shape::SMALL
            })
            .find(|shape| shape.sort_block <= threads && shape.workgroup_bytes() <= bytes)
            .unwrap_or(Shape::SMALL)
    }

    /// The shape `shader` was composed with (the host's choice or
    /// `WAVEKIT_SHADER_PARAMS`'), checked against what the kernels take
    /// and `ctx`'s device holds.
    fn of_shader(algorithm: &str, ctx: &Context, shader: &Shader) -> Result<Shape, Error> {
        let shape = Shape {
            block: shader.u32_value("BLOCK")?,
            items: shader.u32_value("ITEMS")?,
            sort_block: match shader.u32_value("SORT_BLOCK")? {
                0 => shader.u32_value("BLOCK")?,
                threads => threads,
            },
            split: shader.u32_value("SPLIT_BLOCK")?,
        };
        let block = |threads: u32| threads.is_power_of_two() && threads <= 1024;
        if !block(shape.block)
            || !block(shape.split)
            || !block(shape.sort_block)
            || shape.sort_block < shape.block
            || !(1..=32).contains(&shape.items)
        {
            return Err(Error::Usage(format!(
                "{algorithm}: BLOCK = {}, SORT_BLOCK = {} and SPLIT_BLOCK = {} threads, ITEMS = \
                 {} keys per thread: it takes powers of two up to 1024 (SORT_BLOCK at least \
                 BLOCK) and 1 to 32",
                shape.block, shape.sort_block, shape.split, shape.items
            )));
        }
        let (threads, bytes) = Shape::device_limits(ctx);
        let needed = shape.workgroup_bytes();
        if shape.sort_block.max(shape.split) > threads || needed > bytes {
            return Err(Error::Usage(format!(
                "{algorithm}: BLOCK = {}, SORT_BLOCK = {} and SPLIT_BLOCK = {} threads, ITEMS = \
                 {} keys per thread take {needed} bytes of workgroup memory; the device gives \
                 at most {threads} threads and {bytes} bytes",
                shape.block, shape.sort_block, shape.split, shape.items,
            )));
        }
        Ok(shape)
    }
}

/// Fails on more than [`MAX_KEYS`] keys.
pub(super) fn check_keys(algorithm: &str, n: u32) -> Result<(), Error> {
    if n > MAX_KEYS {
        return Err(Error::Usage(format!(
            "{algorithm}: {n} keys; it sorts at most 2^30 = {MAX_KEYS}"
        )));
    }
    Ok(())
}

/// The comparator's signature.
fn signature(algorithm: &'static str) -> Signature {
    Signature {
        algorithm,
        name: "less_than",
        parameters: &["a", "b"],
        returns: "bool",
    }
}

/// `SORT_BLOCK` for `shape`: 0 (`BLOCK`) where `sort_chunk` runs the
/// merges' threads, so that `WAVEKIT_SHADER_PARAMS`' `BLOCK` alone moves
/// both.
fn sort_block_param(shape: Shape) -> u32 {
    if shape.sort_block == shape.block {
        0
    } else {
        shape.sort_block
    }
}

/// `merge_sort.wgsl` for `dtype` keys, `pairs`, the comparator `less_than`
/// (checked; `None`: ascending), every binding writable, in the largest
/// tile shape the device holds (or `WAVEKIT_SHADER_PARAMS`' `BLOCK` and
/// `ITEMS`), with the pipelines of its `entries`.
fn build<const N: usize>(
    name: &'static str,
    device: Device<'_>,
    dtype: Dtype,
    pairs: bool,
    less_than: Option<&str>,
    entries: [&str; N],
) -> Result<(Context, Shape, [Pipeline; N]), Error> {
    let element = user_fn::element(name, dtype, &[Dtype::U32, Dtype::I32, Dtype::F32])?;
    let ctx = Context::new(device)?;
    let shape = Shape::for_context(&ctx);
    let mut shader = Shader::new("merge_sort.wgsl")?
        .map(|text| Ok(writable(text)))?
        .set("T", element)
        .set("PAIRS", pairs)
        .set("BLOCK", format!("{}u", shape.block))
        .set("ITEMS", format!("{}u", shape.items))
        .set("SORT_BLOCK", format!("{}u", sort_block_param(shape)))
        .set("LOADS_FIRST", !ctx.is_native())
        .set("FULL_TILES", !ctx.is_cpu());
    let shape = Shape::of_shader(name, &ctx, &shader)?;
    if let Some(text) = less_than {
        user_fn::check(&ctx, &signature(name), text, element, None)?;
        shader = shader.function("less_than", text);
    }
    let module = ctx.compose(&shader)?;
    if shape.sort_block == shape.block || !entries.contains(&"sort_chunk") {
        let pipelines = ctx.pipelines(&module, entries)?;
        return Ok((ctx, shape, pipelines));
    }
    // sort_chunk in a module of its own, SORT_BLOCK threads a workgroup.
    let sorts = ctx.compose(&shader.set("SORTS", true))?;
    let mut pipelines = Vec::with_capacity(N);
    for entry in entries {
        let module = if entry == "sort_chunk" {
            &sorts
        } else {
            &module
        };
        let [pipeline] = ctx.pipelines(module, [entry])?;
        pipelines.push(pipeline);
    }
    let pipelines = pipelines
        .try_into()
        .unwrap_or_else(|_| unreachable!("one pipeline an entry"));
    Ok((ctx, shape, pipelines))
}

/// The constructor and accessors [`MergeSort`] and [`Merge`] share: `new`
/// (documented by the leading doc comment) builds `algorithm`'s
/// `merge_sort.wgsl` with the pipelines of the entry points it uses, each
/// kept as the struct's field named before it (`field = "entry"`), besides
/// `ctx`, `dtype`, `pairs` and `shape`.
macro_rules! comparator_methods {
    ($(#[$doc:meta])* $algorithm:ident, $name:ident { $($field:ident = $entry:literal),* }) => {
        $(#[$doc])*
        pub fn new<'d>(
            device: impl Into<Device<'d>>,
            dtype: Dtype,
            pairs: bool,
            less_than: Option<&str>,
        ) -> Result<Self, Error> {
            let (ctx, shape, [$($field),*]) =
                build($algorithm, device.into(), dtype, pairs, less_than, [$($entry),*])?;
            Ok($name {
                ctx,
                dtype,
                pairs,
                shape,
                $($field),*
            })
        }

        /// Keys a workgroup merges: the tile of the shader it was built
        /// with (`BLOCK * ITEMS` of `merge_sort.wgsl`; 4352 on CUDA and
        /// HIP, 1152 on wgpu).
        pub fn tile(&self) -> u32 {
            self.shape.tile() as u32
        }

        /// The key type.
        pub fn dtype(&self) -> Dtype {
            self.dtype
        }

        /// Whether values travel with the keys.
        pub fn has_values(&self) -> bool {
            self.pairs
        }
    };
}

/// Fails when two of `ranges` (named) share bytes, except where both are
/// one same range and `same_ok` names the pair (in place).
fn overlap_check(
    algorithm: &str,
    ranges: &[(&str, Range<'_>)],
    same_ok: &[(&str, &str)],
) -> Result<(), Error> {
    for (i, (a_name, a)) in ranges.iter().enumerate() {
        for (b_name, b) in &ranges[i + 1..] {
            let same = a.buffer == b.buffer && a.offset == b.offset && a.size == b.size;
            let allowed = same
                && same_ok
                    .iter()
                    .any(|&(x, y)| (x, y) == (*a_name, *b_name) || (y, x) == (*a_name, *b_name));
            if a.overlaps(b) && !allowed {
                return Err(Error::Usage(format!(
                    "{algorithm}: `{a_name}` (bytes {}..{}) and `{b_name}` (bytes {}..{}) overlap in one buffer{}",
                    a.offset,
                    a.offset + a.size,
                    b.offset,
                    b.offset + b.size,
                    if same_ok.is_empty() {
                        ""
                    } else {
                        " (in place, an output must be its input's very bytes)"
                    }
                )));
            }
        }
    }
    Ok(())
}

/// A device-wide stable merge sort, built once per device, key type,
/// comparator and whether values travel with the keys.
///
/// - **Order**: by the caller's WGSL `fn less_than(a: T, b: T) -> bool`
///   (`T` the key type, also spelled out): a strict weak order, a pure
///   function that may bring helper functions and module-scope constants,
///   imports nothing and calls no subgroup or barrier operation (CUB's
///   `CompareOpT`); composed on its own first, so a malformed one is an
///   error at its own line and column. `None`: ascending `a < b` (for f32
///   IEEE `<`: `-0.0` and `+0.0` are equal and keep their order; NaN keys
///   break the order, as with CUB's `less`).
/// - **Stable**: keys that neither precedes keep their input order (CUB's
///   `StableSortKeys`; its `SortKeys` / `SortPairs` are this sort too).
/// - **Dtypes**: u32, i32 or f32 keys; u32 (or any 4-byte) values.
/// - **Placement**: keys (and values) in and out, `n` 4-byte elements each;
///   an output is its input's very bytes (in place, CUB's `SortKeys` /
///   `SortPairs`) or shares none with any slice. Temp: at least
///   [`MergeSort::temp_storage_bytes`] bytes (`STORAGE`), 8 n for keys, 16
///   n for pairs, plus 4 per tile (the tiles' splits) and 124; kernels
///   bind it in regions of at most 8 n + 4 per tile, each limited by the
///   device's `max_storage_buffer_binding_size`.
/// - **Algorithm**: `merge_sort.wgsl`, as CUB's `DeviceMergeSort`, in
///   tiles of [`MergeSort::tile`] keys (`BLOCK` threads × `ITEMS` keys:
///   256 × 17 on CUDA and HIP, 128 × 9 on wgpu) and chunks of
///   [`MergeSort::chunk`] (`SORT_BLOCK` threads × `ITEMS`: the tile
///   natively and on CPU adapters, 512 × 9 on a GPU through wgpu where it
///   holds that): each chunk sorted by one workgroup (CUB's
///   `BlockMergeSort`: loaded coalesced, each thread's keys sorted in
///   registers, then `log2(SORT_BLOCK)` rounds merging runs of threads
///   pairwise through workgroup memory by merge path), then
///   `ceil(log2(n / chunk))` global merge passes, each merging the runs of
///   `chunk · 2^p` pairwise between two runs of the temp, the last into
///   the outputs: a `split_tiles` dispatch finds the merge-path split of
///   each output tile (one binary search per tile), then `merge_pass`
///   loads each tile's two input ranges coalesced into workgroup memory,
///   each thread finds its own split there and merges `ITEMS` keys
///   serially, and the tile is stored coalesced.
/// - **Cost of a call**: `1 + 2 · ceil(log2(n / chunk))` dispatches, a bind
///   group each; per pass one coalesced read and one coalesced write per
///   key (and value), and `log2(run) + 1` comparator reads per tile.
pub struct MergeSort {
    ctx: Context,
    dtype: Dtype,
    pairs: bool,
    shape: Shape,
    chunk: Pipeline,
    split: Pipeline,
    pass: Pipeline,
}

const SORT: &str = "wavekit::device::MergeSort";

impl MergeSort {
    comparator_methods! {
        /// The sort of `dtype` keys (u32, i32 or f32), with u32 values when
        /// `pairs`, by `less_than` (the text of `fn less_than(a: T, b: T) ->
        /// bool`; `None`: ascending) on `device` (created with
        /// [`Target::wgpu_features`](crate::Target::wgpu_features) on wgpu, or
        /// without the subgroup features). Composes and compiles once.
        SORT, MergeSort { chunk = "sort_chunk", split = "split_tiles", pass = "merge_pass" }
    }

    /// Keys a `sort_chunk` workgroup sorts before the merge passes: the
    /// width of the first runs (`SORT_BLOCK * ITEMS` of `merge_sort.wgsl`;
    /// the tile natively and on CPU adapters, 4608 on a GPU through wgpu
    /// that holds 512 threads and 36 880 bytes of workgroup memory).
    pub fn chunk(&self) -> u32 {
        self.shape.chunk() as u32
    }

    /// Keys alone (CUB's `StableSortKeys`).
    pub fn keys<'d>(
        device: impl Into<Device<'d>>,
        dtype: Dtype,
        less_than: Option<&str>,
    ) -> Result<Self, Error> {
        MergeSort::new(device, dtype, false, less_than)
    }

    /// Keys with u32 values (CUB's `SortPairs`).
    pub fn pairs<'d>(
        device: impl Into<Device<'d>>,
        dtype: Dtype,
        less_than: Option<&str>,
    ) -> Result<Self, Error> {
        MergeSort::new(device, dtype, true, less_than)
    }

    /// The temp regions: the runs ([`place_runs`]) with a split per tile,
    /// pass sizes.
    fn temp_layout(&self, n: u32) -> (TempLayout, [(u64, u64); 3]) {
        let mut layout = TempLayout::new(&self.ctx.limits);
        let tiles = u64::from(n).div_ceil(self.shape.tile());
        let [scratch, value_runs] = place_runs(&mut layout, n, self.pairs, tiles);
        let pass = layout.place(4 * PASS_WORDS);
        (layout, [scratch, value_runs, pass])
    }

    /// Temp bytes a call on `n` keys needs: two runs of keys (and of values
    /// for pairs), a word per tile, 124 bytes, alignment padding.
    pub fn temp_storage_bytes(&self, n: u32) -> u64 {
        self.temp_layout(n).0.bytes()
    }

    /// Records the sort of the `n` keys at `keys_in` into `keys_out` (the
    /// same slice: in place). Checks every slice first (an error names the
    /// slice and the numbers, and nothing is recorded). Fails on a sort
    /// built for pairs.
    pub fn record_keys<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        keys_in: Slice<'_>,
        keys_out: Slice<'_>,
        n: u32,
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        self.record(queue.into(), [keys_in, keys_out], None, n, temp)
    }

    /// Records the sort of the `n` keys at `keys_in` with their values at
    /// `values_in` into `keys_out` and `values_out` (each the same slice as
    /// its input: in place). Fails on a sort built for keys alone.
    pub fn record_pairs<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        keys: [Slice<'_>; 2],
        values: [Slice<'_>; 2],
        n: u32,
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        self.record(queue.into(), keys, Some(values), n, temp)
    }

    fn record(
        &self,
        queue: Queue<'_>,
        keys: [Slice<'_>; 2],
        values: Option<[Slice<'_>; 2]>,
        n: u32,
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        values_match(SORT, self.pairs, values.is_some())?;
        check_keys(SORT, n)?;
        let limits = &self.ctx.limits;
        let bytes = 4 * u64::from(n);
        let (layout, [scratch, value_runs, pass]) = self.temp_layout(n);
        let keys_in = limits.check(SORT, "keys_in", keys[0], bytes)?;
        let keys_out = limits.check(SORT, "keys_out", keys[1], bytes)?;
        let temp = layout.check(limits, SORT, temp)?;
        let mut named = vec![("keys_in", keys_in), ("keys_out", keys_out), ("temp", temp)];
        let (values_in, values_out) = match values {
            Some([a, b]) => {
                let a = limits.check(SORT, "values_in", a, bytes)?;
                let b = limits.check(SORT, "values_out", b, bytes)?;
                named.extend([("values_in", a), ("values_out", b)]);
                (a, b)
            }
            // Not read or written without values.
            None => (keys_in, keys_out),
        };
        overlap_check(
            SORT,
            &named,
            &[("keys_in", "keys_out"), ("values_in", "values_out")],
        )?;
        if n == 0 {
            return Ok(());
        }
        let scratch = temp.sub(scratch.0, scratch.1);
        let value_runs = temp.sub(value_runs.0, value_runs.1);
        let binding = |p: u64| {
            vec![
                keys_in,
                values_in,
                keys_in,
                value_runs,
                keys_out,
                values_out,
                scratch,
                temp.sub(pass.0, 4 * (p + 1)),
            ]
        };
        let tiles = u64::from(n).div_ceil(self.shape.tile());
        let tile_grid = self.ctx.grid(tiles as u32);
        let split_grid = self
            .ctx
            .grid(tiles.div_ceil(u64::from(self.shape.split)) as u32);
        let chunk_grid = self
            .ctx
            .grid(u64::from(n).div_ceil(self.shape.chunk()) as u32);
        let mut ops = vec![Op::Dispatch(&self.chunk, binding(0), chunk_grid)];
        for p in 0..passes(n, self.shape.chunk()) {
            let p = u64::from(p);
            ops.push(Op::Dispatch(&self.split, binding(p), split_grid));
            ops.push(Op::Dispatch(&self.pass, binding(p), tile_grid));
        }
        record(&self.ctx, queue, &ops)
    }
}

/// A device-wide stable merge of two sorted inputs into one, built once
/// per device, key type, comparator and whether values travel with the
/// keys (CUB's `DeviceMerge::MergeKeys` / `MergePairs`).
///
/// - **Order**: [`MergeSort`]'s comparator; both inputs sorted by it (else
///   the output is some permutation of them). Among keys that neither
///   precedes, the first input's come first, each input's in its order.
/// - **Placement**: inputs `n_a` and `n_b` keys (and values), outputs
///   `n_a + n_b`; an output shares no bytes with any other slice. No temp
///   (CUB's takes some).
/// - **Algorithm**: [`MergeSort`]'s merge kernel: each workgroup finds the
///   merge-path split of its output tile's start and end ([`Merge::tile`]
///   outputs; two binary searches over the inputs), loads both ranges
///   coalesced into workgroup memory, and each thread merges `ITEMS` keys
///   serially from its own split there; the tile is stored coalesced.
/// - **Cost of a call**: 1 dispatch; one coalesced read and one coalesced
///   write per key (and value), and `2 · (log2(n_a + n_b) + 1)` comparator
///   reads per tile.
pub struct Merge {
    ctx: Context,
    dtype: Dtype,
    pairs: bool,
    shape: Shape,
    merge: Pipeline,
}

const MERGE: &str = "wavekit::device::Merge";

impl Merge {
    comparator_methods! {
        /// The merge of `dtype` keys (u32, i32 or f32), with u32 values when
        /// `pairs`, by `less_than` (as [`MergeSort::new`]'s) on `device`.
        MERGE, Merge { merge = "merge" }
    }

    /// Records the merge of the `n_a` sorted keys at `a` and the `n_b` at
    /// `b` into the `n_a + n_b` at `output`. Checks every slice first.
    /// Fails on a merge built for pairs.
    pub fn record_keys<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        (a, n_a): (Slice<'_>, u32),
        (b, n_b): (Slice<'_>, u32),
        output: Slice<'_>,
    ) -> Result<(), Error> {
        self.record(queue.into(), [a, b, output], None, n_a, n_b)
    }

    /// Records the merge of the `n_a` sorted keys at `keys[0]` (values at
    /// `values[0]`) and the `n_b` at `keys[1]` (`values[1]`) into the
    /// `n_a + n_b` at `keys[2]` and `values[2]`. Fails on a merge built
    /// for keys alone.
    pub fn record_pairs<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        keys: [Slice<'_>; 3],
        values: [Slice<'_>; 3],
        (n_a, n_b): (u32, u32),
    ) -> Result<(), Error> {
        self.record(queue.into(), keys, Some(values), n_a, n_b)
    }

    fn record(
        &self,
        queue: Queue<'_>,
        keys: [Slice<'_>; 3],
        values: Option<[Slice<'_>; 3]>,
        n_a: u32,
        n_b: u32,
    ) -> Result<(), Error> {
        values_match(MERGE, self.pairs, values.is_some())?;
        let total = u64::from(n_a) + u64::from(n_b);
        if total > u64::from(MAX_KEYS) {
            return Err(Error::Usage(format!(
                "{MERGE}: {n_a} + {n_b} = {total} keys; it merges at most 2^30 = {MAX_KEYS}"
            )));
        }
        let limits = &self.ctx.limits;
        let check = |what, slice, count: u64| limits.check(MERGE, what, slice, 4 * count);
        let ka = check("keys_a", keys[0], n_a.into())?;
        let kb = check("keys_b", keys[1], n_b.into())?;
        let ko = check("keys_out", keys[2], total)?;
        let mut named = vec![("keys_a", ka), ("keys_b", kb), ("keys_out", ko)];
        let [va, vb, vo] = match values {
            Some([a, b, o]) => {
                let v = [
                    check("values_a", a, n_a.into())?,
                    check("values_b", b, n_b.into())?,
                    check("values_out", o, total)?,
                ];
                named.extend([("values_a", v[0]), ("values_b", v[1]), ("values_out", v[2])]);
                v
            }
            None => [ka, kb, ko],
        };
        // The inputs may share bytes (they are only read); the outputs may
        // share none with anything.
        let outputs: Vec<_> = named
            .iter()
            .filter(|(name, _)| name.ends_with("_out"))
            .copied()
            .collect();
        for (out_name, out) in &outputs {
            let others: Vec<_> = named
                .iter()
                .filter(|(name, _)| name != out_name)
                .copied()
                .collect();
            for (name, other) in others {
                overlap_check(MERGE, &[(out_name, *out), (name, other)], &[])?;
            }
        }
        if total == 0 {
            return Ok(());
        }
        // The shader reads n_a as the first input's length and n_b as the
        // rest of the output's: an empty first input merges as the second
        // alone (the same output), and an empty second is never read.
        let (first, second) = if n_a == 0 {
            ((kb, vb), (kb, vb))
        } else if n_b == 0 {
            ((ka, va), (ka, va))
        } else {
            ((ka, va), (kb, vb))
        };
        let bindings = vec![first.0, first.1, second.0, second.1, ko, vo, ko, ko];
        let groups = total.div_ceil(self.shape.tile()) as u32;
        let ops = [Op::Dispatch(&self.merge, bindings, self.ctx.grid(groups))];
        record(&self.ctx, queue, &ops)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_counts() {
        for (n, want) in [
            (0, 0),
            (1, 0),
            (1024, 0),
            (1025, 1),
            (2048, 1),
            (2049, 2),
            (1 << 20, 10),
            (MAX_KEYS, 20),
        ] {
            assert_eq!(merge_passes(n), want, "n = {n}");
            assert!(CHUNK << want >= u64::from(n), "n = {n}");
        }
        assert!(u64::from(merge_passes(MAX_KEYS)) <= MAX_PASSES);
        let tile = Shape::LARGE.tile();
        for (n, want) in [
            (4352, 0),
            (4353, 1),
            (8704, 1),
            (8705, 2),
            (1 << 20, 8),
            (1 << 24, 12),
            (1 << 26, 14),
            (MAX_KEYS, 18),
        ] {
            assert_eq!(passes(n, tile), want, "n = {n}");
            assert!(tile << want >= u64::from(n), "n = {n}");
        }
        assert!(u64::from(passes(MAX_KEYS, 1)) < PASS_WORDS);
    }

    #[test]
    fn shapes_fit_their_devices() {
        assert_eq!(Shape::LARGE.tile(), 4352);
        assert_eq!(Shape::LARGE.workgroup_bytes(), 34832);
        assert!(Shape::LARGE.workgroup_bytes() <= Shape::NATIVE_BYTES);
        // WebGPU's minimum limits.
        assert_eq!(Shape::SMALL.workgroup_bytes(), 9232);
        assert!(Shape::SMALL.workgroup_bytes() <= 16384 && Shape::SMALL.sort_block <= 256);
        // The wider sorts: 512 threads in a device's 48 KiB (NVIDIA's
        // Vulkan driver), 256 in 32 KiB.
        let wide = |sort_block| Shape {
            sort_block,
            ..Shape::SMALL
        };
        assert_eq!(wide(512).workgroup_bytes(), 36880);
        assert_eq!(wide(256).workgroup_bytes(), 18448);
        let even = Shape {
            block: 64,
            items: 4,
            sort_block: 64,
            split: 256,
        };
        assert_eq!(even.workgroup_bytes(), 8 * (256 + 1 + 8) + 8);
    }
}
