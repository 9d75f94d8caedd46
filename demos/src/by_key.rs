//! `by_key`: reductions and scans over runs of equal keys, and a segmented
//! reduction (`src/device/shaders/by_key.wgsl`, `segmented.wgsl`), always
//! through the library ([`wavekit::device::ReduceByKey`], `ScanByKey`,
//! `SegmentedReduce`), with `WAVEKIT_DEMOS_LIBRARY=0` too: these have no
//! steps of the demos' own.
//!
//! Inputs, as `bench/ref/cub_ref.cu`'s `by_key` draws them: keys in runs
//! of 1 to 64 (each run's length and key a hash of its index, keys
//! below 2^20, consecutive runs of different keys), values any u32; the
//! segmented reduction and scan take segments of 1024 or, in the `long`
//! variants, 65536 (the fixed-size forms; below 65536 elements, one
//! segment of all).

use wavekit::Error;
use wavekit::device::Queue;
use wavekit::runner::Step;

use crate::harness::{Ctx, Report, bytes_of, random_u32, words_of};
use crate::{Demo, Prepared, unknown_variant};

/// The segmented variants' segment length.
const SEGMENT: usize = 1024;
/// The long segmented variants' segment length.
const LONG_SEGMENT: usize = 65536;

/// The `by_key` demo.
pub struct ByKey;

impl Demo for ByKey {
    fn name(&self) -> &'static str {
        "by_key"
    }

    /// `reduce_sum_u32`: `ReduceByKey` (CUB's `DeviceReduce::ReduceByKey`
    /// with `+`); `scan_sum_u32`: the inclusive `ScanByKey` sum;
    /// `segmented_sum_u32`: `SegmentedReduce::record_fixed` over segments
    /// of 1024 (CUB's `DeviceSegmentedReduce::Sum`), `segmented_long_sum_u32`
    /// over segments of 65536; `segmented_scan_u32` and
    /// `segmented_scan_long_u32`: the inclusive `SegmentedScan::record_fixed`
    /// sum over the same (CUB 3.0 has no `DeviceSegmentedScan`: its row is
    /// `DeviceScan::InclusiveSumByKey` over the segment numbers).
    fn variants(&self) -> &'static [&'static str] {
        &[
            "reduce_sum_u32",
            "scan_sum_u32",
            "segmented_sum_u32",
            "segmented_long_sum_u32",
            "segmented_scan_u32",
            "segmented_scan_long_u32",
        ]
    }

    fn prepare<'c>(
        &self,
        ctx: &'c Ctx<'c>,
        variant: &str,
    ) -> Result<Box<dyn Prepared + 'c>, Error> {
        use wavekit::Dtype;
        use wavekit::device::{ScanKind, ScanOperator};
        let device = ctx.gpu.library_device();
        let kernel = match variant {
            "reduce_sum_u32" => Kernel::Reduce(wavekit::device::ReduceByKey::new(
                device,
                Dtype::U32,
                Dtype::U32,
                ScanOperator::Add,
            )?),
            "scan_sum_u32" => Kernel::Scan(wavekit::device::ScanByKey::new(
                device,
                ScanKind::Inclusive,
                Dtype::U32,
                Dtype::U32,
                ScanOperator::Add,
            )?),
            "segmented_sum_u32" | "segmented_long_sum_u32" => Kernel::Segmented(
                wavekit::device::SegmentedReduce::new(device, Dtype::U32, ScanOperator::Add)?,
                segment_length(variant),
            ),
            "segmented_scan_u32" | "segmented_scan_long_u32" => Kernel::SegmentedScan(
                wavekit::device::SegmentedScan::new(
                    device,
                    ScanKind::Inclusive,
                    Dtype::U32,
                    ScanOperator::Add,
                )?,
                segment_length(variant),
            ),
            _ => return Err(unknown_variant(self, variant)),
        };
        Ok(Box::new(PreparedByKey {
            ctx,
            variant: variant.to_string(),
            kernel,
        }))
    }
}

enum Kernel {
    Reduce(wavekit::device::ReduceByKey),
    Scan(wavekit::device::ScanByKey),
    /// With its segment length.
    Segmented(wavekit::device::SegmentedReduce, usize),
    /// With its segment length.
    SegmentedScan(wavekit::device::SegmentedScan, usize),
}

/// A segmented variant's segment length: [`LONG_SEGMENT`] for the `long`
/// ones, else [`SEGMENT`].
fn segment_length(variant: &str) -> usize {
    if variant.contains("long") {
        LONG_SEGMENT
    } else {
        SEGMENT
    }
}

/// The segment length at `n` elements of a variant whose segments are
/// `length` long (a long variant below [`LONG_SEGMENT`] elements: one
/// segment of all) and the whole segments of it; an error names the run
/// (`name`) where there is none.
fn segments(name: &str, length: usize, n: usize) -> Result<(usize, usize), Error> {
    let segment = if length == LONG_SEGMENT {
        length.min(n).max(1)
    } else {
        length
    };
    match n / segment {
        0 => Err(Error::Usage(format!(
            "{name} needs at least {segment} elements, not {n}"
        ))),
        segments => Ok((segment, segments)),
    }
}

struct PreparedByKey<'c> {
    ctx: &'c Ctx<'c>,
    variant: String,
    kernel: Kernel,
}

/// `n` keys in runs of 1 to 64, consecutive runs of different keys below
/// 2^20 (also the `unique` demo's input).
pub(crate) fn run_keys(n: usize, seed: u64) -> Vec<u32> {
    let draws = random_u32(n + 1, u32::MAX, seed ^ 0x6b65_7973);
    let mut keys = Vec::with_capacity(n);
    let mut key = 0u32;
    for w in draws {
        if keys.len() == n {
            break;
        }
        let len = 1 + (w >> 26) as usize;
        key = (key + 1 + (w & 0xffff)) & 0xf_ffff;
        keys.extend(std::iter::repeat_n(key, len.min(n - keys.len())));
    }
    keys
}

/// The first index where `got` and `want` differ, as an error.
fn compare(name: &str, got: &[u32], want: &[u32]) -> Result<(), Error> {
    if got.len() != want.len() {
        return Err(Error::Gpu(format!(
            "{name}: {} results, want {}",
            got.len(),
            want.len()
        )));
    }
    match (0..got.len()).find(|&i| got[i] != want[i]) {
        Some(i) => Err(Error::Gpu(format!(
            "{name}: index {i}: got {}, want {}",
            got[i], want[i]
        ))),
        None => Ok(()),
    }
}

impl Prepared for PreparedByKey<'_> {
    fn run(&self, n: usize, seed: u64) -> Result<Report, Error> {
        let name = format!("by_key {}", self.variant);
        let gpu = self.ctx.gpu;
        let values = random_u32(n, u32::MAX, seed);
        let keys = run_keys(n, seed);
        let values_buffer = gpu.upload(bytes_of(&values))?;
        let n32 = n as u32;
        let (timing, bytes, algorithm) = match &self.kernel {
            Kernel::Reduce(reduce) => {
                let keys_buffer = gpu.upload(bytes_of(&keys))?;
                let (unique, sums, count) = (
                    gpu.buffer(4 * n as u64)?,
                    gpu.buffer(4 * n as u64)?,
                    gpu.buffer(4)?,
                );
                let temp = gpu.buffer(reduce.temp_storage_bytes(n32))?;
                let record = |queue: Queue<'_>| {
                    reduce.record(
                        queue,
                        keys_buffer.slice(),
                        values_buffer.slice(),
                        unique.slice(),
                        sums.slice(),
                        count.slice(),
                        n32,
                        temp.slice(),
                    )
                };
                let timing = self.ctx.run(&[Step::Record(&record)])?;
                let runs = words_of::<u32>(&gpu.read(&count)?)[0] as usize;
                let (mut want_keys, mut want_sums) = (Vec::new(), Vec::new());
                for i in 0..n {
                    if i == 0 || keys[i] != keys[i - 1] {
                        want_keys.push(keys[i]);
                        want_sums.push(0u32);
                    }
                    let last = want_sums.last_mut().expect("a run");
                    *last = last.wrapping_add(values[i]);
                }
                let got_keys: Vec<u32> = words_of(&gpu.read(&unique)?);
                let got_sums: Vec<u32> = words_of(&gpu.read(&sums)?);
                compare(&name, &got_keys[..runs.min(n)], &want_keys)?;
                compare(&name, &got_sums[..runs.min(n)], &want_sums)?;
                let bytes = 8 * n as u64 + 8 * runs as u64;
                (
                    timing,
                    bytes,
                    "head counts per tile, their scan, then one pass with the carry by look-back",
                )
            }
            Kernel::Scan(scan) => {
                let keys_buffer = gpu.upload(bytes_of(&keys))?;
                let output = gpu.buffer(4 * n as u64)?;
                let temp = gpu.buffer(scan.temp_storage_bytes(n32))?;
                let record = |queue: Queue<'_>| {
                    scan.record(
                        queue,
                        keys_buffer.slice(),
                        values_buffer.slice(),
                        output.slice(),
                        n32,
                        temp.slice(),
                    )
                };
                let timing = self.ctx.run(&[Step::Record(&record)])?;
                let mut acc = 0u32;
                let want: Vec<u32> = (0..n)
                    .map(|i| {
                        if i == 0 || keys[i] != keys[i - 1] {
                            acc = 0;
                        }
                        acc = acc.wrapping_add(values[i]);
                        acc
                    })
                    .collect();
                compare(&name, &words_of::<u32>(&gpu.read(&output)?), &want)?;
                (
                    timing,
                    12 * n as u64,
                    "one pass: (head, value) pairs scanned per tile, the carry by look-back",
                )
            }
            Kernel::Segmented(reduce, length) => {
                let (segment, segments) = segments(&name, *length, n)?;
                let sums = gpu.buffer(4 * segments as u64)?;
                let record = |queue: Queue<'_>| {
                    reduce.record_fixed(
                        queue,
                        values_buffer.slice(),
                        sums.slice(),
                        segments as u32,
                        segment as u32,
                    )
                };
                let timing = self.ctx.run(&[Step::Record(&record)])?;
                let want: Vec<u32> = values
                    .chunks_exact(segment)
                    .map(|c| c.iter().fold(0u32, |a, &x| a.wrapping_add(x)))
                    .collect();
                compare(&name, &words_of::<u32>(&gpu.read(&sums)?), &want)?;
                (
                    timing,
                    4 * (segments * segment + segments) as u64,
                    "SegmentedReduce over fixed-size segments",
                )
            }
            Kernel::SegmentedScan(scan, length) => {
                let (segment, segments) = segments(&name, *length, n)?;
                // The whole segments only, as CUB's row scans them.
                let scanned = segments * segment;
                let output = gpu.buffer(4 * scanned as u64)?;
                let record = |queue: Queue<'_>| {
                    scan.record_fixed(
                        queue,
                        values_buffer.slice(),
                        output.slice(),
                        segments as u32,
                        segment as u32,
                    )
                };
                let timing = self.ctx.run(&[Step::Record(&record)])?;
                let want: Vec<u32> = values[..scanned]
                    .chunks_exact(segment)
                    .flat_map(|c| {
                        c.iter().scan(0u32, |acc, &x| {
                            *acc = acc.wrapping_add(x);
                            Some(*acc)
                        })
                    })
                    .collect();
                compare(&name, &words_of::<u32>(&gpu.read(&output)?), &want)?;
                (
                    timing,
                    8 * scanned as u64,
                    "SegmentedScan over fixed-size segments",
                )
            }
        };
        Ok(Report::new(
            "by_key",
            &self.variant,
            self.ctx,
            algorithm,
            n,
            bytes,
            timing,
        ))
    }
}
