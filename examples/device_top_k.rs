//! `wavekit::device::TopK` in a wgpu application: the 64 largest f32
//! scores of a million with their indices (CUB's `DeviceTopK::MaxPairs`),
//! as an MoE router or a sparse-attention kernel takes them, recorded into
//! your encoder; the output is sorted, greatest first, ties to the lower
//! index. A router that needs the set and not its order builds it with
//! `TopKOutput::Unordered` (CUB's output), which costs less for large k.
//!
//! `cargo run --example device_top_k --features runner [adapter-name]`
//! (`llvmpipe` on a machine without a GPU). An application needs only the
//! `device` feature and the wgpu back ends it picks.

mod common;

use wavekit::device::{KeyType, Slice, TopK, TopKOrder, TopKOutput};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let gpu = common::open()?;
    let device = &gpu.device;
    let top = TopK::new(device, KeyType::F32, TopKOrder::Largest, true)?;

    let (n, k) = (1_000_003u32, 64u32);
    let scores: Vec<f32> = (0..n)
        .map(|i| ((i.wrapping_mul(2_654_435_761) >> 9) % 100_000) as f32 / 1000.0 - 50.0)
        .collect();
    let indices: Vec<u32> = (0..n).collect();
    let (scores_in, indices_in) = (gpu.upload(&scores), gpu.upload(&indices));
    let (best, best_at) = (gpu.storage(4 * u64::from(k)), gpu.storage(4 * u64::from(k)));
    let temp = gpu.storage(top.temp_storage_bytes(n, k));

    // One call of `top` recorded into a new encoder: the k scores into
    // `best`, their indices into `best_at`.
    let record = |top: &TopK| -> Result<wgpu::CommandEncoder, wavekit::Error> {
        let mut encoder = device.create_command_encoder(&Default::default());
        top.record_pairs(
            &mut encoder,
            [Slice::from(&scores_in), Slice::from(&best)],
            [Slice::from(&indices_in), Slice::from(&best_at)],
            (n, k),
            Slice::from(&temp),
        )?;
        Ok(encoder)
    };
    let got: Vec<f32> = gpu.submit_and_read(record(&top)?, &best)?;
    let got_at: Vec<u32> =
        gpu.submit_and_read(device.create_command_encoder(&Default::default()), &best_at)?;

    let mut order: Vec<u32> = indices.clone();
    order.sort_by(|&a, &b| {
        scores[b as usize]
            .total_cmp(&scores[a as usize])
            .then(a.cmp(&b))
    });
    order.truncate(k as usize);
    let want: Vec<f32> = order.iter().map(|&i| scores[i as usize]).collect();
    let sorted_ok = got == want && got_at == order;

    // The same k in no order: the same indices, as a set.
    let unordered = TopK::with_output(
        device,
        KeyType::F32,
        TopKOrder::Largest,
        true,
        TopKOutput::Unordered,
    )?;
    let mut set: Vec<u32> = gpu.submit_and_read(record(&unordered)?, &best_at)?;
    set.sort_unstable();
    let mut want_set = order.clone();
    want_set.sort_unstable();
    let ok = sorted_ok && set == want_set;
    gpu.report(
        &format!(
            "the {k} largest of {n} scores: {} .. {}",
            got[0],
            got[k as usize - 1]
        ),
        ok,
    )
}
