//! `wavekit::device::ThreeWayPartition` (CUB's `DevicePartition::If` with
//! two selectors) on lavapipe at subgroup sizes 4, 8 and 16 and on
//! emulated subgroups, against a CPU reference: u32, i32 (predicates with
//! helper constants) and f32 (NaN: every comparison false, so NaN goes to
//! the unselected part, bits kept); sizes 0, 1, a tile ± 1, odd sizes and
//! 2^20 + 5 once per type (at 8 lanes); the single pass and reduce-then-scan; stalled tiles
//! (the look-back's fallback, two counts a tile); every slice at a
//! non-zero offset between guard words, the outputs' unwritten words
//! checked untouched; malformed predicates and bad calls as errors.

mod device_support;

use device_support::*;
use wavekit::Dtype;
use wavekit::device::debug::{LookBackDebug, with_look_back};
use wavekit::device::{ScanAlgorithm, Slice, ThreeWayPartition};

/// The big size run once per type.
const BIG: usize = (1 << 20) + 5;

/// A type's predicates, as WGSL and in Rust.
struct Case {
    dtype: Dtype,
    first: &'static str,
    second: &'static str,
    first_rs: fn(u32) -> bool,
    second_rs: fn(u32) -> bool,
}

fn cases() -> [Case; 3] {
    [
        Case {
            dtype: Dtype::U32,
            first: "fn first_part(x: u32) -> bool { return x % 3u == 1u; }",
            second: "fn second_part(x: T) -> bool { return x % 3u == 2u; }",
            first_rs: |x| x % 3 == 1,
            second_rs: |x| x % 3 == 2,
        },
        Case {
            dtype: Dtype::I32,
            first: "const WK_LOW = -5i;\nfn first_part(x: i32) -> bool {\n    return x < WK_LOW;\n}",
            second: "const WK_HIGH = 5i;\nfn is_high(x: i32) -> bool { return x > WK_HIGH; }\nfn second_part(x: i32) -> bool { return is_high(x); }",
            first_rs: |x| (x as i32) < -5,
            second_rs: |x| (x as i32) > 5,
        },
        Case {
            dtype: Dtype::F32,
            // Both hold for 2.0 and above: the first wins.
            first: "fn first_part(x: f32) -> bool { return x >= 2.0; }",
            second: "fn second_part(x: f32) -> bool { return x > 0.5 || x < -8.0; }",
            first_rs: |x| f32::from_bits(x) >= 2.0,
            second_rs: |x| {
                let x = f32::from_bits(x);
                // As the WGSL's two comparisons: false for NaN.
                !x.is_nan() && !(-8.0..=0.5).contains(&x)
            },
        },
    ]
}

impl Case {
    fn build(&self, device: &wgpu::Device) -> ThreeWayPartition {
        ThreeWayPartition::new(device, self.dtype, self.first, self.second).expect("builds")
    }

    /// `n` words of the case's type: u32 below 1000, i32 in [-20, 20),
    /// f32 multiples of 0.25 in [-12, 12) with NaNs and both zeros.
    fn input(&self, n: usize, seed: u64) -> Vec<u32> {
        random(n, 0, seed)
            .into_iter()
            .enumerate()
            .map(|(i, w)| match self.dtype {
                Dtype::I32 => ((w % 40) as i32 - 20) as u32,
                Dtype::F32 if i % 11 == 4 => [0x7fc0_0000, 0xffc0_0001][i % 2],
                Dtype::F32 if i % 13 == 6 => (-0.0f32).to_bits(),
                Dtype::F32 => ((w % 96) as f32 * 0.25 - 12.0).to_bits(),
                _ => w % 1000,
            })
            .collect()
    }

    /// CUB's three parts of `input`, each in input order.
    fn reference(&self, input: &[u32]) -> [Vec<u32>; 3] {
        let mut parts: [Vec<u32>; 3] = Default::default();
        for &x in input {
            let part = if (self.first_rs)(x) {
                0
            } else if (self.second_rs)(x) {
                1
            } else {
                2
            };
            parts[part].push(x);
        }
        parts
    }
}

/// Runs `partition` on `n` elements, every slice at an offset between
/// guards (the three outputs and counts in one buffer, temp in another),
/// and checks the parts, the counts, the outputs' unwritten words and the
/// input.
fn check(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    partition: &ThreeWayPartition,
    case: &Case,
    n: usize,
    seed: u64,
) {
    let align = alignment(device);
    let input = case.input(n, seed);
    let what = format!(
        "ThreeWayPartition {:?} {:?} n = {n}",
        case.dtype,
        partition.algorithm()
    );
    // One buffer: first, second, unselected (n words each, from aligned
    // offsets), counts; GUARD everywhere first.
    let span = (4 * n as u64).next_multiple_of(align).max(align);
    let offsets = [align, align + span, align + 2 * span, align + 3 * span];
    let words = (offsets[3] + align) / 4;
    let outputs = guarded(device, &vec![GUARD; words as usize], 0, 64);
    let data = guarded(device, &input, align, 64);
    let bytes = partition.temp_storage_bytes(n as u32);
    let temp = zeroed(device, bytes + 3 * align);
    let mut encoder = encoder(device);
    let at = |i: usize| Slice::new(&outputs, offsets[i]);
    partition
        .record(
            &mut encoder,
            Slice::new(&data, align),
            at(0),
            at(1),
            at(2),
            at(3),
            n as u32,
            Slice::new(&temp, 3 * align),
        )
        .expect("records");
    let read = submit_and_read(device, queue, encoder, &[&outputs, &data]);
    assert_same(
        &inside(&read[1], align, n, &what),
        &input,
        &format!("{what}: the input"),
    );
    let parts = case.reference(&input);
    let got = &read[0];
    let counts = [
        got[(offsets[3] / 4) as usize],
        got[(offsets[3] / 4) as usize + 1],
    ];
    assert_eq!(
        counts,
        [parts[0].len() as u32, parts[1].len() as u32],
        "{what}: counts"
    );
    for (i, part) in parts.iter().enumerate() {
        let first = (offsets[i] / 4) as usize;
        let mut want = part.clone();
        want.resize(n, GUARD);
        assert_same(&got[first..first + n], &want, &format!("{what}: part {i}"));
    }
    // Words outside the slices: guards.
    let mut all = vec![GUARD; got.len()];
    for offset in &offsets[..3] {
        let first = (offset / 4) as usize;
        all[first..first + n].copy_from_slice(&got[first..first + n]);
    }
    all[(offsets[3] / 4) as usize..(offsets[3] / 4) as usize + 2].copy_from_slice(&counts);
    assert_same(got, &all, &format!("{what}: the guards"));
}

fn three_way_cases(device: &wgpu::Device, queue: &wgpu::Queue, big: bool) {
    for case in cases() {
        let single = case.build(device);
        let three = case
            .build(device)
            .with_algorithm(ScanAlgorithm::ReduceThenScan);
        for partition in [&single, &three] {
            for n in [0, 1, 2, 4095, 4096, 4097, 3 * 4096 + 5, 77_777] {
                check(device, queue, partition, &case, n, n as u64 + 7);
            }
        }
        if big {
            check(device, queue, &single, &case, BIG, 5);
        }
    }
}

#[test]
fn three_way_child() {
    if !is_child() {
        return;
    }
    let (device, queue) = open();
    // The big size at one subgroup size (8 lanes): its tiles repeat the
    // smaller sizes' code at every width.
    let big = std::env::var("LP_NATIVE_VECTOR_WIDTH").as_deref() == Ok("256");
    three_way_cases(&device, &queue, big);
    // Every third tile never publishes either count: later tiles fall
    // back on each.
    let stalls = LookBackDebug {
        stall_every: 3,
        fallback: Some(true),
        spins: 0,
    };
    let [u32s, _, f32s] = cases();
    for case in [u32s, f32s] {
        let partition = with_look_back(stalls, || case.build(&device));
        for n in [4097, 40_000, 100_003] {
            check(&device, &queue, &partition, &case, n, 3);
        }
    }
}

#[test]
fn three_way_at_each_subgroup_size() {
    at_each_subgroup_size("three_way_child");
}

#[test]
fn three_way_on_emulated_subgroups() {
    let (device, queue) = open_without_subgroups();
    three_way_cases(&device, &queue, false);
}

#[test]
fn malformed_three_way_predicates_are_errors() {
    let (device, _queue) = open();
    let build =
        |first: &str, second: &str| ThreeWayPartition::new(&device, Dtype::U32, first, second);
    let good_first = "fn first_part(x: u32) -> bool { return x < 5u; }";
    let good_second = "fn second_part(x: u32) -> bool { return x > 9u; }";
    assert_refused(
        build(
            good_first,
            "fn second_part(x: u32) -> bool {\n    return x < ;\n}",
        ),
        &["ThreeWayPartition `second_part`:2:"],
    );
    assert_refused(
        build("fn first_part(x: u32) -> u32 { return x; }", good_second),
        &["must declare `fn first_part(x: T) -> bool` (T = u32)"],
    );
    assert_refused(
        build("fn keep(x: u32) -> bool { return true; }", good_second),
        &["fn first_part"],
    );
    assert_refused(
        ThreeWayPartition::new(&device, Dtype::F16, good_first, good_second),
        &["ThreeWayPartition takes u32, i32, f32 elements, not f16"],
    );
}

#[test]
fn bad_three_way_calls_are_errors() {
    let (device, _queue) = open();
    let partition = ThreeWayPartition::new(
        &device,
        Dtype::U32,
        "fn first_part(x: u32) -> bool { return x < 5u; }",
        "fn second_part(x: u32) -> bool { return x > 9u; }",
    )
    .expect("builds");
    let n = 3000u32;
    let data = zeroed(&device, 4 * u64::from(n));
    let out = zeroed(&device, 3 * 4 * u64::from(n) + 1024);
    let temp = zeroed(&device, partition.temp_storage_bytes(n));
    let small = zeroed(&device, 4);
    let d = Slice::from(&data);
    let o = |offset| Slice::new(&out, offset);
    let t = Slice::from(&temp);
    let mut encoder = encoder(&device);
    let mut call = |parts: [Slice<'_>; 4], n, temp| {
        let [first, second, unselected, counts] = parts;
        partition.record(&mut encoder, d, first, second, unselected, counts, n, temp)
    };
    let good = [o(0), o(12032), o(24064), o(36096)];
    for (refused, message) in [
        (
            call([d, o(12000), o(24000), o(36096)], n, t),
            "ThreeWayPartition: `input` and `first` are the same buffer".to_string(),
        ),
        (
            call([o(0), o(256), o(24000), o(36096)], n, t),
            "`first` (bytes 0..12000) and `second` (bytes 256..12256) overlap".to_string(),
        ),
        (
            call([o(0), o(12032), o(24064), Slice::from(&small)], n, t),
            "`counts`: 8 bytes from offset 0 do not fit the buffer of 4 bytes".to_string(),
        ),
        (
            call(good, n, Slice::from(&small)),
            format!("`temp`: {} bytes", partition.temp_storage_bytes(n)),
        ),
        (
            call(good, n + 1, t),
            "`input`: 12004 bytes from offset 0 do not fit the buffer of 12000 bytes".to_string(),
        ),
        (
            call(good, 1 << 30, t),
            "takes at most 1073741823 elements, not 1073741824: use ScanAlgorithm::ReduceThenScan"
                .to_string(),
        ),
    ] {
        assert_refused(refused, &[&message]);
    }
}
