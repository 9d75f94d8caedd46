//! The single-pass algorithms under a scheduler that never runs some
//! workgroups again (`wavekit::device::debug::LookBackDebug::stall_every`:
//! every k-th tile never publishes, as GPUSorting's "EmulatedDeadlocking"
//! does): the look-back's fallback must keep every result right — the
//! scan, an operator scan (a non-commutative user operator), the
//! selection, the run-length encoding and the OneSweep sort (keys and
//! pairs) on lavapipe at subgroup sizes 4, 8 and 16 with its
//! default threading, and the scan and selection on emulated subgroups.
//! And the other side: without the fallback (Merrill & Garland's unbounded
//! spin), the same stalls break the scan — lavapipe ends the spin after its
//! loop budget, and the result is wrong (a GPU would hang) — and with no
//! stalls, in order, every algorithm is right.

mod device_support;

use device_support::*;
use wavekit::Dtype;
use wavekit::device::debug::{LookBackDebug, with_look_back};
use wavekit::device::{
    KeyType, RadixSort, RadixSortAlgorithm, RadixSortOptions, RunLengthEncode, Scan, ScanAlgorithm,
    ScanKind, ScanOperator, SelectIf, Slice,
};

/// The scan's tile (8192 elements, every operator's) and the selection's
/// (4096).
const SCAN_TILE: usize = 8192;
const SELECT_TILE: usize = 4096;

fn stalls(every: u32) -> LookBackDebug {
    LookBackDebug {
        stall_every: every,
        fallback: Some(true),
        ..LookBackDebug::default()
    }
}

/// How `debug` stalls tiles, for messages.
fn stalled(debug: LookBackDebug) -> String {
    match (debug.stall_every, debug.fallback) {
        (0, Some(false)) => "no tile stalled, without the fallback".to_string(),
        (0, _) => "no tile stalled".to_string(),
        (every, _) => format!("every {every}th tile stalled"),
    }
}

fn exclusive(input: &[u32]) -> Vec<u32> {
    input
        .iter()
        .scan(0u32, |acc, &x| {
            let before = *acc;
            *acc = acc.wrapping_add(x);
            Some(before)
        })
        .collect()
}

/// The scan of `n` random words through `scan`, read back.
fn scanned(device: &wgpu::Device, queue: &wgpu::Queue, scan: &Scan, input: &[u32]) -> Vec<u32> {
    let n = input.len();
    let source = guarded(device, input, 0, 64);
    let output = zeroed(device, 4 * n as u64);
    let temp = zeroed(device, scan.temp_storage_bytes(n as u32));
    let mut encoder = encoder(device);
    scan.record(
        &mut encoder,
        Slice::new(&source, 0),
        Slice::new(&output, 0),
        n as u32,
        Slice::new(&temp, 0),
    )
    .expect("scan records");
    submit_and_read(device, queue, encoder, &[&output]).remove(0)
}

fn check_scan(device: &wgpu::Device, queue: &wgpu::Queue, debug: LookBackDebug, n: usize) {
    let scan = with_look_back(debug, || {
        Scan::exclusive_sum(device, Dtype::U32).expect("builds")
    });
    assert_eq!(scan.algorithm(), ScanAlgorithm::DecoupledLookBack);
    let input = random(n, 1000, u64::from(debug.stall_every) + n as u64);
    let got = scanned(device, queue, &scan, &input);
    assert_same(
        &got,
        &exclusive(&input),
        &format!("scan, {}, n = {n}", stalled(debug)),
    );
}

fn check_operator_scan(device: &wgpu::Device, queue: &wgpu::Queue, debug: LookBackDebug, n: usize) {
    let scan = with_look_back(debug, || {
        Scan::with_operator(
            device,
            ScanKind::Exclusive,
            Dtype::U32,
            ScanOperator::custom(AFFINE, "1u << 16u"),
        )
        .expect("builds")
    });
    let input = random(n, 0, 77 + u64::from(debug.stall_every));
    let got = scanned(device, queue, &scan, &input);
    let mut acc = 1u32 << 16;
    let want: Vec<u32> = input
        .iter()
        .map(|&x| {
            let before = acc;
            acc = affine_then(acc, x);
            before
        })
        .collect();
    assert_same(
        &got,
        &want,
        &format!("affine scan, {}, n = {n}", stalled(debug)),
    );
}

fn check_select(device: &wgpu::Device, queue: &wgpu::Queue, debug: LookBackDebug, n: usize) {
    let select = with_look_back(debug, || {
        SelectIf::new(
            device,
            Dtype::U32,
            "fn keep(x: u32) -> bool { return x % 3u == 1u; }",
        )
        .expect("builds")
    });
    let input = random(n, 0, 5 + u64::from(debug.stall_every));
    let source = guarded(device, &input, 0, 64);
    let output = zeroed(device, 4 * n as u64);
    let count = zeroed(device, 4);
    let temp = zeroed(device, select.temp_storage_bytes(n as u32));
    let mut encoder = encoder(device);
    select
        .record(
            &mut encoder,
            Slice::new(&source, 0),
            Slice::new(&output, 0),
            Slice::new(&count, 0),
            n as u32,
            Slice::new(&temp, 0),
        )
        .expect("select records");
    let read = submit_and_read(device, queue, encoder, &[&output, &count]);
    let want: Vec<u32> = input.iter().copied().filter(|x| x % 3 == 1).collect();
    let what = format!("select, {}, n = {n}", stalled(debug));
    assert_eq!(read[1][0] as usize, want.len(), "{what}: count");
    assert_same(&read[0][..want.len()], &want, &what);
}

fn check_run_length(device: &wgpu::Device, queue: &wgpu::Queue, debug: LookBackDebug, n: usize) {
    let encode = with_look_back(debug, || {
        RunLengthEncode::new(device, Dtype::U32).expect("builds")
    });
    let input = runs_input(n, 9);
    let source = guarded(device, &input, 0, 64);
    let unique = zeroed(device, 4 * n as u64);
    let lengths = zeroed(device, 4 * n as u64);
    let runs = zeroed(device, 4);
    let temp = zeroed(device, encode.temp_storage_bytes(n as u32));
    let mut encoder = encoder(device);
    encode
        .record(
            &mut encoder,
            Slice::new(&source, 0),
            Slice::new(&unique, 0),
            Slice::new(&lengths, 0),
            Slice::new(&runs, 0),
            n as u32,
            Slice::new(&temp, 0),
        )
        .expect("run-length records");
    let read = submit_and_read(device, queue, encoder, &[&unique, &lengths, &runs]);
    let (want_unique, want_lengths) = run_length_reference(&input);
    let what = format!("run-length, {}, n = {n}", stalled(debug));
    let count = read[2][0] as usize;
    assert_eq!(count, want_unique.len(), "{what}: runs");
    assert_same(&read[0][..count], &want_unique, &what);
    assert_same(&read[1][..count], &want_lengths, &what);
}

fn check_sort(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    debug: LookBackDebug,
    pairs: bool,
    n: usize,
) {
    let sort = with_look_back(debug, || {
        RadixSort::new(
            device,
            RadixSortOptions {
                key: KeyType::U32,
                pairs,
                algorithm: Some(RadixSortAlgorithm::OneSweep),
                ..RadixSortOptions::default()
            },
        )
        .expect("builds")
    });
    let keys = random(n, 0, 21 + u64::from(debug.stall_every));
    let values: Vec<u32> = (0..n as u32).collect();
    let keys_in = guarded(device, &keys, 0, 64);
    let values_in = guarded(device, &values, 0, 64);
    let keys_out = zeroed(device, 4 * n as u64);
    let values_out = zeroed(device, 4 * n as u64);
    let temp = zeroed(device, sort.temp_storage_bytes(n as u32));
    let mut encoder = encoder(device);
    if pairs {
        sort.record_pairs(
            &mut encoder,
            Slice::new(&keys_in, 0),
            Slice::new(&keys_out, 0),
            Slice::new(&values_in, 0),
            Slice::new(&values_out, 0),
            n as u32,
            (&temp).into(),
        )
    } else {
        sort.record_keys(
            &mut encoder,
            Slice::new(&keys_in, 0),
            Slice::new(&keys_out, 0),
            n as u32,
            (&temp).into(),
        )
    }
    .expect("sort records");
    let read = submit_and_read(device, queue, encoder, &[&keys_out, &values_out]);
    let mut want: Vec<(u32, u32)> = keys.iter().copied().zip(0..).collect();
    want.sort_by_key(|&(k, _)| k);
    let what = format!("OneSweep pairs {pairs}, {}, n = {n}", stalled(debug));
    let want_keys: Vec<u32> = want.iter().map(|&(k, _)| k).collect();
    assert_same(&read[0], &want_keys, &what);
    if pairs {
        let want_values: Vec<u32> = want.iter().map(|&(_, v)| v).collect();
        assert_same(&read[1], &want_values, &what);
    }
}

#[test]
fn stalled_tiles_cases() {
    if !is_child() {
        return;
    }
    let (device, queue) = open();
    // Every tile stalled: each walk falls back over all its predecessors.
    check_scan(&device, &queue, stalls(1), 6 * SCAN_TILE + 5);
    for every in [2, 3] {
        check_scan(&device, &queue, stalls(every), 20 * SCAN_TILE + 4);
        check_operator_scan(&device, &queue, stalls(every), 20 * SCAN_TILE + 9);
        check_select(&device, &queue, stalls(every), 17 * SELECT_TILE + 3);
        check_run_length(&device, &queue, stalls(every), 9 * SELECT_TILE + 1);
        check_sort(&device, &queue, stalls(every), false, 40_001);
    }
    check_sort(&device, &queue, stalls(3), true, 30_007);
}

#[test]
fn stalled_tiles_at_each_subgroup_size() {
    at_each_subgroup_size("stalled_tiles_cases");
}

#[test]
fn stalled_tiles_on_emulated_subgroups() {
    let (device, queue) = open_without_subgroups();
    check_scan(&device, &queue, stalls(3), 10 * SCAN_TILE + 7);
    check_operator_scan(&device, &queue, stalls(2), 10 * SCAN_TILE + 1);
    check_select(&device, &queue, stalls(2), 9 * SELECT_TILE + 1);
}

/// The walks as CUDA and the GPUs that keep started workgroups running
/// make them (no fallback: a walk waits until its predecessor publishes),
/// in order on lavapipe ([`in_order`]), where no walk ever needs to wait:
/// a publication that never reads as made (a GPU would hang) spends
/// lavapipe's loop budget instead, and the result is wrong every time.
#[test]
fn without_the_fallback_in_order() {
    in_order("without_the_fallback_cases");
}

#[test]
fn without_the_fallback_cases() {
    if !is_child() {
        return;
    }
    let (device, queue) = open();
    let spin = without_fallback();
    check_scan(&device, &queue, spin, 5 * SCAN_TILE + 3);
    check_operator_scan(&device, &queue, spin, 5 * SCAN_TILE + 1);
    check_select(&device, &queue, spin, 5 * SELECT_TILE + 7);
    check_run_length(&device, &queue, spin, 4 * SELECT_TILE + 1);
    check_sort(&device, &queue, spin, false, 30_001);
    check_sort(&device, &queue, spin, true, 20_003);
}

#[test]
fn without_the_fallback_stalled_tiles_break_the_scan() {
    let (device, queue) = open();
    let spin = LookBackDebug {
        stall_every: 2,
        fallback: Some(false),
        ..LookBackDebug::default()
    };
    let scan = with_look_back(spin, || {
        Scan::exclusive_sum(&device, Dtype::U32).expect("builds")
    });
    let input = random(3 * SCAN_TILE, 1000, 3);
    let got = scanned(&device, &queue, &scan, &input);
    // Tile 0 never publishes, so tile 1 spins until lavapipe's loop budget
    // (65535 iterations an invocation) ends its loops: its prefix and its
    // stores are never made. On a GPU the spin would not end.
    let want = exclusive(&input);
    let wrong = (0..input.len()).filter(|&i| got[i] != want[i]).count();
    assert!(
        wrong > 0,
        "the stalled tiles should have broken the look-back without its fallback"
    );
    eprintln!(
        "without the fallback: {wrong} of {} elements wrong",
        input.len()
    );
}
