//! `wavekit::device::Reduce` in a wgpu application: the sum, min and max of
//! one f32 buffer, three objects built once, recorded into one encoder,
//! one submit, one read-back.
//!
//! `cargo run --example device_reduce --features runner [adapter-name]`
//! (`llvmpipe` on a machine without a GPU). An application needs only the
//! `device` feature and the wgpu back ends it picks.

mod common;

use wavekit::device::{Reduce, ReduceOp, ReduceType, Slice};
use wgpu::util::DeviceExt;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let common::Gpu {
        adapter,
        device,
        queue,
    } = common::open()?;

    let ops = [ReduceOp::Sum, ReduceOp::Min, ReduceOp::Max];
    let reductions = ops
        .iter()
        .map(|&op| Reduce::new(&device, op, ReduceType::F32))
        .collect::<Result<Vec<_>, _>>()?;

    let n = 123_457u32;
    let data: Vec<f32> = (0..n)
        .map(|i| ((i * 37) % 1001) as f32 / 1000.0 - 0.25)
        .collect();
    let input = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: bytemuck::cast_slice(&data),
        usage: wgpu::BufferUsages::STORAGE,
    });
    // The three results, each at an aligned offset of one buffer.
    let stride = u64::from(device.limits().min_storage_buffer_offset_alignment).max(4);
    let results = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 3 * stride,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let temp_bytes = reductions
        .iter()
        .map(|r| r.temp_storage_bytes(n))
        .max()
        .unwrap_or(4);
    let temp = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("reduce temp"),
        size: temp_bytes,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 3 * stride,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });

    let mut encoder = device.create_command_encoder(&Default::default());
    for (i, reduce) in reductions.iter().enumerate() {
        // One temp for all three: the calls run one after the other.
        reduce.record(
            &mut encoder,
            Slice::from(&input),
            Slice::new(&results, i as u64 * stride),
            n,
            Slice::from(&temp),
        )?;
    }
    encoder.copy_buffer_to_buffer(&results, 0, &readback, 0, 3 * stride);
    queue.submit([encoder.finish()]);

    readback
        .slice(..)
        .map_async(wgpu::MapMode::Read, |r| r.expect("maps"));
    device.poll(wgpu::PollType::wait_indefinitely())?;
    let words: Vec<f32> = bytemuck::pod_collect_to_vec(&readback.slice(..).get_mapped_range()?);
    let got: Vec<f32> = (0..3).map(|i| words[i * (stride / 4) as usize]).collect();
    let sum: f64 = data.iter().map(|&x| f64::from(x)).sum();
    let min = data.iter().copied().fold(f32::MAX, f32::min);
    let max = data.iter().copied().fold(f32::MIN, f32::max);
    let ok = (f64::from(got[0]) - sum).abs() <= 1e-4 * sum.abs().max(1.0)
        && got[1] == min
        && got[2] == max;
    println!(
        "{}: sum {} (f64: {sum:.3}), min {}, max {}: {}",
        adapter.get_info().name,
        got[0],
        got[1],
        got[2],
        if ok { "matches the CPU" } else { "WRONG" }
    );
    if ok {
        Ok(())
    } else {
        Err("a reduction differs from the CPU's".into())
    }
}
