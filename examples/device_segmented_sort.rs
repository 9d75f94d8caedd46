//! `wavekit::device::SegmentedSort` in a wgpu application: sort each
//! segment of f32 keys with u32 values (segments of 0 to 5000 elements,
//! given by their begin offsets), recorded into your own encoder on your
//! own buffers, then read back and checked against the CPU.
//!
//! `cargo run --example device_segmented_sort --features runner [adapter-name]`
//! (`llvmpipe` on a machine without a GPU). An application needs only the
//! `device` feature and the wgpu back ends it picks.

mod common;

use wavekit::device::{KeyType, SegmentedSort, Slice};
use wgpu::util::DeviceExt;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let common::Gpu {
        adapter,
        device,
        queue,
    } = common::open()?;

    let sort = SegmentedSort::pairs(&device, KeyType::F32)?; // once per device
    // Segments of 0, 3, 32, 33, 700 and 5000 elements in turn.
    let n = 200_000u32;
    let mut offsets = vec![0u32];
    for len in [0, 3, 32, 33, 700, 5000].into_iter().cycle() {
        let end = (offsets[offsets.len() - 1] + len).min(n);
        offsets.push(end);
        if end == n {
            break;
        }
    }
    let segments = offsets.len() as u32 - 1;
    println!("{}: {}", adapter.get_info().name, sort.describe());

    let keys: Vec<f32> = (0..n)
        .map(|i| ((i * 7919) % 1009) as f32 / 8.0 - 60.0)
        .collect();
    let values: Vec<u32> = (0..n).collect();
    let storage = |contents: &[u8]| {
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents,
            usage: wgpu::BufferUsages::STORAGE,
        })
    };
    let output = |size: u64, usage: wgpu::BufferUsages| {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size,
            usage,
            mapped_at_creation: false,
        })
    };
    let keys_in = storage(bytemuck::cast_slice(&keys));
    let values_in = storage(bytemuck::cast_slice(&values));
    let offsets_buffer = storage(bytemuck::cast_slice(&offsets));
    let out_usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
    let keys_out = output(4 * u64::from(n), out_usage);
    let values_out = output(4 * u64::from(n), out_usage);
    let temp = output(
        sort.temp_storage_bytes(n),
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
    );
    let read_usage = wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST;
    let keys_back = output(4 * u64::from(n), read_usage);
    let values_back = output(4 * u64::from(n), read_usage);

    let mut encoder = device.create_command_encoder(&Default::default());
    sort.record_pairs(
        &mut encoder,
        Slice::from(&keys_in),
        Slice::from(&keys_out),
        Slice::from(&values_in),
        Slice::from(&values_out),
        n,
        Slice::from(&offsets_buffer),
        segments,
        Slice::from(&temp),
    )?;
    encoder.copy_buffer_to_buffer(&keys_out, 0, &keys_back, 0, 4 * u64::from(n));
    encoder.copy_buffer_to_buffer(&values_out, 0, &values_back, 0, 4 * u64::from(n));
    queue.submit([encoder.finish()]);
    for b in [&keys_back, &values_back] {
        b.slice(..)
            .map_async(wgpu::MapMode::Read, |r| r.expect("maps"));
    }
    device.poll(wgpu::PollType::wait_indefinitely())?;
    let got_keys: Vec<f32> = bytemuck::pod_collect_to_vec(&keys_back.slice(..).get_mapped_range()?);
    let got_values: Vec<u32> =
        bytemuck::pod_collect_to_vec(&values_back.slice(..).get_mapped_range()?);

    // The CPU: each segment sorted on (key, value); the values here are
    // indices, so that is the stable sort by key.
    let mut want: Vec<(f32, u32)> = keys.iter().copied().zip(values).collect();
    for s in offsets.windows(2) {
        want[s[0] as usize..s[1] as usize].sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    }
    let got: Vec<(f32, u32)> = got_keys.into_iter().zip(got_values).collect();
    let ok = got == want;
    println!(
        "{segments} segments of {n} (f32, u32) pairs: {}",
        if ok { "match the CPU" } else { "WRONG" }
    );
    if ok {
        Ok(())
    } else {
        Err("the segmented sort differs from the CPU's".into())
    }
}
