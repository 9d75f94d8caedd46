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

mod common;

use wavekit::Dtype;
use wavekit::device::{BinarySearch, Bound, Slice};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let gpu = common::open()?;
    let device = &gpu.device;
    let upper = BinarySearch::new(device, Dtype::F32, Bound::Upper)?;
    let lower = BinarySearch::new(device, Dtype::F32, Bound::Lower)?;

    // 10_000 boundaries, squares of 0.01 steps (each twice), and 400_003
    // queries in and around them.
    let boundaries: Vec<f32> = (0..10_000u32)
        .map(|i| ((i / 2) as f32 * 0.01).powi(2))
        .collect();
    let queries: Vec<f32> = (0..400_003u32)
        .map(|i| (i.wrapping_mul(7919) % 30_001) as f32 * 1e-3 - 1.0)
        .collect();
    let (m, k) = (boundaries.len() as u32, queries.len() as u32);
    let (haystack, needles) = (gpu.upload(&boundaries), gpu.upload(&queries));
    // Both outputs in one buffer, the second at an aligned offset.
    let align = u64::from(device.limits().min_storage_buffer_offset_alignment);
    let at = (4 * u64::from(k)).next_multiple_of(align);
    let output = gpu.storage(2 * at);

    let mut encoder = device.create_command_encoder(&Default::default());
    for (i, search) in [&upper, &lower].into_iter().enumerate() {
        let out = Slice::new(&output, i as u64 * at);
        search.record(
            &mut encoder,
            (&haystack).into(),
            m,
            (&needles).into(),
            k,
            out,
        )?;
    }
    let words: Vec<u32> = gpu.submit_and_read(encoder, &output)?;

    let got_upper = &words[..k as usize];
    let got_lower = &words[(at / 4) as usize..(at / 4) as usize + k as usize];
    let want = |after: fn(f32, f32) -> bool| -> Vec<u32> {
        queries
            .iter()
            .map(|&q| boundaries.partition_point(|&b| after(b, q)) as u32)
            .collect()
    };
    let ok = got_upper == want(|b, q| b <= q) && got_lower == want(|b, q| b < q);
    gpu.report(
        &format!("upper and lower bounds of {k} queries among {m} boundaries"),
        ok,
    )
}
