//! Issue 35's first batch as demos, each recording its `wavekit::device`
//! object (the benchmark's rows next to `bench/ref/cub_ref.cu`'s, whose
//! inputs have the same distributions, drawn there on the GPU):
//!
//! - `arg_reduce` `min_f32` / `max_f32`: [`wavekit::device::ArgReduce`] of
//!   uniform f32 in [0, 1) with 24 random bits (the `reduce` demo's; ties
//!   from 2^24 on, the first index wins); CUB's `DeviceReduce::ArgMin` /
//!   `ArgMax`.
//! - `transform_reduce` `square_sum_f32`: [`wavekit::device::TransformReduce`],
//!   the sum of `x * x` over the same f32, checked to a relative 1e-5 of the
//!   f64 sum; CUB's `DeviceReduce::TransformReduce` with `plus` and a square.
//! - `adjacent_difference` `left_u32`: [`wavekit::device::AdjacentDifference`]
//!   by subtraction from the left neighbour, into another buffer, of
//!   uniform u32 (wrapping); CUB's `DeviceAdjacentDifference::SubtractLeftCopy`.
//! - `binary_search` `lower_u32` / `upper_u32`: [`wavekit::device::BinarySearch`]
//!   of `n` needles uniform below 2^24 in a haystack of [`HAYSTACK`] (2^20)
//!   sorted elements uniform below 2^24 (so about 6 % of the needles are in
//!   it, where the bounds differ); thrust's vectorised `lower_bound` /
//!   `upper_bound` with `thrust::cuda::par_nosync` (CCCL 13.0 has no
//!   `cub::DeviceFind`).
//! - `partition` `half_u32`: [`wavekit::device::PartitionIf`] of uniform
//!   u32 by `x < 2^31` (half selected, the `compact` demo's predicate), the
//!   others after them in reverse order; CUB's `DevicePartition::If`.
//! - `unique` `runs_u32`: [`wavekit::device::Unique`] of keys in runs of 1
//!   to 64 (the `by_key` demo's keys: consecutive runs differ); CUB's
//!   `DeviceSelect::Unique`.
//!
//! These have no steps of their own: they always record the library (on
//! the runner's device), so with `WAVEKIT_DEMOS_LIBRARY=0` their `-steps`
//! rows are the library's. Each family is a [`Family`] (its name, variants
//! and kernel), run by one [`Prepared`] that draws the input, records the
//! kernel and checks what it read back.

use rand::Rng;
use wavekit::device::{ArgOp, Bound, Queue, ReduceOp, ReduceType, Subtract};
use wavekit::runner::{Buffer, Step};
use wavekit::{Dtype, Error};

use crate::by_key::run_keys;
use crate::harness::{Ctx, Report, Timing, bytes_of, check_equal, random_u32, rng, words_of};
use crate::{Demo, Prepared, known_variant};

/// Elements of the `binary_search` demo's haystack, whatever the number of
/// needles.
pub const HAYSTACK: usize = 1 << 20;

/// The bound below which `binary_search`'s haystack and needles are drawn.
const SEARCH_RANGE: u32 = 1 << 24;

/// The `partition` demo's predicate (the `compact` demo's).
const BELOW_HALF: &str = "fn keep(x: u32) -> bool { return x < 0x80000000u; }";

/// The `transform_reduce` demo's map.
const SQUARE: &str = "fn transform(x: f32) -> f32 { return x * x; }";

/// One family of the first batch as a demo: its name, its variants (the
/// first the default), the algorithm its reports name and how a variant's
/// kernel is built.
pub struct Family {
    name: &'static str,
    variants: &'static [&'static str],
    algorithm: &'static str,
    build: fn(wavekit::device::Device<'_>, &str) -> Result<Kernel, Error>,
}

/// The `arg_reduce` demo.
pub static ARG_REDUCE: Family = Family {
    name: "arg_reduce",
    algorithm: "tiles of 2048 (8 reads in flight a thread) into per-workgroup (value, index) pairs by subgroup reductions, then one workgroup over the pairs",
    variants: &["min_f32", "max_f32"],
    build: |device, variant| {
        let op = if variant == "min_f32" {
            ArgOp::Min
        } else {
            ArgOp::Max
        };
        let arg = wavekit::device::ArgReduce::new(device, op, ReduceType::F32)?;
        Ok(Kernel::ArgReduce(arg))
    },
};

/// The `transform_reduce` demo.
pub static TRANSFORM_REDUCE: Family = Family {
    name: "transform_reduce",
    algorithm: "the map applied as each element is read, then the reduce demo's two passes",
    variants: &["square_sum_f32"],
    build: |device, _| {
        let reduce = wavekit::device::TransformReduce::new(
            device,
            Dtype::F32,
            SQUARE,
            ReduceOp::Sum,
            ReduceType::F32,
        )?;
        Ok(Kernel::TransformReduce(reduce))
    },
};

/// The `adjacent_difference` demo.
pub static ADJACENT_DIFFERENCE: Family = Family {
    name: "adjacent_difference",
    algorithm: "tiles of 2048 per workgroup, a thread's reads before its writes, each left neighbour from the lane beside it",
    variants: &["left_u32"],
    build: |device, _| {
        let difference =
            wavekit::device::AdjacentDifference::new(device, Dtype::U32, Subtract::Left, None)?;
        Ok(Kernel::AdjacentDifference(difference))
    },
};

/// The `binary_search` demo.
pub static BINARY_SEARCH: Family = Family {
    name: "binary_search",
    algorithm: "one needle a thread, the haystack's first 8 levels in workgroup memory",
    variants: &["lower_u32", "upper_u32"],
    build: |device, variant| {
        let bound = if variant == "lower_u32" {
            Bound::Lower
        } else {
            Bound::Upper
        };
        let search = wavekit::device::BinarySearch::new(device, Dtype::U32, bound)?;
        Ok(Kernel::BinarySearch(search))
    },
};

/// The `partition` demo.
pub static PARTITION: Family = Family {
    name: "partition",
    algorithm: "the selections' single-pass compaction, both sides written",
    variants: &["half_u32"],
    build: |device, _| {
        let partition = wavekit::device::PartitionIf::new(device, Dtype::U32, BELOW_HALF)?;
        Ok(Kernel::Partition(partition))
    },
};

/// The `unique` demo.
pub static UNIQUE: Family = Family {
    name: "unique",
    algorithm: "the selections' single-pass compaction, each element kept where it differs from the one before",
    variants: &["runs_u32"],
    build: |device, _| {
        Ok(Kernel::Unique(wavekit::device::Unique::new(
            device,
            Dtype::U32,
        )?))
    },
};

impl Demo for Family {
    fn name(&self) -> &'static str {
        self.name
    }

    fn variants(&self) -> &'static [&'static str] {
        self.variants
    }

    fn prepare<'c>(
        &self,
        ctx: &'c Ctx<'c>,
        variant: &str,
    ) -> Result<Box<dyn Prepared + 'c>, Error> {
        known_variant(self, variant)?;
        let kernel = (self.build)(ctx.gpu.library_device(), variant)?;
        Ok(Box::new(PreparedFamily {
            ctx,
            name: self.name,
            algorithm: self.algorithm,
            variant: variant.to_string(),
            kernel,
        }))
    }
}

/// A family's `wavekit::device` object, built once per device and variant.
enum Kernel {
    /// `arg_reduce`.
    ArgReduce(wavekit::device::ArgReduce),
    /// `transform_reduce`.
    TransformReduce(wavekit::device::TransformReduce),
    /// `adjacent_difference`.
    AdjacentDifference(wavekit::device::AdjacentDifference),
    /// `binary_search`.
    BinarySearch(wavekit::device::BinarySearch),
    /// `partition`.
    Partition(wavekit::device::PartitionIf),
    /// `unique`.
    Unique(wavekit::device::Unique),
}

struct PreparedFamily<'c> {
    ctx: &'c Ctx<'c>,
    name: &'static str,
    algorithm: &'static str,
    variant: String,
    kernel: Kernel,
}

/// `n` uniform f32 in [0, 1) with 24 random bits, as bits.
fn unit_f32(n: usize, seed: u64) -> Vec<u32> {
    let mut rng = rng(seed);
    (0..n)
        .map(|_| ((rng.random::<u32>() >> 8) as f32 / 16_777_216.0).to_bits())
        .collect()
}

/// Records a family's kernel on its `N` buffers (input, outputs, temp).
type RecordOn<'a, const N: usize> = dyn Fn(Queue<'_>, [&Buffer; N]) -> Result<(), Error> + 'a;

impl PreparedFamily<'_> {
    /// Times `record` as the context asks and reads back `outputs`.
    fn time_and_read(
        &self,
        record: &dyn Fn(Queue<'_>) -> Result<(), Error>,
        outputs: &[&Buffer],
    ) -> Result<(Option<Timing>, Vec<Vec<u32>>), Error> {
        let timing = self.ctx.run(&[Step::Record(record)])?;
        let words = outputs
            .iter()
            .map(|b| Ok(words_of(&self.ctx.gpu.read(b)?)))
            .collect::<Result<_, Error>>()?;
        Ok((timing, words))
    }

    /// A reduction to one `result_bytes` result ([`Kernel::ArgReduce`],
    /// [`Kernel::TransformReduce`]) of `input`: the result's words.
    fn reduction(
        &self,
        input: &[u32],
        result_bytes: u64,
        temp_bytes: u64,
        record: &RecordOn<'_, 3>,
    ) -> Result<(Option<Timing>, Vec<u32>), Error> {
        let gpu = self.ctx.gpu;
        let input = gpu.upload(bytes_of(input))?;
        let result = gpu.buffer(result_bytes)?;
        let temp = gpu.buffer(temp_bytes)?;
        let (timing, mut words) =
            self.time_and_read(&|queue| record(queue, [&input, &result, &temp]), &[&result])?;
        Ok((timing, words.remove(0)))
    }

    /// A selection ([`Kernel::Partition`], [`Kernel::Unique`]) of `input`:
    /// the output's words and the count.
    fn selection(
        &self,
        input: &[u32],
        temp_bytes: u64,
        record: &RecordOn<'_, 4>,
    ) -> Result<(Option<Timing>, Vec<u32>, u32), Error> {
        let gpu = self.ctx.gpu;
        let input = gpu.upload(bytes_of(input))?;
        let output = gpu.buffer(input.size())?;
        let count = gpu.buffer(4)?;
        let temp = gpu.buffer(temp_bytes)?;
        let (timing, mut words) = self.time_and_read(
            &|queue| record(queue, [&input, &output, &count, &temp]),
            &[&output, &count],
        )?;
        let count = words[1][0];
        Ok((timing, words.swap_remove(0), count))
    }

    fn arg_reduce(
        &self,
        arg: &wavekit::device::ArgReduce,
        n: usize,
        seed: u64,
    ) -> Result<(Option<Timing>, u64), Error> {
        let input = unit_f32(n, seed);
        let (timing, got) = self.reduction(
            &input,
            8,
            arg.temp_storage_bytes(n as u32),
            &|queue, [input, result, temp]| {
                arg.record(queue, input.slice(), result.slice(), n as u32, temp.slice())
            },
        )?;
        // The first index of the extreme (the values are never NaN).
        let value = |i: usize| f32::from_bits(input[i]);
        let mut best = 0;
        for i in 1..n {
            let better = match arg.op() {
                ArgOp::Min => value(i) < value(best),
                ArgOp::Max => value(i) > value(best),
            };
            if better {
                best = i;
            }
        }
        check_equal(self.name, &self.variant, &got, &[best as u32, input[best]])?;
        Ok((timing, 4 * n as u64))
    }

    fn transform_reduce(
        &self,
        reduce: &wavekit::device::TransformReduce,
        n: usize,
        seed: u64,
    ) -> Result<(Option<Timing>, u64), Error> {
        let input = unit_f32(n, seed);
        let (timing, got) = self.reduction(
            &input,
            4,
            reduce.temp_storage_bytes(n as u32),
            &|queue, [input, result, temp]| {
                reduce.record(queue, input.slice(), result.slice(), n as u32, temp.slice())
            },
        )?;
        let got = f32::from_bits(got[0]);
        // The squares are in [0, 1): no cancellation, so any order of the
        // f32 sum stays within a relative 1e-5 of the f64 sum.
        let want: f64 = input
            .iter()
            .map(|&b| f64::from(f32::from_bits(b) * f32::from_bits(b)))
            .sum();
        if (f64::from(got) - want).abs() > 1e-5 * want.max(1.0) {
            return Err(Error::Gpu(format!(
                "{} {}: got {got}, want {want} (within 1e-5)",
                self.name, self.variant
            )));
        }
        Ok((timing, 4 * n as u64))
    }

    fn adjacent_difference(
        &self,
        difference: &wavekit::device::AdjacentDifference,
        n: usize,
        seed: u64,
    ) -> Result<(Option<Timing>, u64), Error> {
        let gpu = self.ctx.gpu;
        let input = random_u32(n, u32::MAX, seed);
        let input_buffer = gpu.upload(bytes_of(&input))?;
        let output = gpu.buffer(4 * n as u64)?;
        let (timing, outputs) = self.time_and_read(
            &|queue| difference.record(queue, input_buffer.slice(), output.slice(), n as u32),
            &[&output],
        )?;
        let want: Vec<u32> = (0..n)
            .map(|i| match i {
                0 => input[0],
                _ => input[i].wrapping_sub(input[i - 1]),
            })
            .collect();
        check_equal(self.name, &self.variant, &outputs[0], &want)?;
        Ok((timing, 8 * n as u64))
    }

    fn binary_search(
        &self,
        search: &wavekit::device::BinarySearch,
        n: usize,
        seed: u64,
    ) -> Result<(Option<Timing>, u64), Error> {
        let gpu = self.ctx.gpu;
        let mut haystack = random_u32(HAYSTACK, SEARCH_RANGE, seed ^ 0x6861_7973);
        haystack.sort_unstable();
        let needles = random_u32(n, SEARCH_RANGE, seed);
        let haystack_buffer = gpu.upload(bytes_of(&haystack))?;
        let needles_buffer = gpu.upload(bytes_of(&needles))?;
        let output = gpu.buffer(4 * n as u64)?;
        let (timing, outputs) = self.time_and_read(
            &|queue| {
                search.record(
                    queue,
                    haystack_buffer.slice(),
                    HAYSTACK as u32,
                    needles_buffer.slice(),
                    n as u32,
                    output.slice(),
                )
            },
            &[&output],
        )?;
        let want: Vec<u32> = needles
            .iter()
            .map(|&x| match search.bound() {
                Bound::Lower => haystack.partition_point(|&h| h < x),
                Bound::Upper => haystack.partition_point(|&h| h <= x),
            } as u32)
            .collect();
        check_equal(self.name, &self.variant, &outputs[0], &want)?;
        Ok((timing, 8 * n as u64))
    }

    fn partition(
        &self,
        partition: &wavekit::device::PartitionIf,
        n: usize,
        seed: u64,
    ) -> Result<(Option<Timing>, u64), Error> {
        let input = random_u32(n, u32::MAX, seed);
        let (timing, got, count) = self.selection(
            &input,
            partition.temp_storage_bytes(n as u32),
            &|queue, [input, output, count, temp]| {
                let (input, output) = (input.slice(), output.slice());
                partition.record(queue, input, output, count.slice(), n as u32, temp.slice())
            },
        )?;
        let (mut want, rejected): (Vec<u32>, Vec<u32>) =
            input.iter().partition(|&&x| x < 0x8000_0000);
        check_equal(self.name, "count", &[count], &[want.len() as u32])?;
        want.extend(rejected.iter().rev());
        check_equal(self.name, &self.variant, &got, &want)?;
        Ok((timing, 8 * n as u64))
    }

    fn unique(
        &self,
        unique: &wavekit::device::Unique,
        n: usize,
        seed: u64,
    ) -> Result<(Option<Timing>, u64), Error> {
        let input = run_keys(n, seed);
        let (timing, got, count) = self.selection(
            &input,
            unique.temp_storage_bytes(n as u32),
            &|queue, [input, output, count, temp]| {
                let (input, output) = (input.slice(), output.slice());
                unique.record(queue, input, output, count.slice(), n as u32, temp.slice())
            },
        )?;
        let mut want = input;
        want.dedup();
        check_equal(self.name, "count", &[count], &[want.len() as u32])?;
        check_equal(self.name, &self.variant, &got[..want.len()], &want)?;
        Ok((timing, 4 * (n + want.len()) as u64))
    }
}

impl Prepared for PreparedFamily<'_> {
    fn run(&self, n: usize, seed: u64) -> Result<Report, Error> {
        // Each checks its result and returns its timing and the bytes it
        // must move.
        let (timing, bytes) = match &self.kernel {
            Kernel::ArgReduce(arg) => self.arg_reduce(arg, n, seed),
            Kernel::TransformReduce(reduce) => self.transform_reduce(reduce, n, seed),
            Kernel::AdjacentDifference(difference) => self.adjacent_difference(difference, n, seed),
            Kernel::BinarySearch(search) => self.binary_search(search, n, seed),
            Kernel::Partition(partition) => self.partition(partition, n, seed),
            Kernel::Unique(unique) => self.unique(unique, n, seed),
        }?;
        Ok(Report::new(
            self.name,
            &self.variant,
            self.ctx,
            self.algorithm,
            n,
            bytes,
            timing,
        ))
    }
}
