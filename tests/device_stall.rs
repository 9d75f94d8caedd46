//! The single-pass algorithms under a scheduler that never runs some
//! workgroups again (`wavekit::device::debug::LookBackDebug::stall_every`:
//! every k-th tile never publishes, as GPUSorting's "EmulatedDeadlocking"
//! does): the look-back's fallback must keep every result right — the
//! scan, an operator scan (a non-commutative user operator), the
//! selection, the run-length encoding, the reduction and scan by key and
//! the non-trivial runs (whose single pass walks two look-back channels:
//! the carried value and the run count) and the OneSweep sort (keys and
//! pairs) on lavapipe at subgroup sizes 4, 8 and 16 with its default
//! threading, and the scan, selection and by-key pass on emulated
//! subgroups.
//! And the other side: without the fallback (Merrill & Garland's unbounded
//! spin), the same stalls break the scan — lavapipe ends the spin after its
//! loop budget, and the result is wrong (a GPU would hang).

mod device_support;

use device_support::*;
use wavekit::Dtype;
use wavekit::device::debug::{LookBackDebug, with_look_back};
use wavekit::device::{
    KeyType, RadixSort, RadixSortAlgorithm, RadixSortOptions, ReduceByKey, RunLengthEncode, Scan,
    ScanAlgorithm, ScanByKey, ScanKind, ScanOperator, SelectIf, Slice,
};

/// The scan's tile (8192 elements), the operator scan's and the by-key
/// pass's (2048) and the selection's (4096).
const SCAN_TILE: usize = 8192;
const OP_TILE: usize = 2048;
const SELECT_TILE: usize = 4096;

fn stalls(every: u32) -> LookBackDebug {
    LookBackDebug {
        stall_every: every,
        fallback: Some(true),
        ..LookBackDebug::default()
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

fn check_scan(device: &wgpu::Device, queue: &wgpu::Queue, every: u32, n: usize) {
    let scan = with_look_back(stalls(every), || {
        Scan::exclusive_sum(device, Dtype::U32).expect("builds")
    });
    assert_eq!(scan.algorithm(), ScanAlgorithm::DecoupledLookBack);
    let input = random(n, 1000, u64::from(every) + n as u64);
    let got = scanned(device, queue, &scan, &input);
    assert_same(
        &got,
        &exclusive(&input),
        &format!("scan, every {every}th tile stalled, n = {n}"),
    );
}

fn check_operator_scan(device: &wgpu::Device, queue: &wgpu::Queue, every: u32, n: usize) {
    let scan = with_look_back(stalls(every), || {
        Scan::with_operator(
            device,
            ScanKind::Exclusive,
            Dtype::U32,
            ScanOperator::custom(AFFINE, "1u << 16u"),
        )
        .expect("builds")
    });
    let input = random(n, 0, 77 + u64::from(every));
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
        &format!("affine scan, every {every}th tile stalled, n = {n}"),
    );
}

fn check_select(device: &wgpu::Device, queue: &wgpu::Queue, every: u32, n: usize) {
    let select = with_look_back(stalls(every), || {
        SelectIf::new(
            device,
            Dtype::U32,
            "fn keep(x: u32) -> bool { return x % 3u == 1u; }",
        )
        .expect("builds")
    });
    let input = random(n, 0, 5 + u64::from(every));
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
    let what = format!("select, every {every}th tile stalled, n = {n}");
    assert_eq!(read[1][0] as usize, want.len(), "{what}: count");
    assert_same(&read[0][..want.len()], &want, &what);
}

fn check_run_length(device: &wgpu::Device, queue: &wgpu::Queue, every: u32, n: usize) {
    let encode = with_look_back(stalls(every), || {
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
    let what = format!("run-length, every {every}th tile stalled, n = {n}");
    let count = read[2][0] as usize;
    assert_eq!(count, want_unique.len(), "{what}: runs");
    assert_same(&read[0][..count], &want_unique, &what);
    assert_same(&read[1][..count], &want_lengths, &what);
}

/// `n` keys in runs: seven of eight 1 to 4 long, one of eight up to 3
/// by-key tiles long (whole tiles without a head).
fn by_key_input(n: usize, seed: u64) -> Vec<u32> {
    let mut keys = Vec::with_capacity(n);
    for (run, w) in random(n, 0, seed).into_iter().enumerate() {
        let len = if w % 8 == 0 {
            1 + (w >> 3) as usize % (3 * OP_TILE)
        } else {
            1 + (w >> 3) as usize % 4
        };
        keys.extend(std::iter::repeat_n(run as u32, len.min(n - keys.len())));
        if keys.len() == n {
            break;
        }
    }
    keys
}

/// `ReduceByKey` and the exclusive `ScanByKey` (u32 sums) and
/// `RunLengthEncode::non_trivial_runs` of `n` pairs with every `every`th
/// tile stalled, against the CPU.
fn check_by_key(device: &wgpu::Device, queue: &wgpu::Queue, every: u32, n: usize) {
    let (reduce, scan, encode) = with_look_back(stalls(every), || {
        (
            ReduceByKey::new(device, Dtype::U32, Dtype::U32, ScanOperator::Add).expect("builds"),
            ScanByKey::new(
                device,
                ScanKind::Exclusive,
                Dtype::U32,
                Dtype::U32,
                ScanOperator::Add,
            )
            .expect("builds"),
            RunLengthEncode::new(device, Dtype::U32).expect("builds"),
        )
    });
    let keys = by_key_input(n, 21);
    let values = random(n, 1000, 22);
    let mut want_keys: Vec<u32> = Vec::new();
    let mut want_sums: Vec<u32> = Vec::new();
    let mut want_scan = Vec::with_capacity(n);
    for i in 0..n {
        if i == 0 || keys[i] != keys[i - 1] {
            want_keys.push(keys[i]);
            want_sums.push(0);
        }
        let sum = want_sums.last_mut().expect("a run");
        want_scan.push(*sum);
        *sum += values[i];
    }
    let (offsets, lengths) = non_trivial_runs_reference(&keys);
    let words = 4 * n as u64;
    let key_buffer = guarded(device, &keys, 0, 64);
    let value_buffer = guarded(device, &values, 0, 64);
    let outs = [zeroed(device, words), zeroed(device, words)];
    let scanned = zeroed(device, words);
    let pairs = [zeroed(device, words), zeroed(device, words)];
    let counts = [zeroed(device, 4), zeroed(device, 4)];
    let temp = |bytes: u64| zeroed(device, bytes);
    let temps = [
        temp(reduce.temp_storage_bytes(n as u32)),
        temp(scan.temp_storage_bytes(n as u32)),
        temp(encode.temp_storage_bytes(n as u32)),
    ];
    let at = |buffer| Slice::new(buffer, 0);
    let mut encoder = encoder(device);
    let (k, v) = (at(&key_buffer), at(&value_buffer));
    reduce
        .record(
            &mut encoder,
            k,
            v,
            at(&outs[0]),
            at(&outs[1]),
            at(&counts[0]),
            n as u32,
            at(&temps[0]),
        )
        .expect("ReduceByKey records");
    scan.record(&mut encoder, k, v, at(&scanned), n as u32, at(&temps[1]))
        .expect("ScanByKey records");
    encode
        .non_trivial_runs(
            &mut encoder,
            k,
            at(&pairs[0]),
            at(&pairs[1]),
            at(&counts[1]),
            n as u32,
            at(&temps[2]),
        )
        .expect("non_trivial_runs records");
    let read = submit_and_read(
        device,
        queue,
        encoder,
        &[
            &outs[0], &outs[1], &counts[0], &scanned, &pairs[0], &pairs[1], &counts[1],
        ],
    );
    let what = format!("by key, every {every}th tile stalled, n = {n}");
    let runs = read[2][0] as usize;
    assert_eq!(runs, want_keys.len(), "{what}: ReduceByKey runs");
    assert_same(&read[0][..runs], &want_keys, &format!("{what}: keys"));
    assert_same(&read[1][..runs], &want_sums, &format!("{what}: sums"));
    assert_same(&read[3], &want_scan, &format!("{what}: ScanByKey"));
    let runs = read[6][0] as usize;
    assert_eq!(runs, offsets.len(), "{what}: non-trivial runs");
    assert_same(&read[4][..runs], &offsets, &format!("{what}: offsets"));
    assert_same(&read[5][..runs], &lengths, &format!("{what}: lengths"));
}

fn check_sort(device: &wgpu::Device, queue: &wgpu::Queue, every: u32, pairs: bool, n: usize) {
    let sort = with_look_back(stalls(every), || {
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
    let keys = random(n, 0, 21 + u64::from(every));
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
    let what = format!("OneSweep pairs {pairs}, every {every}th tile stalled, n = {n}");
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
    check_scan(&device, &queue, 1, 6 * SCAN_TILE + 5);
    check_by_key(&device, &queue, 1, 7 * OP_TILE + 5);
    for every in [2, 3] {
        check_scan(&device, &queue, every, 20 * SCAN_TILE + 4);
        check_operator_scan(&device, &queue, every, 30 * OP_TILE + 9);
        check_select(&device, &queue, every, 17 * SELECT_TILE + 3);
        check_run_length(&device, &queue, every, 9 * SELECT_TILE + 1);
        check_by_key(&device, &queue, every, 25 * OP_TILE + 13);
        check_sort(&device, &queue, every, false, 40_001);
    }
    check_sort(&device, &queue, 3, true, 30_007);
}

#[test]
fn stalled_tiles_at_each_subgroup_size() {
    at_each_subgroup_size("stalled_tiles_cases");
}

#[test]
fn stalled_tiles_on_emulated_subgroups() {
    let (device, queue) = open_without_subgroups();
    check_scan(&device, &queue, 3, 10 * SCAN_TILE + 7);
    check_operator_scan(&device, &queue, 2, 12 * OP_TILE + 1);
    check_select(&device, &queue, 2, 9 * SELECT_TILE + 1);
    check_by_key(&device, &queue, 3, 11 * OP_TILE + 2);
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
