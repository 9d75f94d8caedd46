//! `wavekit::device` from several threads: which objects are `Send` and
//! `Sync` (checked when this file compiles), and eight threads building
//! and recording algorithms on one `wgpu::Device` on lavapipe, each with
//! its own encoder, one algorithm object shared by all eight, submitting
//! in reverse order of their start. Every result is checked against the
//! CPU and every guard word around it; the whole run has a time limit, so
//! a deadlock fails the test instead of hanging it. The CUDA form (eight
//! streams on one context) is in `tests/device_cuda.rs`.

mod device_support;

use std::sync::mpsc;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use device_support::*;
use wavekit::Dtype;
use wavekit::device::{
    AdjacentDifference, ArgReduce, BinarySearch, Device, FixedSegmentedSort, Histogram, KeyType,
    PartitionFlagged, PartitionIf, Queue, RadixSort, Reduce, ReduceOp, ReduceType, RunLengthEncode,
    Scan, ScanOperator, SegmentedSort, SelectFlagged, SelectIf, Slice, TransformReduce, Unique,
};

/// A run that takes longer than this is a deadlock (the whole test takes
/// about 10 s of CPU on 2 cores).
const LIMIT: Duration = Duration::from_secs(300);

fn send_and_sync<T: Send + Sync>() {}
fn send<T: Send>() {}

/// What the documentation of `wavekit::device` and `wavekit::runner`
/// promises: every algorithm object, slice and device handle may be
/// shared between threads; a queue (it holds the caller's `&mut` encoder
/// or a stream) may be moved to another thread.
#[test]
fn the_documented_objects_are_send_and_sync() {
    send_and_sync::<Scan>();
    send_and_sync::<ScanOperator>();
    send_and_sync::<Reduce>();
    send_and_sync::<RadixSort>();
    send_and_sync::<SegmentedSort>();
    send_and_sync::<FixedSegmentedSort>();
    send_and_sync::<SelectIf>();
    send_and_sync::<SelectFlagged>();
    send_and_sync::<RunLengthEncode>();
    send_and_sync::<Histogram>();
    send_and_sync::<ArgReduce>();
    send_and_sync::<TransformReduce>();
    send_and_sync::<AdjacentDifference>();
    send_and_sync::<BinarySearch>();
    send_and_sync::<PartitionIf>();
    send_and_sync::<PartitionFlagged>();
    send_and_sync::<Unique>();
    send_and_sync::<Slice<'static>>();
    send_and_sync::<Device<'static>>();
    send::<Queue<'static>>();
    send_and_sync::<wavekit::runner::Gpu>();
    send_and_sync::<wavekit::runner::Buffer>();
    send_and_sync::<wavekit::runner::Kernel>();
    send_and_sync::<wavekit::Library>();
    send_and_sync::<wavekit::ValidModule>();
    send_and_sync::<wavekit::Target>();
    send_and_sync::<wavekit::Error>();
}

/// The algorithm a thread builds for itself.
enum Own {
    Reduce(Reduce),
    Sort(RadixSort),
    Select(SelectIf),
    Runs(RunLengthEncode),
}

impl Own {
    fn build(device: &wgpu::Device, which: usize) -> Own {
        match which % 4 {
            0 => Own::Reduce(Reduce::new(device, ReduceOp::Sum, ReduceType::U32).expect("builds")),
            1 => Own::Sort(RadixSort::keys(device, KeyType::U32).expect("builds")),
            2 => Own::Select(
                SelectIf::new(
                    device,
                    Dtype::U32,
                    "fn keep(x: u32) -> bool { return x % 3u == 0u; }",
                )
                .expect("builds"),
            ),
            _ => Own::Runs(RunLengthEncode::new(device, Dtype::U32).expect("builds")),
        }
    }

    fn temp_storage_bytes(&self, n: u32) -> u64 {
        match self {
            Own::Reduce(a) => a.temp_storage_bytes(n),
            Own::Sort(a) => a.temp_storage_bytes(n),
            Own::Select(a) => a.temp_storage_bytes(n),
            Own::Runs(a) => a.temp_storage_bytes(n),
        }
    }

    /// Records the algorithm on `input` into `outputs` (each at `offset`).
    fn record(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        input: Slice<'_>,
        outputs: [Slice<'_>; 3],
        n: u32,
        temp: Slice<'_>,
    ) {
        let [a, b, c] = outputs;
        match self {
            Own::Reduce(r) => r.record(encoder, input, a, n, temp),
            Own::Sort(s) => s.record_keys(encoder, input, a, n, temp),
            Own::Select(s) => s.record(encoder, input, a, b, n, temp),
            Own::Runs(r) => r.record(encoder, input, a, b, c, n, temp),
        }
        .expect("records");
    }

    /// The CPU's result for `input`: the first output's words, the
    /// second's and the third's (empty where the algorithm writes none).
    fn expected(&self, input: &[u32]) -> [Vec<u32>; 3] {
        match self {
            Own::Reduce(_) => [
                vec![input.iter().fold(0u32, |s, &x| s.wrapping_add(x))],
                vec![],
                vec![],
            ],
            Own::Sort(_) => {
                let mut sorted = input.to_vec();
                sorted.sort_unstable();
                [sorted, vec![], vec![]]
            }
            Own::Select(_) => {
                let kept: Vec<u32> = input.iter().copied().filter(|x| x % 3 == 0).collect();
                let count = vec![kept.len() as u32];
                [kept, count, vec![]]
            }
            Own::Runs(_) => {
                let (unique, lengths) = run_length_reference(input);
                let runs = vec![unique.len() as u32];
                [unique, lengths, runs]
            }
        }
    }
}

/// One thread's rounds: the shared exclusive sum and its own algorithm on
/// a copy of the same input (the caller's copy recorded between them),
/// all at a non-zero offset between guard words. Returns the number of
/// results checked.
fn rounds(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    scan: &Scan,
    thread: usize,
    barrier: &Barrier,
) -> usize {
    let own = Own::build(device, thread);
    let align = alignment(device);
    let mut checked = 0;
    for (round, n) in [1usize, 4097 + 37 * thread, 70_001].into_iter().enumerate() {
        let seed = (thread * 10 + round) as u64;
        let input = runs_input(n, seed);
        let offset = align * (1 + (thread + round) as u64 % 3);
        let words = |count: usize| guarded(device, &vec![GUARD; count], offset, 64);
        let data = guarded(device, &input, offset, 64);
        let copy = words(n);
        let scanned = words(n);
        let outputs = [words(n), words(n), words(1)];
        let n32 = n as u32;
        let temp = zeroed(
            device,
            scan.temp_storage_bytes(n32)
                .max(own.temp_storage_bytes(n32)),
        );

        let mut encoder = encoder(device);
        scan.record(
            &mut encoder,
            Slice::new(&data, offset),
            Slice::new(&scanned, offset),
            n32,
            (&temp).into(),
        )
        .expect("records");
        encoder.copy_buffer_to_buffer(&data, 0, &copy, 0, data.size());
        own.record(
            &mut encoder,
            Slice::new(&copy, offset),
            outputs.each_ref().map(|b| Slice::new(b, offset)),
            n32,
            (&temp).into(),
        );
        // All threads have recorded their first round before any submits;
        // then they submit in reverse order of their numbers.
        if round == 0 {
            barrier.wait();
            std::thread::sleep(Duration::from_millis(10 * (8 - thread as u64)));
        }
        let read = submit_and_read(
            device,
            queue,
            encoder,
            &[&scanned, &outputs[0], &outputs[1], &outputs[2]],
        );
        let what = format!("thread {thread}, n = {n}");
        let want_scan: Vec<u32> = input
            .iter()
            .scan(0u32, |sum, &x| {
                let before = *sum;
                *sum = sum.wrapping_add(x);
                Some(before)
            })
            .collect();
        assert_same(
            &inside(&read[0], offset, n, &what),
            &want_scan,
            &format!("{what}: the shared scan"),
        );
        for (k, want) in own.expected(&input).iter().enumerate() {
            let words = read[k + 1].len() - (offset / 4) as usize - 16;
            let got = inside(&read[k + 1], offset, words, &what);
            assert_same(&got[..want.len()], want, &format!("{what}: output {k}"));
            assert!(
                got[want.len()..].iter().all(|&w| w == GUARD),
                "{what}: output {k} written past its {} words",
                want.len()
            );
        }
        checked += 1;
    }
    checked
}

#[test]
fn eight_threads_record_on_one_device() {
    let (sender, results) = mpsc::channel();
    let started = Instant::now();
    std::thread::spawn(move || {
        let (device, queue) = open();
        let scan = Scan::exclusive_sum(&device, Dtype::U32).expect("builds");
        let barrier = Arc::new(Barrier::new(8));
        let checked: usize = std::thread::scope(|s| {
            let handles: Vec<_> = (0..8)
                .map(|t| {
                    let (device, queue, scan, barrier) = (&device, &queue, &scan, &barrier);
                    s.spawn(move || rounds(device, queue, scan, t, barrier))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a thread's checks pass"))
                .sum()
        });
        sender.send(checked).expect("the test waits");
    });
    match results.recv_timeout(LIMIT) {
        Ok(checked) => {
            assert_eq!(checked, 24, "eight threads, three rounds each");
            eprintln!("24 rounds checked in {:.1?}", started.elapsed());
        }
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("no result after {LIMIT:?}: the threads deadlocked")
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            panic!("a thread failed (its panic is printed above)")
        }
    }
}

/// Issue 35, second batch: the by-key and segmented objects.
#[test]
fn the_by_key_and_segmented_objects_are_send_and_sync() {
    send_and_sync::<wavekit::device::ReduceByKey>();
    send_and_sync::<wavekit::device::ScanByKey>();
}

/// Issue 35, second batch: the segmented objects.
#[test]
fn the_segmented_objects_are_send_and_sync() {
    send_and_sync::<wavekit::device::SegmentedReduce>();
    send_and_sync::<wavekit::device::SegmentedScan>();
}

/// Issue 35, second batch: the unique by key.
#[test]
fn the_unique_by_key_is_send_and_sync() {
    send_and_sync::<wavekit::device::UniqueByKey>();
}

/// Issue 35's third batch: histogram ranges and channels, merge sort and
/// merge, top-k.
#[test]
fn the_third_batch_is_send_and_sync() {
    send_and_sync::<wavekit::device::MultiHistogram>();
    send_and_sync::<wavekit::device::MergeSort>();
    send_and_sync::<wavekit::device::Merge>();
    send_and_sync::<wavekit::device::TopK>();
}

/// Issue 35's fourth batch: the three-way partition, segmented
/// arg-reductions.
#[test]
fn the_fourth_batch_is_send_and_sync() {
    send_and_sync::<wavekit::device::ThreeWayPartition>();
    send_and_sync::<wavekit::device::SegmentedArgReduce>();
}
