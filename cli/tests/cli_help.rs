//! The help texts describe today's back ends and flags (issue 34): every
//! back end is named with what it runs on, `--arch` is the one way to name
//! an AMD architecture, and no help sends the user to an environment
//! variable the runner no longer reads.

use std::process::Command;

fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_wavekit"))
        .args(args)
        .arg("--help")
        .output()
        .expect("wavekit runs");
    assert!(out.status.success(), "{args:?} --help failed");
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn top_level_help_names_every_back_end_and_the_list_style() {
    let text = help(&[]);
    for needle in [
        "vulkan, metal, dx12 and gl run on wgpu adapters",
        "webgpu is a browser's (emit --lang wgsl-browser)",
        "cuda is native PTX through LLVM's NVPTX back end",
        "hip is native AMDGPU code objects through LLVM",
        "--arch",
        "(--op a --op b) or given them comma-separated (--op a,b)",
        "CUDA and HIP devices",
    ] {
        assert!(
            text.contains(needle),
            "`wavekit --help` lacks {needle:?}:\n{text}"
        );
    }
}

#[test]
fn subcommand_help_offers_arch_and_no_environment_variable() {
    let arch = "The AMD GPU architecture HIP code objects are compiled for: gfx90a, gfx942, \
                gfx1030, gfx1100 or gfx1200";
    for command in ["run", "check", "emit"] {
        let text = help(&[command]);
        // clap wraps long help; compare with the whitespace folded.
        let folded = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            folded.contains(arch),
            "`{command} --help` lacks --arch:\n{text}"
        );
        assert!(!text.contains("WAVEKIT_HIP"), "`{command} --help`:\n{text}");
    }
    for command in [
        "list",
        "expand",
        "tune",
        "export",
        "gen-snippets",
        "adapters",
    ] {
        let text = help(&[command]);
        assert!(!text.contains("WAVEKIT_HIP"), "`{command} --help`:\n{text}");
    }
}
