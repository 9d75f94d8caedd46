//! Device-wide algorithms on the caller's own wgpu device and buffers
//! (feature `device`), in the manner of CUB's `Device*` layer: prefix scans,
//! reductions and radix sorts built from wavekit's subgroup and block
//! primitives.
//!
//! Each algorithm is an object built once per [`wgpu::Device`] (and dtype or
//! options): its shaders are composed for the device's subgroup sizes
//! ([`Target::from_device`](crate::Target::from_device)) and its pipelines
//! compiled once. A call then *records* the algorithm into the caller's
//! [`wgpu::CommandEncoder`] on [`Slice`]s of the caller's buffers:
//!
//! - no allocation and no read-back inside a call: the algorithm's scratch
//!   lives in a caller-provided temp slice of at least
//!   `temp_storage_bytes(n)` bytes (as CUB's `d_temp_storage`), and the
//!   element count reaches the shaders as the size of the bindings, so no
//!   uniform is written either; a call creates bind groups only;
//! - a call validates everything first and returns an [`Error`](crate::Error)
//!   naming the numbers (a buffer too small, an offset that is not a multiple
//!   of the device's `min_storage_buffer_offset_alignment`, a buffer without
//!   `STORAGE` usage, `n` beyond a binding limit), never panicking on bad
//!   input; nothing is recorded when it fails;
//! - the commands run when the caller submits the encoder, in order with the
//!   caller's other commands (wgpu orders the commands of an encoder), so
//!   several algorithms and the caller's own passes and copies can share one
//!   encoder, and calls recorded one after another can share one temp slice
//!   sized for the largest of them.
//!
//! Buffers: every slice an algorithm binds needs [`wgpu::BufferUsages::STORAGE`];
//! temp slices also [`wgpu::BufferUsages::COPY_DST`] (the look-back state is
//! cleared with `clear_buffer`). Offsets are in bytes.
//!
//! | object | what | CUB |
//! |---|---|---|
//! | [`Scan`] | exclusive / inclusive prefix sum of u32 or i32; of f32, min, max or your WGSL operator ([`ScanOperator`]) | `DeviceScan::ExclusiveSum` / `InclusiveSum` / `ExclusiveScan` / `InclusiveScan` |
//! | [`Reduce`] | sum, min or max of f32, i32 or u32 | `DeviceReduce::Sum` / `Min` / `Max` |
//! | [`RadixSort`] | stable LSD sort of u32, i32, f32, u64, i64 or f64 keys (64-bit keys as two u32 words: any device), with u32 values or without, over a bit range | `DeviceRadixSort::SortKeys` / `SortPairs` |
//! | [`SegmentedSort`] | each segment (begin offsets) of u32, i32 or f32 keys sorted, with u32 values (on (key, value)) or without | `DeviceSegmentedSort::SortKeys` / `SortPairs` |
//!
//! Algorithm choice: where the device keeps started workgroups running while
//! others spin (NVIDIA, AMD and Intel GPUs), scans and sorts use a single
//! pass with decoupled look-back (the sort is OneSweep); elsewhere
//! (CPU adapters, mobile and Apple GPUs, unknown vendors) three-pass
//! reduce-then-scan ([`ScanAlgorithm::for_adapter`]). Every object takes an
//! override. Scans under an operator other than the u32 / i32 sum always
//! run reduce-then-scan; the segmented sort has one algorithm (short
//! segments in registers, chunks in workgroup memory, global merges).
//!
//! Not yet here (issue 20): `select_if`, `histogram`, a look-back for
//! operator scans and a CUDA path.

mod algorithm;
mod context;
mod radix_sort;
mod reduce;
mod scan;
mod scan_operator;
mod segmented_sort;
pub mod shaders;
mod slice;

pub use algorithm::ScanAlgorithm;
pub use radix_sort::{KeyType, RadixSort, RadixSortAlgorithm, RadixSortOptions};
pub use reduce::{Reduce, ReduceOp, ReduceType};
pub use scan::{Scan, ScanKind};
pub use scan_operator::ScanOperator;
pub use segmented_sort::SegmentedSort;
pub use slice::Slice;
