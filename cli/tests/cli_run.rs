//! `wavekit run`: a composed shader on lavapipe with .npy and raw buffers,
//! and buffers of the wrong size refused before dispatch.

use std::path::PathBuf;
use std::process::{Command, Output};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wavekit-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn wavekit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wavekit"))
        .args(args)
        .args(["--adapter", "llvmpipe"])
        .output()
        .expect("wavekit runs")
}

const SHADER: &str = "#import wavekit::block as blk
@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read_write> output: array<f32>;
@group(0) @binding(2) var<storage, read_write> totals: array<f32, 2>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(workgroup_id) wg: vec3<u32>) {
    output[id.x] = blk::inclusive_add<f32, 64>(input[id.x]);
    let total = blk::reduce_all_add<f32, 64>(input[id.x]);
    if (blk::thread_idx() == 0u) {
        totals[wg.x] = total;
    }
}
";

#[test]
fn runs_a_composed_shader_from_npy_to_npy() {
    let shader = scratch("scan.wgsl");
    std::fs::write(&shader, SHADER).unwrap();
    let input = scratch("input.npy");
    let values: Vec<f32> = (0..128).map(|i| (i % 5) as f32).collect();
    npyz::to_file_1d(&input, values.iter().copied()).unwrap();
    let (scan, totals) = (scratch("scan.npy"), scratch("totals.bin"));
    let out = wavekit(&[
        "run",
        shader.to_str().unwrap(),
        "--workgroups",
        "2",
        "--bind",
        &format!("0:0={}", input.display()),
        "--bind",
        "0:1=out:f32:128",
        "--bind",
        "0:2=out:f32:2",
        "--out",
        scan.to_str().unwrap(),
        "--out",
        totals.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&scan).unwrap();
    let got: Vec<f32> = npyz::NpyFile::new(&bytes[..]).unwrap().into_vec().unwrap();
    for (block, chunk) in values.chunks(64).enumerate() {
        let mut sum = 0.0;
        for (t, v) in chunk.iter().enumerate() {
            sum += v;
            assert_eq!(got[block * 64 + t], sum);
        }
    }
    let raw = std::fs::read(&totals).unwrap();
    let totals: Vec<f32> = raw
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let want: Vec<f32> = values.chunks(64).map(|c| c.iter().sum()).collect();
    assert_eq!(totals, want);
}

#[test]
fn refuses_buffers_that_do_not_fit_the_shader() {
    let shader = scratch("sizes.wgsl");
    std::fs::write(&shader, SHADER).unwrap();
    let input = scratch("six_bytes.bin");
    std::fs::write(&input, [0u8; 6]).unwrap();
    let cases: [(&[&str], &str); 4] = [
        (
            &["--bind", "0:1=out:f32:128", "--bind", "0:2=out:f32:3"],
            "binding 0:2 (`totals`) takes exactly 8 bytes, the buffer has 12",
        ),
        (
            &["--bind", "0:1=out:f32:128"],
            "binding 0:2 (`totals`) has no --bind",
        ),
        (&["--bind", "0:0=out:f32:4"], "`input` is read-only"),
        (
            &["--bind", "0:5=out:u32:4"],
            "the shader has no buffer at 0:5",
        ),
    ];
    for (extra, message) in cases {
        let mut args = vec!["run", shader.to_str().unwrap()];
        let binding = format!("0:0={}", scratch("ok.bin").display());
        std::fs::write(scratch("ok.bin"), [0u8; 512]).unwrap();
        if !extra.iter().any(|a| a.starts_with("0:0=")) {
            args.extend(["--bind", binding.as_str()]);
        }
        args.extend(extra);
        let out = wavekit(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} should fail");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    // A raw input whose size is not a whole number of elements.
    let out = wavekit(&[
        "run",
        shader.to_str().unwrap(),
        "--bind",
        &format!("0:0={}", input.display()),
        "--bind",
        "0:1=out:f32:128",
        "--bind",
        "0:2=out:f32:2",
    ]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("positive multiple of 4, the buffer has 6")
    );
}
