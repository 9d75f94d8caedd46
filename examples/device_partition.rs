//! `wavekit::device::PartitionIf` and `Unique` in a wgpu application:
//! split u32 keys by your WGSL predicate (CUB's `DevicePartition::If`: the
//! kept in order, the others after them in reverse order, and the number
//! kept), and the first of each run of equal keys (`DeviceSelect::Unique`),
//! recorded into one encoder, one submit, one read-back.
//!
//! `cargo run --example device_partition --features runner [adapter-name]`
//! (`llvmpipe` on a machine without a GPU). An application needs only the
//! `device` feature and the wgpu back ends it picks.

mod common;

use wavekit::Dtype;
use wavekit::device::{PartitionIf, Slice, Unique};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let gpu = common::open()?;
    let device = &gpu.device;
    // The predicate is WGSL: `fn keep(x: T) -> bool`.
    let evens = PartitionIf::new(
        device,
        Dtype::U32,
        "fn keep(x: u32) -> bool { return x % 2u == 0u; }",
    )?;
    let unique = Unique::new(device, Dtype::U32)?;

    let n = 500_009u32;
    // Keys in runs: i / 7 repeats each key seven times.
    let keys: Vec<u32> = (0..n)
        .map(|i| (i / 7).wrapping_mul(2_654_435_761) >> 20)
        .collect();
    let input = gpu.upload(&keys);
    // Both outputs and both counts in one buffer, at aligned offsets.
    let align = u64::from(device.limits().min_storage_buffer_offset_alignment);
    let stride = (4 * u64::from(n)).next_multiple_of(align);
    let output = gpu.storage(2 * stride + 2 * align);
    let temp = gpu.storage(
        evens
            .temp_storage_bytes(n)
            .max(unique.temp_storage_bytes(n)),
    );

    let mut encoder = device.create_command_encoder(&Default::default());
    // One temp for both: the calls run one after the other.
    let at = |offset| Slice::new(&output, offset);
    let (input, temp) = (Slice::from(&input), Slice::from(&temp));
    evens.record(&mut encoder, input, at(0), at(2 * stride), n, temp)?;
    unique.record(
        &mut encoder,
        input,
        at(stride),
        at(2 * stride + align),
        n,
        temp,
    )?;
    let words: Vec<u32> = gpu.submit_and_read(encoder, &output)?;

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
    gpu.report(
        &format!("{kept} even keys of {n} first, the odd after them reversed; {runs} runs"),
        ok,
    )
}
