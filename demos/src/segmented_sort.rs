//! `segmented_sort` `mixed_pairs`: [`wavekit::device::SegmentedSort`] of
//! segments of mixed lengths, the case issue 33 names beside the fixed
//! lengths of `contact_sort`: segment lengths uniform in 1..=64 (mean 32.5);
//! `long_pairs`: uniform in 1..=16384 (mean 8192: the chunk sort and the
//! merge passes);
//! keys f32 signed distances in [-8, 24) on a 1/64 grid (so equal keys
//! occur), values random u32, every segment sorted ascending on
//! (key, value). CUB's row is `DeviceSegmentedSort::SortPairs` on the same
//! distribution (`bench/ref/cub_ref.cu`).
//!
//! The library sorts on every back end (there are no steps of the demo's
//! own): with `WAVEKIT_DEMOS_LIBRARY=0` it records on the runner's device.
//!
//! Bytes counted: keys and values read and written, `16 n` (the offsets
//! are not counted, as CUB's row does not count them either).

use wavekit::Error;
use wavekit::device::{KeyType, Queue, SegmentedSort};
use wavekit::runner::Step;

use crate::harness::{Ctx, Report, bytes_of, check_equal, random_u32, words_of};
use crate::{Demo, Prepared, unknown_variant};

/// Each variant and its longest segment.
const VARIANTS: [(&str, u32); 2] = [("mixed_pairs", 64), ("long_pairs", 16384)];

/// The `segmented_sort` demo.
pub struct SegmentedSortDemo;

impl Demo for SegmentedSortDemo {
    fn name(&self) -> &'static str {
        "segmented_sort"
    }

    fn variants(&self) -> &'static [&'static str] {
        &["mixed_pairs", "long_pairs"]
    }

    fn prepare<'c>(
        &self,
        ctx: &'c Ctx<'c>,
        variant: &str,
    ) -> Result<Box<dyn Prepared + 'c>, Error> {
        let (variant, longest) = VARIANTS
            .into_iter()
            .find(|(name, _)| *name == variant)
            .ok_or_else(|| unknown_variant(self, variant))?;
        // The library on every back end: there are no steps of the demo's own.
        let sort = SegmentedSort::pairs(ctx.gpu.library_device(), KeyType::F32)?;
        Ok(Box::new(PreparedSegmentedSort {
            ctx,
            sort,
            variant,
            longest,
        }))
    }
}

struct PreparedSegmentedSort<'c> {
    ctx: &'c Ctx<'c>,
    sort: SegmentedSort,
    variant: &'static str,
    /// The longest segment.
    longest: u32,
}

/// The offsets of segments of lengths uniform in `1..=longest` covering `n`
/// elements (the last one cut at `n`).
fn offsets(n: usize, longest: u32, seed: u64) -> Vec<u32> {
    let lengths = random_u32(n / 16 + 1, longest, seed ^ 0x5e9);
    let mut offsets = vec![0u32];
    let mut at = 0usize;
    for length in lengths.iter().cycle() {
        if at >= n {
            break;
        }
        at = (at + *length as usize + 1).min(n);
        offsets.push(at as u32);
    }
    offsets
}

impl Prepared for PreparedSegmentedSort<'_> {
    fn run(&self, n: usize, seed: u64) -> Result<Report, Error> {
        if n == 0 || n > 1 << 30 {
            return Err(Error::Usage(format!(
                "segmented_sort takes 1 to 2^30 elements, not {n}"
            )));
        }
        let gpu = self.ctx.gpu;
        let keys: Vec<f32> = random_u32(n, 2048, seed)
            .into_iter()
            .map(|d| d as f32 / 64.0 - 8.0)
            .collect();
        let values = random_u32(n, u32::MAX, seed ^ 0x1d5);
        let longest = self.longest;
        let offsets = offsets(n, longest, seed);
        let segments = offsets.len() as u32 - 1;
        let keys_in = gpu.upload(bytes_of(&keys))?;
        let values_in = gpu.upload(bytes_of(&values))?;
        let offsets_in = gpu.upload(bytes_of(&offsets))?;
        let keys_out = gpu.buffer(4 * n as u64)?;
        let values_out = gpu.buffer(4 * n as u64)?;
        let temp = gpu.buffer(self.sort.temp_storage_bytes(n as u32))?;
        let record = |queue: Queue<'_>| {
            self.sort.record_pairs(
                queue,
                keys_in.slice(),
                keys_out.slice(),
                values_in.slice(),
                values_out.slice(),
                n as u32,
                offsets_in.slice(),
                segments,
                temp.slice(),
            )
        };
        let timing = self.ctx.run(&[Step::Record(&record)])?;
        let got_keys: Vec<f32> = words_of(&gpu.read(&keys_out)?);
        let got_values: Vec<u32> = words_of(&gpu.read(&values_out)?);
        let got: Vec<(f32, u32)> = got_keys.into_iter().zip(got_values).collect();
        let mut want: Vec<(f32, u32)> = keys.into_iter().zip(values).collect();
        for bounds in offsets.windows(2) {
            // Finite keys, never -0: total_cmp is the sort's order.
            want[bounds[0] as usize..bounds[1] as usize]
                .sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        }
        check_equal("segmented_sort", self.variant, &got, &want)?;
        Ok(Report::new(
            "segmented_sort",
            self.variant,
            self.ctx,
            &format!(
                "wavekit::device::SegmentedSort::record_pairs, {segments} segments of \
                 1..={longest}, {}",
                self.sort.describe()
            ),
            n,
            16 * n as u64,
            timing,
        ))
    }
}
