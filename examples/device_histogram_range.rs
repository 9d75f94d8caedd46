//! `wavekit::device::Histogram::range` and `MultiHistogram` in a wgpu
//! application: counts of f32 samples between uneven levels given in a
//! buffer (CUB's `DeviceHistogram::HistogramRange`), and the R, G and B
//! histograms of RGBA pixels in even bins (`MultiHistogramEven` with three
//! of four channels counted), recorded into one encoder, one submit, one
//! read-back.
//!
//! `cargo run --example device_histogram_range --features runner [adapter-name]`
//! (`llvmpipe` on a machine without a GPU). An application needs only the
//! `device` feature and the wgpu back ends it picks.

mod common;

use wavekit::Dtype;
use wavekit::device::{EvenLevels, Histogram, MultiHistogram, Slice};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let gpu = common::open()?;
    let device = &gpu.device;
    // Latencies in ms into 5 uneven buckets: [0, 1), [1, 2), [2, 5), [5, 20), [20, 100).
    let levels = [0.0f32, 1.0, 2.0, 5.0, 20.0, 100.0];
    let latency = Histogram::range(device, Dtype::F32, 5)?;
    let channel = EvenLevels::U32 {
        lower: 0,
        upper: 256,
    };
    let rgb = MultiHistogram::even(device, 4, &[(16, channel), (16, channel), (16, channel)])?;

    let n = 300_007u32;
    let samples: Vec<f32> = (0..n)
        .map(|i| ((i.wrapping_mul(2_654_435_761) >> 8) % 12_000) as f32 / 100.0)
        .collect();
    let pixels: Vec<u32> = (0..4 * n)
        .map(|i| (i.wrapping_mul(40_503) >> 4) & 0xff)
        .collect();
    let (samples_buffer, levels_buffer, pixels_buffer) = (
        gpu.upload(&samples),
        gpu.upload(&levels),
        gpu.upload(&pixels),
    );
    // Both histograms in one buffer, at an aligned offset.
    let align = u64::from(device.limits().min_storage_buffer_offset_alignment);
    let output = gpu.storage(align + 4 * 48);

    let mut encoder = device.create_command_encoder(&Default::default());
    latency.record_range(
        &mut encoder,
        Slice::from(&samples_buffer),
        Slice::from(&levels_buffer),
        Slice::new(&output, 0),
        n,
    )?;
    rgb.record(
        &mut encoder,
        Slice::from(&pixels_buffer),
        Slice::new(&output, align),
        n,
    )?;
    let words: Vec<u32> = gpu.submit_and_read(encoder, &output)?;

    let mut want = [0u32; 5];
    for &x in &samples {
        if let Some(b) = (0..5).find(|&b| x >= levels[b] && x < levels[b + 1]) {
            want[b] += 1;
        }
    }
    let mut want_rgb = [0u32; 48];
    for pixel in pixels.chunks(4) {
        for c in 0..3 {
            want_rgb[16 * c + (pixel[c] / 16) as usize] += 1;
        }
    }
    let at = (align / 4) as usize;
    let ok = words[..5] == want[..] && words[at..at + 48] == want_rgb[..];
    gpu.report(
        &format!(
            "{n} latencies in buckets {:?}; R, G, B of {n} RGBA pixels in 16 bins each",
            &words[..5]
        ),
        ok,
    )
}
