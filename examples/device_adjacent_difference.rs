//! `wavekit::device::AdjacentDifference` in a wgpu application: undo a
//! running sum in place (CUB's `SubtractLeft`: each element minus the one
//! before it), and the distance of each element to the next into another
//! buffer with a WGSL operator (`SubtractRightCopy`), recorded into one
//! encoder, one submit, one read-back.
//!
//! `cargo run --example device_adjacent_difference --features runner [adapter-name]`
//! (`llvmpipe` on a machine without a GPU). An application needs only the
//! `device` feature and the wgpu back ends it picks.

use wavekit::Dtype;
use wavekit::device::{AdjacentDifference, Slice, Subtract};
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

    let undo_sum = AdjacentDifference::new(&device, Dtype::I32, Subtract::Left, None)?;
    // The operator is WGSL: `fn difference(a: T, b: T) -> T`, called with
    // the element and its neighbour.
    let distance = AdjacentDifference::new(
        &device,
        Dtype::I32,
        Subtract::Right,
        Some("fn difference(a: i32, b: i32) -> i32 { return abs(b - a); }"),
    )?;

    let n = 300_007u32;
    let steps: Vec<i32> = (0..n)
        .map(|i| (i.wrapping_mul(7919) % 201) as i32 - 100)
        .collect();
    let sums: Vec<i32> = steps
        .iter()
        .scan(0i32, |s, &x| {
            *s += x;
            Some(*s)
        })
        .collect();
    let bytes = 4 * u64::from(n);
    // The running sums, then (at an aligned offset) room for the distances.
    let at = bytes.next_multiple_of(u64::from(
        device.limits().min_storage_buffer_offset_alignment,
    ));
    let mut contents = sums.clone();
    contents.resize((at / 4) as usize + n as usize, 0);
    let data = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: bytemuck::cast_slice(&contents),
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
    });
    let temp = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("temp"),
        size: undo_sum.temp_storage_bytes(n),
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: at + bytes,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });

    let mut encoder = device.create_command_encoder(&Default::default());
    // The distances first (from the sums), then the sums undone in place.
    distance.record(&mut encoder, Slice::new(&data, 0), Slice::new(&data, at), n)?;
    undo_sum.record_in_place(&mut encoder, Slice::new(&data, 0), n, Slice::from(&temp))?;
    encoder.copy_buffer_to_buffer(&data, 0, &readback, 0, at + bytes);
    queue.submit([encoder.finish()]);

    readback
        .slice(..)
        .map_async(wgpu::MapMode::Read, |r| r.expect("maps"));
    device.poll(wgpu::PollType::wait_indefinitely())?;
    let words: Vec<i32> = bytemuck::pod_collect_to_vec(&readback.slice(..).get_mapped_range()?);
    let undone = &words[..n as usize];
    let distances = &words[(at / 4) as usize..];
    let want: Vec<i32> = (0..n as usize)
        .map(|i| match sums.get(i + 1) {
            Some(next) => (next - sums[i]).abs(),
            None => sums[i],
        })
        .collect();
    let ok = undone == steps.as_slice() && distances == want.as_slice();
    println!(
        "{}: {n} running sums undone in place, distances to the next: {}",
        adapter.get_info().name,
        if ok { "match the CPU" } else { "WRONG" }
    );
    if ok {
        Ok(())
    } else {
        Err("the differences differ from the CPU's".into())
    }
}
