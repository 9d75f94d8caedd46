//! `wavekit::device::Scan` in a wgpu application: build the exclusive sum
//! once for your device, record it into your own encoder on your own
//! buffers (here at an offset inside a larger buffer), submit, read back;
//! then an inclusive scan under your own WGSL operator (a running maximum
//! of f32, `ScanOperator::custom`) into the same encoder's successor.
//!
//! `cargo run --example device_scan --features runner [adapter-name]`
//! (`llvmpipe` on a machine without a GPU). An application needs only the
//! `device` feature and the wgpu back ends it picks.

mod common;

use wavekit::Dtype;
use wavekit::device::{Scan, ScanKind, ScanOperator, Slice};
use wgpu::util::DeviceExt;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let common::Gpu {
        adapter,
        device,
        queue,
    } = common::open()?;

    let scan = Scan::exclusive_sum(&device, Dtype::U32)?;
    println!(
        "{}: {}",
        adapter.get_info().name,
        scan.algorithm().describe()
    );

    let n = 1_000_003u32;
    let counts: Vec<u32> = (0..n).map(|i| i % 3).collect();
    // The output goes to an offset inside a larger buffer: offsets are
    // multiples of min_storage_buffer_offset_alignment.
    let offset = u64::from(device.limits().min_storage_buffer_offset_alignment);
    let input = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: bytemuck::cast_slice(&counts),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let output = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: offset + 4 * u64::from(n),
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let temp = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("scan temp"),
        size: scan.temp_storage_bytes(n),
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 4 * u64::from(n),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });

    let mut encoder = device.create_command_encoder(&Default::default());
    scan.record(
        &mut encoder,
        Slice::from(&input),
        Slice::new(&output, offset),
        n,
        Slice::from(&temp),
    )?;
    encoder.copy_buffer_to_buffer(&output, offset, &readback, 0, 4 * u64::from(n));
    queue.submit([encoder.finish()]);

    readback
        .slice(..)
        .map_async(wgpu::MapMode::Read, |r| r.expect("maps"));
    device.poll(wgpu::PollType::wait_indefinitely())?;
    let got: Vec<u32> = bytemuck::pod_collect_to_vec(&readback.slice(..).get_mapped_range()?);
    let want: Vec<u32> = counts
        .iter()
        .scan(0u32, |sum, &x| {
            let before = *sum;
            *sum += x;
            Some(before)
        })
        .collect();
    println!(
        "exclusive sum of {n} u32: last {}: {}",
        got[got.len() - 1],
        if got == want {
            "matches the CPU"
        } else {
            "WRONG"
        }
    );
    if got != want {
        return Err("the scan differs from the CPU's".into());
    }

    // A user operator: the function's text and its identity, both WGSL.
    let running_max = Scan::with_operator(
        &device,
        ScanKind::Inclusive,
        Dtype::F32,
        ScanOperator::custom(
            "fn larger(a: f32, b: f32) -> f32 { return select(a, b, b > a); }",
            "-3.4e38f",
        ),
    )?;
    let samples: Vec<f32> = (0..n)
        .map(|i| ((u64::from(i) * 7919) % 10007) as f32 - 5000.0)
        .collect();
    let input = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: bytemuck::cast_slice(&samples),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let temp = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("operator scan temp"),
        size: running_max.temp_storage_bytes(n),
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    readback.unmap();
    let mut encoder = device.create_command_encoder(&Default::default());
    running_max.record(
        &mut encoder,
        Slice::from(&input),
        Slice::new(&output, offset),
        n,
        Slice::from(&temp),
    )?;
    encoder.copy_buffer_to_buffer(&output, offset, &readback, 0, 4 * u64::from(n));
    queue.submit([encoder.finish()]);
    readback
        .slice(..)
        .map_async(wgpu::MapMode::Read, |r| r.expect("maps"));
    device.poll(wgpu::PollType::wait_indefinitely())?;
    let got: Vec<f32> = bytemuck::pod_collect_to_vec(&readback.slice(..).get_mapped_range()?);
    let want: Vec<f32> = samples
        .iter()
        .scan(f32::MIN, |m, &x| {
            *m = m.max(x);
            Some(*m)
        })
        .collect();
    println!(
        "running maximum of {n} f32 under a WGSL operator: last {}: {}",
        got[got.len() - 1],
        if got == want {
            "matches the CPU"
        } else {
            "WRONG"
        }
    );
    if got == want {
        Ok(())
    } else {
        Err("the operator scan differs from the CPU's".into())
    }
}
