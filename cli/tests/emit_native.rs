//! `wavekit emit --lang ptx` and `--lang hsaco`: the native back ends'
//! outputs of a composed shader, without a GPU. The PTX must assemble with
//! `ptxas` and keep the counted loop's private array in registers (no
//! `__local_depot`); the code object must be one `llvm-readelf` reads as an
//! AMDGPU kernel of the asked architecture and wave size. `--lang ptx`
//! implies `--backend cuda` and `--lang hsaco` `--backend hip`; another
//! back end, or a subgroup size the target cannot run, is a one-line error
//! naming both.

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
    let dir = std::env::temp_dir().join(format!(
        "wavekit-emit-native-{}-{}",
        std::process::id(),
        args.join("-").replace(['/', ' '], "_")
    ));
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
fn ptx_implies_the_cuda_back_end_and_its_warp_width() {
    // `--lang ptx` alone composes for CUDA at 32 lanes.
    let out = emit(&["--lang", "ptx"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "emit failed: {stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).contains(".visible .entry main("));
    for (args, needle) in [
        (
            &["--lang", "ptx", "--backend", "vulkan"][..],
            "PTX is the CUDA back end's output",
        ),
        // A size CUDA cannot run is an error naming both, not 32-lane PTX
        // of code composed for 16.
        (
            &["--lang", "ptx", "--subgroup-size", "16"][..],
            "composed for subgroups of 16 lanes, and CUDA runs warps of 32",
        ),
    ] {
        let out = emit(args);
        assert!(!out.status.success(), "{args:?} succeeded");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}

#[test]
fn hsaco_of_a_composed_shader_is_a_code_object_for_the_arch() {
    for (arch, wave) in [("gfx942", "64"), ("gfx1100", "32")] {
        let out = emit(&["--lang", "hsaco", "--arch", arch, "--subgroup-size", wave]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "emit for {arch} failed: {stderr}");
        let notes =
            wavekit_native::tools::amdgpu_notes(&out.stdout).expect("llvm-readelf reads it");
        assert!(
            notes.contains(&format!("amdgcn-amd-amdhsa--{arch}")),
            "not for {arch}:\n{notes}"
        );
        assert!(
            notes.contains(&format!(".wavefront_size: {wave}")),
            "not wave{wave}:\n{notes}"
        );
        assert!(
            notes.contains(".name:           main"),
            "no kernel `main`:\n{notes}"
        );
    }
}

#[test]
fn hsaco_needs_the_hip_back_end_an_arch_and_its_wave_size() {
    for (args, needle) in [
        (
            &[
                "--lang",
                "hsaco",
                "--backend",
                "cuda",
                "--arch",
                "gfx942",
                "--subgroup-size",
                "64",
            ][..],
            "an AMDGPU code object is the HIP back end's output",
        ),
        (
            &[
                "--lang",
                "hsaco",
                "--backend",
                "hip",
                "--subgroup-size",
                "64",
            ][..],
            "--lang hsaco needs --arch, one of gfx90a, gfx942",
        ),
        (
            &[
                "--lang",
                "hsaco",
                "--backend",
                "hip",
                "--arch",
                "gfx942",
                "--subgroup-size",
                "32",
            ][..],
            "composed for subgroups of 32 lanes, and gfx942 runs waves of 64",
        ),
    ] {
        let out = emit(args);
        assert!(!out.status.success(), "{args:?} succeeded");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}

/// `--arch` is the same flag as `run`'s and `check`'s (issue 34): a bad
/// name gets the list, and an output that is not a HIP code object refuses
/// it rather than ignoring it.
#[test]
fn arch_is_checked_and_refused_for_other_outputs() {
    let names = "gfx90a, gfx942, gfx1030, gfx1100, gfx1200";
    for (args, needle) in [
        (
            &["--lang", "hsaco", "--arch", "gfx908"][..],
            format!("error: --arch gfx908: expected one of {names}"),
        ),
        (
            &["--lang", "hsaco"][..],
            format!("error: --lang hsaco needs --arch, one of {names}"),
        ),
        (
            &["--lang", "ptx", "--arch", "gfx942"][..],
            "error: --arch gfx942 chooses HIP code objects: it applies to --backend hip and \
             --lang hsaco, not --lang ptx"
                .to_string(),
        ),
        (
            &["--lang", "spv", "--arch", "gfx1100"][..],
            "error: --arch gfx1100 chooses HIP code objects: it applies to --backend hip and \
             --lang hsaco, not --lang spv"
                .to_string(),
        ),
    ] {
        let out = emit(args);
        assert!(!out.status.success(), "{args:?} succeeded");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(&needle), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
}

/// `--unclamped` (formerly `--unchecked`: "check" is the conformance
/// suite) drops the index clamps from the native outputs: the PTX without
/// them is shorter, the old spelling gives the same PTX, and a non-native
/// output refuses the flag.
#[test]
fn unclamped_drops_the_index_clamps_under_either_spelling() {
    let ptx = |extra: &[&str]| {
        let out = emit(&[&["--lang", "ptx"], extra].concat());
        assert!(
            out.status.success(),
            "{extra:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("PTX is text")
    };
    let (clamped, unclamped) = (ptx(&[]), ptx(&["--unclamped"]));
    let mins = |p: &str| p.matches("min.u32").count();
    assert!(
        mins(&unclamped) < mins(&clamped),
        "the clamps ({} min.u32) did not go ({})",
        mins(&clamped),
        mins(&unclamped)
    );
    assert_eq!(ptx(&["--unchecked"]), unclamped);
    let out = emit(&["--lang", "wgsl", "--unclamped"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("--unclamped applies to --lang ptx and hsaco"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
