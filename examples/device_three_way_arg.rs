//! `wavekit::device::ThreeWayPartition` and `SegmentedArgReduce` in a wgpu
//! application: split f32 readings three ways by two WGSL predicates (CUB's
//! `DevicePartition::If` with two selectors: the low ones, then of the rest
//! the high ones, each part in order, and the two parts' sizes), and the
//! first index of the greatest reading of each of many rows (CUB's
//! `DeviceSegmentedReduce::ArgMax`: index within the row, then value; a
//! NaN reading skipped), recorded into one encoder, one submit, one
//! read-back.
//!
//! `cargo run --example device_three_way_arg --features runner [adapter-name]`
//! (`llvmpipe` on a machine without a GPU). An application needs only the
//! `device` feature and the wgpu back ends it picks.

mod common;

use wavekit::Dtype;
use wavekit::device::{ArgOp, ReduceType, SegmentedArgReduce, Slice, ThreeWayPartition};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let gpu = common::open()?;
    let device = &gpu.device;
    // The predicates are WGSL: `fn first_part(x: T) -> bool` and
    // `fn second_part(x: T) -> bool`.
    let split = ThreeWayPartition::new(
        device,
        Dtype::F32,
        "fn first_part(x: f32) -> bool { return x < -0.5; }",
        "fn second_part(x: f32) -> bool { return x > 0.5; }",
    )?;
    let row_max = SegmentedArgReduce::new(device, ArgOp::Max, ReduceType::F32)?;

    let (rows, width) = (1000u32, 333u32);
    let n = rows * width;
    let data: Vec<f32> = (0..n)
        .map(|i| match i % 1009 {
            17 => f32::NAN,
            _ => (i.wrapping_mul(7919) % 2001) as f32 / 1000.0 - 1.0,
        })
        .collect();
    let input = gpu.upload(&data);
    // Three parts, two counts and a pair per row in one buffer, at aligned
    // offsets.
    let align = u64::from(device.limits().min_storage_buffer_offset_alignment);
    let stride = (4 * u64::from(n)).next_multiple_of(align);
    let output = gpu.storage(3 * stride + align + 8 * u64::from(rows));
    let temp = gpu.storage(split.temp_storage_bytes(n));

    let mut encoder = device.create_command_encoder(&Default::default());
    let at = |offset| Slice::new(&output, offset);
    let input_slice = Slice::from(&input);
    split.record(
        &mut encoder,
        input_slice,
        at(0),
        at(stride),
        at(2 * stride),
        at(3 * stride),
        n,
        Slice::from(&temp),
    )?;
    // Rows of one width: no offsets.
    row_max.record_fixed(
        &mut encoder,
        input_slice,
        at(3 * stride + align),
        rows,
        width,
    )?;
    let words: Vec<u32> = gpu.submit_and_read(encoder, &output)?;

    let word = |byte: u64| (byte / 4) as usize;
    let (low, high) = (words[word(3 * stride)], words[word(3 * stride) + 1]);
    let part = |p: u64, len: usize| -> Vec<u32> {
        words[word(p * stride)..word(p * stride) + len].to_vec()
    };
    let bits = |f: &dyn Fn(f32) -> bool| -> Vec<u32> {
        data.iter()
            .filter(|&&x| f(x))
            .map(|x| x.to_bits())
            .collect()
    };
    let want = [
        bits(&|x| x < -0.5),
        bits(&|x| x > 0.5),
        bits(&|x| x.is_nan() || (-0.5..=0.5).contains(&x)),
    ];
    let parts_ok = (0..3).all(|p| part(p as u64, want[p].len()) == want[p])
        && [low, high] == [want[0].len() as u32, want[1].len() as u32];
    let pairs = &words[word(3 * stride + align)..][..2 * rows as usize];
    let rows_ok = data.chunks(width as usize).enumerate().all(|(r, row)| {
        let mut best: Option<usize> = None;
        for (j, x) in row.iter().enumerate() {
            if !x.is_nan() && best.is_none_or(|b| *x > row[b]) {
                best = Some(j);
            }
        }
        let b = best.expect("a row of numbers");
        pairs[2 * r..2 * r + 2] == [b as u32, row[b].to_bits()]
    });
    gpu.report(
        &format!(
            "{low} low, {high} high and {} other readings of {n}, each part in order; \
             the first maximum of each of {rows} rows",
            n - low - high
        ),
        parts_ok && rows_ok,
    )
}
