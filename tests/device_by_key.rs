//! The by-key and segmented `wavekit::device` algorithms of issue 35 (its
//! second batch) on lavapipe at subgroup sizes 4, 8 and 16 and on emulated
//! subgroups, against a CPU reference, in one binary: `ReduceByKey` and
//! `ScanByKey` (inclusive and exclusive) under the sum, min, max and a
//! non-commutative WGSL operator, of u32, i32 and f32 keys (both zeros one
//! run) and values; `SegmentedReduce` (offsets with gaps, empty segments,
//! offsets past n, and fixed sizes) and `SegmentedScan` (inclusive and
//! exclusive, offsets and fixed sizes, in place); `UniqueByKey` and
//! `RunLengthEncode::non_trivial_runs`. Runs from one element to several tiles, so that whole
//! tiles without a head carry a run across. Edge sizes (0; 1, 2 and 3, the
//! few-element kernel; a tile ± 1, odd sizes; 2^20 + 5 once, at subgroup
//! size 8), slices at non-zero
//! offsets between guard words, inputs sharing a buffer, tiles that never
//! publish (the look-back's fallback), and bad calls.

mod device_support;

use device_support::*;
use wavekit::Dtype;
use wavekit::device::debug::{LookBackDebug, with_look_back, with_shader_params};
use wavekit::device::{
    ReduceByKey, RunLengthEncode, ScanByKey, ScanKind, ScanOperator, SegmentedReduce,
    SegmentedScan, Slice, UniqueByKey,
};

/// The big size, run once.
const BIG: usize = (1 << 20) + 5;
/// Elements per tile of the by-key shader (256 x 12 through wgpu).
const TILE: usize = 3072;
/// 256 × 4 elements: a tile of the segmented scan, and one quad a lane for
/// every subgroup of the segmented reduction.
const SEGMENT_SPAN: usize = 1024;
/// The sizes each case runs.
const SIZES: [usize; 9] = [0, 1, 2, 3, 33, TILE - 1, TILE, TILE + 1, 3 * TILE + 77];

/// An operator, its value and key types, and its CPU twin on bits.
struct Case {
    name: &'static str,
    key: Dtype,
    value: Dtype,
    operator: ScanOperator,
    cpu: fn(u32, u32) -> u32,
    identity: u32,
}

fn cases() -> [Case; 4] {
    [
        Case {
            name: "sum",
            key: Dtype::U32,
            value: Dtype::U32,
            operator: ScanOperator::Add,
            cpu: u32::wrapping_add,
            identity: 0,
        },
        Case {
            name: "min",
            key: Dtype::I32,
            value: Dtype::I32,
            operator: ScanOperator::Min,
            cpu: |a, b| (a as i32).min(b as i32) as u32,
            identity: i32::MAX as u32,
        },
        Case {
            name: "max",
            key: Dtype::F32,
            value: Dtype::F32,
            operator: ScanOperator::Max,
            cpu: |a, b| f32::from_bits(a).max(f32::from_bits(b)).to_bits(),
            identity: f32::NEG_INFINITY.to_bits(),
        },
        Case {
            name: "affine",
            key: Dtype::F32,
            value: Dtype::U32,
            operator: ScanOperator::custom(AFFINE, "1u << 16u"),
            cpu: affine_then,
            identity: 1 << 16,
        },
    ]
}

/// `n` keys of `dtype` in runs: three of four 1 to 5 long, one of four up
/// to 3 tiles long (whole tiles without a head), consecutive runs of
/// different keys, the first of zero bits for an odd seed; f32 keys of
/// value 0 alternate between 0.0 and -0.0 (one run). Below 4 elements (the few-element kernel) the runs are 1,
/// 1 and 2 long, whatever the seed: heads after the first element, and
/// a run longer than one at 3.
fn keys_input(dtype: Dtype, n: usize, seed: u64) -> Vec<u32> {
    if n < 4 {
        let key = |k: u32| match dtype {
            Dtype::F32 => (k as f32 * 0.5 - 10.0).to_bits(),
            Dtype::I32 => (k as i32 - 20) as u32,
            _ => k * 1000,
        };
        return [key(3), key(7), key(7)][..n].to_vec();
    }
    let raw = random(2 * n + 2, 0, seed);
    let mut keys = Vec::with_capacity(n);
    let mut k = 0u32;
    let mut r = raw.iter();
    while keys.len() < n {
        let w = *r.next().expect("enough words");
        let len = if w.is_multiple_of(4) {
            1 + (w >> 2) as usize % (3 * TILE)
        } else {
            1 + (w >> 2) as usize % 5
        };
        k = (k + 1 + (w >> 20) % 3) % 40;
        // An odd seed starts with a run of the keys' zero bits (K()):
        // the first element is a head though no key before it differs.
        let zero = keys.is_empty() && seed % 2 == 1;
        for j in 0..len.min(n - keys.len()) {
            keys.push(match dtype {
                _ if zero => 0,
                Dtype::F32 if k == 20 && j % 2 == 1 => (-0.0f32).to_bits(),
                Dtype::F32 => (k as f32 * 0.5 - 10.0).to_bits(),
                Dtype::I32 => (k as i32 - 20) as u32,
                _ => k * 1000,
            });
        }
    }
    keys
}

/// `n` values of `case`'s type: u32 any, i32 of both signs, f32 halves
/// without zeros, affine maps.
fn values_input(case: &Case, n: usize, seed: u64) -> Vec<u32> {
    random(n, 0, seed ^ 0x5555)
        .into_iter()
        .map(|w| match case.value {
            Dtype::F32 => ((w % 97) as f32 * 0.5 - 24.25).to_bits(),
            Dtype::I32 => ((w % 20_001) as i32 - 10_000) as u32,
            _ => w,
        })
        .collect()
}

/// Whether keys `a` and `b` (bits of `dtype`) are equal.
fn same_key(dtype: Dtype, a: u32, b: u32) -> bool {
    match dtype {
        Dtype::F32 => f32::from_bits(a) == f32::from_bits(b),
        _ => a == b,
    }
}

/// The heads of `keys`: the first and each that differs from the one
/// before.
fn heads(dtype: Dtype, keys: &[u32]) -> Vec<bool> {
    (0..keys.len())
        .map(|i| i == 0 || !same_key(dtype, keys[i], keys[i - 1]))
        .collect()
}

fn scan_reference(case: &Case, inclusive: bool, keys: &[u32], values: &[u32]) -> Vec<u32> {
    let mut acc = case.identity;
    heads(case.key, keys)
        .into_iter()
        .zip(values)
        .map(|(head, &x)| {
            if head {
                acc = case.identity;
            }
            let before = acc;
            acc = (case.cpu)(acc, x);
            if inclusive { acc } else { before }
        })
        .collect()
}

fn reduce_reference(case: &Case, keys: &[u32], values: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let (mut unique, mut aggregates) = (Vec::new(), Vec::new());
    for (i, head) in heads(case.key, keys).into_iter().enumerate() {
        if head {
            unique.push(keys[i]);
            aggregates.push(values[i]);
        } else {
            let last = aggregates.last_mut().expect("a run");
            *last = (case.cpu)(*last, values[i]);
        }
    }
    (unique, aggregates)
}

/// The inputs of a call: keys and values in one buffer (`shared`) or in
/// two, each at a non-zero aligned offset between guard words.
struct Inputs {
    align: u64,
    keys: wgpu::Buffer,
    values: Option<wgpu::Buffer>,
    values_at: u64,
}

impl Inputs {
    fn new(device: &wgpu::Device, keys: &[u32], values: &[u32], shared: bool) -> Self {
        let align = alignment(device);
        if shared {
            let gap = (4 * keys.len() as u64).next_multiple_of(align) + align;
            let mut words = keys.to_vec();
            words.resize((gap / 4) as usize, GUARD);
            words.extend_from_slice(values);
            Inputs {
                align,
                keys: guarded(device, &words, align, 64),
                values: None,
                values_at: align + gap,
            }
        } else {
            Inputs {
                align,
                keys: guarded(device, keys, align, 64),
                values: Some(guarded(device, values, 2 * align, 64)),
                values_at: 2 * align,
            }
        }
    }

    fn keys(&self) -> Slice<'_> {
        Slice::new(&self.keys, self.align)
    }

    fn values(&self) -> Slice<'_> {
        Slice::new(self.values.as_ref().unwrap_or(&self.keys), self.values_at)
    }

    /// Checks that the inputs read back (`keys`, then `values` where in a
    /// buffer of their own) are unchanged.
    fn check(&self, read: &[Vec<u32>], keys: &[u32], values: &[u32], what: &str) {
        let got = &read[0][(self.align / 4) as usize..][..keys.len()];
        assert_same(got, keys, &format!("{what}: the keys"));
        let (buffer, at) = match self.values {
            Some(_) => (&read[1], self.values_at),
            None => (&read[0], self.values_at),
        };
        let got = &buffer[(at / 4) as usize..][..values.len()];
        assert_same(got, values, &format!("{what}: the values"));
    }

    fn buffers(&self) -> Vec<&wgpu::Buffer> {
        std::iter::once(&self.keys).chain(&self.values).collect()
    }
}

fn check_scan(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    scan: &ScanByKey,
    case: &Case,
    n: usize,
    shared: bool,
) {
    let keys = keys_input(case.key, n, n as u64 + 11);
    let values = values_input(case, n, n as u64 + 3);
    let want = scan_reference(case, scan.kind() == ScanKind::Inclusive, &keys, &values);
    let inputs = Inputs::new(device, &keys, &values, shared);
    let align = inputs.align;
    let output = guarded(device, &vec![GUARD; n], 3 * align, 64);
    let temp = zeroed(device, scan.temp_storage_bytes(n as u32) + align);
    let mut encoder = encoder(device);
    scan.record(
        &mut encoder,
        inputs.keys(),
        inputs.values(),
        Slice::new(&output, 3 * align),
        n as u32,
        Slice::new(&temp, align),
    )
    .expect("records");
    let what = format!("ScanByKey {:?} {} n = {n}", scan.kind(), case.name);
    let mut buffers = vec![&output];
    buffers.extend(inputs.buffers());
    let read = submit_and_read(device, queue, encoder, &buffers);
    inputs.check(&read[1..], &keys, &values, &what);
    assert_same(&inside(&read[0], 3 * align, n, &what), &want, &what);
}

/// The slices of a by-key call: keys, values, the two outputs, the count
/// and temp.
type ByKeySlices<'a> = [Slice<'a>; 6];

/// One by-key call with two outputs and a count (a reduction, a unique, the
/// non-trivial runs): runs `record` on `keys` and `values` (one buffer
/// where `shared`), the outputs and count in one buffer between guards,
/// and checks them against `want` and that nothing else was written.
#[allow(clippy::too_many_arguments)]
fn check_two_outputs(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    (keys, values): (&[u32], &[u32]),
    want: (&[u32], &[u32]),
    temp_bytes: u64,
    shared: bool,
    record: impl FnOnce(&mut wgpu::CommandEncoder, ByKeySlices<'_>),
    what: &str,
) {
    let n = keys.len();
    let inputs = Inputs::new(device, keys, values, shared);
    let align = inputs.align;
    // The three outputs share one buffer, between guards.
    let room = (4 * n as u64).next_multiple_of(align) + align;
    let out = guarded(device, &vec![GUARD; (3 * room / 4) as usize], align, 64);
    let at = |k: u64| align + k * room;
    let temp = zeroed(device, temp_bytes + align);
    let mut encoder = encoder(device);
    record(
        &mut encoder,
        [
            inputs.keys(),
            inputs.values(),
            Slice::new(&out, at(0)),
            Slice::new(&out, at(1)),
            Slice::new(&out, at(2)),
            Slice::new(&temp, align),
        ],
    );
    let mut buffers = vec![&out];
    buffers.extend(inputs.buffers());
    let read = submit_and_read(device, queue, encoder, &buffers);
    inputs.check(&read[1..], keys, values, what);
    let words = &read[0];
    let runs = want.0.len();
    let region = |k: u64, len: usize| words[(at(k) / 4) as usize..][..len].to_vec();
    assert_eq!(region(2, 1)[0] as usize, runs, "{what}: the count");
    assert_same(
        &region(0, runs),
        want.0,
        &format!("{what}: the first output"),
    );
    assert_same(
        &region(1, runs),
        want.1,
        &format!("{what}: the second output"),
    );
    // Nothing else written: guards before, between and past the regions.
    let written = [(0, runs), (1, runs), (2, 1)];
    for (i, &w) in words.iter().enumerate() {
        let inside = written.iter().any(|&(k, len)| {
            let first = (at(k) / 4) as usize;
            (first..first + len).contains(&i)
        });
        assert!(
            inside || w == GUARD,
            "{what}: word {i} outside the outputs was overwritten: {w:#x}"
        );
    }
}

fn check_reduce(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    reduce: &ReduceByKey,
    case: &Case,
    n: usize,
    shared: bool,
) {
    let keys = keys_input(case.key, n, n as u64 + 7);
    let values = values_input(case, n, n as u64 + 5);
    let (unique, aggregates) = reduce_reference(case, &keys, &values);
    check_two_outputs(
        device,
        queue,
        (&keys, &values),
        (&unique, &aggregates),
        reduce.temp_storage_bytes(n as u32),
        shared,
        |encoder, [k, v, u, a, r, t]| {
            reduce
                .record(encoder, k, v, u, a, r, n as u32, t)
                .expect("records")
        },
        &format!("ReduceByKey {} n = {n}", case.name),
    );
}

/// The cases numbered in `only`, with their numbers.
fn selected_cases(only: &[usize]) -> impl Iterator<Item = (usize, Case)> {
    cases()
        .into_iter()
        .enumerate()
        .filter(|(c, _)| only.contains(c))
}

/// Every case at `sizes`: the reduction, and the inclusive and exclusive
/// scans of the sum and the affine operator (both scans of one each).
fn run_cases(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    sizes: &[usize],
    big: bool,
    only: &[usize],
) {
    for (c, ref case) in selected_cases(only) {
        let reduce =
            ReduceByKey::new(device, case.key, case.value, case.operator.clone()).expect("builds");
        for &n in sizes {
            check_reduce(device, queue, &reduce, case, n, c % 2 == 0);
        }
        if big && c == 3 {
            check_reduce(device, queue, &reduce, case, BIG, false);
        }
        let kind = if c % 2 == 0 {
            ScanKind::Inclusive
        } else {
            ScanKind::Exclusive
        };
        let scan = ScanByKey::new(device, kind, case.key, case.value, case.operator.clone())
            .expect("builds");
        for &n in sizes {
            check_scan(device, queue, &scan, case, n, c % 2 == 1);
        }
        if big && c == 0 {
            check_scan(device, queue, &scan, case, BIG, true);
        }
    }
}

/// The cases a child runs (lavapipe's compiles are most of the time): all
/// four at subgroups of 8, two at 4 and two at 16, so that each runs at
/// two sizes at least.
fn child_cases() -> Vec<usize> {
    match std::env::var("LP_NATIVE_VECTOR_WIDTH").as_deref() {
        Ok("128") => vec![0, 3],
        Ok("512") => vec![1, 2],
        _ => vec![0, 1, 2, 3],
    }
}

/// A run of every case a test asks for: on `device` and `queue`, at
/// `sizes`, the big size where `big`, the cases `only`.
type RunCases = fn(&wgpu::Device, &wgpu::Queue, &[usize], bool, &[usize]);

/// `run` in a child of [`at_each_subgroup_size`]: its cases at [`SIZES`],
/// the big size once (at lavapipe's subgroups of 8); nothing in the parent.
fn run_in_child(run: RunCases) {
    if !is_child() {
        return;
    }
    let (device, queue) = open();
    let big = std::env::var("LP_NATIVE_VECTOR_WIDTH").as_deref() == Ok("256");
    run(&device, &queue, &SIZES, big, &child_cases());
}

/// `run` of the cases `only` on emulated subgroups, at a few sizes.
fn run_on_emulated_subgroups(run: RunCases, only: &[usize]) {
    let (device, queue) = open_without_subgroups();
    run(&device, &queue, &[0, 1, TILE + 1, 9001], false, only);
}

#[test]
fn by_key_cases() {
    run_in_child(run_cases);
}

#[test]
fn by_key_at_each_subgroup_size() {
    at_each_subgroup_size("by_key_cases");
}

#[test]
fn by_key_on_emulated_subgroups() {
    run_on_emulated_subgroups(run_cases, &[1, 3]);
}

/// Tiles that never publish (every second): each walk meets one and
/// falls back, installing heads' tiles as prefixes.
#[test]
fn by_key_with_stalled_tiles() {
    let (device, queue) = open();
    let [_, _, _, affine] = cases();
    let stalls = LookBackDebug {
        stall_every: 2,
        fallback: Some(true),
        ..LookBackDebug::default()
    };
    let (reduce, scan) = with_look_back(stalls, || {
        (
            ReduceByKey::new(&device, affine.key, affine.value, affine.operator.clone())
                .expect("builds"),
            ScanByKey::new(
                &device,
                ScanKind::Inclusive,
                affine.key,
                affine.value,
                affine.operator.clone(),
            )
            .expect("builds"),
        )
    });
    for n in [5 * TILE + 3, 20_011] {
        check_reduce(&device, &queue, &reduce, &affine, n, false);
        check_scan(&device, &queue, &scan, &affine, n, false);
    }
}

/// The walks as CUDA and the GPUs that keep started workgroups running
/// make them: without the fallback, a walk waits on each tail and count
/// until its tile publishes it. A tile that published nothing readable
/// (2026-11-27: tails stored with their state shifted out, so every tail
/// read as pending) hangs such a GPU; on lavapipe, in order
/// ([`in_order`]), the loop budget ends the wait, with wrong results,
/// which this test sees.
#[test]
fn by_key_without_the_fallback() {
    in_order("by_key_without_the_fallback_cases");
}

#[test]
fn by_key_without_the_fallback_cases() {
    if !is_child() {
        return;
    }
    let (device, queue) = open();
    let spin = without_fallback();
    let [sum, _, _, affine] = cases();
    for case in [sum, affine] {
        let (reduce, scan) = with_look_back(spin, || {
            (
                ReduceByKey::new(&device, case.key, case.value, case.operator.clone())
                    .expect("builds"),
                ScanByKey::new(
                    &device,
                    ScanKind::Exclusive,
                    case.key,
                    case.value,
                    case.operator.clone(),
                )
                .expect("builds"),
            )
        });
        for n in [3 * TILE + 1, 20_011] {
            check_reduce(&device, &queue, &reduce, &case, n, false);
            check_scan(&device, &queue, &scan, &case, n, false);
        }
    }
}

/// The reduction's native form (`STASHED_ENDS`: the items folded as they
/// load, each run end's value kept in workgroup memory), which CUDA and
/// HIP run, here on lavapipe: every case at every size, with stalled
/// tiles (whose fallback folds with `load_items`, the owner with
/// `fold_items`: their pairs must agree), and the non-trivial runs.
#[test]
fn by_key_with_stashed_ends() {
    let (device, queue) = open();
    let stashed = || vec![("STASHED_ENDS", "true".to_string())];
    // And as on CUDA, full tiles loaded as lane-striped quads (`STRIPED`),
    // 20 a thread.
    let striped = || {
        let mut params = stashed();
        params.push(("STRIPED", "true".to_string()));
        params.push(("ITEMS", "20u".to_string()));
        params
    };
    for case in cases() {
        for params in [stashed(), striped()] {
            let reduce = with_shader_params(params, || {
                ReduceByKey::new(&device, case.key, case.value, case.operator.clone())
            })
            .expect("builds");
            for n in SIZES {
                check_reduce(&device, &queue, &reduce, &case, n, false);
            }
        }
    }
    let [sum, _, _, affine] = cases();
    let stalls = LookBackDebug {
        stall_every: 2,
        fallback: Some(true),
        ..LookBackDebug::default()
    };
    for case in [sum, affine] {
        let reduce = with_look_back(stalls, || {
            with_shader_params(stashed(), || {
                ReduceByKey::new(&device, case.key, case.value, case.operator.clone())
            })
        })
        .expect("builds");
        for n in [5 * TILE + 3, 20_011] {
            check_reduce(&device, &queue, &reduce, &case, n, false);
        }
    }
    for params in [stashed(), striped()] {
        let encode = with_shader_params(params, || RunLengthEncode::new(&device, Dtype::I32))
            .expect("builds");
        for n in SIZES {
            check_non_trivial_runs(&device, &queue, &encode, Dtype::I32, n);
        }
    }
}

#[test]
fn bad_by_key_calls_are_errors() {
    let (device, _queue) = open();
    assert_refused(
        ReduceByKey::new(&device, Dtype::F16, Dtype::U32, ScanOperator::Add),
        &["ReduceByKey takes u32, i32, f32 elements, not f16"],
    );
    assert_refused(
        ScanByKey::new(
            &device,
            ScanKind::Inclusive,
            Dtype::U32,
            Dtype::U32,
            ScanOperator::custom("const X = 1u;", "0u"),
        ),
        &["no `fn NAME(a: T, b: T) -> T`"],
    );
    let reduce =
        ReduceByKey::new(&device, Dtype::U32, Dtype::U32, ScanOperator::Max).expect("builds");
    let n = 3000u32;
    let bytes = 4 * u64::from(n);
    let keys = zeroed(&device, bytes);
    let out = zeroed(&device, 4 * bytes);
    let short = zeroed(&device, 4);
    let temp = zeroed(&device, reduce.temp_storage_bytes(n));
    let (k, t) = (Slice::from(&keys), Slice::from(&temp));
    let o = |at: u64| Slice::new(&out, at);
    let mut encoder = encoder(&device);
    assert_refused(
        reduce.record(&mut encoder, k, k, k, o(bytes), o(2 * bytes), n, t),
        &["ReduceByKey: `keys_in` and `unique_out` are the same buffer"],
    );
    assert_refused(
        reduce.record(&mut encoder, k, k, o(0), o(256), o(2 * bytes), n, t),
        &["`unique_out` (bytes 0..12000) and `aggregates_out` (bytes 256..12256) overlap"],
    );
    assert_refused(
        reduce.record(
            &mut encoder,
            k,
            k,
            o(0),
            o(bytes),
            (&short).into(),
            n,
            (&short).into(),
        ),
        &[&format!("`temp`: {} bytes", reduce.temp_storage_bytes(n))],
    );
    assert_refused(
        reduce.record(&mut encoder, k, k, o(0), o(bytes), o(2 * bytes), n + 1, t),
        &["`keys_in`: 12004 bytes from offset 0 do not fit the buffer of 12000 bytes"],
    );
    let scan = ScanByKey::new(
        &device,
        ScanKind::Exclusive,
        Dtype::I32,
        Dtype::F32,
        ScanOperator::Add,
    )
    .expect("builds");
    // Not in place (CUB's scan by key may be): the fallback reads values
    // again.
    assert_refused(
        scan.record(&mut encoder, k, o(0), o(0), n, t),
        &["ScanByKey: `values` and `output` are the same buffer"],
    );
    assert_refused(
        scan.record(&mut encoder, k, k, o(0), n, o(256)),
        &["`output` (bytes 0..12000) and `temp`", "overlap"],
    );
}

// Segmented reductions and scans.

/// Segments over `n` elements: mostly adjacent, some with gaps, some
/// empty, lengths mostly 1 to 40 and one in eight up to 5000 (several
/// tiles). With `odd`, also a segment past `n` (read as ending at `n`) and
/// one whose begin is past its end (empty).
fn segments_input(n: usize, seed: u64, odd: bool) -> (Vec<u32>, Vec<u32>) {
    let (mut begin, mut end) = (Vec::new(), Vec::new());
    let mut pos = 0usize;
    for w in random(n + 2, 0, seed ^ 0x77) {
        if pos >= n {
            break;
        }
        pos += if w.is_multiple_of(5) {
            (w >> 3) as usize % 4
        } else {
            0
        };
        let len = match w % 8 {
            0 => 0,
            1 => (w >> 4) as usize % 5000,
            _ => 1 + (w >> 4) as usize % 40,
        };
        let b = pos.min(n);
        pos = (b + len).min(n);
        begin.push(b as u32);
        end.push(pos as u32);
    }
    if odd {
        begin.extend([n as u32 / 3, 7]);
        end.extend([n as u32 + 100, 3]);
    }
    (begin, end)
}

fn segment_reference(case: &Case, input: &[u32], begin: &[u32], end: &[u32]) -> Vec<u32> {
    begin
        .iter()
        .zip(end)
        .map(|(&b, &e)| {
            let e = (e as usize).min(input.len());
            let b = (b as usize).min(e);
            input[b..e]
                .iter()
                .fold(case.identity, |acc, &x| (case.cpu)(acc, x))
        })
        .collect()
}

/// `output` (holding GUARD) with each segment scanned.
fn segment_scan_reference(
    case: &Case,
    inclusive: bool,
    input: &[u32],
    begin: &[u32],
    end: &[u32],
) -> Vec<u32> {
    let mut out = vec![GUARD; input.len()];
    for (&b, &e) in begin.iter().zip(end) {
        let mut acc = case.identity;
        for i in b as usize..e as usize {
            let before = acc;
            acc = (case.cpu)(acc, input[i]);
            out[i] = if inclusive { acc } else { before };
        }
    }
    out
}

/// One segmented call: `input` at an offset, the output (`out_words`,
/// GUARD-filled) and the begin and end offsets in one buffer at
/// aligned offsets; returns the output words (guards checked) after
/// checking the input and offsets unchanged.
#[allow(clippy::too_many_arguments)]
fn segmented_call(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    input: &[u32],
    out_words: usize,
    offsets: (&[u32], &[u32]),
    in_place: bool,
    record: impl FnOnce(&mut wgpu::CommandEncoder, Slice<'_>, Slice<'_>, Slice<'_>, Slice<'_>),
    what: &str,
) -> Vec<u32> {
    let align = alignment(device);
    let data = guarded(device, input, align, 64);
    let out = guarded(device, &vec![GUARD; out_words], 2 * align, 64);
    let room = (4 * offsets.0.len() as u64).next_multiple_of(align) + align;
    let mut words = offsets.0.to_vec();
    words.resize((room / 4) as usize, GUARD);
    words.extend_from_slice(offsets.1);
    let offsets_buffer = guarded(device, &words, align, 64);
    let mut encoder = encoder(device);
    let (input_slice, output_slice) = if in_place {
        (Slice::new(&data, align), Slice::new(&data, align))
    } else {
        (Slice::new(&data, align), Slice::new(&out, 2 * align))
    };
    record(
        &mut encoder,
        input_slice,
        output_slice,
        Slice::new(&offsets_buffer, align),
        Slice::new(&offsets_buffer, align + room),
    );
    let read = submit_and_read(device, queue, encoder, &[&data, &out, &offsets_buffer]);
    assert_same(
        &inside(&read[2], align, words.len(), what),
        &words,
        &format!("{what}: the offsets"),
    );
    if in_place {
        inside(&read[1], 2 * align, out_words, what);
        inside(&read[0], align, input.len(), what)
    } else {
        assert_same(
            &inside(&read[0], align, input.len(), what),
            input,
            &format!("{what}: the input"),
        );
        inside(&read[1], 2 * align, out_words, what)
    }
}

/// Segments `s * size .. (s + 1) * size` for `s < segments`.
fn fixed_segments(segments: usize, size: usize) -> (Vec<u32>, Vec<u32>) {
    let begin: Vec<u32> = (0..segments).map(|s| (s * size) as u32).collect();
    let end = begin.iter().map(|&b| b + size as u32).collect();
    (begin, end)
}

/// The segmented reduction of `n` elements: by offsets, or of segments of
/// size `fixed` (`record_fixed`).
fn check_segmented_reduce(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    reduce: &SegmentedReduce,
    case: &Case,
    n: usize,
    fixed: Option<usize>,
) {
    let seed = n as u64 + if fixed.is_some() { 17 } else { 13 };
    let input = values_input(case, n, seed);
    let (begin, end) = match fixed {
        Some(size) => fixed_segments(n / size, size),
        None => segments_input(n, n as u64, true),
    };
    let want = segment_reference(case, &input, &begin, &end);
    let (what, offsets) = match fixed {
        Some(size) => (
            format!("SegmentedReduce fixed {} {} × {size}", case.name, n / size),
            (&[0u32][..], &[0u32][..]),
        ),
        None => (
            format!(
                "SegmentedReduce {} n = {n}, {} segments",
                case.name,
                begin.len()
            ),
            (&begin[..], &end[..]),
        ),
    };
    let got = segmented_call(
        device,
        queue,
        &input,
        begin.len(),
        offsets,
        false,
        |encoder, input, output, b, e| match fixed {
            Some(size) => reduce
                .record_fixed(encoder, input, output, (n / size) as u32, size as u32)
                .expect("records"),
            None => reduce
                .record(encoder, input, n as u32, output, begin.len() as u32, b, e)
                .expect("records"),
        },
        &what,
    );
    assert_same(&got, &want, &what);
}

fn check_segmented_scan(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    scan: &SegmentedScan,
    case: &Case,
    n: usize,
    fixed: Option<usize>,
    in_place: bool,
) {
    let input = values_input(case, n, n as u64 + 19);
    let (begin, end) = match fixed {
        Some(size) => fixed_segments(n / size, size),
        None => segments_input(n, n as u64 + 1, false),
    };
    let inclusive = scan.kind() == ScanKind::Inclusive;
    let mut want = segment_scan_reference(case, inclusive, &input, &begin, &end);
    if in_place {
        // Outside every segment the data stays the input.
        for (w, &x) in want.iter_mut().zip(&input) {
            if *w == GUARD {
                *w = x;
            }
        }
    }
    let what = format!(
        "SegmentedScan {:?} {} n = {n}, {} segments{}{}",
        scan.kind(),
        case.name,
        begin.len(),
        if fixed.is_some() { ", fixed" } else { "" },
        if in_place { ", in place" } else { "" }
    );
    let got = segmented_call(
        device,
        queue,
        &input,
        if in_place { 0 } else { n },
        (&begin, &end),
        in_place,
        |encoder, input, output, b, e| match fixed {
            Some(size) => scan
                .record_fixed(encoder, input, output, (n / size) as u32, size as u32)
                .expect("records"),
            None => scan
                .record(encoder, input, output, n as u32, begin.len() as u32, b, e)
                .expect("records"),
        },
        &what,
    );
    assert_same(&got, &want, &what);
}

/// Every case's segmented reduction (offsets and fixed) and one scan of
/// each kind, at `sizes`.
fn run_segmented_cases(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    sizes: &[usize],
    big: bool,
    only: &[usize],
) {
    for (c, ref case) in selected_cases(only) {
        let reduce =
            SegmentedReduce::new(device, case.value, case.operator.clone()).expect("builds");
        // 3 and 4: the last input without and the first with a quad
        // (segmented_few.wgsl, then segmented_reduce.wgsl).
        for &n in sizes.iter().chain(&[3, 4, 5]) {
            check_segmented_reduce(device, queue, &reduce, case, n, None);
        }
        for (segments, size) in [
            (1, 1),
            (3, 1),
            (1, 4),
            (5, 3),
            (3, SEGMENT_SPAN - 1),
            (2, SEGMENT_SPAN + 1),
            (700, 17),
            // Shares of many groups, read GROUPS at a time, the last batch
            // part-filled.
            (2, 9 * SEGMENT_SPAN + 5),
            (1, 70_001),
        ] {
            check_segmented_reduce(device, queue, &reduce, case, segments * size, Some(size));
        }
        if big && c == 0 {
            check_segmented_reduce(device, queue, &reduce, case, BIG, None);
        }
        if c % 2 == 1 {
            continue;
        }
        let kind = if c == 0 {
            ScanKind::Inclusive
        } else {
            ScanKind::Exclusive
        };
        let scan =
            SegmentedScan::new(device, kind, case.value, case.operator.clone()).expect("builds");
        for &n in sizes {
            check_segmented_scan(device, queue, &scan, case, n, None, false);
        }
        check_segmented_scan(
            device,
            queue,
            &scan,
            case,
            3 * SEGMENT_SPAN + 77,
            None,
            true,
        );
        check_segmented_scan(
            device,
            queue,
            &scan,
            case,
            6 * (SEGMENT_SPAN + 1),
            Some(SEGMENT_SPAN + 1),
            false,
        );
        check_segmented_scan(device, queue, &scan, case, 40 * 33, Some(33), true);
        check_segmented_scan(device, queue, &scan, case, 3 * 20_003, Some(20_003), true);
        if big && c == 2 {
            check_segmented_scan(device, queue, &scan, case, BIG, None, false);
        }
    }
}

#[test]
fn segmented_cases() {
    run_in_child(run_segmented_cases);
}

#[test]
fn segmented_at_each_subgroup_size() {
    at_each_subgroup_size("segmented_cases");
}

#[test]
fn segmented_on_emulated_subgroups() {
    run_on_emulated_subgroups(run_segmented_cases, &[2, 3]);
}

#[test]
fn bad_segmented_calls_are_errors() {
    let (device, _queue) = open();
    let reduce = SegmentedReduce::new(&device, Dtype::U32, ScanOperator::Add).expect("builds");
    let n = 3000u32;
    let data = zeroed(&device, 4 * u64::from(n));
    let offsets = zeroed(&device, 400);
    let (d, o) = (Slice::from(&data), Slice::from(&offsets));
    let mut encoder = encoder(&device);
    assert_refused(
        reduce.record(&mut encoder, d, n, d, 10, o, o),
        &["SegmentedReduce: `input` and `output` are the same buffer"],
    );
    assert_refused(
        reduce.record(&mut encoder, d, n, o, 10, o, o),
        &["`begin_offsets` and `output` are the same buffer"],
    );
    assert_refused(
        reduce.record(&mut encoder, o, n, d, 10, o, o),
        &["`input`: 12000 bytes from offset 0 do not fit the buffer of 400 bytes"],
    );
    let out = zeroed(&device, 400);
    assert_refused(
        reduce.record(&mut encoder, d, n, (&out).into(), 101, o, o),
        &["`output`: 404 bytes from offset 0 do not fit the buffer of 400 bytes"],
    );
    assert_refused(
        reduce.record_fixed(&mut encoder, d, o, 10, 0),
        &["the fixed segment size is 0 (for 10 segments)"],
    );
    assert_refused(
        reduce.record_fixed(&mut encoder, d, o, 1 << 20, 1 << 13),
        &["1048576 segments of 8192 elements exceed 2^32 - 1 elements"],
    );
    let scan = SegmentedScan::new(&device, ScanKind::Exclusive, Dtype::F32, ScanOperator::Max)
        .expect("builds");
    let at = |offset| Slice::new(&data, offset);
    assert_refused(
        scan.record_fixed(&mut encoder, at(0), at(256), 10, 100),
        &["`input` (bytes 0..4000) and `output` (bytes 256..4256) overlap"],
    );
    assert_refused(
        scan.record(&mut encoder, at(0), at(0), 1000, 10, at(4000), at(3968)),
        &["`output` (bytes 0..4000) and `end_offsets` (bytes 3968..4008) overlap"],
    );
    assert_refused(
        SegmentedScan::new(&device, ScanKind::Inclusive, Dtype::F16, ScanOperator::Add),
        &["SegmentedScan takes u32, i32, f32 elements, not f16"],
    );
}

// UniqueByKey and RunLengthEncode::non_trivial_runs.

fn check_unique_by_key(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    unique: &UniqueByKey,
    n: usize,
    shared: bool,
) {
    let keys = keys_input(unique.key_dtype(), n, n as u64 + 23);
    let values = random(n, 0, n as u64 + 29);
    let (mut want_keys, mut want_values) = (Vec::new(), Vec::new());
    for (i, head) in heads(unique.key_dtype(), &keys).into_iter().enumerate() {
        if head {
            want_keys.push(keys[i]);
            want_values.push(values[i]);
        }
    }
    check_two_outputs(
        device,
        queue,
        (&keys, &values),
        (&want_keys, &want_values),
        unique.temp_storage_bytes(n as u32),
        shared,
        |encoder, [k, v, ko, vo, count, t]| {
            unique
                .record(encoder, k, v, ko, vo, count, n as u32, t)
                .expect("records")
        },
        &format!("UniqueByKey {} n = {n}", unique.key_dtype()),
    );
}

fn check_non_trivial_runs(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    encode: &RunLengthEncode,
    dtype: Dtype,
    n: usize,
) {
    let keys = keys_input(dtype, n, n as u64 + 31);
    let (mut offsets, mut lengths) = (Vec::new(), Vec::new());
    let mut start = 0;
    for i in 1..=n {
        if i == n || keys[i] != keys[i - 1] {
            if i - start > 1 {
                offsets.push(start as u32);
                lengths.push((i - start) as u32);
            }
            start = i;
        }
    }
    check_two_outputs(
        device,
        queue,
        (&keys, &keys),
        (&offsets, &lengths),
        encode.temp_storage_bytes(n as u32),
        true,
        |encoder, [k, _, o, l, runs, t]| {
            encode
                .non_trivial_runs(encoder, k, o, l, runs, n as u32, t)
                .expect("records")
        },
        &format!("RunLengthEncode::non_trivial_runs {dtype} n = {n}"),
    );
}

fn run_unique_cases(device: &wgpu::Device, queue: &wgpu::Queue, sizes: &[usize], big: bool) {
    let unique = UniqueByKey::new(device, Dtype::F32, Dtype::U32).expect("builds");
    let encode = RunLengthEncode::new(device, Dtype::I32).expect("builds");
    for (i, &n) in sizes.iter().enumerate() {
        check_unique_by_key(device, queue, &unique, n, i % 2 == 0);
        check_non_trivial_runs(device, queue, &encode, Dtype::I32, n);
    }
    if big {
        check_non_trivial_runs(device, queue, &encode, Dtype::I32, BIG);
    }
}

#[test]
fn unique_cases() {
    if !is_child() {
        return;
    }
    let (device, queue) = open();
    let big = std::env::var("LP_NATIVE_VECTOR_WIDTH").as_deref() == Ok("256");
    run_unique_cases(&device, &queue, &SIZES, big);
}

#[test]
fn unique_at_each_subgroup_size() {
    at_each_subgroup_size("unique_cases");
}

#[test]
fn unique_on_emulated_subgroups() {
    let (device, queue) = open_without_subgroups();
    run_unique_cases(&device, &queue, &[0, 1, TILE + 1, 9001], false);
}

#[test]
fn bad_unique_calls_are_errors() {
    let (device, _queue) = open();
    assert_refused(
        UniqueByKey::new(&device, Dtype::U32, Dtype::F16),
        &["UniqueByKey takes u32, i32, f32 elements, not f16"],
    );
    let unique = UniqueByKey::new(&device, Dtype::U32, Dtype::U32).expect("builds");
    let encode = RunLengthEncode::new(&device, Dtype::U32).expect("builds");
    let n = 3000u32;
    let bytes = 4 * u64::from(n);
    let keys = zeroed(&device, bytes);
    let out = zeroed(&device, 4 * bytes);
    let temp = zeroed(&device, unique.temp_storage_bytes(n));
    let (k, t) = (Slice::from(&keys), Slice::from(&temp));
    let o = |at: u64| Slice::new(&out, at);
    let mut encoder = encoder(&device);
    assert_refused(
        unique.record(&mut encoder, k, k, o(0), k, o(2 * bytes), n, t),
        &["UniqueByKey: `keys_in` and `values_out` are the same buffer"],
    );
    assert_refused(
        unique.record(&mut encoder, k, k, o(0), o(bytes), o(bytes), n, t),
        &["`values_out` (bytes 12000..24000) and `num_selected` (bytes 12000..12004) overlap"],
    );
    assert_refused(
        encode.non_trivial_runs(&mut encoder, k, o(0), o(bytes), o(2 * bytes), n, o(0)),
        &[
            "RunLengthEncode: `offsets` (bytes 0..12000) and `temp`",
            "overlap",
        ],
    );
    assert_refused(
        encode.non_trivial_runs(&mut encoder, k, o(0), o(256), o(2 * bytes), n, t),
        &["`offsets` (bytes 0..12000) and `lengths` (bytes 256..12256) overlap"],
    );
}
