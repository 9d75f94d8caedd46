//! The `wavekit::device` algorithms of issue 35 on lavapipe at subgroup
//! sizes 4, 8 and 16 against a CPU reference, in one binary (one set of
//! pipelines a subgroup size): `ArgReduce` (first index of the min / max
//! of f32, i32, u32, ties and signed zeros), `TransformReduce` (a WGSL map,
//! then sum / min / max), `AdjacentDifference` (left and right, copy and
//! in place, the default subtraction and a WGSL operator), `LowerBound` /
//! `UpperBound` (needles in a sorted haystack with repeats), `PartitionIf`
//! / `PartitionFlagged` (selected first, rejected after them reversed) and
//! `Unique`. Edge sizes (0, 1, a tile ± 1, odd sizes; 2^20 + 5 once per
//! family), slices at non-zero offsets between guard words; on emulated
//! subgroups (lavapipe without the subgroup features) each family once;
//! the reductions and differences again with their tuning parameters
//! changed; malformed user functions as errors at their own line, and bad
//! calls.

mod device_support;

use device_support::*;
use wavekit::Dtype;
use wavekit::device::{
    AdjacentDifference, ArgOp, ArgReduce, BinarySearch, Bound, FlagType, PartitionFlagged,
    PartitionIf, ReduceByKey, ReduceOp, ReduceType, ScanAlgorithm, ScanOperator, Slice, Subtract,
    TransformReduce, Unique,
};

/// The big size each family runs once.
const BIG: usize = (1 << 20) + 5;

/// The buffers of a one-input call: the input at one aligned offset, an
/// output of `out_words` at another and a temp of `temp` bytes, all
/// between guard words.
struct Call {
    align: u64,
    input: wgpu::Buffer,
    output: wgpu::Buffer,
    temp: wgpu::Buffer,
}

impl Call {
    fn new(device: &wgpu::Device, input: &[u32], out_words: usize, temp: u64) -> Self {
        let align = alignment(device);
        Call {
            align,
            input: guarded(device, input, align, 64),
            output: guarded(device, &vec![GUARD; out_words], 2 * align, 64),
            temp: zeroed(device, temp + align),
        }
    }

    fn input(&self) -> Slice<'_> {
        Slice::new(&self.input, self.align)
    }

    fn output(&self) -> Slice<'_> {
        Slice::new(&self.output, 2 * self.align)
    }

    fn temp(&self) -> Slice<'_> {
        Slice::new(&self.temp, self.align)
    }

    /// Submits `encoder`; the output's `words` (guards checked) and the
    /// input's (checked unchanged against `input` unless `None`).
    fn read(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: wgpu::CommandEncoder,
        words: usize,
        input: Option<&[u32]>,
        what: &str,
    ) -> Vec<u32> {
        let read = submit_and_read(device, queue, encoder, &[&self.output, &self.input]);
        if let Some(input) = input {
            let got = inside(&read[1], self.align, input.len(), what);
            assert_same(&got, input, &format!("{what}: the input"));
        }
        inside(&read[0], 2 * self.align, words, what)
    }
}

fn check_arg(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    arg: &ArgReduce,
    ty: ReduceType,
    n: usize,
) {
    let input = tied_input(ty, n, n as u64 + 3);
    let call = Call::new(device, &input, 2, arg.temp_storage_bytes(n as u32));
    let mut encoder = encoder(device);
    arg.record(
        &mut encoder,
        call.input(),
        call.output(),
        n as u32,
        call.temp(),
    )
    .expect("records");
    let what = format!("Arg{:?} {ty:?} n = {n}", arg.op());
    let got = call.read(device, queue, encoder, 2, Some(&input), &what);
    assert_eq!(got, arg_reference(ty, arg.op(), &input), "{what}");
}

fn arg_reduce_cases(device: &wgpu::Device, queue: &wgpu::Queue) {
    for ty in [ReduceType::F32, ReduceType::I32, ReduceType::U32] {
        for op in [ArgOp::Min, ArgOp::Max] {
            let arg = ArgReduce::new(device, op, ty).expect("builds");
            for n in [0, 1, 2, 255, 256, 257, 4095, 4096, 4097, 77_777] {
                check_arg(device, queue, &arg, ty, n);
            }
            if ty == ReduceType::F32 && op == ArgOp::Max {
                check_arg(device, queue, &arg, ty, BIG);
            }
        }
    }
}

/// A map, its CPU twin from the element's bits to the result's, and the
/// reduction's reference from those.
struct Map {
    dtype: Dtype,
    text: &'static str,
    op: ReduceOp,
    output: ReduceType,
    cpu: fn(u32) -> u32,
}

fn maps() -> [Map; 2] {
    [
        // u32 → f32 sum (of halves: exact in f32 up to 2^24).
        Map {
            dtype: Dtype::U32,
            text: "const WK_SCALE = 0.5;\nfn transform(x: u32) -> U {\n    return f32(x % 7u) * WK_SCALE;\n}",
            op: ReduceOp::Sum,
            output: ReduceType::F32,
            cpu: |x| ((x % 7) as f32 * 0.5).to_bits(),
        },
        // f32 → i32 max of a signed, scaled truncation.
        Map {
            dtype: Dtype::F32,
            text: "fn transform(x: T) -> i32 { return i32(x * -3.0); }",
            op: ReduceOp::Max,
            output: ReduceType::I32,
            cpu: |x| ((f32::from_bits(x) * -3.0) as i32) as u32,
        },
    ]
}

fn transform_reference(map: &Map, input: &[u32]) -> u32 {
    let mapped = input.iter().map(|&x| (map.cpu)(x));
    match (map.output, map.op) {
        (ReduceType::F32, ReduceOp::Sum) => mapped
            .map(f32::from_bits)
            .fold(0.0f32, |a, b| a + b)
            .to_bits(),
        (ReduceType::I32, ReduceOp::Max) => {
            mapped.map(|x| x as i32).fold(i32::MIN, i32::max) as u32
        }
        other => unreachable!("no map reduces to {other:?}"),
    }
}

fn transform_reduce_cases(device: &wgpu::Device, queue: &wgpu::Queue) {
    for map in maps() {
        let reduce = map.build(device);
        let sizes: &[usize] = if map.op == ReduceOp::Sum {
            &[0, 1, 3, 4, 5, 1023, 1024, 1025, 50_001, BIG]
        } else {
            &[0, 1, 3, 4, 5, 1023, 1024, 1025, 50_001]
        };
        for &n in sizes {
            check_map(device, queue, &reduce, &map, n);
        }
    }
}

impl Map {
    fn build(&self, device: &wgpu::Device) -> TransformReduce {
        TransformReduce::new(device, self.dtype, self.text, self.op, self.output).expect("builds")
    }
}

/// `reduce` (built from `map`) of `n` elements against the reference.
fn check_map(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    reduce: &TransformReduce,
    map: &Map,
    n: usize,
) {
    let input: Vec<u32> = match map.dtype {
        Dtype::F32 => random(n, 2000, n as u64)
            .iter()
            .map(|&w| (w as f32 * 0.25 - 250.0).to_bits())
            .collect(),
        _ => random(n, 0, n as u64),
    };
    let call = Call::new(device, &input, 1, reduce.temp_storage_bytes(n as u32));
    let mut encoder = encoder(device);
    reduce
        .record(
            &mut encoder,
            call.input(),
            call.output(),
            n as u32,
            call.temp(),
        )
        .expect("records");
    let what = format!("TransformReduce {} {:?} n = {n}", map.dtype, map.op);
    let got = call.read(device, queue, encoder, 1, Some(&input), &what)[0];
    assert_eq!(got, transform_reference(map, &input), "{what}");
}

/// An adjacent difference, its operator's CPU twin on the elements' bits
/// and its inputs' words.
struct Difference {
    dtype: Dtype,
    side: Subtract,
    operator: Option<&'static str>,
    cpu: fn(u32, u32) -> u32,
}

/// Not commutative, exact on multiples of 0.25 (no rounding to differ by
/// contraction).
const MAX_MINUS_HALF_MIN: &str = "fn difference(a: f32, b: T) -> f32 {\n    return max(a, b) - 0.5 * min(a, b) + select(0.0, 1.0, a < b);\n}";

fn max_minus_half_min(a: u32, b: u32) -> u32 {
    let (a, b) = (f32::from_bits(a), f32::from_bits(b));
    (a.max(b) - 0.5 * a.min(b) + if a < b { 1.0 } else { 0.0 }).to_bits()
}

fn differences() -> [Difference; 4] {
    [
        Difference {
            dtype: Dtype::U32,
            side: Subtract::Left,
            operator: None,
            cpu: u32::wrapping_sub,
        },
        Difference {
            dtype: Dtype::I32,
            side: Subtract::Right,
            operator: None,
            cpu: |a, b| (a as i32).wrapping_sub(b as i32) as u32,
        },
        Difference {
            dtype: Dtype::F32,
            side: Subtract::Left,
            operator: Some(MAX_MINUS_HALF_MIN),
            cpu: max_minus_half_min,
        },
        Difference {
            dtype: Dtype::F32,
            side: Subtract::Right,
            operator: Some(MAX_MINUS_HALF_MIN),
            cpu: max_minus_half_min,
        },
    ]
}

fn difference_reference(case: &Difference, input: &[u32]) -> Vec<u32> {
    let n = input.len();
    (0..n)
        .map(|i| match case.side {
            Subtract::Left if i > 0 => (case.cpu)(input[i], input[i - 1]),
            Subtract::Right if i + 1 < n => (case.cpu)(input[i], input[i + 1]),
            _ => input[i],
        })
        .collect()
}

fn difference_input(dtype: Dtype, n: usize, seed: u64) -> Vec<u32> {
    match dtype {
        Dtype::F32 => random(n, 1000, seed)
            .iter()
            .map(|&w| (w as f32 * 0.25 - 100.0).to_bits())
            .collect(),
        _ => random(n, 0, seed),
    }
}

fn check_difference(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    adjacent: &AdjacentDifference,
    case: &Difference,
    n: usize,
) {
    let input = difference_input(case.dtype, n, n as u64 + 11);
    let want = difference_reference(case, &input);
    let what = format!(
        "{:?} {} {:?} n = {n}",
        case.side,
        case.dtype,
        case.operator.is_some()
    );
    // Copy: input and output in two buffers.
    let call = Call::new(device, &input, n, 0);
    let mut copy = encoder(device);
    adjacent
        .record(&mut copy, call.input(), call.output(), n as u32)
        .expect("records");
    let got = call.read(device, queue, copy, n, Some(&input), &what);
    assert_same(&got, &want, &format!("{what} copy"));
    // In place, temp in the same buffer after the data.
    let align = alignment(device);
    let temp_at = align + (4 * n as u64).next_multiple_of(align);
    let mut words = input.clone();
    words.resize(((temp_at - align) / 4) as usize, GUARD);
    let temp_words = (adjacent.temp_storage_bytes(n as u32) / 4) as usize;
    words.extend(std::iter::repeat_n(0, temp_words));
    let data = guarded(device, &words, align, 64);
    let mut encoder = encoder(device);
    adjacent
        .record_in_place(
            &mut encoder,
            Slice::new(&data, align),
            n as u32,
            Slice::new(&data, temp_at),
        )
        .expect("records");
    let read = submit_and_read(device, queue, encoder, &[&data]);
    let got = inside(&read[0], align, words.len(), &what);
    assert_same(&got[..n], &want, &format!("{what} in place"));
    assert!(
        got[n..(temp_at - align) as usize / 4]
            .iter()
            .all(|&w| w == GUARD),
        "{what}: padding between data and temp written"
    );
}

fn adjacent_difference_cases(device: &wgpu::Device, queue: &wgpu::Queue) {
    for case in differences() {
        let adjacent =
            AdjacentDifference::new(device, case.dtype, case.side, case.operator).expect("builds");
        // Tiles of 1024 (through wgpu) and 2048 (HIP): both edges.
        for n in [
            0,
            1,
            2,
            3,
            4,
            5,
            1023,
            1024,
            1025,
            2047,
            2048,
            2049,
            3 * 2048 + 1,
            50_001,
        ] {
            check_difference(device, queue, &adjacent, &case, n);
        }
        if case.dtype == Dtype::U32 {
            check_difference(device, queue, &adjacent, &case, BIG);
        }
    }
}

/// `n` sorted words of `dtype` with runs of repeats (f32 with both zeros),
/// and `k` needles among them, between them and outside them.
fn haystack_and_needles(dtype: Dtype, m: usize, k: usize, seed: u64) -> (Vec<u32>, Vec<u32>) {
    let spread = (m as u32 / 3).max(4);
    let value = |w: u32| -> u32 {
        match dtype {
            Dtype::F32 => (w as f32 * 0.5 - spread as f32 * 0.25).to_bits(),
            Dtype::I32 => (w as i32 - spread as i32 / 2) as u32,
            _ => w,
        }
    };
    let order = |a: &u32, b: &u32| -> std::cmp::Ordering {
        match dtype {
            Dtype::F32 => f32::from_bits(*a).total_cmp(&f32::from_bits(*b)),
            Dtype::I32 => (*a as i32).cmp(&(*b as i32)),
            _ => a.cmp(b),
        }
    };
    let mut haystack: Vec<u32> = random(m, spread, seed).into_iter().map(value).collect();
    haystack.sort_by(order);
    if dtype == Dtype::F32 {
        // -0.0 and 0.0 side by side, equal under `<`.
        for x in &mut haystack {
            if f32::from_bits(*x) == 0.0 && random(1, 2, u64::from(*x) + seed)[0] == 0 {
                *x = (-0.0f32).to_bits();
            }
        }
        haystack.sort_by(|a, b| {
            f32::from_bits(*a)
                .partial_cmp(&f32::from_bits(*b))
                .expect("no NaN")
        });
    }
    let needles = random(k, spread + 8, seed + 1)
        .into_iter()
        .map(|w| value(w.wrapping_sub(4)))
        .collect();
    (haystack, needles)
}

fn search_reference(dtype: Dtype, bound: Bound, haystack: &[u32], needles: &[u32]) -> Vec<u32> {
    let less = |a: u32, b: u32| match dtype {
        Dtype::F32 => f32::from_bits(a) < f32::from_bits(b),
        Dtype::I32 => (a as i32) < (b as i32),
        _ => a < b,
    };
    needles
        .iter()
        .map(|&x| {
            haystack.partition_point(|&h| match bound {
                Bound::Lower => less(h, x),
                Bound::Upper => !less(x, h),
            }) as u32
        })
        .collect()
}

/// A search of `k` needles in `m` elements, the needles in the haystack's
/// buffer after it.
fn check_search(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    search: &BinarySearch,
    m: usize,
    k: usize,
) {
    let (haystack, needles) = haystack_and_needles(search.dtype(), m, k, (m * 31 + k) as u64);
    let align = alignment(device);
    let needles_at = align + (4 * m as u64).next_multiple_of(align);
    let mut words = haystack.clone();
    words.resize(((needles_at - align) / 4) as usize, GUARD);
    words.extend_from_slice(&needles);
    let call = Call::new(device, &words, k, 0);
    let mut encoder = encoder(device);
    search
        .record(
            &mut encoder,
            call.input(),
            m as u32,
            Slice::new(&call.input, needles_at),
            k as u32,
            call.output(),
        )
        .expect("records");
    let what = format!(
        "{:?} bound {} m = {m} k = {k}",
        search.bound(),
        search.dtype()
    );
    let got = call.read(device, queue, encoder, k, Some(&words), &what);
    let want = search_reference(search.dtype(), search.bound(), &haystack, &needles);
    assert_same(&got, &want, &what);
}

fn search_cases(device: &wgpu::Device, queue: &wgpu::Queue) {
    let searches = [
        (Dtype::U32, Bound::Lower),
        (Dtype::U32, Bound::Upper),
        (Dtype::I32, Bound::Lower),
        (Dtype::F32, Bound::Upper),
    ];
    for (dtype, bound) in searches {
        let search = BinarySearch::new(device, dtype, bound).expect("builds");
        for (m, k) in [
            (0, 5),
            (5, 0),
            (1, 7),
            (2, 1023),
            (255, 1024),
            (256, 1025),
            (1000, 3000),
            (65_537, 4097),
        ] {
            check_search(device, queue, &search, m, k);
        }
        if (dtype, bound) == (Dtype::U32, Bound::Lower) {
            check_search(device, queue, &search, BIG, BIG);
        }
    }
}

/// Elements per tile of the compaction.
const TILE: usize = 4096;

/// The partition sizes.
const PARTITION_SIZES: [usize; 9] = [0, 1, 2, 31, TILE - 1, TILE, TILE + 1, 3 * TILE + 5, 50_001];

/// CUB's partition of `input` by `keep`: the kept in order, then the
/// others reversed; and the number kept.
fn partition_reference(input: &[u32], keep: impl Fn(usize, u32) -> bool) -> (Vec<u32>, usize) {
    let (mut kept, mut rejected) = (Vec::new(), Vec::new());
    for (i, &x) in input.iter().enumerate() {
        if keep(i, x) {
            kept.push(x);
        } else {
            rejected.push(x);
        }
    }
    let count = kept.len();
    kept.extend(rejected.into_iter().rev());
    (kept, count)
}

/// Runs one compaction call (`record` given the input, output, count and
/// temp slices) on `input` and checks the first `written` output words
/// and the count against `want`.
fn check_compaction(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    input: &[u32],
    temp_bytes: u64,
    want: (&[u32], usize),
    record: impl FnOnce(&mut wgpu::CommandEncoder, Slice<'_>, Slice<'_>, Slice<'_>, Slice<'_>),
    what: &str,
) {
    let n = input.len();
    let call = Call::new(device, input, n, temp_bytes);
    let align = call.align;
    let count = guarded(device, &[GUARD], align, 64);
    let mut encoder = encoder(device);
    record(
        &mut encoder,
        call.input(),
        call.output(),
        Slice::new(&count, align),
        call.temp(),
    );
    let read = submit_and_read(device, queue, encoder, &[&call.output, &call.input, &count]);
    let got = inside(&read[0], 2 * align, n, what);
    assert_same(
        &inside(&read[1], align, n, what),
        input,
        &format!("{what}: the input"),
    );
    let got_count = inside(&read[2], align, 1, what)[0] as usize;
    assert_eq!(got_count, want.1, "{what}: count");
    let (got_words, past) = got.split_at(want.0.len());
    assert_same(got_words, want.0, what);
    assert!(
        past.iter().all(|&w| w == GUARD),
        "{what}: output past the count written"
    );
}

/// The partition of u32 by `x % 3 == 1`.
fn thirds(device: &wgpu::Device) -> PartitionIf {
    PartitionIf::new(
        device,
        Dtype::U32,
        "fn keep(x: u32) -> bool { return x % 3u == 1u; }",
    )
    .expect("builds")
}

/// [`thirds`] of `n` random u32.
fn check_partition_if(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    partition: &PartitionIf,
    n: usize,
    seed: u64,
) {
    let input = random(n, 0, seed);
    let (want, count) = partition_reference(&input, |_, x| x % 3 == 1);
    let what = format!("PartitionIf u32 {:?} n = {n}", partition.algorithm());
    check_compaction(
        device,
        queue,
        &input,
        partition.temp_storage_bytes(n as u32),
        (&want, count),
        |encoder, input, output, count, temp| {
            partition
                .record(encoder, input, output, count, n as u32, temp)
                .expect("records")
        },
        &what,
    );
}

fn partition_cases(device: &wgpu::Device, queue: &wgpu::Queue) {
    let by_predicate = thirds(device);
    assert_eq!(by_predicate.algorithm(), ScanAlgorithm::DecoupledLookBack);
    let run_if =
        |partition: &PartitionIf, n, seed| check_partition_if(device, queue, partition, n, seed);
    for (seed, &n) in PARTITION_SIZES.iter().enumerate() {
        run_if(&by_predicate, n, seed as u64);
    }
    run_if(&by_predicate, BIG, 99);
    let by_predicate = by_predicate.with_algorithm(ScanAlgorithm::ReduceThenScan);
    for (seed, &n) in PARTITION_SIZES.iter().enumerate() {
        run_if(&by_predicate, n, seed as u64 + 20);
    }

    let flagged = PartitionFlagged::new(device, Dtype::I32, FlagType::U8).expect("builds");
    for (seed, &n) in PARTITION_SIZES.iter().enumerate() {
        let input = random(n, 0, seed as u64 + 40);
        let keep: Vec<bool> = random(n, 3, seed as u64 + 41)
            .iter()
            .map(|&f| f == 0)
            .collect();
        let flag_words: Vec<u32> = keep
            .chunks(4)
            .map(|c| {
                c.iter()
                    .enumerate()
                    .map(|(i, &k)| u32::from(k) << (8 * i))
                    .sum()
            })
            .collect();
        let flags = guarded(device, &flag_words, 0, 64);
        let (want, count) = partition_reference(&input, |i, _| keep[i]);
        check_compaction(
            device,
            queue,
            &input,
            flagged.temp_storage_bytes(n as u32),
            (&want, count),
            |encoder, input, output, count, temp| {
                flagged
                    .record(
                        encoder,
                        input,
                        Slice::new(&flags, 0),
                        output,
                        count,
                        n as u32,
                        temp,
                    )
                    .expect("records")
            },
            &format!("PartitionFlagged u8 n = {n}"),
        );
    }
}

/// The first of each run of `input` by `!=` on `dtype`'s values.
fn unique_reference(dtype: Dtype, input: &[u32]) -> Vec<u32> {
    let differs = |a: u32, b: u32| match dtype {
        Dtype::F32 => f32::from_bits(a) != f32::from_bits(b),
        _ => a != b,
    };
    (0..input.len())
        .filter(|&i| i == 0 || differs(input[i], input[i - 1]))
        .map(|i| input[i])
        .collect()
}

/// Runs of keys, for f32 with both zeros among them (NaN is no value
/// WGSL promises to compare).
fn unique_input(dtype: Dtype, n: usize, seed: u64) -> Vec<u32> {
    let keys = runs_input(n, seed);
    match dtype {
        Dtype::F32 => keys
            .iter()
            .enumerate()
            .map(|(i, &k)| match k {
                1 if i % 2 == 0 => (-0.0f32).to_bits(),
                _ => (k as f32 - 1.0).to_bits(),
            })
            .collect(),
        _ => keys,
    }
}

fn check_unique(device: &wgpu::Device, queue: &wgpu::Queue, unique: &Unique, n: usize) {
    let input = unique_input(unique.dtype(), n, n as u64 + 5);
    let want = unique_reference(unique.dtype(), &input);
    check_compaction(
        device,
        queue,
        &input,
        unique.temp_storage_bytes(n as u32),
        (&want, want.len()),
        |encoder, input, output, count, temp| {
            unique
                .record(encoder, input, output, count, n as u32, temp)
                .expect("records")
        },
        &format!("Unique {} {:?} n = {n}", unique.dtype(), unique.algorithm()),
    );
}

fn unique_cases(device: &wgpu::Device, queue: &wgpu::Queue) {
    for dtype in [Dtype::U32, Dtype::F32] {
        let unique = Unique::new(device, dtype).expect("builds");
        for &n in &PARTITION_SIZES {
            check_unique(device, queue, &unique, n);
        }
        if dtype == Dtype::U32 {
            check_unique(device, queue, &unique, BIG);
            let unique = unique.with_algorithm(ScanAlgorithm::ReduceThenScan);
            check_unique(device, queue, &unique, 50_001);
        }
    }
}

#[test]
fn breadth_cases() {
    if !is_child() {
        return;
    }
    let (device, queue) = open();
    arg_reduce_cases(&device, &queue);
    transform_reduce_cases(&device, &queue);
    adjacent_difference_cases(&device, &queue);
    search_cases(&device, &queue);
    partition_cases(&device, &queue);
    unique_cases(&device, &queue);
}

#[test]
fn breadth_at_each_subgroup_size() {
    at_each_subgroup_size("breadth_cases");
}

/// Each family once on emulated subgroups (the compaction's look-back
/// walked by thread 0 alone there).
#[test]
fn breadth_on_emulated_subgroups() {
    let (device, queue) = open_without_subgroups();
    let arg = ArgReduce::new(&device, ArgOp::Min, ReduceType::F32).expect("builds");
    let [_, right, ..] = differences();
    let adjacent =
        AdjacentDifference::new(&device, right.dtype, right.side, right.operator).expect("builds");
    for n in [0, 1, 8191, 100_003] {
        check_arg(&device, &queue, &arg, ReduceType::F32, n);
        check_difference(&device, &queue, &adjacent, &right, n);
    }
    let search = BinarySearch::new(&device, Dtype::F32, Bound::Lower).expect("builds");
    check_search(&device, &queue, &search, 3001, 5000);
    let unique = Unique::new(&device, Dtype::F32).expect("builds");
    let partition = thirds(&device);
    let [sum, _] = maps();
    let map = sum.build(&device);
    for n in [0, 1, 8191, 100_003] {
        check_unique(&device, &queue, &unique, n);
        check_partition_if(&device, &queue, &partition, n, n as u64);
        check_map(&device, &queue, &map, &sum, n);
    }
}

/// The tuning parameters (`WAVEKIT_SHADER_PARAMS`, `wavekit::device::
/// debug::with_shader_params`) away from their defaults: 3 elements a
/// thread (`ITEMS`; a tile no power of two), 3 reads in flight (`LOADS`)
/// and at most 5 first-pass workgroups (`MAX_PARTIALS`), so that every
/// workgroup strides over many tiles, a path the default sizes here never
/// take below 2^22 elements.
#[test]
fn breadth_with_other_shader_params() {
    let (device, queue) = open();
    let params = vec![
        ("ITEMS", "3u".to_string()),
        ("LOADS", "3u".to_string()),
        ("MAX_PARTIALS", "5u".to_string()),
    ];
    let [sum, max] = maps();
    let (args, reduces, adjacent) = wavekit::device::debug::with_shader_params(params, || {
        let args: Vec<(ReduceType, ArgReduce)> =
            [(ReduceType::F32, ArgOp::Min), (ReduceType::I32, ArgOp::Max)]
                .into_iter()
                .map(|(ty, op)| (ty, ArgReduce::new(&device, op, ty).expect("builds")))
                .collect();
        let reduces = [sum.build(&device), max.build(&device)];
        let adjacent: Vec<AdjacentDifference> = differences()
            .iter()
            .map(|case| {
                AdjacentDifference::new(&device, case.dtype, case.side, case.operator)
                    .expect("builds")
            })
            .collect();
        (args, reduces, adjacent)
    });
    for n in [0, 1, 767, 768, 769, 20_000, 100_003] {
        for (ty, arg) in &args {
            check_arg(&device, &queue, arg, *ty, n);
        }
        for (reduce, map) in reduces.iter().zip([&sum, &max]) {
            check_map(&device, &queue, reduce, map, n);
        }
        for (adjacent, case) in adjacent.iter().zip(differences().iter()) {
            check_difference(&device, &queue, adjacent, case, n);
        }
    }
}

#[test]
fn malformed_maps_are_errors_at_their_line() {
    let (device, _queue) = open();
    let map = |text: &str| {
        TransformReduce::new(&device, Dtype::U32, text, ReduceOp::Sum, ReduceType::F32)
    };
    assert_refused(
        map("fn transform(x: u32) -> f32 {\n    return x * ;\n}"),
        &["TransformReduce `transform`:2:", "return x * ;"],
    );
    assert_refused(
        map("fn transform(x: u32) -> u32 { return x; }"),
        &["must declare `fn transform(x: T) -> U` (T = u32, U = f32)"],
    );
}

#[test]
fn malformed_difference_operators_are_errors_at_their_line() {
    let (device, _queue) = open();
    let operator =
        |dtype, text: &str| AdjacentDifference::new(&device, dtype, Subtract::Left, Some(text));
    assert_refused(
        operator(
            Dtype::I32,
            "fn difference(a: i32, b: i32) -> i32 {\n    return a - ;\n}",
        ),
        &["AdjacentDifference `difference`:2:", "return a - ;"],
    );
    assert_refused(
        operator(Dtype::U32, "fn difference(a: u32) -> u32 { return a; }"),
        &["must declare `fn difference(a: T, b: T) -> T` (T = u32)"],
    );
}

#[test]
fn bad_difference_calls_are_errors() {
    let (device, _queue) = open();
    let adjacent =
        AdjacentDifference::new(&device, Dtype::U32, Subtract::Right, None).expect("builds");
    let n = 5000u32;
    let data = zeroed(&device, 4 * u64::from(n) + 1024);
    let small = zeroed(&device, 4);
    let mut encoder = encoder(&device);
    let at = |offset| Slice::new(&data, offset);
    assert_refused(
        adjacent.record(&mut encoder, at(0), at(256), n),
        &["`input` (bytes 0..20000) and `output` (bytes 256..20256) overlap"],
    );
    assert_refused(
        adjacent.record_in_place(&mut encoder, at(0), n, at(256)),
        &["`data`", "`temp`", "overlap"],
    );
    assert_refused(
        adjacent.record_in_place(&mut encoder, at(0), n, (&small).into()),
        &[&format!("`temp`: {} bytes", adjacent.temp_storage_bytes(n))],
    );
}

#[test]
fn bad_search_calls_are_errors() {
    let (device, _queue) = open();
    let search = BinarySearch::new(&device, Dtype::I32, Bound::Upper).expect("builds");
    let (m, k) = (1000u32, 300u32);
    let haystack = zeroed(&device, 4 * u64::from(m));
    let output = zeroed(&device, 4 * u64::from(k));
    let mut encoder = encoder(&device);
    let h = || Slice::from(&haystack);
    assert_refused(
        search.record(&mut encoder, h(), m, h(), k, h()),
        &["`haystack` and `output` are the same buffer"],
    );
    assert_refused(
        search.record(&mut encoder, h(), m + 1, h(), k, (&output).into()),
        &["`haystack`: 4004 bytes from offset 0 do not fit the buffer of 4000 bytes"],
    );
    assert_refused(
        BinarySearch::new(&device, Dtype::F16, Bound::Lower),
        &["takes u32, i32, f32 elements, not f16"],
    );
}

#[test]
fn bad_partitions_are_errors() {
    let (device, _queue) = open();
    assert_refused(
        PartitionIf::new(
            &device,
            Dtype::I32,
            "fn keep(x: i32) -> bool { return x < 1u; }",
        ),
        &["PartitionIf `keep`:1:"],
    );
    assert_refused(
        Unique::new(&device, Dtype::F16),
        &["Unique takes u32, i32, f32 elements, not f16"],
    );
    let partition = PartitionFlagged::new(&device, Dtype::U32, FlagType::U32).expect("builds");
    let n = 3000u32;
    let data = zeroed(&device, 4 * u64::from(n));
    let count = zeroed(&device, 4);
    let temp = zeroed(&device, partition.temp_storage_bytes(n));
    let (d, c) = (Slice::from(&data), Slice::from(&count));
    assert_refused(
        partition.record(&mut encoder(&device), d, c, d, c, n, (&temp).into()),
        &["PartitionFlagged: `input` and `output` are the same buffer"],
    );
}

#[test]
fn bad_reduction_calls_are_errors() {
    let (device, _queue) = open();
    let arg = ArgReduce::new(&device, ArgOp::Max, ReduceType::U32).expect("builds");
    let n = 1000u32;
    let input = zeroed(&device, 4 * u64::from(n));
    let short = zeroed(&device, 4);
    let result = zeroed(&device, 8);
    let temp = zeroed(&device, arg.temp_storage_bytes(n));
    let mut encoder = encoder(&device);
    let mut call = |result, temp| arg.record(&mut encoder, (&input).into(), result, n, temp);
    assert_refused(
        call((&short).into(), (&temp).into()),
        &["ArgReduce: `result`: 8 bytes from offset 0 do not fit the buffer of 4 bytes"],
    );
    assert_refused(
        call((&temp).into(), (&temp).into()),
        &["`temp` and `result` are the same buffer"],
    );
    assert_refused(
        call((&result).into(), (&short).into()),
        &[&format!("`temp`: {} bytes", arg.temp_storage_bytes(n))],
    );
}

#[test]
fn bad_shader_params_are_errors() {
    let (device, _queue) = open();
    let with = |name: &'static str, value: &str| vec![(name, value.to_string())];
    let [sum, _] = maps();
    let case = &differences()[0];
    for (items, shown) in [("0u", "ITEMS = 0"), ("33u", "ITEMS = 33")] {
        assert_refused(
            wavekit::device::debug::with_shader_params(with("ITEMS", items), || {
                AdjacentDifference::new(&device, case.dtype, case.side, case.operator)
            }),
            &[shown, "it takes 1 to 32"],
        );
        assert_refused(
            wavekit::device::debug::with_shader_params(with("ITEMS", items), || {
                ArgReduce::new(&device, ArgOp::Min, ReduceType::F32)
            }),
            &[shown, "they take 1 to 32 and 1 to 8192"],
        );
        assert_refused(
            wavekit::device::debug::with_shader_params(with("ITEMS", items), || {
                BinarySearch::new(&device, Dtype::U32, Bound::Lower)
            }),
            &[shown, "needles per thread: it takes 1 to 32"],
        );
        // The compaction under SelectIf, Unique, PartitionIf and
        // RunLengthEncode: its tile is the shader's BLOCK x ITEMS.
        assert_refused(
            wavekit::device::debug::with_shader_params(with("ITEMS", items), || {
                Unique::new(&device, Dtype::U32)
            }),
            &[
                shown,
                "elements per thread: they take 64 to 1024 and 1 to 32",
            ],
        );
        // The by-key shader under ReduceByKey, ScanByKey, UniqueByKey and
        // RunLengthEncode::non_trivial_runs: its tile is 256 x ITEMS.
        assert_refused(
            wavekit::device::debug::with_shader_params(with("ITEMS", items), || {
                ReduceByKey::new(&device, Dtype::U32, Dtype::U32, ScanOperator::Add)
            }),
            &[shown, "elements per thread: it takes 1 to 32"],
        );
    }
    assert_refused(
        wavekit::device::debug::with_shader_params(with("MAX_PARTIALS", "8193u"), || {
            ArgReduce::new(&device, ArgOp::Max, ReduceType::I32)
        }),
        &["MAX_PARTIALS = 8193", "they take 1 to 32 and 1 to 8192"],
    );
    assert_refused(
        wavekit::device::debug::with_shader_params(with("MAX_PARTIALS", "0u"), || {
            TransformReduce::new(&device, sum.dtype, sum.text, sum.op, sum.output)
        }),
        &["MAX_PARTIALS = 0", "it takes 1 to 8192"],
    );
    // No reads in flight: an array of 0 elements, which validation refuses.
    assert_refused(
        wavekit::device::debug::with_shader_params(with("LOADS", "0u"), || {
            TransformReduce::new(&device, sum.dtype, sum.text, sum.op, sum.output)
        }),
        &["reduce.wgsl"],
    );
}
