//! `wavekit::device::Histogram` in a wgpu application: 64 even bins over
//! [-2, 2) of f32 samples, and 16 bins picked by your WGSL function, each
//! built once for your device and recorded into your own encoder on your
//! own buffers; submit, read the counts back.
//!
//! `cargo run --example device_histogram --features runner [adapter-name]`
//! (`llvmpipe` on a machine without a GPU). An application needs only the
//! `device` feature and the wgpu back ends it picks.

mod common;

use wavekit::Dtype;
use wavekit::device::{EvenLevels, Histogram, Slice};
use wgpu::util::DeviceExt;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let common::Gpu {
        adapter,
        device,
        queue,
    } = common::open()?;

    let even = Histogram::even(
        &device,
        64,
        EvenLevels::F32 {
            lower: -2.0,
            upper: 2.0,
        },
    )?;
    // The bin function is WGSL: `fn bin(x: T) -> u32`; bins of 16 or more
    // drop the sample.
    let by_fn = Histogram::with_bin_fn(
        &device,
        Dtype::F32,
        16,
        "fn bin(x: f32) -> u32 { return u32(abs(x) * 8.0); }",
    )?;
    println!(
        "{}: 64 even bins and 16 by a WGSL function",
        adapter.get_info().name
    );

    let n = 1_000_003u32;
    let samples: Vec<f32> = (0..n)
        .map(|i| ((i.wrapping_mul(2_654_435_761) >> 8) % 5000) as f32 / 1000.0 - 2.5)
        .collect();
    let input = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: bytemuck::cast_slice(&samples),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let counts = storage(&device, 4 * (64 + 16));
    let offset = u64::from(device.limits().min_storage_buffer_offset_alignment);
    let by_fn_counts = storage(&device, offset + 4 * 16);

    let mut encoder = device.create_command_encoder(&Default::default());
    even.record(&mut encoder, Slice::from(&input), Slice::from(&counts), n)?;
    by_fn.record(
        &mut encoder,
        Slice::from(&input),
        Slice::new(&by_fn_counts, offset),
        n,
    )?;
    queue.submit([encoder.finish()]);

    let got_even = read(&device, &queue, &counts, 0, 4 * 64)?;
    let got_fn = read(&device, &queue, &by_fn_counts, offset, 4 * 16)?;
    let mut want_even = vec![0u32; 64];
    let mut want_fn = vec![0u32; 16];
    let scale = 64.0f32 / 4.0;
    for &x in &samples {
        if (-2.0..2.0).contains(&x) {
            want_even[(((x + 2.0) * scale) as usize).min(63)] += 1;
        }
        let b = (x.abs() * 8.0) as usize;
        if b < 16 {
            want_fn[b] += 1;
        }
    }
    let ok = got_even == want_even && got_fn == want_fn;
    println!(
        "{n} f32 samples: {} in the even bins, {} in the function's: {}",
        got_even.iter().sum::<u32>(),
        got_fn.iter().sum::<u32>(),
        if ok { "matches the CPU" } else { "WRONG" }
    );
    if ok {
        Ok(())
    } else {
        Err("the histograms differ from the CPU's".into())
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
