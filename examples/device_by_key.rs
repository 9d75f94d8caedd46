//! `wavekit::device::ReduceByKey` and `ScanByKey` in a wgpu application:
//! the sum of each run of equal keys, each run's first key and the number
//! of runs (CUB's `DeviceReduce::ReduceByKey`), and the running maximum
//! within each run (`DeviceScan::InclusiveScanByKey` with max), recorded
//! into one encoder, one submit, one read-back.
//!
//! `cargo run --example device_by_key --features runner [adapter-name]`
//! (`llvmpipe` on a machine without a GPU). An application needs only the
//! `device` feature and the wgpu back ends it picks.

mod common;

use wavekit::Dtype;
use wavekit::device::{ReduceByKey, ScanByKey, ScanKind, ScanOperator, Slice};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let gpu = common::open()?;
    let device = &gpu.device;
    let sums = ReduceByKey::new(device, Dtype::U32, Dtype::U32, ScanOperator::Add)?;
    let maxima = ScanByKey::new(
        device,
        ScanKind::Inclusive,
        Dtype::U32,
        Dtype::U32,
        ScanOperator::Max,
    )?;

    let n = 500_009u32;
    // Keys in runs of 2k + 1 (up to 1413), values below 128.
    let keys: Vec<u32> = (0..n).map(|i| (i as f64).sqrt() as u32 * 3).collect();
    let values: Vec<u32> = (0..n)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 25)
        .collect();
    let (keys_in, values_in) = (gpu.upload(&keys), gpu.upload(&values));
    // Unique keys, sums, the run count and the scan in one buffer.
    let align = u64::from(device.limits().min_storage_buffer_offset_alignment);
    let stride = (4 * u64::from(n)).next_multiple_of(align);
    let output = gpu.storage(3 * stride + align);
    let temp = gpu.storage(sums.temp_storage_bytes(n).max(maxima.temp_storage_bytes(n)));

    let mut encoder = device.create_command_encoder(&Default::default());
    // One temp for both: the calls run one after the other.
    let at = |offset| Slice::new(&output, offset);
    let (k, v, temp) = (
        Slice::from(&keys_in),
        Slice::from(&values_in),
        Slice::from(&temp),
    );
    sums.record(
        &mut encoder,
        k,
        v,
        at(0),
        at(stride),
        at(3 * stride),
        n,
        temp,
    )?;
    maxima.record(&mut encoder, k, v, at(2 * stride), n, temp)?;
    let words: Vec<u32> = gpu.submit_and_read(encoder, &output)?;

    let word = |byte: u64| (byte / 4) as usize;
    let runs = words[word(3 * stride)] as usize;
    let (mut want_keys, mut want_sums, mut running) = (Vec::new(), Vec::new(), Vec::new());
    let mut max = 0u32;
    for i in 0..n as usize {
        if i == 0 || keys[i] != keys[i - 1] {
            want_keys.push(keys[i]);
            want_sums.push(0u32);
            max = 0;
        }
        *want_sums.last_mut().expect("a run") += values[i];
        max = max.max(values[i]);
        running.push(max);
    }
    let ok = runs == want_keys.len()
        && words[..runs] == want_keys[..]
        && words[word(stride)..word(stride) + runs] == want_sums[..]
        && words[word(2 * stride)..word(2 * stride) + n as usize] == running[..];
    gpu.report(
        &format!("{runs} runs of {n} keys: their sums, and the running maximum in each"),
        ok,
    )
}
