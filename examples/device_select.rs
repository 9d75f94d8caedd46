//! `wavekit::device::SelectIf` in a wgpu application: build a selection
//! with your WGSL predicate once for your device, record it into your own
//! encoder on your own buffers (the kept elements at an offset inside a
//! larger buffer), submit, read the count and the kept elements back.
//!
//! `cargo run --example device_select --features runner [adapter-name]`
//! (`llvmpipe` on a machine without a GPU). An application needs only the
//! `device` feature and the wgpu back ends it picks.

mod common;

use wavekit::Dtype;
use wavekit::device::{SelectIf, Slice};
use wgpu::util::DeviceExt;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let common::Gpu {
        adapter,
        device,
        queue,
    } = common::open()?;

    // The predicate is WGSL: `fn keep(x: T) -> bool`.
    let select = SelectIf::new(
        &device,
        Dtype::F32,
        "fn keep(x: f32) -> bool { return abs(x) < 0.25; }",
    )?;
    println!("{}: {}", adapter.get_info().name, select.describe());

    let n = 1_000_003u32;
    let values: Vec<f32> = (0..n)
        .map(|i| (i.wrapping_mul(7919) % 1000) as f32 / 500.0 - 1.0)
        .collect();
    let offset = u64::from(device.limits().min_storage_buffer_offset_alignment);
    let input = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: bytemuck::cast_slice(&values),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let output = storage(&device, offset + 4 * u64::from(n));
    let count = storage(&device, 4);
    let temp = storage(&device, select.temp_storage_bytes(n));

    let mut encoder = device.create_command_encoder(&Default::default());
    select.record(
        &mut encoder,
        Slice::from(&input),
        Slice::new(&output, offset),
        Slice::from(&count),
        n,
        Slice::from(&temp),
    )?;
    queue.submit([encoder.finish()]);

    let kept = read(&device, &queue, &count, 0, 4)?[0];
    let got: Vec<f32> = read(&device, &queue, &output, offset, 4 * u64::from(kept))?
        .into_iter()
        .take(kept as usize)
        .map(f32::from_bits)
        .collect();
    let want: Vec<f32> = values.iter().copied().filter(|x| x.abs() < 0.25).collect();
    println!(
        "kept {kept} of {n} f32: {}",
        if got == want {
            "matches the CPU"
        } else {
            "WRONG"
        }
    );
    if got == want {
        Ok(())
    } else {
        Err("the selection differs from the CPU's".into())
    }
}

/// Copies `bytes` of `buffer` from `offset` and reads them back.
fn read(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    buffer: &wgpu::Buffer,
    offset: u64,
    bytes: u64,
) -> Result<Vec<u32>, Box<dyn std::error::Error>> {
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: bytes.max(4),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(buffer, offset, &readback, 0, bytes);
    queue.submit([encoder.finish()]);
    readback
        .slice(..)
        .map_async(wgpu::MapMode::Read, |r| r.expect("maps"));
    device.poll(wgpu::PollType::wait_indefinitely())?;
    Ok(bytemuck::pod_collect_to_vec(
        &readback.slice(..).get_mapped_range()?,
    ))
}

/// A buffer of `bytes` for the algorithms' outputs and temp.
fn storage(device: &wgpu::Device, bytes: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: bytes.max(4),
        usage: wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}
