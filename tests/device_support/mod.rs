//! Shared by the `wavekit::device` tests: a wgpu device on lavapipe opened
//! the way an application opens its own, buffers with guard bytes around
//! the slices an algorithm gets, read-back, and the re-run of a test binary
//! at each lavapipe subgroup size (lavapipe reads `LP_NATIVE_VECTOR_WIDTH`
//! once per process).

#![allow(dead_code)]

use std::process::Command;

use wgpu::util::DeviceExt;

/// Set in the child processes [`at_each_subgroup_size`] starts.
const CHILD: &str = "WAVEKIT_DEVICE_TEST_CHILD";

/// Bytes around every test slice, filled with [`GUARD`] and checked after.
pub const GUARD: u32 = 0xdead_beef;

/// Runs test `name` of this binary again in one process per lavapipe
/// subgroup size (4, 8, 16), failing with its output if any fails.
///
/// lavapipe runs the children's workgroups with its default threading
/// (one worker per core): the single-pass algorithms' look-back falls back
/// rather than spin on a tile whose worker thread is preempted, so it needs
/// no ordering of workgroups (before the fallback, these children ran
/// `LP_NUM_THREADS=0`: lavapipe ends every loop of an invocation after
/// 65535 iterations in all, and a spin that long left with a wrong prefix).
pub fn at_each_subgroup_size(name: &str) {
    for width in [128, 256, 512] {
        at_subgroup_size(name, width);
    }
}

/// Runs test `name` of this binary in a child process on lavapipe at
/// `LP_NATIVE_VECTOR_WIDTH = width` (128, 256, 512: subgroups of 4, 8,
/// 16), asserting that it passed.
pub fn at_subgroup_size(name: &str, width: u32) {
    in_child(name, ("LP_NATIVE_VECTOR_WIDTH", &width.to_string()));
}

/// Runs test `name` of this binary in a child process on lavapipe with
/// `LP_NUM_THREADS=0`: every workgroup on the submitting thread, one after
/// another in dispatch order, so that a tile's predecessors have ended
/// before it starts. There a look-back without its fallback never waits
/// on a tile that publishes: a wait (a publication that never reads as
/// made) spends lavapipe's loop budget and leaves wrong results, every
/// time. (With worker threads a preempted tile can make the wait time
/// out too, so such a test is flaky there.)
pub fn in_order(name: &str) {
    in_child(name, ("LP_NUM_THREADS", "0"));
}

/// The look-back as CUDA and the GPUs that keep started workgroups running
/// build it: without the fallback, a walk waits until its predecessor
/// publishes (for [`in_order`] tests).
pub fn without_fallback() -> wavekit::device::debug::LookBackDebug {
    wavekit::device::debug::LookBackDebug {
        fallback: Some(false),
        ..Default::default()
    }
}

/// Runs test `name` of this binary alone in a child process with the
/// environment variable `var` (lavapipe reads its settings once per
/// process), asserting that it passed.
fn in_child(name: &str, var: (&str, &str)) {
    let out = Command::new(std::env::current_exe().expect("the test binary"))
        .args(["--exact", name, "--nocapture", "--test-threads", "1"])
        .env(CHILD, "1")
        .env(var.0, var.1)
        .output()
        .expect("the test binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "{name} with {}={}:\n{stdout}\n{stderr}",
        var.0,
        var.1
    );
}

/// Whether this process is a child of [`at_each_subgroup_size`]: the cases
/// run only there.
pub fn is_child() -> bool {
    std::env::var_os(CHILD).is_some()
}

/// Lavapipe's adapter.
fn lavapipe() -> wgpu::Adapter {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    desc.backends = wgpu::Backends::VULKAN;
    let instance = wgpu::Instance::new(desc);
    pollster::block_on(instance.enumerate_adapters(wgpu::Backends::VULKAN))
        .into_iter()
        .find(|a| a.get_info().name.contains("llvmpipe"))
        .expect("lavapipe is installed by scripts/setup")
}

/// A device of `adapter` with `features` and `limits`.
fn request(
    adapter: &wgpu::Adapter,
    features: wgpu::Features,
    limits: wgpu::Limits,
) -> (wgpu::Device, wgpu::Queue) {
    pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("device test"),
        required_features: features,
        required_limits: limits,
        ..Default::default()
    }))
    .expect("opens lavapipe")
}

/// The features `adapter`'s wavekit target needs (its subgroups).
fn target_features(adapter: &wgpu::Adapter) -> wgpu::Features {
    wavekit::Target::from_adapter(adapter)
        .expect("lavapipe has subgroups")
        .wgpu_features()
}

/// A device on lavapipe, opened as an application would: the adapter's
/// limits and the features its wavekit target needs.
pub fn open() -> (wgpu::Device, wgpu::Queue) {
    let adapter = lavapipe();
    let (device, queue) = request(&adapter, target_features(&adapter), adapter.limits());
    eprintln!(
        "lavapipe, subgroups {}",
        device.adapter_info().subgroup_min_size
    );
    (device, queue)
}

/// A device on lavapipe as [`open`] opens it, but whose largest storage
/// binding is `bytes`, as on a device with a lower limit.
pub fn open_with_max_binding(bytes: u64) -> (wgpu::Device, wgpu::Queue) {
    let adapter = lavapipe();
    let limits = wgpu::Limits {
        max_storage_buffer_binding_size: bytes,
        ..adapter.limits()
    };
    request(&adapter, target_features(&adapter), limits)
}

/// A device on lavapipe as [`open`] opens it, with timestamp queries.
pub fn open_with_timestamps() -> (wgpu::Device, wgpu::Queue) {
    let adapter = lavapipe();
    let features = target_features(&adapter) | wgpu::Features::TIMESTAMP_QUERY;
    request(&adapter, features, adapter.limits())
}

/// A device on lavapipe opened without the subgroup features, as on an
/// adapter that has none: `wavekit::device` then emulates subgroups.
pub fn open_without_subgroups() -> (wgpu::Device, wgpu::Queue) {
    let adapter = lavapipe();
    request(&adapter, wgpu::Features::empty(), adapter.limits())
}

/// The device's storage offset alignment.
pub fn alignment(device: &wgpu::Device) -> u64 {
    u64::from(device.limits().min_storage_buffer_offset_alignment)
}

/// Usage of every test buffer.
pub const USAGE: wgpu::BufferUsages = wgpu::BufferUsages::STORAGE
    .union(wgpu::BufferUsages::COPY_SRC)
    .union(wgpu::BufferUsages::COPY_DST);

/// A buffer holding `words` at byte `offset` (a multiple of 4), [`GUARD`]
/// before them and for `after` bytes after them.
pub fn guarded(device: &wgpu::Device, words: &[u32], offset: u64, after: u64) -> wgpu::Buffer {
    let mut all = vec![GUARD; (offset / 4) as usize];
    all.extend_from_slice(words);
    all.extend(std::iter::repeat_n(GUARD, (after / 4) as usize));
    if all.is_empty() {
        all.push(GUARD);
    }
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("guarded"),
        contents: bytemuck::cast_slice(&all),
        usage: USAGE,
    })
}

/// A zeroed buffer of `bytes` (at least 4).
pub fn zeroed(device: &wgpu::Device, bytes: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("zeroed"),
        size: bytes.max(4).next_multiple_of(4),
        usage: USAGE,
        mapped_at_creation: false,
    })
}

/// Submits `encoder` and reads every word of `buffer` back.
pub fn submit_and_read(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    mut encoder: wgpu::CommandEncoder,
    buffers: &[&wgpu::Buffer],
) -> Vec<Vec<u32>> {
    let staging: Vec<wgpu::Buffer> = buffers
        .iter()
        .map(|b| {
            let s = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("readback"),
                size: b.size(),
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            encoder.copy_buffer_to_buffer(b, 0, &s, 0, b.size());
            s
        })
        .collect();
    queue.submit([encoder.finish()]);
    for s in &staging {
        s.slice(..)
            .map_async(wgpu::MapMode::Read, |r| r.expect("maps"));
    }
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("the queue finishes");
    staging
        .iter()
        .map(|s| bytemuck::pod_collect_to_vec(&s.slice(..).get_mapped_range().expect("mapped")))
        .collect()
}

/// A new encoder.
pub fn encoder(device: &wgpu::Device) -> wgpu::CommandEncoder {
    device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default())
}

/// Checks that `words` holds [`GUARD`] outside `[offset, offset + len)`
/// (in words) and returns the words inside.
pub fn inside(words: &[u32], offset: u64, len: usize, what: &str) -> Vec<u32> {
    let first = (offset / 4) as usize;
    for (i, &w) in words.iter().enumerate() {
        if (i < first || i >= first + len) && w != GUARD {
            panic!(
                "{what}: word {i} outside the slice [{first}, {}) was overwritten: {w:#x}",
                first + len
            );
        }
    }
    words[first..first + len].to_vec()
}

/// Deterministic pseudo-random words (xorshift) below `bound` (0: any).
pub fn random(n: usize, bound: u32, seed: u64) -> Vec<u32> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let w = (x >> 32) as u32;
            if bound == 0 { w } else { w % bound }
        })
        .collect()
}

/// The first index where `got` and `want` differ, as a panic.
pub fn assert_same<T: PartialEq + std::fmt::Debug>(got: &[T], want: &[T], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    if let Some(i) = (0..got.len()).find(|&i| got[i] != want[i]) {
        panic!(
            "{what}: first difference at {i} of {}: got {:?}, want {:?}",
            got.len(),
            got[i],
            want[i]
        );
    }
}

/// Checks that `result` is an error whose message holds every one of
/// `needles`.
pub fn assert_refused<T>(result: Result<T, wavekit::Error>, needles: &[&str]) {
    let Err(error) = result else {
        panic!("accepted; should say {needles:?}")
    };
    let message = error.to_string();
    for needle in needles {
        assert!(
            message.contains(needle),
            "{message:?} should say {needle:?}"
        );
    }
}

/// `n` keys below 120 in runs (four of five follow `x / 60` of a random
/// x, so equal neighbours are common): the run-length, selection and
/// histogram tests' input.
pub fn runs_input(n: usize, seed: u64) -> Vec<u32> {
    random(n, 120, seed)
        .into_iter()
        .enumerate()
        .map(|(j, x)| if j % 5 == 0 { x } else { x / 60 })
        .collect()
}

/// The key and length of each run of equal `keys`.
pub fn run_length_reference(keys: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let mut unique = Vec::new();
    let mut lengths: Vec<u32> = Vec::new();
    for (i, &k) in keys.iter().enumerate() {
        if i == 0 || k != keys[i - 1] {
            unique.push(k);
            lengths.push(1);
        } else {
            *lengths.last_mut().expect("a run") += 1;
        }
    }
    (unique, lengths)
}

/// The histogram [`bins_of_three`] computes on the CPU: 40 even bins of
/// u32 over `0..120`.
pub fn histogram_of_thirds<'d>(
    device: impl Into<wavekit::device::Device<'d>>,
) -> wavekit::device::Histogram {
    wavekit::device::Histogram::even(
        device,
        40,
        wavekit::device::EvenLevels::U32 {
            lower: 0,
            upper: 120,
        },
    )
    .expect("builds")
}

/// The CPU's even bin of `levels` (the library's documented formulas).
pub fn even_bin(levels: wavekit::device::EvenLevels, bins: u32, x: u32) -> Option<u32> {
    match levels {
        wavekit::device::EvenLevels::F32 { lower, upper } => {
            let x = f32::from_bits(x);
            let scale = bins as f32 / (upper - lower);
            (x >= lower && x < upper).then(|| (((x - lower) * scale) as u32).min(bins - 1))
        }
        wavekit::device::EvenLevels::U32 { lower, upper } => (lower..upper)
            .contains(&x)
            .then(|| (u64::from(x - lower) * u64::from(bins) / u64::from(upper - lower)) as u32),
        wavekit::device::EvenLevels::I32 { lower, upper } => {
            let x = x as i32;
            (lower..upper).contains(&x).then(|| {
                let d = i64::from(x) - i64::from(lower);
                (d * i64::from(bins) / (i64::from(upper) - i64::from(lower))) as u32
            })
        }
    }
}

/// RGBA pixels of u32 with RGB counted, each channel its own bins (one
/// width dividing its range, two not).
pub fn rgba_levels() -> [(u32, wavekit::device::EvenLevels); 3] {
    [
        (
            60,
            wavekit::device::EvenLevels::U32 {
                lower: 0,
                upper: 600,
            },
        ),
        (
            7,
            wavekit::device::EvenLevels::U32 {
                lower: 100,
                upper: 500,
            },
        ),
        (
            256,
            wavekit::device::EvenLevels::U32 {
                lower: 50,
                upper: 590,
            },
        ),
    ]
}

/// Counts of [`runs_input`] keys in 40 bins of 3 (`EvenLevels::U32 { 0, 120 }`).
pub fn bins_of_three(keys: &[u32]) -> Vec<u32> {
    let mut bins = vec![0u32; 40];
    for &x in keys {
        bins[(x / 3) as usize] += 1;
    }
    bins
}

/// `x -> a x + b mod 2^16` packed as `a << 16 | b`, composed: f, then g
/// (associative, not commutative, identity `1 << 16`): the WGSL operator
/// `affine`, and [`affine_then`] its CPU twin.
pub const AFFINE: &str = "fn affine(f: u32, g: u32) -> u32 {
    let a = (f >> 16u) * (g >> 16u);
    let b = (f & 0xffffu) * (g >> 16u) + (g & 0xffffu);
    return ((a & 0xffffu) << 16u) | (b & 0xffffu);
}";

/// [`AFFINE`] on the CPU.
pub fn affine_then(f: u32, g: u32) -> u32 {
    let a = (f >> 16).wrapping_mul(g >> 16);
    let b = (f & 0xffff).wrapping_mul(g >> 16).wrapping_add(g & 0xffff);
    ((a & 0xffff) << 16) | (b & 0xffff)
}

/// CUB's (index, value bits) of `input` (words of `ty`) under `op`: the
/// first index of the extreme value (`==` ties), `{1, max}` / `{1,
/// lowest}` for no elements; f32 NaN skipped (`SegmentedArgReduce`'s
/// policy; `ArgReduce`'s tests have no NaN).
pub fn arg_reference(
    ty: wavekit::device::ReduceType,
    op: wavekit::device::ArgOp,
    input: &[u32],
) -> [u32; 2] {
    use wavekit::device::{ArgOp, ReduceType};
    let before = |a: u32, b: u32| -> bool {
        let (a, b) = if op == ArgOp::Max { (b, a) } else { (a, b) };
        match ty {
            ReduceType::F32 => f32::from_bits(a) < f32::from_bits(b),
            ReduceType::I32 => (a as i32) < (b as i32),
            ReduceType::U32 => a < b,
        }
    };
    let nan = |x: u32| ty == ReduceType::F32 && f32::from_bits(x).is_nan();
    let mut best: Option<usize> = None;
    for (i, &x) in input.iter().enumerate() {
        if !nan(x) && best.is_none_or(|b| before(x, input[b])) {
            best = Some(i);
        }
    }
    match best {
        Some(i) => [i as u32, input[i]],
        None => {
            let empty = match (ty, op) {
                (ReduceType::F32, ArgOp::Min) => f32::MAX.to_bits(),
                (ReduceType::F32, ArgOp::Max) => f32::MIN.to_bits(),
                (ReduceType::I32, ArgOp::Min) => i32::MAX as u32,
                (ReduceType::I32, ArgOp::Max) => i32::MIN as u32,
                (ReduceType::U32, ArgOp::Min) => u32::MAX,
                (ReduceType::U32, ArgOp::Max) => 0,
            };
            [1, empty]
        }
    }
}

/// The words of `n` elements of `ty` with many ties: f32 multiples of 0.5
/// in [-12, 12] with both zeros, i32 of both signs, u32 below 50 (or the
/// type's extremes, so that the no-element identity meets them).
pub fn tied_input(ty: wavekit::device::ReduceType, n: usize, seed: u64) -> Vec<u32> {
    use wavekit::device::ReduceType;
    let raw = random(n, 49, seed);
    raw.iter()
        .enumerate()
        .map(|(i, &w)| match ty {
            ReduceType::F32 if i % 97 == 13 => f32::INFINITY.to_bits(),
            ReduceType::F32 if w == 24 && i % 2 == 0 => (-0.0f32).to_bits(),
            ReduceType::F32 => (w as f32 * 0.5 - 12.0).to_bits(),
            ReduceType::I32 => (w as i32 - 24) as u32,
            ReduceType::U32 if i % 89 == 7 => u32::MAX,
            ReduceType::U32 => w,
        })
        .collect()
}
