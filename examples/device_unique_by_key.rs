//! `wavekit::device::UniqueByKey` and `RunLengthEncode::non_trivial_runs`
//! in a wgpu application: the first key of each run and the value beside
//! it (CUB's `DeviceSelect::UniqueByKey`), and the offset and length of
//! each run longer than one (`DeviceRunLengthEncode::NonTrivialRuns`),
//! recorded into one encoder, one submit, one read-back.
//!
//! `cargo run --example device_unique_by_key --features runner [adapter-name]`
//! (`llvmpipe` on a machine without a GPU). An application needs only the
//! `device` feature and the wgpu back ends it picks.

mod common;

use wavekit::Dtype;
use wavekit::device::{RunLengthEncode, Slice, UniqueByKey};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let gpu = common::open()?;
    let device = &gpu.device;
    let unique = UniqueByKey::new(device, Dtype::U32, Dtype::U32)?;
    let encode = RunLengthEncode::new(device, Dtype::U32)?;

    let n = 400_003u32;
    // Keys in runs of 1 to 4 (a hash of i / 3 and its low bits), values
    // their indices: each first value is its run's offset.
    let keys: Vec<u32> = (0..n)
        .map(|i| ((i / 3).wrapping_mul(2_654_435_761) >> 30) ^ (i % 5 / 4))
        .collect();
    let values: Vec<u32> = (0..n).collect();
    let (keys_in, values_in) = (gpu.upload(&keys), gpu.upload(&values));
    // Four outputs of n and two counts in one buffer.
    let align = u64::from(device.limits().min_storage_buffer_offset_alignment);
    let stride = (4 * u64::from(n)).next_multiple_of(align);
    let output = gpu.storage(4 * stride + 2 * align);
    let temp = gpu.storage(
        unique
            .temp_storage_bytes(n)
            .max(encode.temp_storage_bytes(n)),
    );

    let mut encoder = device.create_command_encoder(&Default::default());
    // One temp for both: the calls run one after the other.
    let at = |k: u64| Slice::new(&output, k * stride);
    let counts = |k: u64| Slice::new(&output, 4 * stride + k * align);
    let (k, v, temp) = (
        Slice::from(&keys_in),
        Slice::from(&values_in),
        Slice::from(&temp),
    );
    unique.record(&mut encoder, k, v, at(0), at(1), counts(0), n, temp)?;
    encode.non_trivial_runs(&mut encoder, k, at(2), at(3), counts(1), n, temp)?;
    let words: Vec<u32> = gpu.submit_and_read(encoder, &output)?;

    let region = |k: u64, len: usize| &words[(k * stride / 4) as usize..][..len];
    let count = |k: u64| words[((4 * stride + k * align) / 4) as usize] as usize;
    let (selected, long_runs) = (count(0), count(1));
    let (mut want_keys, mut want_firsts) = (Vec::new(), Vec::new());
    let (mut want_offsets, mut want_lengths) = (Vec::new(), Vec::new());
    let mut start = 0;
    for i in 0..=n as usize {
        if i == n as usize || (i > 0 && keys[i] != keys[i - 1]) {
            want_keys.push(keys[start]);
            want_firsts.push(values[start]);
            if i - start > 1 {
                want_offsets.push(start as u32);
                want_lengths.push((i - start) as u32);
            }
            start = i;
        }
    }
    let ok = selected == want_keys.len()
        && region(0, selected) == want_keys
        && region(1, selected) == want_firsts
        && long_runs == want_offsets.len()
        && region(2, long_runs) == want_offsets
        && region(3, long_runs) == want_lengths;
    gpu.report(
        &format!("{selected} runs of {n} keys, {long_runs} of them longer than one"),
        ok,
    )
}
