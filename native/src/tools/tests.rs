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
