//! `wavekit::device::ArgReduce` and `TransformReduce` in a wgpu
//! application: the first index of the least and of the greatest f32 of one
//! buffer (CUB's `KeyValuePair` layout: index, then value) and the sum of
//! squares of the same buffer through a WGSL map, three objects built once,
//! recorded into one encoder, one submit, one read-back.
//!
//! `cargo run --example device_arg_reduce --features runner [adapter-name]`
//! (`llvmpipe` on a machine without a GPU). An application needs only the
//! `device` feature and the wgpu back ends it picks.

use wavekit::Dtype;
use wavekit::device::{ArgOp, ArgReduce, ReduceOp, ReduceType, Slice, TransformReduce};
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

    let arg_min = ArgReduce::new(&device, ArgOp::Min, ReduceType::F32)?;
    let arg_max = ArgReduce::new(&device, ArgOp::Max, ReduceType::F32)?;
    // The map is WGSL: `fn transform(x: T) -> U`, here f32 to f32.
    let squares = TransformReduce::new(
        &device,
        Dtype::F32,
        "fn transform(x: f32) -> f32 { return x * x; }",
        ReduceOp::Sum,
        ReduceType::F32,
    )?;

    let n = 654_321u32;
    // Values repeat: the first index of the extreme is the answer.
    let data: Vec<f32> = (0..n)
        .map(|i| (i.wrapping_mul(7919) % 2001) as f32 / 1000.0 - 1.0)
        .collect();
    let input = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: bytemuck::cast_slice(&data),
        usage: wgpu::BufferUsages::STORAGE,
    });
    // The three results, each at an aligned offset of one buffer.
    let stride = u64::from(device.limits().min_storage_buffer_offset_alignment).max(8);
    let results = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 3 * stride,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let temp_bytes = [
        arg_min.temp_storage_bytes(n),
        arg_max.temp_storage_bytes(n),
        squares.temp_storage_bytes(n),
    ]
    .into_iter()
    .max()
    .unwrap_or(4);
    let temp = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("temp"),
        size: temp_bytes,
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 3 * stride,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });

    let mut encoder = device.create_command_encoder(&Default::default());
    // One temp for all three: the calls run one after the other.
    for (i, arg) in [&arg_min, &arg_max].into_iter().enumerate() {
        arg.record(
            &mut encoder,
            Slice::from(&input),
            Slice::new(&results, i as u64 * stride),
            n,
            Slice::from(&temp),
        )?;
    }
    squares.record(
        &mut encoder,
        Slice::from(&input),
        Slice::new(&results, 2 * stride),
        n,
        Slice::from(&temp),
    )?;
    encoder.copy_buffer_to_buffer(&results, 0, &readback, 0, 3 * stride);
    queue.submit([encoder.finish()]);

    readback
        .slice(..)
        .map_async(wgpu::MapMode::Read, |r| r.expect("maps"));
    device.poll(wgpu::PollType::wait_indefinitely())?;
    let words: Vec<u32> = bytemuck::pod_collect_to_vec(&readback.slice(..).get_mapped_range()?);
    let at = |i: u64| (i * stride / 4) as usize;
    let (min_index, min) = (words[at(0)], f32::from_bits(words[at(0) + 1]));
    let (max_index, max) = (words[at(1)], f32::from_bits(words[at(1) + 1]));
    let sum_of_squares = f32::from_bits(words[at(2)]);

    let first = |better: fn(f32, f32) -> bool| {
        (0..data.len()).fold(0, |b, i| if better(data[i], data[b]) { i } else { b })
    };
    let (want_min, want_max) = (first(|a, b| a < b), first(|a, b| a > b));
    let want_sum: f64 = data.iter().map(|&x| f64::from(x * x)).sum();
    let ok = min_index as usize == want_min
        && min == data[want_min]
        && max_index as usize == want_max
        && max == data[want_max]
        && (f64::from(sum_of_squares) - want_sum).abs() <= 1e-4 * want_sum;
    println!(
        "{}: ArgMin {{{min_index}, {min}}}, ArgMax {{{max_index}, {max}}}, sum of squares \
         {sum_of_squares} (f64: {want_sum:.3}): {}",
        adapter.get_info().name,
        if ok { "matches the CPU" } else { "WRONG" }
    );
    if ok {
        Ok(())
    } else {
        Err("a reduction differs from the CPU's".into())
    }
}
