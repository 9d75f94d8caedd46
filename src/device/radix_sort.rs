//! [`RadixSort`]: device-wide stable LSD radix sort of 32-bit keys (u32,
//! i32, f32) and 64-bit keys (u64, i64, f64), alone or with u32 values,
//! over a bit range, as CUB's `DeviceRadixSort::SortKeys` / `SortPairs`:
//! the options, the checks of a call, and the ping-pong schedule; the two
//! algorithms are [`onesweep`] and [`reduce_then_scan`], and [`wide`] the
//! edits for 64-bit keys.

mod onesweep;
mod reduce_then_scan;
mod tile;
mod wide;

use std::ops::Range as Bits;

use super::ScanAlgorithm;
use super::context::{Context, Op, TempLayout, record};
use super::slice::{Slice, values_match};
use crate::backend::Range;
use crate::backend::{Device, Queue};
use crate::error::Error;
use onesweep::OneSweep;
use reduce_then_scan::ReduceThenScan;
use tile::Tile;

/// A temp region: byte offset and size.
type Region = (u64, u64);

/// The most keys a sort takes: the look-back's counts are 30-bit.
const MAX_KEYS: u32 = (1 << 30) - 1;

/// How a key's bits order it, and its width.
///
/// 64-bit keys are 8 bytes each in the caller's buffers, laid out as a
/// little-endian `u64` / `i64` / `f64` (so `bytemuck::cast_slice` of a
/// `&[u64]` on every platform wgpu runs on); the shaders read a key as two
/// u32 words, low word first, and extract each 8-bit digit from them, so
/// they need no 64-bit integers in WGSL (`SHADER_INT64`) and run on every
/// device the 32-bit sort runs on, by either algorithm (OneSweep stages a
/// tile's keys one word at a time, so its workgroup memory is that of
/// 32-bit keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyType {
    /// Unsigned.
    U32,
    /// Two's complement: the sign bit is flipped on the way in and out.
    I32,
    /// IEEE 754: negative keys have every bit flipped, the others the sign
    /// bit, so `-inf < -1 < -0.0 < +0.0 < 1 < inf` and NaNs sort by their
    /// bits (negative NaNs first, positive last), as CUB does.
    F32,
    /// Unsigned 64-bit.
    U64,
    /// Two's complement 64-bit: the sign bit (bit 63) flipped.
    I64,
    /// IEEE 754 binary64, ordered as [`KeyType::F32`]: negative keys have
    /// all 64 bits flipped, the others the sign bit, so
    /// `-inf < -1 < -0.0 < +0.0 < 1 < inf` and NaNs sort by their bits
    /// (negative NaNs first, positive last).
    F64,
}

impl KeyType {
    /// The shaders' `KEY_ORDER` (`key_order.wgsl`): 0 unsigned, 1 signed,
    /// 2 floating point.
    pub(crate) fn order(self) -> u32 {
        match self {
            KeyType::U32 | KeyType::U64 => 0,
            KeyType::I32 | KeyType::I64 => 1,
            KeyType::F32 | KeyType::F64 => 2,
        }
    }

    /// Bits of a key: 32 or 64 (the end of the widest bit range).
    pub fn bits(self) -> u32 {
        if self.is_wide() { 64 } else { 32 }
    }

    /// Bytes of a key in the caller's buffers: 4 or 8.
    pub fn bytes(self) -> u64 {
        u64::from(self.bits() / 8)
    }

    /// Whether it is a 64-bit key (two u32 words in the shaders).
    pub fn is_wide(self) -> bool {
        matches!(self, KeyType::U64 | KeyType::I64 | KeyType::F64)
    }
}

/// How a pass finds where its keys go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RadixSortAlgorithm {
    /// One histogram read for all passes, then one kernel per pass with
    /// decoupled look-back over per-tile digit counts (CUB's OneSweep): per
    /// pass 1 read and 1 write of each key. Its look-back falls back to
    /// counting a stalled predecessor's digits itself, so it needs no
    /// forward-progress guarantee (see [`ScanAlgorithm::DecoupledLookBack`]).
    OneSweep,
    /// Per pass an upsweep counting digits, the device scan of the counts
    /// and a downsweep ranking with `block::radix_rank_match_atomic_or`:
    /// 2 reads and 1 write of each key per pass. Portable.
    ReduceThenScan,
}

impl RadixSortAlgorithm {
    /// OneSweep where the device scan would use look-back (every adapter),
    /// else reduce-then-scan.
    pub fn for_adapter(info: &wgpu::AdapterInfo) -> Self {
        Self::for_scan(ScanAlgorithm::for_adapter(info))
    }

    /// OneSweep with the look-back scan, else reduce-then-scan.
    pub(crate) fn for_scan(scan: ScanAlgorithm) -> Self {
        match scan {
            ScanAlgorithm::DecoupledLookBack => RadixSortAlgorithm::OneSweep,
            ScanAlgorithm::ReduceThenScan => RadixSortAlgorithm::ReduceThenScan,
        }
    }
}

/// What a [`RadixSort`] sorts and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RadixSortOptions {
    /// The key type.
    pub key: KeyType,
    /// Whether u32 values travel with the keys.
    pub pairs: bool,
    /// The key bits that order (of the encoded key, as CUB's `begin_bit`,
    /// `end_bit`): `0..32` for all of a 32-bit key, `0..64` of a 64-bit
    /// one; bits outside are ignored, so keys equal in the range keep their
    /// input order. Each 8 bits (rounded up) are a pass. The default is
    /// `0..32`: a sort of 64-bit keys built from these options sets
    /// `0..64` for all bits ([`RadixSort::keys`] and [`RadixSort::pairs`]
    /// do).
    pub bits: Bits<u32>,
    /// The algorithm; `None` picks [`RadixSortAlgorithm::for_adapter`]
    /// (reduce-then-scan on emulated subgroups).
    pub algorithm: Option<RadixSortAlgorithm>,
}

impl Default for RadixSortOptions {
    /// u32 keys, no values, all 32 bits, the device's algorithm.
    fn default() -> Self {
        RadixSortOptions {
            key: KeyType::U32,
            pairs: false,
            bits: 0..32,
            algorithm: None,
        }
    }
}

/// A device-wide radix sort, built once per device and options.
///
/// - **Semantics**: stable (equal keys, in the bit range, keep their input
///   order, and so do their values); keys written back in the caller's
///   format.
/// - **Placement**: `keys_in` is `n` keys of 4 bytes (8 for 64-bit keys,
///   see [`KeyType`]) and `values_in` `n` u32, only read; `keys_out` /
///   `values_out` as many, written. In place
///   (`keys_in` the same range as `keys_out`, and the values likewise) works
///   when the pass count (`ceil(bits / 8)`) is even, as for all 32 or 64
///   bits; otherwise the ranges must not overlap. Temp: at least
///   [`RadixSort::temp_storage_bytes`] bytes, `STORAGE`, which
///   holds the ping-pong keys (and values): about `4 n` (`8 n` with values;
///   64-bit keys `8 n`, `12 n` with values) plus the algorithm's state
///   (OneSweep: 1 KiB per tile of up to 3072 keys; reduce-then-scan: the
///   count matrix, at most 2 × 4 MiB, and its scan's).
///   Any buffer may hold several of the slices, as long as the ranges do not
///   overlap (every binding is declared `read_write`).
/// - **Limits**: `n < 2^30`; `bits` within `0..=32` (`0..=64` for 64-bit
///   keys), not empty.
/// - **Cost of a call** (OneSweep): one clear, `2 + passes` dispatches;
///   (reduce-then-scan): `passes × (2 + the scan's)` dispatches. 64-bit
///   keys: up to 8 passes, each moving twice the key bytes (OneSweep: one
///   histogram read for all 8, and two more workgroup barriers a tile).
///   Up to 1280 32-bit keys, where the algorithm is the device's (options
///   without one): one dispatch of one workgroup, which sorts them all in
///   workgroup memory (`block::radix_sort_keys`, 8-bit digits; CUB's
///   single-tile sort). On an H100, 1024 keys took 26 µs through Vulkan
///   and 18 through CUDA, against 58 and 52 µs for the seven dispatches
///   (CUB 12 µs; docs/benchmarks/2026-11-28b-h100-radix-one-workgroup).
pub struct RadixSort {
    ctx: Context,
    options: RadixSortOptions,
    algorithm: RadixSortAlgorithm,
    sorter: Sorter,
    /// The one-workgroup path for short inputs, where it applies.
    tile: Option<Tile>,
}

enum Sorter {
    OneSweep(Box<OneSweep>),
    ReduceThenScan(Box<ReduceThenScan>),
}

/// The pass plan of one sort: which bits each pass sorts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PassBits {
    /// The first bit of the pass's digit.
    pub shift: u32,
    /// Bits of its digit (8, or fewer in the last pass).
    pub digit_bits: u32,
    /// First and last pass of the sort.
    pub first: bool,
    pub last: bool,
}

/// The passes of sorting `bits`.
pub(crate) fn passes(bits: &Bits<u32>) -> Vec<PassBits> {
    let count = (bits.end - bits.start).div_ceil(8);
    (0..count)
        .map(|i| {
            let shift = bits.start + 8 * i;
            PassBits {
                shift,
                digit_bits: (bits.end - shift).min(8),
                first: i == 0,
                last: i + 1 == count,
            }
        })
        .collect()
}

/// The parameters every pass shader takes: key order, first and last
/// pass, digit width.
pub(crate) fn key_params(key: KeyType, pass: &PassBits) -> Vec<(&'static str, String)> {
    vec![
        ("KEY_ORDER", format!("{}u", key.order())),
        ("FIRST_PASS", pass.first.to_string()),
        ("LAST_PASS", pass.last.to_string()),
        ("DIGIT_BITS", format!("{}u", pass.digit_bits)),
    ]
}

/// The key and value ranges of one pass.
#[derive(Clone, Copy)]
pub(crate) struct PassBuffers<'a> {
    pub keys_in: Range<'a>,
    pub keys_out: Range<'a>,
    pub values_in: Range<'a>,
    pub values_out: Range<'a>,
}

/// Where the sort's data is: the caller's ranges and the ping-pong ranges
/// in temp (the values' ranges are a 4-byte placeholder without values).
#[derive(Clone, Copy)]
pub(crate) struct SortRanges<'a> {
    keys: [Range<'a>; 3],
    values: [Range<'a>; 3],
}

impl<'a> SortRanges<'a> {
    /// The buffers of pass `i` of `count`: the last writes the output,
    /// earlier ones alternate with the temp ranges backwards from it, and
    /// the first reads the input.
    pub fn pass(&self, i: usize, count: usize) -> PassBuffers<'a> {
        // 0: input, 1: output, 2: temp.
        let dst = |i: usize| {
            if (count - 1 - i).is_multiple_of(2) {
                1
            } else {
                2
            }
        };
        let src = if i == 0 { 0 } else { dst(i - 1) };
        PassBuffers {
            keys_in: self.keys[src],
            keys_out: self.keys[dst(i)],
            values_in: self.values[src],
            values_out: self.values[dst(i)],
        }
    }
}

impl RadixSort {
    /// A sort of `options` on `device` (created with the subgroup features,
    /// [`Target::wgpu_features`](crate::Target::wgpu_features)); composes
    /// and compiles one pipeline per pass (once). Fails on an empty or
    /// out-of-range bit range and on subgroups outside 4..=128.
    pub fn new<'d>(
        device: impl Into<Device<'d>>,
        options: RadixSortOptions,
    ) -> Result<Self, Error> {
        let bits = &options.bits;
        let width = options.key.bits();
        if bits.start >= bits.end || bits.end > width {
            return Err(Error::Usage(format!(
                "wavekit::device::RadixSort: bits {}..{} are not a non-empty range within 0..{width} \
                 (the bits of a {:?} key)",
                bits.start, bits.end, options.key
            )));
        }
        let ctx = Context::new(device.into())?.with_clears()?;
        // On emulated subgroups OneSweep's eight ballots per key are eight
        // workgroup exchanges: reduce-then-scan ran 4.1x faster there (H100,
        // Vulkan, 2^24 keys: 2.24 against 9.18 ms,
        // docs/benchmarks/2026-11-25f-h100-emulated).
        let algorithm = options.algorithm.unwrap_or_else(|| {
            if ctx.target.is_emulated() {
                RadixSortAlgorithm::ReduceThenScan
            } else {
                RadixSortAlgorithm::for_scan(ctx.scan_algorithm())
            }
        });
        let sorter = match algorithm {
            RadixSortAlgorithm::OneSweep => {
                Sorter::OneSweep(Box::new(OneSweep::new(&ctx, &options)?))
            }
            RadixSortAlgorithm::ReduceThenScan => {
                Sorter::ReduceThenScan(Box::new(ReduceThenScan::new(&ctx, &options)?))
            }
        };
        let tile = Tile::new(&ctx, &options)?;
        Ok(RadixSort {
            ctx,
            options,
            algorithm,
            sorter,
            tile,
        })
    }

    /// A sort of keys of type `key`, all bits (32 or 64), the device's
    /// algorithm.
    pub fn keys<'d>(device: impl Into<Device<'d>>, key: KeyType) -> Result<Self, Error> {
        RadixSort::new(
            device,
            RadixSortOptions {
                key,
                bits: 0..key.bits(),
                ..RadixSortOptions::default()
            },
        )
    }

    /// A sort of `key` keys with u32 values, all bits (32 or 64), the
    /// device's algorithm.
    pub fn pairs<'d>(device: impl Into<Device<'d>>, key: KeyType) -> Result<Self, Error> {
        RadixSort::new(
            device,
            RadixSortOptions {
                key,
                pairs: true,
                bits: 0..key.bits(),
                ..RadixSortOptions::default()
            },
        )
    }

    /// Its options.
    pub fn options(&self) -> &RadixSortOptions {
        &self.options
    }

    /// The algorithm its calls record.
    pub fn algorithm(&self) -> RadixSortAlgorithm {
        self.algorithm
    }

    /// What it does, in words, for reports.
    pub fn describe(&self) -> String {
        match &self.sorter {
            Sorter::OneSweep(s) => s.describe(),
            Sorter::ReduceThenScan(s) => s.describe(),
        }
    }

    /// The temp layout of `n` keys: ping-pong keys, values, then the
    /// algorithm's own regions.
    fn temp_layout(&self, n: u32) -> (TempLayout, [Region; 2], Vec<Region>) {
        let mut layout = TempLayout::new(&self.ctx.limits);
        let keys = layout.place(self.options.key.bytes() * u64::from(n));
        let values = layout.place(if self.options.pairs {
            4 * u64::from(n)
        } else {
            4
        });
        let own = match &self.sorter {
            Sorter::OneSweep(s) => s.temp(&mut layout, n),
            Sorter::ReduceThenScan(s) => s.temp(&mut layout, n),
        };
        (layout, [keys, values], own)
    }

    /// Temp bytes a call on `n` keys needs.
    pub fn temp_storage_bytes(&self, n: u32) -> u64 {
        self.temp_layout(n).0.bytes()
    }

    /// Records the sort of the `n` keys at `keys_in` into `keys_out`.
    /// Fails (recording nothing) on a bad slice or `n`, naming the numbers,
    /// and on a sort built for pairs.
    pub fn record_keys<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        keys_in: Slice<'_>,
        keys_out: Slice<'_>,
        n: u32,
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        self.record(queue, [keys_in, keys_out], None, n, temp)
    }

    /// Records the sort of the `n` keys at `keys_in` with their values at
    /// `values_in` into `keys_out` and `values_out`. Fails (recording
    /// nothing) on a bad slice or `n`, naming the numbers, and on a sort
    /// built for keys alone.
    #[allow(clippy::too_many_arguments)]
    pub fn record_pairs<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        keys_in: Slice<'_>,
        keys_out: Slice<'_>,
        values_in: Slice<'_>,
        values_out: Slice<'_>,
        n: u32,
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        self.record(
            queue,
            [keys_in, keys_out],
            Some([values_in, values_out]),
            n,
            temp,
        )
    }

    fn record<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        keys: [Slice<'_>; 2],
        values: Option<[Slice<'_>; 2]>,
        n: u32,
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        const NAME: &str = "wavekit::device::RadixSort";
        values_match(NAME, self.options.pairs, values.is_some())?;
        if n > MAX_KEYS {
            return Err(Error::Usage(format!(
                "{NAME}: {n} keys; it sorts at most 2^30 - 1 = {MAX_KEYS}"
            )));
        }
        let limits = &self.ctx.limits;
        let bytes = 4 * u64::from(n);
        let key_bytes = self.options.key.bytes() * u64::from(n);
        let (layout, [alt_keys, alt_values], own) = self.temp_layout(n);
        let temp = layout.check(limits, NAME, temp)?;
        let keys_in = limits.check(NAME, "keys_in", keys[0], key_bytes)?;
        let keys_out = limits.check(NAME, "keys_out", keys[1], key_bytes)?;
        let placeholder = temp.sub(alt_values.0, 4);
        let (values_in, values_out) = match values {
            Some([a, b]) => (
                limits.check(NAME, "values_in", a, bytes)?,
                limits.check(NAME, "values_out", b, bytes)?,
            ),
            None => (placeholder, placeholder),
        };
        let plan = passes(&self.options.bits);
        let mut ranges = vec![("keys_in", keys_in), ("keys_out", keys_out), ("temp", temp)];
        if values.is_some() {
            ranges.push(("values_in", values_in));
            ranges.push(("values_out", values_out));
        }
        check_overlaps(NAME, &ranges, plan.len())?;
        if n == 0 {
            return Ok(());
        }
        if let Some(tile) = self.tile.as_ref().filter(|_| n <= Tile::CAPACITY) {
            let data = PassBuffers {
                keys_in,
                keys_out,
                values_in,
                values_out,
            };
            return record(&self.ctx, queue.into(), &tile.ops(data));
        }
        let sort = SortRanges {
            keys: [keys_in, keys_out, temp.sub(alt_keys.0, key_bytes)],
            values: match values {
                Some(_) => [values_in, values_out, temp.sub(alt_values.0, bytes)],
                None => [placeholder; 3],
            },
        };
        let own: Vec<Range<'_>> = own.iter().map(|&(o, s)| temp.sub(o, s)).collect();
        let ops: Vec<Op<'_>> = match &self.sorter {
            Sorter::OneSweep(s) => s.ops(&self.ctx, &sort, &own, n, plan.len()),
            Sorter::ReduceThenScan(s) => s.ops(&self.ctx, &sort, &own, n, plan.len()),
        };
        record(&self.ctx, queue.into(), &ops)
    }
}

/// Fails when two of `ranges` overlap in one buffer, except an input that
/// is exactly its output when the pass count is even (in place).
fn check_overlaps(name: &str, ranges: &[(&str, Range<'_>)], passes: usize) -> Result<(), Error> {
    for (i, (a_name, a)) in ranges.iter().enumerate() {
        for (b_name, b) in &ranges[i + 1..] {
            let overlap = a.buffer == b.buffer
                && a.offset < b.offset + b.size
                && b.offset < a.offset + a.size;
            if !overlap {
                continue;
            }
            let same = a.offset == b.offset && a.size == b.size;
            let in_place = same
                && matches!(
                    (*a_name, *b_name),
                    ("keys_in", "keys_out") | ("values_in", "values_out")
                );
            if in_place && passes.is_multiple_of(2) {
                continue;
            }
            let why = if in_place {
                format!(
                    "sorting in place needs an even number of 8-bit passes, and this sort has {passes}"
                )
            } else {
                "the ranges must not overlap".to_string()
            };
            return Err(Error::Usage(format!(
                "{name}: `{a_name}` (bytes {}..{}) and `{b_name}` (bytes {}..{}) overlap in one buffer: {why}",
                a.offset,
                a.offset + a.size,
                b.offset,
                b.offset + b.size
            )));
        }
    }
    Ok(())
}
