//! [`TopK`]: the k least or greatest of n 32-bit keys (u32, i32, f32),
//! alone or with u32 values, by radix select (`shaders/top_k.wgsl`), as
//! CUB's `DeviceTopK`.

use super::KeyType;
use super::context::{Context, Op, Pipeline, TempLayout, record};
use super::shader::Shader;
use super::slice::{Slice, disjoint, distinct_each, values_match};
use crate::backend::{Device, Queue};
use crate::error::Error;

const NAME: &str = "wavekit::device::TopK";
/// Threads per workgroup.
const BLOCK: u64 = 256;
/// Workgroups of a counting round at most (grid-stride beyond).
const MAX_GROUPS: u64 = 1024;
/// Rounds of 8-bit digits: 4 of the key, 4 of the index.
const ROUNDS: u64 = 8;
/// Words of the state: 256 bins, prefix (2), wanted, done, counter.
const STATE_WORDS: u64 = 261;
/// Rows of a batched call at most (the grid's y).
const MAX_ROWS: u32 = 65535;

/// Which end of the order a [`TopK`] takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TopKOrder {
    /// The k greatest, greatest first (CUB's `MaxPairs` / `MaxKeys`).
    Largest,
    /// The k least, least first (CUB's `MinPairs` / `MinKeys`).
    Smallest,
}

/// A device-wide top-k, built once per device, key type, end and whether
/// values travel with the keys.
///
/// - **Order**: [`KeyType`]'s (f32: `-inf < -1 < -0.0 < +0.0 < inf`, NaNs
///   by their bits), u32, i32 or f32 keys. Ties at the k-th key go to the
///   lower index, so the result is deterministic.
/// - **Output**: `k` keys (and values), sorted: greatest first for
///   [`TopKOrder::Largest`], least first for [`TopKOrder::Smallest`],
///   equal keys by ascending index. (CUB's `DeviceTopK` leaves its output
///   unordered by default; this one is always sorted.)
/// - **k**: `1 ≤ k ≤ min(n, 1024)` ([`TopK::MAX_K`]: the candidates are
///   sorted by one workgroup in workgroup memory); `k = 0` records
///   nothing.
/// - **Placement**: inputs `n` 4-byte elements, outputs `k`; inputs must
///   not share a buffer with the outputs or the temp, which must not
///   overlap. Temp: [`TopK::temp_storage_bytes`] (about 1 KiB plus 8 per
///   k), `STORAGE`.
/// - **Algorithm**: radix select on (ordered key bits, index): rounds of
///   8-bit digits, most significant first; each counts the digits of the
///   keys still matching the prefix found so far (a workgroup histogram,
///   then global atomics) and one workgroup finds the digit where the k-th
///   key lies. Once a digit's bin holds exactly the keys still wanted the
///   rest return at once (after at most 4 rounds for distinct keys; ties
///   at the k-th key take up to 4 more, over the index). Then the k keys
///   at most that prefix are compacted (an atomic slot each) and one
///   workgroup sorts them (bitonic over 1024 slots) and writes keys and
///   values.
/// - **Batched** ([`TopK::record_batched_keys`] /
///   [`TopK::record_batched_pairs`]): the k of each of `rows` rows of one
///   length, row `r`'s keys at `r · len`, its k at `r · k`; every row with
///   its own state and workgroups, all rows in the same 18 dispatches
///   (`rows` at most 65535).
/// - **Cost of a call**: 18 dispatches and a clear; up to 4 reads of each
///   key for distinct keys (8 with ties at the k-th), one for the
///   compaction.
pub struct TopK {
    ctx: Context,
    key: KeyType,
    order: TopKOrder,
    pairs: bool,
    count: Pipeline,
    find: Pipeline,
    compact: Pipeline,
    sort_out: Pipeline,
}

impl TopK {
    /// The largest `k` this takes.
    pub const MAX_K: u32 = 1024;

    /// The top-k of `key` keys (u32, i32 or f32) at the `order` end, with
    /// u32 values when `pairs`, on `device` (with or without the subgroup
    /// features: it uses none). Composes and compiles once.
    pub fn new<'d>(
        device: impl Into<Device<'d>>,
        key: KeyType,
        order: TopKOrder,
        pairs: bool,
    ) -> Result<Self, Error> {
        if key.is_wide() {
            return Err(Error::Usage(format!(
                "{NAME}: {key:?} keys: it takes 32-bit keys (u32, i32, f32)"
            )));
        }
        let ctx = Context::new(device.into())?.with_clears()?;
        let module = ctx.compose(
            &Shader::new("top_k.wgsl")?
                .set("KEY_ORDER", format!("{}u", key.order()))
                .set("LARGEST", order == TopKOrder::Largest)
                .set("PAIRS", pairs),
        )?;
        let [count, find, compact, sort_out] =
            ctx.pipelines(&module, ["count", "find", "compact", "sort_out"])?;
        Ok(TopK {
            ctx,
            key,
            order,
            pairs,
            count,
            find,
            compact,
            sort_out,
        })
    }

    /// The key type.
    pub fn key(&self) -> KeyType {
        self.key
    }

    /// Which end it takes.
    pub fn order(&self) -> TopKOrder {
        self.order
    }

    /// Whether values travel with the keys.
    pub fn has_values(&self) -> bool {
        self.pairs
    }

    fn temp_layout(&self, rows: u32, k: u32) -> (TempLayout, [(u64, u64); 3]) {
        let rows = u64::from(rows);
        let mut layout = TempLayout::new(&self.ctx.limits);
        let state = layout.place(4 * STATE_WORDS * rows);
        let candidates = layout.place(8 * u64::from(k) * rows);
        let pass = layout.place(4 * ROUNDS);
        (layout, [state, candidates, pass])
    }

    /// Temp bytes a call taking `k` keys needs (whatever `n`): the state
    /// (1044 bytes), 8 per k, 32, alignment padding.
    pub fn temp_storage_bytes(&self, k: u32) -> u64 {
        self.temp_layout(1, k).0.bytes()
    }

    /// Temp bytes a batched call of `rows` rows taking `k` keys each needs:
    /// per row 1044 bytes and 8 per k, then 32, alignment padding.
    pub fn temp_storage_bytes_batched(&self, rows: u32, k: u32) -> u64 {
        self.temp_layout(rows, k).0.bytes()
    }

    /// Records the `k` keys of the `order` end of the `n` at `keys[0]`
    /// into `keys[1]`, sorted. Checks every slice first (an error names
    /// the slice and the numbers, and nothing is recorded). Fails on a
    /// top-k built for pairs.
    pub fn record_keys<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        keys: [Slice<'_>; 2],
        (n, k): (u32, u32),
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        self.record(queue.into(), keys, None, (1, n, k), temp)
    }

    /// Records the `k` keys of the `order` end of the `n` at `keys[0]`
    /// with their values (`values[0]`) into `keys[1]` and `values[1]`,
    /// sorted. Fails on a top-k built for keys alone.
    pub fn record_pairs<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        keys: [Slice<'_>; 2],
        values: [Slice<'_>; 2],
        (n, k): (u32, u32),
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        self.record(queue.into(), keys, Some(values), (1, n, k), temp)
    }

    /// Records the `k` keys of the `order` end of each of `rows` rows of
    /// `len` keys at `keys[0]` (row `r` at `r · len`) into `keys[1]` (row
    /// `r`'s at `r · k`), each row's sorted. Temp: at least
    /// [`TopK::temp_storage_bytes_batched`] bytes.
    pub fn record_batched_keys<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        keys: [Slice<'_>; 2],
        (rows, len, k): (u32, u32, u32),
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        self.record(queue.into(), keys, None, (rows, len, k), temp)
    }

    /// [`TopK::record_batched_keys`] with values travelling with the keys.
    pub fn record_batched_pairs<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        keys: [Slice<'_>; 2],
        values: [Slice<'_>; 2],
        (rows, len, k): (u32, u32, u32),
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        self.record(queue.into(), keys, Some(values), (rows, len, k), temp)
    }

    fn record(
        &self,
        queue: Queue<'_>,
        keys: [Slice<'_>; 2],
        values: Option<[Slice<'_>; 2]>,
        (rows, n, k): (u32, u32, u32),
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        values_match(NAME, self.pairs, values.is_some())?;
        if k > n || k > Self::MAX_K {
            return Err(Error::Usage(format!(
                "{NAME}: k = {k} of n = {n} keys: k must be at most n and at most {}",
                Self::MAX_K
            )));
        }
        let all = u64::from(rows) * u64::from(n);
        if rows > MAX_ROWS || all > u64::from(u32::MAX) {
            return Err(Error::Usage(format!(
                "{NAME}: {rows} rows of {n} keys: at most {MAX_ROWS} rows and 2^32 - 1 keys in all"
            )));
        }
        let mut readers = vec![("keys_in", keys[0])];
        let mut writers = vec![("keys_out", keys[1]), ("temp", temp)];
        if let Some([a, b]) = values {
            readers.push(("values_in", a));
            writers.push(("values_out", b));
        }
        distinct_each(NAME, &readers, &writers)?;
        let limits = &self.ctx.limits;
        let (layout, [state, candidates, pass]) = self.temp_layout(rows, k);
        let taken = u64::from(rows) * u64::from(k);
        let keys_in = limits.check(NAME, "keys_in", keys[0], 4 * all)?;
        let keys_out = limits.check(NAME, "keys_out", keys[1], 4 * taken)?;
        let temp = limits.check(NAME, "temp", temp, layout.bytes())?;
        let mut written = vec![("keys_out", keys_out), ("temp", temp)];
        let (values_in, values_out) = match values {
            Some([a, b]) => {
                let a = limits.check(NAME, "values_in", a, 4 * all)?;
                let b = limits.check(NAME, "values_out", b, 4 * taken)?;
                written.push(("values_out", b));
                (a, b)
            }
            None => (keys_in, keys_out),
        };
        disjoint(NAME, &written)?;
        if k == 0 || rows == 0 {
            return Ok(());
        }
        let state = temp.sub(state.0, state.1);
        let binding = |round: u64| {
            vec![
                keys_in,
                values_in,
                keys_out,
                values_out,
                state,
                temp.sub(candidates.0, candidates.1),
                temp.sub(pass.0, 4 * (round + 1)),
            ]
        };
        let groups = u64::from(n).div_ceil(BLOCK * 8).clamp(1, MAX_GROUPS) as u32;
        let per_row = self.ctx.grid(rows);
        let mut ops = vec![Op::Clear(state)];
        for round in 0..ROUNDS {
            ops.push(Op::Dispatch(&self.count, binding(round), [groups, rows, 1]));
            ops.push(Op::Dispatch(&self.find, binding(round), per_row));
        }
        ops.push(Op::Dispatch(&self.compact, binding(0), [groups, rows, 1]));
        ops.push(Op::Dispatch(&self.sort_out, binding(0), per_row));
        record(&self.ctx, queue, &ops)
    }
}
