//! `wavekit::device` on CUDA: every algorithm built on a CUDA context and
//! queued on a stream, on `CudaSlice`s at a non-zero offset inside larger
//! allocations with guard words around, checked against a CPU reference
//! at edge sizes (1, 3, tile ± 1, odd sizes, 2^20 + 5); two algorithms and
//! the caller's own copy on one stream; and the calls a CUDA algorithm
//! refuses. Skipped (with a note) on machines without a CUDA driver; run
//! on the device machine:
//!
//! ```text
//! cargo test --features native --test device_cuda -- --nocapture
//! ```

mod device_support;

use std::sync::Arc;

use device_support::{
    AFFINE, GUARD, affine_then, assert_same, bins_of_three, histogram_of_thirds, random,
    rgba_levels, run_length_reference, runs_input,
};
use wavekit::Dtype;
use wavekit::device::{
    AdjacentDifference, ArgOp, ArgReduce, BinarySearch, Bound, FixedSegmentedSort, FlagType,
    KeyType, PartitionFlagged, PartitionIf, RadixSort, RadixSortOptions, Reduce, ReduceOp,
    ReduceType, RunLengthEncode, Scan, ScanAlgorithm, ScanKind, ScanOperator, SegmentedSort,
    SelectFlagged, SelectIf, Slice, Subtract, TransformReduce, Unique,
};
use wavekit_native::NativeError;
use wavekit_native::cuda::Cuda;
use wavekit_native::cudarc::driver::{CudaContext, CudaSlice, CudaStream, DeviceRepr};

/// Sizes every algorithm is checked at.
const SIZES: [usize; 9] = [1, 3, 4, 1280, 2047, 8191, 8193, 100_003, (1 << 20) + 5];

/// Guard words before and after each slice; the slice starts 64 bytes in.
const PAD: usize = 16;

/// The CUDA context of device 0, or `None` (with a note) without a driver.
fn context() -> Option<Arc<CudaContext>> {
    match Cuda::open(0) {
        Ok(cuda) => Some(cuda.context().clone()),
        Err(NativeError::NoCudaDriver(why)) => {
            eprintln!(
                "skipped: no CUDA device ({why}); the wavekit::device CUDA tests run on a GPU"
            );
            None
        }
        Err(e) => panic!("{e}"),
    }
}

/// `data` between 64 bytes of `guard`s on each side, on the device.
fn guarded<T: DeviceRepr + Copy>(stream: &Arc<CudaStream>, data: &[T], guard: T) -> CudaSlice<T> {
    let pad = 64 / std::mem::size_of::<T>();
    let mut host = vec![guard; pad];
    host.extend_from_slice(data);
    host.extend(std::iter::repeat_n(guard, pad));
    stream.clone_htod(&host).expect("copies to the device")
}

/// The slice of a [`guarded`] allocation that holds its data.
fn inner<T>(memory: &CudaSlice<T>) -> Slice<'_> {
    Slice::cuda(memory, 64)
}

/// A guarded allocation of `n` u32 guard words, for outputs.
fn output(stream: &Arc<CudaStream>, n: usize) -> CudaSlice<u32> {
    guarded(stream, &vec![GUARD; n], GUARD)
}

/// A zeroed temp allocation of `bytes` bytes.
fn temp(stream: &Arc<CudaStream>, bytes: u64) -> CudaSlice<u8> {
    stream
        .alloc_zeros::<u8>(bytes.max(4) as usize)
        .expect("allocates temp")
}

/// The data between the guards of a u32 allocation, after checking them.
fn read_u32(stream: &Arc<CudaStream>, memory: &CudaSlice<u32>, what: &str) -> Vec<u32> {
    let host = stream.clone_dtoh(memory).expect("copies back");
    let n = host.len() - 2 * PAD;
    assert!(
        host[..PAD]
            .iter()
            .chain(&host[PAD + n..])
            .all(|&w| w == GUARD),
        "{what}: a guard word was overwritten"
    );
    host[PAD..PAD + n].to_vec()
}

fn exclusive(input: &[u32]) -> Vec<u32> {
    input
        .iter()
        .scan(0u32, |sum, &x| {
            let before = *sum;
            *sum = sum.wrapping_add(x);
            Some(before)
        })
        .collect()
}

#[test]
fn scans_on_a_stream() {
    let Some(ctx) = context() else { return };
    let stream = ctx.new_stream().expect("a stream");
    let exclusive_sum = Scan::exclusive_sum(&ctx, Dtype::U32).expect("builds");
    assert_eq!(exclusive_sum.algorithm(), ScanAlgorithm::DecoupledLookBack);
    let scans = [
        ("exclusive look-back", exclusive_sum),
        (
            "exclusive reduce-then-scan",
            Scan::exclusive_sum(&ctx, Dtype::U32)
                .expect("builds")
                .with_algorithm(ScanAlgorithm::ReduceThenScan),
        ),
        (
            "inclusive look-back",
            Scan::inclusive_sum(&ctx, Dtype::U32).expect("builds"),
        ),
        (
            "inclusive max",
            Scan::with_operator(&ctx, ScanKind::Inclusive, Dtype::U32, ScanOperator::Max)
                .expect("builds"),
        ),
        // Not commutative: the look-back's ordered window (natively the
        // subgroup of thread 0 combines S predecessors a round) must take
        // the earlier tiles first.
        (
            "exclusive affine",
            Scan::with_operator(
                &ctx,
                ScanKind::Exclusive,
                Dtype::U32,
                ScanOperator::custom(AFFINE, "1u << 16u"),
            )
            .expect("builds"),
        ),
    ];
    for (i, &n) in SIZES.iter().enumerate() {
        let input = random(n, if i % 2 == 0 { 0 } else { 1000 }, i as u64);
        let source = guarded(&stream, &input, GUARD);
        for (name, scan) in &scans {
            let out = output(&stream, n);
            let scratch = temp(&stream, scan.temp_storage_bytes(n as u32));
            scan.record(
                &stream,
                inner(&source),
                inner(&out),
                n as u32,
                (&scratch).into(),
            )
            .expect("queues");
            let got = read_u32(&stream, &out, name);
            let want: Vec<u32> = match *name {
                "inclusive look-back" => exclusive(&input)
                    .iter()
                    .zip(&input)
                    .map(|(a, b)| a.wrapping_add(*b))
                    .collect(),
                "inclusive max" => input
                    .iter()
                    .scan(0u32, |m, &x| {
                        *m = (*m).max(x);
                        Some(*m)
                    })
                    .collect(),
                "exclusive affine" => input
                    .iter()
                    .scan(1u32 << 16, |f, &g| {
                        let before = *f;
                        *f = affine_then(*f, g);
                        Some(before)
                    })
                    .collect(),
                _ => exclusive(&input),
            };
            assert_same(&got, &want, &format!("{name}, n = {n}"));
        }
        assert_same(
            &read_u32(&stream, &source, "scan input"),
            &input,
            "the scan's input is unchanged",
        );
    }
}

#[test]
fn reductions_on_a_stream() {
    let Some(ctx) = context() else { return };
    let stream = ctx.new_stream().expect("a stream");
    let sum = Reduce::new(&ctx, ReduceOp::Sum, ReduceType::U32).expect("builds");
    let max = Reduce::new(&ctx, ReduceOp::Max, ReduceType::I32).expect("builds");
    let fsum = Reduce::new(&ctx, ReduceOp::Sum, ReduceType::F32).expect("builds");
    for (i, &n) in SIZES.iter().enumerate() {
        let words = random(n, 0, 40 + i as u64);
        let source = guarded(&stream, &words, GUARD);
        let floats: Vec<f32> = words.iter().map(|&w| (w % 2001) as f32 - 1000.0).collect();
        let float_source = guarded(&stream, &floats, f32::from_bits(GUARD));
        let results = output(&stream, 12);
        let bytes = sum.temp_storage_bytes(n as u32);
        let bytes = bytes.max(max.temp_storage_bytes(n as u32));
        let bytes = bytes.max(fsum.temp_storage_bytes(n as u32));
        let scratch = temp(&stream, bytes);
        // Three reductions into one output allocation, one temp reused.
        for (k, (reduce, source)) in [(&sum, &source), (&max, &source)].into_iter().enumerate() {
            reduce
                .record(
                    &stream,
                    inner(source),
                    Slice::cuda(&results, 64 + 16 * k as u64),
                    n as u32,
                    (&scratch).into(),
                )
                .expect("queues");
        }
        fsum.record(
            &stream,
            Slice::cuda(&float_source, 64),
            Slice::cuda(&results, 64 + 32),
            n as u32,
            (&scratch).into(),
        )
        .expect("queues");
        let host = stream.clone_dtoh(&results).expect("copies back");
        let got = &host[PAD..];
        let want_sum = words.iter().fold(0u32, |a, &b| a.wrapping_add(b));
        let want_max = words.iter().map(|&w| w as i32).max().expect("n > 0");
        assert_eq!(got[0], want_sum, "sum u32, n = {n}");
        assert_eq!(got[4] as i32, want_max, "max i32, n = {n}");
        let want_f: f64 = floats.iter().map(|&x| f64::from(x)).sum();
        let bound: f64 = 1e-5 * floats.iter().map(|&x| f64::from(x).abs()).sum::<f64>() + 1.0;
        let got_f = f64::from(f32::from_bits(got[8]));
        assert!(
            (got_f - want_f).abs() <= bound,
            "sum f32, n = {n}: got {got_f}, want {want_f}"
        );
    }
}

#[test]
fn arg_and_transform_reductions_on_a_stream() {
    let Some(ctx) = context() else { return };
    let stream = ctx.new_stream().expect("a stream");
    let arg_min = ArgReduce::new(&ctx, ArgOp::Min, ReduceType::F32).expect("builds");
    let arg_max = ArgReduce::new(&ctx, ArgOp::Max, ReduceType::I32).expect("builds");
    let transform = TransformReduce::new(
        &ctx,
        Dtype::U32,
        "fn transform(x: u32) -> i32 { return i32(x % 1000u) - 500; }",
        ReduceOp::Sum,
        ReduceType::I32,
    )
    .expect("builds");
    for (i, &n) in [0].iter().chain(&SIZES).enumerate() {
        // Few distinct values: ties everywhere, the first index must win.
        let words = random(n, 64, 140 + i as u64);
        let floats: Vec<f32> = words.iter().map(|&w| w as f32 * 0.5 - 16.0).collect();
        let float_source = guarded(&stream, &floats, f32::from_bits(GUARD));
        let int_source = guarded(&stream, &words, GUARD);
        let results = output(&stream, 12);
        let bytes = arg_min
            .temp_storage_bytes(n as u32)
            .max(arg_max.temp_storage_bytes(n as u32))
            .max(transform.temp_storage_bytes(n as u32));
        let scratch = temp(&stream, bytes);
        arg_min
            .record(
                &stream,
                Slice::cuda(&float_source, 64),
                Slice::cuda(&results, 64),
                n as u32,
                (&scratch).into(),
            )
            .expect("queues");
        arg_max
            .record(
                &stream,
                inner(&int_source),
                Slice::cuda(&results, 64 + 16),
                n as u32,
                (&scratch).into(),
            )
            .expect("queues");
        transform
            .record(
                &stream,
                inner(&int_source),
                Slice::cuda(&results, 64 + 32),
                n as u32,
                (&scratch).into(),
            )
            .expect("queues");
        let got = read_u32(&stream, &results, "results");
        // CUB's {index, value}; {1, max} / {1, lowest} for no elements.
        let first = |better: &dyn Fn(usize, usize) -> bool| {
            (0..n).fold(None, |best: Option<usize>, j| match best {
                Some(b) if !better(j, b) => Some(b),
                _ => Some(j),
            })
        };
        let want_min = first(&|a, b| floats[a] < floats[b])
            .map_or([1, f32::MAX.to_bits()], |j| [j as u32, floats[j].to_bits()]);
        let want_max = first(&|a, b| (words[a] as i32) > (words[b] as i32))
            .map_or([1, i32::MIN as u32], |j| [j as u32, words[j]]);
        assert_eq!(got[0..2], want_min, "ArgMin f32, n = {n}");
        assert_eq!(got[4..6], want_max, "ArgMax i32, n = {n}");
        let want_sum = words
            .iter()
            .fold(0i32, |a, &x| a.wrapping_add((x % 1000) as i32 - 500));
        assert_eq!(got[8] as i32, want_sum, "TransformReduce, n = {n}");
    }
}

#[test]
fn adjacent_differences_on_a_stream() {
    let Some(ctx) = context() else { return };
    let stream = ctx.new_stream().expect("a stream");
    let left = AdjacentDifference::new(&ctx, Dtype::U32, Subtract::Left, None).expect("builds");
    let right = AdjacentDifference::new(
        &ctx,
        Dtype::I32,
        Subtract::Right,
        Some("fn difference(a: i32, b: i32) -> i32 { return 3 * a - b; }"),
    )
    .expect("builds");
    for (i, &n) in SIZES.iter().enumerate() {
        let input = random(n, 0, 160 + i as u64);
        let source = guarded(&stream, &input, GUARD);
        // Left, copy.
        let out = output(&stream, n);
        left.record(&stream, inner(&source), inner(&out), n as u32)
            .expect("queues");
        // Right, copy.
        let out_right = output(&stream, n);
        right
            .record(&stream, inner(&source), inner(&out_right), n as u32)
            .expect("queues");
        // Right, in place on a copy of the input.
        let data = guarded(&stream, &input, GUARD);
        let scratch = temp(&stream, right.temp_storage_bytes(n as u32));
        right
            .record_in_place(&stream, inner(&data), n as u32, (&scratch).into())
            .expect("queues");
        let want_left: Vec<u32> = (0..n)
            .map(|j| {
                if j == 0 {
                    input[0]
                } else {
                    input[j].wrapping_sub(input[j - 1])
                }
            })
            .collect();
        let want_right: Vec<u32> = (0..n)
            .map(|j| {
                if j + 1 == n {
                    input[j]
                } else {
                    (input[j] as i32)
                        .wrapping_mul(3)
                        .wrapping_sub(input[j + 1] as i32) as u32
                }
            })
            .collect();
        assert_same(
            &read_u32(&stream, &out, "left"),
            &want_left,
            &format!("SubtractLeftCopy u32, n = {n}"),
        );
        assert_same(
            &read_u32(&stream, &out_right, "right copy"),
            &want_right,
            &format!("SubtractRightCopy, i32 3a - b, n = {n}"),
        );
        assert_same(
            &read_u32(&stream, &data, "right"),
            &want_right,
            &format!("SubtractRight in place, i32 3a - b, n = {n}"),
        );
    }
}

#[test]
fn binary_searches_on_a_stream() {
    let Some(ctx) = context() else { return };
    let stream = ctx.new_stream().expect("a stream");
    let lower = BinarySearch::new(&ctx, Dtype::U32, Bound::Lower).expect("builds");
    let upper = BinarySearch::new(&ctx, Dtype::I32, Bound::Upper).expect("builds");
    for (i, &n) in SIZES.iter().enumerate() {
        // A haystack of n sorted keys with repeats; needles around them.
        let mut haystack = random(n, (n as u32 / 4).max(2), 180 + i as u64);
        haystack.sort_unstable();
        let k = n.min(50_000) + 3;
        let needles = random(k, (n as u32 / 4).max(2) + 2, 190 + i as u64);
        let haystack_memory = guarded(&stream, &haystack, GUARD);
        let needles_memory = guarded(&stream, &needles, GUARD);
        let (lower_out, upper_out) = (output(&stream, k), output(&stream, k));
        for (search, out) in [(&lower, &lower_out), (&upper, &upper_out)] {
            search
                .record(
                    &stream,
                    inner(&haystack_memory),
                    n as u32,
                    inner(&needles_memory),
                    k as u32,
                    inner(out),
                )
                .expect("queues");
        }
        let want_lower: Vec<u32> = needles
            .iter()
            .map(|&x| haystack.partition_point(|&h| h < x) as u32)
            .collect();
        // i32 order: the keys are below 2^31, so the same as u32's.
        let want_upper: Vec<u32> = needles
            .iter()
            .map(|&x| haystack.partition_point(|&h| (h as i32) <= (x as i32)) as u32)
            .collect();
        assert_same(
            &read_u32(&stream, &lower_out, "lower"),
            &want_lower,
            &format!("LowerBound u32, n = {n}"),
        );
        assert_same(
            &read_u32(&stream, &upper_out, "upper"),
            &want_upper,
            &format!("UpperBound i32, n = {n}"),
        );
    }
}

#[test]
fn partitions_and_unique_on_a_stream() {
    let Some(ctx) = context() else { return };
    let stream = ctx.new_stream().expect("a stream");
    let by_predicate = PartitionIf::new(
        &ctx,
        Dtype::U32,
        "fn keep(x: u32) -> bool { return x % 3u == 1u; }",
    )
    .expect("builds");
    assert_eq!(by_predicate.algorithm(), ScanAlgorithm::DecoupledLookBack);
    let flagged = PartitionFlagged::new(&ctx, Dtype::U32, FlagType::U8).expect("builds");
    let unique = Unique::new(&ctx, Dtype::U32).expect("builds");
    // CUB's partition: the kept in order, then the others reversed.
    let partition = |input: &[u32], keep: &dyn Fn(usize) -> bool| -> (Vec<u32>, u32) {
        let (mut kept, mut rejected) = (Vec::new(), Vec::new());
        for (j, &x) in input.iter().enumerate() {
            if keep(j) {
                kept.push(x)
            } else {
                rejected.push(x)
            }
        }
        let count = kept.len() as u32;
        kept.extend(rejected.into_iter().rev());
        (kept, count)
    };
    for (i, &n) in SIZES.iter().enumerate() {
        let input = runs_input(n, 200 + i as u64);
        let source = guarded(&stream, &input, GUARD);
        let bytes = by_predicate
            .temp_storage_bytes(n as u32)
            .max(flagged.temp_storage_bytes(n as u32))
            .max(unique.temp_storage_bytes(n as u32));
        let scratch = temp(&stream, bytes);
        let counts = output(&stream, 12);
        let (parted, flag_parted, uniques) =
            (output(&stream, n), output(&stream, n), output(&stream, n));
        by_predicate
            .record(
                &stream,
                inner(&source),
                inner(&parted),
                Slice::cuda(&counts, 64),
                n as u32,
                (&scratch).into(),
            )
            .expect("queues");
        let flag_bytes: Vec<u8> = (0..n.next_multiple_of(4))
            .map(|j| u8::from(j < n && j % 5 < 2))
            .collect();
        let flags = stream.clone_htod(&flag_bytes).expect("copies flags");
        flagged
            .record(
                &stream,
                inner(&source),
                (&flags).into(),
                inner(&flag_parted),
                Slice::cuda(&counts, 64 + 16),
                n as u32,
                (&scratch).into(),
            )
            .expect("queues");
        unique
            .record(
                &stream,
                inner(&source),
                inner(&uniques),
                Slice::cuda(&counts, 64 + 32),
                n as u32,
                (&scratch).into(),
            )
            .expect("queues");
        let count = read_u32(&stream, &counts, "counts");
        let (want, kept) = partition(&input, &|j| input[j] % 3 == 1);
        assert_eq!(count[0], kept, "PartitionIf count, n = {n}");
        assert_same(
            &read_u32(&stream, &parted, "parted"),
            &want,
            &format!("PartitionIf, n = {n}"),
        );
        let (want, kept) = partition(&input, &|j| j % 5 < 2);
        assert_eq!(count[4], kept, "PartitionFlagged count, n = {n}");
        assert_same(
            &read_u32(&stream, &flag_parted, "flag parted"),
            &want,
            &format!("PartitionFlagged, n = {n}"),
        );
        let (want_unique, _) = run_length_reference(&input);
        assert_eq!(
            count[8] as usize,
            want_unique.len(),
            "Unique count, n = {n}"
        );
        assert_same(
            &read_u32(&stream, &uniques, "unique")[..want_unique.len()],
            &want_unique,
            &format!("Unique, n = {n}"),
        );
    }
}

#[test]
fn radix_sorts_on_a_stream() {
    let Some(ctx) = context() else { return };
    let stream = ctx.new_stream().expect("a stream");
    let keys = RadixSort::keys(&ctx, KeyType::U32).expect("builds");
    let pairs = RadixSort::pairs(&ctx, KeyType::U32).expect("builds");
    let floats = RadixSort::keys(&ctx, KeyType::F32).expect("builds");
    let low_bits = RadixSort::new(
        &ctx,
        RadixSortOptions {
            key: KeyType::U32,
            pairs: true,
            bits: 4..20,
            algorithm: None,
        },
    )
    .expect("builds");
    let wide = RadixSort::keys(&ctx, KeyType::U64).expect("builds");
    for (i, &n) in SIZES.iter().enumerate() {
        let input = random(n, if i % 3 == 0 { 64 } else { 0 }, 70 + i as u64);
        let source = guarded(&stream, &input, GUARD);
        let index: Vec<u32> = (0..n as u32).collect();
        let values = guarded(&stream, &index, GUARD);
        let bytes = [&keys, &pairs, &floats, &low_bits, &wide]
            .iter()
            .map(|s| s.temp_storage_bytes(n as u32))
            .max()
            .expect("sorts");
        let scratch = temp(&stream, bytes);

        let out = output(&stream, n);
        keys.record_keys(
            &stream,
            inner(&source),
            inner(&out),
            n as u32,
            (&scratch).into(),
        )
        .expect("queues");
        let mut want = input.clone();
        want.sort_unstable();
        assert_same(
            &read_u32(&stream, &out, "keys"),
            &want,
            &format!("u32 keys, n = {n}"),
        );

        for (name, sort, mask) in [
            ("pairs", &pairs, u32::MAX),
            ("bits 4..20", &low_bits, 0xffff0),
        ] {
            let (keys_out, values_out) = (output(&stream, n), output(&stream, n));
            sort.record_pairs(
                &stream,
                inner(&source),
                inner(&keys_out),
                inner(&values),
                inner(&values_out),
                n as u32,
                (&scratch).into(),
            )
            .expect("queues");
            let mut want: Vec<(u32, u32)> = input.iter().copied().zip(0..).collect();
            want.sort_by_key(|&(k, _)| k & mask);
            let (want_keys, want_values): (Vec<u32>, Vec<u32>) = want.into_iter().unzip();
            assert_same(
                &read_u32(&stream, &keys_out, name),
                &want_keys,
                &format!("{name} keys, n = {n}"),
            );
            assert_same(
                &read_u32(&stream, &values_out, name),
                &want_values,
                &format!("{name} values (stable), n = {n}"),
            );
        }

        let float_keys: Vec<f32> = input
            .iter()
            .map(|&w| {
                if w % 7 == 0 {
                    -0.0
                } else {
                    (w as i32) as f32 * 1e-3
                }
            })
            .collect();
        let float_source = guarded(&stream, &float_keys, 0.0f32);
        let float_out = guarded(&stream, &vec![0.0f32; n], 0.0f32);
        floats
            .record_keys(
                &stream,
                Slice::cuda(&float_source, 64),
                Slice::cuda(&float_out, 64),
                n as u32,
                (&scratch).into(),
            )
            .expect("queues");
        let got: Vec<u32> = stream.clone_dtoh(&float_out).expect("copies back")[PAD..PAD + n]
            .iter()
            .map(|x| x.to_bits())
            .collect();
        let mut want = float_keys.clone();
        want.sort_by(f32::total_cmp);
        let want: Vec<u32> = want.iter().map(|x| x.to_bits()).collect();
        assert_same(&got, &want, &format!("f32 keys, n = {n}"));

        let wide_keys: Vec<u64> = input
            .iter()
            .zip(input.iter().rev())
            .map(|(&a, &b)| (u64::from(a) << 32 | u64::from(b)) >> (i % 4))
            .collect();
        let wide_source = guarded(&stream, &wide_keys, 0u64);
        let wide_out = guarded(&stream, &vec![0u64; n], 0u64);
        wide.record_keys(
            &stream,
            Slice::cuda(&wide_source, 64),
            Slice::cuda(&wide_out, 64),
            n as u32,
            (&scratch).into(),
        )
        .expect("queues");
        let got = stream.clone_dtoh(&wide_out).expect("copies back")[8..8 + n].to_vec();
        let mut want = wide_keys.clone();
        want.sort_unstable();
        assert_same(&got, &want, &format!("u64 keys, n = {n}"));
    }
}

#[test]
fn segmented_sort_select_run_length_and_histogram_on_a_stream() {
    let Some(ctx) = context() else { return };
    let stream = ctx.new_stream().expect("a stream");
    let segmented = SegmentedSort::keys(&ctx, KeyType::U32).expect("builds");
    let fixed = FixedSegmentedSort::new(&ctx, KeyType::I32, true, 16).expect("builds");
    let select = SelectIf::new(
        &ctx,
        Dtype::U32,
        "fn keep(x: u32) -> bool { return x % 3u == 1u; }",
    )
    .expect("builds");
    assert_eq!(select.algorithm(), ScanAlgorithm::DecoupledLookBack);
    let rle = RunLengthEncode::new(&ctx, Dtype::U32).expect("builds");
    let flagged = SelectFlagged::new(&ctx, Dtype::U32, FlagType::U8).expect("builds");
    let histogram = histogram_of_thirds(&ctx);
    for (i, &n) in SIZES.iter().enumerate() {
        let input = runs_input(n, 90 + i as u64);
        let source = guarded(&stream, &input, GUARD);
        // Segments of 0 to 3000 keys; of every four, two of 0 to 32 and one
        // of 33 to 64 (the short sort's groups of 1 to 8 lanes by the
        // length, and subgroups that skip the network's widest sizes).
        let mut offsets = vec![0u32];
        let lengths = random(n, 3000, 5 + i as u64);
        for (k, &len) in lengths.iter().enumerate() {
            let last = *offsets.last().expect("one offset");
            let len = match k % 4 {
                0 => len,
                1 => 33 + len % 32,
                _ => len % 33,
            };
            offsets.push((last + len).min(n as u32));
            if last + len >= n as u32 {
                break;
            }
        }
        *offsets.last_mut().expect("an offset") = n as u32;
        let offsets_memory = guarded(&stream, &offsets, GUARD);
        let segments = offsets.len() as u32 - 1;
        let bytes = segmented
            .temp_storage_bytes(n as u32)
            .max(select.temp_storage_bytes(n as u32))
            .max(rle.temp_storage_bytes(n as u32));
        let scratch = temp(&stream, bytes);
        let sorted = output(&stream, n);
        segmented
            .record_keys(
                &stream,
                inner(&source),
                inner(&sorted),
                n as u32,
                inner(&offsets_memory),
                segments,
                (&scratch).into(),
            )
            .expect("queues");
        let mut want = input.clone();
        for w in offsets.windows(2) {
            want[w[0] as usize..w[1] as usize].sort_unstable();
        }
        // Segments of 16 (i32 keys, index values) by the fixed-length sort.
        let index: Vec<u32> = (0..n as u32).collect();
        let values = guarded(&stream, &index, GUARD);
        let (fixed_keys, fixed_values) = (output(&stream, n), output(&stream, n));
        fixed
            .record_pairs(
                &stream,
                inner(&source),
                inner(&fixed_keys),
                inner(&values),
                inner(&fixed_values),
                n as u32,
            )
            .expect("queues");
        let mut want_pairs: Vec<(i32, u32)> = input.iter().map(|&k| k as i32).zip(0..).collect();
        for chunk in want_pairs.chunks_mut(16) {
            chunk.sort_unstable();
        }
        let (want_keys, want_values): (Vec<u32>, Vec<u32>) =
            want_pairs.into_iter().map(|(k, v)| (k as u32, v)).unzip();
        assert_same(
            &read_u32(&stream, &fixed_keys, "fixed keys"),
            &want_keys,
            &format!("fixed keys, n = {n}"),
        );
        assert_same(
            &read_u32(&stream, &fixed_values, "fixed values"),
            &want_values,
            &format!("fixed values, n = {n}"),
        );

        assert_same(
            &read_u32(&stream, &sorted, "segmented"),
            &want,
            &format!("segmented sort, n = {n}"),
        );

        let (selected, counts) = (output(&stream, n), output(&stream, 8));
        select
            .record(
                &stream,
                inner(&source),
                inner(&selected),
                inner(&counts),
                n as u32,
                (&scratch).into(),
            )
            .expect("queues");
        let (unique, run_lengths) = (output(&stream, n), output(&stream, n));
        rle.record(
            &stream,
            inner(&source),
            inner(&unique),
            inner(&run_lengths),
            Slice::cuda(&counts, 64 + 16),
            n as u32,
            (&scratch).into(),
        )
        .expect("queues");
        let bins = guarded(&stream, &[0u32; 40], GUARD);
        histogram
            .record(&stream, inner(&source), inner(&bins), n as u32)
            .expect("queues");

        let count = read_u32(&stream, &counts, "counts");
        let want: Vec<u32> = input.iter().copied().filter(|x| x % 3 == 1).collect();
        assert_eq!(count[0] as usize, want.len(), "select count, n = {n}");
        assert_same(
            &read_u32(&stream, &selected, "select")[..want.len()],
            &want,
            &format!("select, n = {n}"),
        );
        let (want_unique, want_lengths) = run_length_reference(&input);
        let runs = count[4] as usize;
        assert_eq!(runs, want_unique.len(), "runs, n = {n}");
        assert_same(
            &read_u32(&stream, &unique, "unique")[..runs],
            &want_unique,
            &format!("run keys, n = {n}"),
        );
        assert_same(
            &read_u32(&stream, &run_lengths, "lengths")[..runs],
            &want_lengths,
            &format!("run lengths, n = {n}"),
        );
        let want_bins = bins_of_three(&input);
        assert_same(
            &read_u32(&stream, &bins, "bins"),
            &want_bins,
            &format!("histogram, n = {n}"),
        );

        // The elements at even-valued positions of the input, by u8 flags.
        let flag_bytes: Vec<u8> = (0..n.next_multiple_of(4))
            .map(|j| u8::from(j < n && input[j].is_multiple_of(2)))
            .collect();
        let flags = stream.clone_htod(&flag_bytes).expect("copies flags");
        let (kept, kept_count) = (output(&stream, n), output(&stream, 1));
        let scratch = temp(&stream, flagged.temp_storage_bytes(n as u32));
        flagged
            .record(
                &stream,
                inner(&source),
                (&flags).into(),
                inner(&kept),
                inner(&kept_count),
                n as u32,
                (&scratch).into(),
            )
            .expect("queues");
        let want: Vec<u32> = input
            .iter()
            .copied()
            .filter(|x| x.is_multiple_of(2))
            .collect();
        let count = read_u32(&stream, &kept_count, "flagged count")[0] as usize;
        assert_eq!(count, want.len(), "flagged count, n = {n}");
        assert_same(
            &read_u32(&stream, &kept, "flagged")[..count],
            &want,
            &format!("flagged, n = {n}"),
        );
    }
}

#[test]
fn two_algorithms_and_the_callers_copy_share_a_stream() {
    let Some(ctx) = context() else { return };
    let stream = ctx.new_stream().expect("a stream");
    let scan = Scan::exclusive_sum(&ctx, Dtype::U32).expect("builds");
    let reduce = Reduce::new(&ctx, ReduceOp::Max, ReduceType::U32).expect("builds");
    let n = 300_001;
    let input = random(n, 1000, 3);
    let mut source = output(&stream, n);
    let scanned = output(&stream, n);
    let result = output(&stream, 1);
    let scratch = temp(
        &stream,
        scan.temp_storage_bytes(n as u32)
            .max(reduce.temp_storage_bytes(n as u32)),
    );
    // The caller's own copy, then the scan of it, then the reduction of the
    // scan: all queued before anything is read, ordered by the stream.
    let mut staged = vec![GUARD; PAD];
    staged.extend_from_slice(&input);
    staged.extend(std::iter::repeat_n(GUARD, PAD));
    stream
        .memcpy_htod(&staged, &mut source)
        .expect("queues the copy");
    scan.record(
        &stream,
        inner(&source),
        inner(&scanned),
        n as u32,
        (&scratch).into(),
    )
    .expect("queues");
    reduce
        .record(
            &stream,
            inner(&scanned),
            inner(&result),
            n as u32,
            (&scratch).into(),
        )
        .expect("queues");
    let want = exclusive(&input);
    assert_same(
        &read_u32(&stream, &scanned, "scanned"),
        &want,
        "scan of the copy",
    );
    assert_eq!(
        read_u32(&stream, &result, "result")[0],
        *want.last().expect("n > 0"),
        "max of the scan"
    );
}

#[test]
fn bad_cuda_calls_are_errors() {
    let Some(ctx) = context() else { return };
    let stream = ctx.new_stream().expect("a stream");
    let scan = Scan::exclusive_sum(&ctx, Dtype::U32).expect("builds");
    let n = 1000u32;
    let data = output(&stream, n as usize);
    let out = output(&stream, n as usize);
    let scratch = temp(&stream, scan.temp_storage_bytes(n));
    let expect_error = |result: Result<(), wavekit::Error>, needle: &str| {
        let message = result.expect_err("refused").to_string();
        assert!(
            message.contains(needle),
            "{message:?} should say {needle:?}"
        );
    };
    expect_error(
        scan.record(
            &stream,
            Slice::cuda(&data, 68),
            inner(&out),
            n,
            (&scratch).into(),
        ),
        "is not a multiple of 16",
    );
    expect_error(
        scan.record(
            &stream,
            inner(&data),
            inner(&out),
            n + PAD as u32 + 1,
            (&scratch).into(),
        ),
        "do not fit the buffer",
    );
    expect_error(
        scan.record(&stream, inner(&data), inner(&data), n, (&scratch).into()),
        "are the same buffer",
    );
    let small = temp(&stream, 4);
    expect_error(
        scan.record(&stream, inner(&data), inner(&out), n, (&small).into()),
        "`temp`",
    );
    // Nothing was queued by the refused calls: the output keeps its guards.
    assert!(read_u32(&stream, &out, "out").iter().all(|&w| w == GUARD));
}

/// The algorithm a thread of [`eight_streams_run_at_once`] builds for
/// itself, recorded on its own stream; returns what the CPU expects of its
/// first output.
fn own_algorithm(
    ctx: &Arc<CudaContext>,
    stream: &Arc<CudaStream>,
    which: usize,
    source: &CudaSlice<u32>,
    out: &CudaSlice<u32>,
    input: &[u32],
) -> Vec<u32> {
    let n = input.len() as u32;
    match which % 3 {
        0 => {
            let reduce = Reduce::new(ctx, ReduceOp::Sum, ReduceType::U32).expect("builds");
            let scratch = temp(stream, reduce.temp_storage_bytes(n));
            reduce
                .record(stream, inner(source), inner(out), n, (&scratch).into())
                .expect("queues");
            stream.synchronize().expect("runs");
            vec![input.iter().fold(0u32, |s, &x| s.wrapping_add(x))]
        }
        1 => {
            let sort = RadixSort::keys(ctx, KeyType::U32).expect("builds");
            let scratch = temp(stream, sort.temp_storage_bytes(n));
            sort.record_keys(stream, inner(source), inner(out), n, (&scratch).into())
                .expect("queues");
            stream.synchronize().expect("runs");
            let mut sorted = input.to_vec();
            sorted.sort_unstable();
            sorted
        }
        _ => {
            let select = SelectIf::new(
                ctx,
                Dtype::U32,
                "fn keep(x: u32) -> bool { return x % 3u == 0u; }",
            )
            .expect("builds");
            let scratch = temp(stream, select.temp_storage_bytes(n));
            let count = output(stream, 1);
            select
                .record(
                    stream,
                    inner(source),
                    inner(out),
                    inner(&count),
                    n,
                    (&scratch).into(),
                )
                .expect("queues");
            let kept: Vec<u32> = input.iter().copied().filter(|x| x % 3 == 0).collect();
            assert_eq!(
                read_u32(stream, &count, "count")[0] as usize,
                kept.len(),
                "the selection's count"
            );
            kept
        }
    }
}

/// Eight threads, each with its own stream on one context, each running a
/// shared scan and an algorithm of its own at the same time, three sizes
/// each; every result checked, and no deadlock within two minutes.
#[test]
fn eight_streams_run_at_once() {
    let Some(ctx) = context() else { return };
    let (sender, results) = std::sync::mpsc::channel();
    let shared = Arc::clone(&ctx);
    std::thread::spawn(move || {
        let ctx = shared;
        let scan = Scan::exclusive_sum(&ctx, Dtype::U32).expect("builds");
        let barrier = std::sync::Barrier::new(8);
        let checked: usize = std::thread::scope(|s| {
            let threads: Vec<_> = (0..8)
                .map(|t| {
                    let (ctx, scan, barrier) = (&ctx, &scan, &barrier);
                    s.spawn(move || {
                        let stream = ctx.new_stream().expect("a stream");
                        barrier.wait();
                        let mut checked = 0;
                        for (round, n) in
                            [1usize, 100_003 + t, (1 << 22) + 5].into_iter().enumerate()
                        {
                            let input = random(n, 1 << 20, (10 * t + round) as u64);
                            let source = guarded(&stream, &input, GUARD);
                            let scanned = output(&stream, n);
                            let scratch = temp(&stream, scan.temp_storage_bytes(n as u32));
                            scan.record(
                                &stream,
                                inner(&source),
                                inner(&scanned),
                                n as u32,
                                (&scratch).into(),
                            )
                            .expect("queues");
                            let out = output(&stream, n);
                            let want = own_algorithm(ctx, &stream, t, &source, &out, &input);
                            let what = format!("thread {t}, n = {n}");
                            assert_same(
                                &read_u32(&stream, &scanned, &what),
                                &exclusive(&input),
                                &format!("{what}: the shared scan"),
                            );
                            let got = read_u32(&stream, &out, &what);
                            assert_same(&got[..want.len()], &want, &what);
                            assert!(
                                got[want.len()..].iter().all(|&w| w == GUARD),
                                "{what}: written past its output"
                            );
                            checked += 1;
                        }
                        checked
                    })
                })
                .collect();
            threads
                .into_iter()
                .map(|h| h.join().expect("a thread's checks pass"))
                .sum()
        });
        sender.send(checked).expect("the test waits");
    });
    let limit = std::time::Duration::from_secs(120);
    match results.recv_timeout(limit) {
        Ok(checked) => assert_eq!(checked, 24, "eight streams, three sizes each"),
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
            panic!("no result after {limit:?}: the streams deadlocked")
        }
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
            panic!("a thread failed (its panic is printed above)")
        }
    }
}

/// A buffer over what a kernel binds (4 GiB) is refused; allocating until
/// the device is full gives the driver's out-of-memory naming the size;
/// the same device then allocates and runs; memory claimed past the
/// binding limit is refused before anything is queued.
#[test]
fn out_of_memory_is_an_error_and_the_device_goes_on() {
    use wavekit::runner::{Gpu, Step};
    if context().is_none() {
        return;
    }
    let gpu = Gpu::open_cuda(0).expect("opens");
    // More than the device holds: the driver's out-of-memory, naming the
    // size (a buffer may exceed what a kernel binds; launches check that).
    let huge = 1u64 << 40;
    let message = gpu
        .buffer(huge)
        .err()
        .expect("a 1 TiB buffer is refused")
        .to_string();
    eprintln!("1 TiB: {message}");
    assert!(
        message.contains(&huge.to_string()) && message.contains("OUT_OF_MEMORY"),
        "{message}"
    );
    // Buffers of 4 GiB until the device has no more: the driver's
    // out-of-memory, naming the size.
    let chunk = (1u64 << 32) - 256;
    let mut held = Vec::new();
    let message = loop {
        match gpu.buffer(chunk) {
            Ok(buffer) => held.push(buffer),
            Err(e) => break e.to_string(),
        }
        assert!(held.len() < 64, "256 GiB allocated without running out");
    };
    eprintln!("after {} buffers of {chunk} bytes: {message}", held.len());
    assert!(
        message.contains(&chunk.to_string()) && message.contains("OUT_OF_MEMORY"),
        "{message}"
    );
    drop(held);
    // A buffer over what a kernel binds is allocated, and a launch that
    // binds it whole is refused before the driver is asked.
    let over = gpu.buffer(1u64 << 32).expect("a 4 GiB buffer");
    let touch = gpu
        .kernel(&composed(&gpu, TOUCH).module, "touch")
        .expect("builds");
    let message = gpu
        .execute(&[Step::dispatch(&touch, &[&over], [1, 1, 1])])
        .expect_err("a launch binding 4 GiB is refused")
        .to_string();
    eprintln!("4 GiB bound: {message}");
    assert!(
        message.contains("4294967296 bytes") && message.contains("lengths as u32"),
        "{message}"
    );
    drop(over);
    // The same device goes on: a buffer, and a device algorithm on it.
    let n = 4096u32;
    let input: Vec<u32> = (0..n).collect();
    let data = gpu
        .upload(bytemuck::cast_slice(&input))
        .expect("a small buffer");
    let result = gpu.buffer(4).expect("a small buffer");
    let reduce = Reduce::new(gpu.library_device(), ReduceOp::Sum, ReduceType::U32).expect("builds");
    let scratch = gpu
        .buffer(reduce.temp_storage_bytes(n).max(4))
        .expect("a small buffer");
    let record = |queue: wavekit::device::Queue<'_>| {
        reduce.record(queue, data.slice(), result.slice(), n, scratch.slice())
    };
    gpu.execute(&[Step::Record(&record)]).expect("runs");
    let sum = u32::from_le_bytes(gpu.read(&result).expect("reads")[..4].try_into().unwrap());
    assert_eq!(sum, input.iter().sum::<u32>());

    // 20 GiB claimed at real addresses: over the 4 GiB a kernel binds.
    let ctx = context().expect("a context");
    let stream = ctx.new_stream().expect("a stream");
    let small = [
        output(&stream, 16),
        output(&stream, 16),
        output(&stream, 16),
    ];
    let claimed = 20u64 << 30;
    let [input, out, scratch] = small.each_ref().map(|memory| {
        use wavekit_native::cudarc::driver::DevicePtr;
        let address = memory.device_ptr(&stream).0;
        // SAFETY: refused before anything reads the claimed bytes.
        unsafe { Slice::from_raw_cuda(address, claimed) }
    });
    let scan = Scan::exclusive_sum(&ctx, Dtype::U32).expect("builds");
    let n = (5u64 << 30) / 4;
    let message = scan
        .record(&stream, input, out, n as u32, scratch)
        .expect_err("refused")
        .to_string();
    eprintln!("20 GiB: {message}");
    assert!(
        message.contains("`input`") && message.contains(&(5u64 << 30).to_string()),
        "{message}"
    );
    for memory in &small {
        assert!(
            read_u32(&stream, memory, "untouched")
                .iter()
                .all(|&w| w == GUARD)
        );
    }
}

/// Set in the child processes of the fault tests: a device fault poisons
/// the whole CUDA context of a process, so each test runs itself again in
/// a process of its own, which does the work and prints what it saw.
const FAULT_CHILD: &str = "WAVEKIT_CUDA_FAULT_CHILD";

/// Runs test `name` of this binary again in a process of its own, with
/// [`FAULT_CHILD`] set (at most a minute), and returns what it printed.
fn in_own_process(name: &str) -> String {
    let started = std::time::Instant::now();
    let mut child = std::process::Command::new(std::env::current_exe().expect("the test binary"))
        .args(["--exact", name, "--nocapture", "--test-threads", "1"])
        .env(FAULT_CHILD, "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the test binary runs");
    let mut killed = false;
    while child.try_wait().expect("waits").is_none() {
        if started.elapsed() > std::time::Duration::from_secs(60) {
            child.kill().expect("kills");
            killed = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("its output");
    if killed {
        panic!(
            "{name} still running after 60 s; it printed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{name}:\n{text}");
    eprintln!("{name} ({:.1?}):\n{text}", started.elapsed());
    text
}

/// What `text` prints from `tag` to the end of its line.
fn line<'a>(text: &'a str, tag: &str) -> &'a str {
    text.lines()
        .find_map(|l| l.find(tag).map(|at| &l[at..]))
        .unwrap_or_else(|| panic!("no {tag} line in:\n{text}"))
}

/// A kernel built without bounds checks that reads 15 GiB past its
/// buffer (`data[0]` is `0xf0000000`; `bench/faults/run.sh` runs it through
/// `wavekit run --unclamped` too).
const OUT_OF_BOUNDS: &str = include_str!("data/reads_past_the_end.wgsl");

/// A kernel that writes its buffer's first word.
const TOUCH: &str = "@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@compute @workgroup_size(1) fn touch() { data[0] = 1u; }
";

/// A kernel that never ends.
const NEVER_ENDS: &str = include_str!("data/never_ends.wgsl");

/// Composes `source` for the GPU and builds `entry` without bounds checks
/// (the fault needs them off; the endless kernel does not care).
fn unchecked_kernel(
    gpu: &wavekit::runner::Gpu,
    source: &str,
    entry: &str,
) -> wavekit::runner::Kernel {
    // SAFETY: the fault is the point; it runs in a process of its own.
    let options = unsafe { wavekit::runner::KernelOptions::default().without_bounds_checks() };
    gpu.kernel_with(&composed(gpu, source).module, entry, options)
        .expect("builds")
}

/// `source` composed for the GPU.
fn composed(gpu: &wavekit::runner::Gpu, source: &str) -> wavekit::compose::Composition {
    wavekit::compose::Composer::new(gpu.target().clone())
        .compose(source, "test.wgsl")
        .unwrap_or_else(|e| panic!("{e}"))
}

/// A fresh device after the fault: opens, and an add runs right.
fn fresh_device_works() -> String {
    use wavekit::runner::Gpu;
    let result = Gpu::open_cuda(0).and_then(|gpu| {
        let reduce = Reduce::new(gpu.library_device(), ReduceOp::Sum, ReduceType::U32)?;
        let data = gpu.upload(bytemuck::cast_slice(&[1u32, 2, 3, 4]))?;
        let out = gpu.buffer(4)?;
        let scratch = gpu.buffer(reduce.temp_storage_bytes(4).max(4))?;
        let record = |queue: wavekit::device::Queue<'_>| {
            reduce.record(queue, data.slice(), out.slice(), 4, scratch.slice())
        };
        gpu.execute(&[wavekit::runner::Step::Record(&record)])?;
        gpu.read(&out)
    });
    match result {
        Ok(bytes) if bytes[..4] == 10u32.to_le_bytes() => "ok".into(),
        Ok(bytes) => format!("wrong sum {:?}", &bytes[..4]),
        Err(e) => e.to_string(),
    }
}

/// The child of [`a_device_fault_is_an_error_naming_the_kernel`]: the
/// fault, a call after it, and a new device.
fn fault_in_this_process() {
    use wavekit::runner::{Binding, Gpu};
    let gpu = Gpu::open_cuda(0).expect("opens");
    let kernel = unchecked_kernel(&gpu, OUT_OF_BOUNDS, "reads_past_the_end");
    let index = (15u32 << 28).to_le_bytes();
    let fault = gpu.run(
        &kernel,
        &[Binding::Input(&index), Binding::Output { size: 128 }],
        [1, 1, 1],
    );
    println!(
        "FAULT: {}",
        fault.err().map_or("none".into(), |e| e.to_string())
    );
    let after = gpu.buffer(16).and_then(|b| gpu.read(&b));
    println!(
        "AFTER: {}",
        after.err().map_or("ok".into(), |e| e.to_string())
    );
    drop(kernel);
    drop(gpu);
    println!("REOPEN: {}", fresh_device_works());
}

/// A kernel that reads out of bounds with checks off: the error names the
/// kernel and what happened (CUDA's illegal address); CUDA is then
/// unusable in the process (its errors of this kind are sticky): every
/// later call is the same error at once, not a hang, opening a new `Gpu`
/// included.
#[test]
fn a_device_fault_is_an_error_naming_the_kernel() {
    if std::env::var_os(FAULT_CHILD).is_some() {
        return fault_in_this_process();
    }
    if context().is_none() {
        return;
    }
    let text = in_own_process("a_device_fault_is_an_error_naming_the_kernel");
    let fault = line(&text, "FAULT:");
    assert!(
        fault.contains("reads_past_the_end") && fault.contains("ILLEGAL_ADDRESS"),
        "{fault}"
    );
    let after = line(&text, "AFTER:");
    assert!(after.contains("ILLEGAL_ADDRESS"), "{after}");
    // CUDA: "the process must be terminated and relaunched" to use CUDA
    // again; a new context in the same process is the same error, at once.
    let reopen = line(&text, "REOPEN:");
    assert!(reopen.contains("ILLEGAL_ADDRESS"), "{reopen}");
}

/// The child of [`a_kernel_that_never_ends_times_out`]: the time-out, then
/// dropping the device and the kernel.
fn never_ending_kernel_in_this_process() {
    use wavekit::runner::{Binding, Gpu};
    let gpu = Gpu::open_cuda(0).expect("opens");
    gpu.set_wait_limit(Some(std::time::Duration::from_secs(2)));
    let kernel = unchecked_kernel(&gpu, NEVER_ENDS, "never_ends");
    let started = std::time::Instant::now();
    let spin = gpu.run(&kernel, &[Binding::ReadWrite(&[0u8; 256])], [1, 1, 1]);
    println!(
        "TIMEOUT: {} after {:.1?}",
        spin.err().map_or("none".into(), |e| e.to_string()),
        started.elapsed()
    );
    let started = std::time::Instant::now();
    drop(gpu);
    println!("GPU DROPPED: after {:.1?}", started.elapsed());
    drop(kernel);
    println!("KERNEL DROPPED: after {:.1?}", started.elapsed());
}

/// A kernel that never ends, with a wait limit of 2 s: the wait fails with
/// an error naming the kernel and the limit, the `Gpu` drops without
/// waiting, and the process exits (which ends the kernel).
#[test]
fn a_kernel_that_never_ends_times_out() {
    if std::env::var_os(FAULT_CHILD).is_some() {
        return never_ending_kernel_in_this_process();
    }
    if context().is_none() {
        return;
    }
    let text = in_own_process("a_kernel_that_never_ends_times_out");
    let timeout = line(&text, "TIMEOUT:");
    assert!(
        timeout.contains("never_ends") && timeout.contains("not finished after 2s"),
        "{timeout}"
    );
    line(&text, "GPU DROPPED:");
    line(&text, "KERNEL DROPPED:");
}

// Issue 35, second batch: by key and segmented.

/// Keys in runs of 1 to 5 and, one run in four, up to 6000 (tiles without
/// a head), consecutive runs of different keys.
fn by_key_keys(n: usize, seed: u64) -> Vec<u32> {
    let raw = random(n + 1, 0, seed);
    let mut keys = Vec::with_capacity(n);
    let mut k = 0u32;
    for &w in &raw {
        if keys.len() >= n {
            break;
        }
        let len = if w.is_multiple_of(4) {
            1 + (w >> 2) as usize % 6000
        } else {
            1 + (w >> 2) as usize % 5
        };
        k = (k + 1 + (w >> 20) % 3) % 40;
        keys.extend(std::iter::repeat_n(k, len.min(n - keys.len())));
    }
    keys
}

#[test]
fn by_key_on_a_stream() {
    use wavekit::device::{ReduceByKey, ScanByKey};
    let Some(ctx) = context() else { return };
    let stream = ctx.new_stream().expect("a stream");
    let reduce = ReduceByKey::new(&ctx, Dtype::U32, Dtype::U32, ScanOperator::Add).expect("builds");
    let inclusive = ScanByKey::new(
        &ctx,
        ScanKind::Inclusive,
        Dtype::U32,
        Dtype::U32,
        ScanOperator::Max,
    )
    .expect("builds");
    let exclusive = ScanByKey::new(
        &ctx,
        ScanKind::Exclusive,
        Dtype::U32,
        Dtype::U32,
        ScanOperator::Add,
    )
    .expect("builds");
    for (i, &n) in SIZES.iter().enumerate() {
        let keys = by_key_keys(n, i as u64 + 1);
        let values = random(n, 1000, i as u64 + 2);
        let (keys_d, values_d) = (
            guarded(&stream, &keys, GUARD),
            guarded(&stream, &values, GUARD),
        );
        let (unique, aggregates, runs) =
            (output(&stream, n), output(&stream, n), output(&stream, 1));
        let (scanned_in, scanned_ex) = (output(&stream, n), output(&stream, n));
        let scratch = temp(&stream, reduce.temp_storage_bytes(n as u32));
        reduce
            .record(
                &stream,
                inner(&keys_d),
                inner(&values_d),
                inner(&unique),
                inner(&aggregates),
                inner(&runs),
                n as u32,
                (&scratch).into(),
            )
            .expect("queues");
        for (scan, out) in [(&inclusive, &scanned_in), (&exclusive, &scanned_ex)] {
            let scratch = temp(&stream, scan.temp_storage_bytes(n as u32));
            scan.record(
                &stream,
                inner(&keys_d),
                inner(&values_d),
                inner(out),
                n as u32,
                (&scratch).into(),
            )
            .expect("queues");
        }
        // The CPU reference.
        let (mut want_keys, mut want_sums) = (Vec::new(), Vec::new());
        let (mut want_in, mut want_ex) = (Vec::new(), Vec::new());
        let (mut max, mut sum) = (0u32, 0u32);
        for j in 0..n {
            if j == 0 || keys[j] != keys[j - 1] {
                want_keys.push(keys[j]);
                want_sums.push(0u32);
                (max, sum) = (0, 0);
            }
            want_ex.push(sum);
            max = max.max(values[j]);
            sum = sum.wrapping_add(values[j]);
            want_in.push(max);
            *want_sums.last_mut().expect("a run") = sum;
        }
        let runs_got = read_u32(&stream, &runs, "ReduceByKey num_runs")[0] as usize;
        assert_eq!(runs_got, want_keys.len(), "ReduceByKey num_runs, n = {n}");
        let got = read_u32(&stream, &unique, "ReduceByKey unique_out");
        assert_same(
            &got[..runs_got],
            &want_keys,
            &format!("ReduceByKey keys, n = {n}"),
        );
        assert!(
            got[runs_got..].iter().all(|&w| w == GUARD),
            "n = {n}: past the runs"
        );
        let got = read_u32(&stream, &aggregates, "ReduceByKey aggregates_out");
        assert_same(
            &got[..runs_got],
            &want_sums,
            &format!("ReduceByKey sums, n = {n}"),
        );
        let got = read_u32(&stream, &scanned_in, "ScanByKey inclusive");
        assert_same(&got, &want_in, &format!("inclusive max by key, n = {n}"));
        let got = read_u32(&stream, &scanned_ex, "ScanByKey exclusive");
        assert_same(&got, &want_ex, &format!("exclusive sum by key, n = {n}"));
    }
}

#[test]
fn segmented_reduce_and_scan_on_a_stream() {
    use wavekit::device::{SegmentedReduce, SegmentedScan};
    let Some(ctx) = context() else { return };
    let stream = ctx.new_stream().expect("a stream");
    let reduce = SegmentedReduce::new(&ctx, Dtype::U32, ScanOperator::Add).expect("builds");
    // A user operator that does not commute: each group combined over the
    // subgroup in lane order.
    let ordered = SegmentedReduce::new(&ctx, Dtype::U32, ScanOperator::custom(AFFINE, "1u << 16u"))
        .expect("builds");
    let scan = SegmentedScan::new(&ctx, ScanKind::Exclusive, Dtype::U32, ScanOperator::Max)
        .expect("builds");
    for (i, &n) in SIZES.iter().enumerate() {
        let input = random(n, 1000, i as u64 + 40);
        // Segments of 0 to 5000 elements, adjacent.
        let (mut begin, mut end) = (Vec::new(), Vec::new());
        let mut pos = 0usize;
        for w in random(n + 1, 0, i as u64 + 41) {
            if pos >= n {
                break;
            }
            let len = if w % 8 == 1 {
                (w >> 4) as usize % 5000
            } else {
                (w >> 4) as usize % 40
            };
            begin.push(pos as u32);
            pos = (pos + len).min(n);
            end.push(pos as u32);
        }
        let segments = begin.len();
        let source = guarded(&stream, &input, GUARD);
        let (begin_d, end_d) = (
            guarded(&stream, &begin, GUARD),
            guarded(&stream, &end, GUARD),
        );
        let (sums, scanned) = (output(&stream, segments), output(&stream, n));
        let composed = output(&stream, segments);
        for (reduce, out) in [(&reduce, &sums), (&ordered, &composed)] {
            reduce
                .record(
                    &stream,
                    inner(&source),
                    n as u32,
                    inner(out),
                    segments as u32,
                    inner(&begin_d),
                    inner(&end_d),
                )
                .expect("queues");
        }
        scan.record(
            &stream,
            inner(&source),
            inner(&scanned),
            n as u32,
            segments as u32,
            inner(&begin_d),
            inner(&end_d),
        )
        .expect("queues");
        // The fixed-size form: segments of 100 over the first n / 100 * 100.
        let fixed = n / 100;
        let fixed_sums = output(&stream, fixed.max(1));
        reduce
            .record_fixed(
                &stream,
                inner(&source),
                inner(&fixed_sums),
                fixed as u32,
                100,
            )
            .expect("queues");
        let mut want_scan = vec![GUARD; n];
        let want_sums: Vec<u32> = begin
            .iter()
            .zip(&end)
            .map(|(&b, &e)| {
                let mut max = 0u32;
                for j in b as usize..e as usize {
                    want_scan[j] = max;
                    max = max.max(input[j]);
                }
                input[b as usize..e as usize]
                    .iter()
                    .fold(0u32, |a, &x| a.wrapping_add(x))
            })
            .collect();
        let got = read_u32(&stream, &sums, "SegmentedReduce");
        assert_same(&got, &want_sums, &format!("SegmentedReduce sums, n = {n}"));
        let want_composed: Vec<u32> = begin
            .iter()
            .zip(&end)
            .map(|(&b, &e)| {
                input[b as usize..e as usize]
                    .iter()
                    .fold(1 << 16, |f, &g| affine_then(f, g))
            })
            .collect();
        let got = read_u32(&stream, &composed, "SegmentedReduce affine");
        assert_same(
            &got,
            &want_composed,
            &format!("SegmentedReduce affine, n = {n}"),
        );
        let got = read_u32(&stream, &scanned, "SegmentedScan");
        assert_same(
            &got,
            &want_scan,
            &format!("SegmentedScan exclusive max, n = {n}"),
        );
        let want_fixed: Vec<u32> = input
            .chunks_exact(100)
            .map(|c| c.iter().fold(0u32, |a, &x| a.wrapping_add(x)))
            .collect();
        let got = read_u32(&stream, &fixed_sums, "SegmentedReduce fixed");
        assert_same(&got[..fixed], &want_fixed, &format!("fixed sums, n = {n}"));
    }
}

#[test]
fn unique_by_key_and_non_trivial_runs_on_a_stream() {
    use wavekit::device::UniqueByKey;
    let Some(ctx) = context() else { return };
    let stream = ctx.new_stream().expect("a stream");
    let unique = UniqueByKey::new(&ctx, Dtype::U32, Dtype::U32).expect("builds");
    let encode = RunLengthEncode::new(&ctx, Dtype::U32).expect("builds");
    for (i, &n) in SIZES.iter().enumerate() {
        let keys = by_key_keys(n, i as u64 + 50);
        let values = random(n, 0, i as u64 + 51);
        let (keys_d, values_d) = (
            guarded(&stream, &keys, GUARD),
            guarded(&stream, &values, GUARD),
        );
        let (keys_out, values_out, count) =
            (output(&stream, n), output(&stream, n), output(&stream, 1));
        let (offsets, lengths, runs) = (output(&stream, n), output(&stream, n), output(&stream, 1));
        let scratch = temp(
            &stream,
            unique
                .temp_storage_bytes(n as u32)
                .max(encode.temp_storage_bytes(n as u32)),
        );
        unique
            .record(
                &stream,
                inner(&keys_d),
                inner(&values_d),
                inner(&keys_out),
                inner(&values_out),
                inner(&count),
                n as u32,
                (&scratch).into(),
            )
            .expect("queues");
        encode
            .non_trivial_runs(
                &stream,
                inner(&keys_d),
                inner(&offsets),
                inner(&lengths),
                inner(&runs),
                n as u32,
                (&scratch).into(),
            )
            .expect("queues");
        let (mut want_keys, mut want_values) = (Vec::new(), Vec::new());
        let (mut want_offsets, mut want_lengths) = (Vec::new(), Vec::new());
        let mut start = 0;
        for j in 0..=n {
            if j == n || (j > 0 && keys[j] != keys[j - 1]) {
                if j - start > 1 {
                    want_offsets.push(start as u32);
                    want_lengths.push((j - start) as u32);
                }
                start = j;
            }
            if j < n && (j == 0 || keys[j] != keys[j - 1]) {
                want_keys.push(keys[j]);
                want_values.push(values[j]);
            }
        }
        let got = read_u32(&stream, &count, "UniqueByKey num_selected")[0] as usize;
        assert_eq!(got, want_keys.len(), "UniqueByKey count, n = {n}");
        let got_keys = read_u32(&stream, &keys_out, "UniqueByKey keys_out");
        assert_same(
            &got_keys[..got],
            &want_keys,
            &format!("UniqueByKey keys, n = {n}"),
        );
        let got_values = read_u32(&stream, &values_out, "UniqueByKey values_out");
        assert_same(
            &got_values[..got],
            &want_values,
            &format!("UniqueByKey values, n = {n}"),
        );
        let got = read_u32(&stream, &runs, "non-trivial runs")[0] as usize;
        assert_eq!(got, want_offsets.len(), "non-trivial runs, n = {n}");
        let got_offsets = read_u32(&stream, &offsets, "non-trivial offsets");
        assert_same(
            &got_offsets[..got],
            &want_offsets,
            &format!("offsets, n = {n}"),
        );
        let got_lengths = read_u32(&stream, &lengths, "non-trivial lengths");
        assert_same(
            &got_lengths[..got],
            &want_lengths,
            &format!("lengths, n = {n}"),
        );
    }
}
// Issue 35, third batch: histogram ranges and channels, merge sort and
// merge, top-k.

/// `Histogram::range` (uneven levels with a repeat) and an RGBA
/// `MultiHistogram::even` with RGB counted, on a stream.
#[test]
fn range_and_multi_channel_histograms_on_a_stream() {
    use wavekit::device::{EvenLevels, MultiHistogram};
    let Some(ctx) = context() else { return };
    let stream = ctx.new_stream().expect("a stream");
    let levels: Vec<u32> = vec![5, 17, 17, 40, 100, 333, 590];
    let range = wavekit::device::Histogram::range(&ctx, Dtype::U32, 6).expect("builds");
    let rgba = rgba_levels();
    let rgb = MultiHistogram::even(&ctx, 4, &rgba).expect("builds");
    for (i, &n) in SIZES.iter().enumerate() {
        let samples = random(n, 600, 300 + i as u64);
        let samples_memory = guarded(&stream, &samples, GUARD);
        let levels_memory = guarded(&stream, &levels, GUARD);
        let range_out = guarded(&stream, &[12345u32; 6], GUARD);
        range
            .record_range(
                &stream,
                inner(&samples_memory),
                inner(&levels_memory),
                inner(&range_out),
                n as u32,
            )
            .expect("queues");
        let pixels = n / 4;
        let rgb_out = guarded(&stream, &vec![12345u32; 323], GUARD);
        rgb.record(
            &stream,
            inner(&samples_memory),
            inner(&rgb_out),
            pixels as u32,
        )
        .expect("queues");
        let mut want = vec![0u32; 6];
        for &x in &samples {
            if x >= levels[0] && x < levels[6] {
                want[levels[1..6].iter().filter(|&&l| l <= x).count()] += 1;
            }
        }
        assert_same(
            &read_u32(&stream, &range_out, "range"),
            &want,
            &format!("HistogramRange, n = {n}"),
        );
        let mut want = vec![0u32; 323];
        let base = [0usize, 60, 67];
        for pixel in samples[..pixels * 4].chunks(4) {
            for (c, &(bins, level)) in rgba.iter().enumerate() {
                let EvenLevels::U32 { lower, upper } = level else {
                    unreachable!()
                };
                let x = pixel[c];
                if (lower..upper).contains(&x) {
                    let b = u64::from(x - lower) * u64::from(bins) / u64::from(upper - lower);
                    want[base[c] + b as usize] += 1;
                }
            }
        }
        assert_same(
            &read_u32(&stream, &rgb_out, "rgb"),
            &want,
            &format!("MultiHistogramEven RGB of RGBA, {pixels} pixels"),
        );
    }
}

/// `MergeSort` pairs by a descending WGSL comparator with ties (stable)
/// and `Merge` of two sorted halves, on a stream.
#[test]
fn merge_sort_and_merge_on_a_stream() {
    use wavekit::device::{Merge, MergeSort};
    let Some(ctx) = context() else { return };
    let stream = ctx.new_stream().expect("a stream");
    let less = "fn less_than(a: u32, b: u32) -> bool {\n    return (a >> 4u) > (b >> 4u);\n}";
    let sort = MergeSort::pairs(&ctx, Dtype::U32, Some(less)).expect("builds");
    let merge = Merge::new(&ctx, Dtype::U32, true, Some(less)).expect("builds");
    let stable = |keys: &[u32], values: &[u32]| {
        let mut pairs: Vec<(u32, u32)> = keys.iter().copied().zip(values.iter().copied()).collect();
        pairs.sort_by_key(|&(k, _)| std::cmp::Reverse(k >> 4));
        pairs.into_iter().unzip::<u32, u32, Vec<u32>, Vec<u32>>()
    };
    // The shared sizes and the edges of the sort's tile.
    let tile = sort.tile() as usize;
    let sizes = SIZES
        .iter()
        .copied()
        .chain([tile - 1, tile, tile + 1, 2 * tile + 1]);
    for (i, n) in sizes.enumerate() {
        let keys = random(n, 5000, 400 + i as u64);
        let values: Vec<u32> = (0..n as u32).collect();
        let (want_keys, want_values) = stable(&keys, &values);
        let keys_memory = guarded(&stream, &keys, GUARD);
        let values_memory = guarded(&stream, &values, GUARD);
        let (keys_out, values_out) = (output(&stream, n), output(&stream, n));
        let scratch = temp(&stream, sort.temp_storage_bytes(n as u32));
        sort.record_pairs(
            &stream,
            [inner(&keys_memory), inner(&keys_out)],
            [inner(&values_memory), inner(&values_out)],
            n as u32,
            (&scratch).into(),
        )
        .expect("queues");
        assert_same(
            &read_u32(&stream, &keys_out, "sorted keys"),
            &want_keys,
            &format!("MergeSort keys, n = {n}"),
        );
        assert_same(
            &read_u32(&stream, &values_out, "sorted values"),
            &want_values,
            &format!("MergeSort values (stable), n = {n}"),
        );
        // Merge the sorted first third and the sorted rest.
        let cut = n / 3;
        let (ka, va) = stable(&keys[..cut], &values[..cut]);
        let (kb, vb) = stable(&keys[cut..], &values[cut..]);
        let memory = |words: &[u32]| guarded(&stream, words, GUARD);
        let (ka_m, va_m, kb_m, vb_m) = (memory(&ka), memory(&va), memory(&kb), memory(&vb));
        let (ko, vo) = (output(&stream, n), output(&stream, n));
        merge
            .record_pairs(
                &stream,
                [inner(&ka_m), inner(&kb_m), inner(&ko)],
                [inner(&va_m), inner(&vb_m), inner(&vo)],
                (cut as u32, (n - cut) as u32),
            )
            .expect("queues");
        assert_same(
            &read_u32(&stream, &ko, "merged keys"),
            &want_keys,
            &format!("Merge keys, n = {n}"),
        );
        assert_same(
            &read_u32(&stream, &vo, "merged values"),
            &want_values,
            &format!("Merge values (stable), n = {n}"),
        );
    }
}

/// `TopK` pairs, largest f32 (sorted and unordered) and smallest i32 with
/// ties, on a stream.
#[test]
fn top_k_on_a_stream() {
    use wavekit::device::{TopK, TopKOrder, TopKOutput};
    let Some(ctx) = context() else { return };
    let stream = ctx.new_stream().expect("a stream");
    let largest = TopK::new(&ctx, KeyType::F32, TopKOrder::Largest, true).expect("builds");
    let smallest = TopK::new(&ctx, KeyType::I32, TopKOrder::Smallest, true).expect("builds");
    let unordered = TopK::with_output(
        &ctx,
        KeyType::F32,
        TopKOrder::Largest,
        true,
        TopKOutput::Unordered,
    )
    .expect("builds");
    for (i, &n) in SIZES.iter().enumerate() {
        let raw = random(n, 3000, 500 + i as u64);
        let values: Vec<u32> = (0..n as u32).map(|v| v ^ 0x77).collect();
        let k = n.min(1024);
        let floats: Vec<u32> = raw
            .iter()
            .map(|&w| (w as f32 * 0.5 - 700.0).to_bits())
            .collect();
        for (top, keys) in [
            (&largest, floats.clone()),
            (
                &smallest,
                raw.iter().map(|&w| (w as i32 - 1500) as u32).collect(),
            ),
            (&unordered, floats),
        ] {
            let mut order: Vec<usize> = (0..n).collect();
            if top.order() == TopKOrder::Largest {
                order.sort_by(|&a, &b| {
                    f32::from_bits(keys[b])
                        .total_cmp(&f32::from_bits(keys[a]))
                        .then(a.cmp(&b))
                });
            } else {
                order.sort_by_key(|&a| (keys[a] as i32, a));
            }
            order.truncate(k);
            let keys_memory = guarded(&stream, &keys, GUARD);
            let values_memory = guarded(&stream, &values, GUARD);
            let (keys_out, values_out) = (output(&stream, k), output(&stream, k));
            let scratch = temp(&stream, top.temp_storage_bytes(n as u32, k as u32));
            top.record_pairs(
                &stream,
                [inner(&keys_memory), inner(&keys_out)],
                [inner(&values_memory), inner(&values_out)],
                (n as u32, k as u32),
                (&scratch).into(),
            )
            .expect("queues");
            let what = format!(
                "TopK {:?} {:?} {:?}, n = {n}, k = {k}",
                top.key(),
                top.order(),
                top.output()
            );
            let mut want: Vec<(u32, u32)> = order.iter().map(|&j| (keys[j], values[j])).collect();
            let mut got: Vec<(u32, u32)> = read_u32(&stream, &keys_out, "top keys")
                .into_iter()
                .zip(read_u32(&stream, &values_out, "top values"))
                .collect();
            if top.output() == TopKOutput::Unordered {
                // The same k in no order: compared as multisets.
                want.sort_unstable();
                got.sort_unstable();
            }
            assert_eq!(got.len(), want.len(), "{what}: outputs");
            let unzip = |p: &[(u32, u32)]| -> (Vec<u32>, Vec<u32>) { p.iter().copied().unzip() };
            let ((got_keys, got_values), (want_keys, want_values)) = (unzip(&got), unzip(&want));
            assert_same(&got_keys, &want_keys, &what);
            assert_same(&got_values, &want_values, &what);
        }
    }
    // Batched: 300 rows of 3001 keys with ties, the 16 least of each.
    let (rows, len, k) = (300usize, 3001usize, 16usize);
    let keys: Vec<u32> = random(rows * len, 500, 600)
        .into_iter()
        .map(|w| (w as i32 - 250) as u32)
        .collect();
    let keys_memory = guarded(&stream, &keys, GUARD);
    let keys_out = output(&stream, rows * k);
    let scratch = temp(
        &stream,
        smallest.temp_storage_bytes_batched(rows as u32, len as u32, k as u32),
    );
    let keys_only = TopK::new(&ctx, KeyType::I32, TopKOrder::Smallest, false).expect("builds");
    keys_only
        .record_batched_keys(
            &stream,
            [inner(&keys_memory), inner(&keys_out)],
            (rows as u32, len as u32, k as u32),
            (&scratch).into(),
        )
        .expect("queues");
    let mut want = Vec::new();
    for row in keys.chunks(len) {
        let mut sorted: Vec<i32> = row.iter().map(|&w| w as i32).collect();
        sorted.sort_unstable();
        want.extend(sorted[..k].iter().map(|&x| x as u32));
    }
    assert_same(
        &read_u32(&stream, &keys_out, "batched top keys"),
        &want,
        "TopK batched, 300 rows of 3001, k = 16",
    );
}

// Issue 35, fourth batch: the three-way partition, segmented
// arg-reductions.

#[test]
fn three_way_partition_and_segmented_arg_on_a_stream() {
    use wavekit::device::{SegmentedArgReduce, ThreeWayPartition};
    let Some(ctx) = context() else { return };
    let stream = ctx.new_stream().expect("a stream");
    let three_way = ThreeWayPartition::new(
        &ctx,
        Dtype::U32,
        "fn first_part(x: u32) -> bool { return x % 3u == 1u; }",
        "fn second_part(x: u32) -> bool { return x % 3u == 2u; }",
    )
    .expect("builds");
    assert_eq!(three_way.algorithm(), ScanAlgorithm::DecoupledLookBack);
    let arg_min = SegmentedArgReduce::new(&ctx, ArgOp::Min, ReduceType::F32).expect("builds");
    for (i, &n) in SIZES.iter().enumerate() {
        let input = random(n, 1000, 300 + i as u64);
        let source = guarded(&stream, &input, GUARD);
        let scratch = temp(&stream, three_way.temp_storage_bytes(n as u32));
        let parts = [output(&stream, n), output(&stream, n), output(&stream, n)];
        let counts = output(&stream, 2);
        three_way
            .record(
                &stream,
                inner(&source),
                inner(&parts[0]),
                inner(&parts[1]),
                inner(&parts[2]),
                inner(&counts),
                n as u32,
                (&scratch).into(),
            )
            .expect("queues");
        // CUB's parts, each in input order.
        let mut want: [Vec<u32>; 3] = Default::default();
        for &x in &input {
            want[[2, 0, 1][(x % 3) as usize]].push(x);
        }
        assert_eq!(
            read_u32(&stream, &counts, "counts"),
            [want[0].len() as u32, want[1].len() as u32],
            "ThreeWayPartition counts, n = {n}"
        );
        for (part, want) in parts.iter().zip(&want) {
            let got = read_u32(&stream, part, "a part");
            assert_same(
                &got[..want.len()],
                want,
                &format!("ThreeWayPartition, n = {n}"),
            );
            assert!(got[want.len()..].iter().all(|&w| w == GUARD));
        }
        // Segmented ArgMin of f32 with ties, NaN and empty segments:
        // segments of 0 to 600 elements, adjacent.
        let values: Vec<f32> = input
            .iter()
            .map(|&w| {
                if w % 17 == 3 {
                    f32::NAN
                } else {
                    (w % 50) as f32 - 25.0
                }
            })
            .collect();
        let (mut begin, mut end) = (Vec::new(), Vec::new());
        let mut pos = 0usize;
        for w in random(n + 1, 600, 301 + i as u64) {
            if pos >= n {
                break;
            }
            begin.push(pos as u32);
            pos = (pos + w as usize % if w % 5 == 0 { 600 } else { 9 }).min(n);
            end.push(pos as u32);
        }
        let data = guarded(&stream, &values, f32::NAN);
        let (begin_d, end_d) = (
            guarded(&stream, &begin, GUARD),
            guarded(&stream, &end, GUARD),
        );
        let pairs = output(&stream, 2 * begin.len());
        arg_min
            .record(
                &stream,
                inner(&data),
                n as u32,
                inner(&pairs),
                begin.len() as u32,
                inner(&begin_d),
                inner(&end_d),
            )
            .expect("queues");
        let want: Vec<u32> = begin
            .iter()
            .zip(&end)
            .flat_map(|(&b, &e)| {
                let segment = &values[b as usize..e as usize];
                let mut best: Option<usize> = None;
                for (j, x) in segment.iter().enumerate() {
                    if !x.is_nan() && best.is_none_or(|k| *x < segment[k]) {
                        best = Some(j);
                    }
                }
                match best {
                    Some(j) => [j as u32, segment[j].to_bits()],
                    None => [1, f32::MAX.to_bits()],
                }
            })
            .collect();
        assert_same(
            &read_u32(&stream, &pairs, "pairs"),
            &want,
            &format!("SegmentedArgReduce ArgMin f32, n = {n}"),
        );
    }
}

/// A kernel's workgroup memory past the 48 KiB ptxas allows statically is
/// dynamic shared memory natively: 100 KiB builds and runs right; 300 KiB,
/// past what any NVIDIA GPU gives a block (227 KiB on an H100 or H200), is
/// refused when built, naming the kernel, its bytes and the device's limit.
#[test]
fn workgroup_memory_past_the_device_limit_is_an_error() {
    use wavekit::runner::{Binding, Gpu};
    if context().is_none() {
        return;
    }
    let gpu = Gpu::open_cuda(0).expect("opens");
    let source = |words: u32| {
        format!(
            "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n\
             var<workgroup> big: array<u32, {words}>;\n\
             @compute @workgroup_size(256)\n\
             fn main(@builtin(local_invocation_index) t: u32) {{\n\
                 for (var i = t; i < {words}u; i += 256u) {{ big[i] = i; }}\n\
                 workgroupBarrier();\n\
                 out[t] = big[{words}u - 1u - t];\n\
             }}\n"
        )
    };
    let words = 25_600;
    let kernel = gpu
        .kernel(&composed(&gpu, &source(words)).module, "main")
        .expect("100 KiB of workgroup memory builds");
    let out = gpu
        .run(&kernel, &[Binding::ReadWrite(&[0u8; 1024])], [1, 1, 1])
        .expect("runs");
    let got: Vec<u32> = out[0]
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes(w.try_into().expect("4 bytes")))
        .collect();
    let want: Vec<u32> = (0..256).map(|t| words - 1 - t).collect();
    assert_eq!(got, want);
    let refused = gpu
        .kernel(&composed(&gpu, &source(76_800)).module, "main")
        .err()
        .expect("300 KiB of workgroup memory is refused")
        .to_string();
    assert!(
        refused.contains("`main` 307200 bytes of dynamic shared memory")
            && refused.contains("the device's limit is"),
        "{refused}"
    );
}
