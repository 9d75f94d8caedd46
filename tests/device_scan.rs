//! `wavekit::device::Scan` on lavapipe at subgroup sizes 4, 8 and 16
//! against a CPU reference: exclusive and inclusive, both algorithms, edge
//! sizes (0, 1, below a vec4, a tile ± 1, odd sizes, 2^20), slices at
//! non-zero offsets inside larger buffers whose other bytes must stay.

mod device_support;

use device_support::*;
use wavekit::Dtype;
use wavekit::device::{Scan, ScanAlgorithm, ScanKind, Slice};

const TILE: usize = 8192;

fn reference(input: &[u32], kind: ScanKind) -> Vec<u32> {
    let mut sum = 0u32;
    input
        .iter()
        .map(|&x| {
            let before = sum;
            sum = sum.wrapping_add(x);
            match kind {
                ScanKind::Exclusive => before,
                ScanKind::Inclusive => sum,
            }
        })
        .collect()
}

fn check(device: &wgpu::Device, queue: &wgpu::Queue, scan: &Scan, n: usize, seed: u64) {
    let align = alignment(device);
    let input = random(n, 0, seed);
    let (in_at, out_at) = (align, 2 * align);
    let input_buffer = guarded(device, &input, in_at, 64);
    let output = guarded(device, &vec![GUARD; n], out_at, 64);
    let temp = zeroed(device, scan.temp_storage_bytes(n as u32));
    let mut encoder = encoder(device);
    scan.record(
        &mut encoder,
        Slice::new(&input_buffer, in_at),
        Slice::new(&output, out_at),
        n as u32,
        (&temp).into(),
    )
    .expect("records");
    let read = submit_and_read(device, queue, encoder, &[&output, &input_buffer]);
    let what = format!("{:?} {:?} n = {n}", scan.kind(), scan.algorithm());
    let got = inside(&read[0], out_at, n, &what);
    assert_eq!(
        inside(&read[1], in_at, n, &what),
        input,
        "{what}: input changed"
    );
    assert_same(&got, &reference(&input, scan.kind()), &what);
}

#[test]
fn scan_cases() {
    if !is_child() {
        return;
    }
    let (device, queue) = open();
    let sizes = [
        0,
        1,
        2,
        3,
        4,
        5,
        7,
        1000,
        TILE - 1,
        TILE,
        TILE + 1,
        3 * TILE + 3,
        50_001,
    ];
    for kind in [ScanKind::Exclusive, ScanKind::Inclusive] {
        let scan = Scan::new(&device, kind, Dtype::U32).expect("builds");
        assert_eq!(
            scan.algorithm(),
            ScanAlgorithm::ReduceThenScan,
            "lavapipe's choice"
        );
        let lookback = Scan::new(&device, kind, Dtype::I32)
            .expect("builds")
            .with_algorithm(ScanAlgorithm::DecoupledLookBack);
        for (seed, &n) in sizes.iter().enumerate() {
            check(&device, &queue, &scan, n, seed as u64);
            check(&device, &queue, &lookback, n, seed as u64 + 100);
        }
    }
    let scan = Scan::exclusive_sum(&device, Dtype::U32).expect("builds");
    check(&device, &queue, &scan, 1 << 20, 7);
}

#[test]
fn scan_at_each_subgroup_size() {
    at_each_subgroup_size("scan_cases");
}
