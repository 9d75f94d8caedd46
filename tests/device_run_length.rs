//! `wavekit::device::RunLengthEncode` on lavapipe at subgroup sizes 4, 8
//! and 16 against a CPU reference: u32 and i32 keys in runs of random
//! lengths, both algorithms, edge sizes (0, 1, a tile ± 1, odd sizes,
//! 2^20; the look-back up to 4 tiles), slices at non-zero offsets inside larger buffers whose other bytes
//! must stay.

mod device_support;

use device_support::*;
use wavekit::Dtype;
use wavekit::device::{RunLengthEncode, ScanAlgorithm, Slice};

const TILE: usize = 4096;

/// `n` keys in runs of 1 to `longest` (neighbouring runs may share a key,
/// and then are one run).
fn keys(n: usize, longest: u32, seed: u64) -> Vec<u32> {
    let lengths = random(n, longest, seed);
    let values = random(n, 5, seed + 1);
    let mut keys = Vec::with_capacity(n);
    let mut i = 0;
    while keys.len() < n {
        let len = (lengths[i] as usize + 1).min(n - keys.len());
        keys.extend(std::iter::repeat_n(values[i].wrapping_sub(2), len));
        i += 1;
    }
    keys
}

fn check(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    rle: &RunLengthEncode,
    n: usize,
    longest: u32,
    seed: u64,
) {
    let align = alignment(device);
    let input = keys(n, longest, seed);
    let (in_at, out_at) = (align, 2 * align);
    let input_buffer = guarded(device, &input, in_at, 64);
    let unique = guarded(device, &vec![GUARD; n], out_at, 64);
    let lengths = guarded(device, &vec![GUARD; n], align, 64);
    // The run count shares the temp's buffer, after its bytes.
    let temp_bytes = rle.temp_storage_bytes(n as u32);
    let runs_at = (temp_bytes + align).next_multiple_of(align);
    let temp = guarded(device, &[GUARD], runs_at, 64);
    let mut encoder = encoder(device);
    rle.record(
        &mut encoder,
        Slice::new(&input_buffer, in_at),
        Slice::new(&unique, out_at),
        Slice::new(&lengths, align),
        Slice::new(&temp, runs_at),
        n as u32,
        Slice::new(&temp, 0),
    )
    .expect("records");
    let read = submit_and_read(device, queue, encoder, &[&unique, &lengths, &temp]);
    let what = format!("{:?} n = {n}, runs up to {longest}", rle.algorithm());
    let (want_unique, want_lengths) = run_length_reference(&input);
    let runs = read[2][(runs_at / 4) as usize] as usize;
    assert_eq!(runs, want_unique.len(), "{what}: runs");
    let got_unique = inside(&read[0], out_at, n, &what);
    let got_lengths = inside(&read[1], align, n, &what);
    assert_same(&got_unique[..runs], &want_unique, &format!("{what}: keys"));
    assert_same(
        &got_lengths[..runs],
        &want_lengths,
        &format!("{what}: lengths"),
    );
    assert!(
        got_unique[runs..]
            .iter()
            .chain(&got_lengths[runs..])
            .all(|&w| w == GUARD),
        "{what}: written past the runs"
    );
}

#[test]
fn run_length_cases() {
    if !is_child() {
        return;
    }
    let (device, queue) = open();
    let sizes = [0, 1, 2, 33, TILE - 1, TILE, TILE + 1, 3 * TILE + 5, 50_001];
    for dtype in [Dtype::U32, Dtype::I32] {
        let rle = RunLengthEncode::new(&device, dtype).expect("builds");
        assert_eq!(
            rle.algorithm(),
            ScanAlgorithm::DecoupledLookBack,
            "lavapipe's choice: the single pass"
        );
        let three_pass = RunLengthEncode::new(&device, dtype)
            .expect("builds")
            .with_algorithm(ScanAlgorithm::ReduceThenScan);
        for (seed, &n) in sizes.iter().enumerate() {
            for longest in [1, 7, 300] {
                check(&device, &queue, &rle, n, longest, seed as u64);
                check(&device, &queue, &three_pass, n, longest, seed as u64 + 50);
            }
        }
    }
    let rle = RunLengthEncode::new(&device, Dtype::U32).expect("builds");
    check(&device, &queue, &rle, 1 << 20, 20, 9);
}

#[test]
fn run_length_at_each_subgroup_size() {
    at_each_subgroup_size("run_length_cases");
}

#[test]
fn run_length_refuses_f32_and_small_buffers() {
    let (device, _queue) = open();
    let message = RunLengthEncode::new(&device, Dtype::F32)
        .err()
        .expect("f32 keys are refused")
        .to_string();
    assert!(
        message.contains("u32, i32") && message.contains("not f32"),
        "{message}"
    );
    let rle = RunLengthEncode::new(&device, Dtype::U32).expect("builds");
    let n = 100u32;
    let data = zeroed(&device, 400);
    let out = zeroed(&device, 400);
    let short = zeroed(&device, 396);
    let runs = zeroed(&device, 4);
    let temp = zeroed(&device, rle.temp_storage_bytes(n));
    let message = rle
        .record(
            &mut encoder(&device),
            (&data).into(),
            (&out).into(),
            (&short).into(),
            (&runs).into(),
            n,
            (&temp).into(),
        )
        .expect_err("lengths too small")
        .to_string();
    assert!(
        message.contains("`lengths`") && message.contains("396"),
        "{message}"
    );
}
