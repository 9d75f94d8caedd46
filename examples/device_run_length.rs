//! `wavekit::device::RunLengthEncode` in a wgpu application: build it once
//! for your device, record it into your own encoder on your own buffers,
//! submit, read the number of runs, their keys and lengths back.
//!
//! `cargo run --example device_run_length --features runner [adapter-name]`
//! (`llvmpipe` on a machine without a GPU). An application needs only the
//! `device` feature and the wgpu back ends it picks.

mod common;

use wavekit::Dtype;
use wavekit::device::{RunLengthEncode, Slice};
use wgpu::util::DeviceExt;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let common::Gpu {
        adapter,
        device,
        queue,
    } = common::open()?;

    let rle = RunLengthEncode::new(&device, Dtype::U32)?;
    println!("{}: {:?}", adapter.get_info().name, rle.algorithm());

    let n = 1_000_003u32;
    // Runs of 1 to 10 equal keys.
    let keys: Vec<u32> = (0..n).map(|i| (i / (1 + i % 10)) % 5).collect();
    let input = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: bytemuck::cast_slice(&keys),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let unique = storage(&device, 4 * u64::from(n));
    let lengths = storage(&device, 4 * u64::from(n));
    let runs = storage(&device, 4);
    let temp = storage(&device, rle.temp_storage_bytes(n));

    let mut encoder = device.create_command_encoder(&Default::default());
    rle.record(
        &mut encoder,
        Slice::from(&input),
        Slice::from(&unique),
        Slice::from(&lengths),
        Slice::from(&runs),
        n,
        Slice::from(&temp),
    )?;
    queue.submit([encoder.finish()]);

    let count = read(&device, &queue, &runs, 0, 4)?[0] as usize;
    let got_keys = read(&device, &queue, &unique, 0, 4 * count as u64)?;
    let got_lengths = read(&device, &queue, &lengths, 0, 4 * count as u64)?;
    let mut want: Vec<(u32, u32)> = Vec::new();
    for (i, &k) in keys.iter().enumerate() {
        match want.last_mut() {
            Some((key, len)) if i > 0 && *key == k => *len += 1,
            _ => want.push((k, 1)),
        }
    }
    let got: Vec<(u32, u32)> = got_keys.into_iter().zip(got_lengths).take(count).collect();
    println!(
        "{count} runs in {n} u32: {}",
        if got == want {
            "matches the CPU"
        } else {
            "WRONG"
        }
    );
    if got == want {
        Ok(())
    } else {
        Err("the encoding differs from the CPU's".into())
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
