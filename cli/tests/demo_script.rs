//! `make demo` (`scripts/demo`) runs the demos on a GPU where there is one,
//! else on lavapipe at its three subgroup sizes with small inputs. Its
//! choice reads `wavekit adapters`: a wgpu adapter line of any type but
//! Cpu is a GPU; the CUDA and HIP lines printed after the adapters are
//! not. (From 2026-11-26 until this test, the line a build without
//! `native` prints, "CUDA, HIP: not built in", counted as a GPU: on a
//! machine without one, `make demo` ran the GPU sizes on lavapipe and
//! failed at 2^24.)

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The repository root (this crate is `cli/`).
fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ has a parent")
        .to_path_buf()
}

/// What `scripts/demo` would run (gpu or lavapipe) where `wavekit
/// adapters` prints `lines`, through a stand-in for the CLI that prints
/// them.
fn plan(lines: &[&str]) -> String {
    // A folder of this call's own: the tests run at once.
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("wavekit-demo-plan-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let stand_in = dir.join("wavekit");
    let mut text = String::from("#!/bin/sh\n[ \"$1\" = adapters ] || exit 9\n");
    for line in lines {
        text.push_str(&format!("printf '%s\\n' '{line}'\n"));
    }
    let mut file = std::fs::File::create(&stand_in).expect("the stand-in");
    file.write_all(text.as_bytes()).expect("written");
    drop(file);
    std::fs::set_permissions(&stand_in, std::fs::Permissions::from_mode(0o755))
        .expect("executable");
    let out = Command::new("sh")
        .arg(root().join("scripts/demo"))
        .env("WAVEKIT", &stand_in)
        .env("WAVEKIT_DEMO_PLAN", "1")
        .current_dir(root())
        .output()
        .expect("sh runs scripts/demo");
    let _ = std::fs::remove_dir_all(&dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "scripts/demo: {stderr}");
    // The stand-in ran (one that cannot run reads as no adapter at all).
    assert!(stderr.is_empty(), "scripts/demo: {stderr}");
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .trim()
        .to_string()
}

const LAVAPIPE: &str = "llvmpipe (LLVM 15.0.6, 256 bits) (Vulkan, Cpu, llvmpipe Mesa 22.3.6 (LLVM 15.0.6)), subgroups: hardware, size 8..=8, lowering: default (builtin where available)";
const NVIDIA: &str = "NVIDIA H100 80GB HBM3 (Vulkan, DiscreteGpu, 580.159.04), subgroups: hardware, size 32..=32, lowering: default (builtin where available)";

#[test]
fn lavapipe_alone_is_no_gpu_whatever_the_native_lines_say() {
    for native in [
        "CUDA, HIP: not built in (this wavekit was built without the `native` feature)",
        "CUDA: none found (no driver)",
        "HIP: none found (no driver)",
    ] {
        assert_eq!(plan(&[LAVAPIPE, native]), "lavapipe", "with {native:?}");
    }
    assert_eq!(plan(&[LAVAPIPE]), "lavapipe");
}

#[test]
fn a_gpu_adapter_is_a_gpu() {
    assert_eq!(
        plan(&[
            LAVAPIPE,
            NVIDIA,
            "CUDA device 0: NVIDIA H100 80GB HBM3, compute capability 9.0 (--backend cuda --device 0)"
        ]),
        "gpu"
    );
}

/// The script's pattern and the CLI's format agree: every adapter line
/// the real `wavekit adapters` prints has "), subgroups: ", and no CUDA or
/// HIP line does.
#[test]
fn the_cli_prints_what_the_script_reads() {
    let out = Command::new(env!("CARGO_BIN_EXE_wavekit"))
        .arg("adapters")
        .output()
        .expect("wavekit runs");
    assert!(out.status.success(), "wavekit adapters failed");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let adapters: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("), subgroups: "))
        .collect();
    assert!(
        adapters
            .iter()
            .any(|l| l.contains("llvmpipe") || !l.contains(", Cpu,")),
        "no adapter line in:\n{text}"
    );
    for line in text.lines() {
        if line.starts_with("CUDA") || line.starts_with("HIP") {
            assert!(
                !line.contains("), subgroups: "),
                "a native line reads as an adapter: {line}"
            );
        }
    }
}
