//! `wavekit emit --lang wgsl-browser --subgroups emulated:S` writes WGSL a
//! browser runs without the `subgroups` feature: no `enable subgroups;`,
//! though the module names identifiers `subgroup...` (the block layer's
//! `subgroup_id` argument, the user's own `subgroup`), which once made the
//! emitter ask for the feature (issue 22, the browser page).

use std::process::Command;

const SHADER: &str = "#import wavekit::subgroup as sg
#import wavekit::block as blk

@group(0) @binding(0) var<storage, read_write> data: array<u32>;

@compute @workgroup_size(128)
fn main(@builtin(global_invocation_id) id: vec3<u32>,
        @builtin(local_invocation_index) t: u32) {
    let subgroup = t / sg::group_size();
    let sum = sg::reduce_all_add<u32>(data[id.x]);
    data[id.x] = sum + subgroup + blk::exclusive_add<u32, 128>(data[id.x]);
}
";

/// The shader emitted as browser WGSL with `extra` arguments.
fn emit(extra: &[&str]) -> String {
    let dir = std::env::temp_dir().join(format!("wavekit-emit-browser-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("user.wgsl");
    std::fs::write(&path, SHADER).expect("write shader");
    let out = Command::new(env!("CARGO_BIN_EXE_wavekit"))
        .args(["emit", path.to_str().unwrap(), "--lang", "wgsl-browser"])
        .args(extra)
        .output()
        .expect("wavekit runs");
    assert!(
        out.status.success(),
        "{extra:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn emulated_browser_wgsl_does_not_enable_subgroups() {
    let wgsl = emit(&["--subgroups", "emulated:32"]);
    assert!(!wgsl.contains("enable subgroups"), "{wgsl}");
    assert!(!wgsl.contains("subgroup_uniformity"), "{wgsl}");
    assert!(!wgsl.contains("@builtin(subgroup"), "{wgsl}");
    assert!(wgsl.contains("workgroupBarrier()"), "{wgsl}");
}

#[test]
fn native_browser_wgsl_enables_subgroups() {
    let wgsl = emit(&["--subgroup-range", "4..=128"]);
    assert!(wgsl.starts_with("enable subgroups;\n"), "{wgsl}");
}
