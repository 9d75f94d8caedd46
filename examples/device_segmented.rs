//! `wavekit::device::SegmentedReduce` and `SegmentedScan` in a wgpu
//! application: the maximum of each row of a matrix (fixed-size segments,
//! CUB's `DeviceSegmentedReduce::Max`), and an exclusive sum within each
//! of a set of variable segments given by begin and end offsets, in place
//! (CCCL's `DeviceSegmentedScan`), recorded into one encoder, one submit,
//! one read-back.
//!
//! `cargo run --example device_segmented --features runner [adapter-name]`
//! (`llvmpipe` on a machine without a GPU). An application needs only the
//! `device` feature and the wgpu back ends it picks.

mod common;

use wavekit::Dtype;
use wavekit::device::{ScanKind, ScanOperator, SegmentedReduce, SegmentedScan, Slice};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let gpu = common::open()?;
    let device = &gpu.device;
    let row_max = SegmentedReduce::new(device, Dtype::F32, ScanOperator::Max)?;
    let sums = SegmentedScan::new(device, ScanKind::Exclusive, Dtype::U32, ScanOperator::Add)?;

    // A 1000 × 777 matrix of f32.
    let (rows, cols) = (1000u32, 777u32);
    let matrix: Vec<f32> = (0..rows * cols)
        .map(|i| ((i.wrapping_mul(2_654_435_761) >> 8) % 10_000) as f32 * 0.01)
        .collect();
    // Segments of 0 to 2999 elements over 300 007 u32, some gaps between.
    let n = 300_007u32;
    let data: Vec<u32> = (0..n).map(|i| i % 13).collect();
    let (mut begin, mut end) = (Vec::new(), Vec::new());
    let mut at = 0u32;
    for s in 0u32.. {
        let b = (at + s % 3).min(n);
        at = (b + s.wrapping_mul(7919) % 3000).min(n);
        begin.push(b);
        end.push(at);
        if at == n {
            break;
        }
    }
    let segments = begin.len() as u32;

    let matrix_in = gpu.upload(&matrix);
    let data_buffer = gpu.upload(&data);
    let (begin_in, end_in) = (gpu.upload(&begin), gpu.upload(&end));
    let maxima = gpu.storage(4 * u64::from(rows));

    let mut encoder = device.create_command_encoder(&Default::default());
    row_max.record_fixed(
        &mut encoder,
        Slice::from(&matrix_in),
        Slice::from(&maxima),
        rows,
        cols,
    )?;
    // In place: the data becomes its segments' exclusive sums.
    let data_slice = Slice::from(&data_buffer);
    sums.record(
        &mut encoder,
        data_slice,
        data_slice,
        n,
        segments,
        Slice::from(&begin_in),
        Slice::from(&end_in),
    )?;
    let got_max: Vec<f32> = gpu.submit_and_read(encoder, &maxima)?;
    let encoder = device.create_command_encoder(&Default::default());
    let got_sums: Vec<u32> = gpu.submit_and_read(encoder, &data_buffer)?;

    let want_max: Vec<f32> = matrix
        .chunks_exact(cols as usize)
        .map(|row| row.iter().copied().fold(f32::NEG_INFINITY, f32::max))
        .collect();
    let mut want_sums = data.clone();
    for (&b, &e) in begin.iter().zip(&end) {
        let mut sum = 0u32;
        for x in &mut want_sums[b as usize..e as usize] {
            let value = *x;
            *x = sum;
            sum += value;
        }
    }
    gpu.report(
        &format!("the maxima of {rows} rows of {cols}; {segments} segments summed in place"),
        got_max == want_max && got_sums == want_sums,
    )
}
