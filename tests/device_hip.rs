//! `wavekit::device` on HIP, statically: no AMD GPU exists here.
//!
//! Every algorithm is built on a HIP device for gfx942 (wave64, CDNA) and
//! gfx1100 (wave32, RDNA) and recorded on a HIP stream, through
//! the same host code as on CUDA (`src/backend/native_server.rs`). The HIP
//! runtime is a stand-in built from `tests/hip_stub/libamdhip64.c` and
//! found through `ROCM_PATH`: kernels do not run, but every launch and
//! clear reaches it, is checked to lie in live allocations on a live
//! stream, and every code object the algorithms load is written out and
//! checked with LLVM's tools — `llvm-readelf` (kernel descriptor, wave
//! size, and the kernel arguments: each buffer's address then its byte
//! length, the layout the host passes) and `llvm-objdump`. What runs on an
//! AMD GPU is not shown here.

mod device_support;

use std::path::{Path, PathBuf};
use std::process::Command;

use device_support::random;
use libloading::Library;
use wavekit::Dtype;
use wavekit::device::{
    AdjacentDifference, ArgOp, ArgReduce, BinarySearch, Bound, EvenLevels, FixedSegmentedSort,
    FlagType, Histogram, KeyType, PartitionFlagged, PartitionIf, RadixSort, Reduce, ReduceOp,
    ReduceType, RunLengthEncode, Scan, ScanKind, ScanOperator, SegmentedSort, SelectFlagged,
    SelectIf, Slice, Subtract, TransformReduce, Unique,
};
use wavekit_native::amdgpu::{Amdgpu, Arch};
use wavekit_native::driver::Driver;
use wavekit_native::hip::{Hip, HipMemory, HipStream};
use wavekit_native::tools;

/// Elements of each call: several tiles of every algorithm.
const N: usize = 40_000;

/// The stand-in runtime, built and loaded; its counters.
struct Stub {
    dir: PathBuf,
    library: Library,
}

impl Stub {
    /// Builds `tests/hip_stub/libamdhip64.c` into `$TMP/.../lib` and points
    /// `ROCM_PATH` at it; `None` without a C compiler.
    fn build() -> Option<Stub> {
        let dir = std::env::temp_dir().join(format!("wavekit-device-hip-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("lib")).expect("a temp directory");
        let library = dir.join("lib/libamdhip64.so");
        let output = match Command::new("cc")
            .args(["-shared", "-fPIC", "-O1", "-o"])
            .arg(&library)
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hip_stub/libamdhip64.c"))
            .output()
        {
            Ok(output) => output,
            Err(e) => {
                eprintln!("skipping: no C compiler ({e})");
                return None;
            }
        };
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        // SAFETY: the only test of this binary sets it before any thread
        // reads the environment.
        unsafe { std::env::set_var("ROCM_PATH", &dir) };
        // SAFETY: the stub has no initialisers; the runtime search below
        // opens the same file (dlopen counts references).
        let library = unsafe { Library::new(&library) }.expect("the stub loads");
        Some(Stub { dir, library })
    }

    /// One of the stub's `int stub_*(void)` counters.
    fn count(&self, name: &str) -> i32 {
        // SAFETY: `int name(void)`.
        let f =
            unsafe { self.library.get::<unsafe extern "C" fn() -> i32>(name) }.expect("a counter");
        // SAFETY: reads a counter.
        unsafe { f() }
    }

    /// Where the code objects of `target` are written.
    fn dump(&self, target: &Amdgpu) -> PathBuf {
        let dir = self
            .dir
            .join(format!("{}-w{}", target.arch.name(), target.wave_size));
        std::fs::create_dir_all(&dir).expect("a dump directory");
        // SAFETY: as in `build`; the stub reads it at each load.
        unsafe { std::env::set_var("STUB_DUMP", &dir) };
        dir
    }
}

/// Zeroed device memory of `bytes` bytes (at least 4).
fn memory(hip: &Hip, bytes: u64) -> HipMemory {
    hip.alloc_zeroed(bytes.max(4) as usize)
        .expect("the stub allocates")
}

/// A stream, the `N` random keys of `seed` uploaded, and an output of
/// `output_words` words a key, values and values out of one word a key.
fn inputs(hip: &Hip, seed: u64, output_words: u64) -> (HipStream, HipMemory, [HipMemory; 3]) {
    let stream = hip.create_stream().expect("a stream");
    let keys = random(N, 0, seed);
    let mut upload = memory(hip, 4 * N as u64);
    hip.copy_to_device(&mut upload, bytemuck_words(&keys))
        .expect("copies");
    let buffers = [
        memory(hip, 4 * output_words * N as u64),
        memory(hip, 4 * N as u64),
        memory(hip, 4 * N as u64),
    ];
    (stream, upload, buffers)
}

/// Checks that `what`'s call launched past the `before` launches counted
/// before it, with every argument in memory.
fn reached(stub: &Stub, target: Amdgpu, what: &str, before: i32) {
    assert!(
        stub.count("stub_launches") > before,
        "{what} on {}: no launch reached the runtime",
        target.arch.name()
    );
    assert_eq!(
        stub.count("stub_bad_args"),
        0,
        "{what}: arguments outside memory"
    );
}

/// One algorithm's call, given a way to allocate its temp storage.
type Call<'a> = dyn FnMut(&mut dyn FnMut(u64) -> HipMemory) + 'a;

/// Records every algorithm once on `stream`, each call checked to reach the
/// runtime with in-bounds arguments; returns the calls recorded.
fn record_every_algorithm(stub: &Stub, hip: &Hip, target: Amdgpu) -> usize {
    let device = (hip, target);
    let (stream, upload, [output, values, values_out]) = inputs(hip, 3, 8);
    let n = N as u32;
    let (count, flags) = (memory(hip, 64), memory(hip, N as u64));
    let mut calls = 0;
    let mut recorded = |what: &str, call: &mut Call<'_>| {
        let before = (stub.count("stub_launches"), stub.count("stub_memsets"));
        call(&mut |bytes| memory(hip, bytes));
        reached(stub, target, what, before.0);
        calls += 1;
    };

    recorded("Reduce", &mut |temp| {
        let reduce = Reduce::new(device, ReduceOp::Sum, ReduceType::U32).expect("builds");
        let t = temp(reduce.temp_storage_bytes(n));
        reduce
            .record(&stream, slice(&upload), slice(&count), n, slice(&t))
            .expect("records");
    });
    recorded("ArgReduce", &mut |temp| {
        let arg = ArgReduce::new(device, ArgOp::Min, ReduceType::F32).expect("builds");
        let t = temp(arg.temp_storage_bytes(n));
        arg.record(&stream, slice(&upload), slice(&count), n, slice(&t))
            .expect("records");
    });
    recorded("TransformReduce", &mut |temp| {
        let reduce = TransformReduce::new(
            device,
            Dtype::U32,
            "fn transform(x: u32) -> f32 { return f32(x & 15u); }",
            ReduceOp::Max,
            ReduceType::F32,
        )
        .expect("builds");
        let t = temp(reduce.temp_storage_bytes(n));
        reduce
            .record(&stream, slice(&upload), slice(&count), n, slice(&t))
            .expect("records");
    });
    recorded("AdjacentDifference", &mut |temp| {
        let adjacent = AdjacentDifference::new(
            device,
            Dtype::I32,
            Subtract::Right,
            Some("fn difference(a: i32, b: i32) -> i32 { return max(a, b) - b; }"),
        )
        .expect("builds");
        adjacent
            .record(&stream, slice(&upload), slice(&output), n)
            .expect("records");
        let t = temp(adjacent.temp_storage_bytes(n));
        adjacent
            .record_in_place(&stream, slice(&output), n, slice(&t))
            .expect("records");
    });
    recorded("BinarySearch", &mut |_| {
        let search = BinarySearch::new(device, Dtype::F32, Bound::Upper).expect("builds");
        search
            .record(
                &stream,
                slice(&upload),
                n,
                slice(&values),
                n,
                slice(&output),
            )
            .expect("records");
    });
    recorded("Scan", &mut |temp| {
        let scan = Scan::exclusive_sum(device, Dtype::U32).expect("builds");
        let t = temp(scan.temp_storage_bytes(n));
        scan.record(&stream, slice(&upload), slice(&output), n, slice(&t))
            .expect("records");
    });
    recorded("Scan with an operator", &mut |temp| {
        let scan = Scan::with_operator(device, ScanKind::Inclusive, Dtype::U32, ScanOperator::Max)
            .expect("builds");
        let t = temp(scan.temp_storage_bytes(n));
        scan.record(&stream, slice(&upload), slice(&output), n, slice(&t))
            .expect("records");
    });
    recorded("SelectIf", &mut |temp| {
        let select = SelectIf::new(
            device,
            Dtype::U32,
            "fn keep(x: u32) -> bool { return x > 7u; }",
        )
        .expect("builds");
        let t = temp(select.temp_storage_bytes(n));
        select
            .record(
                &stream,
                slice(&upload),
                slice(&output),
                slice(&count),
                n,
                slice(&t),
            )
            .expect("records");
    });
    recorded("SelectFlagged", &mut |temp| {
        let select = SelectFlagged::new(device, Dtype::U32, FlagType::U8).expect("builds");
        let t = temp(select.temp_storage_bytes(n));
        select
            .record(
                &stream,
                slice(&upload),
                slice(&flags),
                slice(&output),
                slice(&count),
                n,
                slice(&t),
            )
            .expect("records");
    });
    recorded("PartitionIf, PartitionFlagged and Unique", &mut |temp| {
        let partition = PartitionIf::new(
            device,
            Dtype::F32,
            "fn keep(x: f32) -> bool { return x < 0.5; }",
        )
        .expect("builds");
        let flagged = PartitionFlagged::new(device, Dtype::U32, FlagType::U32).expect("builds");
        let unique = Unique::new(device, Dtype::I32).expect("builds");
        let t = temp(
            partition
                .temp_storage_bytes(n)
                .max(unique.temp_storage_bytes(n)),
        );
        let (input, out, count, t) = (slice(&upload), slice(&output), slice(&count), slice(&t));
        partition
            .record(&stream, input, out, count, n, t)
            .expect("records");
        flagged
            .record(&stream, input, slice(&values), out, count, n, t)
            .expect("records");
        unique
            .record(&stream, input, out, count, n, t)
            .expect("records");
    });
    recorded("RunLengthEncode", &mut |temp| {
        let rle = RunLengthEncode::new(device, Dtype::U32).expect("builds");
        let t = temp(rle.temp_storage_bytes(n));
        rle.record(
            &stream,
            slice(&upload),
            slice(&output),
            slice(&values_out),
            slice(&count),
            n,
            slice(&t),
        )
        .expect("records");
    });
    recorded("Histogram", &mut |_| {
        let histogram = Histogram::even(
            device,
            40,
            EvenLevels::U32 {
                lower: 0,
                upper: 120,
            },
        )
        .expect("builds");
        histogram
            .record(&stream, slice(&upload), slice(&output), n)
            .expect("records");
    });
    for (what, key, pairs) in [
        ("RadixSort keys", KeyType::U32, false),
        ("RadixSort pairs", KeyType::U32, true),
        ("RadixSort 64-bit keys", KeyType::U64, false),
    ] {
        recorded(what, &mut |temp| {
            let sort = if pairs {
                RadixSort::pairs(device, key)
            } else {
                RadixSort::keys(device, key)
            }
            .expect("builds");
            let t = temp(sort.temp_storage_bytes(n));
            let keys_in = memory(hip, 8 * N as u64);
            if pairs {
                sort.record_pairs(
                    &stream,
                    slice(&keys_in),
                    slice(&output),
                    slice(&values),
                    slice(&values_out),
                    n,
                    slice(&t),
                )
            } else {
                sort.record_keys(&stream, slice(&keys_in), slice(&output), n, slice(&t))
            }
            .expect("records");
        });
    }
    recorded("SegmentedSort", &mut |temp| {
        let sort = SegmentedSort::keys(device, KeyType::U32).expect("builds");
        let t = temp(sort.temp_storage_bytes(n));
        let mut starts: Vec<u32> = (0..=100).map(|i| i * n / 100).collect();
        starts[100] = n;
        let mut offsets_copy = memory(hip, 4 * 101);
        hip.copy_to_device(&mut offsets_copy, bytemuck_words(&starts))
            .expect("copies");
        sort.record_keys(
            &stream,
            slice(&upload),
            slice(&output),
            n,
            slice(&offsets_copy),
            100,
            slice(&t),
        )
        .expect("records");
    });
    recorded("FixedSegmentedSort", &mut |_| {
        let sort = FixedSegmentedSort::new(device, KeyType::I32, true, 16).expect("builds");
        sort.record_pairs(
            &stream,
            slice(&upload),
            slice(&output),
            slice(&values),
            slice(&values_out),
            n,
        )
        .expect("records");
    });
    // Issue 35, second batch: by key and segmented.
    // The by-key calls' keys, values, keys out, values out and count.
    let by_key = [&upload, &values, &output, &values_out, &count].map(slice);
    recorded("ReduceByKey and ScanByKey", &mut |temp| {
        use wavekit::device::{ReduceByKey, ScanByKey};
        let reduce = ReduceByKey::new(
            device,
            Dtype::U32,
            Dtype::F32,
            ScanOperator::custom(
                "fn op(a: f32, b: f32) -> f32 { return min(a, b); }",
                "3.0e38",
            ),
        )
        .expect("builds");
        let scan = ScanByKey::new(
            device,
            ScanKind::Exclusive,
            Dtype::I32,
            Dtype::U32,
            ScanOperator::Min,
        )
        .expect("builds");
        let t = temp(reduce.temp_storage_bytes(n).max(scan.temp_storage_bytes(n)));
        let [k, v, k_out, v_out, c] = by_key;
        reduce
            .record(&stream, k, v, k_out, v_out, c, n, slice(&t))
            .expect("records");
        scan.record(
            &stream,
            slice(&upload),
            slice(&values),
            slice(&output),
            n,
            slice(&t),
        )
        .expect("records");
    });
    recorded("SegmentedReduce and SegmentedScan", &mut |_| {
        use wavekit::device::{SegmentedReduce, SegmentedScan};
        let reduce = SegmentedReduce::new(device, Dtype::I32, ScanOperator::Max).expect("builds");
        let scan = SegmentedScan::new(device, ScanKind::Inclusive, Dtype::F32, ScanOperator::Add)
            .expect("builds");
        let mut starts: Vec<u32> = (0..=100).map(|s| s * (n / 100)).collect();
        starts[100] = n;
        let mut offsets = memory(hip, 4 * 101);
        hip.copy_to_device(&mut offsets, bytemuck_words(&starts))
            .expect("copies");
        let mut ends = memory(hip, 4 * 100);
        hip.copy_to_device(&mut ends, bytemuck_words(&starts[1..]))
            .expect("copies");
        let (begin, end) = (Slice::hip(&offsets, 0), slice(&ends));
        reduce
            .record(&stream, slice(&upload), n, slice(&output), 100, begin, end)
            .expect("records");
        reduce
            .record_fixed(&stream, slice(&upload), slice(&output), 100, n / 100)
            .expect("records");
        scan.record(
            &stream,
            slice(&upload),
            slice(&values_out),
            n,
            100,
            begin,
            end,
        )
        .expect("records");
        scan.record_fixed(&stream, slice(&values), slice(&values), 40, n / 40)
            .expect("records");
    });
    recorded(
        "UniqueByKey and RunLengthEncode::non_trivial_runs",
        &mut |temp| {
            use wavekit::device::UniqueByKey;
            let unique = UniqueByKey::new(device, Dtype::F32, Dtype::I32).expect("builds");
            let encode = RunLengthEncode::new(device, Dtype::I32).expect("builds");
            let t = temp(
                unique
                    .temp_storage_bytes(n)
                    .max(encode.temp_storage_bytes(n)),
            );
            let [k, v, k_out, v_out, c] = by_key;
            unique
                .record(&stream, k, v, k_out, v_out, c, n, slice(&t))
                .expect("records");
            encode
                .non_trivial_runs(&stream, k, k_out, v_out, c, n, slice(&t))
                .expect("records");
        },
    );
    calls + record_third_batch(stub, hip, target) + record_fourth_batch(stub, hip, target)
}

/// The whole of `memory` as a slice.
fn slice(memory: &HipMemory) -> Slice<'_> {
    Slice::hip(memory, 0)
}

/// `words` as bytes.
fn bytemuck_words(words: &[u32]) -> &[u8] {
    // SAFETY: u32 has no padding and every byte pattern is a u8.
    unsafe { std::slice::from_raw_parts(words.as_ptr().cast(), 4 * words.len()) }
}

/// Checks a code object the algorithms loaded for `target` with
/// `llvm-readelf` and `llvm-objdump`; returns its kernels' names.
fn check_code_object(path: &Path, target: &Amdgpu) -> Vec<String> {
    let bytes = std::fs::read(path).expect("a dumped code object");
    let what = path.display();
    let notes = tools::amdgpu_notes(&bytes).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        notes.contains("AMDGPU - HSA"),
        "{what}: not an HSA code object"
    );
    assert!(
        notes.contains(&format!(".wavefront_size: {}", target.wave_size)),
        "{what}: not wave{}:\n{notes}",
        target.wave_size
    );
    // The arguments, in order: each buffer's address (a global buffer, 8
    // bytes) then its length (a u32 by value), packed — what the host passes
    // (`wavekit_native::abi`).
    let kinds: Vec<&str> = notes
        .lines()
        .filter_map(|l| l.trim().strip_prefix(".value_kind:"))
        .map(str::trim)
        .filter(|k| !k.starts_with("hidden_"))
        .collect();
    assert!(!kinds.is_empty(), "{what}: no kernel arguments:\n{notes}");
    for pair in kinds.chunks(2) {
        assert_eq!(
            pair,
            ["global_buffer", "by_value"],
            "{what}: arguments {kinds:?}"
        );
    }
    let names: Vec<String> = notes
        .lines()
        .filter_map(|l| l.trim().strip_prefix(".name:"))
        .map(|n| n.trim().to_string())
        .filter(|n| notes.contains(&format!("{n}.kd")))
        .collect();
    assert!(!names.is_empty(), "{what}: no kernel descriptor:\n{notes}");
    let disassembly = tools::amdgpu_disassemble(&bytes, target.arch.name())
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(disassembly.contains("s_endpgm"), "{what}: no kernel code");
    names
}

#[test]
fn every_algorithm_builds_and_records_for_hip() {
    let Some(stub) = Stub::build() else { return };
    let hip = Hip::open(0).expect("the stand-in runtime opens");
    assert_eq!(hip.name().expect("a name"), "Stub AMD GPU 0");
    // One CDNA and one RDNA architecture (wave64 and wave32): the host
    // code and the kernels' shapes differ by wave size, not between CDNA
    // generations. gfx90a's code generation is checked for every catalog
    // row by tests/native_amdgpu.rs; a third target here cost a third of
    // this test's time in `make test`.
    let targets = [(Arch::Gfx942, 64), (Arch::Gfx1100, 32)]
        .map(|(arch, wave)| Amdgpu::new(arch, wave).expect("a supported wave size"));
    for target in targets {
        let dump = stub.dump(&target);
        let images_before = stub.count("stub_images");
        let calls = record_every_algorithm(&stub, &hip, target);
        let images = stub.count("stub_images") - images_before;
        let mut kernels = 0;
        for entry in std::fs::read_dir(&dump).expect("the dump directory") {
            kernels += check_code_object(&entry.expect("an entry").path(), &target).len();
        }
        eprintln!(
            "{}-w{}: {calls} calls recorded, {images} code objects, {kernels} kernels checked",
            target.arch.name(),
            target.wave_size
        );
        assert!(
            images as usize >= calls,
            "{images} code objects for {calls} calls"
        );
    }

    // Memory of another API is refused before anything is queued.
    let reduce = Reduce::new((&hip, targets[1]), ReduceOp::Sum, ReduceType::U32).expect("builds");
    let stream = hip.create_stream().expect("a stream");
    let temp = memory(&hip, reduce.temp_storage_bytes(4));
    let input = memory(&hip, 16);
    // SAFETY: never dereferenced: the call is refused first.
    let cuda = unsafe { Slice::from_raw_cuda(0x1000, 64) };
    let launches = stub.count("stub_launches");
    let error = reduce
        .record(
            &stream,
            Slice::hip(&input, 0),
            cuda,
            4,
            Slice::hip(&temp, 0),
        )
        .expect_err("CUDA memory on HIP");
    assert!(
        error
            .to_string()
            .contains("CUDA memory, and this algorithm was built on HIP"),
        "{error}"
    );
    assert_eq!(stub.count("stub_launches"), launches, "nothing queued");
    let _ = std::fs::remove_dir_all(&stub.dir);
}

// Issue 35, third batch: histogram ranges and channels, merge sort and
// merge, top-k.

/// Records `Histogram::range`, `MultiHistogram`, `MergeSort`, `Merge` and
/// `TopK` once each, checked as [`record_every_algorithm`]'s calls;
/// returns the calls recorded.
fn record_third_batch(stub: &Stub, hip: &Hip, target: Amdgpu) -> usize {
    use wavekit::device::{Merge, MergeSort, MultiHistogram, TopK, TopKOrder};
    let device = (hip, target);
    let (stream, upload, [output, values, values_out]) = inputs(hip, 5, 4);
    let n = N as u32;
    let mut calls = 0;
    let mut recorded = |what: &str, call: &mut dyn FnMut()| {
        let before = stub.count("stub_launches");
        call();
        reached(stub, target, what, before);
        calls += 1;
    };
    recorded("Histogram::range", &mut || {
        let histogram = Histogram::range(device, Dtype::U32, 100).expect("builds");
        let levels: Vec<u32> = (0..=100).map(|i| i * 40_000_000).collect();
        let mut levels_memory = memory(hip, 4 * 101);
        hip.copy_to_device(&mut levels_memory, bytemuck_words(&levels))
            .expect("copies");
        histogram
            .record_range(
                &stream,
                slice(&upload),
                slice(&levels_memory),
                slice(&output),
                n,
            )
            .expect("records");
    });
    recorded("MultiHistogram", &mut || {
        let rgb = MultiHistogram::even(
            device,
            4,
            &[(
                64,
                EvenLevels::U32 {
                    lower: 0,
                    upper: 1 << 31,
                },
            ); 3],
        )
        .expect("builds");
        rgb.record(&stream, slice(&upload), slice(&output), n / 4)
            .expect("records");
    });
    recorded("MergeSort", &mut || {
        let sort = MergeSort::pairs(
            device,
            Dtype::F32,
            Some("fn less_than(a: f32, b: f32) -> bool {\n    return abs(a) < abs(b);\n}"),
        )
        .expect("builds");
        let t = memory(hip, sort.temp_storage_bytes(n));
        sort.record_pairs(
            &stream,
            [slice(&upload), slice(&output)],
            [slice(&values), slice(&values_out)],
            n,
            slice(&t),
        )
        .expect("records");
    });
    recorded("Merge", &mut || {
        let merge = Merge::new(device, Dtype::I32, false, None).expect("builds");
        merge
            .record_keys(
                &stream,
                (Slice::hip(&upload, 0), n / 2),
                (Slice::hip(&upload, 2 * u64::from(n)), n / 2),
                slice(&output),
            )
            .expect("records");
    });
    recorded("TopK", &mut || {
        let top = TopK::new(device, KeyType::U32, TopKOrder::Largest, true).expect("builds");
        let t = memory(hip, top.temp_storage_bytes(n, 1000));
        top.record_pairs(
            &stream,
            [slice(&upload), slice(&output)],
            [slice(&values), slice(&values_out)],
            (n, 1000),
            slice(&t),
        )
        .expect("records");
    });
    recorded("TopK batched", &mut || {
        let top = TopK::new(device, KeyType::F32, TopKOrder::Smallest, false).expect("builds");
        let t = memory(hip, top.temp_storage_bytes_batched(40, n / 40, 10));
        top.record_batched_keys(
            &stream,
            [slice(&upload), slice(&output)],
            (40, n / 40, 10),
            slice(&t),
        )
        .expect("records");
    });
    calls
}

// Issue 35, fourth batch: the three-way partition, segmented
// arg-reductions.

/// Records `ThreeWayPartition` (its single pass) and
/// `SegmentedArgReduce` (offsets and one fixed size), each checked as
/// [`record_every_algorithm`]'s calls; returns the calls recorded.
fn record_fourth_batch(stub: &Stub, hip: &Hip, target: Amdgpu) -> usize {
    use wavekit::device::{SegmentedArgReduce, ThreeWayPartition};
    let (stream, upload, [output, values, values_out]) = inputs(hip, 7, 4);
    let n = N as u32;
    let launches = stub.count("stub_launches");
    let partition = ThreeWayPartition::new(
        (hip, target),
        Dtype::U32,
        "fn first_part(x: u32) -> bool { return x < 1000u; }",
        "fn second_part(x: u32) -> bool { return (x & 1u) == 1u; }",
    )
    .expect("builds");
    let scratch = memory(hip, partition.temp_storage_bytes(n));
    let counts = memory(hip, 8);
    let parts = [0, 1].map(|i| Slice::hip(&output, 4 * u64::from(n) * i));
    partition
        .record(
            &stream,
            slice(&upload),
            parts[0],
            parts[1],
            slice(&values),
            slice(&counts),
            n,
            slice(&scratch),
        )
        .expect("records");
    reached(stub, target, "ThreeWayPartition", launches);

    let launches = stub.count("stub_launches");
    let arg = SegmentedArgReduce::new((hip, target), ArgOp::Max, ReduceType::I32).expect("builds");
    // 100 segments of 400, from offsets.
    let offsets: Vec<u32> = (0..=100).map(|i| i * 400).collect();
    let [mut begin, mut end] = [memory(hip, 400), memory(hip, 400)];
    hip.copy_to_device(&mut begin, bytemuck_words(&offsets[..100]))
        .expect("copies");
    hip.copy_to_device(&mut end, bytemuck_words(&offsets[1..]))
        .expect("copies");
    arg.record(
        &stream,
        slice(&upload),
        n,
        slice(&output),
        100,
        slice(&begin),
        slice(&end),
    )
    .expect("records");
    arg.record_fixed(&stream, slice(&upload), slice(&values_out), 400, 100)
        .expect("records");
    reached(stub, target, "SegmentedArgReduce", launches);
    2
}
