//! `wavekit::device::AdjacentDifference` in a wgpu application: undo a
//! running sum in place (CUB's `SubtractLeft`: each element minus the one
//! before it), and the distance of each element to the next into another
//! part of the same buffer with a WGSL operator (`SubtractRightCopy`),
//! recorded into one encoder, one submit, one read-back.
//!
//! `cargo run --example device_adjacent_difference --features runner [adapter-name]`
//! (`llvmpipe` on a machine without a GPU). An application needs only the
//! `device` feature and the wgpu back ends it picks.

mod common;

use wavekit::Dtype;
use wavekit::device::{AdjacentDifference, Slice, Subtract};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let gpu = common::open()?;
    let device = &gpu.device;
    let undo_sum = AdjacentDifference::new(device, Dtype::I32, Subtract::Left, None)?;
    // The operator is WGSL: `fn difference(a: T, b: T) -> T`, called with
    // the element and its neighbour.
    let distance = AdjacentDifference::new(
        device,
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
    // The running sums, then (at an aligned offset) room for the distances.
    let align = u64::from(device.limits().min_storage_buffer_offset_alignment);
    let at = (4 * u64::from(n)).next_multiple_of(align);
    let mut contents = sums.clone();
    contents.resize((at / 4) as usize + n as usize, 0);
    let data = gpu.upload(&contents);
    let temp = gpu.storage(undo_sum.temp_storage_bytes(n));

    let mut encoder = device.create_command_encoder(&Default::default());
    // The distances first (from the sums), then the sums undone in place.
    distance.record(&mut encoder, Slice::new(&data, 0), Slice::new(&data, at), n)?;
    undo_sum.record_in_place(&mut encoder, Slice::new(&data, 0), n, (&temp).into())?;
    let words: Vec<i32> = gpu.submit_and_read(encoder, &data)?;

    let (undone, distances) = (&words[..n as usize], &words[(at / 4) as usize..]);
    let want: Vec<i32> = (0..n as usize)
        .map(|i| match sums.get(i + 1) {
            Some(next) => (next - sums[i]).abs(),
            None => sums[i],
        })
        .collect();
    let ok = undone == steps.as_slice() && distances == want.as_slice();
    gpu.report(
        &format!("{n} running sums undone in place, distances to the next"),
        ok,
    )
}
