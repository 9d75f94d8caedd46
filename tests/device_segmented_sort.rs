//! `wavekit::device::SegmentedSort` on lavapipe at subgroup sizes 4, 8 and 16
//! against a CPU reference (each segment sorted on (key, value)): empty
//! segments, single elements, exactly 32, 33, 64 and 65 (the three sorts'
//! limits), segments around the 1024-element chunk and far longer (2^21 + 1000
//! keys in few segments: more chunks than a merge pass has workgroups), random
//! offsets, elements outside every segment left alone, u32 / i32 / f32 keys
//! with and without values, slices at non-zero offsets inside larger buffers
//! whose other bytes must stay, and bad calls.

mod device_support;

use device_support::*;
use wavekit::device::{KeyType, SegmentedSort, Slice};

/// The CPU reference: `keys` (and `values`) with each segment sorted on
/// the key's order, then the value.
fn reference(
    sort: &SegmentedSort,
    keys: &[u32],
    values: &[u32],
    offsets: &[u32],
) -> (Vec<u32>, Vec<u32>) {
    let order = |k: u32| match sort.key() {
        KeyType::U32 => u64::from(k),
        KeyType::I32 => u64::from(k ^ 0x8000_0000),
        KeyType::F32 => u64::from(if k >> 31 == 1 { !k } else { k ^ 0x8000_0000 }),
        other => panic!("{other:?}: the segmented sort takes 32-bit keys"),
    };
    let (mut keys, mut values) = (keys.to_vec(), values.to_vec());
    for s in offsets.windows(2) {
        let range = s[0] as usize..s[1] as usize;
        let mut pairs: Vec<(u32, u32)> = keys[range.clone()]
            .iter()
            .copied()
            .zip(values[range.clone()].iter().copied())
            .collect();
        pairs.sort_by_key(|&(k, v)| (order(k), if sort.has_values() { v } else { 0 }));
        for (i, (k, v)) in range.zip(pairs) {
            keys[i] = k;
            values[i] = v;
        }
    }
    (keys, values)
}

/// Sorts `keys` (and values) in the `segments` (offsets) on the device at
/// non-zero slice offsets and compares with the reference; elements outside
/// every segment must keep the output's previous contents.
fn check(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    sort: &SegmentedSort,
    n: usize,
    offsets: &[u32],
    seed: u64,
    what: &str,
) {
    let align = alignment(device);
    let keys: Vec<u32> = match sort.key() {
        // Few distinct keys, so equal keys meet and values break the ties.
        KeyType::U32 => random(n, 50, seed),
        KeyType::I32 => random(n, 0, seed),
        KeyType::F32 => random(n, 200, seed)
            .iter()
            .map(|&x| (x as f32 / 8.0 - 12.0).to_bits())
            .chain([
                f32::INFINITY.to_bits(),
                (-0.0f32).to_bits(),
                f32::NEG_INFINITY.to_bits(),
            ])
            .take(n)
            .collect(),
        other => panic!("{other:?}: the segmented sort takes 32-bit keys"),
    };
    let values = random(n, 0, seed ^ 0x55);
    let what = format!(
        "{what}: {:?} pairs {} n = {n}, {} segments",
        sort.key(),
        sort.has_values(),
        offsets.len() - 1
    );
    let (at_keys, at_values, at_offsets, at_out) = (align, 2 * align, 3 * align, align);
    let keys_in = guarded(device, &keys, at_keys, 16);
    let values_in = guarded(device, &values, at_values, 16);
    let offsets_buffer = guarded(device, offsets, at_offsets, 16);
    let keys_out = guarded(device, &vec![GUARD; n], at_out, 16);
    let values_out = guarded(device, &vec![GUARD; n], at_out, 16);
    let temp = zeroed(device, sort.temp_storage_bytes(n as u32) + align);
    let n_segments = (offsets.len() - 1) as u32;
    let mut encoder = encoder(device);
    if sort.has_values() {
        sort.record_pairs(
            &mut encoder,
            Slice::new(&keys_in, at_keys),
            Slice::new(&keys_out, at_out),
            Slice::new(&values_in, at_values),
            Slice::new(&values_out, at_out),
            n as u32,
            Slice::new(&offsets_buffer, at_offsets),
            n_segments,
            Slice::new(&temp, align),
        )
    } else {
        sort.record_keys(
            &mut encoder,
            Slice::new(&keys_in, at_keys),
            Slice::new(&keys_out, at_out),
            n as u32,
            Slice::new(&offsets_buffer, at_offsets),
            n_segments,
            Slice::new(&temp, align),
        )
    }
    .expect("records");
    let read = submit_and_read(device, queue, encoder, &[&keys_out, &values_out, &keys_in]);
    assert_eq!(
        inside(&read[2], at_keys, n, &what),
        keys,
        "{what}: keys_in changed"
    );
    let (mut want_keys, mut want_values) = reference(sort, &keys, &values, offsets);
    // Outside every segment: not written (still GUARD).
    let (first, last) = (offsets[0] as usize, *offsets.last().unwrap() as usize);
    for i in (0..first).chain(last..n) {
        want_keys[i] = GUARD;
        want_values[i] = GUARD;
    }
    assert_same(
        &inside(&read[0], at_out, n, &what),
        &want_keys,
        &format!("{what}: keys"),
    );
    if sort.has_values() {
        assert_same(
            &inside(&read[1], at_out, n, &what),
            &want_values,
            &format!("{what}: values"),
        );
    } else {
        assert!(
            read[1].iter().all(|&w| w == GUARD),
            "{what}: values_out written"
        );
    }
}

/// Offsets of segments with lengths drawn from `lengths` in turn until `n`.
fn offsets_of(n: usize, lengths: &[usize]) -> Vec<u32> {
    let mut offsets = vec![0u32];
    let mut at = 0;
    for &len in lengths.iter().cycle() {
        at = (at + len).min(n);
        offsets.push(at as u32);
        if at == n {
            break;
        }
    }
    offsets
}

/// Random segment lengths: mostly short, some empty, some long.
fn random_offsets(n: usize, seed: u64) -> Vec<u32> {
    let draws = random(n + 1, 1000, seed);
    let lengths: Vec<usize> = draws
        .iter()
        .map(|&d| match d {
            0..=99 => 0,
            100..=699 => (d % 40) as usize,
            700..=979 => (d % 300) as usize,
            _ => 500 + 40 * (d as usize - 980),
        })
        .collect();
    offsets_of(n, &lengths)
}

#[test]
fn segmented_sort_cases() {
    if !is_child() {
        return;
    }
    let (device, queue) = open();
    for key in [KeyType::U32, KeyType::I32, KeyType::F32] {
        for pairs in [true, false] {
            let sort = SegmentedSort::new(&device, key, pairs).expect("builds");
            let cases: Vec<(usize, Vec<u32>, &str)> = vec![
                (1, vec![0, 1], "one element"),
                (5, vec![0, 0, 2, 2, 5, 5], "empty segments"),
                (7, vec![0, 7], "one odd segment"),
                (64, offsets_of(64, &[32]), "exactly 32"),
                (99, offsets_of(99, &[33]), "33"),
                (256, offsets_of(256, &[64]), "exactly 64"),
                (260, offsets_of(260, &[65]), "65"),
                (
                    777,
                    offsets_of(777, &[63, 64, 65, 2, 40, 33, 32]),
                    "around 64",
                ),
                (
                    1000,
                    offsets_of(1000, &[1, 31, 32, 33, 0, 64, 100]),
                    "mixed short",
                ),
                (1023, vec![0, 1023], "chunk - 1"),
                (1025, vec![0, 1025], "chunk + 1"),
                (3000, vec![0, 1000, 1000, 3000], "across chunks"),
                (5000, vec![3, 40, 1500, 4100, 4990], "outside segments"),
                (9000, vec![0, 2, 8999, 9000], "long"),
                (20_000, random_offsets(20_000, 9), "random"),
            ];
            for (seed, (n, offsets, what)) in cases.iter().enumerate() {
                check(&device, &queue, &sort, *n, offsets, seed as u64, what);
            }
        }
    }
    let sort = SegmentedSort::pairs(&device, KeyType::U32).expect("builds");
    // 2049 chunks: more than a merge pass's 2048 workgroups, so workgroup
    // 0 merges chunks 0 and 2048.
    let n = (1 << 21) + 1000;
    check(
        &device,
        &queue,
        &sort,
        n,
        &[0, 5, 300_001, 300_001, 1_500_000, n as u32],
        77,
        "2^21 + 1000",
    );
    let n = 1 << 19;
    check(
        &device,
        &queue,
        &sort,
        n,
        &random_offsets(n, 78),
        78,
        "2^19 random",
    );
}

#[test]
fn segmented_sort_at_each_subgroup_size() {
    at_each_subgroup_size("segmented_sort_cases");
}

/// The arguments of a `record_pairs` call that [`bad_calls_are_errors`]
/// varies.
#[derive(Clone, Copy)]
struct Pairs<'a> {
    keys_out: &'a wgpu::Buffer,
    values_out: &'a wgpu::Buffer,
    n: u32,
    segments: u32,
    temp: &'a wgpu::Buffer,
}

#[test]
fn bad_calls_are_errors() {
    let (device, _queue) = open();
    let sort = SegmentedSort::pairs(&device, KeyType::F32).expect("builds");
    let n = 100u32;
    let keys = zeroed(&device, 400);
    let out = zeroed(&device, 400);
    let values = zeroed(&device, 400);
    let values_out = zeroed(&device, 400);
    let offsets = zeroed(&device, 8);
    let temp = zeroed(&device, sort.temp_storage_bytes(n));
    let s = |b| Slice::new(b, 0);
    let message = |r: Result<(), wavekit::Error>| r.expect_err("fails").to_string();
    // A good `record_pairs` call, each case below with one thing wrong.
    let good = Pairs {
        keys_out: &out,
        values_out: &values_out,
        n,
        segments: 1,
        temp: &temp,
    };
    let pairs = |c: Pairs| {
        message(sort.record_pairs(
            &mut encoder(&device),
            s(&keys),
            Slice::new(c.keys_out, 0),
            s(&values),
            Slice::new(c.values_out, 0),
            c.n,
            s(&offsets),
            c.segments,
            Slice::new(c.temp, 0),
        ))
    };
    let m = pairs(Pairs {
        segments: 5,
        ..good
    });
    assert!(m.contains("`offsets`") && m.contains("24 bytes"), "{m}");
    let m = pairs(Pairs {
        keys_out: &keys,
        ..good
    });
    assert!(m.contains("same buffer"), "{m}");
    let m = pairs(Pairs {
        values_out: &out,
        ..good
    });
    assert!(m.contains("overlap"), "{m}");
    let small = zeroed(&device, 64);
    let m = pairs(Pairs {
        temp: &small,
        ..good
    });
    assert!(m.contains("`temp`"), "{m}");
    let m = message(sort.record_keys(
        &mut encoder(&device),
        s(&keys),
        s(&out),
        n,
        s(&offsets),
        1,
        s(&temp),
    ));
    assert!(m.contains("record_pairs"), "{m}");
    let m = pairs(Pairs {
        n: (1 << 30) + 1,
        ..good
    });
    assert!(m.contains("at most 2^30"), "{m}");
}
