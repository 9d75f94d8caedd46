//! `wavekit::device::SegmentedArgReduce` (CUB's
//! `DeviceSegmentedReduce::ArgMin` / `ArgMax`) on lavapipe at subgroup
//! sizes 4, 8 and 16 and on emulated subgroups, against a CPU reference:
//! f32, i32 and u32 with many ties (first index), signed zeros, f32 NaN
//! (skipped) and infinities; segments from offsets (empty ones, a begin
//! past its end, offsets past `n`, overlaps and gaps, lengths of a
//! workgroup ± 1) and of one fixed size; `n = 0`; 2^20 + 5 elements once;
//! every slice at a non-zero offset between guard words; bad calls.

mod device_support;

use device_support::*;
use wavekit::device::{ArgOp, ReduceType, SegmentedArgReduce, Slice};

/// The big size run once per type.
const BIG: usize = (1 << 20) + 5;

/// `n` words of `ty` with many ties (`tied_input`'s) and, for f32,
/// negative infinities and NaNs (quiet, negative, signalling).
fn input(ty: ReduceType, n: usize, seed: u64) -> Vec<u32> {
    let mut words = tied_input(ty, n, seed);
    if ty == ReduceType::F32 {
        for (i, w) in words.iter_mut().enumerate() {
            match i % 89 {
                5 => *w = f32::NEG_INFINITY.to_bits(),
                _ if i % 7 == 3 => *w = [0x7fc0_0000, 0xffc0_0000, 0x7f80_0001][i % 3],
                _ => {}
            }
        }
    }
    words
}

/// The reference pairs of segments `[begin[s], end[s])` of `input`
/// (offsets past `n` read as `n`, a begin past its end as empty).
fn reference_all(ty: ReduceType, op: ArgOp, input: &[u32], begin: &[u32], end: &[u32]) -> Vec<u32> {
    let n = input.len() as u32;
    begin
        .iter()
        .zip(end)
        .flat_map(|(&b, &e)| {
            let e = e.min(n);
            let b = b.min(e);
            arg_reference(ty, op, &input[b as usize..e as usize])
        })
        .collect()
}

/// Segment offsets over `n` elements: consecutive segments of the lengths
/// in `lengths` (cycled), then an empty segment, a begin past its end, a
/// segment past `n`, one overlapping the first two and a gap.
fn layout(n: u32, lengths: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let (mut begin, mut end) = (Vec::new(), Vec::new());
    let mut at = 0u32;
    for &len in lengths.iter().cycle() {
        if at >= n {
            break;
        }
        begin.push(at);
        end.push((at + len).min(n));
        // A gap of 3 after every segment of 7.
        at += len + if len == 7 { 3 } else { 0 };
    }
    begin.extend([n / 2, n / 2 + 1, n.saturating_sub(2), 0]);
    end.extend([n / 2, n / 2, n + 1000, (2 * lengths[0]).min(n)]);
    (begin, end)
}

/// Runs `arg` over the segments of `begin`/`end` (or `fixed` segments of
/// one size) of `input` and checks it against the reference, every slice
/// at an offset between guard words.
fn check(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    arg: &SegmentedArgReduce,
    ty: ReduceType,
    input: &[u32],
    segments: Segments<'_>,
) {
    let align = alignment(device);
    let n = input.len() as u32;
    let data = guarded(device, input, align, 64);
    let (want, count, what) = match segments {
        Segments::Offsets(begin, end) => (
            reference_all(ty, arg.op(), input, begin, end),
            begin.len(),
            format!("Arg{:?} {ty:?} n = {n}, {} segments", arg.op(), begin.len()),
        ),
        Segments::Fixed(size) => {
            let count = input.len() / size as usize;
            let want = input
                .chunks(size as usize)
                .flat_map(|c| arg_reference(ty, arg.op(), c))
                .collect();
            (
                want,
                count,
                format!("Arg{:?} {ty:?} fixed {count} × {size}", arg.op()),
            )
        }
    };
    let output = guarded(device, &vec![GUARD; 2 * count], 2 * align, 64);
    let mut encoder = encoder(device);
    let out = Slice::new(&output, 2 * align);
    let offsets = match segments {
        Segments::Offsets(begin, end) => {
            let begin = guarded(device, begin, 3 * align, 64);
            let end = guarded(device, end, align, 64);
            arg.record(
                &mut encoder,
                Slice::new(&data, align),
                n,
                out,
                count as u32,
                Slice::new(&begin, 3 * align),
                Slice::new(&end, align),
            )
            .expect("records");
            Some((begin, end))
        }
        Segments::Fixed(size) => {
            arg.record_fixed(
                &mut encoder,
                Slice::new(&data, align),
                out,
                count as u32,
                size,
            )
            .expect("records");
            None
        }
    };
    let read = submit_and_read(device, queue, encoder, &[&output, &data]);
    drop(offsets);
    assert_same(
        &inside(&read[1], align, input.len(), &what),
        input,
        &format!("{what}: the input"),
    );
    let got = inside(&read[0], 2 * align, 2 * count, &what);
    assert_same(&got, &want, &what);
}

/// A call's segments.
#[derive(Clone, Copy)]
enum Segments<'a> {
    /// Begin and end offsets.
    Offsets(&'a [u32], &'a [u32]),
    /// Segments of one size over the whole input.
    Fixed(u32),
}

const TYPES: [ReduceType; 3] = [ReduceType::F32, ReduceType::I32, ReduceType::U32];
const OPS: [ArgOp; 2] = [ArgOp::Min, ArgOp::Max];

/// Every type and operator over the edge layouts.
fn cases(device: &wgpu::Device, queue: &wgpu::Queue, big: bool) {
    for ty in TYPES {
        for op in OPS {
            let arg = SegmentedArgReduce::new(device, op, ty).expect("builds");
            assert_eq!(arg.op(), op);
            assert_eq!(arg.dtype().to_string(), format!("{ty:?}").to_lowercase());
            let run = |data: &[u32], segments: Segments<'_>| {
                check(device, queue, &arg, ty, data, segments)
            };
            for (n, lengths) in [
                (0usize, &[1u32][..]),
                (1, &[1]),
                (2, &[1, 0]),
                (255, &[255]),
                (257, &[256, 0, 1]),
                (5000, &[1, 7, 0, 255, 256, 257, 2049]),
            ] {
                let (begin, end) = layout(n as u32, lengths);
                run(
                    &input(ty, n, n as u64 + 11),
                    Segments::Offsets(&begin, &end),
                );
            }
            let data = input(ty, 257 * 12, 5);
            for size in [1, 3, 256, 257] {
                run(
                    &data[..data.len() / size * size],
                    Segments::Fixed(size as u32),
                );
            }
            if big && op == ArgOp::Min {
                let (begin, end) = layout(BIG as u32, &[BIG as u32 - 10, 3, 7]);
                run(&input(ty, BIG, 99), Segments::Offsets(&begin, &end));
            }
        }
    }
    // A segment of NaN alone, and one whose only number is an infinity.
    let nan = f32::NAN.to_bits();
    let data = [
        nan,
        nan,
        f32::INFINITY.to_bits(),
        nan,
        (-0.0f32).to_bits(),
        0,
    ];
    for op in OPS {
        let arg = SegmentedArgReduce::new(device, op, ReduceType::F32).expect("builds");
        let segments = Segments::Offsets(&[0, 0, 4, 0], &[2, 4, 6, 6]);
        check(device, queue, &arg, ReduceType::F32, &data, segments);
    }
}

#[test]
fn segmented_arg_cases() {
    if !is_child() {
        return;
    }
    let (device, queue) = open();
    cases(&device, &queue, true);
}

#[test]
fn segmented_arg_at_each_subgroup_size() {
    at_each_subgroup_size("segmented_arg_cases");
}

#[test]
fn segmented_arg_on_emulated_subgroups() {
    let (device, queue) = open_without_subgroups();
    cases(&device, &queue, false);
}

#[test]
fn bad_segmented_arg_calls_are_errors() {
    let (device, _queue) = open();
    let arg = SegmentedArgReduce::new(&device, ArgOp::Max, ReduceType::I32).expect("builds");
    // 3000 elements; 100 words of offsets; 100 words of output.
    let [data, offsets, out] = [12_000, 400, 400].map(|bytes| zeroed(&device, bytes));
    let [d, o, r] = [&data, &offsets, &out].map(Slice::from);
    let mut encoder = encoder(&device);
    let mut call = |input, output, segments, end| {
        arg.record(&mut encoder, input, 3000, output, segments, o, end)
    };
    for (refused, message) in [
        (
            call(d, d, 10, o),
            "SegmentedArgReduce: `input` and `output` are the same buffer",
        ),
        (
            call(d, o, 10, o),
            "`begin_offsets` and `output` are the same buffer",
        ),
        (
            call(d, r, 51, o),
            "`output`: 408 bytes from offset 0 do not fit the buffer of 400 bytes",
        ),
        (
            call(o, r, 10, d),
            "`input`: 12000 bytes from offset 0 do not fit the buffer of 400 bytes",
        ),
        (
            call(d, r, 10, Slice::new(&offsets, 384)),
            "`end_offsets`: 40 bytes from offset 384 do not fit the buffer of 400 bytes",
        ),
    ] {
        assert_refused(refused, &[message]);
    }
    let mut fixed = |segments, size| arg.record_fixed(&mut encoder, d, r, segments, size);
    for (refused, message) in [
        (
            fixed(10, 0),
            "SegmentedArgReduce: the fixed segment size is 0 (for 10 segments)",
        ),
        (
            fixed(1 << 20, 1 << 13),
            "1048576 segments of 8192 elements exceed 2^32 - 1 elements",
        ),
        (
            fixed(50, 100),
            "`input`: 20000 bytes from offset 0 do not fit the buffer of 12000 bytes",
        ),
    ] {
        assert_refused(refused, &[message]);
    }
}
