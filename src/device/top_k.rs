//! [`TopK`]: the k least or greatest of n 32-bit keys (u32, i32, f32),
//! alone or with u32 values, by a sampled radix select
//! (`shaders/top_k.wgsl`), as CUB's `DeviceTopK`.

use super::KeyType;
use super::context::{Context, Op, Pipeline, TempLayout, record};
use super::shader::Shader;
use super::slice::{Slice, disjoint, distinct_each, values_match};
use crate::backend::{Device, Queue};
use crate::error::Error;

const NAME: &str = "wavekit::device::TopK";
/// Threads per workgroup.
const BLOCK: u64 = 256;
/// Keys `init` samples from a row (every key of a shorter row).
const SAMPLES: u64 = 4096;
/// Words of a row's state before its histogram (`SCALARS`).
const SCALARS: u64 = 32;
/// Rows of a batched call at most (the grid's y).
const MAX_ROWS: u32 = 65535;
/// Rows this long or longer get 1024 histogram bins a round, shorter ones
/// 256 (a smaller state, for many short rows).
const WIDE_ROW: u64 = 1 << 16;

/// Which end of the order a [`TopK`] takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TopKOrder {
    /// The k greatest, greatest first (CUB's `MaxPairs` / `MaxKeys`).
    Largest,
    /// The k least, least first (CUB's `MinPairs` / `MinKeys`).
    Smallest,
}

/// How a [`TopK`] orders the k it writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TopKOutput {
    /// Sorted: greatest first for [`TopKOrder::Largest`], least first for
    /// [`TopKOrder::Smallest`], equal keys by ascending index.
    #[default]
    Sorted,
    /// The same k (ties at the k-th key still go to the lower index), in
    /// no particular order, which may differ from call to call: CUB's
    /// `DeviceTopK`'s output. The last step then sorts only the keys of the
    /// k-th key's final range (typically a few) instead of all k, so large
    /// k cost less.
    Unordered,
}

/// A device-wide top-k, built once per device, key type, end, output order
/// and whether values travel with the keys.
///
/// - **Order**: [`KeyType`]'s (f32: `-inf < -1 < -0.0 < +0.0 < inf`, NaNs
///   by their bits), u32, i32 or f32 keys. Ties at the k-th key go to the
///   lower index, so the result is deterministic.
/// - **Output**: `k` keys (and values), sorted by default: greatest first
///   for [`TopKOrder::Largest`], least first for [`TopKOrder::Smallest`],
///   equal keys by ascending index; or, built with
///   [`TopKOutput::Unordered`], the same k in no particular order, as
///   CUB's `DeviceTopK` returns them.
/// - **k**: `1 ≤ k ≤ min(n, 1024)` ([`TopK::MAX_K`]: the k are sorted by
///   one workgroup in workgroup memory); `k = 0` records nothing.
/// - **Placement**: inputs `n` 4-byte elements, outputs `k`; inputs must
///   not share a buffer with the outputs or the temp, which must not
///   overlap. Temp: [`TopK::temp_storage_bytes`] (`STORAGE`), which grows
///   with `n`: about `n / 20` bytes for long rows (the candidates), 4 KiB
///   of state and 8 per k.
/// - **Algorithm**: radix select on (ordered key bits, index) with bins
///   that follow the range left, seeded by a sample: one workgroup reads
///   4096 keys at stratified places and picks T, a bound about
///   `max(4k, n / 512)` keys lie under; one pass over the keys keeps
///   those at most T as candidates (staged in workgroup memory, flushed in
///   blocks) and counts them in a 1024-bin histogram, and its last
///   workgroup (a counter, no workgroup ever waits for another) picks the
///   bin of the k-th key; rows with many candidates get a second pass over
///   the candidates alone, whose last workgroup goes on to the last step,
///   and shorter rows one workgroup for it: it narrows the bin further if
///   it must and sorts the k (a bitonic sort in workgroup memory;
///   unordered, only the keys of the k-th's range). Where
///   more keys lie under T than the temp holds, the second pass (for
///   shorter rows the last step) reads the keys again; where fewer than k
///   do (a sample that no ordinary input produces), the last step reads
///   them alone, correct but slow.
/// - **Batched** ([`TopK::record_batched_keys`] /
///   [`TopK::record_batched_pairs`]): the k of each of `rows` rows of one
///   length, row `r`'s keys at `r · len`, its k at `r · k`; every row with
///   its own state and workgroups, all rows in the same dispatches (`rows`
///   at most 65535).
/// - **Cost of a call**: three dispatches (no clears): the sample, the
///   pass over the keys, and the relay with the last step (for rows of up
///   to about 2^21 keys one workgroup a row, the last step alone); one
///   read of each key; the candidates written and read once.
pub struct TopK {
    ctx: Context,
    key: KeyType,
    order: TopKOrder,
    output: TopKOutput,
    pairs: bool,
    /// Keys a tile of a pass (`BLOCK · ITEMS`).
    tile: u64,
    /// The shader's `RANK_SCALE`, `MIN_RANK`, `CAP_PERCENT`, `RELAY_MIN`
    /// and `GROUPS` (workgroups of a pass a row at most; grid-stride
    /// beyond).
    rank_scale: u64,
    min_rank: u64,
    cap_percent: u64,
    relay_min: u64,
    max_groups: u64,
    init: Pipeline,
    /// pass_a, the pass over the keys.
    pass: Pipeline,
    /// The relay (pass_r) where the rows have one, and the last step.
    finish: Pipeline,
}

/// How a call's rows are searched: every row alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Plan {
    /// Histogram bins a round.
    bins: u64,
    /// Candidates the first pass may keep, a row.
    cap_a: u64,
    /// Candidates the relay may keep, a row (1: no relay).
    cap_1: u64,
    /// Workgroups a row of the first pass and of the relay.
    groups_a: u32,
    groups_r: u32,
}

impl Plan {
    fn relayed(&self) -> bool {
        self.cap_1 > 1
    }
}

impl TopK {
    /// The largest `k` this takes.
    pub const MAX_K: u32 = 1024;

    /// The top-k of `key` keys (u32, i32 or f32) at the `order` end, with
    /// u32 values when `pairs`, on `device` (with or without the subgroup
    /// features: it uses none). Composes and compiles once. The shader's
    /// `ITEMS` (keys a thread loads a tile), `RANK_SCALE`, `MIN_RANK`,
    /// `CAP_PERCENT`, `RELAY_MIN`, `GROUPS` and `PASS_STAGE` follow
    /// `WAVEKIT_SHADER_PARAMS` (`shaders/top_k.wgsl` says what they do);
    /// out of their ranges they are an [`Error::Usage`].
    pub fn new<'d>(
        device: impl Into<Device<'d>>,
        key: KeyType,
        order: TopKOrder,
        pairs: bool,
    ) -> Result<Self, Error> {
        Self::with_output(device, key, order, pairs, TopKOutput::Sorted)
    }

    /// [`TopK::new`] with the k written as `output` says: sorted, or in no
    /// particular order (CUB's `DeviceTopK`), which costs less for large k.
    pub fn with_output<'d>(
        device: impl Into<Device<'d>>,
        key: KeyType,
        order: TopKOrder,
        pairs: bool,
        output: TopKOutput,
    ) -> Result<Self, Error> {
        if key.is_wide() {
            return Err(Error::Usage(format!(
                "{NAME}: {key:?} keys: it takes 32-bit keys (u32, i32, f32)"
            )));
        }
        let ctx = Context::new(device.into())?;
        let shader = Shader::new("top_k.wgsl")?
            .set("KEY_ORDER", format!("{}u", key.order()))
            .set("LARGEST", order == TopKOrder::Largest)
            .set("SORTED", output == TopKOutput::Sorted)
            .set("PAIRS", pairs);
        let sort_max = shader.u32_value("SORT_MAX")?;
        let [
            items,
            rank_scale,
            min_rank,
            cap_percent,
            relay_min,
            max_groups,
            pass_stage,
        ] = shader.u32_values_in(
            NAME,
            [
                ("ITEMS", 1..=16, "keys per thread"),
                ("RANK_SCALE", 0..=16, "times k"),
                ("MIN_RANK", 1..=4096, "samples"),
                ("CAP_PERCENT", 1..=10_000, "percent"),
                ("RELAY_MIN", 1..=u32::MAX, "candidates"),
                // The grid's x: at most 65535 on every device.
                ("GROUPS", 1..=65_535, "workgroups"),
                // Up to the other kernels' SORT_MAX; a tile's candidates
                // past the stage are read again (after_tile).
                ("PASS_STAGE", 2..=sort_max, "candidates"),
            ],
        )?;
        let module = ctx.compose(&shader)?;
        let [init, finish] = ctx.pipelines(&module, ["init", "finish_pass"])?;
        let [pass] = ctx.pipelines(
            &ctx.compose(&pass_shader(&shader, pass_stage))?,
            ["select_pass"],
        )?;
        Ok(TopK {
            ctx,
            key,
            order,
            output,
            pairs,
            tile: BLOCK * u64::from(items),
            rank_scale: u64::from(rank_scale),
            min_rank: u64::from(min_rank),
            cap_percent: u64::from(cap_percent),
            relay_min: u64::from(relay_min),
            max_groups: u64::from(max_groups),
            init,
            pass,
            finish,
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

    /// How the k are ordered.
    pub fn output(&self) -> TopKOutput {
        self.output
    }

    /// Whether values travel with the keys.
    pub fn has_values(&self) -> bool {
        self.pairs
    }

    /// The search of rows of `len` keys for `k` (`1 ≤ k ≤ len`): the
    /// candidates `init`'s sample leaves (`shaders/top_k.wgsl`'s `jstar`
    /// samples' worth; its stopping rule may add a quarter), room for
    /// `CAP_PERCENT` % of them, and the relay where one workgroup would
    /// read more than `RELAY_MIN`.
    fn plan(&self, len: u64, k: u64) -> Plan {
        let expected = if len <= SAMPLES {
            k
        } else {
            let jstar = self
                .min_rank
                .max((self.rank_scale * k * SAMPLES).div_ceil(len))
                .min(SAMPLES);
            (jstar * len).div_ceil(SAMPLES)
        };
        let cap_a = (expected * self.cap_percent / 100 + 256).min(len).max(k);
        let relay = expected > self.relay_min;
        let groups = |keys: u64| keys.div_ceil(self.tile).clamp(1, self.max_groups) as u32;
        Plan {
            bins: if len >= WIDE_ROW { 1024 } else { 256 },
            cap_a,
            cap_1: if relay {
                (cap_a / 4).max(4096).min(cap_a)
            } else {
                1
            },
            groups_a: groups(len),
            groups_r: groups(expected),
        }
    }

    fn temp_layout(&self, rows: u32, len: u32, k: u32) -> (TempLayout, Plan, [(u64, u64); 4]) {
        let rows = u64::from(rows);
        let plan = self.plan(u64::from(len), u64::from(k).clamp(1, u64::from(len).max(1)));
        let mut layout = TempLayout::new(&self.ctx.limits);
        let state = layout.place(4 * (SCALARS + plan.bins) * rows);
        let selected = layout.place(8 * u64::from(k) * rows);
        let cand_a = layout.place(8 * plan.cap_a * rows);
        let cand_1 = layout.place(8 * plan.cap_1 * rows);
        (layout, plan, [state, selected, cand_a, cand_1])
    }

    /// Temp bytes a call taking `k` of `n` keys needs, which grows with
    /// `n`: the state (1.1 KiB; 4.1 KiB from `n = 2^16`), 8 per k, and
    /// room for candidates, 8 bytes each: 2.5 times those the sample is
    /// expected to leave (`max(4k, n / 512)`; `k` where `n ≤ 4096`) plus
    /// 256, at most `n`, and above about 2^21 keys a quarter of that again
    /// for the relay — about `n / 20` bytes for large `n` (3.3 MB at
    /// `n = 2^26`); alignment padding.
    pub fn temp_storage_bytes(&self, n: u32, k: u32) -> u64 {
        self.temp_layout(1, n, k).0.bytes()
    }

    /// Temp bytes a batched call of `rows` rows of `len` keys, taking `k`
    /// each, needs: [`TopK::temp_storage_bytes`]`(len, k)`'s parts, each
    /// `rows` times.
    pub fn temp_storage_bytes_batched(&self, rows: u32, len: u32, k: u32) -> u64 {
        self.temp_layout(rows, len, k).0.bytes()
    }

    /// Records the `k` keys of the `order` end of the `n` at `keys[0]`
    /// into `keys[1]` (sorted unless built [`TopKOutput::Unordered`]). Temp:
    /// at least [`TopK::temp_storage_bytes`]`(n, k)` bytes. Checks every slice
    /// first (an error names the slice and the numbers, and nothing is
    /// recorded). Fails on a top-k built for pairs.
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
    /// with their values (`values[0]`) into `keys[1]` and `values[1]`
    /// (sorted unless built [`TopKOutput::Unordered`]). Temp: at least [`TopK::temp_storage_bytes`]`(n, k)` bytes.
    /// Fails on a top-k built for keys alone.
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
    /// `r`'s at `r · k`), each row's sorted unless built
    /// [`TopKOutput::Unordered`]. Temp: at least
    /// [`TopK::temp_storage_bytes_batched`]`(rows, len, k)` bytes.
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
        let (layout, plan, [state, selected, cand_a, cand_1]) = self.temp_layout(rows, n, k);
        let taken = u64::from(rows) * u64::from(k);
        let keys_in = limits.check(NAME, "keys_in", keys[0], 4 * all)?;
        let keys_out = limits.check(NAME, "keys_out", keys[1], 4 * taken)?;
        let temp = layout.check(limits, NAME, temp)?;
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
        let region = |(offset, bytes): (u64, u64)| temp.sub(offset, bytes);
        let bindings = || {
            vec![
                keys_in,
                values_in,
                keys_out,
                values_out,
                region(state),
                region(selected),
                region(cand_a),
                region(cand_1),
            ]
        };
        // pass_a, then `finish_pass`: the relay's workgroups where the rows
        // have one (its last workgroup a row finishes the row), else one
        // workgroup a row.
        let finish_groups = if plan.relayed() { plan.groups_r } else { 1 };
        let ops = [
            Op::Dispatch(&self.init, bindings(), [1, rows, 1]),
            Op::Dispatch(&self.pass, bindings(), [plan.groups_a, rows, 1]),
            Op::Dispatch(&self.finish, bindings(), [finish_groups, rows, 1]),
        ];
        record(&self.ctx, queue, &ops)
    }
}

/// `shader` as the pass over the keys (`select_pass`) is built from: its
/// sort words are its stage alone, `stage` candidates (`PASS_STAGE`).
fn pass_shader(shader: &Shader, stage: u32) -> Shader {
    shader.clone().set("SORT_MAX", format!("{stage}u"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compose::Composer;
    use crate::{Backend, SubgroupSize, Target};

    /// The pass over the keys, built from its own module (`PASS_STAGE`),
    /// keeps 7,280 bytes of workgroup memory: the 1024-bin histogram, the
    /// 256-candidate stage, the partials and the broadcast words. The
    /// other kernels keep the sort's words (16,240 bytes, under the 16 KiB
    /// every device gives).
    #[test]
    fn the_pass_keeps_little_workgroup_memory() {
        let target = Target::new(Backend::Vulkan, SubgroupSize::fixed(32).expect("32"));
        let shader = Shader::new("top_k.wgsl").expect("the shader");
        let stage = shader.u32_value("PASS_STAGE").expect("declared");
        let compose = |shader: &Shader| {
            Composer::new(target.clone())
                .compose(&shader.text().expect("its parameters"), "top_k.wgsl")
                .expect("composes")
                .module
        };
        let pass = compose(&pass_shader(&shader, stage));
        assert_eq!(pass.entry_workgroup_memory_bytes("select_pass"), Some(7280));
        let others = compose(&shader);
        for entry in ["init", "finish_pass"] {
            let bytes = others
                .entry_workgroup_memory_bytes(entry)
                .expect("an entry");
            assert!(bytes <= 16_384, "{entry}: {bytes} bytes");
        }
        assert_eq!(
            others.entry_workgroup_memory_bytes("finish_pass"),
            Some(16_240)
        );
    }
}
