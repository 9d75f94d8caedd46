//! Device-wide algorithms on the caller's own device and buffers (feature
//! `device`), in the manner of CUB's `Device*` layer: prefix scans,
//! reductions, radix sorts, selections, run-length encodings and
//! histograms built from wavekit's subgroup and block primitives.
//!
//! Each algorithm is an object built once per [`Device`] — a
//! [`wgpu::Device`], or with the `native` feature a cudarc `CudaContext` —
//! and dtype or options: its shaders are composed for the device's
//! subgroup sizes ([`Target::from_device`](crate::Target::from_device); 32
//! on CUDA) and its pipelines compiled once (on CUDA, lowered to PTX by
//! `wavekit-native` and loaded into the context). A call then puts the
//! algorithm in a [`Queue`] — the caller's [`wgpu::CommandEncoder`], or a
//! CUDA stream — on [`Slice`]s of the caller's buffers:
//!
//! - no allocation and no read-back inside a call: the algorithm's scratch
//!   lives in a caller-provided temp slice of at least
//!   `temp_storage_bytes(n)` bytes (as CUB's `d_temp_storage`;
//!   [`Histogram`], [`BinarySearch`] and [`AdjacentDifference`]'s copy need
//!   none, nor do [`SegmentedReduce`] and [`SegmentedScan`]), and the element count reaches the shaders
//!   as the size of the bindings, so no uniform is written either; a call
//!   creates bind groups only (on CUDA: launches and clears);
//! - a call validates everything first and returns an [`Error`](crate::Error)
//!   naming the numbers (a buffer too small, an offset that is not a multiple
//!   of the device's `min_storage_buffer_offset_alignment` — of 16 for CUDA
//!   addresses —, a buffer without `STORAGE` usage, `n` beyond a binding
//!   limit, a slice or queue of the other API), never panicking on bad
//!   input; nothing is recorded when it fails;
//! - on wgpu the commands run when the caller submits the encoder, in order
//!   with the caller's other commands (wgpu orders the commands of an
//!   encoder); on CUDA they are queued on the stream at once, in order with
//!   its other work, and nothing waits. Either way several algorithms and
//!   the caller's own work can share one encoder or stream, and calls
//!   recorded one after another can share one temp slice sized for the
//!   largest of them;
//! - on wgpu a call records one compute pass (none when it has nothing to
//!   do); given `(&mut encoder, timestamp_writes)` ([`Queue::WgpuTimed`])
//!   that pass writes the caller's timestamps, which times the call on the
//!   GPU's clock as CUB's callers time theirs with events.
//!
//! Buffers: every slice an algorithm binds needs [`wgpu::BufferUsages::STORAGE`]
//! (temp too: its look-back state is zeroed by a dispatch in the
//! algorithm's compute pass, not `clear_buffer`). Offsets are in bytes.
//!
//! | object | what | CUB |
//! |---|---|---|
//! | [`Scan`] | exclusive / inclusive prefix sum of u32 or i32; of f32, min, max or your WGSL operator ([`ScanOperator`]) | `DeviceScan::ExclusiveSum` / `InclusiveSum` / `ExclusiveScan` / `InclusiveScan` |
//! | [`Reduce`] | sum, min or max of f32, i32 or u32 | `DeviceReduce::Sum` / `Min` / `Max` |
//! | [`ArgReduce`] | the first index of the least or greatest f32, i32 or u32 and the element (CUB's `KeyValuePair` layout) | `DeviceReduce::ArgMin` / `ArgMax` |
//! | [`TransformReduce`] | sum, min or max of your WGSL map of each u32, i32 or f32 (no mapped copy) | `DeviceReduce::TransformReduce` |
//! | [`RadixSort`] | stable LSD sort of u32, i32, f32, u64, i64 or f64 keys (64-bit keys as two u32 words: any device), with u32 values or without, over a bit range | `DeviceRadixSort::SortKeys` / `SortPairs` |
//! | [`SegmentedSort`] | each segment (begin offsets) of u32, i32 or f32 keys sorted, with u32 values (on (key, value)) or without | `DeviceSegmentedSort::SortKeys` / `SortPairs` |
//! | [`FixedSegmentedSort`] | each segment of one length (1..=32, a power of two) of u32, i32 or f32 keys sorted in registers, with u32 values or without | (none: `DeviceSegmentedSort` with offsets `0, len, 2 len, …`) |
//! | [`SelectIf`] | the u32, i32 or f32 elements for which a WGSL predicate holds, in order, and their number | `DeviceSelect::If` |
//! | [`SelectFlagged`] | the u32, i32 or f32 elements whose u8 or u32 flag is not zero, in order, and their number | `DeviceSelect::Flagged` |
//! | [`AdjacentDifference`] | each u32, i32 or f32 element minus its left or right neighbour (or your WGSL operator), copied or in place | `DeviceAdjacentDifference::SubtractLeft` / `SubtractRight` (and `…Copy`) |
//! | [`BinarySearch`] | the lower or upper bound (u32 index) of each of many u32, i32 or f32 needles in a sorted haystack | `DeviceFind::LowerBound` / `UpperBound` |
//! | [`PartitionIf`] / [`PartitionFlagged`] | the u32, i32 or f32 elements for which a WGSL predicate holds (or whose flag is not zero) first, in order, the others after them in reverse order, and the number selected | `DevicePartition::If` / `Flagged` |
//! | [`Unique`] | the first of each run of equal u32, i32 or f32 elements, in order, and their number | `DeviceSelect::Unique` |
//! | [`RunLengthEncode`] | the key and length of each run of equal u32 or i32 keys, and the number of runs | `DeviceRunLengthEncode::Encode` |
//! | [`Histogram`] | u32 counts of f32, u32 or i32 samples in even bins or by a WGSL bin function | `DeviceHistogram::HistogramEven` |
//! | [`ReduceByKey`] | each run of equal consecutive u32, i32 or f32 keys: its first key and the reduction of its u32, i32 or f32 values under a [`ScanOperator`], and the number of runs | `DeviceReduce::ReduceByKey` |
//! | [`ScanByKey`] | each run of equal consecutive keys scanned on its own, inclusive or exclusive, under a [`ScanOperator`] | `DeviceScan::InclusiveScanByKey` / `ExclusiveScanByKey` |
//! | [`SegmentedReduce`] | the reduction of each segment (begin and end offsets, or one fixed size) of u32, i32 or f32 under a [`ScanOperator`] | `DeviceSegmentedReduce::Reduce` / `Sum` / `Min` / `Max` |
//! | [`SegmentedScan`] | each segment (offsets or one fixed size) scanned on its own, inclusive or exclusive, under a [`ScanOperator`], in place or not | `DeviceSegmentedScan` |
//! | [`UniqueByKey`] | the first key of each run of equal consecutive u32, i32 or f32 keys and the value beside it, and their number ([`RunLengthEncode::non_trivial_runs`]: the offset and length of each run longer than one) | `DeviceSelect::UniqueByKey` (`DeviceRunLengthEncode::NonTrivialRuns`) |
//! | [`Histogram::range`] / [`MultiHistogram`] | u32 counts by levels given in a buffer, and of 1 to 4 interleaved channels in even bins or by levels | `DeviceHistogram::HistogramRange` / `MultiHistogramEven` / `MultiHistogramRange` |
//! | [`MergeSort`] / [`Merge`] | stable sort of u32, i32 or f32 keys (u32 values or not) by a WGSL comparator; stable merge of two sorted inputs | `DeviceMergeSort::SortKeys` / `StableSortKeys` / `SortPairs`, `DeviceMerge` |
//! | [`TopK`] | the k (≤ 1024) least or greatest u32, i32 or f32 keys (u32 values or not), sorted; or of each row of a batch | `DeviceTopK` |
//! | [`ThreeWayPartition`] | the u32, i32 or f32 elements for which a first WGSL predicate holds, in order; of the rest those for which a second holds, in order; the others, in order; and the two parts' sizes | `DevicePartition::If` (two selectors) |
//! | [`SegmentedArgReduce`] | the first index within each segment (offsets or one fixed size) of its least or greatest u32, i32 or f32 and the element; NaN skipped | `DeviceSegmentedReduce::ArgMin` / `ArgMax` |
//!
//! Algorithm choice: scans (sums and operator scans), selections (and the
//! partitions and uniques built on them) and sorts
//! use a single pass with decoupled look-back and decoupled fallback (the
//! sort is OneSweep) on every adapter ([`ScanAlgorithm::for_adapter`]):
//! the fallback needs no forward-progress guarantee, so CPU adapters,
//! Apple, mobile and browser GPUs and emulated subgroups get it too
//! ([`debug`] has the switches that test it). Every object takes an
//! override (three-pass reduce-then-scan); on emulated subgroups the radix
//! sort picks reduce-then-scan by speed (OneSweep's eight ballots a key are
//! eight workgroup exchanges there). The segmented sort has one algorithm
//! (short segments in registers, chunks in workgroup memory, global
//! merges).
//!
//! A caller's WGSL ([`SelectIf`]'s predicate, [`Histogram`]'s bin function,
//! [`TransformReduce`]'s map, [`AdjacentDifference`]'s operator) is composed on its own before the algorithm's shader: a malformed one is
//! an error at its own line and column, and one that does not declare the
//! function the shader calls is an [`Error::Usage`](crate::Error::Usage).
//!
//! CUDA: algorithms take the look-back (OneSweep for the sort: 512 × 12
//! keys a tile, 512 × 8 with values); the OneSweep kernels of 32-bit keys
//! run without bounds checks (their shader proves its indices), every other
//! kernel keeps them. A [`Slice`] of a `CudaSlice` or of a raw device
//! address is not tracked by cudarc's per-slice events: order its uses on
//! other streams yourself, as with CUB's pointers.
//!
//! HIP: the same objects are built on a HIP device (`Device::Hip`: a
//! `wavekit_native::hip::Hip` and the code objects' architecture and wave
//! size) and recorded on a `HipStream` with `Slice::hip`, through the
//! same host code as CUDA.
//!
//! Threads: every algorithm object, [`Slice`] and [`Device`] is `Send` and
//! `Sync`, so one object built once may record from any number of threads
//! at the same time, each into its own encoder or stream (a call reads
//! the object and writes nothing but the queue it is given); a [`Queue`]
//! is `Send`. wgpu orders the commands of one encoder and the submissions
//! of one queue, in whatever order threads submit; on CUDA and HIP the
//! streams are independent, so work on several streams that shares a
//! buffer must be ordered by the caller (events), as with CUB.
//! `tests/device_threads.rs` checks the traits, and eight threads
//! recording on one device; `tests/device_cuda.rs` eight streams at once.

mod adjacent_difference;
mod algorithm;
mod arg_reduce;
mod binary_search;
mod compaction;
mod context;
pub mod debug;
mod fixed_segmented_sort;
mod histogram;
mod partition;
mod radix_sort;
mod reduce;
mod run_length;
mod scan;
mod scan_operator;
mod segmented_sort;
mod select;
mod shader;
pub mod shaders;
mod slice;
mod sort_network;
mod transform_reduce;
mod unique;
mod user_fn;

pub use crate::backend::{Device, Queue};
pub use adjacent_difference::{AdjacentDifference, Subtract};
pub use algorithm::ScanAlgorithm;
pub use arg_reduce::{ArgOp, ArgReduce};
pub use binary_search::{BinarySearch, Bound};
pub use compaction::FlagType;
pub use fixed_segmented_sort::FixedSegmentedSort;
pub use histogram::{EvenLevels, Histogram};
pub use partition::{PartitionFlagged, PartitionIf};
pub use radix_sort::{KeyType, RadixSort, RadixSortAlgorithm, RadixSortOptions};
pub use reduce::{Reduce, ReduceOp, ReduceType};
pub use run_length::RunLengthEncode;
pub use scan::{Scan, ScanKind};
pub use scan_operator::ScanOperator;
pub use segmented_sort::SegmentedSort;
pub use select::{SelectFlagged, SelectIf};
pub use slice::Slice;
pub use transform_reduce::TransformReduce;
pub use unique::Unique;

// Issue 35, second batch: by key, segmented.
mod by_key;
mod segmented;
pub use by_key::{ReduceByKey, ScanByKey, UniqueByKey};
pub use segmented::{SegmentedReduce, SegmentedScan};
// Issue 35, third batch: histogram ranges and channels, merge sort and
// merge, top-k.
pub use histogram::MultiHistogram;
mod merge_sort;
pub use merge_sort::{Merge, MergeSort};
mod top_k;
pub use top_k::{TopK, TopKOrder, TopKOutput};
// Issue 35, fourth batch: the three-way partition, segmented
// arg-reductions.
pub use partition::ThreeWayPartition;
mod segmented_arg;
pub use segmented_arg::SegmentedArgReduce;
