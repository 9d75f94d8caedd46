//! Tests of the tool lookup: an override that names nothing, a missing tool
//! naming its wheel, and the order environment, wheel, `PATH`.

use std::ffi::OsString;

use super::nvidia::{LIBDEVICE, NVDISASM, PTXAS};
use super::*;

#[test]
fn env_override_naming_nothing_is_an_error() {
    let err = find_tool(&PTXAS, Some("/nonexistent/wavekit/ptxas".into()), &[], None).unwrap_err();
    match err {
        NativeError::Tool { tool, message } => {
            assert_eq!(tool, "ptxas");
            assert!(message.contains("WAVEKIT_PTXAS"), "{message}");
            assert!(message.contains("/nonexistent/wavekit/ptxas"), "{message}");
        }
        other => panic!("expected a tool error, got {other:?}"),
    }
}

#[test]
fn missing_tool_names_its_wheel() {
    for (spec, wheel) in [
        (&PTXAS, "nvidia-cuda-nvcc"),
        (&NVDISASM, "nvidia-cuda-nvdisasm"),
        (&LIBDEVICE, "nvidia-nvvm"),
    ] {
        // An empty override counts as unset; no site-packages, empty PATH.
        let err = find_tool(spec, Some(OsString::new()), &[], Some(OsString::new()));
        match err {
            Err(NativeError::Tool { tool, message }) => {
                assert_eq!(tool, spec.name);
                assert!(message.contains(wheel), "{message}");
                assert!(message.contains(spec.env), "{message}");
            }
            other => panic!("expected a tool error, got {other:?}"),
        }
    }
}

#[test]
fn lookup_order_env_then_wheel_then_path() {
    let root = TempDir::new(&PTXAS).unwrap();
    let make = |rel: &str| {
        let path = root
            .path
            .join(format!("{rel}{}", std::env::consts::EXE_SUFFIX));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, b"#!/bin/sh\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        path
    };
    let on_path = make("toolkit/bin/ptxas");
    let path_var = std::env::join_paths([root.path.join("toolkit/bin")]).ok();
    let site = [root.path.join("site")];

    // Only PATH has it.
    assert_eq!(
        find_tool(&PTXAS, None, &site, path_var.clone()).unwrap(),
        on_path
    );
    // A CUDA 12 wheel beats PATH.
    let cu12 = make("site/nvidia/cuda_nvcc/bin/ptxas");
    assert_eq!(
        find_tool(&PTXAS, None, &site, path_var.clone()).unwrap(),
        cu12
    );
    // A CUDA 13 wheel beats a CUDA 12 one.
    let cu13 = make("site/nvidia/cu13/bin/ptxas");
    assert_eq!(
        find_tool(&PTXAS, None, &site, path_var.clone()).unwrap(),
        cu13
    );
    // The environment variable beats everything.
    let custom = make("custom/ptxas");
    assert_eq!(
        find_tool(&PTXAS, Some(custom.clone().into()), &site, path_var).unwrap(),
        custom
    );
}

/// An llvm-objdump listing of two kernels (trimmed), as `amdgpu_disassemble`
/// gives it.
const AMDGPU_LISTING: &str = "
/tmp/k.hsaco:\tfile format elf64-amdgpu

Disassembly of section .text:

0000000000001000 <first>:
\ts_load_dwordx2 s[0:1], s[0:1], 0x0                         // 000000001000: C0060000 00000000
\tv_cndmask_b32_e64 v0, 0, 1, vcc                            // 000000001008: D5010000 01A90280
\ts_endpgm                                                   // 000000001010: BF810000
\ts_code_end                                                 // 000000001014: BF9F0000

0000000000001100 <second>:
\tds_bpermute_b32 v1, v2, v3                                 // 000000001100: D8CC0000 01000302
\ts_endpgm                                                   // 000000001108: BF810000
";

#[test]
fn reads_every_amdgpu_function_of_a_listing_in_one_pass() {
    let all = amdgpu_functions(AMDGPU_LISTING);
    assert_eq!(
        all["first"],
        ["s_load_dwordx2", "v_cndmask_b32_e64", "s_endpgm"]
    );
    assert_eq!(all["second"], ["ds_bpermute_b32", "s_endpgm"]);
    assert_eq!(all.len(), 2);
    for (name, mnemonics) in &all {
        assert_eq!(*mnemonics, amdgpu_mnemonics(AMDGPU_LISTING, name), "{name}");
    }
    assert!(amdgpu_mnemonics(AMDGPU_LISTING, "firs").is_empty());
}
