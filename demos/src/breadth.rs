//! Issue 35's third batch as demos, each recording its
//! `wavekit::device` object (the benchmark's rows next to
//! `bench/ref/cub_ref.cu`'s, whose inputs have the same distributions):
//!
//! - `merge_sort` `pairs_u32`: [`wavekit::device::MergeSort`] of the
//!   `radix_sort` demo's `pairs` inputs (keys `x * 0x9e3779b1` of random
//!   `x < n / 8`, values their index) by `a < b`, checked stable; CUB's
//!   `DeviceMergeSort::SortPairsCopy`.
//! - `histogram_range` `uniform_u32`: [`wavekit::device::Histogram::range`]
//!   of uniform u32 into 256 bins by 257 uneven levels (`i² · 65025`);
//!   CUB's `DeviceHistogram::HistogramRange`.
//! - `top_k` `largest_f32_k64` / `largest_f32_k1024`:
//!   [`wavekit::device::TopK`] pairs, the k largest of uniform f32 in [0, 1)
//!   (24 random bits: ties from 2^24 on) with their indices, sorted; the
//!   `_unordered` variants the same k in no order
//!   ([`wavekit::device::TopKOutput::Unordered`]); CUB's
//!   `DeviceTopK::MaxPairs`, unsorted (`bench/ref/cub_topk.cu`: CCCL 13.2,
//!   which CUDA 13.0's CCCL 3.0 predates).
//!
//! These have no steps of their own: with `WAVEKIT_DEMOS_LIBRARY=0` they
//! record the library too (on the runner's device), so their `-steps` rows
//! are the library's.

use rand::Rng;
use wavekit::Error;
use wavekit::device::{KeyType, Queue, TopKOrder, TopKOutput};
use wavekit::runner::Step;

use crate::harness::{Ctx, Report, bytes_of, check_equal, random_u32, rng, words_of};
use crate::{Demo, Prepared, known_variant};

/// The device the library is built on: the context's, or the runner's own
/// where the context asks for steps (these demos have none).
fn device<'c>(ctx: &'c Ctx<'c>) -> wavekit::device::Device<'c> {
    ctx.library_device()
        .unwrap_or_else(|| ctx.gpu.library_device())
}

/// The `merge_sort` demo.
pub struct MergeSort;

impl Demo for MergeSort {
    fn name(&self) -> &'static str {
        "merge_sort"
    }

    fn variants(&self) -> &'static [&'static str] {
        &["pairs_u32"]
    }

    fn prepare<'c>(
        &self,
        ctx: &'c Ctx<'c>,
        variant: &str,
    ) -> Result<Box<dyn Prepared + 'c>, Error> {
        known_variant(self, variant)?;
        let sort = wavekit::device::MergeSort::pairs(device(ctx), wavekit::Dtype::U32, None)?;
        Ok(Box::new(PreparedMergeSort { ctx, sort }))
    }
}

struct PreparedMergeSort<'c> {
    ctx: &'c Ctx<'c>,
    sort: wavekit::device::MergeSort,
}

impl Prepared for PreparedMergeSort<'_> {
    fn run(&self, n: usize, seed: u64) -> Result<Report, Error> {
        let gpu = self.ctx.gpu;
        let keys: Vec<u32> = random_u32(n, (n / 8).max(1) as u32, seed)
            .into_iter()
            .map(|x| x.wrapping_mul(0x9e37_79b1))
            .collect();
        let values: Vec<u32> = (0..n as u32).collect();
        let keys_in = gpu.upload(bytes_of(&keys))?;
        let values_in = gpu.upload(bytes_of(&values))?;
        let keys_out = gpu.buffer(4 * n as u64)?;
        let values_out = gpu.buffer(4 * n as u64)?;
        let temp = gpu.buffer(self.sort.temp_storage_bytes(n as u32))?;
        let record = |queue: Queue<'_>| {
            self.sort.record_pairs(
                queue,
                [keys_in.slice(), keys_out.slice()],
                [values_in.slice(), values_out.slice()],
                n as u32,
                temp.slice(),
            )
        };
        let timing = self.ctx.run(&[Step::Record(&record)])?;
        let got_keys: Vec<u32> = words_of(&gpu.read(&keys_out)?);
        let got_values: Vec<u32> = words_of(&gpu.read(&values_out)?);
        // A stable sort by key is the sort by (key, input index).
        let mut want: Vec<(u32, u32)> = keys.into_iter().zip(values).collect();
        want.sort_unstable();
        let got: Vec<(u32, u32)> = got_keys.into_iter().zip(got_values).collect();
        check_equal("merge_sort", "pairs_u32", &got, &want)?;
        Ok(Report::new(
            "merge_sort",
            "pairs_u32",
            self.ctx,
            "tiles (BLOCK x ITEMS keys) by block merge sort, then global merge-path passes",
            n,
            16 * n as u64,
            timing,
        ))
    }
}

/// The `histogram_range` demo.
pub struct HistogramRange;

/// Level `i` of the 257 uneven levels.
fn level(i: u32) -> u32 {
    i * i * 65025
}

impl Demo for HistogramRange {
    fn name(&self) -> &'static str {
        "histogram_range"
    }

    fn variants(&self) -> &'static [&'static str] {
        &["uniform_u32"]
    }

    fn prepare<'c>(
        &self,
        ctx: &'c Ctx<'c>,
        variant: &str,
    ) -> Result<Box<dyn Prepared + 'c>, Error> {
        known_variant(self, variant)?;
        let histogram = wavekit::device::Histogram::range(device(ctx), wavekit::Dtype::U32, 256)?;
        Ok(Box::new(PreparedHistogramRange { ctx, histogram }))
    }
}

struct PreparedHistogramRange<'c> {
    ctx: &'c Ctx<'c>,
    histogram: wavekit::device::Histogram,
}

impl Prepared for PreparedHistogramRange<'_> {
    fn run(&self, n: usize, seed: u64) -> Result<Report, Error> {
        let gpu = self.ctx.gpu;
        let mut rng = rng(seed);
        let samples: Vec<u32> = (0..n).map(|_| rng.random()).collect();
        let levels: Vec<u32> = (0..=256).map(level).collect();
        let samples_buffer = gpu.upload(bytes_of(&samples))?;
        let levels_buffer = gpu.upload(bytes_of(&levels))?;
        let bins = gpu.buffer(4 * 256)?;
        let record = |queue: Queue<'_>| {
            self.histogram.record_range(
                queue,
                samples_buffer.slice(),
                levels_buffer.slice(),
                bins.slice(),
                n as u32,
            )
        };
        let timing = self.ctx.run(&[Step::Record(&record)])?;
        let got: Vec<u32> = words_of(&gpu.read(&bins)?);
        let mut want = vec![0u32; 256];
        for &x in &samples {
            if x < level(256) {
                want[levels[1..256].partition_point(|&l| l <= x)] += 1;
            }
        }
        check_equal("histogram_range", "uniform_u32", &got, &want)?;
        Ok(Report::new(
            "histogram_range",
            "uniform_u32",
            self.ctx,
            "workgroup histograms, levels binary-searched in workgroup memory",
            n,
            4 * n as u64,
            timing,
        ))
    }
}

/// The `top_k` demo.
pub struct TopK;

impl Demo for TopK {
    fn name(&self) -> &'static str {
        "top_k"
    }

    fn variants(&self) -> &'static [&'static str] {
        &[
            "largest_f32_k64",
            "largest_f32_k1024",
            "largest_f32_k64_unordered",
            "largest_f32_k1024_unordered",
        ]
    }

    fn prepare<'c>(
        &self,
        ctx: &'c Ctx<'c>,
        variant: &str,
    ) -> Result<Box<dyn Prepared + 'c>, Error> {
        known_variant(self, variant)?;
        let output = if variant.ends_with("_unordered") {
            TopKOutput::Unordered
        } else {
            TopKOutput::Sorted
        };
        let top = wavekit::device::TopK::with_output(
            device(ctx),
            KeyType::F32,
            TopKOrder::Largest,
            true,
            output,
        )?;
        let k = if variant.contains("k64") { 64 } else { 1024 };
        Ok(Box::new(PreparedTopK {
            ctx,
            top,
            k,
            variant: variant.to_string(),
        }))
    }
}

struct PreparedTopK<'c> {
    ctx: &'c Ctx<'c>,
    top: wavekit::device::TopK,
    k: usize,
    variant: String,
}

impl Prepared for PreparedTopK<'_> {
    fn run(&self, n: usize, seed: u64) -> Result<Report, Error> {
        let gpu = self.ctx.gpu;
        let k = self.k.min(n);
        let mut rng = rng(seed);
        let scores: Vec<f32> = (0..n)
            .map(|_| (rng.random::<u32>() >> 8) as f32 / 16_777_216.0)
            .collect();
        let indices: Vec<u32> = (0..n as u32).collect();
        let keys_in = gpu.upload(bytes_of(&scores))?;
        let values_in = gpu.upload(bytes_of(&indices))?;
        let keys_out = gpu.buffer(4 * k as u64)?;
        let values_out = gpu.buffer(4 * k as u64)?;
        let temp = gpu.buffer(self.top.temp_storage_bytes(n as u32, k as u32))?;
        let record = |queue: Queue<'_>| {
            self.top.record_pairs(
                queue,
                [keys_in.slice(), keys_out.slice()],
                [values_in.slice(), values_out.slice()],
                (n as u32, k as u32),
                temp.slice(),
            )
        };
        let timing = self.ctx.run(&[Step::Record(&record)])?;
        let got_keys: Vec<u32> = words_of(&gpu.read(&keys_out)?);
        let got_values: Vec<u32> = words_of(&gpu.read(&values_out)?);
        // The k first by (score descending, index): selected, then sorted
        // (a full sort of 2^26 indices took most of a size's time).
        let mut order = indices;
        let greater_first = |a: &u32, b: &u32| {
            scores[*b as usize]
                .total_cmp(&scores[*a as usize])
                .then(a.cmp(b))
        };
        if k < n {
            order.select_nth_unstable_by(k, greater_first);
        }
        order.truncate(k);
        order.sort_by(greater_first);
        let want: Vec<(u32, u32)> = order
            .iter()
            .map(|&i| (scores[i as usize].to_bits(), i))
            .collect();
        let mut got: Vec<(u32, u32)> = got_keys.into_iter().zip(got_values).collect();
        if self.top.output() == TopKOutput::Unordered {
            // In the reference's order: score descending (the scores are
            // non-negative, so their bits order them), then index (the
            // values are the indices; one out of range fails the check).
            got.sort_by_key(|&(_, i)| {
                scores
                    .get(i as usize)
                    .map_or((u32::MAX, i), |s| (u32::MAX - s.to_bits(), i))
            });
        }
        check_equal("top_k", &self.variant, &got, &want)?;
        Ok(Report::new(
            "top_k",
            &self.variant,
            self.ctx,
            "sampled radix select: one pass keeps the keys under a sampled bound, histogram rounds narrow them, one workgroup sorts the k",
            n,
            4 * n as u64,
            timing,
        ))
    }
}
