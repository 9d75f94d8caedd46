//! `wavekit::device::SelectIf` on lavapipe at subgroup sizes 4, 8 and 16
//! against a CPU reference: u32, i32 and f32 with their predicates, both
//! algorithms (the single pass is lavapipe's, with its default threading),
//! edge sizes (0, 1, a tile ± 1, odd sizes, 2^20), slices at
//! non-zero offsets inside larger buffers whose other bytes must stay; and
//! predicates that are not WGSL, or not `fn keep(x: T) -> bool`, as errors
//! at their own line. `SelectFlagged` the same way, with u8 and u32 flags
//! in the input's own buffer.

mod device_support;

use device_support::*;
use wavekit::Dtype;
use wavekit::device::{FlagType, ScanAlgorithm, SelectFlagged, SelectIf, Slice};

const TILE: usize = 4096;

/// A predicate, its CPU twin on the element's bits, and its inputs.
struct Case {
    dtype: Dtype,
    predicate: &'static str,
    keep: fn(u32) -> bool,
    input: fn(usize, u64) -> Vec<u32>,
}

fn cases() -> [Case; 3] {
    [
        Case {
            dtype: Dtype::U32,
            predicate: "fn keep(x: u32) -> bool { return x < 0x80000000u; }",
            keep: |x| x < 0x8000_0000,
            input: |n, seed| random(n, 0, seed),
        },
        Case {
            dtype: Dtype::I32,
            predicate: "const WK_DIVISOR = 3;\nfn keep(x: T) -> bool {\n    return x % WK_DIVISOR == 0;\n}",
            keep: |x| (x as i32) % 3 == 0,
            input: |n, seed| random(n, 0, seed),
        },
        Case {
            dtype: Dtype::F32,
            predicate: "fn keep(x: f32) -> bool { return x >= 0.0 && x < 250.0; }",
            keep: |x| (0.0..250.0).contains(&f32::from_bits(x)),
            input: |n, seed| {
                random(n, 1000, seed)
                    .into_iter()
                    .map(|w| (w as f32 * 0.75 - 300.0).to_bits())
                    .collect()
            },
        },
    ]
}

fn check(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    select: &SelectIf,
    case: &Case,
    n: usize,
    seed: u64,
) {
    let align = alignment(device);
    let input = (case.input)(n, seed);
    let (in_at, out_at, count_at) = (align, 2 * align, 3 * align);
    let input_buffer = guarded(device, &input, in_at, 64);
    let output = guarded(device, &vec![GUARD; n], out_at, 64);
    let count = guarded(device, &[GUARD], count_at, 64);
    let temp = zeroed(device, select.temp_storage_bytes(n as u32) + align);
    let mut encoder = encoder(device);
    select
        .record(
            &mut encoder,
            Slice::new(&input_buffer, in_at),
            Slice::new(&output, out_at),
            Slice::new(&count, count_at),
            n as u32,
            Slice::new(&temp, align),
        )
        .expect("records");
    let read = submit_and_read(device, queue, encoder, &[&output, &count, &input_buffer]);
    let what = format!("{} {:?} n = {n}", case.dtype, select.algorithm());
    let want: Vec<u32> = input.iter().copied().filter(|&x| (case.keep)(x)).collect();
    let got_count = inside(&read[1], count_at, 1, &what)[0] as usize;
    let got = inside(&read[0], out_at, n, &what);
    assert_eq!(
        got_count,
        want.len(),
        "{what}: count (input {:x?}, output {:x?})",
        &input[..n.min(4)],
        &got[..n.min(4)]
    );
    assert_same(&got[..got_count], &want, &what);
    assert!(
        got[got_count..].iter().all(|&w| w == GUARD),
        "{what}: output past the count was written"
    );
    assert_eq!(
        inside(&read[2], in_at, n, &what),
        input,
        "{what}: input changed"
    );
}

#[test]
fn select_cases() {
    if !is_child() {
        return;
    }
    let (device, queue) = open();
    let sizes = [0, 1, 2, 31, TILE - 1, TILE, TILE + 1, 3 * TILE + 5, 50_001];
    for case in cases() {
        let select = SelectIf::new(&device, case.dtype, case.predicate).expect("builds");
        assert_eq!(
            select.algorithm(),
            ScanAlgorithm::DecoupledLookBack,
            "lavapipe's choice: the single pass"
        );
        let three_pass = SelectIf::new(&device, case.dtype, case.predicate)
            .expect("builds")
            .with_algorithm(ScanAlgorithm::ReduceThenScan);
        for (seed, &n) in sizes.iter().enumerate() {
            check(&device, &queue, &select, &case, n, seed as u64);
            check(&device, &queue, &three_pass, &case, n, seed as u64 + 100);
        }
    }
    let [u32_case, ..] = cases();
    let select = SelectIf::new(&device, Dtype::U32, u32_case.predicate).expect("builds");
    check(&device, &queue, &select, &u32_case, 1 << 20, 7);
}

#[test]
fn select_at_each_subgroup_size() {
    at_each_subgroup_size("select_cases");
}

/// `SelectFlagged` of `n` i32 with `flags` of one type, the flags in the
/// input's buffer after the elements.
fn check_flagged(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    select: &SelectFlagged,
    n: usize,
    seed: u64,
) {
    let align = alignment(device);
    let input = random(n, 0, seed);
    let keep: Vec<bool> = random(n, 3, seed + 1).iter().map(|&f| f == 0).collect();
    let flag_words: Vec<u32> = match select.flag_type() {
        FlagType::U32 => keep.iter().map(|&k| if k { 7 } else { 0 }).collect(),
        FlagType::U8 => keep
            .chunks(4)
            .map(|c| {
                c.iter()
                    .enumerate()
                    .map(|(i, &k)| u32::from(k) << (8 * i))
                    .sum()
            })
            .collect(),
    };
    // Input, then the flags at the next aligned offset, in one buffer.
    let flags_at = align + (4 * n as u64).next_multiple_of(align);
    let mut words = input.clone();
    words.resize(((flags_at - align) / 4) as usize, GUARD);
    words.extend_from_slice(&flag_words);
    let (out_at, count_at) = (2 * align, 3 * align);
    let shared = guarded(device, &words, align, 64);
    let output = guarded(device, &vec![GUARD; n], out_at, 64);
    let count = guarded(device, &[GUARD], count_at, 64);
    let temp = zeroed(device, select.temp_storage_bytes(n as u32));
    let mut encoder = encoder(device);
    select
        .record(
            &mut encoder,
            Slice::new(&shared, align),
            Slice::new(&shared, flags_at),
            Slice::new(&output, out_at),
            Slice::new(&count, count_at),
            n as u32,
            (&temp).into(),
        )
        .expect("records");
    let read = submit_and_read(device, queue, encoder, &[&output, &count]);
    let what = format!(
        "{:?} flags {:?} n = {n}",
        select.flag_type(),
        select.algorithm()
    );
    let want: Vec<u32> = input
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(&x, _)| x)
        .collect();
    let got_count = inside(&read[1], count_at, 1, &what)[0] as usize;
    assert_eq!(got_count, want.len(), "{what}: count");
    let got = inside(&read[0], out_at, n, &what);
    assert_same(&got[..got_count], &want, &what);
    assert!(
        got[got_count..].iter().all(|&w| w == GUARD),
        "{what}: output past the count"
    );
}

#[test]
fn flagged_cases() {
    if !is_child() {
        return;
    }
    let (device, queue) = open();
    let sizes = [0, 1, 2, 31, TILE - 1, TILE + 1, 3 * TILE + 5, 50_001];
    for flags in [FlagType::U8, FlagType::U32] {
        let select = SelectFlagged::new(&device, Dtype::I32, flags).expect("builds");
        let three_pass = SelectFlagged::new(&device, Dtype::I32, flags)
            .expect("builds")
            .with_algorithm(ScanAlgorithm::ReduceThenScan);
        for (seed, &n) in sizes.iter().enumerate() {
            check_flagged(&device, &queue, &select, n, seed as u64);
            check_flagged(&device, &queue, &three_pass, n, seed as u64 + 100);
        }
        check_flagged(&device, &queue, &select, (1 << 20) + 3, 9);
    }
}

#[test]
fn flagged_at_each_subgroup_size() {
    at_each_subgroup_size("flagged_cases");
}

#[test]
fn flagged_bad_slices_are_errors() {
    let (device, _queue) = open();
    let select = SelectFlagged::new(&device, Dtype::U32, FlagType::U8).expect("builds");
    let n = 1001u32;
    let input = zeroed(&device, 4 * u64::from(n));
    let flags = zeroed(&device, 1000);
    let output = zeroed(&device, 4 * u64::from(n));
    let temp = zeroed(&device, select.temp_storage_bytes(n));
    let mut encoder = encoder(&device);
    let mut call = |flags: Slice<'_>, output: Slice<'_>| {
        select
            .record(
                &mut encoder,
                (&input).into(),
                flags,
                output,
                Slice::new(&output_count(&device), 0),
                n,
                (&temp).into(),
            )
            .expect_err("refused")
            .to_string()
    };
    let short = call((&flags).into(), (&output).into());
    assert!(short.contains("`flags`: 1004 bytes"), "{short}");
    let same = call((&input).into(), (&input).into());
    assert!(
        same.contains("`input` and `output` are the same buffer"),
        "{same}"
    );
}

/// A one-word count buffer.
fn output_count(device: &wgpu::Device) -> wgpu::Buffer {
    zeroed(device, 4)
}

#[test]
fn a_malformed_predicate_is_an_error_at_its_line() {
    let (device, _queue) = open();
    let message = SelectIf::new(
        &device,
        Dtype::U32,
        "fn keep(x: u32) -> bool {\n    return x < ;\n}",
    )
    .err()
    .expect("a malformed predicate is refused")
    .to_string();
    eprintln!("{message}");
    assert!(
        message.contains("SelectIf `keep`:2:") && message.contains("return x < ;"),
        "{message}"
    );
    let message = SelectIf::new(
        &device,
        Dtype::F32,
        "fn keep(x: f32) -> bool { return x < 1u; }",
    )
    .err()
    .expect("a predicate of the wrong type is refused")
    .to_string();
    eprintln!("{message}");
    assert!(message.contains("SelectIf `keep`:1:"), "{message}");
    let message = SelectIf::new(&device, Dtype::U32, "fn keep(x: u32) -> u32 { return x; }")
        .err()
        .expect("a predicate returning u32 is refused")
        .to_string();
    assert!(
        message.contains("must declare `fn keep(x: T) -> bool` (T = u32)"),
        "{message}"
    );
    let message = SelectIf::new(
        &device,
        Dtype::U32,
        "fn pick(x: u32) -> bool { return true; }",
    )
    .err()
    .expect("a predicate of another name is refused")
    .to_string();
    assert!(message.contains("fn keep"), "{message}");
    let message = SelectIf::new(
        &device,
        Dtype::F16,
        "fn keep(x: T) -> bool { return true; }",
    )
    .err()
    .expect("f16 is refused")
    .to_string();
    assert!(message.contains("not f16"), "{message}");
}

#[test]
fn bad_slices_are_errors() {
    let (device, _queue) = open();
    let n = 1000u32;
    let select = SelectIf::new(
        &device,
        Dtype::U32,
        "fn keep(x: u32) -> bool { return x > 5u; }",
    )
    .expect("builds");
    let input = zeroed(&device, 4 * u64::from(n));
    let small = zeroed(&device, 4 * u64::from(n) - 4);
    let out = zeroed(&device, 4 * u64::from(n) + 1024);
    let temp = zeroed(&device, select.temp_storage_bytes(n));
    let message = |r: Result<(), wavekit::Error>| r.expect_err("an error").to_string();
    let mut encoder = encoder(&device);
    let m = message(select.record(
        &mut encoder,
        (&input).into(),
        (&small).into(),
        (&out).into(),
        n,
        (&temp).into(),
    ));
    assert!(
        m.contains("`output`") && m.contains("4000 bytes") && m.contains("3996"),
        "{m}"
    );
    let m = message(select.record(
        &mut encoder,
        (&input).into(),
        (&out).into(),
        (&out).into(),
        n,
        (&temp).into(),
    ));
    assert!(
        m.contains("`output`") && m.contains("`count`") && m.contains("overlap"),
        "{m}"
    );
    let m = message(select.record(
        &mut encoder,
        (&input).into(),
        (&out).into(),
        (&input).into(),
        n,
        (&temp).into(),
    ));
    assert!(m.contains("same buffer"), "{m}");
    let tiny = zeroed(&device, 4);
    let m = message(select.record(
        &mut encoder,
        (&input).into(),
        (&out).into(),
        Slice::new(&small, 0),
        n,
        (&tiny).into(),
    ));
    assert!(
        m.contains("`temp`") && m.contains(&select.temp_storage_bytes(n).to_string()),
        "{m}"
    );
    let _ = encoder.finish();
}
