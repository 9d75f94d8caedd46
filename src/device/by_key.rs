//! [`ReduceByKey`] and [`ScanByKey`]: reductions and prefix scans of the
//! runs of equal consecutive keys, as CUB's `DeviceReduce::ReduceByKey`
//! and `DeviceScan::InclusiveScanByKey` / `ExclusiveScanByKey`, under any
//! [`ScanOperator`] (`shaders/by_key.wgsl`: the segmented operator, chained
//! by the look-back of `shaders/look_back.wgsl`).

use super::ScanKind;
use super::context::{Context, Op, Pipeline, TempLayout, record};
use super::scan_operator::ScanOperator;
use super::shader::Shader;
use super::slice::{Slice, disjoint, distinct_each};
use super::user_fn;
use crate::backend::{Device, Queue, Range};
use crate::dtype::Dtype;
use crate::error::Error;

/// Threads per workgroup of `by_key.wgsl`.
const BLOCK: u32 = 256;

/// The dtypes keys and values may have.
const DTYPES: [Dtype; 3] = [Dtype::U32, Dtype::I32, Dtype::F32];

/// Elements per thread, each a multiple of 4 (full tiles load vec4s):
/// 12 through wgpu and for the scan on CUDA, 20 for the reduction on
/// CUDA; HIP (unmeasured) keeps the 8 it had. H200, 2^22 / 2^24 / 2^26
/// (docs/benchmarks/2026-11-29c-h200-by-key-quads):
/// - the reduction through Vulkan: 27.3 / 77.6 / 261.8 µs at 12, 28.7 /
///   74.2 / 242.3 at 16 (0.78 of the CUDA figure at 2^22; 12 is at least
///   0.80 at every size from 2^20);
/// - the scan on CUDA: 22.3 / 60.3 / 205.0 at 12, 20.0 / 58.9 / 210.5 at
///   8, 22.7 / 62.2 / 207.2 at 10 without the vec4 loads (the default
///   before); through Vulkan 16 is 1.5x slower than 12.
///
/// Since the reduction loads a thread's words 16 bytes at a time, 16 is
/// its fastest on CUDA: 22.4 / 67.4 / 213.1 µs at 16, 22.8 / 70.4 / 222.6
/// at 12, 24.6 / 78.8 / 271.5 at 8 (CUB 20.8 / 63.4 / 220.3;
/// docs/benchmarks/2026-11-28j-h200-by-key-vector-loads). Before, H100,
/// ReduceByKey sum at 2^26: CUDA 0.3668 ms at 8, 0.3255 at 10, 0.3041 at
/// 12, 0.3145 at 14 (CUB 0.2405), 16 slower still; Vulkan 0.3958 at 8,
/// 0.3168 at 12, 0.4039 at 6 (docs/benchmarks/2026-11-27n-h100-by-key-one-pass).
/// With the stashed ends (H200, CUDA, 2^26): 0.2321 at 12, 0.2392 at 14,
/// 0.3733 at 16 (docs/benchmarks/2026-11-27p-h200-by-key-stashed-ends).
/// With the lane-striped loads (`STRIPED`), 20: H200, CUDA, 2^22 / 2^23 /
/// 2^26, 21.4 / 37.8 / 208.0 µs at 20, 21.6 / 40.0 / 213.8 at 16, 24.1 /
/// 42.4 / 237.4 at 12 (CUB 20.9 / 36.8 / 218.4;
/// docs/benchmarks/2026-11-29i-h200-merge-sort-loads, call 6).
fn items_per_thread(ctx: &Context, reduce: bool) -> u32 {
    if !ctx.is_native() {
        12
    } else if !ctx.target.is_native_cuda() {
        8
    } else if reduce {
        20
    } else {
        12
    }
}

/// Whether the block scan is by subgroup shuffles: through wgpu, but on
/// emulated subgroups (each shuffle a barrier there). Natively the scan in
/// workgroup memory measured faster (H100, CUDA, 12 a thread, ReduceByKey
/// at 2^26: 0.3032 against 0.3251 ms; Vulkan: 0.3354 against 0.3168).
fn subgroup_scan(ctx: &Context) -> bool {
    !ctx.is_native() && !ctx.target.is_emulated()
}

/// Whether the reduction folds its items as they load and stashes each run
/// end's value in workgroup memory (`STASHED_ENDS`): natively. H200,
/// ReduceByKey sum at 2^26: CUDA 0.2331 against 0.2837 ms with the items
/// held in registers (32 registers, not 47, so also without bounds
/// checks); through Vulkan 0.4816 against 0.2909
/// (docs/benchmarks/2026-11-27p-h200-by-key-stashed-ends).
fn stashed_ends(ctx: &Context) -> bool {
    ctx.is_native()
}

/// Whether the stashed reduction loads its full tiles as lane-striped
/// quads through workgroup memory (`STRIPED`): on CUDA. H200, ReduceByKey
/// sum, 2^22 / 2^23 / 2^24 / 2^26: 21.4 / 39.3 / 63.6 / 214.3 µs, against
/// 22.6 / 38.7 / 68.0 / 212.9 with each thread's own 16-byte loads (CUB
/// 20.2 / 36.7 / 63.2 / 218.2): 40 registers, 6 workgroups an SM, not 32
/// and 8 (docs/benchmarks/2026-11-29g-h200-compaction-full-tiles).
fn striped(ctx: &Context) -> bool {
    ctx.target.is_native_cuda()
}

/// The composed shader's context, key and value types, its tile and its
/// kernels.
struct Built {
    ctx: Context,
    key: Dtype,
    value: Dtype,
    /// Elements per tile: BLOCK × the shader's ITEMS.
    tile: u32,
    /// `by_key.wgsl`'s entry point, for 4 elements or more.
    main: Pipeline,
    /// `by_key_few.wgsl`'s, for 1 to 3 (the main kernel's vec4 views of
    /// the inputs need 16 bytes).
    few: Pipeline,
}

/// The methods [`ReduceByKey`] and [`ScanByKey`] share: their key and
/// value types, operator and temp size (from their `built` and
/// `operator` fields).
macro_rules! by_key_methods {
    () => {
        /// The key type.
        pub fn key_dtype(&self) -> Dtype {
            self.built.key
        }

        /// The value type.
        pub fn value_dtype(&self) -> Dtype {
            self.built.value
        }

        /// The operator.
        pub fn operator(&self) -> &ScanOperator {
            &self.operator
        }

        /// Temp bytes a call on `n` elements needs (16 per tile of 3072
        /// elements plus alignment padding).
        pub fn temp_storage_bytes(&self, n: u32) -> u64 {
            self.built.layout(n).0.bytes()
        }
    };
}

/// The temp regions of a call: the tile state (the run counts' look-back
/// and the tiles' tails, 2 words a tile each) and the tile counter (both
/// zeroed by the call's clear), and a spare word for the bindings a scan
/// does not use.
struct Regions {
    state: (u64, u64),
    counter: (u64, u64),
    spare: (u64, u64),
}

/// Which entry point of `by_key.wgsl` a [`Built`] serves.
#[derive(Clone, Copy)]
enum Entry {
    /// `reduce_by_key`; `non_trivial` counts only runs longer than one.
    Reduce { non_trivial: bool },
    /// `scan_by_key`, inclusive or exclusive.
    Scan { inclusive: bool },
}

impl Built {
    /// The context `ctx` and the kernels of `by_key.wgsl` and
    /// `by_key_few.wgsl` for `key`, `value`, `operator` and `entry`
    /// (checked dtypes).
    fn new(
        name: &str,
        ctx: Context,
        key: Dtype,
        value: Dtype,
        operator: &ScanOperator,
        entry: Entry,
    ) -> Result<Self, Error> {
        let (inclusive, non_trivial, reduce) = match entry {
            Entry::Reduce { non_trivial } => (true, non_trivial, true),
            Entry::Scan { inclusive } => (inclusive, false, false),
        };
        let (main_entry, few_entry) = if reduce {
            ("reduce_by_key", "reduce_few")
        } else {
            ("scan_by_key", "scan_few")
        };
        let key_wgsl = user_fn::element(name, key, &DTYPES)?;
        let value_wgsl = user_fn::element(name, value, &DTYPES)?;
        let ctx = ctx.with_clears()?;
        let (op, identity) = operator.declarations(value)?;
        // What both files take: the types, the kind and the operator.
        let typed = |file| -> Result<Shader, Error> {
            Ok(Shader::new(file)?
                .set("K", key_wgsl)
                .set("T", value_wgsl)
                .set("INCLUSIVE", inclusive)
                .set("NON_TRIVIAL", non_trivial)
                .function("scan_op", op.clone())
                .function("scan_identity", identity.clone()))
        };
        let shader = typed("by_key.wgsl")?
            .set("ITEMS", format!("{}u", items_per_thread(&ctx, reduce)))
            .set("SUBGROUP_SCAN", subgroup_scan(&ctx))
            .set("STASHED_ENDS", reduce && stashed_ends(&ctx))
            .set("STRIPED", reduce && striped(&ctx))
            .set_all(ctx.look_back_params());
        let [items] = shader.u32_values_in(name, [("ITEMS", 1..=32, "elements per thread")])?;
        let few = typed("by_key_few.wgsl")?;
        // SAFETY: by_key.wgsl's "Bounds" comment: every index is in range
        // for bindings sized as `Built::ops` binds them. (H200, CUDA,
        // 2^26: ReduceByKey with the stashed ends at 32 registers 0.2321
        // against 0.2438 ms with the checks; H100, ScanByKey 0.2893
        // against 0.2970.)
        let [main] = unsafe { ctx.pipelines_proven(&ctx.compose(&shader)?, [main_entry])? };
        let [few] = ctx.pipelines(&ctx.compose(&few)?, [few_entry])?;
        Ok(Built {
            ctx,
            key,
            value,
            tile: BLOCK * items,
            main,
            few,
        })
    }

    fn tiles(&self, n: u32) -> u32 {
        n.div_ceil(self.tile)
    }

    fn layout(&self, n: u32) -> (TempLayout, Regions) {
        let tiles = u64::from(self.tiles(n));
        let mut layout = TempLayout::new(&self.ctx.limits);
        let regions = Regions {
            state: layout.place(16 * tiles),
            counter: layout.place(4),
            spare: layout.place(4),
        };
        (layout, regions)
    }

    /// The ops of a checked call on `n` ≥ 1 elements (`out_keys` and
    /// `num_runs` spare words where `None`): from 4 elements a clear of
    /// the tile state and counter, then the main kernel on its ten
    /// bindings (the last three the first `n / 4` quads of the inputs
    /// and of `out_values`); below 4 the few-element kernel on the first
    /// five.
    fn ops<'a>(
        &'a self,
        n: u32,
        inputs: [Range<'a>; 2],
        out_values: Range<'a>,
        reduce: Option<(Range<'a>, Range<'a>)>,
        temp: Range<'a>,
    ) -> Vec<Op<'a>> {
        let (_, r) = self.layout(n);
        let state = temp.sub(r.state.0, r.state.1);
        let counter = temp.sub(r.counter.0, r.counter.1);
        let spare = temp.sub(r.spare.0, r.spare.1);
        let (out_keys, num_runs) = reduce.unwrap_or((spare, spare));
        let [keys, values] = inputs;
        let mut bindings = vec![keys, values, out_values, out_keys, num_runs];
        if n < 4 {
            return vec![Op::Dispatch(&self.few, bindings, [1, 1, 1])];
        }
        let quads = 16 * u64::from(n / 4);
        let out_quads = out_values.sub(0, quads);
        bindings.extend([
            state,
            counter,
            keys.sub(0, quads),
            values.sub(0, quads),
            out_quads,
        ]);
        let grid = self.ctx.grid(self.tiles(n));
        vec![
            Op::Clear(state.through(&counter)),
            Op::Dispatch(&self.main, bindings, grid),
        ]
    }
}

/// A device-wide reduction by key: for each maximal run of equal
/// consecutive keys, its first key and the reduction of its values, in
/// order, and the number of runs, as CUB's `DeviceReduce::ReduceByKey`.
/// Built once per device, key type, value type and operator.
///
/// - **Dtypes and operators**: u32, i32 or f32 keys, equal by `==`
///   (f32: `-0.0` and `0.0` are one run; with NaN the runs are
///   unspecified); u32, i32 or f32 values under a [`ScanOperator`]: sum,
///   min, max or your associative WGSL function (need not be commutative:
///   each run is combined in order, earlier operand first). An f32 sum is
///   reassociated (per thread, then a tree over threads and tiles).
/// - **Placement**: `keys_in` and `values_in` `n` elements each (they may
///   share a buffer, and are bound read-only: no other slice may be in
///   their buffers); `unique_out` and `aggregates_out` room for `n`
///   elements each (the first `num_runs` are written, the rest untouched);
///   `num_runs` one u32; temp at least
///   [`ReduceByKey::temp_storage_bytes`] bytes (`STORAGE`), about 16 bytes
///   per 3072 elements. The outputs and temp may share a buffer where
///   their bytes do not overlap.
/// - **Algorithm**: one pass over tiles of 3072 elements (12 consecutive
///   per thread, loaded as vec4s; 5120 on CUDA, 2048 on HIP), as CUB's:
///   each tile scans its (head, value)
///   pairs under the segmented operator in workgroup memory, publishes its
///   tail (the value after its last head) and combines the tails before it
///   back to the nearest tile with a head (the value carried into its
///   first run), learns the runs before it by decoupled look-back over the
///   tiles' head counts, and writes each run's key at its first element
///   and its reduction at its last. Both walks have the decoupled fallback: no
///   forward-progress guarantee is needed.
/// - **Cost of a call**: 1 clear and 1 dispatch (1 dispatch of one thread
///   for `n` < 4; 1 clear for `n = 0`, which writes a zero run count);
///   nothing allocated.
pub struct ReduceByKey {
    name: &'static str,
    built: Built,
    operator: ScanOperator,
}

const REDUCE: &str = "wavekit::device::ReduceByKey";

impl ReduceByKey {
    /// The reduction by key of `value` values (u32, i32 or f32) under
    /// `operator`, with `key` keys (u32, i32 or f32), on `device` (created
    /// with [`Target::wgpu_features`](crate::Target::wgpu_features) on
    /// wgpu). Composes and compiles its pipelines (once); a user operator
    /// that does not compile is an [`Error::Compose`](crate::Error::Compose)
    /// pointing at its text.
    pub fn new<'d>(
        device: impl Into<Device<'d>>,
        key: Dtype,
        value: Dtype,
        operator: ScanOperator,
    ) -> Result<Self, Error> {
        let ctx = Context::new(device.into())?;
        ReduceByKey::with_context(REDUCE, ctx, key, value, operator, false)
    }

    /// The reduction on `ctx`, its errors naming `name`; `non_trivial`
    /// counts only runs longer than one, writing their offsets and lengths
    /// ([`RunLengthEncode::non_trivial_runs`](super::RunLengthEncode::non_trivial_runs)).
    pub(crate) fn with_context(
        name: &'static str,
        ctx: Context,
        key: Dtype,
        value: Dtype,
        operator: ScanOperator,
        non_trivial: bool,
    ) -> Result<Self, Error> {
        let entry = Entry::Reduce { non_trivial };
        let built = Built::new(name, ctx, key, value, &operator, entry)?;
        Ok(ReduceByKey {
            name,
            built,
            operator,
        })
    }

    by_key_methods!();

    /// Records the reduction by key of the `n` pairs at `keys_in` and
    /// `values_in`: each run's first key into `unique_out`, its reduction
    /// into `aggregates_out`, the number of runs into `num_runs` (one
    /// u32), with scratch at `temp`. Checks every slice first (an error
    /// names the slice and the numbers, and nothing is recorded).
    #[allow(clippy::too_many_arguments)]
    pub fn record<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        keys_in: Slice<'_>,
        values_in: Slice<'_>,
        unique_out: Slice<'_>,
        aggregates_out: Slice<'_>,
        num_runs: Slice<'_>,
        n: u32,
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        let names = [
            "keys_in",
            "values_in",
            "unique_out",
            "aggregates_out",
            "num_runs",
        ];
        let slices = [keys_in, values_in, unique_out, aggregates_out, num_runs];
        self.record_as(names, queue.into(), slices, n, temp)
    }

    /// [`ReduceByKey::record`] with the slices named `names` (keys,
    /// values, unique keys, aggregates, count) in errors; the values may
    /// be the keys.
    pub(crate) fn record_as(
        &self,
        names: [&str; 5],
        queue: Queue<'_>,
        slices: [Slice<'_>; 5],
        n: u32,
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        let name = self.name;
        let [keys_in, values_in, unique_out, aggregates_out, num_runs] = slices;
        let written = [
            (names[2], unique_out),
            (names[3], aggregates_out),
            (names[4], num_runs),
            ("temp", temp),
        ];
        distinct_each(
            name,
            &[(names[0], keys_in), (names[1], values_in)],
            &written,
        )?;
        let ctx = &self.built.ctx;
        let bytes = 4 * u64::from(n);
        let check = |what, slice, bytes| ctx.limits.check(name, what, slice, bytes);
        let keys_in = check(names[0], keys_in, bytes)?;
        let values_in = check(names[1], values_in, bytes)?;
        let unique_out = check(names[2], unique_out, bytes)?;
        let aggregates_out = check(names[3], aggregates_out, bytes)?;
        let num_runs = check(names[4], num_runs, 4)?;
        let temp = check("temp", temp, self.temp_storage_bytes(n))?;
        disjoint(
            name,
            &[
                (names[2], unique_out),
                (names[3], aggregates_out),
                (names[4], num_runs),
                ("temp", temp),
            ],
        )?;
        if n == 0 {
            return record(ctx, queue, &[Op::Clear(num_runs)]);
        }
        let ops = self.built.ops(
            n,
            [keys_in, values_in],
            aggregates_out,
            Some((unique_out, num_runs)),
            temp,
        );
        record(ctx, queue, &ops)
    }
}

/// A device-wide prefix scan by key: each run of equal consecutive keys
/// scanned on its own, inclusive or exclusive, as CUB's
/// `DeviceScan::InclusiveScanByKey` / `ExclusiveScanByKey`. Built once
/// per device, kind, key type, value type and operator.
///
/// - **Dtypes and operators**: [`ReduceByKey`]'s. The exclusive scan
///   writes the operator's identity at each run's first element (CUB's
///   `init_value`, here the identity).
/// - **Placement**: `keys` and `values` `n` elements each (they may share
///   a buffer; bound read-only), `output` `n` elements in another buffer:
///   not in place, unlike CUB (the look-back's fallback may read a
///   predecessor's values again after its owner wrote its output), and the
///   temp's buffer is not the inputs'. Temp: at least
///   [`ScanByKey::temp_storage_bytes`] bytes (`STORAGE`).
/// - **Algorithm**: one pass, [`ReduceByKey`]'s without the run counts
///   (tiles of 3072, 2048 on HIP; natively without bounds checks): each tile
///   scans its (head, value) pairs in workgroup memory, publishes its tail
///   and combines the tails before it back to the nearest tile with a head
///   (the value carried into its first run; with the decoupled fallback,
///   so no forward-progress guarantee is needed).
/// - **Cost of a call**: 1 clear and 1 dispatch (1 dispatch of one thread
///   for `n` < 4, nothing for `n = 0`); per element 1 read of its key and
///   value and 1 write.
pub struct ScanByKey {
    built: Built,
    kind: ScanKind,
    operator: ScanOperator,
}

const SCAN: &str = "wavekit::device::ScanByKey";

impl ScanByKey {
    /// The scan by key of `kind` of `value` values (u32, i32 or f32) under
    /// `operator`, with `key` keys (u32, i32 or f32), on `device` (created
    /// with [`Target::wgpu_features`](crate::Target::wgpu_features) on
    /// wgpu). Composes and compiles its pipeline (once).
    pub fn new<'d>(
        device: impl Into<Device<'d>>,
        kind: ScanKind,
        key: Dtype,
        value: Dtype,
        operator: ScanOperator,
    ) -> Result<Self, Error> {
        let inclusive = kind == ScanKind::Inclusive;
        let ctx = Context::new(device.into())?;
        let entry = Entry::Scan { inclusive };
        let built = Built::new(SCAN, ctx, key, value, &operator, entry)?;
        Ok(ScanByKey {
            built,
            kind,
            operator,
        })
    }

    /// Exclusive or inclusive.
    pub fn kind(&self) -> ScanKind {
        self.kind
    }

    by_key_methods!();

    /// Records the scan by key of the `n` values at `values` (runs by the
    /// `n` keys at `keys`) into the `n` elements at `output`, with scratch
    /// at `temp`. Checks every slice first (an error names the slice and
    /// the numbers, and nothing is recorded); `n = 0` records nothing.
    pub fn record<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        keys: Slice<'_>,
        values: Slice<'_>,
        output: Slice<'_>,
        n: u32,
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        distinct_each(
            SCAN,
            &[("keys", keys), ("values", values)],
            &[("output", output), ("temp", temp)],
        )?;
        let ctx = &self.built.ctx;
        let bytes = 4 * u64::from(n);
        let keys = ctx.limits.check(SCAN, "keys", keys, bytes)?;
        let values = ctx.limits.check(SCAN, "values", values, bytes)?;
        let output = ctx.limits.check(SCAN, "output", output, bytes)?;
        let temp = ctx
            .limits
            .check(SCAN, "temp", temp, self.temp_storage_bytes(n))?;
        disjoint(SCAN, &[("output", output), ("temp", temp)])?;
        if n == 0 {
            return Ok(());
        }
        let ops = self.built.ops(n, [keys, values], output, None, temp);
        record(ctx, queue.into(), &ops)
    }
}

/// A device-wide unique by key: the first key of each run of equal
/// consecutive keys and the value beside it, in order, and how many there
/// are, as CUB's `DeviceSelect::UniqueByKey`. Built once per device, key
/// type and value type.
///
/// - **Dtypes**: u32, i32 or f32 keys (equal by `==`, as
///   [`ReduceByKey`]'s) and values (any 32-bit bits, copied).
/// - **Placement, temp, algorithm and cost**: [`ReduceByKey`]'s under the
///   operator "the earlier" (`fn first(a, b) -> a`), with CUB's names:
///   `keys_in`, `values_in` (`n` each), `keys_out`, `values_out` (room for
///   `n` each, the first `num_selected` written), `num_selected` (one
///   u32). Not in place.
pub struct UniqueByKey(ReduceByKey);

const UNIQUE: &str = "wavekit::device::UniqueByKey";

impl UniqueByKey {
    /// The unique by key of `key` keys with `value` values (each u32, i32
    /// or f32) on `device` (created with
    /// [`Target::wgpu_features`](crate::Target::wgpu_features) on wgpu).
    /// Composes and compiles its pipelines (once).
    pub fn new<'d>(device: impl Into<Device<'d>>, key: Dtype, value: Dtype) -> Result<Self, Error> {
        let ctx = Context::new(device.into())?;
        // "The earlier" is associative, and the shader never combines its
        // identity on the left (every run has a head).
        let first = ScanOperator::custom("fn first(a: T, b: T) -> T { return a; }", "T()");
        ReduceByKey::with_context(UNIQUE, ctx, key, value, first, false).map(UniqueByKey)
    }

    /// The key type.
    pub fn key_dtype(&self) -> Dtype {
        self.0.key_dtype()
    }

    /// The value type.
    pub fn value_dtype(&self) -> Dtype {
        self.0.value_dtype()
    }

    /// Temp bytes a call on `n` elements needs ([`ReduceByKey::temp_storage_bytes`]).
    pub fn temp_storage_bytes(&self, n: u32) -> u64 {
        self.0.temp_storage_bytes(n)
    }

    /// Records the unique by key of the `n` pairs at `keys_in` and
    /// `values_in`: each run's first key into `keys_out` and its value into
    /// `values_out`, their number into `num_selected` (one u32), with
    /// scratch at `temp`. Checks every slice first (an error names the
    /// slice and the numbers, and nothing is recorded).
    #[allow(clippy::too_many_arguments)]
    pub fn record<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        keys_in: Slice<'_>,
        values_in: Slice<'_>,
        keys_out: Slice<'_>,
        values_out: Slice<'_>,
        num_selected: Slice<'_>,
        n: u32,
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        self.0.record_as(
            [
                "keys_in",
                "values_in",
                "keys_out",
                "values_out",
                "num_selected",
            ],
            queue.into(),
            [keys_in, values_in, keys_out, values_out, num_selected],
            n,
            temp,
        )
    }
}
