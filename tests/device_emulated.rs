//! `wavekit::device` on a device without subgroups (lavapipe opened without
//! the subgroup features): every algorithm composes with emulated
//! subgroups, picks what runs there (the single-pass scan and selection,
//! whose look-back thread 0 walks alone there; the reduce-then-scan sort,
//! faster than OneSweep's emulated ballots) and matches the CPU reference
//! at edge sizes (64-bit keys too); reduce-then-scan stays an explicit
//! choice. The segmented sort (its in-register short path on emulated
//! shuffles), an operator scan (max), the selection, the run-length
//! encoding and the histogram run there too.

mod device_support;

use device_support::*;
use wavekit::Dtype;
use wavekit::device::{
    KeyType, RadixSort, RadixSortAlgorithm, Reduce, ReduceOp, ReduceType, RunLengthEncode, Scan,
    ScanAlgorithm, ScanKind, ScanOperator, SegmentedSort, SelectIf, Slice,
};

const SIZES: [usize; 5] = [0, 1, 8191, 8193, 100_003];

#[test]
fn the_device_is_emulated() {
    let (device, _queue) = open_without_subgroups();
    let target = wavekit::Target::from_device(&device).expect("a target");
    assert!(target.is_emulated(), "{target}");
}

#[test]
fn scan_reduce_and_sort_on_emulated_subgroups() {
    let (device, queue) = open_without_subgroups();
    let scan = Scan::exclusive_sum(&device, Dtype::U32).expect("builds");
    assert_eq!(scan.algorithm(), ScanAlgorithm::DecoupledLookBack);
    let reduce = Reduce::new(&device, ReduceOp::Sum, ReduceType::U32).expect("builds");
    let sort = RadixSort::keys(&device, KeyType::U32).expect("builds");
    assert_eq!(sort.algorithm(), RadixSortAlgorithm::ReduceThenScan);
    for (i, &n) in SIZES.iter().enumerate() {
        let input = random(n, 0, 7 + i as u64);
        let source = guarded(&device, &input, 0, 64);
        let scanned = zeroed(&device, 4 * n as u64 + 64);
        let sum = zeroed(&device, 64);
        let sorted = zeroed(&device, 4 * n as u64 + 64);
        let temp_bytes = scan
            .temp_storage_bytes(n as u32)
            .max(reduce.temp_storage_bytes(n as u32))
            .max(sort.temp_storage_bytes(n as u32));
        let temp = zeroed(&device, temp_bytes);
        let mut encoder = encoder(&device);
        let slice = |b| Slice::new(b, 0);
        scan.record(
            &mut encoder,
            slice(&source),
            slice(&scanned),
            n as u32,
            slice(&temp),
        )
        .expect("scan records");
        reduce
            .record(
                &mut encoder,
                slice(&source),
                slice(&sum),
                n as u32,
                slice(&temp),
            )
            .expect("reduce records");
        sort.record_keys(
            &mut encoder,
            slice(&source),
            slice(&sorted),
            n as u32,
            slice(&temp),
        )
        .expect("sort records");
        let read = submit_and_read(&device, &queue, encoder, &[&scanned, &sum, &sorted]);
        let mut running = 0u32;
        let want_scan: Vec<u32> = input
            .iter()
            .map(|&x| {
                let before = running;
                running = running.wrapping_add(x);
                before
            })
            .collect();
        assert_same(&read[0][..n], &want_scan, &format!("scan n = {n}"));
        assert_eq!(read[1][0], running, "reduce n = {n}");
        let mut want_sort = input.clone();
        want_sort.sort_unstable();
        assert_same(&read[2][..n], &want_sort, &format!("sort n = {n}"));
    }
}

#[test]
fn sort_of_64_bit_keys_on_emulated_subgroups() {
    let (device, queue) = open_without_subgroups();
    let sort = RadixSort::pairs(&device, KeyType::I64).expect("builds");
    assert_eq!(sort.algorithm(), RadixSortAlgorithm::ReduceThenScan);
    for (i, &n) in SIZES.iter().enumerate() {
        let keys: Vec<u64> = random(2 * n, 0, 31 + i as u64)
            .chunks_exact(2)
            .map(|w| u64::from(w[0]) | (u64::from(w[1]) << 32))
            .collect();
        let words: Vec<u32> = keys
            .iter()
            .flat_map(|&k| [k as u32, (k >> 32) as u32])
            .collect();
        let values: Vec<u32> = (0..n as u32).collect();
        let keys_in = guarded(&device, &words, 0, 64);
        let values_in = guarded(&device, &values, 0, 64);
        let keys_out = zeroed(&device, 8 * n as u64 + 64);
        let values_out = zeroed(&device, 4 * n as u64 + 64);
        let temp = zeroed(&device, sort.temp_storage_bytes(n as u32));
        let mut encoder = encoder(&device);
        let slice = |b| Slice::new(b, 0);
        sort.record_pairs(
            &mut encoder,
            slice(&keys_in),
            slice(&keys_out),
            slice(&values_in),
            slice(&values_out),
            n as u32,
            slice(&temp),
        )
        .expect("sort records");
        let read = submit_and_read(&device, &queue, encoder, &[&keys_out, &values_out]);
        let got: Vec<(i64, u32)> = (0..n)
            .map(|j| {
                let k = u64::from(read[0][2 * j]) | (u64::from(read[0][2 * j + 1]) << 32);
                (k as i64, read[1][j])
            })
            .collect();
        let mut want: Vec<(i64, u32)> = keys.iter().map(|&k| k as i64).zip(0..).collect();
        want.sort_by_key(|&(k, _)| k);
        assert_same(&got, &want, &format!("i64 pairs n = {n}"));
    }
}

#[test]
fn reduce_then_scan_stays_an_explicit_choice_on_emulated_subgroups() {
    let (device, queue) = open_without_subgroups();
    let scan = Scan::exclusive_sum(&device, Dtype::U32)
        .expect("builds")
        .with_algorithm(ScanAlgorithm::ReduceThenScan);
    let n = 100_003;
    let input = random(n, 0, 11);
    let source = guarded(&device, &input, 0, 64);
    let scanned = zeroed(&device, 4 * n as u64);
    let temp = zeroed(&device, scan.temp_storage_bytes(n as u32));
    let mut encoder = encoder(&device);
    scan.record(
        &mut encoder,
        Slice::new(&source, 0),
        Slice::new(&scanned, 0),
        n as u32,
        Slice::new(&temp, 0),
    )
    .expect("scan records");
    let read = submit_and_read(&device, &queue, encoder, &[&scanned]);
    let want: Vec<u32> = input
        .iter()
        .scan(0u32, |acc, &x| {
            let before = *acc;
            *acc = acc.wrapping_add(x);
            Some(before)
        })
        .collect();
    assert_same(&read[0], &want, "reduce-then-scan on emulated subgroups");
}

#[test]
fn segmented_sort_and_operator_scan_on_emulated_subgroups() {
    let (device, queue) = open_without_subgroups();
    let sort = SegmentedSort::pairs(&device, KeyType::U32).expect("builds");
    let scan = Scan::with_operator(&device, ScanKind::Inclusive, Dtype::U32, ScanOperator::Max)
        .expect("builds");
    // Segments of these lengths in turn. Up to 64: the short sort's groups
    // of 1 to 8 lanes, every subgroup running the whole network (on GPUs
    // subgroups skip the sizes past their widest group:
    // tests/device_cuda.rs).
    let mixed: &[usize] = &[0, 1, 7, 32, 33, 50, 64, 65, 900, 3000];
    let short: [(usize, &[usize]); 4] = [
        (8191, &[1, 8, 3, 5, 2, 7]),
        (8193, &[9, 16, 1, 12]),
        (8191, &[33, 40, 2, 37]),
        (8193, &[41, 48, 17, 3]),
    ];
    let cases = SIZES.iter().map(|&n| (n, mixed)).chain(short);
    for (i, (n, lengths)) in cases.enumerate() {
        let keys = random(n, 1000, 30 + i as u64);
        let values = random(n, 0, 40 + i as u64);
        let mut offsets = vec![0u32];
        for &len in lengths.iter().cycle() {
            let end = (*offsets.last().unwrap() as usize + len).min(n);
            offsets.push(end as u32);
            if end == n {
                break;
            }
        }
        let segments = (offsets.len() - 1) as u32;
        let keys_in = guarded(&device, &keys, 0, 64);
        let values_in = guarded(&device, &values, 0, 64);
        let offsets_buffer = guarded(&device, &offsets, 0, 64);
        let keys_out = zeroed(&device, 4 * n as u64 + 64);
        let values_out = zeroed(&device, 4 * n as u64 + 64);
        let scanned = zeroed(&device, 4 * n as u64 + 64);
        let temp = zeroed(&device, sort.temp_storage_bytes(n as u32));
        let scan_temp = zeroed(&device, scan.temp_storage_bytes(n as u32));
        let mut encoder = encoder(&device);
        let slice = |b| Slice::new(b, 0);
        sort.record_pairs(
            &mut encoder,
            slice(&keys_in),
            slice(&keys_out),
            slice(&values_in),
            slice(&values_out),
            n as u32,
            slice(&offsets_buffer),
            segments,
            slice(&temp),
        )
        .expect("sort records");
        scan.record(
            &mut encoder,
            slice(&keys_in),
            slice(&scanned),
            n as u32,
            slice(&scan_temp),
        )
        .expect("scan records");
        let read = submit_and_read(
            &device,
            &queue,
            encoder,
            &[&keys_out, &values_out, &scanned],
        );
        let mut want: Vec<(u32, u32)> = keys.iter().copied().zip(values.iter().copied()).collect();
        for s in offsets.windows(2) {
            want[s[0] as usize..s[1] as usize].sort_unstable();
        }
        let got: Vec<(u32, u32)> = read[0][..n]
            .iter()
            .copied()
            .zip(read[1][..n].iter().copied())
            .collect();
        assert_same(&got, &want, &format!("segmented sort n = {n}"));
        let want_scan: Vec<u32> = keys
            .iter()
            .scan(0u32, |m, &x| {
                *m = (*m).max(x);
                Some(*m)
            })
            .collect();
        assert_same(&read[2][..n], &want_scan, &format!("max scan n = {n}"));
    }
}

#[test]
fn select_run_length_and_histogram_on_emulated_subgroups() {
    let (device, queue) = open_without_subgroups();
    let select = SelectIf::new(
        &device,
        Dtype::U32,
        "fn keep(x: u32) -> bool { return x % 3u == 1u; }",
    )
    .expect("builds");
    assert_eq!(select.algorithm(), ScanAlgorithm::DecoupledLookBack);
    let rle = RunLengthEncode::new(&device, Dtype::U32).expect("builds");
    assert_eq!(rle.algorithm(), ScanAlgorithm::DecoupledLookBack);
    let histogram = histogram_of_thirds(&device);
    for (i, &n) in SIZES.iter().enumerate() {
        let input = runs_input(n, 11 + i as u64);
        let source = guarded(&device, &input, 0, 64);
        let selected = zeroed(&device, 4 * n as u64);
        let unique = zeroed(&device, 4 * n as u64);
        let lengths = zeroed(&device, 4 * n as u64);
        let counts = zeroed(&device, 1024);
        let bins = zeroed(&device, 4 * 40);
        let temp_bytes = select
            .temp_storage_bytes(n as u32)
            .max(rle.temp_storage_bytes(n as u32));
        let temp = zeroed(&device, temp_bytes);
        let mut encoder = encoder(&device);
        let slice = |b| Slice::new(b, 0);
        select
            .record(
                &mut encoder,
                slice(&source),
                slice(&selected),
                slice(&counts),
                n as u32,
                slice(&temp),
            )
            .expect("select records");
        let runs_at = alignment(&device);
        rle.record(
            &mut encoder,
            slice(&source),
            slice(&unique),
            slice(&lengths),
            Slice::new(&counts, runs_at),
            n as u32,
            slice(&temp),
        )
        .expect("run-length encoding records");
        histogram
            .record(&mut encoder, slice(&source), slice(&bins), n as u32)
            .expect("histogram records");
        let read = submit_and_read(
            &device,
            &queue,
            encoder,
            &[&selected, &counts, &unique, &lengths, &bins],
        );
        let want: Vec<u32> = input.iter().copied().filter(|x| x % 3 == 1).collect();
        assert_eq!(read[1][0] as usize, want.len(), "select count n = {n}");
        assert_same(&read[0][..want.len()], &want, &format!("select n = {n}"));
        let (want_unique, want_lengths) = run_length_reference(&input);
        let runs = read[1][(runs_at / 4) as usize] as usize;
        assert_eq!(runs, want_unique.len(), "runs n = {n}");
        assert_same(&read[2][..runs], &want_unique, &format!("keys n = {n}"));
        assert_same(&read[3][..runs], &want_lengths, &format!("lengths n = {n}"));
        let want_bins = bins_of_three(&input);
        assert_same(&read[4], &want_bins, &format!("histogram n = {n}"));
    }
}
