//! Every demo and variant, on lavapipe at subgroup sizes 4, 8 and 16, at
//! small sizes, through the `wavekit-demos` binary: each result is checked
//! against the CPU reference by the demo itself (a mismatch fails the run
//! with the first wrong index), and one timed run per size exercises GPU
//! timestamps. One process per subgroup size, because lavapipe reads
//! `LP_NATIVE_VECTOR_WIDTH` once per process, with lavapipe's workgroups
//! run in order.

use std::process::Command;

fn run_all_demos(vector_width: u32) {
    let out = Command::new(env!("CARGO_BIN_EXE_wavekit-demos"))
        .args([
            "--adapter",
            "llvmpipe",
            "--log2",
            "10..=15",
            "--warmup",
            "0",
            "--warmup-ms",
            "0",
            "--settle-ms",
            "0",
            "--runs",
            "1",
        ])
        .env("LP_NATIVE_VECTOR_WIDTH", vector_width.to_string())
        .output()
        .expect("wavekit-demos runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "demos failed at LP_NATIVE_VECTOR_WIDTH={vector_width}:\n{stdout}\n{stderr}"
    );
    let subgroup = vector_width / 32;
    assert!(
        stdout.contains(&format!("{} bits", vector_width)),
        "not lavapipe at width {vector_width}:\n{stdout}"
    );
    // Every demo ran every variant at every size: one `ok` line each.
    for demo in wavekit_demos::all() {
        for variant in demo.variants() {
            let lines = stdout
                .lines()
                .filter(|l| {
                    let words: Vec<&str> = l.split_whitespace().collect();
                    words.len() > 3
                        && words[0] == "ok"
                        && words[2] == demo.name()
                        && words[3] == *variant
                })
                .count();
            assert_eq!(
                lines,
                6,
                "{} {variant} at subgroup size {subgroup}: want 6 checked sizes:\n{stdout}",
                demo.name()
            );
        }
    }
}

#[test]
fn demos_pass_at_subgroup_size_4() {
    run_all_demos(128);
}

#[test]
fn demos_pass_at_subgroup_size_8() {
    run_all_demos(256);
}

#[test]
fn demos_pass_at_subgroup_size_16() {
    run_all_demos(512);
}

/// The demos on emulated subgroups (`--subgroups emulated:32`, no
/// subgroup feature requested), checked as above at four sizes: the scan
/// and the sorts take reduce-then-scan there (the look-back is one
/// subgroup's, which workgroup barriers cannot emulate), as does the
/// compaction (three passes), the OneSweep sort a 256-thread shape.
#[test]
fn demos_pass_on_emulated_subgroups() {
    let out = Command::new(env!("CARGO_BIN_EXE_wavekit-demos"))
        .args([
            "reduce",
            "scan",
            "histogram",
            "contact_sort",
            "radix_sort",
            "compact",
            "--variant",
            "auto",
            "--variant",
            "reduce_then_scan",
            "--variant",
            "keys",
            "--variant",
            "pairs_reduce_then_scan",
            "--variant",
            "sum_f32",
            "--variant",
            "max_u32",
            "--variant",
            "uniform",
            "--variant",
            "seg32",
            "--variant",
            "seg8",
            "--variant",
            "keys_onesweep",
            "--variant",
            "pairs_onesweep",
            "--variant",
            "u32_half",
            "--variant",
            "u32_half_three_pass",
            "--subgroups",
            "emulated:32",
            "--adapter",
            "llvmpipe",
            "--log2",
            "10..=13",
            "--runs",
            "0",
        ])
        .output()
        .expect("wavekit-demos runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let ok = stdout.lines().filter(|l| l.starts_with("ok ")).count();
    assert_eq!(ok, 13 * 4, "want 13 variants at 4 sizes:\n{stdout}");
}
