//! `wavekit::device::Histogram` on lavapipe at subgroup sizes 4, 8 and 16
//! against a CPU reference: even bins of f32, u32 and i32 (bin widths that
//! divide the range and that do not, samples outside it), a caller's bin
//! function, more bins than workgroup memory holds, skewed samples (whole
//! subgroups in one bin), edge sizes, slices at non-zero offsets inside
//! larger buffers; the output is overwritten, and bad levels and a
//! malformed bin function are errors.

mod device_support;

use device_support::*;
use wavekit::Dtype;
use wavekit::device::{EvenLevels, Histogram, Slice};

/// Samples: uniform over `bound` (0: any bits), or, `skewed`, runs of 64
/// equal samples.
fn samples(n: usize, bound: u32, skewed: bool, seed: u64) -> Vec<u32> {
    let words = random(n, bound, seed);
    if !skewed {
        return words;
    }
    (0..n).map(|i| words[i / 64 * 64]).collect()
}

/// The CPU's histogram of `input` by `bin` (None: dropped).
fn reference(input: &[u32], bins: u32, bin: impl Fn(u32) -> Option<u32>) -> Vec<u32> {
    let mut counts = vec![0u32; bins as usize];
    for &x in input {
        if let Some(b) = bin(x).filter(|&b| b < bins) {
            counts[b as usize] += 1;
        }
    }
    counts
}

fn check(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    histogram: &Histogram,
    input: &[u32],
    want: &[u32],
    what: &str,
) {
    let align = alignment(device);
    let n = input.len();
    let bins = histogram.bins() as usize;
    let input_buffer = guarded(device, input, align, 64);
    // Stale counts that the call must overwrite.
    let output = guarded(device, &vec![12345; bins], 2 * align, 64);
    let mut encoder = encoder(device);
    histogram
        .record(
            &mut encoder,
            Slice::new(&input_buffer, align),
            Slice::new(&output, 2 * align),
            n as u32,
        )
        .expect("records");
    let read = submit_and_read(device, queue, encoder, &[&output]);
    let what = format!("{what}, n = {n}, {bins} bins");
    assert_same(&inside(&read[0], 2 * align, bins, &what), want, &what);
}

#[test]
fn histogram_cases() {
    if !is_child() {
        return;
    }
    let (device, queue) = open();
    let sizes = [0usize, 1, 255, 2049, 50_001];
    let even = [
        (
            256,
            EvenLevels::U32 {
                lower: 0,
                upper: 1024,
            },
            2000,
            "u32 dividing",
        ),
        (
            100,
            EvenLevels::U32 {
                lower: 7,
                upper: 1000,
            },
            1100,
            "u32 not dividing",
        ),
        (
            37,
            EvenLevels::U32 {
                lower: 1 << 20,
                upper: u32::MAX,
            },
            0,
            "u32 wide range",
        ),
        (
            64,
            EvenLevels::I32 {
                lower: -1000,
                upper: 1000,
            },
            0,
            "i32",
        ),
        (
            3000,
            EvenLevels::U32 {
                lower: 0,
                upper: 6000,
            },
            6500,
            "u32, global bins",
        ),
    ];
    for (bins, levels, bound, what) in even {
        let histogram = Histogram::even(&device, bins, levels).expect("builds");
        for (seed, &n) in sizes.iter().enumerate() {
            for skewed in [false, true] {
                let mut input = samples(n, bound, skewed, seed as u64);
                if let EvenLevels::I32 { .. } = levels {
                    // Signed samples around the range: -1500..1500.
                    input = input
                        .iter()
                        .map(|&w| ((w % 3000) as i32 - 1500) as u32)
                        .collect();
                }
                let want = reference(&input, bins, |x| even_bin(levels, bins, x));
                check(&device, &queue, &histogram, &input, &want, what);
            }
        }
    }
    let levels = EvenLevels::F32 {
        lower: -1.5,
        upper: 2.25,
    };
    let histogram = Histogram::even(&device, 50, levels).expect("builds");
    for (seed, &n) in sizes.iter().enumerate() {
        let input: Vec<u32> = random(n, 5000, seed as u64)
            .into_iter()
            .map(|w| (w as f32 / 1000.0 - 2.0).to_bits())
            .chain([f32::NAN.to_bits(), 2.25f32.to_bits(), (-1.5f32).to_bits()])
            .collect();
        let want = reference(&input, 50, |x| even_bin(levels, 50, x));
        check(&device, &queue, &histogram, &input, &want, "f32");
    }
    let by_fn = Histogram::with_bin_fn(
        &device,
        Dtype::U32,
        256,
        "fn bin(x: u32) -> u32 {\n    return wk_low_byte(x >> 3u);\n}\nfn wk_low_byte(x: u32) -> u32 { return x & 0x1ffu; }",
    )
    .expect("builds");
    for skewed in [false, true] {
        let input = samples(1 << 20, 0, skewed, 3);
        let want = reference(&input, 256, |x| Some((x >> 3) & 0x1ff));
        check(&device, &queue, &by_fn, &input, &want, "bin fn");
    }
}

#[test]
fn histogram_at_each_subgroup_size() {
    at_each_subgroup_size("histogram_cases");
}

#[test]
fn bad_histograms_are_errors() {
    let (device, _queue) = open();
    let message = |r: Result<Histogram, wavekit::Error>| r.err().expect("an error").to_string();
    let m = message(Histogram::even(
        &device,
        10,
        EvenLevels::U32 { lower: 5, upper: 5 },
    ));
    assert!(m.contains("lower must be below upper"), "{m}");
    let m = message(Histogram::even(
        &device,
        10,
        EvenLevels::F32 {
            lower: 0.0,
            upper: f32::INFINITY,
        },
    ));
    assert!(m.contains("finite"), "{m}");
    let m = message(Histogram::even(
        &device,
        0,
        EvenLevels::I32 { lower: 0, upper: 5 },
    ));
    assert!(m.contains("0 bins"), "{m}");
    let m = message(Histogram::with_bin_fn(
        &device,
        Dtype::F32,
        8,
        "fn bin(x: f32) -> u32 {\n    return u32(x) +;\n}",
    ));
    eprintln!("{m}");
    assert!(m.contains("Histogram `bin`:2:"), "{m}");
    let m = message(Histogram::with_bin_fn(
        &device,
        Dtype::F32,
        8,
        "fn bin(x: u32) -> u32 { return x; }",
    ));
    assert!(m.contains("fn bin(x: T) -> u32` (T = f32)"), "{m}");
    let histogram = Histogram::even(
        &device,
        300,
        EvenLevels::U32 {
            lower: 0,
            upper: 300,
        },
    )
    .expect("builds");
    let samples = zeroed(&device, 400);
    let small = zeroed(&device, 1196);
    let m = histogram
        .record(
            &mut encoder(&device),
            (&samples).into(),
            (&small).into(),
            100,
        )
        .expect_err("the histogram slice is too small")
        .to_string();
    assert!(m.contains("`histogram`") && m.contains("1200 bytes"), "{m}");
}
