//! `wavekit::device::ArgReduce` and `TransformReduce` in a wgpu
//! application: the first index of the least and of the greatest f32 of one
//! buffer (CUB's `KeyValuePair` layout: index, then value) and the sum of
//! squares of the same buffer through a WGSL map, three objects built once,
//! recorded into one encoder, one submit, one read-back.
//!
//! `cargo run --example device_arg_reduce --features runner [adapter-name]`
//! (`llvmpipe` on a machine without a GPU). An application needs only the
//! `device` feature and the wgpu back ends it picks.

mod common;

use wavekit::Dtype;
use wavekit::device::{ArgOp, ArgReduce, ReduceOp, ReduceType, Slice, TransformReduce};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let gpu = common::open()?;
    let device = &gpu.device;
    let arg_min = ArgReduce::new(device, ArgOp::Min, ReduceType::F32)?;
    let arg_max = ArgReduce::new(device, ArgOp::Max, ReduceType::F32)?;
    // The map is WGSL: `fn transform(x: T) -> U`, here f32 to f32.
    let squares = TransformReduce::new(
        device,
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
    let input = gpu.upload(&data);
    // The three results, each at an aligned offset of one buffer.
    let stride = u64::from(device.limits().min_storage_buffer_offset_alignment).max(8);
    let results = gpu.storage(3 * stride);
    let temp_bytes = [&arg_min, &arg_max]
        .map(|a| a.temp_storage_bytes(n))
        .into_iter()
        .chain([squares.temp_storage_bytes(n)])
        .max();
    let temp = gpu.storage(temp_bytes.unwrap_or(4));

    let mut encoder = device.create_command_encoder(&Default::default());
    // One temp for all three: the calls run one after the other.
    for (i, arg) in [&arg_min, &arg_max].into_iter().enumerate() {
        let result = Slice::new(&results, i as u64 * stride);
        arg.record(&mut encoder, (&input).into(), result, n, (&temp).into())?;
    }
    let result = Slice::new(&results, 2 * stride);
    squares.record(&mut encoder, (&input).into(), result, n, (&temp).into())?;
    let words: Vec<u32> = gpu.submit_and_read(encoder, &results)?;

    let at = |i: u64| (i * stride / 4) as usize;
    let (min_index, min) = (words[at(0)], f32::from_bits(words[at(0) + 1]));
    let (max_index, max) = (words[at(1)], f32::from_bits(words[at(1) + 1]));
    let sum_of_squares = f32::from_bits(words[at(2)]);
    let first = |better: fn(f32, f32) -> bool| {
        (0..data.len()).fold(0, |b, i| if better(data[i], data[b]) { i } else { b })
    };
    let (want_min, want_max) = (first(|a, b| a < b), first(|a, b| a > b));
    let want_sum: f64 = data.iter().map(|&x| f64::from(x * x)).sum();
    let ok = (min_index as usize, min) == (want_min, data[want_min])
        && (max_index as usize, max) == (want_max, data[want_max])
        && (f64::from(sum_of_squares) - want_sum).abs() <= 1e-4 * want_sum;
    gpu.report(
        &format!(
            "ArgMin {{{min_index}, {min}}}, ArgMax {{{max_index}, {max}}}, sum of squares \
             {sum_of_squares} (f64: {want_sum:.3})"
        ),
        ok,
    )
}
