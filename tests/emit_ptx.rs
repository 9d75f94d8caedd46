//! `wavekit emit --lang ptx`: the native CUDA back end's PTX of a composed
//! shader, without a GPU. The PTX must assemble with `ptxas`, keep the
//! counted loop's private array in registers (no `__local_depot`), and a
//! request for PTX of a non-CUDA target is a one-line error.

use std::process::Command;

const SHADER: &str = r#"
#import wavekit::subgroup as sg
const ITEMS = 8u;
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    var items: array<u32, ITEMS>;
    for (var k = 0u; k < ITEMS; k++) {
        items[k] = sg::inclusive_add<u32>(data[id.x * ITEMS + k]);
    }
    var total = 0u;
    for (var k = 0u; k < ITEMS; k++) {
        total += items[ITEMS - 1u - k] * (k + 1u);
    }
    data[id.x] = total;
}
"#;

fn emit(args: &[&str]) -> std::process::Output {
    let dir = std::env::temp_dir().join(format!("wavekit-emit-ptx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary folder");
    let path = dir.join("shader.wgsl");
    std::fs::write(&path, SHADER).expect("shader written");
    let out = Command::new(env!("CARGO_BIN_EXE_wavekit"))
        .arg("emit")
        .arg(&path)
        .args(args)
        .output()
        .expect("wavekit runs");
    let _ = std::fs::remove_dir_all(&dir);
    out
}

#[test]
fn ptx_of_a_composed_shader_assembles_without_a_stack_frame() {
    let out = emit(&["--lang", "ptx", "--backend", "cuda", "--sm", "90"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "emit failed: {stderr}");
    let ptx = String::from_utf8(out.stdout).expect("PTX is text");
    assert!(
        ptx.contains(".visible .entry main("),
        "no kernel `main`:\n{ptx}"
    );
    assert!(ptx.contains(".target sm_90"), "not for sm_90:\n{ptx}");
    assert!(
        !ptx.contains("__local_depot"),
        "the counted loops' array went to a stack frame:\n{ptx}"
    );
    wavekit_native::tools::assemble(&ptx, 90).expect("ptxas accepts the PTX");
}

#[test]
fn ptx_needs_the_cuda_back_end() {
    let out = emit(&["--lang", "ptx"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--lang ptx is the CUDA back end's output: add --backend cuda"),
        "{stderr}"
    );
}
