//! `wavekit::device::PartitionIf` and `Unique` in a wgpu application:
//! split u32 keys by your WGSL predicate (CUB's `DevicePartition::If`: the
//! kept in order, the others after them in reverse order, and the number
//! kept), and the first of each run of equal keys (`DeviceSelect::Unique`),
//! recorded into one encoder, one submit, one read-back.
//!
//! `cargo run --example device_partition --features runner [adapter-name]`
//! (`llvmpipe` on a machine without a GPU). An application needs only the
//! `device` feature and the wgpu back ends it picks.

use wavekit::Dtype;
use wavekit::device::{PartitionIf, Slice, Unique};
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

    // The predicate is WGSL: `fn keep(x: T) -> bool`.
    let evens = PartitionIf::new(
        &device,
        Dtype::U32,
        "fn keep(x: u32) -> bool { return x % 2u == 0u; }",
    )?;
    let unique = Unique::new(&device, Dtype::U32)?;

    let n = 500_009u32;
    // Keys in runs: i / 7 repeats each key seven times.
    let keys: Vec<u32> = (0..n)
        .map(|i| (i / 7).wrapping_mul(2_654_435_761) >> 20)
        .collect();
    let input = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: bytemuck::cast_slice(&keys),
        usage: wgpu::BufferUsages::STORAGE,
    });
    // Both outputs and both counts in one buffer, at aligned offsets.
    let align = u64::from(device.limits().min_storage_buffer_offset_alignment);
    let stride = (4 * u64::from(n)).next_multiple_of(align);
    let bytes = 2 * stride + 2 * align;
    let output = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: bytes,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let temp = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("temp"),
        size: evens
            .temp_storage_bytes(n)
            .max(unique.temp_storage_bytes(n)),
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: bytes,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });

    let mut encoder = device.create_command_encoder(&Default::default());
    // One temp for both: the calls run one after the other.
    evens.record(
        &mut encoder,
        Slice::from(&input),
        Slice::new(&output, 0),
        Slice::new(&output, 2 * stride),
        n,
        Slice::from(&temp),
    )?;
    unique.record(
        &mut encoder,
        Slice::from(&input),
        Slice::new(&output, stride),
        Slice::new(&output, 2 * stride + align),
        n,
        Slice::from(&temp),
    )?;
    encoder.copy_buffer_to_buffer(&output, 0, &readback, 0, bytes);
    queue.submit([encoder.finish()]);

    readback
        .slice(..)
        .map_async(wgpu::MapMode::Read, |r| r.expect("maps"));
    device.poll(wgpu::PollType::wait_indefinitely())?;
    let words: Vec<u32> = bytemuck::pod_collect_to_vec(&readback.slice(..).get_mapped_range()?);
    let word = |byte: u64| (byte / 4) as usize;
    let (kept, runs) = (words[word(2 * stride)], words[word(2 * stride + align)]);
    let parted = &words[..n as usize];
    let firsts = &words[word(stride)..word(stride) + runs as usize];

    let (mut want, odd): (Vec<u32>, Vec<u32>) = keys.iter().partition(|&&k| k % 2 == 0);
    let want_kept = want.len() as u32;
    want.extend(odd.iter().rev());
    let mut want_firsts = keys.clone();
    want_firsts.dedup();
    let ok = kept == want_kept && parted == want.as_slice() && firsts == want_firsts.as_slice();
    println!(
        "{}: {kept} even keys of {n} first, the odd after them reversed; {runs} runs: {}",
        adapter.get_info().name,
        if ok { "match the CPU" } else { "WRONG" }
    );
    if ok {
        Ok(())
    } else {
        Err("the partition or the unique differs from the CPU's".into())
    }
}
