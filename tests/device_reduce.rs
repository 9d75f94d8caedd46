//! `wavekit::device::Reduce` on lavapipe at subgroup sizes 4, 8 and 16
//! against a CPU reference: sum, min and max of f32, i32 and u32 at edge
//! sizes (0, 1, below a vec4, a workgroup's vec4s ± 1, odd sizes, 2^20),
//! slices at non-zero offsets inside larger buffers whose other bytes must
//! stay.

mod device_support;

use device_support::*;
use wavekit::device::{Reduce, ReduceOp, ReduceType, Slice};

/// Elements one workgroup of the first pass folds per step (256 × vec4).
const STEP: usize = 1024;

/// The input words of type `ty`: f32 in [-1, 1), i32 of both signs, u32.
fn input(ty: ReduceType, n: usize, seed: u64) -> Vec<u32> {
    let raw = random(n, 0, seed);
    match ty {
        ReduceType::F32 => raw
            .iter()
            .map(|&w| ((w >> 8) as f32 / (1 << 23) as f32 - 1.0).to_bits())
            .collect(),
        _ => raw,
    }
}

/// Checks the GPU's bits `got` against the reference: exact, but f32 sums
/// within 1e-4 of the f64 sum's scale.
fn check_result(ty: ReduceType, op: ReduceOp, input: &[u32], got: u32, what: &str) {
    match ty {
        ReduceType::F32 => {
            let values: Vec<f32> = input.iter().map(|&b| f32::from_bits(b)).collect();
            let got = f32::from_bits(got);
            match op {
                ReduceOp::Sum => {
                    let want: f64 = values.iter().map(|&v| f64::from(v)).sum();
                    let scale: f64 = values.iter().map(|&v| f64::from(v).abs()).sum();
                    assert!(
                        (f64::from(got) - want).abs() <= 1e-5 * scale.max(1.0),
                        "{what}: got {got}, want {want}"
                    );
                }
                ReduceOp::Min => {
                    let want = values.iter().copied().fold(f32::MAX, f32::min);
                    assert_eq!(got, want, "{what}");
                }
                ReduceOp::Max => {
                    let want = values.iter().copied().fold(f32::MIN, f32::max);
                    assert_eq!(got, want, "{what}");
                }
            }
        }
        ReduceType::I32 => {
            let values = input.iter().map(|&b| b as i32);
            let want = match op {
                ReduceOp::Sum => values.fold(0i32, i32::wrapping_add),
                ReduceOp::Min => values.fold(i32::MAX, i32::min),
                ReduceOp::Max => values.fold(i32::MIN, i32::max),
            };
            assert_eq!(got as i32, want, "{what}");
        }
        ReduceType::U32 => {
            let values = input.iter().copied();
            let want = match op {
                ReduceOp::Sum => values.fold(0u32, u32::wrapping_add),
                ReduceOp::Min => values.fold(u32::MAX, u32::min),
                ReduceOp::Max => values.fold(u32::MIN, u32::max),
            };
            assert_eq!(got, want, "{what}");
        }
    }
}

fn check(device: &wgpu::Device, queue: &wgpu::Queue, reduce: &Reduce, ty: ReduceType, n: usize) {
    let align = alignment(device);
    let data = input(ty, n, n as u64 + 1);
    let input_buffer = guarded(device, &data, align, 64);
    let result = guarded(device, &[GUARD], 3 * align, 64);
    let temp = zeroed(device, reduce.temp_storage_bytes(n as u32) + align);
    let mut encoder = encoder(device);
    reduce
        .record(
            &mut encoder,
            Slice::new(&input_buffer, align),
            Slice::new(&result, 3 * align),
            n as u32,
            Slice::new(&temp, align),
        )
        .expect("records");
    let read = submit_and_read(device, queue, encoder, &[&result]);
    let what = format!("{:?} {ty:?} n = {n}", reduce.op());
    let got = inside(&read[0], 3 * align, 1, &what)[0];
    check_result(ty, reduce.op(), &data, got, &what);
}

#[test]
fn reduce_cases() {
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
        4 * STEP - 1,
        4 * STEP,
        4 * STEP + 1,
        77_777,
    ];
    for ty in [ReduceType::F32, ReduceType::I32, ReduceType::U32] {
        for op in [ReduceOp::Sum, ReduceOp::Min, ReduceOp::Max] {
            let reduce = Reduce::new(&device, op, ty).expect("builds");
            for &n in &sizes {
                check(&device, &queue, &reduce, ty, n);
            }
        }
    }
    let sum = Reduce::new(&device, ReduceOp::Sum, ReduceType::F32).expect("builds");
    check(&device, &queue, &sum, ReduceType::F32, 1 << 20);
}

#[test]
fn reduce_at_each_subgroup_size() {
    at_each_subgroup_size("reduce_cases");
}
