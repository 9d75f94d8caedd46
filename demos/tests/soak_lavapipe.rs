//! The short form of the soak (issue 37): `wavekit-soak` for 30 s on
//! lavapipe at sizes up to 2^16 — every `wavekit::device` algorithm, two a
//! program with a copy of the caller's between, on slices at random
//! offsets between guard words, each result checked against the CPU and
//! the device memory the same at the end as at the start. The ten-minute
//! runs on the GPU are in `docs/soak/`.

use std::process::Command;

#[test]
fn thirty_seconds_of_every_algorithm_on_lavapipe_fail_nothing_and_leak_nothing() {
    let out = Command::new(env!("CARGO_BIN_EXE_wavekit-soak"))
        .args([
            "--seconds",
            "30",
            "--adapter",
            "llvmpipe",
            "--max-log2",
            "16",
        ])
        .output()
        .expect("wavekit-soak runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let done: serde_json::Value = stdout
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .find(|v: &serde_json::Value| v["soak"] == "done")
        .unwrap_or_else(|| panic!("no final line:\n{stdout}\n{stderr}"));
    assert_eq!(done["failures"], 0, "{done}");
    // Every algorithm ran, many times.
    let per = done["calls_per_algorithm"].as_object().expect("counts");
    assert_eq!(per.len(), 8, "{done}");
    for (name, count) in per {
        assert!(count.as_u64().unwrap_or(0) >= 20, "{name}: {done}");
    }
    let (start, end) = (
        done["memory_bytes_after_first_program"].as_u64(),
        done["memory_bytes_end"].as_u64(),
    );
    if let (Some(start), Some(end)) = (start, end) {
        assert!(end <= start + (1 << 20), "memory {start} -> {end}");
    }
    eprintln!("{done}");
}
