//! `wavekit::device::MergeSort` and `Merge` in a wgpu application: a stable
//! sort of (key, value) pairs by your WGSL comparator (CUB's
//! `DeviceMergeSort::SortPairs` / `StableSortKeys`), here descending by the
//! key's high bits so that equal keys keep their order, then the merge of
//! the sorted pairs with another sorted run (`DeviceMerge::MergePairs`),
//! recorded into one encoder, one submit, one read-back.
//!
//! `cargo run --example device_merge_sort --features runner [adapter-name]`
//! (`llvmpipe` on a machine without a GPU). An application needs only the
//! `device` feature and the wgpu back ends it picks.

mod common;

use wavekit::Dtype;
use wavekit::device::{Merge, MergeSort, Slice};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let gpu = common::open()?;
    let device = &gpu.device;
    // The comparator is WGSL: `fn less_than(a: T, b: T) -> bool`.
    let less = "fn less_than(a: u32, b: u32) -> bool {\n    return (a >> 8u) > (b >> 8u);\n}";
    let sort = MergeSort::pairs(device, Dtype::U32, Some(less))?;
    let merge = Merge::new(device, Dtype::U32, true, Some(less))?;

    let n = 200_003u32;
    let m = 1_000u32;
    let keys: Vec<u32> = (0..n)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 12)
        .collect();
    let values: Vec<u32> = (0..n).collect();
    // A second run, already in the comparator's order.
    let other_keys: Vec<u32> = (0..m).rev().map(|i| i << 10).collect();
    let other_values: Vec<u32> = (n..n + m).collect();
    let (keys_in, values_in) = (gpu.upload(&keys), gpu.upload(&values));
    let (other_k, other_v) = (gpu.upload(&other_keys), gpu.upload(&other_values));
    let (sorted_k, sorted_v) = (gpu.storage(4 * u64::from(n)), gpu.storage(4 * u64::from(n)));
    let total = u64::from(n + m);
    let (merged_k, merged_v) = (gpu.storage(4 * total), gpu.storage(4 * total));
    let temp = gpu.storage(sort.temp_storage_bytes(n));

    let mut encoder = device.create_command_encoder(&Default::default());
    sort.record_pairs(
        &mut encoder,
        [Slice::from(&keys_in), Slice::from(&sorted_k)],
        [Slice::from(&values_in), Slice::from(&sorted_v)],
        n,
        Slice::from(&temp),
    )?;
    merge.record_pairs(
        &mut encoder,
        [(&sorted_k).into(), (&other_k).into(), (&merged_k).into()],
        [(&sorted_v).into(), (&other_v).into(), (&merged_v).into()],
        (n, m),
    )?;
    let got_keys: Vec<u32> = gpu.submit_and_read(encoder, &merged_k)?;
    let got_values: Vec<u32> = gpu.submit_and_read(
        device.create_command_encoder(&Default::default()),
        &merged_v,
    )?;

    let mut want: Vec<(u32, u32)> = keys.iter().copied().zip(values).collect();
    want.extend(other_keys.iter().copied().zip(other_values));
    // Stable, as the GPU's: the sorted run's equal keys before the other's.
    want.sort_by_key(|&(k, _)| std::cmp::Reverse(k >> 8));
    let (want_keys, want_values): (Vec<u32>, Vec<u32>) = want.into_iter().unzip();
    let ok = got_keys == want_keys && got_values == want_values;
    gpu.report(
        &format!("{n} pairs sorted stably by a WGSL comparator, merged with {m} more"),
        ok,
    )
}
