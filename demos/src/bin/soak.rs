//! Issue 37: `wavekit::device` under long load. For a given time, on one
//! device (a wgpu adapter, CUDA or HIP, through the runner), the soak
//! records a random mix of every algorithm at random sizes from 1 to
//! 2^MAX_LOG2 — two algorithms a program, with a copy of the caller's own
//! between them — on slices at random offsets inside larger buffers with
//! guard words around them. Every result is checked against the CPU (sorts
//! exactly in O(n): keys in order, values a stable permutation), and every
//! guard word must be intact. It prints one JSON line per minute and a last
//! one with the calls, the bytes, the failures and the device memory in
//! use (wgpu's allocator report; CUDA's `cuMemGetInfo`) at the start, after
//! the first program, at the end, and after the algorithms are dropped,
//! each with every program's buffers freed; it exits 1 on any failure or
//! on growth from the first program to the end.
//!
//! ```text
//! wavekit-soak --seconds 600 --backend cuda
//! wavekit-soak --seconds 600 --backend vulkan
//! wavekit-soak --seconds 30 --adapter llvmpipe --max-log2 16   # make test's short form
//! ```

use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use wavekit::device::{
    Device, EvenLevels, FixedSegmentedSort, Histogram, KeyType, RadixSort, Reduce, ReduceOp,
    ReduceType, RunLengthEncode, Scan, SegmentedSort, SelectIf,
};
use wavekit::runner::{Buffer, Gpu, Step};
use wavekit::{Backend, Dtype, Error, SubgroupChoice};
use wavekit_demos::harness::{bytes_of, open_gpu, rng, words_of};

/// `wavekit-soak`: every `wavekit::device` algorithm, checked, for a time.
#[derive(Parser, Debug)]
#[command(name = "wavekit-soak")]
struct Args {
    /// How long to run.
    #[arg(long, default_value_t = 30)]
    seconds: u64,
    /// The largest size is 2^MAX_LOG2 elements.
    #[arg(long, default_value_t = 26)]
    max_log2: u32,
    /// Back end: vulkan, metal, dx12, gl, cuda or hip (default: the best
    /// wgpu adapter).
    #[arg(long)]
    backend: Option<String>,
    /// The wgpu adapter whose name contains this.
    #[arg(long)]
    adapter: Option<String>,
    /// The device ordinal with --backend cuda or hip.
    #[arg(long, default_value_t = 0)]
    device: usize,
    /// The random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Guard word around every slice.
const GUARD: u32 = 0xdead_beef;
/// Slices start at a multiple of this many bytes (the largest
/// `min_storage_buffer_offset_alignment` wgpu allows).
const ALIGN: u64 = 256;
/// Elements per segment of the fixed-length segmented sort.
const FIXED_SEGMENT: usize = 16;

/// The algorithms, built once.
struct Algorithms {
    reduce: Reduce,
    scan: Scan,
    select: SelectIf,
    rle: RunLengthEncode,
    histogram: Histogram,
    sort: RadixSort,
    segmented: SegmentedSort,
    fixed: FixedSegmentedSort,
}

const NAMES: [&str; 8] = [
    "reduce",
    "scan",
    "select",
    "run_length",
    "histogram",
    "radix_sort_pairs",
    "segmented_sort",
    "fixed_segmented_sort",
];

impl Algorithms {
    fn new(device: Device<'_>) -> Result<Self, Error> {
        Ok(Algorithms {
            reduce: Reduce::new(device, ReduceOp::Sum, ReduceType::U32)?,
            scan: Scan::exclusive_sum(device, Dtype::U32)?,
            select: SelectIf::new(
                device,
                Dtype::U32,
                "fn keep(x: u32) -> bool { return x % 3u == 1u; }",
            )?,
            rle: RunLengthEncode::new(device, Dtype::U32)?,
            histogram: Histogram::even(
                device,
                40,
                EvenLevels::U32 {
                    lower: 0,
                    upper: 120,
                },
            )?,
            sort: RadixSort::pairs(device, KeyType::U32)?,
            segmented: SegmentedSort::keys(device, KeyType::U32)?,
            fixed: FixedSegmentedSort::new(device, KeyType::I32, true, FIXED_SEGMENT as u32)?,
        })
    }
}

/// A buffer of guard words with a slice at a random aligned offset: the
/// buffer, the slice's offset in bytes and length in words, and the words
/// the buffer was made with.
struct Guarded {
    buffer: Buffer,
    offset: u64,
    len: usize,
    contents: Vec<u32>,
}

impl Guarded {
    /// A slice holding `words`.
    fn new(gpu: &Gpu, rng: &mut ChaCha8Rng, words: &[u32]) -> Result<Self, Error> {
        let before = ALIGN * rng.random_range(1..=4u64);
        let after = ALIGN * rng.random_range(1..=2u64);
        let mut contents = vec![GUARD; (before / 4) as usize];
        contents.extend_from_slice(words);
        contents.resize(contents.len() + (after / 4) as usize, GUARD);
        Ok(Guarded {
            buffer: gpu.upload(bytes_of(&contents))?,
            offset: before,
            len: words.len(),
            contents,
        })
    }

    /// A slice of `words` guard words, for an output or temp storage.
    fn output(gpu: &Gpu, rng: &mut ChaCha8Rng, words: usize) -> Result<Self, Error> {
        Self::new(gpu, rng, &vec![GUARD; words.max(1)])
    }

    fn slice(&self) -> wavekit::device::Slice<'_> {
        self.buffer.slice_at(self.offset)
    }

    /// The slice's words, after a failure for each guard word around it
    /// that changed.
    fn read(&self, gpu: &Gpu, failures: &mut Vec<String>, what: &str) -> Result<Vec<u32>, Error> {
        let words: Vec<u32> = words_of(&gpu.read(&self.buffer)?);
        let start = (self.offset / 4) as usize;
        let end = start + self.len;
        let bad = (0..self.contents.len())
            .filter(|&i| (i < start || i >= end) && words.get(i) != Some(&GUARD))
            .count();
        if bad > 0 {
            failures.push(format!(
                "{what}: {bad} guard words around the slice overwritten"
            ));
        }
        Ok(words[start..end].to_vec())
    }
}

/// One call's buffers and what to check after it ran.
struct Call {
    name: &'static str,
    n: usize,
    input: Vec<u32>,
    extra: Vec<u32>,
    buffers: Vec<Guarded>,
}

/// Sizes: mostly log-uniform up to 2^max_log2, sometimes the edges.
fn size(rng: &mut ChaCha8Rng, max_log2: u32) -> usize {
    let edges = [1usize, 2, 3, 4, 5, 4095, 4096, 4097, 8191, 8192, 8193];
    if rng.random_range(0..8) == 0 {
        return edges[rng.random_range(0..edges.len())];
    }
    let log2 = rng.random_range(0..=max_log2);
    let low = 1usize << log2;
    rng.random_range(low..=(low * 2 - 1).min(1 << max_log2))
}

/// The call's inputs and guarded buffers, before it is recorded.
fn prepare(
    gpu: &Gpu,
    algorithms: &Algorithms,
    rng: &mut ChaCha8Rng,
    which: usize,
    n: usize,
) -> Result<Call, Error> {
    let name = NAMES[which];
    let n32 = n as u32;
    let mut input: Vec<u32> = match name {
        "run_length" => {
            // Runs of 1 to 8 equal values.
            let mut v = Vec::with_capacity(n);
            while v.len() < n {
                let value = rng.random_range(0..1000u32);
                let run = rng.random_range(1..=8usize).min(n - v.len());
                v.extend(std::iter::repeat_n(value, run));
            }
            v
        }
        "histogram" => (0..n).map(|_| rng.random_range(0..150u32)).collect(),
        "radix_sort_pairs" | "segmented_sort" => {
            // A narrow range sometimes, for many equal keys.
            let bound = if rng.random_bool(0.5) { 64 } else { u32::MAX };
            (0..n).map(|_| rng.random_range(0..=bound)).collect()
        }
        _ => (0..n)
            .map(|_| rng.random::<u32>() >> rng.random_range(0..24))
            .collect(),
    };
    if name == "fixed_segmented_sort" {
        input
            .iter_mut()
            .for_each(|x| *x = (*x as i32).wrapping_sub(1 << 20) as u32);
    }
    let temp_bytes = match name {
        "reduce" => algorithms.reduce.temp_storage_bytes(n32),
        "scan" => algorithms.scan.temp_storage_bytes(n32),
        "select" => algorithms.select.temp_storage_bytes(n32),
        "run_length" => algorithms.rle.temp_storage_bytes(n32),
        "radix_sort_pairs" => algorithms.sort.temp_storage_bytes(n32),
        "segmented_sort" => algorithms.segmented.temp_storage_bytes(n32),
        _ => 0,
    };
    let temp_words = (temp_bytes as usize).div_ceil(4);
    let mut extra = Vec::new();
    let mut buffers = vec![Guarded::new(gpu, rng, &input)?];
    match name {
        "reduce" => buffers.push(Guarded::output(gpu, rng, 1)?),
        "scan" => buffers.push(Guarded::output(gpu, rng, n)?),
        "select" => {
            buffers.push(Guarded::output(gpu, rng, n)?);
            buffers.push(Guarded::output(gpu, rng, 1)?);
        }
        "run_length" => {
            buffers.push(Guarded::output(gpu, rng, n)?);
            buffers.push(Guarded::output(gpu, rng, n)?);
            buffers.push(Guarded::output(gpu, rng, 1)?);
        }
        "histogram" => buffers.push(Guarded::output(gpu, rng, 40)?),
        "radix_sort_pairs" | "fixed_segmented_sort" => {
            extra = (0..n32).collect();
            buffers.push(Guarded::output(gpu, rng, n)?);
            buffers.push(Guarded::new(gpu, rng, &extra)?);
            buffers.push(Guarded::output(gpu, rng, n)?);
        }
        "segmented_sort" => {
            // Segments of 0 to 3000 keys, mostly short.
            let mut offsets = vec![0u32];
            while *offsets.last().unwrap_or(&0) < n32 {
                let last = *offsets.last().unwrap_or(&0);
                let len = if rng.random_range(0..4) == 0 {
                    rng.random_range(0..3000)
                } else {
                    rng.random_range(0..33)
                };
                offsets.push((last + len).min(n32));
            }
            extra = offsets;
            buffers.push(Guarded::output(gpu, rng, n)?);
            buffers.push(Guarded::new(gpu, rng, &extra)?);
        }
        _ => {}
    }
    if temp_words > 0 {
        buffers.push(Guarded::output(gpu, rng, temp_words)?);
    }
    Ok(Call {
        name,
        n,
        input,
        extra,
        buffers,
    })
}

/// Records `call` into `queue`.
fn record(
    algorithms: &Algorithms,
    call: &Call,
    queue: wavekit::device::Queue<'_>,
) -> Result<(), Error> {
    let b = |i: usize| call.buffers[i].slice();
    let n = call.n as u32;
    match call.name {
        "reduce" => algorithms.reduce.record(queue, b(0), b(1), n, b(2)),
        "scan" => algorithms.scan.record(queue, b(0), b(1), n, b(2)),
        "select" => algorithms.select.record(queue, b(0), b(1), b(2), n, b(3)),
        "run_length" => algorithms
            .rle
            .record(queue, b(0), b(1), b(2), b(3), n, b(4)),
        "histogram" => algorithms.histogram.record(queue, b(0), b(1), n),
        "radix_sort_pairs" => algorithms
            .sort
            .record_pairs(queue, b(0), b(1), b(2), b(3), n, b(4)),
        "segmented_sort" => {
            let segments = call.extra.len() as u32 - 1;
            algorithms
                .segmented
                .record_keys(queue, b(0), b(1), n, b(2), segments, b(3))
        }
        _ => algorithms
            .fixed
            .record_pairs(queue, b(0), b(1), b(2), b(3), n),
    }
}

/// Checks `call`'s results against the CPU; failures go to `failures`.
fn check(gpu: &Gpu, call: &Call, failures: &mut Vec<String>) -> Result<(), Error> {
    let n = call.n;
    let what = format!("{} n={n}", call.name);
    let mut fail = |why: String| failures.push(format!("{what}: {why}"));
    let mut guard_failures = Vec::new();
    // Every buffer's guards, the temp's included; the inputs unchanged.
    let mut read_all = Vec::new();
    for (i, buffer) in call.buffers.iter().enumerate() {
        read_all.push(buffer.read(gpu, &mut guard_failures, &format!("buffer {i}"))?);
    }
    if read_all[0][..n] != call.input[..] {
        fail("the input changed".into());
    }
    let read = |i: usize| &read_all[i];
    match call.name {
        "reduce" => {
            let got = read(1)[0];
            let want = call.input.iter().fold(0u32, |a, &x| a.wrapping_add(x));
            if got != want {
                fail(format!("sum {got}, want {want}"));
            }
        }
        "scan" => {
            let got = read(1);
            let mut sum = 0u32;
            if let Some(i) = (0..n).find(|&i| {
                let ok = got[i] == sum;
                sum = sum.wrapping_add(call.input[i]);
                !ok
            }) {
                fail(format!("element {i} wrong"));
            }
        }
        "select" => {
            let want: Vec<u32> = call.input.iter().copied().filter(|x| x % 3 == 1).collect();
            let count = read(2)[0] as usize;
            let got = read(1);
            if count != want.len() || got[..want.len()] != want[..] {
                fail(format!("{count} selected, want {}", want.len()));
            }
        }
        "run_length" => {
            let mut keys = Vec::new();
            let mut lengths: Vec<u32> = Vec::new();
            for &x in &call.input {
                if keys.last() == Some(&x) {
                    *lengths.last_mut().unwrap_or(&mut 0) += 1;
                } else {
                    keys.push(x);
                    lengths.push(1);
                }
            }
            let runs = read(3)[0] as usize;
            let got_keys = read(1);
            let got_lengths = read(2);
            if runs != keys.len()
                || got_keys[..runs.min(n)] != keys[..]
                || got_lengths[..runs.min(n)] != lengths[..]
            {
                fail(format!("{runs} runs, want {}", keys.len()));
            }
        }
        "histogram" => {
            let mut want = [0u32; 40];
            for &x in &call.input {
                if x < 120 {
                    want[(x / 3) as usize] += 1;
                }
            }
            if read(1)[..40] != want[..] {
                fail("bins differ".into());
            }
        }
        "radix_sort_pairs" => {
            let keys = read(1);
            let values = read(3);
            // Exactly, in O(n): each value names its key's input position,
            // once; keys in order; equal keys in input order (stable).
            let mut seen = vec![false; n];
            let bad = (0..n).find(|&i| {
                let v = values[i] as usize;
                let fresh = v < n && !std::mem::replace(&mut seen[v], true);
                !fresh
                    || keys[i] != call.input[v]
                    || (i > 0
                        && (keys[i - 1] > keys[i]
                            || (keys[i - 1] == keys[i] && values[i - 1] > values[i])))
            });
            if let Some(i) = bad {
                fail(format!("position {i} wrong"));
            }
        }
        "segmented_sort" => {
            let got = read(1);
            let mut want = call.input.clone();
            for w in call.extra.windows(2) {
                want[w[0] as usize..w[1] as usize].sort_unstable();
            }
            if got[..n] != want[..] {
                fail("a segment differs".into());
            }
        }
        _ => {
            let keys = read(1);
            let values = read(3);
            let mut want: Vec<(i32, u32)> = call.input.iter().map(|&k| k as i32).zip(0..).collect();
            for chunk in want.chunks_mut(FIXED_SEGMENT) {
                chunk.sort_unstable();
            }
            if (0..n).any(|i| keys[i] as i32 != want[i].0 || values[i] != want[i].1) {
                fail("a segment differs".into());
            }
        }
    }
    for g in guard_failures {
        fail(g);
    }
    Ok(())
}

fn run(args: &Args) -> Result<bool, Error> {
    let backend = args
        .backend
        .as_deref()
        .map(str::parse::<Backend>)
        .transpose()?;
    let gpu = open_gpu(
        backend,
        args.adapter.clone(),
        args.device,
        SubgroupChoice::Auto,
    )?;
    let algorithms = Algorithms::new(gpu.library_device())?;
    let mut rng = rng(args.seed);
    let start = Instant::now();
    let memory_start = gpu.memory_in_use();
    let (mut calls, mut bytes, mut programs) = (0u64, 0u64, 0u64);
    let mut counts = [0u64; NAMES.len()];
    let mut failures: Vec<String> = Vec::new();
    let mut next_report = Duration::from_secs(60);
    eprintln!(
        "wavekit-soak on {} ({}), {} s",
        gpu.info().name,
        gpu.info().driver,
        args.seconds
    );
    // The memory in use after the first program, its buffers freed: the
    // baseline, since a driver reserves some memory at a context's first
    // launches and keeps it (CUDA's local-memory reservation).
    let mut memory_warm = None;
    while start.elapsed() < Duration::from_secs(args.seconds) {
        // Two algorithms in one program, a copy of the caller's between;
        // every buffer of the program freed at the end of the block.
        {
            let picks = [
                rng.random_range(0..NAMES.len()),
                rng.random_range(0..NAMES.len()),
            ];
            let prepared = picks
                .iter()
                .map(|&which| {
                    let n = size(&mut rng, args.max_log2);
                    prepare(&gpu, &algorithms, &mut rng, which, n)
                })
                .collect::<Result<Vec<Call>, Error>>()?;
            // Every call has an element at least, so the copy has a word.
            let copy_source =
                gpu.upload(bytes_of(&prepared[0].input[..prepared[0].n.min(1024)]))?;
            let copy_target = gpu.buffer(copy_source.size())?;
            let first =
                |queue: wavekit::device::Queue<'_>| record(&algorithms, &prepared[0], queue);
            let second =
                |queue: wavekit::device::Queue<'_>| record(&algorithms, &prepared[1], queue);
            gpu.execute(&[
                Step::Record(&first),
                Step::Copy {
                    src: &copy_source,
                    dst: &copy_target,
                },
                Step::Record(&second),
            ])?;
            if gpu.read(&copy_target)? != gpu.read(&copy_source)? {
                failures.push("the caller's copy between two calls differs".into());
            }
            for (call, &which) in prepared.iter().zip(&picks) {
                check(&gpu, call, &mut failures)?;
                calls += 1;
                counts[which] += 1;
                bytes += 4 * call.n as u64;
            }
        }
        programs += 1;
        if programs == 1 {
            memory_warm = gpu.memory_in_use();
        }
        if start.elapsed() >= next_report {
            next_report += Duration::from_secs(60);
            println!(
                "{}",
                json!({"soak": "progress", "seconds": start.elapsed().as_secs(), "calls": calls,
                                  "failures": failures.len(), "memory_bytes": gpu.memory_in_use()})
            );
        }
    }
    let memory_end = gpu.memory_in_use();
    drop(algorithms);
    let memory_after_drop = gpu.memory_in_use();
    let per_algorithm: serde_json::Map<String, serde_json::Value> = NAMES
        .iter()
        .zip(counts)
        .map(|(n, c)| (n.to_string(), json!(c)))
        .collect();
    println!(
        "{}",
        json!({"soak": "done", "device": gpu.info().name, "driver": gpu.info().driver,
               "seconds": start.elapsed().as_secs_f64(), "programs": programs, "calls": calls,
               "element_bytes": bytes, "failures": failures.len(), "calls_per_algorithm": per_algorithm,
               "memory_bytes_start": memory_start, "memory_bytes_after_first_program": memory_warm,
               "memory_bytes_end": memory_end, "memory_bytes_after_drop": memory_after_drop,
               "seed": args.seed, "max_log2": args.max_log2})
    );
    for failure in failures.iter().take(20) {
        eprintln!("FAIL {failure}");
    }
    // Memory: the same at the end as after the first program, every
    // program's buffers freed (a slack of one MiB for the allocator's own
    // bookkeeping).
    let grew = match (memory_warm, memory_end) {
        (Some(a), Some(b)) => b > a + (1 << 20),
        _ => false,
    };
    if grew {
        eprintln!(
            "device memory grew: {memory_warm:?} after the first program -> {memory_end:?} bytes at the end"
        );
    }
    Ok(failures.is_empty() && !grew)
}

fn main() -> ExitCode {
    env_logger::init();
    match run(&Args::parse()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("wavekit-soak: {e}");
            ExitCode::from(2)
        }
    }
}
