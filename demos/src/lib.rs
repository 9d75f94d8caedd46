//! Demos built from wavekit primitives, each written once in WGSL with
//! `#import wavekit::...` lines (`shaders/`), composed at run time for the
//! device's target, run through the one host API ([`wavekit::runner::Gpu`])
//! on any wgpu adapter and on CUDA, checked against a CPU reference and
//! timed on the GPU clock.
//!
//! | demo | what | algorithm |
//! |------|------|-----------|
//! | [`reduce`] | sum / min / max of f32, u32 | block reduce per workgroup, then one workgroup over the partials |
//! | [`scan`] | exclusive prefix sum of u32 | single pass, decoupled look-back; reduce-then-scan where forward progress is not assured |
//! | [`compact`] | stream compaction | ballot + lane masks per subgroup, tile offsets by a scan |
//! | [`histogram`] | 256-bin histogram | workgroup histograms, subgroup-aggregated atomics |
//! | [`radix_sort`] | LSD radix sort, keys and key/value | OneSweep: subgroup-ballot tile ranks + per-digit decoupled look-back; reduce-then-scan with `block::radix_rank_match_atomic_or` + the device scan where forward progress is not assured |
//! | [`contact_sort`] | many ≤ 32-element key/value sorts | `bitonic_sort_kv_tiled` |
//! | [`segmented_sort`] | key/value sorts of segments of 1..=64 | `wavekit::device::SegmentedSort` (issue 33) |
//! | [`by_key`] | `by_key`: sums over runs of equal keys (reduce and scan) and over fixed segments | `wavekit::device`'s `ReduceByKey`, `ScanByKey`, `SegmentedReduce` (issue 35, second batch) |
//! | [`breadth`] | `merge_sort`, `histogram_range`, `top_k`: `wavekit::device`'s `MergeSort`, `Histogram::range`, `TopK` | the library's (issue 35, third batch) |
//! | [`first_batch`] | `arg_reduce`, `transform_reduce`, `adjacent_difference`, `binary_search`, `partition`, `unique`: `wavekit::device`'s `ArgReduce`, `TransformReduce`, `AdjacentDifference`, `BinarySearch`, `PartitionIf`, `Unique` | the library's (issue 35, first batch) |

pub mod breadth;
pub mod by_key;
pub mod compact;
pub mod contact_sort;
pub mod first_batch;
pub mod harness;
pub mod histogram;
pub mod radix_sort;
pub mod reduce;
pub mod scan;
pub mod segmented_sort;

use wavekit::Error;

pub use harness::{Ctx, Report, Timing, open_gpu, parse_subgroups};

/// A demo: a family of variants, each prepared once per device and then run
/// at any size.
pub trait Demo: Sync {
    /// Name on the command line.
    fn name(&self) -> &'static str;
    /// Its variants (`sum_f32`, `keys`, ...), the first the default.
    fn variants(&self) -> &'static [&'static str];
    /// The smallest and largest sizes it supports (powers of two).
    fn sizes(&self) -> (u32, u32) {
        (10, 28)
    }
    /// Composes the shaders and builds the kernels of `variant` for the
    /// context's device.
    fn prepare<'c>(&self, ctx: &'c Ctx<'c>, variant: &str)
    -> Result<Box<dyn Prepared + 'c>, Error>;
}

/// A demo variant ready to run on one device.
pub trait Prepared {
    /// Runs it on `n` pseudo-random elements (seeded by `seed`), checks the
    /// result against the CPU reference, and times it if the context asks.
    fn run(&self, n: usize, seed: u64) -> Result<Report, Error>;
}

/// Every demo, in the order of the docs.
pub fn all() -> [&'static dyn Demo; 17] {
    [
        &reduce::Reduce,
        &scan::Scan,
        &compact::Compact,
        &histogram::Histogram,
        &radix_sort::RadixSort,
        &contact_sort::ContactSort,
        &segmented_sort::SegmentedSortDemo,
        &by_key::ByKey,
        &breadth::MergeSort,
        &breadth::HistogramRange,
        &breadth::TopK,
        &first_batch::ARG_REDUCE,
        &first_batch::TRANSFORM_REDUCE,
        &first_batch::ADJACENT_DIFFERENCE,
        &first_batch::BINARY_SEARCH,
        &first_batch::PARTITION,
        &first_batch::UNIQUE,
    ]
}

/// An unknown variant, as an error listing the known ones.
pub fn unknown_variant(demo: &dyn Demo, variant: &str) -> Error {
    Error::Usage(format!(
        "{} has no variant `{variant}`; its variants: {}",
        demo.name(),
        demo.variants().join(", ")
    ))
}

/// Fails with [`unknown_variant`] unless `variant` is one of `demo`'s.
pub fn known_variant(demo: &dyn Demo, variant: &str) -> Result<(), Error> {
    if demo.variants().contains(&variant) {
        Ok(())
    } else {
        Err(unknown_variant(demo, variant))
    }
}
