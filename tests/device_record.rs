//! `wavekit::device` calls recorded with other work: a scan and a radix
//! sort recorded into one command encoder around the caller's own copy, a
//! selection and a histogram of its output in another, checked after one
//! submit; and calls with bad slices, which must return
//! an error naming the numbers and record nothing, never panic; sizes at
//! and over the limits, refused the same way, and a good call after them.

mod device_support;

use device_support::*;
use wavekit::Dtype;
use wavekit::device::{
    EvenLevels, FixedSegmentedSort, FlagType, Histogram, KeyType, RadixSort, Reduce, ReduceOp,
    ReduceType, RunLengthEncode, Scan, ScanAlgorithm, SegmentedSort, SelectFlagged, SelectIf,
    Slice,
};

#[test]
fn two_algorithms_and_a_copy_in_one_encoder() {
    let (device, queue) = open();
    let n = 5000usize;
    let keys: Vec<u32> = random(n, 0, 1);
    let counts: Vec<u32> = random(n, 100, 2);
    let keys_in = guarded(&device, &keys, 0, 0);
    let sorted = zeroed(&device, 4 * n as u64);
    let counts_in = guarded(&device, &counts, 0, 0);
    let copied = zeroed(&device, 4 * n as u64);
    let offsets = zeroed(&device, 4 * n as u64);
    let sort = RadixSort::keys(&device, KeyType::U32).expect("builds");
    let scan = Scan::exclusive_sum(&device, Dtype::U32).expect("builds");
    // One temp buffer, used by both calls one after the other.
    let temp_bytes = sort
        .temp_storage_bytes(n as u32)
        .max(scan.temp_storage_bytes(n as u32));
    let temp = zeroed(&device, temp_bytes);
    let mut encoder = encoder(&device);
    sort.record_keys(
        &mut encoder,
        (&keys_in).into(),
        (&sorted).into(),
        n as u32,
        (&temp).into(),
    )
    .expect("records the sort");
    // The caller's own work between the two: the scan reads the copy.
    encoder.copy_buffer_to_buffer(&counts_in, 0, &copied, 0, 4 * n as u64);
    scan.record(
        &mut encoder,
        (&copied).into(),
        (&offsets).into(),
        n as u32,
        (&temp).into(),
    )
    .expect("records the scan");
    let read = submit_and_read(&device, &queue, encoder, &[&sorted, &offsets]);
    let mut want = keys.clone();
    want.sort_unstable();
    assert_same(&read[0], &want, "sorted keys");
    let want: Vec<u32> = counts
        .iter()
        .scan(0u32, |s, &x| {
            let before = *s;
            *s += x;
            Some(before)
        })
        .collect();
    assert_same(&read[1], &want, "offsets");
}

#[test]
fn a_selection_and_a_histogram_of_its_output_in_one_encoder() {
    let (device, queue) = open();
    let n = 30_000usize;
    let samples: Vec<u32> = random(n, 1000, 3);
    let input = guarded(&device, &samples, 0, 0);
    let kept = zeroed(&device, 4 * n as u64);
    let count = zeroed(&device, 4);
    let bins = zeroed(&device, 4 * 10);
    let select = SelectIf::new(
        &device,
        Dtype::U32,
        "fn keep(x: u32) -> bool { return x >= 500u; }",
    )
    .expect("builds");
    let histogram = Histogram::even(
        &device,
        10,
        EvenLevels::U32 {
            lower: 0,
            upper: 1000,
        },
    )
    .expect("builds");
    let temp = zeroed(&device, select.temp_storage_bytes(n as u32));
    let mut encoder = encoder(&device);
    select
        .record(
            &mut encoder,
            (&input).into(),
            (&kept).into(),
            (&count).into(),
            n as u32,
            (&temp).into(),
        )
        .expect("records the selection");
    // The histogram reads all n words of `kept`: the rest are zero (bin 0).
    histogram
        .record(&mut encoder, (&kept).into(), (&bins).into(), n as u32)
        .expect("records the histogram");
    let read = submit_and_read(&device, &queue, encoder, &[&count, &bins]);
    let want: Vec<u32> = samples.iter().copied().filter(|&x| x >= 500).collect();
    assert_eq!(read[0][0] as usize, want.len(), "count");
    let mut want_bins = vec![0u32; 10];
    want_bins[0] = (n - want.len()) as u32;
    for &x in &want {
        want_bins[(x / 100) as usize] += 1;
    }
    assert_same(&read[1], &want_bins, "bins of the kept elements");
}

/// STORAGE alone is enough for temp: the look-back state and the tile
/// counter are zeroed by a dispatch in the scan's pass, not `clear_buffer`
/// (which needs COPY_DST); both algorithms, twice on the same temp.
#[test]
fn a_temp_with_storage_usage_alone_serves() {
    let (device, queue) = open();
    let n = 3 * 8192 + 5;
    let input = random(n, 1000, 4);
    let data = guarded(&device, &input, 0, 64);
    let out = zeroed(&device, 4 * n as u64);
    for algorithm in [
        ScanAlgorithm::DecoupledLookBack,
        ScanAlgorithm::ReduceThenScan,
    ] {
        let scan = Scan::exclusive_sum(&device, Dtype::U32)
            .expect("builds")
            .with_algorithm(algorithm);
        let temp = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("STORAGE-only temp"),
            size: scan.temp_storage_bytes(n as u32),
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        for _ in 0..2 {
            let mut encoder = encoder(&device);
            scan.record(
                &mut encoder,
                (&data).into(),
                (&out).into(),
                n as u32,
                (&temp).into(),
            )
            .expect("records");
            let read = submit_and_read(&device, &queue, encoder, &[&out]);
            let mut sum = 0u32;
            let want: Vec<u32> = input
                .iter()
                .map(|&x| {
                    let before = sum;
                    sum += x;
                    before
                })
                .collect();
            assert_same(&read[0], &want, &format!("{algorithm:?}"));
        }
    }
}

/// CUDA memory given to an algorithm built on a wgpu device is refused
/// before anything is recorded (the address is never touched).
#[cfg(feature = "native")]
#[test]
fn a_cuda_slice_on_a_wgpu_algorithm_is_an_error() {
    let (device, _queue) = open();
    let scan = Scan::exclusive_sum(&device, Dtype::U32).expect("builds");
    let out = zeroed(&device, 4096);
    let temp = zeroed(&device, scan.temp_storage_bytes(1000));
    // SAFETY: the call refuses the slice before using its address.
    let cuda = unsafe { Slice::from_raw_cuda(0x1000, 4096) };
    let mut encoder = encoder(&device);
    let m = scan
        .record(&mut encoder, cuda, (&out).into(), 1000, (&temp).into())
        .expect_err("refused")
        .to_string();
    assert!(
        m.contains("`input`: CUDA memory, and this algorithm was built on a wgpu device"),
        "{m}"
    );
}

#[test]
fn bad_slices_are_errors() {
    let (device, _queue) = open();
    let align = alignment(&device);
    let n = 1000u32;
    let small = zeroed(&device, 4 * u64::from(n) - 4);
    let data = zeroed(&device, 4 * u64::from(n) + align);
    let out = zeroed(&device, 4 * u64::from(n) + align);
    let scan = Scan::exclusive_sum(&device, Dtype::U32).expect("builds");
    let temp = zeroed(&device, scan.temp_storage_bytes(n));
    let no_storage = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 1 << 16,
        usage: wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = encoder(&device);
    let message = |r: Result<(), wavekit::Error>| r.expect_err("an error").to_string();

    let m = message(scan.record(
        &mut encoder,
        (&small).into(),
        (&out).into(),
        n,
        (&temp).into(),
    ));
    assert!(
        m.contains("`input`") && m.contains("4000 bytes") && m.contains("3996"),
        "{m}"
    );

    if align > 4 {
        let m = message(scan.record(
            &mut encoder,
            Slice::new(&data, 4),
            (&out).into(),
            n,
            (&temp).into(),
        ));
        assert!(
            m.contains("offset 4") && m.contains(&align.to_string()),
            "{m}"
        );
    }

    let m = message(scan.record(
        &mut encoder,
        (&data).into(),
        (&data).into(),
        n,
        (&temp).into(),
    ));
    assert!(m.contains("same buffer"), "{m}");

    let m = message(scan.record(
        &mut encoder,
        (&data).into(),
        (&out).into(),
        n,
        (&no_storage).into(),
    ));
    assert!(m.contains("`temp`") && m.contains("lacks STORAGE"), "{m}");

    let tiny_temp = zeroed(&device, 4);
    let sort = RadixSort::keys(&device, KeyType::F32).expect("builds");
    let m = message(sort.record_keys(
        &mut encoder,
        (&data).into(),
        (&out).into(),
        n,
        (&tiny_temp).into(),
    ));
    assert!(
        m.contains("`temp`") && m.contains(&sort.temp_storage_bytes(n).to_string()),
        "{m}"
    );

    let m = message(sort.record_keys(
        &mut encoder,
        (&data).into(),
        (&out).into(),
        1 << 30,
        (&temp).into(),
    ));
    assert!(m.contains("1073741824"), "{m}");

    let m = message(sort.record_pairs(
        &mut encoder,
        (&data).into(),
        (&out).into(),
        (&data).into(),
        (&out).into(),
        n,
        (&temp).into(),
    ));
    assert!(m.contains("record_keys"), "{m}");

    // Overlapping ranges that are not in place.
    let big = zeroed(&device, 8 * u64::from(n) + 2 * align);
    let sort_temp = zeroed(&device, sort.temp_storage_bytes(n));
    let m = message(sort.record_keys(
        &mut encoder,
        Slice::new(&big, 0),
        Slice::new(&big, align),
        n,
        (&sort_temp).into(),
    ));
    assert!(m.contains("overlap"), "{m}");

    let reduce = Reduce::new(&device, ReduceOp::Max, ReduceType::I32).expect("builds");
    let m = message(reduce.record(
        &mut encoder,
        (&data).into(),
        (&data).into(),
        n,
        (&temp).into(),
    ));
    assert!(m.contains("same buffer"), "{m}");

    assert!(
        Scan::exclusive_sum(&device, Dtype::F32)
            .err()
            .is_some_and(|e| e.to_string().contains("f32")),
        "a scan of f32 is refused"
    );
    assert!(
        RadixSort::new(
            &device,
            wavekit::device::RadixSortOptions {
                bits: 8..40,
                ..Default::default()
            }
        )
        .err()
        .is_some_and(|e| e.to_string().contains("8..40")),
        "bits past 32 are refused"
    );
    // Nothing was recorded: the encoder finishes and submits cleanly.
    let _ = encoder.finish();
}

/// Sizes at and over the limits: `u32::MAX` elements for every algorithm,
/// 2^30 elements for the single-pass compaction, and an offset past 4 GiB.
/// Each is refused with an error naming the number before anything is
/// recorded, and the same device and encoder then run a good call.
#[test]
fn limits_are_refused_and_the_device_goes_on() {
    let (device, queue) = open();
    let big = u32::MAX;
    let data = zeroed(&device, 1 << 16);
    let out = zeroed(&device, 1 << 16);
    let third = zeroed(&device, 1 << 16);
    let fourth = zeroed(&device, 1 << 16);
    let temp = zeroed(&device, 1 << 16);
    let (d, o, t) = (Slice::from(&data), Slice::from(&out), Slice::from(&temp));
    let mut encoder = encoder(&device);
    // An error names the count, or the bytes it needs in a slice.
    let names = |e: Result<(), wavekit::Error>, what: &str, numbers: &[String]| {
        let m = e.expect_err(what).to_string();
        eprintln!("{what}: {m}");
        assert!(
            numbers.iter().any(|x| m.contains(x.as_str())),
            "{what}: {m}"
        );
    };
    let u32_max = [big.to_string(), (4 * u64::from(big)).to_string()];

    let scan = Scan::exclusive_sum(&device, Dtype::U32).expect("builds");
    let _ = scan.temp_storage_bytes(big);
    names(scan.record(&mut encoder, d, o, big, t), "scan", &u32_max);
    let reduce = Reduce::new(&device, ReduceOp::Sum, ReduceType::U32).expect("builds");
    let _ = reduce.temp_storage_bytes(big);
    names(
        reduce.record(&mut encoder, d, o, big, t),
        "reduce",
        &u32_max,
    );
    let sort = RadixSort::keys(&device, KeyType::U32).expect("builds");
    let _ = sort.temp_storage_bytes(big);
    names(
        sort.record_keys(&mut encoder, d, o, big, t),
        "sort",
        &u32_max,
    );
    let select = SelectIf::new(
        &device,
        Dtype::U32,
        "fn keep(x: u32) -> bool { return x != 0u; }",
    )
    .expect("builds");
    let _ = select.temp_storage_bytes(big);
    let count = Slice::from(&third);
    names(
        select.record(&mut encoder, d, o, count, big, t),
        "select",
        &u32_max,
    );
    let flagged = SelectFlagged::new(&device, Dtype::U32, FlagType::U32).expect("builds");
    let _ = flagged.temp_storage_bytes(big);
    names(
        flagged.record(&mut encoder, d, Slice::from(&fourth), o, count, big, t),
        "select flagged",
        &u32_max,
    );
    let runs = RunLengthEncode::new(&device, Dtype::U32).expect("builds");
    let _ = runs.temp_storage_bytes(big);
    names(
        runs.record(&mut encoder, d, o, Slice::from(&fourth), count, big, t),
        "run-length",
        &u32_max,
    );
    let histogram = histogram_of_thirds(&device);
    names(
        histogram.record(&mut encoder, d, o, big),
        "histogram",
        &u32_max,
    );
    let segmented = SegmentedSort::new(&device, KeyType::U32, false).expect("builds");
    let _ = segmented.temp_storage_bytes(big);
    names(
        segmented.record_keys(&mut encoder, d, o, big, Slice::from(&third), 1, t),
        "segmented sort",
        &u32_max,
    );
    let fixed = FixedSegmentedSort::new(&device, KeyType::U32, false, 16).expect("builds");
    names(
        fixed.record_keys(&mut encoder, d, o, big),
        "fixed segmented sort",
        &u32_max,
    );

    // The single-pass compaction's look-back takes at most 2^30 - 1.
    names(
        select.record(&mut encoder, d, o, count, 1 << 30, t),
        "select at 2^30",
        &["1073741824".into()],
    );
    // A slice whose offset lies past 4 GiB, in a buffer of 64 KiB.
    let far = 5u64 << 30;
    names(
        scan.record(&mut encoder, Slice::new(&data, far), o, 16, t),
        "offset past 4 GiB",
        &[far.to_string()],
    );

    // Nothing was recorded; the same encoder now takes a good call.
    let n = 1000usize;
    let input = random(n, 1000, 5);
    let good = guarded(&device, &input, 0, 0);
    let result = zeroed(&device, 4);
    let temp = zeroed(&device, reduce.temp_storage_bytes(n as u32));
    reduce
        .record(
            &mut encoder,
            (&good).into(),
            (&result).into(),
            n as u32,
            (&temp).into(),
        )
        .expect("a good call after the refused ones");
    let read = submit_and_read(&device, &queue, encoder, &[&result]);
    assert_eq!(
        read[0],
        [input.iter().sum::<u32>()],
        "the sum after the refusals"
    );
}

/// A u32 sum over `n` random values (seed `seed`) on a device with
/// timestamps: the values, their buffer, a zeroed 4-byte result and the
/// reduction.
fn timed_sum(
    device: &wgpu::Device,
    n: u32,
    seed: u64,
) -> (Vec<u32>, wgpu::Buffer, wgpu::Buffer, Reduce) {
    let values: Vec<u32> = random(n as usize, 1000, seed);
    let input = guarded(device, &values, 0, 0);
    let result = zeroed(device, 4);
    let reduce = Reduce::new(device, ReduceOp::Sum, ReduceType::U32).expect("builds");
    (values, input, result, reduce)
}

/// A query set of `count` queries of `ty`.
fn query_set(
    device: &wgpu::Device,
    label: &str,
    ty: wgpu::QueryType,
    count: u32,
) -> wgpu::QuerySet {
    device.create_query_set(&wgpu::QuerySetDescriptor {
        label: Some(label),
        ty,
        count,
    })
}

/// A call given `(&mut encoder, timestamp_writes)` writes them from its
/// compute pass; a call with nothing to do records no pass and writes none.
#[test]
fn a_call_writes_its_pass_timestamps() {
    let (device, queue) = open_with_timestamps();
    let n = 5000u32;
    let (values, input, result, reduce) = timed_sum(&device, n, 7);
    let scan = Scan::exclusive_sum(&device, wavekit::Dtype::U32).expect("builds");
    let temp = zeroed(
        &device,
        reduce.temp_storage_bytes(n).max(scan.temp_storage_bytes(0)),
    );
    let queries = query_set(&device, "call timestamps", wgpu::QueryType::Timestamp, 4);
    let stamps = |first: u32| wgpu::ComputePassTimestampWrites {
        query_set: &queries,
        beginning_of_pass_write_index: Some(first),
        end_of_pass_write_index: Some(first + 1),
    };
    let mut encoder = encoder(&device);
    reduce
        .record(
            (&mut encoder, stamps(0)),
            (&input).into(),
            (&result).into(),
            n,
            (&temp).into(),
        )
        .expect("records the reduction");
    scan.record(
        (&mut encoder, stamps(2)),
        (&input).into(),
        (&result).into(),
        0,
        (&temp).into(),
    )
    .expect("records nothing");
    let resolved = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("resolved"),
        size: 32,
        usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    encoder.resolve_query_set(&queries, 0..4, &resolved, 0);
    let read = submit_and_read(&device, &queue, encoder, &[&result, &resolved]);
    assert_eq!(read[0][0], values.iter().sum::<u32>());
    let ticks: Vec<u64> = bytemuck::cast_slice(&read[1]).to_vec();
    assert!(ticks[0] > 0 && ticks[1] >= ticks[0], "{ticks:?}");
    assert_eq!(&ticks[2..], &[0, 0], "n = 0 writes no timestamp");
}

/// Timestamp writes wgpu would refuse (at submission, with a panic by
/// default) are errors of the call, naming what is wrong, and nothing is
/// recorded: the encoder still submits, and a good call after them runs.
#[test]
fn bad_timestamp_writes_are_errors() {
    let (device, queue) = open_with_timestamps();
    let n = 1000u32;
    let (values, input, result, reduce) = timed_sum(&device, n, 9);
    let temp = zeroed(&device, reduce.temp_storage_bytes(n));
    let timestamps = query_set(&device, "timestamps", wgpu::QueryType::Timestamp, 4);
    let occlusion = query_set(&device, "occlusion", wgpu::QueryType::Occlusion, 4);
    let writes = |set, begin, end| wgpu::ComputePassTimestampWrites {
        query_set: set,
        beginning_of_pass_write_index: begin,
        end_of_pass_write_index: end,
    };
    let mut encoder = encoder(&device);
    for (bad, message) in [
        (
            writes(&occlusion, Some(0), Some(1)),
            "the query set holds Occlusion queries, not timestamps",
        ),
        (
            writes(&timestamps, Some(0), Some(4)),
            "index 4 is outside the query set of 4 queries",
        ),
        (
            writes(&timestamps, Some(1), Some(1)),
            "the beginning and the end are both index 1",
        ),
        (writes(&timestamps, None, None), "neither index is given"),
    ] {
        let error = reduce
            .record(
                (&mut encoder, bad),
                (&input).into(),
                (&result).into(),
                n,
                (&temp).into(),
            )
            .expect_err("refused");
        assert_eq!(
            error.to_string(),
            format!("wavekit::device: the call's timestamp writes: {message}")
        );
    }
    reduce
        .record(
            (&mut encoder, writes(&timestamps, None, Some(3))),
            (&input).into(),
            (&result).into(),
            n,
            (&temp).into(),
        )
        .expect("records");
    let read = submit_and_read(&device, &queue, encoder, &[&result]);
    assert_eq!(read[0][0], values.iter().sum::<u32>());
}
