//! `contact_sort`: many independent small key/value sorts — the
//! contact-pruning pattern of a physics engine's narrow phase. Each body owns a segment of `2^L` contact
//! slots (variants `seg32`, `seg16`, `seg8`: L = 5, 4, 3), a random number
//! of them filled with (signed distance: f32 key, contact id: u32 value) and
//! the rest with the sentinel (+inf, 0xffffffff); every segment is sorted
//! ascending on the (key, value) tuple — equal distances by ascending id, the
//! documented tie-break of `sg::bitonic_sort_kv_tiled` — so a body's deepest
//! contacts come first and its empty slots last.
//!
//! Through wgpu and CUDA the demo records [`wavekit::device::FixedSegmentedSort`]
//! (pairs, f32 keys, segments of `2^L`), so its timings are the library's; on
//! HIP, or with `WAVEKIT_DEMOS_LIBRARY=0`
//! ([`Ctx::library_device`](crate::harness::Ctx::library_device)), it
//! dispatches the same shader, `src/device/shaders/contact_sort.wgsl`,
//! itself.
//!
//! Dispatch: `ceil(n / 256)` workgroups of 256 threads (spilling into y past
//! 65535), one element per thread, `256 / 2^L` segments per workgroup;
//! thread (subgroup s, lane l) takes element `s × S + l` of its workgroup.
//! Bindings: 0 keys in (f32), 1 values in (u32), 2 keys out, 3 values out;
//! each segment's result lands where its input was.
//!
//! Cost: `sg::bitonic_sort_kv_tiled<f32, u32, L>` is `L(L+1)/2`
//! compare-exchange stages of 2 shuffle_xor (12, 20 and 30 shuffles per
//! element for 8, 16 and 32 slots), in registers, with no workgroup memory or
//! barrier. The tile of a tiled op must fit the subgroup (`L <= log2` of the
//! smallest subgroup size); where subgroups are narrower than a segment
//! (lavapipe's 4, 8 or 16 lanes), each subgroup-wide tile is sorted by the
//! same primitive and the sorted tiles are merged pairwise through
//! workgroup memory (a binary search per element and 2 barriers per merge
//! level), so every variant runs on every device; the report's algorithm
//! says which path ran.
//!
//! Bytes counted: keys and values read and written, `16 n`.

use wavekit::Error;
use wavekit::device::Queue;
use wavekit::device::{FixedSegmentedSort, KeyType};
use wavekit::runner::{Kernel, Step};

use crate::harness::{Ctx, Report, bytes_of, check_equal, grid, groups, random_u32, words_of};
use crate::{Demo, Prepared, unknown_variant};

static SHADER: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    wavekit::device::shaders::source("contact_sort.wgsl").expect("a device shader")
});
const BLOCK: usize = 256;
/// The empty slot: sorts after every real contact.
const SENTINEL: (f32, u32) = (f32::INFINITY, u32::MAX);

/// The `contact_sort` demo.
pub struct ContactSort;

impl Demo for ContactSort {
    fn name(&self) -> &'static str {
        "contact_sort"
    }

    fn variants(&self) -> &'static [&'static str] {
        &["seg32", "seg16", "seg8"]
    }

    fn prepare<'c>(
        &self,
        ctx: &'c Ctx<'c>,
        variant: &str,
    ) -> Result<Box<dyn Prepared + 'c>, Error> {
        let log2_segment = match variant {
            "seg32" => 5,
            "seg16" => 4,
            "seg8" => 3,
            _ => return Err(unknown_variant(self, variant)),
        };
        // The widest tile every subgroup of the device can sort.
        let log2_tile = log2_segment.min(ctx.gpu.target().subgroup_size.min().trailing_zeros());
        let segment_decl = format!("const LOG2_SEG = {log2_segment}u;");
        let tile_decl = format!("const LOG2_TILE = {log2_tile}u;");
        let module = ctx.compose(
            &SHADER,
            "contact_sort.wgsl",
            &[
                ("const LOG2_SEG = 5u;", &segment_decl),
                ("const LOG2_TILE = 5u;", &tile_decl),
            ],
        )?;
        let [kernel] = ctx.kernels(&module, ["main"])?;
        let shuffles = log2_tile * (log2_tile + 1);
        let algorithm = if log2_tile == log2_segment {
            format!(
                "sg::bitonic_sort_kv_tiled<f32, u32, {log2_segment}> per segment \
                 ({shuffles} shuffles per element)"
            )
        } else {
            format!(
                "sg::bitonic_sort_kv_tiled<f32, u32, {log2_tile}> per {}-element tile \
                 ({shuffles} shuffles per element), then {} merge levels through workgroup \
                 memory (subgroups of {} lanes are narrower than a {}-element segment)",
                1 << log2_tile,
                log2_segment - log2_tile,
                ctx.gpu.target().subgroup_size.min(),
                1 << log2_segment
            )
        };
        // The library sorts (so the benchmark measures it) unless asked
        // not to, and on HIP.
        let (library, algorithm) = match ctx.library_device() {
            Some(device) => {
                let sort = FixedSegmentedSort::new(device, KeyType::F32, true, 1 << log2_segment)?;
                let algorithm = format!(
                    "wavekit::device::FixedSegmentedSort::record_pairs, {}",
                    sort.describe()
                );
                (Some(sort), algorithm)
            }
            None => (None, algorithm),
        };
        Ok(Box::new(PreparedContactSort {
            ctx,
            variant: variant.to_string(),
            segment: 1 << log2_segment,
            algorithm,
            kernel,
            library,
        }))
    }
}

struct PreparedContactSort<'c> {
    ctx: &'c Ctx<'c>,
    variant: String,
    segment: usize,
    algorithm: String,
    kernel: Kernel,
    library: Option<FixedSegmentedSort>,
}

impl PreparedContactSort<'_> {
    /// `n` contact slots, `segment` per body: a random number (1 to
    /// `segment`) of contacts per body, in its first slots, with signed
    /// distances in [-8, 24) on a 1/64 grid (so equal distances occur and
    /// the id tie-break is exercised) and random ids; the rest sentinels.
    fn input(&self, n: usize, seed: u64) -> (Vec<f32>, Vec<u32>) {
        let bodies = n.div_ceil(self.segment);
        let contacts = random_u32(bodies, self.segment as u32, seed ^ 0xc0c0);
        let distances = random_u32(n, 2048, seed);
        let ids = random_u32(n, u32::MAX, seed ^ 0x1d5);
        (0..n)
            .map(|i| {
                if (i % self.segment) as u32 <= contacts[i / self.segment] {
                    (distances[i] as f32 / 64.0 - 8.0, ids[i])
                } else {
                    SENTINEL
                }
            })
            .unzip()
    }
}

impl Prepared for PreparedContactSort<'_> {
    fn run(&self, n: usize, seed: u64) -> Result<Report, Error> {
        if n == 0 || n > 1 << 30 {
            return Err(Error::Usage(format!(
                "contact_sort takes 1 to 2^30 elements, not {n}"
            )));
        }
        let gpu = self.ctx.gpu;
        let (keys, values) = self.input(n, seed);
        let buffers = [
            gpu.upload(bytes_of(&keys))?,
            gpu.upload(bytes_of(&values))?,
            gpu.buffer(4 * n as u64)?,
            gpu.buffer(4 * n as u64)?,
        ];
        let timing = match &self.library {
            Some(sort) => {
                let [keys_in, values_in, keys_out, values_out] = &buffers;
                let record = |queue: Queue<'_>| {
                    sort.record_pairs(
                        queue,
                        keys_in.slice(),
                        keys_out.slice(),
                        values_in.slice(),
                        values_out.slice(),
                        n as u32,
                    )
                };
                self.ctx.run(&[Step::Record(&record)])?
            }
            None => {
                let buffer_refs: Vec<_> = buffers.iter().collect();
                let steps = [Step::dispatch(
                    &self.kernel,
                    &buffer_refs,
                    grid(groups(n, BLOCK)),
                )];
                self.ctx.run(&steps)?
            }
        };
        let got_keys: Vec<f32> = words_of(&gpu.read(&buffers[2])?);
        let got_values: Vec<u32> = words_of(&gpu.read(&buffers[3])?);
        let got: Vec<(f32, u32)> = got_keys.into_iter().zip(got_values).collect();
        let mut want: Vec<(f32, u32)> = keys.into_iter().zip(values).collect();
        // Keys are finite or +inf, never NaN or -0, so total_cmp is WGSL's `<`.
        for segment in want.chunks_mut(self.segment) {
            segment.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        }
        check_equal("contact_sort", &self.variant, &got, &want)?;
        Ok(Report::new(
            "contact_sort",
            &self.variant,
            self.ctx,
            &self.algorithm,
            n,
            16 * n as u64,
            timing,
        ))
    }
}
