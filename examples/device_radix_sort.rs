//! `wavekit::device::RadixSort` in a wgpu application: open a device with
//! the features wavekit's target needs, build the sort once, record it into
//! your own command encoder on your own buffers, submit, read back: f32
//! keys with u32 values, then u64 keys alone (64-bit keys are 8 bytes each,
//! as a `&[u64]` casts; they need no 64-bit integer support on the device).
//!
//! `cargo run --example device_radix_sort --features runner [adapter-name]`
//! (`llvmpipe` on a machine without a GPU). An application needs only the
//! `device` feature and the wgpu back ends it picks.

mod common;

use wavekit::device::{KeyType, RadixSort, Slice};
use wgpu::util::DeviceExt;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let common::Gpu {
        adapter,
        device,
        queue,
    } = common::open()?;

    // Built once: shaders composed for the device, pipelines compiled.
    let sort = RadixSort::pairs(&device, KeyType::F32)?;
    println!("{}: {}", adapter.get_info().name, sort.describe());

    let keys: Vec<f32> = (0..100_000u32)
        .map(|i| ((i * 7919) % 1000) as f32 - 500.5)
        .collect();
    let values: Vec<u32> = (0..keys.len() as u32).collect();
    let n = keys.len() as u32;
    let usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
    let storage = |data: &[u8]| {
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: data,
            usage,
        })
    };
    let keys_in = storage(bytemuck::cast_slice(&keys));
    let values_in = storage(bytemuck::cast_slice(&values));
    let keys_out = storage(&vec![0; 4 * keys.len()]);
    let values_out = storage(&vec![0; 4 * keys.len()]);
    // Scratch, as CUB's d_temp_storage: STORAGE is all it needs.
    let temp = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("sort temp"),
        size: sort.temp_storage_bytes(n),
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 8 * u64::from(n),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });

    let mut encoder = device.create_command_encoder(&Default::default());
    sort.record_pairs(
        &mut encoder,
        Slice::from(&keys_in),
        Slice::from(&keys_out),
        Slice::from(&values_in),
        Slice::from(&values_out),
        n,
        Slice::from(&temp),
    )?;
    encoder.copy_buffer_to_buffer(&keys_out, 0, &readback, 0, 4 * u64::from(n));
    encoder.copy_buffer_to_buffer(
        &values_out,
        0,
        &readback,
        4 * u64::from(n),
        4 * u64::from(n),
    );
    queue.submit([encoder.finish()]);

    readback
        .slice(..)
        .map_async(wgpu::MapMode::Read, |r| r.expect("maps"));
    device.poll(wgpu::PollType::wait_indefinitely())?;
    let words: Vec<u32> = bytemuck::pod_collect_to_vec(&readback.slice(..).get_mapped_range()?);
    let (got_keys, got_values) = words.split_at(keys.len());
    let got_keys: Vec<f32> = got_keys.iter().map(|&b| f32::from_bits(b)).collect();

    // Stable: equal keys keep their input order, so the values say where
    // each key came from.
    let mut want: Vec<(f32, u32)> = keys.iter().copied().zip(values.iter().copied()).collect();
    want.sort_by(|a, b| a.0.total_cmp(&b.0));
    let ok = want
        .iter()
        .zip(got_keys.iter().zip(got_values))
        .all(|(w, (k, v))| w.0 == *k && w.1 == *v);
    println!(
        "sorted {n} (f32, u32) pairs: first {:?}, last {:?}: {}",
        &got_keys[..3],
        &got_keys[got_keys.len() - 3..],
        if ok { "matches the CPU" } else { "WRONG" }
    );
    if !ok {
        return Err("the sort differs from the CPU's".into());
    }
    u64_keys(&device, &queue)
}

/// Sorts u64 keys alone and checks them against the CPU's sort.
fn u64_keys(device: &wgpu::Device, queue: &wgpu::Queue) -> Result<(), Box<dyn std::error::Error>> {
    let sort = RadixSort::keys(device, KeyType::U64)?;
    let keys: Vec<u64> = (0..100_000u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (i % 40))
        .collect();
    let n = keys.len() as u32;
    let bytes = 8 * u64::from(n);
    let keys_in = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: bytemuck::cast_slice(&keys),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let buffer = |usage| {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: bytes,
            usage,
            mapped_at_creation: false,
        })
    };
    let keys_out = buffer(wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC);
    let readback = buffer(wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST);
    let temp = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("sort temp"),
        size: sort.temp_storage_bytes(n),
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    sort.record_keys(
        &mut encoder,
        Slice::from(&keys_in),
        Slice::from(&keys_out),
        n,
        Slice::from(&temp),
    )?;
    encoder.copy_buffer_to_buffer(&keys_out, 0, &readback, 0, bytes);
    queue.submit([encoder.finish()]);
    readback
        .slice(..)
        .map_async(wgpu::MapMode::Read, |r| r.expect("maps"));
    device.poll(wgpu::PollType::wait_indefinitely())?;
    let got: Vec<u64> = bytemuck::pod_collect_to_vec(&readback.slice(..).get_mapped_range()?);
    let mut want = keys;
    want.sort_unstable();
    let ok = got == want;
    println!(
        "sorted {n} u64 keys ({:?}): first {:#x}, last {:#x}: {}",
        sort.algorithm(),
        got[0],
        got[got.len() - 1],
        if ok { "matches the CPU" } else { "WRONG" }
    );
    if ok {
        Ok(())
    } else {
        Err("the u64 sort differs from the CPU's".into())
    }
}
