//! Tests of the RDNA wave64 cross-half shuffle on a lane-level model of
//! `ds_bpermute_b32` and `v_permlane64_b32`: every (lane, target) pair, the
//! single-permute miss, and the known five-bit-select bug.

use super::reads_own_half;

const WAVE: usize = 64;

/// RDNA wave64 `ds_bpermute_b32`: five address bits, so each lane reads
/// within its own 32-lane half.
fn rdna_wave64_bpermute(values: &[u32; WAVE], targets: &[u32; WAVE]) -> [u32; WAVE] {
    std::array::from_fn(|lane| values[(lane & 32) | (targets[lane] as usize & 31)])
}

/// `v_permlane64_b32`: lane i gets lane i ^ 32.
fn permlane64(values: &[u32; WAVE]) -> [u32; WAVE] {
    std::array::from_fn(|lane| values[lane ^ 32])
}

/// The emitted sequence, step by step.
fn cross_half(values: &[u32; WAVE], targets: &[u32; WAVE]) -> [u32; WAVE] {
    let own = rdna_wave64_bpermute(values, targets);
    let other = rdna_wave64_bpermute(&permlane64(values), targets);
    std::array::from_fn(|lane| {
        if reads_own_half(lane as u32, targets[lane]) {
            own[lane]
        } else {
            other[lane]
        }
    })
}

fn values() -> [u32; WAVE] {
    std::array::from_fn(|lane| 1000 + lane as u32 * 7)
}

#[test]
fn the_cross_half_sequence_reads_every_target_lane() {
    let values = values();
    for lane in 0..WAVE {
        for target in 0..WAVE as u32 {
            // Every other lane reads some other lane, so the wave is busy.
            let mut targets: [u32; WAVE] = std::array::from_fn(|l| (l as u32 * 5 + 3) % 64);
            targets[lane] = target;
            let got = cross_half(&values, &targets);
            assert_eq!(
                got[lane], values[target as usize],
                "lane {lane} target {target}"
            );
        }
    }
}

#[test]
fn a_single_bpermute_misses_the_other_half() {
    let values = values();
    let mut wrong = 0;
    for lane in 0..WAVE {
        for target in 0..WAVE as u32 {
            let mut targets = [0u32; WAVE];
            targets[lane] = target;
            if rdna_wave64_bpermute(&values, &targets)[lane] != values[target as usize] {
                wrong += 1;
            }
        }
    }
    // Exactly the pairs in different halves: 2 × 32 × 32.
    assert_eq!(wrong, 2048);
}

#[test]
fn selecting_on_a_five_bit_target_breaks_the_upper_half() {
    // The known bug: select on `(target & 31) ^ lane` instead of the
    // full index.
    let values = values();
    let mut wrong = 0;
    for lane in 0..WAVE {
        for target in 0..WAVE as u32 {
            let mut targets = [0u32; WAVE];
            targets[lane] = target;
            let own = rdna_wave64_bpermute(&values, &targets);
            let other = rdna_wave64_bpermute(&permlane64(&values), &targets);
            let got = if reads_own_half(lane as u32, target & 31) {
                own[lane]
            } else {
                other[lane]
            };
            if got != values[target as usize] {
                wrong += 1;
            }
        }
    }
    assert!(wrong > 0);
}
