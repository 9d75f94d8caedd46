//! `radix_sort`: LSD radix sort of u32 keys (`keys`) and of u32 key / u32
//! value pairs (`pairs`, stable), 8-bit digits, 4 passes, by one of two
//! algorithms:
//!
//! - [`onesweep`] (`shaders/radix_onesweep.wgsl`), as CUB's OneSweep: one
//!   read of the keys builds all four digit histograms and a block scan
//!   turns them into each digit's output offset; then each pass is a single
//!   kernel that takes tiles of keys (512 threads × 6 where the device holds
//!   that, else 256 × 8 or 128 × 8) in launch order,
//!   ranks a tile stably with subgroup ballots (`sg::ballot` per digit bit
//!   finds a key's peers, `sg::lanemask_lt` its place among them, per-
//!   subgroup counters in workgroup memory and one `blk::exclusive_add`
//!   the tile's digit offsets), publishes its per-digit counts, looks back
//!   over the earlier tiles' counts for each digit (decoupled look-back,
//!   one thread per digit) and scatters the keys. Per pass: 1 read and
//!   1 write of each key. It needs the look-back's forward-progress
//!   guarantee (running workgroups keep running), as the scan demo's
//!   look-back does.
//! - [`reduce_then_scan`] (`shaders/radix_sort.wgsl`), as CUB's
//!   DeviceRadixSort before OneSweep, for adapters without that guarantee:
//!   per pass an upsweep counts each partition's digits, the device scan
//!   ([`crate::scan::DeviceScan`]) scans the 256 × partitions count matrix,
//!   and a downsweep ranks the keys 256 at a time with
//!   `block::radix_rank_match_atomic_or` and scatters them. Per pass: 2
//!   reads and 1 write of each key, and a radix rank (7 workgroup barriers)
//!   per 256 keys.
//!
//! Through wgpu the demo sorts with [`wavekit::device::RadixSort`] (the same
//! shaders and algorithms, so its timings are the library's); on CUDA and
//! HIP with [`onesweep`] / [`reduce_then_scan`]'s own steps.
//!
//! Variants: `keys` and `pairs` pick the algorithm for the device (OneSweep
//! where [`crate::scan::algorithm_for`] picks the look-back scan; through
//! the library its own choice, which sorts up to 1280 keys in one
//! workgroup);
//! `keys_onesweep`, `pairs_onesweep`, `keys_reduce_then_scan` and
//! `pairs_reduce_then_scan` force one.
//!
//! The passes ping-pong between two key (and value) buffers; the input
//! buffers are only read, so a timed program can run any number of times on
//! the same input. Result: the sorted keys (and their values) in the second
//! ping-pong buffer.
//!
//! Inputs: `keys` uniform random u32; `pairs` keys with about 8 copies of
//! each (`x * 0x9e3779b1` for random `x < n / 8`) and values their input
//! index, so the check also checks stability.
//! Bytes counted (the same for both algorithms, so their rates compare):
//! per pass a read and a write of each key, and of each value for `pairs`,
//! plus one read of the keys: `36 n` for `keys`, `68 n` for `pairs`.

pub mod onesweep;
pub mod reduce_then_scan;

use wavekit::Error;
use wavekit::device::Queue;
use wavekit::device::RadixSortAlgorithm as LibraryAlgorithm;
use wavekit::runner::{Buffer, Gpu, Step};

use crate::harness::{Ctx, Report, Timing, bytes_of, check_equal, random_u32, words_of};
use crate::scan::ScanAlgorithm;
use crate::{Demo, Prepared, known_variant};
use onesweep::OneSweep;
use reduce_then_scan::ReduceThenScan;

/// The digit shifts of the four passes.
const SHIFTS: [u32; 4] = [0, 8, 16, 24];

/// Source and destination key buffer of pass `pass`: input → 1 → 2 → 1 → 2.
fn ping_pong(pass: usize) -> (usize, usize) {
    match pass {
        0 => (0, 1),
        _ if pass % 2 == 1 => (1, 2),
        _ => (2, 1),
    }
}

/// The key and value buffers of one sort: the input and two ping-pong
/// buffers each (4-byte placeholders for values when sorting keys alone).
pub struct SortBuffers {
    keys: [Buffer; 3],
    values: [Buffer; 3],
}

/// How a radix sort pass finds where its keys go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RadixAlgorithm {
    /// One kernel per pass, decoupled look-back over per-tile digit counts.
    OneSweep,
    /// Upsweep, device scan, downsweep per pass.
    ReduceThenScan,
}

impl RadixAlgorithm {
    /// OneSweep where the device scan uses the single pass (every device),
    /// else reduce-then-scan; on emulated subgroups reduce-then-scan, as
    /// `wavekit::device::RadixSort` picks there (OneSweep's eight ballots a
    /// key are eight workgroup exchanges).
    pub fn for_device(gpu: &Gpu) -> RadixAlgorithm {
        if gpu.target().is_emulated() {
            return RadixAlgorithm::ReduceThenScan;
        }
        match crate::scan::algorithm_for(gpu) {
            ScanAlgorithm::DecoupledLookBack => RadixAlgorithm::OneSweep,
            ScanAlgorithm::ReduceThenScan => RadixAlgorithm::ReduceThenScan,
        }
    }
}

/// The `radix_sort` demo.
pub struct RadixSort;

impl Demo for RadixSort {
    fn name(&self) -> &'static str {
        "radix_sort"
    }

    /// `keys` and `pairs` pick the algorithm for the device; the others
    /// force one.
    fn variants(&self) -> &'static [&'static str] {
        &[
            "keys",
            "pairs",
            "keys_onesweep",
            "pairs_onesweep",
            "keys_reduce_then_scan",
            "pairs_reduce_then_scan",
        ]
    }

    fn prepare<'c>(
        &self,
        ctx: &'c Ctx<'c>,
        variant: &str,
    ) -> Result<Box<dyn Prepared + 'c>, Error> {
        known_variant(self, variant)?;
        let pairs = variant.starts_with("pairs");
        // The variant's algorithm, if it names one; `keys` and `pairs` leave
        // the choice to the library, as a caller would (its one-workgroup
        // path for short inputs included), and to the device on the steps.
        let forced = if variant.ends_with("_onesweep") {
            Some(RadixAlgorithm::OneSweep)
        } else if variant.ends_with("_reduce_then_scan") {
            Some(RadixAlgorithm::ReduceThenScan)
        } else {
            None
        };
        let algorithm = forced.unwrap_or_else(|| RadixAlgorithm::for_device(ctx.gpu));
        let sorter = match (ctx.library_device(), algorithm) {
            // The library sorts (so the benchmark measures it) unless asked
            // not to, and on HIP.
            (Some(device), _) => Sorter::Library(Box::new(wavekit::device::RadixSort::new(
                device,
                wavekit::device::RadixSortOptions {
                    pairs,
                    algorithm: forced.map(|algorithm| match algorithm {
                        RadixAlgorithm::OneSweep => LibraryAlgorithm::OneSweep,
                        RadixAlgorithm::ReduceThenScan => LibraryAlgorithm::ReduceThenScan,
                    }),
                    ..Default::default()
                },
            )?)),
            (None, RadixAlgorithm::OneSweep) => {
                Sorter::OneSweep(Box::new(OneSweep::new(ctx, pairs)?))
            }
            (None, RadixAlgorithm::ReduceThenScan) => {
                Sorter::ReduceThenScan(Box::new(ReduceThenScan::new(ctx, pairs)?))
            }
        };
        Ok(Box::new(PreparedRadixSort {
            ctx,
            variant: variant.to_string(),
            pairs,
            sorter,
        }))
    }
}

enum Sorter<'c> {
    OneSweep(Box<OneSweep>),
    ReduceThenScan(Box<ReduceThenScan<'c>>),
    /// [`wavekit::device::RadixSort`] (wgpu devices and CUDA).
    Library(Box<wavekit::device::RadixSort>),
}

struct PreparedRadixSort<'c> {
    ctx: &'c Ctx<'c>,
    variant: String,
    pairs: bool,
    sorter: Sorter<'c>,
}

impl PreparedRadixSort<'_> {
    /// Sorts `buffers` (timed when the context times), returning what ran,
    /// in words, and its timing.
    fn sort(&self, buffers: &SortBuffers, n: usize) -> Result<(String, Option<Timing>), Error> {
        match &self.sorter {
            Sorter::OneSweep(sort) => {
                let scratch = sort.scratch(self.ctx, n)?;
                let timing = self.ctx.run(&sort.steps(buffers, &scratch))?;
                Ok((sort.describe(), timing))
            }
            Sorter::ReduceThenScan(sort) => {
                let scratch = sort.scratch(self.ctx, n)?;
                let timing = self.ctx.run(&sort.steps(buffers, &scratch))?;
                Ok((sort.describe(), timing))
            }
            Sorter::Library(sort) => {
                let gpu = self.ctx.gpu;
                let temp = gpu.buffer(sort.temp_storage_bytes(n as u32))?;
                let (keys_in, keys_out) = (&buffers.keys[0], &buffers.keys[2]);
                let (values_in, values_out) = (&buffers.values[0], &buffers.values[2]);
                let record = |queue: Queue<'_>| {
                    if self.pairs {
                        sort.record_pairs(
                            queue,
                            keys_in.slice(),
                            keys_out.slice(),
                            values_in.slice(),
                            values_out.slice(),
                            n as u32,
                            temp.slice(),
                        )
                    } else {
                        sort.record_keys(
                            queue,
                            keys_in.slice(),
                            keys_out.slice(),
                            n as u32,
                            temp.slice(),
                        )
                    }
                };
                let timing = self.ctx.run(&[Step::Record(&record)])?;
                Ok((sort.describe(), timing))
            }
        }
    }
}

impl Prepared for PreparedRadixSort<'_> {
    fn run(&self, n: usize, seed: u64) -> Result<Report, Error> {
        if n == 0 || n >= 1 << 30 {
            return Err(Error::Usage(format!(
                "radix_sort takes 1 to 2^30 - 1 keys, not {n}"
            )));
        }
        let gpu = self.ctx.gpu;
        let keys: Vec<u32> = if self.pairs {
            random_u32(n, (n / 8).max(1) as u32, seed)
                .into_iter()
                .map(|x| x.wrapping_mul(0x9e37_79b1))
                .collect()
        } else {
            random_u32(n, u32::MAX, seed)
        };
        let values: Vec<u32> = (0..n as u32).collect();
        let value_buffer = |data: Option<&[u32]>| match (self.pairs, data) {
            (false, _) => gpu.buffer(4),
            (true, Some(data)) => gpu.upload(bytes_of(data)),
            (true, None) => gpu.buffer(4 * n as u64),
        };
        let buffers = SortBuffers {
            keys: [
                gpu.upload(bytes_of(&keys))?,
                gpu.buffer(4 * n as u64)?,
                gpu.buffer(4 * n as u64)?,
            ],
            values: [
                value_buffer(Some(&values))?,
                value_buffer(None)?,
                value_buffer(None)?,
            ],
        };
        let (algorithm, timing) = self.sort(&buffers, n)?;
        let got_keys: Vec<u32> = words_of(&gpu.read(&buffers.keys[2])?);
        let variant = &self.variant;
        if self.pairs {
            // A stable sort by key is the sort by (key, input index).
            let mut want: Vec<u64> = keys
                .iter()
                .zip(&values)
                .map(|(&k, &v)| (u64::from(k) << 32) | u64::from(v))
                .collect();
            want.sort_unstable();
            let want: Vec<(u32, u32)> = want
                .into_iter()
                .map(|p| ((p >> 32) as u32, p as u32))
                .collect();
            let got_values: Vec<u32> = words_of(&gpu.read(&buffers.values[2])?);
            let got: Vec<(u32, u32)> = got_keys.into_iter().zip(got_values).collect();
            check_equal("radix_sort", variant, &got, &want)?;
        } else {
            let mut want = keys;
            want.sort_unstable();
            check_equal("radix_sort", variant, &got_keys, &want)?;
        }
        let per_key: u64 = 4 + if self.pairs { 4 * 16 } else { 4 * 8 };
        Ok(Report::new(
            "radix_sort",
            variant,
            self.ctx,
            &algorithm,
            n,
            per_key * n as u64,
            timing,
        ))
    }
}
