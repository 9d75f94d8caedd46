//! `wavekit tune` on lavapipe writes a version-1 profile for the adapter,
//! and `wavekit adapters` then reports the adapter as tuned.

use std::process::{Command, Output};

fn wavekit(args: &[&str], profiles: &std::path::Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wavekit"))
        .args(args)
        .env("WAVEKIT_PROFILE_DIR", profiles)
        .output()
        .expect("wavekit runs")
}

#[test]
fn tune_writes_a_profile_that_adapters_reports() {
    let dir = std::env::temp_dir().join(format!("wavekit-cli-tune-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let before = wavekit(&["adapters"], &dir);
    let listed = String::from_utf8_lossy(&before.stdout);
    assert!(listed.contains("lowering: default"), "{listed}");

    let args = [
        "tune",
        "--adapter",
        "llvmpipe",
        "--op",
        "reduce_max",
        "--dtype",
        "u32",
        "--trips",
        "2",
        "--workgroups",
        "2",
        "--runs",
        "2",
    ];
    let out = wavekit(&args, &dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("reduce_max") && stdout.contains("profile written to"),
        "{stdout}"
    );
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(files.len(), 1);
    let text = std::fs::read_to_string(files[0].as_ref().unwrap().path()).unwrap();
    let profile: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(profile["format"], "wavekit-tune-profile");
    assert_eq!(profile["version"], 1);
    assert!(profile["adapter"].as_str().unwrap().contains("llvmpipe"));
    let chosen = profile["ops"]["reduce_max"].as_str().unwrap();
    assert!(chosen == "builtin" || chosen == "shuffle", "{chosen}");

    let after = wavekit(&["adapters"], &dir);
    let listed = String::from_utf8_lossy(&after.stdout);
    let line = listed
        .lines()
        .find(|l| l.contains("llvmpipe"))
        .expect("lavapipe listed");
    assert!(
        line.contains("lowering: tuned") && line.contains(&format!("reduce_max={chosen}")),
        "{line}"
    );

    // A bad dtype is refused before anything is timed, in every spelling
    // (`--dtypes` is the old one).
    for dtypes in [
        &["--dtype", "u32", "--dtype", "u33"][..],
        &["--dtype", "u32,u33"][..],
        &["--dtypes", "u33"][..],
    ] {
        let args = [&["tune", "--adapter", "llvmpipe"][..], dtypes].concat();
        let bad = wavekit(&args, &dir);
        assert!(!bad.status.success(), "{dtypes:?}");
        let stderr = String::from_utf8_lossy(&bad.stderr);
        assert!(
            stderr.starts_with("error: --dtype: unknown dtype `u33`"),
            "{dtypes:?}: {stderr}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
