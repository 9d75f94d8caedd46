//! The `wavekit::device` algorithms of issue 35's third batch on lavapipe
//! at subgroup sizes 4, 8 and 16 and on emulated subgroups against a CPU
//! reference, in one binary: `Histogram::range` and `MultiHistogram`
//! (CUB's `HistogramRange`, `MultiHistogramEven` / `MultiHistogramRange`:
//! levels with repeats, signed and f32 samples, more bins than workgroup
//! memory holds and more levels than it caches, 1 to 4 channels with
//! inactive ones), `MergeSort` / `Merge` and `TopK` (keys and pairs, both
//! ends, u32 / i32 / f32 with ties, -0.0, infinities and NaNs, one value
//! throughout, batched rows; its slower paths through shader parameters).
//! Edge sizes (0, 1, tile ± 1; 2^20 + 5 once, at the default subgroup
//! size), slices at non-zero offsets between guard words (stale counts
//! overwritten), and bad calls.

mod device_support;

use device_support::*;
use wavekit::Dtype;
use wavekit::device::debug::{parse_shader_params, with_shader_params};
use wavekit::device::{
    EvenLevels, Histogram, KeyType, Merge, MergeSort, MultiHistogram, Slice, TopK, TopKOrder,
    TopKOutput,
};

/// The big size each family runs once.
const BIG: usize = (1 << 20) + 5;

/// Sizes every configuration runs (pixels).
const SIZES: [usize; 5] = [0, 1, 2047, 2049, 20_003];

/// Samples of `dtype` as words: f32 in [-70, 70) in steps of 0.25 (both
/// zeros), i32 in [-300, 300), u32 below 600; runs of 64 equal samples
/// where `skewed`.
fn samples(dtype: Dtype, n: usize, skewed: bool, seed: u64) -> Vec<u32> {
    let raw = random(n, 600, seed);
    (0..n)
        .map(|i| {
            let w = if skewed { raw[i / 64 * 64] } else { raw[i] };
            match dtype {
                Dtype::F32 if w == 280 && i % 2 == 1 => (-0.0f32).to_bits(),
                Dtype::F32 => (w as f32 * 0.25 - 70.0).to_bits(),
                Dtype::I32 => (w as i32 - 300) as u32,
                _ => w,
            }
        })
        .collect()
}

/// Whether word `a` is below word `b` as `dtype`.
fn below(dtype: Dtype, a: u32, b: u32) -> bool {
    match dtype {
        Dtype::F32 => f32::from_bits(a) < f32::from_bits(b),
        Dtype::I32 => (a as i32) < (b as i32),
        _ => a < b,
    }
}

/// `bins + 1` non-decreasing levels of `dtype` (as words) over about the
/// samples' range, uneven, with repeats (empty bins) where `bins > 3`.
fn levels_of(dtype: Dtype, bins: u32, seed: u64) -> Vec<u32> {
    let mut steps = random(bins as usize + 1, 7, seed);
    if bins > 3 {
        steps[2] = 0;
    }
    let mut at = 10u32;
    steps
        .iter()
        .map(|&s| {
            at += s * 600 / (3 * bins + 1);
            let v = at.min(599);
            match dtype {
                Dtype::F32 => (v as f32 * 0.25 - 70.0 + 0.125).to_bits(),
                Dtype::I32 => (v as i32 - 300) as u32,
                _ => v,
            }
        })
        .collect()
}

/// CUB's range bin of `x`: `i` with `levels[i] <= x < levels[i + 1]`.
fn range_bin(dtype: Dtype, levels: &[u32], x: u32) -> Option<u32> {
    let last = levels.len() - 1;
    if below(dtype, x, levels[0]) || !below(dtype, x, levels[last]) {
        return None;
    }
    // The levels at most x, less one.
    let at_most = levels[1..last]
        .iter()
        .filter(|&&l| !below(dtype, x, l))
        .count();
    Some(at_most as u32)
}

/// The CPU's histograms of `channels`-sample pixels, channel `c` (of
/// `bins.len()` counted) by `bin(c, x)`, one after another.
fn multi_reference(
    input: &[u32],
    channels: usize,
    bins: &[u32],
    bin: impl Fn(usize, u32) -> Option<u32>,
) -> Vec<u32> {
    let base: Vec<usize> = bins
        .iter()
        .scan(0usize, |at, &b| {
            let first = *at;
            *at += b as usize;
            Some(first)
        })
        .collect();
    let mut counts = vec![0u32; bins.iter().sum::<u32>() as usize];
    for pixel in input.chunks(channels) {
        for c in 0..bins.len() {
            if let Some(b) = bin(c, pixel[c]).filter(|&b| b < bins[c]) {
                counts[base[c] + b as usize] += 1;
            }
        }
    }
    counts
}

/// A histogram call's buffers: samples, levels and stale counts at
/// aligned non-zero offsets between guard words.
struct HistogramCall {
    align: u64,
    samples: wgpu::Buffer,
    levels: wgpu::Buffer,
    output: wgpu::Buffer,
    bins: usize,
}

impl HistogramCall {
    fn new(device: &wgpu::Device, samples: &[u32], levels: &[u32], bins: usize) -> Self {
        let align = alignment(device);
        HistogramCall {
            align,
            samples: guarded(device, samples, align, 64),
            levels: guarded(device, levels, 3 * align, 64),
            output: guarded(device, &vec![12345; bins], 2 * align, 64),
            bins,
        }
    }

    fn samples(&self) -> Slice<'_> {
        Slice::new(&self.samples, self.align)
    }

    fn levels(&self) -> Slice<'_> {
        Slice::new(&self.levels, 3 * self.align)
    }

    fn output(&self) -> Slice<'_> {
        Slice::new(&self.output, 2 * self.align)
    }

    fn check(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: wgpu::CommandEncoder,
        want: &[u32],
        what: &str,
    ) {
        let read = submit_and_read(device, queue, encoder, &[&self.output]);
        assert_same(
            &inside(&read[0], 2 * self.align, self.bins, what),
            want,
            what,
        );
    }
}

fn check_range(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    histogram: &Histogram,
    dtype: Dtype,
    n: usize,
    skewed: bool,
) {
    let bins = histogram.bins();
    let input = samples(dtype, n, skewed, n as u64 + 11);
    let levels = levels_of(dtype, bins, u64::from(bins));
    let want = multi_reference(&input, 1, &[bins], |_, x| range_bin(dtype, &levels, x));
    let call = HistogramCall::new(device, &input, &levels, bins as usize);
    let mut encoder = encoder(device);
    histogram
        .record_range(
            &mut encoder,
            call.samples(),
            call.levels(),
            call.output(),
            n as u32,
        )
        .expect("records");
    let what = format!("Histogram::range {dtype} {bins} bins, n = {n}, skewed {skewed}");
    call.check(device, queue, encoder, &want, &what);
}

fn check_multi_range(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    histogram: &MultiHistogram,
    dtype: Dtype,
    pixels: usize,
) {
    let channels = histogram.channels() as usize;
    let bins = histogram.bins().to_vec();
    let input = samples(dtype, pixels * channels, false, pixels as u64 + 5);
    let per_channel: Vec<Vec<u32>> = bins
        .iter()
        .enumerate()
        .map(|(c, &b)| levels_of(dtype, b, c as u64 + 100))
        .collect();
    let levels = per_channel.concat();
    assert_eq!(levels.len() as u64, histogram.total_levels());
    let want = multi_reference(&input, channels, &bins, |c, x| {
        range_bin(dtype, &per_channel[c], x)
    });
    let call = HistogramCall::new(device, &input, &levels, want.len());
    let mut encoder = encoder(device);
    histogram
        .record_range(
            &mut encoder,
            call.samples(),
            call.levels(),
            call.output(),
            pixels as u32,
        )
        .expect("records");
    let what = format!(
        "MultiHistogram::range {dtype} {channels} channels, bins {bins:?}, {pixels} pixels"
    );
    call.check(device, queue, encoder, &want, &what);
}

fn check_multi_even(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    histogram: &MultiHistogram,
    levels: &[(u32, EvenLevels)],
    pixels: usize,
    skewed: bool,
) {
    let channels = histogram.channels() as usize;
    let dtype = levels[0].1.dtype();
    let bins: Vec<u32> = levels.iter().map(|l| l.0).collect();
    let input = samples(dtype, pixels * channels, skewed, pixels as u64 + 9);
    let want = multi_reference(&input, channels, &bins, |c, x| {
        even_bin(levels[c].1, levels[c].0, x)
    });
    let call = HistogramCall::new(device, &input, &[], want.len());
    let mut encoder = encoder(device);
    histogram
        .record(&mut encoder, call.samples(), call.output(), pixels as u32)
        .expect("records");
    let what = format!(
        "MultiHistogram::even {dtype} {channels} channels, bins {bins:?}, {pixels} pixels, skewed {skewed}"
    );
    call.check(device, queue, encoder, &want, &what);
}

/// Two channels of f32 and of i32, both counted.
/// Two channels' bins and even levels.
type TwoChannels = [(u32, EvenLevels); 2];

fn signed_levels() -> (TwoChannels, TwoChannels) {
    (
        [
            (
                33,
                EvenLevels::F32 {
                    lower: -50.0,
                    upper: 60.5,
                },
            ),
            (
                8,
                EvenLevels::F32 {
                    lower: -1.0,
                    upper: 1.0,
                },
            ),
        ],
        [
            (
                100,
                EvenLevels::I32 {
                    lower: -250,
                    upper: 250,
                },
            ),
            (
                3,
                EvenLevels::I32 {
                    lower: -7,
                    upper: 300,
                },
            ),
        ],
    )
}

fn histogram_cases(device: &wgpu::Device, queue: &wgpu::Queue, small: bool) {
    for (dtype, bins) in [(Dtype::F32, 37), (Dtype::I32, 5), (Dtype::U32, 1)] {
        let histogram = Histogram::range(device, dtype, bins).expect("builds");
        for &n in &SIZES {
            check_range(device, queue, &histogram, dtype, n, false);
        }
        check_range(device, queue, &histogram, dtype, 5000, true);
        if small {
            break;
        }
    }
    // More bins than workgroup memory counts, more levels than it holds.
    let wide = Histogram::range(device, Dtype::I32, 3000).expect("builds");
    check_range(device, queue, &wide, Dtype::I32, 20_003, false);
    let cached = Histogram::range(device, Dtype::U32, 900).expect("builds");
    check_range(device, queue, &cached, Dtype::U32, 20_003, true);

    let rgba = rgba_levels();
    let rgb = MultiHistogram::even(device, 4, &rgba).expect("builds");
    for &pixels in &SIZES {
        check_multi_even(device, queue, &rgb, &rgba, pixels, false);
    }
    check_multi_even(device, queue, &rgb, &rgba, 3001, true);
    let (floats, ints) = signed_levels();
    for levels in [&floats[..], &ints[..]] {
        let two = MultiHistogram::even(device, 2, levels).expect("builds");
        check_multi_even(device, queue, &two, levels, 4099, false);
        if small {
            break;
        }
    }
    let range = MultiHistogram::range(device, Dtype::F32, 3, &[11, 64]).expect("builds");
    for &pixels in &SIZES {
        check_multi_range(device, queue, &range, Dtype::F32, pixels);
    }
    if !small {
        let four =
            MultiHistogram::range(device, Dtype::I32, 4, &[2, 700, 1500, 9]).expect("builds");
        check_multi_range(device, queue, &four, Dtype::I32, 3333);
    }
}

/// A comparator: its WGSL and the CPU's `less_than` on words.
struct Order {
    dtype: Dtype,
    wgsl: Option<&'static str>,
    less: fn(u32, u32) -> bool,
    what: &'static str,
}

fn orders() -> [Order; 4] {
    [
        Order {
            dtype: Dtype::U32,
            wgsl: None,
            less: |a, b| a < b,
            what: "u32 ascending",
        },
        // Descending i32 by a helper, ties in the low 3 bits ignored.
        Order {
            dtype: Dtype::I32,
            wgsl: Some(
                "fn less_than(a: i32, b: i32) -> bool {\n    return coarse(a) > coarse(b);\n}\n\
                 fn coarse(x: i32) -> i32 { return x >> 3u; }",
            ),
            less: |a, b| (a as i32 >> 3) > (b as i32 >> 3),
            what: "i32 descending by x >> 3",
        },
        // f32 by magnitude: -x and x (and both zeros) tie.
        Order {
            dtype: Dtype::F32,
            wgsl: Some("fn less_than(a: f32, b: f32) -> bool {\n    return abs(a) < abs(b);\n}"),
            less: |a, b| f32::from_bits(a).abs() < f32::from_bits(b).abs(),
            what: "f32 by magnitude",
        },
        Order {
            dtype: Dtype::F32,
            wgsl: None,
            less: |a, b| f32::from_bits(a) < f32::from_bits(b),
            what: "f32 ascending",
        },
    ]
}

/// The CPU's stable sort of (key, value) pairs by `less`.
fn stable_sort(keys: &[u32], values: &[u32], less: fn(u32, u32) -> bool) -> (Vec<u32>, Vec<u32>) {
    let mut pairs: Vec<(u32, u32)> = keys.iter().copied().zip(values.iter().copied()).collect();
    pairs.sort_by(|x, y| {
        if less(x.0, y.0) {
            std::cmp::Ordering::Less
        } else if less(y.0, x.0) {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    });
    pairs.into_iter().unzip()
}

/// Keys of an order's type with many ties.
fn sort_keys(dtype: Dtype, n: usize, seed: u64) -> Vec<u32> {
    samples(dtype, n, false, seed)
}

fn check_merge_sort(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    sort: &MergeSort,
    order: &Order,
    n: usize,
    in_place: bool,
) {
    let align = alignment(device);
    let keys = sort_keys(order.dtype, n, n as u64 + 31);
    let values: Vec<u32> = (0..n as u32).map(|i| i ^ 0x5a5a).collect();
    let (want_keys, want_values) = stable_sort(&keys, &values, order.less);
    let keys_in = guarded(device, &keys, align, 64);
    let values_in = guarded(device, &values, align, 64);
    let keys_out = guarded(device, &vec![GUARD; n], 2 * align, 64);
    let values_out = guarded(device, &vec![GUARD; n], 2 * align, 64);
    let temp = zeroed(device, sort.temp_storage_bytes(n as u32) + align);
    let mut encoder = encoder(device);
    let (k_out, v_out, out_at) = if in_place {
        (&keys_in, &values_in, align)
    } else {
        (&keys_out, &values_out, 2 * align)
    };
    let ks = [Slice::new(&keys_in, align), Slice::new(k_out, out_at)];
    let vs = [Slice::new(&values_in, align), Slice::new(v_out, out_at)];
    let t = Slice::new(&temp, align);
    if sort.has_values() {
        sort.record_pairs(&mut encoder, ks, vs, n as u32, t)
    } else {
        sort.record_keys(&mut encoder, ks[0], ks[1], n as u32, t)
    }
    .expect("records");
    let read = submit_and_read(device, queue, encoder, &[k_out, v_out]);
    let what = format!(
        "MergeSort {} pairs {} n = {n} in place {in_place}",
        order.what,
        sort.has_values()
    );
    let got = inside(&read[0], out_at, n, &what);
    if sort.has_values() {
        assert_same(&got, &want_keys, &format!("{what}: keys"));
        let got = inside(&read[1], out_at, n, &what);
        assert_same(&got, &want_values, &format!("{what}: values (stable)"));
    } else {
        // Keys alone: equal under the order where they tie, so compare the
        // keys' order classes and the multiset.
        let mut a = got.clone();
        let mut b = want_keys.clone();
        a.sort();
        b.sort();
        assert_same(&a, &b, &format!("{what}: the keys"));
        for i in 1..n {
            assert!(
                !(order.less)(got[i], got[i - 1]),
                "{what}: out of order at {i}"
            );
        }
        // Stability shows where ties differ in bits: the stable result.
        assert_same(&got, &want_keys, &format!("{what}: stable keys"));
    }
}

/// Two sorted inputs of `order` (ties within and across them) and values
/// telling their places apart.
fn check_merge(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    merge: &Merge,
    order: &Order,
    n_a: usize,
    n_b: usize,
) {
    let align = alignment(device);
    let sorted = |n: usize, seed: u64, tag: u32| {
        let keys = sort_keys(order.dtype, n, seed);
        let values: Vec<u32> = (0..n as u32).map(|i| i | tag).collect();
        stable_sort(&keys, &values, order.less)
    };
    let (ka, va) = sorted(n_a, n_a as u64 + 1, 0);
    let (kb, vb) = sorted(n_b, n_b as u64 + 2, 1 << 31);
    let all_k = [ka.clone(), kb.clone()].concat();
    let all_v = [va.clone(), vb.clone()].concat();
    let (want_k, want_v) = stable_sort(&all_k, &all_v, order.less);
    let total = n_a + n_b;
    // Both inputs in one buffer, the outputs in another.
    let mut inputs = ka.clone();
    let b_at = (n_a as u64 * 4).next_multiple_of(align) / 4;
    inputs.resize(b_at as usize, GUARD);
    inputs.extend_from_slice(&kb);
    let mut input_values = va.clone();
    input_values.resize(b_at as usize, GUARD);
    input_values.extend_from_slice(&vb);
    let keys_in = guarded(device, &inputs, align, 64);
    let values_in = guarded(device, &input_values, align, 64);
    let keys_out = guarded(device, &vec![GUARD; total], 2 * align, 64);
    let values_out = guarded(device, &vec![GUARD; total], 2 * align, 64);
    let a = Slice::new(&keys_in, align);
    let b = Slice::new(&keys_in, align + 4 * b_at);
    let o = Slice::new(&keys_out, 2 * align);
    let mut encoder = encoder(device);
    if merge.has_values() {
        merge.record_pairs(
            &mut encoder,
            [a, b, o],
            [
                Slice::new(&values_in, align),
                Slice::new(&values_in, align + 4 * b_at),
                Slice::new(&values_out, 2 * align),
            ],
            (n_a as u32, n_b as u32),
        )
    } else {
        merge.record_keys(&mut encoder, (a, n_a as u32), (b, n_b as u32), o)
    }
    .expect("records");
    let read = submit_and_read(device, queue, encoder, &[&keys_out, &values_out]);
    let what = format!(
        "Merge {} pairs {} n_a = {n_a} n_b = {n_b}",
        order.what,
        merge.has_values()
    );
    assert_same(&inside(&read[0], 2 * align, total, &what), &want_k, &what);
    if merge.has_values() {
        let got = inside(&read[1], 2 * align, total, &what);
        assert_same(&got, &want_v, &format!("{what}: values (stable)"));
    }
}

/// Sizes each sort runs: edges of its `tile` (one tile, the chunk sort's
/// partial last tile, one and two merge passes).
fn sort_sizes(tile: usize) -> [usize; 7] {
    [0, 1, tile - 1, tile, tile + 1, 2 * tile + 1, 3 * tile - 5]
}

fn merge_sort_cases(device: &wgpu::Device, queue: &wgpu::Queue, small: bool) {
    for (i, order) in orders().iter().enumerate() {
        let pairs = MergeSort::pairs(device, order.dtype, order.wgsl).expect("builds");
        let keys = MergeSort::keys(device, order.dtype, order.wgsl).expect("builds");
        assert_eq!(pairs.tile(), keys.tile());
        for n in sort_sizes(pairs.tile() as usize) {
            check_merge_sort(device, queue, &pairs, order, n, false);
            if i % 2 == 0 {
                check_merge_sort(device, queue, &keys, order, n, n % 2 == 1);
            }
        }
        check_merge_sort(device, queue, &pairs, order, 5000, true);
        let merge = Merge::new(device, order.dtype, i != 1, order.wgsl).expect("builds");
        for (n_a, n_b) in [(0, 0), (0, 5), (7, 0), (1, 1), (1000, 3001), (4099, 13)] {
            check_merge(device, queue, &merge, order, n_a, n_b);
        }
        if small {
            break;
        }
    }
}

/// The radix sorts' ordered bits of a key.
fn ordered_bits(key: KeyType, x: u32) -> u32 {
    match key {
        KeyType::I32 => x ^ 0x8000_0000,
        KeyType::F32 if x >> 31 == 1 => !x,
        KeyType::F32 => x ^ 0x8000_0000,
        _ => x,
    }
}

/// The CPU's top-k: the indices of the k least (or greatest) keys by
/// (ordered bits, index), sorted.
fn top_k_reference(key: KeyType, order: TopKOrder, keys: &[u32], k: usize) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..keys.len()).collect();
    idx.sort_by_key(|&i| {
        let s = ordered_bits(key, keys[i]);
        (if order == TopKOrder::Largest { !s } else { s }, i)
    });
    idx.truncate(k);
    idx
}

/// How the keys of a top-k case repeat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spread {
    /// Mostly distinct.
    Distinct,
    /// 40 values; f32: -0.0 beside +0.0, both infinities and NaNs of both
    /// signs among them.
    Tied,
    /// One value.
    Equal,
}

/// Keys of `key` spread as `spread`.
fn top_k_keys(key: KeyType, n: usize, spread: Spread, seed: u64) -> Vec<u32> {
    let raw = random(n, if spread == Spread::Tied { 40 } else { 0 }, seed);
    raw.iter()
        .enumerate()
        .map(|(i, &w)| match (key, spread) {
            (KeyType::F32, Spread::Equal) => (-1.5f32).to_bits(),
            (KeyType::I32, Spread::Equal) => -7i32 as u32,
            (_, Spread::Equal) => 7,
            (KeyType::F32, Spread::Tied) => match w {
                20 if i % 2 == 0 => (-0.0f32).to_bits(),
                21 => f32::NAN.to_bits(),
                22 => (-f32::NAN).to_bits(),
                23 => f32::INFINITY.to_bits(),
                24 => f32::NEG_INFINITY.to_bits(),
                _ => (w as f32 - 20.0).to_bits(),
            },
            (KeyType::F32, Spread::Distinct) => ((w >> 8) as f32 / 1024.0 - 8192.0).to_bits(),
            (KeyType::I32, Spread::Tied) => (w as i32 - 20) as u32,
            _ => w,
        })
        .collect()
}

/// Each row's k (key, value) pairs (values 0 for keys alone) in one order,
/// by their bits: an unordered top-k's output and the CPU's then compare
/// as the multisets they are.
fn in_one_order(keys: &mut [u32], values: &mut [u32], k: usize) {
    for (ks, vs) in keys.chunks_mut(k.max(1)).zip(values.chunks_mut(k.max(1))) {
        let mut pairs: Vec<(u32, u32)> = ks.iter().copied().zip(vs.iter().copied()).collect();
        pairs.sort_unstable();
        for (j, (key, value)) in pairs.into_iter().enumerate() {
            ks[j] = key;
            vs[j] = value;
        }
    }
}

/// The output of a call (keys and values, the values ignored for keys
/// alone) against the CPU's, sorted, or in one order where the top-k is
/// unordered.
fn assert_top_k(
    top: &TopK,
    got: (Vec<u32>, Vec<u32>),
    want: (Vec<u32>, Vec<u32>),
    k: usize,
    what: &str,
) {
    let (mut got_keys, mut got_values) = got;
    let (mut want_keys, mut want_values) = want;
    if !top.has_values() {
        got_values = vec![0; got_keys.len()];
        want_values = vec![0; want_keys.len()];
    }
    if top.output() == TopKOutput::Unordered {
        in_one_order(&mut got_keys, &mut got_values, k);
        in_one_order(&mut want_keys, &mut want_values, k);
    }
    assert_same(&got_keys, &want_keys, what);
    if top.has_values() {
        assert_same(&got_values, &want_values, &format!("{what}: values"));
    }
}

/// One call's top-k against the CPU's; returns the call's temp words (the
/// row's state first: `shaders/top_k.wgsl` says what they hold).
fn check_top_k(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    top: &TopK,
    n: usize,
    k: usize,
    spread: Spread,
) -> Vec<u32> {
    let align = alignment(device);
    let keys = top_k_keys(top.key(), n, spread, (n + k) as u64);
    let values: Vec<u32> = (0..n as u32).map(|i| i.wrapping_mul(7) ^ 3).collect();
    let want = top_k_reference(top.key(), top.order(), &keys, k);
    let want_keys: Vec<u32> = want.iter().map(|&i| keys[i]).collect();
    let want_values: Vec<u32> = want.iter().map(|&i| values[i]).collect();
    let keys_in = guarded(device, &keys, align, 64);
    let values_in = guarded(device, &values, align, 64);
    let keys_out = guarded(device, &vec![GUARD; k], 2 * align, 64);
    let values_out = guarded(device, &vec![GUARD; k], 2 * align, 64);
    // Stale temp: the call clears its own state.
    let temp_words = (top.temp_storage_bytes(n as u32, k as u32) / 4) as usize;
    let temp = guarded(device, &vec![7; temp_words], align, 64);
    let ks = [
        Slice::new(&keys_in, align),
        Slice::new(&keys_out, 2 * align),
    ];
    let vs = [
        Slice::new(&values_in, align),
        Slice::new(&values_out, 2 * align),
    ];
    let t = Slice::new(&temp, align);
    let mut encoder = encoder(device);
    if top.has_values() {
        top.record_pairs(&mut encoder, ks, vs, (n as u32, k as u32), t)
    } else {
        top.record_keys(&mut encoder, ks, (n as u32, k as u32), t)
    }
    .expect("records");
    let read = submit_and_read(device, queue, encoder, &[&keys_out, &values_out, &temp]);
    let what = format!(
        "TopK {:?} {:?} {:?} pairs {} n = {n} k = {k} {spread:?}",
        top.key(),
        top.order(),
        top.output(),
        top.has_values()
    );
    assert_top_k(
        top,
        (
            inside(&read[0], 2 * align, k, &what),
            inside(&read[1], 2 * align, k, &what),
        ),
        (want_keys, want_values),
        k,
        &what,
    );
    inside(&read[2], align, temp_words, &what)
}

/// The batched form: `rows` rows of `len` keys, each row's `k` against
/// the CPU's top-k of that row.
fn check_top_k_rows(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    top: &TopK,
    (rows, len, k): (usize, usize, usize),
    spread: Spread,
) {
    let align = alignment(device);
    let n = rows * len;
    let keys = top_k_keys(top.key(), n, spread, (n + k + 1) as u64);
    let values: Vec<u32> = (0..n as u32).map(|i| i ^ 0x1234).collect();
    let mut want_keys = Vec::new();
    let mut want_values = Vec::new();
    for r in 0..rows {
        let row = &keys[r * len..(r + 1) * len];
        for i in top_k_reference(top.key(), top.order(), row, k) {
            want_keys.push(row[i]);
            want_values.push(values[r * len + i]);
        }
    }
    let keys_in = guarded(device, &keys, align, 64);
    let values_in = guarded(device, &values, align, 64);
    let keys_out = guarded(device, &vec![GUARD; rows * k], 2 * align, 64);
    let values_out = guarded(device, &vec![GUARD; rows * k], 2 * align, 64);
    let temp = zeroed(
        device,
        top.temp_storage_bytes_batched(rows as u32, len as u32, k as u32),
    );
    let ks = [
        Slice::new(&keys_in, align),
        Slice::new(&keys_out, 2 * align),
    ];
    let vs = [
        Slice::new(&values_in, align),
        Slice::new(&values_out, 2 * align),
    ];
    let shape = (rows as u32, len as u32, k as u32);
    let mut encoder = encoder(device);
    if top.has_values() {
        top.record_batched_pairs(&mut encoder, ks, vs, shape, (&temp).into())
    } else {
        top.record_batched_keys(&mut encoder, ks, shape, (&temp).into())
    }
    .expect("records");
    let read = submit_and_read(device, queue, encoder, &[&keys_out, &values_out]);
    let what = format!(
        "TopK batched {:?} {:?} {:?} pairs {} {rows} rows of {len}, k = {k}, {spread:?}",
        top.key(),
        top.order(),
        top.output(),
        top.has_values()
    );
    assert_top_k(
        top,
        (
            inside(&read[0], 2 * align, rows * k, &what),
            inside(&read[1], 2 * align, rows * k, &what),
        ),
        (want_keys, want_values),
        k,
        &what,
    );
}

/// TopK's cases: every configuration at lavapipe's default vector width
/// (8 lanes), with the big size for the first; one at each other width and
/// on emulated subgroups (`small`). TopK uses no subgroup operation, and
/// each build costs lavapipe most of a second of compiling (its finish kernel
/// holds the last step); the other widths still run it on other lanes.
fn top_k_cases(device: &wgpu::Device, queue: &wgpu::Queue, small: bool) {
    let configs = [
        (KeyType::F32, TopKOrder::Largest, true, TopKOutput::Sorted),
        (KeyType::I32, TopKOrder::Smallest, true, TopKOutput::Sorted),
        (KeyType::U32, TopKOrder::Largest, false, TopKOutput::Sorted),
        (KeyType::F32, TopKOrder::Smallest, false, TopKOutput::Sorted),
        (
            KeyType::F32,
            TopKOrder::Largest,
            true,
            TopKOutput::Unordered,
        ),
        (
            KeyType::I32,
            TopKOrder::Smallest,
            false,
            TopKOutput::Unordered,
        ),
    ];
    let width = std::env::var("LP_NATIVE_VECTOR_WIDTH").unwrap_or_default();
    let configs: &[_] = match width.as_str() {
        _ if small => &configs[..1],
        "128" => &configs[1..2],
        "512" => &configs[3..],
        _ => &configs,
    };
    for (c, &(key, order, pairs, output)) in configs.iter().enumerate() {
        let top = TopK::with_output(device, key, order, pairs, output).expect("builds");
        if width == "256" && (c == 0 || c == 4) {
            check_top_k(device, queue, &top, BIG, 1000, Spread::Distinct);
            check_top_k(device, queue, &top, BIG, 1024, Spread::Tied);
            check_top_k(device, queue, &top, BIG, 64, Spread::Equal);
        }
        for (n, k) in [
            (0, 0),
            (1, 1),
            (1, 0),
            (2047, 1),
            (2049, 100),
            (20_003, 1024),
            (777, 777),
        ] {
            for spread in [Spread::Distinct, Spread::Tied] {
                check_top_k(device, queue, &top, n, k, spread);
            }
        }
        check_top_k(device, queue, &top, 20_003, 1000, Spread::Equal);
        for shape in [(3, 1000, 100), (37, 50, 50), (700, 17, 5), (2, 5000, 1024)] {
            if !small && shape.0 == 700 && !pairs {
                continue;
            }
            let spread = match shape.1 {
                17 => Spread::Tied,
                5000 => Spread::Equal,
                _ => Spread::Distinct,
            };
            check_top_k_rows(device, queue, &top, shape, spread);
        }
    }
}

/// Where pass_a left its candidate count in a single row's temp words
/// (`COUNT_A` of `shaders/top_k.wgsl`).
const COUNT_A: usize = 2;

/// TopK's slower paths, which shader parameters bring on at small sizes,
/// each checked taken (the candidate count in the temp), with the relay
/// (n = 20,003: its expected candidates are over RELAY_MIN) and without (n
/// = 9001): T too tight (fewer than k keys under it: the relay takes them
/// all, the last workgroup reads the keys itself), and the candidates
/// overflowing their buffer (the relay or the last workgroup reads the keys
/// again). Many equal keys, ties at the k-th, tiles of 3 keys a thread
/// (keys past a tile's end). (The relay where its buffers hold: the big
/// size's.)
#[test]
fn top_k_fallbacks() {
    let (device, queue) = open();
    // T from the best sample: about n / 4096 keys under it.
    let too_tight = |_: usize, k: usize, count: u32| (count as usize) < k;
    // CAP_PERCENT = 1 keeps at most max(k, n / 100 + 256) candidates;
    // MIN_RANK = 1024 aims at n / 4.
    let overflowing = |n: usize, k: usize, count: u32| count as usize > k.max(n / 100 + 256);
    type Taken = fn(usize, usize, u32) -> bool;
    let plans: [(&str, KeyType, TopKOrder, bool, Taken); 2] = [
        (
            "RANK_SCALE=0u,MIN_RANK=1u,RELAY_MIN=4u",
            KeyType::F32,
            TopKOrder::Largest,
            true,
            too_tight,
        ),
        (
            "CAP_PERCENT=1u,MIN_RANK=1024u,RELAY_MIN=4000u,ITEMS=3u",
            KeyType::I32,
            TopKOrder::Smallest,
            false,
            overflowing,
        ),
    ];
    let outputs = [TopKOutput::Sorted, TopKOutput::Unordered];
    for ((params, key, order, pairs, taken), output) in
        plans.into_iter().flat_map(|p| outputs.map(|o| (p, o)))
    {
        let top = with_shader_params(parse_shader_params(params).expect("parses"), || {
            TopK::with_output(&device, key, order, pairs, output).expect("builds")
        });
        for (n, k, spread) in [
            (20_003, 1024, Spread::Tied),
            (20_003, 100, Spread::Distinct),
            (9001, 500, Spread::Equal),
            (9001, 7, Spread::Tied),
        ] {
            let temp = check_top_k(&device, &queue, &top, n, k, spread);
            assert!(
                taken(n, k, temp[COUNT_A]),
                "{params}: n = {n}, k = {k}, {spread:?}: {} candidates do not take the path",
                temp[COUNT_A]
            );
        }
        // Rows with the relay and without.
        check_top_k_rows(&device, &queue, &top, (3, 20_003, 100), Spread::Distinct);
        check_top_k_rows(&device, &queue, &top, (5, 6000, 100), Spread::Tied);
    }
}

/// Where pass_a and the relay count their workgroups in a single row's
/// temp words (`ARRIVE_A`, `ARRIVE_R` of `shaders/top_k.wgsl`).
const ARRIVE_A: usize = 0;
const ARRIVE_R: usize = 1;

/// TopK with fewer workgroups than tiles (GROUPS = 2; the default grid
/// gives the other tests' sizes a workgroup a tile): each workgroup strides
/// over several tiles, its stage carried from tile to tile, flushed when
/// half full and overflowing (equal keys: whole tiles of candidates), in
/// pass_a and in the relay (RELAY_MIN = 64 relays these rows); checked
/// taken (the workgroups each pass counted in the temp).
#[test]
fn top_k_grid_stride() {
    let (device, queue) = open();
    let params = "GROUPS=2u,RELAY_MIN=64u";
    let top = with_shader_params(parse_shader_params(params).expect("parses"), || {
        TopK::new(&device, KeyType::F32, TopKOrder::Largest, true).expect("builds")
    });
    // Each with at least two tiles of candidates (about 4000) for the
    // relay, and 10 or 98 tiles of keys.
    for (n, k, spread) in [
        (200_003, 1024, Spread::Tied),
        (200_003, 1000, Spread::Distinct),
        (20_003, 1000, Spread::Equal),
    ] {
        let temp = check_top_k(&device, &queue, &top, n, k, spread);
        assert_eq!(
            [temp[ARRIVE_A], temp[ARRIVE_R]],
            [2, 2],
            "{params}: n = {n}, k = {k}, {spread:?}: the workgroups of pass_a and the relay"
        );
    }
    check_top_k_rows(&device, &queue, &top, (3, 20_003, 1000), Spread::Tied);
}

/// TopK's tuning parameters out of their ranges.
#[test]
fn bad_top_k_params_are_errors() {
    let (device, _queue) = open();
    for (params, answer) in [
        ("ITEMS=0u", "ITEMS = 0 keys per thread"),
        ("RANK_SCALE=17u", "RANK_SCALE = 17 times k"),
        ("MIN_RANK=4097u", "MIN_RANK = 4097 samples"),
        ("CAP_PERCENT=0u", "CAP_PERCENT = 0 percent"),
        ("GROUPS=0u", "GROUPS = 0 workgroups"),
        ("GROUPS=65536u", "GROUPS = 65536 workgroups"),
        ("PASS_STAGE=1u", "PASS_STAGE = 1 candidates"),
        ("PASS_STAGE=1377u", "PASS_STAGE = 1377 candidates"),
    ] {
        let built = with_shader_params(parse_shader_params(params).expect("parses"), || {
            TopK::new(&device, KeyType::U32, TopKOrder::Largest, false)
        });
        assert_refused(
            built,
            &[
                answer,
                "they take 1 to 16 and 0 to 16 and 1 to 4096 and 1 to 10000 and 1 to 4294967295 and 1 to 65535 and 2 to 1376",
            ],
        );
    }
}

#[test]
fn merge_topk_cases() {
    if !is_child() {
        return;
    }
    let (device, queue) = open();
    histogram_cases(&device, &queue, false);
    merge_sort_cases(&device, &queue, false);
    top_k_cases(&device, &queue, false);
}

#[test]
fn merge_topk_at_each_subgroup_size() {
    at_each_subgroup_size("merge_topk_cases");
}

/// The big size once, at lavapipe's default subgroup size (TopK's in
/// `top_k_cases` at that width).
#[test]
fn big_sizes_once() {
    let (device, queue) = open();
    let histogram = Histogram::range(&device, Dtype::F32, 100).expect("builds");
    check_range(&device, &queue, &histogram, Dtype::F32, BIG, false);
    let rgba = rgba_levels();
    let rgb = MultiHistogram::even(&device, 4, &rgba).expect("builds");
    check_multi_even(&device, &queue, &rgb, &rgba, BIG / 4, false);
    let [_, descending, ..] = orders();
    let sort = MergeSort::pairs(&device, descending.dtype, descending.wgsl).expect("builds");
    check_merge_sort(&device, &queue, &sort, &descending, BIG, false);
    let merge = Merge::new(&device, Dtype::I32, true, descending.wgsl).expect("builds");
    check_merge(&device, &queue, &merge, &descending, BIG / 3, BIG - BIG / 3);
    // TopK's big size: in `top_k_cases` at the default width, on a TopK
    // built there anyway.
}

/// Merge sorts and merges in tile shapes other than the default
/// (`WAVEKIT_SHADER_PARAMS`' `BLOCK` and `ITEMS`): small tiles (many merge
/// passes at small sizes), an even ITEMS (the padded tile), one thread,
/// the native back ends' striped moves (`LOADS_FIRST=false`: each item
/// stored as it is loaded), and whole tiles moved untested as on GPUs
/// (`FULL_TILES=true`; lavapipe's default is off).
#[test]
fn merge_sort_shapes() {
    let (device, queue) = open();
    let orders = orders();
    // (parameters, the tile they make, the chunk sort_chunk sorts, the
    // order: both with ties).
    for (params, tile, chunk, i) in [
        ("BLOCK=32u,ITEMS=3u", 96, 96, 1),
        ("BLOCK=64u,ITEMS=4u,SPLIT_BLOCK=64u", 256, 256, 2),
        ("BLOCK=1u,ITEMS=5u", 5, 5, 1),
        (
            "BLOCK=128u,ITEMS=17u,LOADS_FIRST=false,FULL_TILES=true",
            2176,
            2176,
            2,
        ),
        ("BLOCK=256u,ITEMS=15u", 3840, 3840, 1),
        ("BLOCK=64u,ITEMS=5u,FULL_TILES=true", 320, 320, 2),
        // sort_chunk apart, with more threads than the merges.
        ("BLOCK=32u,ITEMS=3u,SORT_BLOCK=128u", 96, 384, 2),
        ("BLOCK=1u,ITEMS=5u,SORT_BLOCK=4u,FULL_TILES=true", 5, 20, 1),
    ] {
        let params = parse_shader_params(params).expect("parses");
        let order = &orders[i];
        let (pairs, keys, merge) = with_shader_params(params, || {
            (
                MergeSort::pairs(&device, order.dtype, order.wgsl).expect("builds"),
                MergeSort::keys(&device, order.dtype, order.wgsl).expect("builds"),
                Merge::new(&device, order.dtype, i == 1, order.wgsl).expect("builds"),
            )
        });
        assert_eq!((pairs.tile(), merge.tile()), (tile, tile));
        assert_eq!((pairs.chunk(), keys.chunk()), (chunk, chunk));
        let (tile, chunk) = (tile as usize, chunk as usize);
        for n in [0, 1, tile - 1, tile + 1, chunk - 1, chunk + 1, 777, 3001] {
            check_merge_sort(&device, &queue, &pairs, order, n, n % 2 == 1);
            check_merge_sort(&device, &queue, &keys, order, n, false);
        }
        for (n_a, n_b) in [(0, 5), (1, 1), (300, 701), (2049, 13)] {
            check_merge(&device, &queue, &merge, order, n_a, n_b);
        }
    }
}

/// Each family once on emulated subgroups.
#[test]
fn merge_topk_on_emulated_subgroups() {
    let (device, queue) = open_without_subgroups();
    histogram_cases(&device, &queue, true);
    merge_sort_cases(&device, &queue, true);
    top_k_cases(&device, &queue, true);
}

#[test]
fn bad_histogram_builds_are_errors() {
    let (device, _queue) = open();
    // (channels, bins of each counted channel, what the refusal says).
    let range_builds: [(u32, &[u32], &[&str]); 3] = [
        (5, &[4], &["5 channels with 1 counted", "1 to 4"]),
        (2, &[4, 4, 4], &["2 channels with 3 counted"]),
        (2, &[4, 0], &["bins [4, 0]"]),
    ];
    for (channels, bins, needles) in range_builds {
        assert_refused(
            MultiHistogram::range(&device, Dtype::U32, channels, bins),
            needles,
        );
    }
    assert_refused(
        MultiHistogram::even(&device, 2, &[]),
        &["no channel counted"],
    );
    assert_refused(
        MultiHistogram::even(
            &device,
            2,
            &[
                (4, EvenLevels::U32 { lower: 0, upper: 8 }),
                (
                    4,
                    EvenLevels::F32 {
                        lower: 0.0,
                        upper: 1.0,
                    },
                ),
            ],
        ),
        &["channel 1's levels", "sample type u32"],
    );
    assert_refused(
        Histogram::range(&device, Dtype::U64, 4),
        &["takes u32, i32, f32 elements, not u64"],
    );
    assert_refused(Histogram::range(&device, Dtype::U32, 0), &["0 bins"]);
}

#[test]
fn bad_histogram_calls_are_errors() {
    let (device, _queue) = open();
    let range = Histogram::range(&device, Dtype::U32, 10).expect("builds");
    let samples = zeroed(&device, 400);
    let levels = zeroed(&device, 44);
    let output = zeroed(&device, 40);
    let mut encoder = encoder(&device);
    assert_refused(
        range.record(&mut encoder, (&samples).into(), (&output).into(), 100),
        &["built by levels", "record_range", "11 levels"],
    );
    let short = zeroed(&device, 40);
    let even = Histogram::even(
        &device,
        10,
        EvenLevels::U32 {
            lower: 0,
            upper: 10,
        },
    )
    .expect("builds");
    // (histogram, levels, histogram buffer, n, what the refusal says); the
    // samples are always `samples`.
    let range_calls: [(&Histogram, Slice, Slice, u32, &[&str]); 4] = [
        (
            &range,
            Slice::new(&levels, 0),
            (&output).into(),
            101,
            &["`samples`", "404 bytes", "400 bytes"],
        ),
        (
            &range,
            (&short).into(),
            (&output).into(),
            100,
            &["`levels`", "44 bytes"],
        ),
        (
            &range,
            (&output).into(),
            (&output).into(),
            100,
            &["`levels` and `histogram` are the same buffer"],
        ),
        (
            &even,
            (&levels).into(),
            (&output).into(),
            100,
            &["call record (no levels)"],
        ),
    ];
    for (histogram, levels, output, n, needles) in range_calls {
        assert_refused(
            histogram.record_range(&mut encoder, (&samples).into(), levels, output, n),
            needles,
        );
    }
    let rgba = rgba_levels();
    let rgb = MultiHistogram::even(&device, 4, &rgba).expect("builds");
    assert_refused(
        rgb.record(&mut encoder, (&samples).into(), (&output).into(), 25),
        &["`histogram`", "1292 bytes"],
    );
    assert_refused(
        rgb.record(&mut encoder, (&samples).into(), (&output).into(), 26),
        &["`samples`", "416 bytes"],
    );
    assert_refused(
        rgb.record_range(
            &mut encoder,
            (&samples).into(),
            (&levels).into(),
            (&output).into(),
            25,
        ),
        &["call record (no levels)"],
    );
}

#[test]
fn malformed_comparators_are_errors_at_their_line() {
    let (device, _queue) = open();
    assert_refused(
        MergeSort::keys(
            &device,
            Dtype::U32,
            Some("fn less_than(a: u32, b: u32) -> bool {\n    return a < ;\n}"),
        ),
        &["MergeSort `less_than`:2:"],
    );
    assert_refused(
        MergeSort::keys(
            &device,
            Dtype::F32,
            Some("fn less_than(a: u32, b: u32) -> bool { return a < b; }"),
        ),
        &["fn less_than(a: T, b: T) -> bool", "T = f32"],
    );
    assert_refused(
        Merge::new(
            &device,
            Dtype::U32,
            false,
            Some("fn before(a: u32, b: u32) -> bool { return a < b; }"),
        ),
        &["Merge: the text must declare `fn less_than"],
    );
    assert_refused(
        MergeSort::keys(&device, Dtype::U64, None),
        &["takes u32, i32, f32 elements, not u64"],
    );
}

#[test]
fn bad_merge_sort_shapes_are_errors() {
    let (device, _queue) = open();
    for (params, needles) in [
        (
            "BLOCK=48u",
            &["BLOCK = 48", "powers of two up to 1024"] as &[&str],
        ),
        ("ITEMS=0u", &["ITEMS = 0", "1 to 32"]),
        ("ITEMS=33u", &["ITEMS = 33", "1 to 32"]),
        ("SPLIT_BLOCK=100u", &["SPLIT_BLOCK = 100"]),
        ("ITEMS=true", &["`ITEMS` is `true`, not a u32"]),
        (
            "BLOCK=1024u,ITEMS=32u",
            &[
                "270352 bytes of workgroup memory",
                "the device gives at most",
            ],
        ),
        (
            "BLOCK=64u,ITEMS=9u,SORT_BLOCK=2048u",
            &["SORT_BLOCK = 2048", "powers of two up to 1024"],
        ),
        (
            "BLOCK=128u,SORT_BLOCK=64u",
            &["BLOCK = 128, SORT_BLOCK = 64", "SORT_BLOCK at least BLOCK"],
        ),
        (
            "BLOCK=64u,ITEMS=32u,SORT_BLOCK=1024u",
            &["270352 bytes of workgroup memory"],
        ),
    ] {
        let params = parse_shader_params(params).expect("parses");
        let built = with_shader_params(params.clone(), || {
            MergeSort::pairs(&device, Dtype::U32, None)
        });
        assert_refused(built, needles);
        let built = with_shader_params(params, || Merge::new(&device, Dtype::U32, false, None));
        assert_refused(built, needles);
    }
}

#[test]
fn bad_merge_sort_calls_are_errors() {
    let (device, _queue) = open();
    let sort = MergeSort::keys(&device, Dtype::U32, None).expect("builds");
    let a = zeroed(&device, 8192);
    let b = zeroed(&device, 8192);
    let temp = zeroed(&device, sort.temp_storage_bytes(1000));
    let mut encoder = encoder(&device);
    let align = alignment(&device);
    assert_refused(
        sort.record_pairs(
            &mut encoder,
            [(&a).into(), (&b).into()],
            [(&a).into(), (&b).into()],
            10,
            (&temp).into(),
        ),
        &["built for keys alone"],
    );
    // (keys_in, keys_out, n, what the refusal says); temp is always `temp`.
    let key_calls: [(Slice, Slice, u32, &[&str]); 4] = [
        (
            (&a).into(),
            Slice::new(&a, align),
            1000,
            &["`keys_in`", "`keys_out`", "overlap", "in place"],
        ),
        ((&a).into(), (&b).into(), 1025, &["`temp`", "do not fit"]),
        (
            (&a).into(),
            (&temp).into(),
            1000,
            &["`keys_out`", "`temp`", "overlap"],
        ),
        (
            (&a).into(),
            (&b).into(),
            (1 << 30) + 1,
            &["1073741825 keys", "at most 2^30"],
        ),
    ];
    for (keys_in, keys_out, n, needles) in key_calls {
        assert_refused(
            sort.record_keys(&mut encoder, keys_in, keys_out, n, (&temp).into()),
            needles,
        );
    }
    let merge = Merge::new(&device, Dtype::U32, true, None).expect("builds");
    assert_refused(
        merge.record_keys(
            &mut encoder,
            ((&a).into(), 10),
            ((&a).into(), 10),
            (&b).into(),
        ),
        &["built for pairs"],
    );
    assert_refused(
        merge.record_pairs(
            &mut encoder,
            [(&a).into(), (&a).into(), (&a).into()],
            [(&b).into(), (&b).into(), Slice::new(&b, 2048)],
            (10, 10),
        ),
        &["`keys_out`", "overlap"],
    );
    assert_refused(
        merge.record_pairs(
            &mut encoder,
            [(&a).into(), (&a).into(), Slice::new(&a, 2048)],
            [(&b).into(), (&b).into(), Slice::new(&b, 2048)],
            (1600, 10),
        ),
        &["`keys_out`", "6440 bytes", "from offset 2048"],
    );
}

#[test]
fn bad_top_k_calls_are_errors() {
    let (device, _queue) = open();
    assert_refused(
        TopK::new(&device, KeyType::U64, TopKOrder::Largest, false),
        &["U64 keys", "32-bit keys"],
    );
    let top = TopK::new(&device, KeyType::U32, TopKOrder::Largest, false).expect("builds");
    let a = zeroed(&device, 8192);
    let b = zeroed(&device, 8192);
    let temp = zeroed(&device, top.temp_storage_bytes(1000, 100));
    let mut encoder = encoder(&device);
    let ks = [(&a).into(), (&b).into()];
    assert_refused(
        top.record_keys(&mut encoder, ks, (10, 11), (&temp).into()),
        &["k = 11 of n = 10", "at most 1024"],
    );
    assert_refused(
        top.record_keys(&mut encoder, ks, (2000, 1025), (&temp).into()),
        &["k = 1025"],
    );
    assert_refused(
        top.record_batched_keys(&mut encoder, ks, (65536, 1, 1), (&temp).into()),
        &["65536 rows of 1 keys", "at most 65535 rows"],
    );
    assert_refused(
        top.record_batched_keys(
            &mut encoder,
            [Slice::new(&a, 8128), (&b).into()],
            (3, 10, 2),
            (&temp).into(),
        ),
        &["`keys_in`: 120 bytes from offset 8128"],
    );
    assert_refused(
        top.record_pairs(&mut encoder, ks, ks, (10, 5), (&temp).into()),
        &["built for keys alone"],
    );
    assert_refused(
        top.record_keys(&mut encoder, ks, (1000, 200), (&temp).into()),
        &["`temp`", "do not fit"],
    );
    assert_refused(
        top.record_keys(
            &mut encoder,
            [(&a).into(), (&a).into()],
            (10, 5),
            (&temp).into(),
        ),
        &["`keys_in` and `keys_out` are the same buffer"],
    );
    assert_refused(
        top.record_keys(
            &mut encoder,
            [(&a).into(), (&temp).into()],
            (10, 5),
            (&temp).into(),
        ),
        &["`keys_out`", "`temp`", "overlap"],
    );
}
