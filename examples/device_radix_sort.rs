//! `wavekit::device::RadixSort` in a wgpu application: open a device with
//! the features wavekit's target needs, build the sort once, record it into
//! your own command encoder on your own buffers, submit, read back.
//!
//! `cargo run --example device_radix_sort --features runner [adapter-name]`
//! (`llvmpipe` on a machine without a GPU). An application needs only the
//! `device` feature and the wgpu back ends it picks.

use wavekit::device::{KeyType, RadixSort, Slice};
use wgpu::util::DeviceExt;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let filter = std::env::args().nth(1).unwrap_or_default().to_lowercase();
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::PRIMARY))
        .into_iter()
        .find(|a| {
            a.features().contains(wgpu::Features::SUBGROUP)
                && a.get_info().name.to_lowercase().contains(&filter)
        })
        .ok_or("no adapter with subgroup operations")?;
    // The features wavekit's shaders need (subgroups, and f16 / 64-bit
    // types where the adapter has them).
    let target = wavekit::Target::from_adapter(&adapter)?;
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        required_features: target.wgpu_features(),
        required_limits: adapter.limits(),
        ..Default::default()
    }))?;

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
    // Scratch, as CUB's d_temp_storage: STORAGE | COPY_DST.
    let temp = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("sort temp"),
        size: sort.temp_storage_bytes(n),
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
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
    if ok {
        Ok(())
    } else {
        Err("the sort differs from the CPU's".into())
    }
}
