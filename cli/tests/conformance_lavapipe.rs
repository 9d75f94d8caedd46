//! The conformance suite on Mesa's lavapipe (CPU Vulkan) at the subgroup
//! sizes it runs correctly (4, 8, 16), and the adapter check catching the
//! widths it misreports. Each run is a separate `wavekit check` process
//! because lavapipe reads `LP_NATIVE_VECTOR_WIDTH` once per process.
//!
//! The whole suite runs at 8 lanes. At 4 every op runs under every
//! lowering on `u32` and `f32` (and the ops without a dtype), at 16 under
//! the builtin lowering on `u32`: the subgroup size changes the expanded
//! code of every op, which `u32` covers, while the other dtypes repeat it
//! with another element type (`f32`'s at 4 and 8), and the shuffle
//! lowering's loops run at 4 and 8 (at 16 they cost `make test` about
//! 20 s of lavapipe compiles). That keeps these two runs short (`make test`
//! on 2 cores); the whole suite at every size is
//! `scripts/demo`'s (`make demo` on lavapipe) and `wavekit check --adapter
//! llvmpipe` with `LP_NATIVE_VECTOR_WIDTH=128` or `512`. The block
//! collectives over a tile (loads and stores, exchanges, discontinuities,
//! shuffles) run a lean sweep (`src/conformance/tile_sweep.rs`) at 8 lanes
//! only: they use no subgroup operation ([`TILE_FAMILIES`]).

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

/// Both lowerings.
const BOTH: [&str; 2] = ["builtin", "shuffle"];

fn check_on_lavapipe(vector_width: u32, extra: &[&str]) -> (bool, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_wavekit"))
        .args(["check", "--adapter", "llvmpipe", "--json"])
        .args(extra)
        .env("LP_NATIVE_VECTOR_WIDTH", vector_width.to_string())
        .output()
        .expect("wavekit runs");
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "width {vector_width}: no JSON report ({e}); stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.success(), report)
}

fn failures(report: &Value) -> Vec<String> {
    report["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| r["failed_cases"] != 0)
        .map(|r| format!("{} [{}]: {}", r["instance"], r["lowering"], r["details"]))
        .collect()
}

/// Runs the suite at `vector_width` on `dtypes` (every dtype if empty)
/// under `lowerings` (both, or the builtin one alone) and asserts that
/// every op with an instance of them, and every op without a dtype, ran
/// under each and passed.
fn assert_all_pass(vector_width: u32, subgroup_size: u64, dtypes: &[&str], lowerings: &[&str]) {
    let mut extra: Vec<&str> = dtypes.iter().flat_map(|d| ["--dtype", *d]).collect();
    if let [one] = lowerings {
        extra.extend(["--lowering", one]);
    }
    let whole = dtypes.is_empty();
    if !whole {
        extra.extend(TILE_FAMILIES.iter().flat_map(|f| ["--skip-family", *f]));
    }
    let (ok, report) = check_on_lavapipe(vector_width, &extra);
    let check = &report["adapter_check"];
    assert_eq!(check["passed"], true, "adapter check: {check}");
    assert_eq!(check["observed_sizes"], serde_json::json!([subgroup_size]));
    let results = report["results"].as_array().expect("results");
    // Every op of the catalog ran, under both lowerings where it has two.
    for primitive in wavekit::catalog::primitives() {
        let chosen = (whole
            || primitive.dtypes.is_empty()
            || primitive.dtypes.iter().any(|d| dtypes.contains(&d.wgsl())))
            && (whole || !TILE_FAMILIES.contains(&primitive.family.name()));
        assert!(
            !chosen || results.iter().any(|r| r["op"] == primitive.name),
            "{} was not run",
            primitive.name
        );
    }
    for lowering in lowerings {
        assert!(results.iter().any(|r| r["lowering"] == *lowering));
    }
    let failed = failures(&report);
    assert!(failed.is_empty() && ok, "S = {subgroup_size}: {failed:#?}");
}

#[test]
fn u32_and_f32_cases_pass_at_subgroup_size_4() {
    assert_all_pass(128, 4, &["u32", "f32"], &BOTH);
}

#[test]
fn every_case_passes_at_subgroup_size_8() {
    assert_all_pass(256, 8, &[], &BOTH);
}

#[test]
fn u32_builtin_cases_pass_at_subgroup_size_16() {
    assert_all_pass(512, 16, &["u32"], &["builtin"]);
}

/// At 1024 bits lavapipe reports 32-lane subgroups but runs 16 lanes: the
/// suite must say the adapter is wrong, not blame the ops.
#[test]
fn misreported_width_fails_the_adapter_check_not_the_ops() {
    let (ok, report) = check_on_lavapipe(1024, &[]);
    assert!(!ok, "a misreporting adapter must fail the check");
    let check = &report["adapter_check"];
    assert_eq!(check["passed"], false, "{check}");
    assert_eq!(check["reported"], serde_json::json!([32, 32]));
    assert_eq!(check["observed_lanes"], serde_json::json!([16]));
    assert!(
        report["results"].as_array().expect("results").is_empty(),
        "no op may run on a failed adapter"
    );
}
