//! The conformance suite with emulated subgroups on Mesa's lavapipe: the
//! device is opened without wgpu's `SUBGROUP` feature and every op runs
//! through the workgroup-memory emulation.
//!
//! Every op that uses subgroup operations runs at two sizes, on a subset of dtypes that keeps `make
//! test` within its time budget (lavapipe compiles each emulated operation
//! as a coroutine suspend point, which makes its compiles several times
//! slower than with hardware subgroups): at S = 32 the builtin lowering on
//! `u64` (the two-word path; ops without a dtype run too), at S = 4 the
//! builtin lowering on `u32` (the smallest size). S = 8 and S = 64 (ballots
//! of two words) run the same templates with another constant; `make test`
//! on 2 cores had no time for them (64 cost about 60 s of CPU; it runs in
//! `wavekit check --subgroups emulated:64`). The whole suite at one size is
//! `wavekit check --adapter llvmpipe --subgroups emulated:32` (about 30 min
//! on 2 cores).

use std::process::Command;

use serde_json::Value;

/// The block collectives over a tile (loads and stores, vectorized too,
/// exchanges, discontinuities, shuffles) use no subgroup operation: their
/// code is the same at every subgroup size and under emulation, so they run
/// once, in the whole suite at 8 lanes (`conformance_lavapipe`), and the
/// runs at other sizes and emulated leave them out. The block radix sorts
/// and histograms run once too, for `make test`'s time: their only subgroup
/// operations are those of `block::radix_rank_match_atomic_or` and
/// `block::exclusive_add`, which every run checks, and each call is a whole
/// sort, slow to compile on lavapipe (`wavekit check` runs them at every
/// size). The block merge sorts use no subgroup operation at all.
const TILE_FAMILIES: [&str; 8] = [
    "block exchange",
    "block load/store",
    "block vectorized load/store",
    "block discontinuity",
    "block shuffle",
    "block radix sort",
    "block histogram",
    "block merge sort",
];

/// `wavekit check --subgroups emulated:S` on lavapipe, with `extra` flags,
/// without the [`TILE_FAMILIES`].
fn check_emulated(size: u32, extra: &[&str]) -> (bool, Value) {
    let subgroups = format!("emulated:{size}");
    let out = Command::new(env!("CARGO_BIN_EXE_wavekit"))
        .args(["check", "--adapter", "llvmpipe", "--json", "--subgroups"])
        .arg(&subgroups)
        .args(extra)
        .args(TILE_FAMILIES.iter().flat_map(|f| ["--skip-family", f]))
        .output()
        .expect("wavekit runs");
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "S = {size}: no JSON report ({e}); stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.success(), report)
}

fn assert_passes(size: u32, extra: &[&str]) -> Value {
    let (ok, report) = check_emulated(size, extra);
    let target = report["target"].as_str().expect("target");
    assert!(
        target.contains(&format!("subgroup size {size} emulated")),
        "{target}"
    );
    let results = report["results"].as_array().expect("results");
    assert!(!results.is_empty(), "S = {size}: nothing ran");
    let failed: Vec<String> = results
        .iter()
        .filter(|r| r["failed_cases"] != 0)
        .map(|r| format!("{} [{}]: {}", r["instance"], r["lowering"], r["details"]))
        .collect();
    assert!(failed.is_empty() && ok, "S = {size}: {failed:#?}");
    report
}

#[test]
fn emulated_targets_do_not_request_subgroups() {
    let target = wavekit::Target::emulated(wavekit::Backend::Vulkan, 32).unwrap();
    let features = format!("{:?}", target.wgpu_features());
    assert!(!features.contains("SUBGROUP"), "{features}");
}

/// Every op with a `u64` instance, and every op without a dtype, ran.
fn assert_every_op_ran(report: &Value, dtype: &str) {
    let results = report["results"].as_array().expect("results");
    for primitive in wavekit::catalog::primitives() {
        let has_dtype = primitive.dtypes.iter().any(|d| d.wgsl() == dtype);
        let skipped = TILE_FAMILIES.contains(&primitive.family.name());
        if (primitive.dtypes.is_empty() || has_dtype) && !skipped {
            assert!(
                results.iter().any(|r| r["op"] == primitive.name),
                "{} was not run",
                primitive.name
            );
        }
    }
}

#[test]
fn every_op_passes_emulated_at_32_on_u64() {
    let report = assert_passes(32, &["--dtype", "u64", "--lowering", "builtin"]);
    assert_every_op_ran(&report, "u64");
}

/// Every op with a u32 instance, builtin lowering.
fn subset(size: u32) {
    let report = assert_passes(size, &["--dtype", "u32", "--lowering", "builtin"]);
    assert_every_op_ran(&report, "u32");
}

#[test]
fn subset_passes_emulated_at_4() {
    subset(4);
}
