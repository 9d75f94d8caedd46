//! Runs the single-pass scan, selection and OneSweep radix sort of
//! `wavekit::device` many times on one adapter and counts wrong results:
//! the check that their look-back (with decoupled fallback) needs no
//! forward-progress guarantee, on an adapter that gives none (lavapipe
//! with its default threading: its worker threads are preempted at will,
//! and it ends every loop of an invocation after 65535 iterations).
//!
//! `cargo run --release --example single_pass_runs --features runner --
//! [--runs N] [--sort-runs N] [--first-seed S] [--log2 L] [--emulated] [--adapter NAME]`
//! (`--sort-runs`: the sort's runs, when not `--runs`; run r uses seed
//! S + r, S = 1 by default, so a later batch can continue an earlier one)
//!
//! `bench/lavapipe-single-pass.sh` runs it at lavapipe's subgroup sizes
//! 4, 8, 16 and on emulated subgroups of 32, 1000 runs each. Every run
//! uses fresh random input (a new seed) and checks every element against
//! the CPU. The last line is `N passed, N failed`.

use std::time::Instant;

use wavekit::Dtype;
use wavekit::device::{
    KeyType, RadixSort, RadixSortAlgorithm, RadixSortOptions, Scan, ScanAlgorithm, SelectIf, Slice,
};
use wgpu::util::DeviceExt;

struct Args {
    runs: u32,
    sort_runs: Option<u32>,
    first_seed: u64,
    log2: u32,
    emulated: bool,
    adapter: String,
}

fn args() -> Result<Args, String> {
    let mut args = Args {
        runs: 1000,
        sort_runs: None,
        first_seed: 1,
        log2: 20,
        emulated: false,
        adapter: "llvmpipe".into(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--runs" => args.runs = value()?.parse().map_err(|e| format!("--runs: {e}"))?,
            "--sort-runs" => {
                args.sort_runs = Some(value()?.parse().map_err(|e| format!("--sort-runs: {e}"))?)
            }
            "--first-seed" => {
                args.first_seed = value()?.parse().map_err(|e| format!("--first-seed: {e}"))?
            }
            "--log2" => args.log2 = value()?.parse().map_err(|e| format!("--log2: {e}"))?,
            "--adapter" => args.adapter = value()?.to_lowercase(),
            "--emulated" => args.emulated = true,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if args.log2 > 26 {
        return Err(format!("--log2 {} is over 26", args.log2));
    }
    Ok(args)
}

/// xorshift64*: a fresh input per run without a dependency.
fn random(n: usize, seed: u64) -> Vec<u32> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..n)
        .map(|_| {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            (x.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as u32
        })
        .collect()
}

struct Gpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
}

impl Gpu {
    fn buffer(&self, words: &[u32]) -> wgpu::Buffer {
        self.device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: None,
                contents: bytemuck::cast_slice(words),
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            })
    }

    fn zeroed(&self, bytes: u64) -> wgpu::Buffer {
        self.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: bytes.max(4),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        })
    }

    /// Submits `encoder` with copies of `buffers` and reads them back.
    fn read(&self, mut encoder: wgpu::CommandEncoder, buffers: &[&wgpu::Buffer]) -> Vec<Vec<u32>> {
        let staging: Vec<wgpu::Buffer> = buffers
            .iter()
            .map(|b| {
                let s = self.device.create_buffer(&wgpu::BufferDescriptor {
                    label: None,
                    size: b.size(),
                    usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                });
                encoder.copy_buffer_to_buffer(b, 0, &s, 0, b.size());
                s
            })
            .collect();
        self.queue.submit([encoder.finish()]);
        for s in &staging {
            s.slice(..)
                .map_async(wgpu::MapMode::Read, |r| r.expect("maps"));
        }
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("the device finishes");
        staging
            .iter()
            .map(|s| {
                let words =
                    bytemuck::pod_collect_to_vec(&s.slice(..).get_mapped_range().expect("mapped"));
                s.unmap();
                words
            })
            .collect()
    }

    fn encoder(&self) -> wgpu::CommandEncoder {
        self.device.create_command_encoder(&Default::default())
    }
}

fn open(args: &Args) -> Result<Gpu, Box<dyn std::error::Error>> {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::PRIMARY))
        .into_iter()
        .find(|a| a.get_info().name.to_lowercase().contains(&args.adapter))
        .ok_or(format!("no adapter named like {}", args.adapter))?;
    let features = if args.emulated {
        wgpu::Features::empty()
    } else {
        wavekit::Target::from_adapter(&adapter)?.wgpu_features()
    };
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        required_features: features,
        required_limits: adapter.limits(),
        ..Default::default()
    }))?;
    Ok(Gpu { device, queue })
}

/// One run of `what`: whether every element matched.
fn scan_run(gpu: &Gpu, scan: &Scan, input: &[u32]) -> Result<bool, wavekit::Error> {
    let n = input.len();
    let source = gpu.buffer(input);
    let output = gpu.zeroed(4 * n as u64);
    let temp = gpu.zeroed(scan.temp_storage_bytes(n as u32));
    let mut encoder = gpu.encoder();
    scan.record(
        &mut encoder,
        Slice::new(&source, 0),
        Slice::new(&output, 0),
        n as u32,
        Slice::new(&temp, 0),
    )?;
    let got = gpu.read(encoder, &[&output]).remove(0);
    let mut sum = 0u32;
    Ok(input.iter().zip(&got).all(|(&x, &y)| {
        let ok = y == sum;
        sum = sum.wrapping_add(x);
        ok
    }))
}

fn select_run(gpu: &Gpu, select: &SelectIf, input: &[u32]) -> Result<bool, wavekit::Error> {
    let n = input.len();
    let source = gpu.buffer(input);
    let output = gpu.zeroed(4 * n as u64);
    let count = gpu.zeroed(4);
    let temp = gpu.zeroed(select.temp_storage_bytes(n as u32));
    let mut encoder = gpu.encoder();
    select.record(
        &mut encoder,
        Slice::new(&source, 0),
        Slice::new(&output, 0),
        Slice::new(&count, 0),
        n as u32,
        Slice::new(&temp, 0),
    )?;
    let read = gpu.read(encoder, &[&output, &count]);
    let want: Vec<u32> = input.iter().copied().filter(|x| x % 3 == 1).collect();
    Ok(read[1][0] as usize == want.len() && read[0][..want.len()] == want[..])
}

fn sort_run(gpu: &Gpu, sort: &RadixSort, input: &[u32]) -> Result<bool, wavekit::Error> {
    let n = input.len();
    let keys = gpu.buffer(input);
    let sorted = gpu.zeroed(4 * n as u64);
    let temp = gpu.zeroed(sort.temp_storage_bytes(n as u32));
    let mut encoder = gpu.encoder();
    sort.record_keys(
        &mut encoder,
        Slice::new(&keys, 0),
        Slice::new(&sorted, 0),
        n as u32,
        (&temp).into(),
    )?;
    let got = gpu.read(encoder, &[&sorted]).remove(0);
    let mut want = input.to_vec();
    want.sort_unstable();
    Ok(got == want)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = args()?;
    let gpu = open(&args)?;
    let info = gpu.device.adapter_info();
    let target = wavekit::Target::from_device(&gpu.device)?;
    println!(
        "{} ({:?}), {target}, n = 2^{}, {} runs each",
        info.name, info.driver_info, args.log2, args.runs
    );
    let scan = Scan::exclusive_sum(&gpu.device, Dtype::U32)?;
    let select = SelectIf::new(
        &gpu.device,
        Dtype::U32,
        "fn keep(x: u32) -> bool { return x % 3u == 1u; }",
    )?;
    let sort = RadixSort::new(
        &gpu.device,
        RadixSortOptions {
            key: KeyType::U32,
            algorithm: Some(RadixSortAlgorithm::OneSweep),
            ..RadixSortOptions::default()
        },
    )?;
    assert_eq!(scan.algorithm(), ScanAlgorithm::DecoupledLookBack);
    assert_eq!(select.algorithm(), ScanAlgorithm::DecoupledLookBack);
    let n = 1usize << args.log2;
    let (mut passed, mut failed) = (0u32, 0u32);
    type Run<'a> = Box<dyn Fn(&[u32]) -> Result<bool, wavekit::Error> + 'a>;
    let algorithms: [(&str, Run); 3] = [
        ("scan", Box::new(|x| scan_run(&gpu, &scan, x))),
        ("select", Box::new(|x| select_run(&gpu, &select, x))),
        ("onesweep sort", Box::new(|x| sort_run(&gpu, &sort, x))),
    ];
    for (name, run) in &algorithms {
        let start = Instant::now();
        let mut wrong = 0u32;
        let runs = match (*name, args.sort_runs) {
            ("onesweep sort", Some(runs)) => runs,
            _ => args.runs,
        };
        for r in 0..runs {
            let input = random(n, u64::from(r) + args.first_seed);
            if run(&input)? {
                passed += 1;
            } else {
                wrong += 1;
                failed += 1;
                println!(
                    "{name}: run {r} (seed {}) wrong",
                    u64::from(r) + args.first_seed
                );
            }
        }
        println!(
            "{name}: {runs} runs, {wrong} wrong, {:.1} s",
            start.elapsed().as_secs_f64()
        );
    }
    println!("{passed} passed, {failed} failed");
    if failed > 0 {
        std::process::exit(1);
    }
    Ok(())
}
