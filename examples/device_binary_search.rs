//! `wavekit::device::BinarySearch` in a wgpu application: where each of
//! many f32 queries falls among sorted f32 boundaries (CUB's
//! `DeviceFind::UpperBound`: the index of the first boundary above it),
//! and the first position of each query among them (`LowerBound`), two
//! objects built once, recorded into one encoder, one submit, one
//! read-back.
//!
//! `cargo run --example device_binary_search --features runner [adapter-name]`
//! (`llvmpipe` on a machine without a GPU). An application needs only the
//! `device` feature and the wgpu back ends it picks.

use wavekit::Dtype;
use wavekit::device::{BinarySearch, Bound, Slice};
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
    let target = wavekit::Target::from_adapter(&adapter)?;
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        required_features: target.wgpu_features(),
        required_limits: adapter.limits(),
        ..Default::default()
    }))?;

    let searches = [Bound::Upper, Bound::Lower].map(|b| BinarySearch::new(&device, Dtype::F32, b));
    let [upper, lower] = searches;
    let (upper, lower) = (upper?, lower?);

    // 10_000 boundaries, squares of 0.01 steps (some repeated), and
    // 400_003 queries in and around them.
    let boundaries: Vec<f32> = (0..10_000u32)
        .map(|i| ((i / 2) as f32 * 0.01).powi(2))
        .collect();
    let queries: Vec<f32> = (0..400_003u32)
        .map(|i| (i.wrapping_mul(7919) % 30_001) as f32 * 1e-3 - 1.0)
        .collect();
    let (m, k) = (boundaries.len() as u32, queries.len() as u32);
    let storage = |data: &[f32]| {
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: bytemuck::cast_slice(data),
            usage: wgpu::BufferUsages::STORAGE,
        })
    };
    let (haystack, needles) = (storage(&boundaries), storage(&queries));
    // Both outputs in one buffer, the second at an aligned offset.
    let at = (4 * u64::from(k)).next_multiple_of(u64::from(
        device.limits().min_storage_buffer_offset_alignment,
    ));
    let output = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 2 * at,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 2 * at,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });

    let mut encoder = device.create_command_encoder(&Default::default());
    for (i, search) in [&upper, &lower].into_iter().enumerate() {
        search.record(
            &mut encoder,
            Slice::from(&haystack),
            m,
            Slice::from(&needles),
            k,
            Slice::new(&output, i as u64 * at),
        )?;
    }
    encoder.copy_buffer_to_buffer(&output, 0, &readback, 0, 2 * at);
    queue.submit([encoder.finish()]);

    readback
        .slice(..)
        .map_async(wgpu::MapMode::Read, |r| r.expect("maps"));
    device.poll(wgpu::PollType::wait_indefinitely())?;
    let words: Vec<u32> = bytemuck::pod_collect_to_vec(&readback.slice(..).get_mapped_range()?);
    let got_upper = &words[..k as usize];
    let got_lower = &words[(at / 4) as usize..(at / 4) as usize + k as usize];
    let want = |after: fn(f32, f32) -> bool| -> Vec<u32> {
        queries
            .iter()
            .map(|&q| boundaries.partition_point(|&b| after(b, q)) as u32)
            .collect()
    };
    let ok =
        got_upper == want(|b, q| b <= q).as_slice() && got_lower == want(|b, q| b < q).as_slice();
    println!(
        "{}: upper and lower bounds of {k} queries among {m} boundaries: {}",
        adapter.get_info().name,
        if ok { "match the CPU" } else { "WRONG" }
    );
    if ok {
        Ok(())
    } else {
        Err("the searches differ from the CPU's".into())
    }
}
