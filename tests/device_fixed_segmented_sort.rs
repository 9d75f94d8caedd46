//! `wavekit::device::FixedSegmentedSort` on lavapipe at subgroup sizes 4, 8
//! and 16 against a CPU reference (each segment of one length sorted on
//! (key, value)): every length 1..=32, u32 / i32 / f32 keys (with -0, ±inf)
//! with and without values, sizes that are not a multiple of the segment or
//! of the 256-element workgroup, 2^20 + 3, slices at non-zero offsets
//! inside larger buffers whose other bytes must stay, several groups per
//! workgroup (`ITEMS`), other grains (`GRAIN`), emulated subgroups, and bad
//! calls.

mod device_support;

use device_support::*;
use wavekit::device::debug::with_shader_params;
use wavekit::device::{FixedSegmentedSort, KeyType, Slice};

/// A key's place in the sort's order, as the device encodes it.
fn order(key: KeyType, k: u32) -> u32 {
    match key {
        KeyType::U32 => k,
        KeyType::I32 => k ^ 0x8000_0000,
        KeyType::F32 if k >> 31 == 1 => !k,
        KeyType::F32 => k ^ 0x8000_0000,
        other => panic!("{other:?}: 32-bit keys only"),
    }
}

/// Keys of `key` type with few distinct values (so ties meet).
fn keys_of(key: KeyType, n: usize, seed: u64) -> Vec<u32> {
    match key {
        KeyType::U32 => random(n, 50, seed),
        KeyType::I32 => random(n, 0, seed),
        KeyType::F32 => random(n, 200, seed)
            .iter()
            .enumerate()
            .map(|(i, &x)| match i % 97 {
                0 => f32::INFINITY.to_bits(),
                1 => (-0.0f32).to_bits(),
                2 => f32::NEG_INFINITY.to_bits(),
                _ => (x as f32 / 8.0 - 12.0).to_bits(),
            })
            .collect(),
        other => panic!("{other:?}: 32-bit keys only"),
    }
}

fn check(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    sort: &FixedSegmentedSort,
    n: usize,
    seed: u64,
) {
    let align = alignment(device);
    let key = sort.key();
    let keys = keys_of(key, n, seed);
    let values = random(n, 0, seed ^ 0x55);
    let what = format!(
        "{key:?} pairs {} segments of {} n = {n}",
        sort.has_values(),
        sort.segment()
    );
    let (in_at, out_at) = (align, 2 * align);
    let keys_in = guarded(device, &keys, in_at, 64);
    let values_in = guarded(device, &values, in_at, 64);
    let keys_out = guarded(device, &vec![GUARD; n], out_at, 64);
    let values_out = guarded(device, &vec![GUARD; n], out_at, 64);
    let mut encoder = encoder(device);
    let slice = |b, at| Slice::new(b, at);
    if sort.has_values() {
        sort.record_pairs(
            &mut encoder,
            slice(&keys_in, in_at),
            slice(&keys_out, out_at),
            slice(&values_in, in_at),
            slice(&values_out, out_at),
            n as u32,
        )
    } else {
        sort.record_keys(
            &mut encoder,
            slice(&keys_in, in_at),
            slice(&keys_out, out_at),
            n as u32,
        )
    }
    .expect("records");
    let read = submit_and_read(device, queue, encoder, &[&keys_out, &values_out]);
    let got_keys = inside(&read[0], out_at, n, &what);
    let got_values = inside(&read[1], out_at, n, &what);
    let mut want_keys = Vec::with_capacity(n);
    let mut want_values = Vec::with_capacity(n);
    let segment = sort.segment() as usize;
    for (k, v) in keys.chunks(segment).zip(values.chunks(segment)) {
        let mut pairs: Vec<(u32, u32)> = k.iter().copied().zip(v.iter().copied()).collect();
        pairs.sort_by_key(|&(k, v)| (order(key, k), if sort.has_values() { v } else { 0 }));
        want_keys.extend(pairs.iter().map(|p| p.0));
        want_values.extend(pairs.iter().map(|p| p.1));
    }
    assert_same(&got_keys, &want_keys, &format!("{what}: keys"));
    if sort.has_values() {
        assert_same(&got_values, &want_values, &format!("{what}: values"));
    } else {
        assert!(
            got_values.iter().all(|&w| w == GUARD),
            "{what}: values written without values"
        );
    }
}

#[test]
fn fixed_segment_cases() {
    if !is_child() {
        return;
    }
    let (device, queue) = open();
    let sizes = [0, 1, 31, 255, 256, 257, 4099];
    for key in [KeyType::U32, KeyType::I32, KeyType::F32] {
        for (i, segment) in [1, 2, 4, 8, 16, 32].into_iter().enumerate() {
            for pairs in [false, true] {
                let sort = FixedSegmentedSort::new(&device, key, pairs, segment).expect("builds");
                for (seed, &n) in sizes.iter().enumerate() {
                    check(&device, &queue, &sort, n, (seed * 31 + i) as u64);
                }
            }
        }
    }
    let sort = FixedSegmentedSort::new(&device, KeyType::F32, true, 32).expect("builds");
    check(&device, &queue, &sort, (1 << 20) + 3, 5);
    // Several groups per workgroup (`ITEMS`, a benchmark parameter): the
    // last workgroup's groups partly or wholly past n. Other grains
    // (`GRAIN`): 1 is one element a thread, with merge levels where
    // subgroups are narrower than 32, once per group; 8 puts a segment of 8
    // in one thread and one of 32 in 4 lanes.
    let params: [&[(&str, &str)]; 5] = [
        &[("ITEMS", "2u")],
        &[("ITEMS", "3u")],
        &[("GRAIN", "1u")],
        &[("GRAIN", "1u"), ("ITEMS", "2u")],
        &[("GRAIN", "8u"), ("ITEMS", "3u")],
    ];
    for set in params {
        for segment in [8, 32] {
            let set = set.iter().map(|&(k, v)| (k, v.to_string())).collect();
            let sort = with_shader_params(set, || {
                FixedSegmentedSort::new(&device, KeyType::F32, true, segment)
            })
            .expect("builds");
            for (seed, n) in [1, 255, 257, 769, 1500, 4099].into_iter().enumerate() {
                check(&device, &queue, &sort, n, seed as u64 + 100);
            }
        }
    }
}

/// Emulated subgroups (shuffles through workgroup memory, 32 lanes): the
/// host-written networks' shuffles, and one element a thread for 1 and 2.
#[test]
fn fixed_segment_on_emulated_subgroups() {
    let (device, queue) = open_without_subgroups();
    for segment in [1, 2, 4, 8, 16, 32] {
        for pairs in [false, true] {
            let sort =
                FixedSegmentedSort::new(&device, KeyType::F32, pairs, segment).expect("builds");
            for (seed, n) in [1, 257, 4099, 70_001].into_iter().enumerate() {
                check(&device, &queue, &sort, n, seed as u64 + 7);
            }
        }
    }
}

#[test]
fn fixed_segment_at_each_subgroup_size() {
    at_each_subgroup_size("fixed_segment_cases");
}

#[test]
fn bad_fixed_segment_sorts_are_errors() {
    let (device, _queue) = open();
    let error = |result: Result<FixedSegmentedSort, wavekit::Error>| {
        result.err().expect("refused").to_string()
    };
    let message = error(FixedSegmentedSort::new(&device, KeyType::U32, true, 24));
    assert!(message.contains("segments of 24 elements"), "{message}");
    let message = error(FixedSegmentedSort::new(&device, KeyType::U32, true, 64));
    assert!(message.contains("segments of 64 elements"), "{message}");
    let message = error(FixedSegmentedSort::new(&device, KeyType::U64, false, 8));
    assert!(message.contains("U64 keys"), "{message}");

    let sort = FixedSegmentedSort::new(&device, KeyType::U32, true, 8).expect("builds");
    let n = 100u32;
    let a = zeroed(&device, 400);
    let b = zeroed(&device, 400);
    let small = zeroed(&device, 396);
    let mut encoder = encoder(&device);
    let refused = |result: Result<(), wavekit::Error>| result.expect_err("refused").to_string();
    let message = refused(sort.record_keys(&mut encoder, (&a).into(), (&b).into(), n));
    assert!(message.contains("built for pairs"), "{message}");
    let message = refused(sort.record_pairs(
        &mut encoder,
        (&a).into(),
        (&b).into(),
        (&a).into(),
        (&small).into(),
        n,
    ));
    assert!(message.contains("`values_out`: 400 bytes"), "{message}");
    let message = refused(sort.record_pairs(
        &mut encoder,
        (&a).into(),
        (&b).into(),
        (&a).into(),
        (&b).into(),
        n,
    ));
    assert!(message.contains("overlap"), "{message}");
}

#[test]
fn bad_groups_per_workgroup_are_errors() {
    let (device, _queue) = open();
    for (name, value, expected) in [
        (
            "ITEMS",
            "0u",
            "ITEMS = 0 groups per workgroup and GRAIN = 4",
        ),
        (
            "ITEMS",
            "17u",
            "ITEMS = 17 groups per workgroup and GRAIN = 4",
        ),
        (
            "ITEMS",
            "true",
            "the parameter `ITEMS` is `true`, not a u32",
        ),
        (
            "GRAIN",
            "0u",
            "GRAIN = 0 elements per thread: they take 1 to 16 and 1 to 8",
        ),
        (
            "GRAIN",
            "16u",
            "GRAIN = 16 elements per thread: they take 1 to 16 and 1 to 8",
        ),
        (
            "GRAIN",
            "3u",
            "GRAIN = 3 elements per thread: a power of two, and above 1 at least the segment (8) \
             over the narrowest subgroup",
        ),
    ] {
        let message = with_shader_params(vec![(name, value.into())], || {
            FixedSegmentedSort::new(&device, KeyType::U32, true, 8)
        })
        .err()
        .expect("refused")
        .to_string();
        assert!(message.contains(expected), "{name} = {value}: {message}");
    }
}
