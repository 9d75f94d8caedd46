//! `wavekit::device::RadixSort` on lavapipe at subgroup sizes 4, 8 and 16
//! against a CPU reference: keys and pairs (stability checked through the
//! values), u32, i32 and f32 keys and u64, i64 and f64 keys, bit ranges
//! (of 64-bit keys also one whose digit straddles the words), both
//! algorithms, edge sizes
//! (0, 1, a tile ± 1, odd sizes, and 2^20 at subgroup size 8), slices at non-zero offsets inside
//! larger buffers whose other bytes must stay, and in place. Every key
//! type, bit range and in-place sort runs at subgroup size 8; at 4 and 16
//! the u32 and u64 pairs at every edge size with both algorithms, and the
//! default sort (`every_key_type`); at each size the pairs with their
//! values loaded late (the native back ends' `LATE_VALUES`).

mod device_support;

use device_support::*;
use wavekit::device::debug::with_shader_params;
use wavekit::device::{KeyType, RadixSort, RadixSortAlgorithm, RadixSortOptions, Slice};

/// The reference: a stable sort of (key, value) by the key's ordered bits
/// in `bits`.
fn reference(keys: &[u32], key: KeyType, bits: &std::ops::Range<u32>) -> Vec<(u32, u32)> {
    let ordered = |k: u32| -> u32 {
        let b = match key {
            KeyType::U32 => k,
            KeyType::I32 => k ^ 0x8000_0000,
            KeyType::F32 => {
                k ^ if k >> 31 == 1 {
                    0xffff_ffff
                } else {
                    0x8000_0000
                }
            }
            other => panic!("{other:?} is not a 32-bit key"),
        };
        let width = bits.end - bits.start;
        let mask = if width == 32 {
            u32::MAX
        } else {
            (1 << width) - 1
        };
        (b >> bits.start) & mask
    };
    let mut pairs: Vec<(u32, u32)> = keys.iter().copied().zip(0..).collect();
    pairs.sort_by_key(|&(k, _)| ordered(k));
    pairs
}

/// Keys of `key` type with duplicates (to check stability): f32 keys of
/// both signs, zeros of both signs and infinities among them.
fn keys(key: KeyType, n: usize, seed: u64) -> Vec<u32> {
    let distinct = (n / 4).max(1) as u32;
    random(n, distinct, seed)
        .into_iter()
        .map(|x| {
            let k = x.wrapping_mul(0x9e37_79b1);
            match key {
                KeyType::F32 => match x % 7 {
                    0 => 0x8000_0000,
                    1 => 0,
                    2 => f32::INFINITY.to_bits(),
                    3 => f32::NEG_INFINITY.to_bits(),
                    _ => ((k as i32 as f32) / 65536.0).to_bits(),
                },
                _ => k,
            }
        })
        .collect()
}

/// What [`sort_on_device`] read back: the sorted key words and values
/// (values only for pairs) from inside their guarded buffers.
struct Sorted {
    key_words: Vec<u32>,
    values: Vec<u32>,
    what: String,
}

/// Sorts `n` keys of `key_words` (one or two words a key) with values
/// `0..n` when the sort has pairs, at offsets inside guarded buffers (the
/// output at `out_slots` alignments in), or in place, and reads them back,
/// checking that nothing outside the slices changed.
fn sort_on_device(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    sort: &RadixSort,
    key_words: &[u32],
    n: usize,
    in_place: bool,
    out_slots: u64,
) -> Sorted {
    let options = sort.options();
    let align = alignment(device);
    let values: Vec<u32> = (0..n as u32).collect();
    let (in_at, out_at) = (align, if in_place { align } else { out_slots * align });
    let keys_in = guarded(device, key_words, in_at, 64);
    let keys_out_buffer = guarded(device, &vec![GUARD; key_words.len()], out_at, 64);
    let keys_out = if in_place { &keys_in } else { &keys_out_buffer };
    let values_in = guarded(device, &values, in_at, 64);
    let values_out_buffer = guarded(device, &vec![GUARD; n], out_at, 64);
    let values_out = if in_place {
        &values_in
    } else {
        &values_out_buffer
    };
    let temp = zeroed(device, sort.temp_storage_bytes(n as u32));
    let mut encoder = encoder(device);
    if options.pairs {
        sort.record_pairs(
            &mut encoder,
            Slice::new(&keys_in, in_at),
            Slice::new(keys_out, out_at),
            Slice::new(&values_in, in_at),
            Slice::new(values_out, out_at),
            n as u32,
            (&temp).into(),
        )
    } else {
        sort.record_keys(
            &mut encoder,
            Slice::new(&keys_in, in_at),
            Slice::new(keys_out, out_at),
            n as u32,
            (&temp).into(),
        )
    }
    .expect("records");
    let read = submit_and_read(device, queue, encoder, &[keys_out, values_out]);
    let what = format!(
        "{:?} {:?} pairs {} bits {:?} n = {n}{}",
        sort.algorithm(),
        options.key,
        options.pairs,
        options.bits,
        if in_place { " in place" } else { "" }
    );
    let key_words = inside(&read[0], out_at, key_words.len(), &what);
    let values = if options.pairs {
        inside(&read[1], out_at, n, &what)
    } else {
        Vec::new()
    };
    Sorted {
        key_words,
        values,
        what,
    }
}

/// Sorts `n` keys (with values when the sort has pairs) at offsets inside
/// guarded buffers, or in place, and checks them.
fn check(device: &wgpu::Device, queue: &wgpu::Queue, sort: &RadixSort, n: usize, in_place: bool) {
    let options = sort.options();
    let data = keys(options.key, n, n as u64 + 3);
    let Sorted {
        key_words: got_keys,
        values: got_values,
        what,
    } = sort_on_device(device, queue, sort, &data, n, in_place, 2);
    let want = reference(&data, options.key, &options.bits);
    if options.pairs {
        let got: Vec<(u32, u32)> = got_keys.into_iter().zip(got_values).collect();
        assert_same(&got, &want, &what);
    } else {
        let want: Vec<u32> = want.into_iter().map(|(k, _)| k).collect();
        // Stable, so keys equal in the bit range keep their input order.
        assert_same(&got_keys, &want, &what);
    }
}

/// Whether this child sorts every key type, bit range and in-place case:
/// at one subgroup size (8, `LP_NATIVE_VECTOR_WIDTH=256`). At 4 and 16 it
/// sorts u32 (u64) pairs across every tile edge with both algorithms, and
/// the default sort: what the subgroup size changes is the ranking and the
/// look-back, which those cover; a key's order and a bit range are the
/// same code at every size. This keeps `make test` within its time.
fn every_key_type() -> bool {
    std::env::var("LP_NATIVE_VECTOR_WIDTH").as_deref() == Ok("256")
}

fn sort(
    device: &wgpu::Device,
    key: KeyType,
    pairs: bool,
    bits: std::ops::Range<u32>,
    algorithm: RadixSortAlgorithm,
) -> RadixSort {
    RadixSort::new(
        device,
        RadixSortOptions {
            key,
            pairs,
            bits,
            algorithm: Some(algorithm),
        },
    )
    .expect("builds")
}

/// A sort whose temp exceeds the device's largest binding, in regions
/// within it (the pairs' ping-pong keys and values), sorts: kernels bind
/// the regions, never the whole (through wgpu, 2^28 pairs take 2.2 GB of
/// temp against a 2 GiB limit).
#[test]
fn temp_over_the_binding_limit_sorts() {
    let limit = 512 * 1024;
    let (device, queue) = open_with_max_binding(limit);
    let n = 100_000;
    for algorithm in [
        RadixSortAlgorithm::OneSweep,
        RadixSortAlgorithm::ReduceThenScan,
    ] {
        let pairs = sort(&device, KeyType::U32, true, 0..32, algorithm);
        assert!(pairs.temp_storage_bytes(n as u32) > limit, "{algorithm:?}");
        check(&device, &queue, &pairs, n, false);
    }
}

/// A temp region larger than the device's largest binding (here the
/// pairs' ping-pong keys, as large as the keys) is an error naming both
/// numbers, before anything is recorded.
#[test]
fn a_temp_region_over_the_binding_limit_is_an_error() {
    let limit = 512 * 1024;
    let (device, _queue) = open_with_max_binding(limit);
    let n = 140_000u32;
    let sort = sort(
        &device,
        KeyType::U32,
        true,
        0..32,
        RadixSortAlgorithm::OneSweep,
    );
    let words = |count: u32| zeroed(&device, 4 * u64::from(count));
    let (keys_in, keys_out, values_in, values_out) = (words(n), words(n), words(n), words(n));
    let temp = zeroed(&device, sort.temp_storage_bytes(n));
    let mut encoder = encoder(&device);
    let e = sort
        .record_pairs(
            &mut encoder,
            Slice::new(&keys_in, 0),
            Slice::new(&keys_out, 0),
            Slice::new(&values_in, 0),
            Slice::new(&values_out, 0),
            n,
            (&temp).into(),
        )
        .expect_err("keys over the limit");
    assert_eq!(
        e.to_string(),
        "wavekit::device::RadixSort: `temp`: a region of 560000 bytes exceeds the device's \
         max_storage_buffer_binding_size 524288"
    );
}

#[test]
fn radix_sort_cases() {
    if !is_child() {
        return;
    }
    let (device, queue) = open();
    let auto = RadixSort::keys(&device, KeyType::U32).expect("builds");
    assert_eq!(
        auto.algorithm(),
        RadixSortAlgorithm::OneSweep,
        "lavapipe's choice: the single pass"
    );
    for algorithm in [
        RadixSortAlgorithm::OneSweep,
        RadixSortAlgorithm::ReduceThenScan,
    ] {
        // Tiles: OneSweep 1024 (128 × 8) to 5120 pairs (512 × 10, staged
        // in the counter rows, at 16 lanes; the keys' 6144 below),
        // reduce-then-scan 2048.
        let sizes = [
            0, 1, 2, 5, 1023, 1024, 1025, 2047, 2048, 2049, 5119, 5120, 5121, 10_007,
        ];
        let pairs = sort(&device, KeyType::U32, true, 0..32, algorithm);
        for &n in &sizes {
            check(&device, &queue, &pairs, n, false);
        }
        if !every_key_type() {
            continue;
        }
        check(&device, &queue, &pairs, 5000, true);
        for key in [KeyType::I32, KeyType::F32] {
            let keys = sort(&device, key, false, 0..32, algorithm);
            check(&device, &queue, &keys, 4099, false);
            check(&device, &queue, &keys, 3000, true);
        }
        // A bit range of 3 passes whose last digit is 5 bits wide.
        let range = sort(&device, KeyType::U32, true, 4..25, algorithm);
        check(&device, &queue, &range, 4097, false);
        // 2^20 keys at one subgroup size (8), to keep the test short.
        let big = sort(&device, KeyType::U32, false, 0..32, algorithm);
        check(&device, &queue, &big, 1 << 20, false);
    }
    // The pairs' values loaded once the keys are staged (`LATE_VALUES`,
    // the native back ends' choice), forced through wgpu by the debugging
    // parameter: tails of a tile and the staged tile's edges, and in place.
    let late = with_shader_params(vec![("LATE_VALUES", "true".into())], || {
        sort(
            &device,
            KeyType::U32,
            true,
            0..32,
            RadixSortAlgorithm::OneSweep,
        )
    });
    for n in [1, 1023, 1025, 5119, 5120, 5121, 10_007] {
        check(&device, &queue, &late, n, false);
    }
    check(&device, &queue, &late, 5000, true);
    // The keys' OneSweep tile at 16 lanes and its staged parts' edges.
    for n in [3001, 3071, 3073, 6143, 6144, 6145, 12_289] {
        check(&device, &queue, &auto, n, false);
    }
    // The device's algorithm sorts at most 1280 keys in one workgroup
    // (`radix_tile.wgsl`); 1281 go the multi-tile way.
    let device_choice = |key, pairs, bits| {
        RadixSort::new(
            &device,
            RadixSortOptions {
                key,
                pairs,
                bits,
                algorithm: None,
            },
        )
        .expect("builds")
    };
    let tile_pairs = device_choice(KeyType::U32, true, 0..32);
    for n in [1, 2, 5, 255, 256, 257, 1000, 1279, 1280, 1281] {
        check(&device, &queue, &tile_pairs, n, false);
        check(&device, &queue, &auto, n, false);
    }
    check(&device, &queue, &tile_pairs, 1000, true);
    for key in [KeyType::I32, KeyType::F32] {
        let tile_keys = device_choice(key, false, 0..32);
        check(&device, &queue, &tile_keys, 1280, false);
        check(&device, &queue, &tile_keys, 777, true);
    }
    for bits in [4..25, 8..24, 0..8] {
        let range = device_choice(KeyType::U32, true, bits);
        check(&device, &queue, &range, 1200, false);
    }
    if !every_key_type() {
        return;
    }
    // Whole-digit and single-pass ranges, OneSweep (the more edited shader).
    for bits in [8..24, 0..8] {
        let range = sort(
            &device,
            KeyType::U32,
            true,
            bits,
            RadixSortAlgorithm::OneSweep,
        );
        check(&device, &queue, &range, 4097, false);
    }
}

#[test]
fn radix_sort_at_each_subgroup_size() {
    at_each_subgroup_size("radix_sort_cases");
}

/// `key`'s 64-bit keys in the order the sort gives them: the ordered bits
/// (i64 the sign bit flipped, f64 negative keys every bit and the others
/// the sign bit, so NaNs sort by their bits) in `bits`.
fn ordered64(k: u64, key: KeyType, bits: &std::ops::Range<u32>) -> u64 {
    let b = match key {
        KeyType::U64 => k,
        KeyType::I64 => k ^ (1 << 63),
        KeyType::F64 => k ^ if k >> 63 == 1 { u64::MAX } else { 1 << 63 },
        other => panic!("{other:?} is not a 64-bit key"),
    };
    let width = bits.end - bits.start;
    let mask = if width == 64 {
        u64::MAX
    } else {
        (1 << width) - 1
    };
    (b >> bits.start) & mask
}

/// 64-bit keys of `key` type with duplicates, their bits spanning both
/// words: i64 keys of both signs with -1, `i64::MIN` and `i64::MAX`
/// among them; f64 keys of both signs, zeros of both signs, infinities,
/// NaNs of both signs, and values differing only in the low word.
fn keys64(key: KeyType, n: usize, seed: u64) -> Vec<u64> {
    let distinct = (n / 4).max(1) as u32;
    random(n, distinct, seed)
        .into_iter()
        .map(|x| {
            let k = u64::from(x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            match (key, x % 11) {
                (KeyType::I64, 0) => u64::MAX,
                (KeyType::I64, 1) => i64::MIN as u64,
                (KeyType::I64, 2) => i64::MAX as u64,
                (KeyType::F64, 0) => (-0.0f64).to_bits(),
                (KeyType::F64, 1) => 0,
                (KeyType::F64, 2) => f64::INFINITY.to_bits(),
                (KeyType::F64, 3) => f64::NEG_INFINITY.to_bits(),
                (KeyType::F64, 4) => f64::NAN.to_bits(),
                (KeyType::F64, 5) => (-f64::NAN).to_bits(),
                (KeyType::F64, 6) => (1.0f64 + f64::EPSILON * f64::from(x % 5)).to_bits(),
                (KeyType::F64, _) => ((k as i64 as f64) / 1e6).to_bits(),
                _ => k,
            }
        })
        .collect()
}

/// The words of 64-bit keys as a little-endian buffer holds them.
fn words(keys: &[u64]) -> Vec<u32> {
    keys.iter()
        .flat_map(|&k| [k as u32, (k >> 32) as u32])
        .collect()
}

/// As [`check`], for 64-bit keys: sorts `n` keys (with values when the
/// sort has pairs) at offsets inside guarded buffers, or in place, and
/// compares keys and values with a stable CPU sort.
fn check64(device: &wgpu::Device, queue: &wgpu::Queue, sort: &RadixSort, n: usize, in_place: bool) {
    let options = sort.options();
    let data = keys64(options.key, n, n as u64 + 11);
    let Sorted {
        key_words: got_words,
        values: got_values,
        what,
    } = sort_on_device(device, queue, sort, &words(&data), n, in_place, 3);
    let got_keys: Vec<u64> = got_words
        .chunks_exact(2)
        .map(|w| u64::from(w[0]) | (u64::from(w[1]) << 32))
        .collect();
    let mut want: Vec<(u64, u32)> = data.iter().copied().zip(0..).collect();
    want.sort_by_key(|&(k, _)| ordered64(k, options.key, &options.bits));
    if options.pairs {
        let got: Vec<(u64, u32)> = got_keys.into_iter().zip(got_values).collect();
        assert_same(&got, &want, &what);
    } else {
        let want: Vec<u64> = want.into_iter().map(|(k, _)| k).collect();
        assert_same(&got_keys, &want, &what);
    }
}

#[test]
fn radix_sort_64_cases() {
    if !is_child() {
        return;
    }
    let (device, queue) = open();
    let auto = RadixSort::keys(&device, KeyType::U64).expect("builds");
    assert_eq!(
        auto.algorithm(),
        RadixSortAlgorithm::OneSweep,
        "lavapipe's choice: the single pass"
    );
    assert_eq!(auto.options().bits, 0..64, "all bits of a u64");
    check64(&device, &queue, &auto, 3001, false);
    for algorithm in [
        RadixSortAlgorithm::OneSweep,
        RadixSortAlgorithm::ReduceThenScan,
    ] {
        // Tiles: OneSweep 1024 (128 × 8) to 3072 keys (512 × 6),
        // reduce-then-scan 2048.
        let sizes = [
            0, 1, 2, 5, 1023, 1024, 1025, 2047, 2048, 2049, 3071, 3073, 10_007,
        ];
        let pairs = sort(&device, KeyType::U64, true, 0..64, algorithm);
        for &n in &sizes {
            check64(&device, &queue, &pairs, n, false);
        }
        if !every_key_type() {
            continue;
        }
        // 8 passes: in place.
        check64(&device, &queue, &pairs, 5000, true);
        // i64 keys alone and f64 keys with values (each key type's
        // encoding is the shared key_order code; keys alone and pairs are
        // the u64 sorts' too), so that `make test` keeps its time.
        let keys = sort(&device, KeyType::I64, false, 0..64, algorithm);
        check64(&device, &queue, &keys, 4099, false);
        check64(&device, &queue, &keys, 3001, true);
        let pairs = sort(&device, KeyType::F64, true, 0..64, algorithm);
        check64(&device, &queue, &pairs, 2049, false);
        // Partial ranges: the low word and a byte of the high one (5
        // passes), the high word alone, a digit straddling the words
        // (28..36), and 8 passes whose last digit is 1 bit wide; the
        // straddling digit with both algorithms, the others with OneSweep
        // (the more edited shader).
        for (key, bits) in [
            (KeyType::U64, 0..40),
            (KeyType::U64, 32..64),
            (KeyType::I64, 28..36),
            (KeyType::F64, 4..61),
        ] {
            if algorithm == RadixSortAlgorithm::ReduceThenScan && bits != (28..36) {
                continue;
            }
            let range = sort(&device, key, true, bits, algorithm);
            check64(&device, &queue, &range, 4097, false);
        }
        // 2^20 keys at one subgroup size (8), to keep the test short.
        let big = sort(&device, KeyType::U64, false, 0..64, algorithm);
        check64(&device, &queue, &big, 1 << 20, false);
    }
}

/// At 8 lanes only: what the subgroup size changes (the ranking and the
/// look-back) is the 32-bit sort's code, which `radix_sort_at_each_subgroup_size`
/// runs at 4, 8 and 16; the 64-bit keys' two words are the same at every
/// size (each extra size cost `make test` about 25 s of lavapipe compiles).
#[test]
fn radix_sort_64_at_subgroup_size_8() {
    at_subgroup_size("radix_sort_64_cases", 256);
}

#[test]
fn radix_sort_64_bad_options() {
    let (device, _queue) = open();
    let build = |key, bits, algorithm| {
        RadixSort::new(
            &device,
            RadixSortOptions {
                key,
                pairs: false,
                bits,
                algorithm,
            },
        )
        .err()
        .map(|e| e.to_string())
    };
    let m = build(KeyType::U64, 0..65, None).expect("bits past 64 are refused");
    assert!(m.contains("0..65") && m.contains("0..64"), "{m}");
    let m = build(KeyType::F64, 40..40, None).expect("an empty range is refused");
    assert!(m.contains("40..40"), "{m}");
    let m = build(KeyType::U32, 0..40, None).expect("a 32-bit key has 32 bits");
    assert!(m.contains("0..40") && m.contains("0..32"), "{m}");
    let m = wavekit::device::SegmentedSort::keys(&device, KeyType::F64)
        .err()
        .expect("the segmented sort takes 32-bit keys")
        .to_string();
    assert!(m.contains("F64") && m.contains("32-bit"), "{m}");
    // A keys slice holds 8 bytes a key.
    let sort = build_ok(&device, KeyType::U64);
    let keys = zeroed(&device, 8 * 100 - 4);
    let out = zeroed(&device, 8 * 100);
    let temp = zeroed(&device, sort.temp_storage_bytes(100));
    let m = sort
        .record_keys(
            &mut encoder(&device),
            Slice::new(&keys, 0),
            Slice::new(&out, 0),
            100,
            Slice::new(&temp, 0),
        )
        .expect_err("keys_in is 4 bytes short")
        .to_string();
    assert!(m.contains("keys_in") && m.contains("800"), "{m}");
}

fn build_ok(device: &wgpu::Device, key: KeyType) -> RadixSort {
    RadixSort::keys(device, key).expect("builds")
}
