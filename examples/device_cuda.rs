//! `wavekit::device` in a CUDA application: build a scan and a radix sort
//! once on your cudarc context, queue them on your stream on your own
//! `CudaSlice`s (the sort's values at an offset inside a larger
//! allocation), then copy back and check against the CPU. Nothing waits
//! until the copy back, as with CUB's `Device*` calls.
//!
//! `cargo run --example device_cuda --features native` (needs an NVIDIA
//! GPU and its driver; elsewhere it says so and exits).

use wavekit::Dtype;
use wavekit::device::{KeyType, RadixSort, Scan, Slice};
use wavekit_native::cuda::Cuda;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Your application has its own context; `Cuda::open` is the one here
    // that reports a missing driver as an error rather than a panic.
    let ctx = match Cuda::open(0) {
        Ok(cuda) => cuda.context().clone(),
        Err(e) => {
            println!("no CUDA device: {e}");
            return Ok(());
        }
    };
    let stream = ctx.new_stream()?;
    let scan = Scan::exclusive_sum(&ctx, Dtype::U32)?;
    let sort = RadixSort::pairs(&ctx, KeyType::F32)?;
    println!(
        "{}: {}; {}",
        ctx.name()?,
        scan.algorithm().describe(),
        sort.describe()
    );

    let n = 1_000_003u32;
    let counts: Vec<u32> = (0..n).map(|i| i % 3).collect();
    let keys: Vec<f32> = (0..n).map(|i| ((i * 7919) % 1000) as f32 - 500.0).collect();
    let input = stream.clone_htod(&counts)?;
    let offsets = stream.alloc_zeros::<u32>(n as usize)?;
    let keys_in = stream.clone_htod(&keys)?;
    let keys_out = stream.alloc_zeros::<f32>(n as usize)?;
    let values_in = stream.clone_htod(&(0..n).collect::<Vec<u32>>())?;
    // The sorted values go 64 words into a larger allocation: offsets are
    // in bytes and multiples of 16.
    let values_out = stream.alloc_zeros::<u32>(n as usize + 64)?;
    let bytes = scan.temp_storage_bytes(n).max(sort.temp_storage_bytes(n));
    let temp = stream.alloc_zeros::<u8>(bytes as usize)?;

    // Queued on the stream, in order; one temp serves both calls.
    scan.record(
        &stream,
        (&input).into(),
        (&offsets).into(),
        n,
        (&temp).into(),
    )?;
    sort.record_pairs(
        &stream,
        (&keys_in).into(),
        (&keys_out).into(),
        (&values_in).into(),
        Slice::cuda(&values_out, 256),
        n,
        (&temp).into(),
    )?;

    let got = stream.clone_dtoh(&offsets)?;
    let mut sum = 0u32;
    for (i, (&x, &g)) in counts.iter().zip(&got).enumerate() {
        assert_eq!(g, sum, "scan element {i}");
        sum += x;
    }
    let sorted = stream.clone_dtoh(&keys_out)?;
    let order = stream.clone_dtoh(&values_out)?;
    let mut want: Vec<(f32, u32)> = keys.iter().copied().zip(0..).collect();
    want.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (i, &(k, v)) in want.iter().enumerate() {
        assert_eq!((sorted[i], order[64 + i]), (k, v), "sorted pair {i}");
    }
    println!("scan of {n} u32 and stable sort of {n} f32 pairs: both match the CPU");
    Ok(())
}
