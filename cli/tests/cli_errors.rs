//! Bad requests to `wavekit expand` print one clear error line and exit
//! non-zero; good ones print WGSL.

use std::process::{Command, Output};

fn wavekit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wavekit"))
        .args(args)
        .output()
        .expect("wavekit runs")
}

/// Asserts a failed run whose stderr is exactly one `error:` line containing `needle`.
fn assert_one_line_error(args: &[&str], needle: &str) {
    let out = wavekit(args);
    assert!(!out.status.success(), "{args:?} should fail");
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    let stderr = String::from_utf8(out.stderr).expect("utf-8");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines.len(),
        1,
        "{args:?}: expected one line, got {stderr:?}"
    );
    assert!(lines[0].starts_with("error: "), "{args:?}: {stderr:?}");
    assert!(
        lines[0].contains(needle),
        "{args:?}: {stderr:?} lacks {needle:?}"
    );
}

#[test]
fn log2_size_beyond_the_subgroup_is_refused() {
    assert_one_line_error(
        &[
            "expand",
            "all_true_tiled",
            "--log2",
            "4",
            "--subgroup-size",
            "8",
        ],
        "log2_size 4 is out of range 0..=3",
    );
    assert_one_line_error(
        &[
            "expand",
            "all_equal_tiled<f32, 8>",
            "--subgroup-size",
            "128",
        ],
        "log2_size 8 is out of range 0..=7",
    );
    // On a size range, tiles must fit the smallest size.
    assert_one_line_error(
        &[
            "expand",
            "any_true_tiled",
            "--log2",
            "4",
            "--subgroup-range",
            "8..=64",
        ],
        "log2_size 4 is out of range 0..=3",
    );
}

#[test]
fn unknown_op_is_refused_with_a_suggestion() {
    assert_one_line_error(
        &["expand", "shufle_xor", "--dtype", "u32"],
        "did you mean `shuffle_xor`?",
    );
    assert_one_line_error(&["expand", "no_such_thing"], "unknown op `no_such_thing`");
}

#[test]
fn dtype_the_target_lacks_is_refused() {
    assert_one_line_error(
        &["expand", "shuffle", "--dtype", "f16", "--without", "f16"],
        "`shuffle<f16>` needs shader-f16",
    );
    assert_one_line_error(
        &[
            "expand",
            "broadcast",
            "--dtype",
            "i64",
            "--without",
            "int64",
        ],
        "needs shader-int64",
    );
    assert_one_line_error(
        &["expand", "all_equal", "--dtype", "f64", "--without", "f64"],
        "needs shader-f64",
    );
    assert_one_line_error(
        &["expand", "ballot_u64", "--without", "int64"],
        "`ballot_u64` needs shader-int64",
    );
}

#[test]
fn malformed_requests_are_refused() {
    assert_one_line_error(&["expand", "shuffle"], "needs --dtype");
    assert_one_line_error(&["expand", "ballot", "--dtype", "f32"], "takes no --dtype");
    assert_one_line_error(&["expand", "shuffle", "--dtype", "f8"], "f8");
    assert_one_line_error(&["expand", "ballot_first_n", "--count", "33"], "33");
    assert_one_line_error(&["expand", "ballot", "--subgroup-size", "48"], "48");
    assert_one_line_error(&["expand", "shuffle<f32, 3>"], "takes 1 template argument");
    assert_one_line_error(&["expand", "lanemask_lt", "--lowering", "fast"], "fast");
}

#[test]
fn good_requests_print_wgsl() {
    let out = wavekit(&["expand", "all_equal_tiled", "--dtype", "f64", "--log2", "3"]);
    assert!(out.status.success());
    let wgsl = String::from_utf8(out.stdout).expect("utf-8");
    assert!(
        wgsl.contains("fn wk_sg_all_equal_tiled__f64__3(value: f64) -> bool"),
        "{wgsl}"
    );
    // The dependency comes along.
    assert!(
        wgsl.contains("fn wk_sg_all_true_tiled__3(predicate: bool) -> bool"),
        "{wgsl}"
    );
}

#[test]
fn list_shows_every_primitive() {
    let out = wavekit(&["list"]);
    assert!(out.status.success());
    let table = String::from_utf8(out.stdout).expect("utf-8");
    for p in wavekit::catalog::primitives() {
        assert!(table.contains(p.name), "`{}` missing from list", p.name);
    }
}

#[test]
fn block_contracts_are_checked_at_expansion() {
    assert_one_line_error(
        &[
            "expand",
            "block::reduce_add<f32, 48>",
            "--subgroup-size",
            "32",
        ],
        "block_dim 48 is not a multiple of the subgroup size 32",
    );
    // On a size range, B must be a multiple of the largest size.
    assert_one_line_error(
        &[
            "expand",
            "block::inclusive_min<u32, 32>",
            "--subgroup-range",
            "16..=64",
        ],
        "not a multiple of the subgroup size 16..=64",
    );
    assert_one_line_error(
        &["expand", "block::radix_rank_match_atomic_or<128, 8, 0, 8>"],
        "block_dim 128 must equal 1 << radix_bits = 256",
    );
    assert_one_line_error(
        &["expand", "block::radix_rank_match_atomic_or<256, 8, 0, 9>"],
        "num_bits 9 exceeds radix_bits 8",
    );
    assert_one_line_error(
        &["expand", "block::radix_rank_match_atomic_or<256, 8, 30, 4>"],
        "the digit bits 30..34 do not fit a 32-bit key",
    );
    assert_one_line_error(
        &["expand", "block::radix_rank_match_atomic_or<512, 9, 0, 8>"],
        "over the 16384 every WebGPU device offers",
    );
}

#[test]
fn block_tiles_and_arrays_are_checked_at_expansion() {
    assert_one_line_error(
        &["expand", "block::blocked_to_striped<f64, 1024, 3>"],
        "needs 24576 bytes of workgroup memory, over the 16384 every WebGPU device offers",
    );
    assert_one_line_error(
        &["expand", "block::striped_to_blocked<u32, 64, 65>"],
        "items 65 is out of range 1..=64",
    );
    assert_one_line_error(
        &["expand", "block::load_direct_blocked<u32, 64, 3, 5>"],
        "template argument 4 must be the name of a module-scope WGSL array of T, got `5`",
    );
    assert_one_line_error(
        &[
            "expand",
            "block::load_transpose",
            "--dtype",
            "u32",
            "--block-dim",
            "64",
            "--const",
            "items=3",
        ],
        "`block::load_transpose` needs --array",
    );
    let out = wavekit(&["expand", "block::blocked_to_striped<f32, 64, 3>"]);
    assert!(out.status.success());
    let wgsl = String::from_utf8(out.stdout).expect("utf-8");
    assert!(wgsl.ends_with("// workgroup memory: 768 bytes\n"), "{wgsl}");
    assert_eq!(
        wavekit::catalog::exchange_shared_bytes(64, 3, 4),
        768,
        "the catalog formula agrees with naga's layout"
    );
}

#[test]
fn block_sorts_and_histograms_are_checked_at_expansion() {
    assert_one_line_error(
        &[
            "expand",
            "block::radix_sort_keys<u32, 96, 3>",
            "--subgroup-size",
            "32",
        ],
        "block_dim 96 must be a power of two in 2..=1024",
    );
    assert_one_line_error(
        &[
            "expand",
            "block::radix_sort_pairs<u32, u32, 256, 16>",
            "--subgroup-size",
            "32",
        ],
        "needs 26688 bytes of workgroup memory, over the 16384 every WebGPU device offers",
    );
    assert_one_line_error(
        &[
            "expand",
            "block::histogram_sort<96, 3, 5, bins>",
            "--subgroup-size",
            "32",
        ],
        "block_dim 96 must be a power of two and a multiple of the subgroup size 32",
    );
    let out = wavekit(&[
        "expand",
        "block::radix_sort_keys<u32, 256, 4>",
        "--subgroup-size",
        "32",
    ]);
    assert!(out.status.success());
    let wgsl = String::from_utf8(out.stdout).expect("utf-8");
    assert!(
        wgsl.ends_with("// workgroup memory: 14400 bytes\n"),
        "{wgsl}"
    );
    assert_eq!(
        wavekit::catalog::radix_sort_shared_bytes(256, 4, 32, 32),
        14400,
        "the catalog formula agrees with naga's layout"
    );
}

#[test]
fn merge_sorts_are_checked_at_expansion() {
    assert_one_line_error(
        &[
            "expand",
            "block::merge_sort_keys<u32, 96, 3, less>",
            "--subgroup-size",
            "32",
        ],
        "block_dim 96 must be a power of two (each merge round pairs runs of 2^r threads)",
    );
    assert_one_line_error(
        &[
            "expand",
            "block::merge_sort_pairs<u64, u64, 256, 5, less>",
            "--subgroup-size",
            "32",
        ],
        "a merge sort over block_dim 256 with 5 items per thread needs 20480 bytes of workgroup \
         memory, over the 16384 every WebGPU device offers",
    );
    assert_one_line_error(
        &[
            "expand",
            "merge_sort_keys<u32, 17, less>",
            "--subgroup-size",
            "32",
        ],
        "items 17 is out of range 1..=16",
    );
    assert_one_line_error(
        &[
            "expand",
            "merge_sort_pairs_tiled<u32, f32, 4, 3, less>",
            "--subgroup-size",
            "8",
        ],
        "log2_size 4 is out of range 0..=3",
    );
    let out = wavekit(&[
        "expand",
        "block::merge_sort_pairs<u64, u64, 256, 4, less>",
        "--subgroup-size",
        "32",
    ]);
    assert!(out.status.success(), "16384 bytes fit");
    assert_eq!(
        wavekit::catalog::merge_sort_shared_bytes(256, 4, 8, 8),
        16384
    );
}

#[test]
fn expand_reports_workgroup_memory() {
    let out = wavekit(&["expand", "block::radix_rank_match_atomic_or<256, 8, 0, 8>"]);
    assert!(out.status.success());
    let wgsl = String::from_utf8(out.stdout).expect("utf-8");
    // 8 KiB of match words, 2 x 1 KiB of bins and prefix, 2 x 8 scan partials.
    assert!(
        wgsl.ends_with("// workgroup memory: 10304 bytes\n"),
        "{wgsl}"
    );
    assert_eq!(
        wavekit::catalog::radix_shared_bytes(256, 32, 32),
        10304,
        "the catalog formula agrees with naga's layout"
    );
}

#[test]
fn export_refuses_an_unknown_dtype_group_and_a_bad_subgroup_size() {
    assert_one_line_error(
        &[
            "export",
            "naga-oil",
            "--subgroup-size",
            "32",
            "--dtype-group",
            "core,f128",
        ],
        "--dtype-group `f128`: unknown dtype group (expected core, f16 or wide)",
    );
    // The old spelling still parses.
    assert_one_line_error(
        &[
            "export",
            "naga-oil",
            "--subgroup-size",
            "32",
            "--family",
            "wide",
            "--family",
            "f128",
        ],
        "unknown dtype group",
    );
    assert_one_line_error(&["export", "naga-oil", "--subgroup-size", "48"], "48");
}

#[test]
fn export_writes_a_naga_oil_module() {
    let out = wavekit(&["export", "naga-oil", "--subgroup-size", "16"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(text.starts_with("#define_import_path wavekit::subgroup\n"));
    assert!(text.contains("fn wk_sg_reduce_add_tiled_f32_3("));
    let mut code = text.lines().filter(|l| !l.trim_start().starts_with("//"));
    assert!(
        code.all(|l| !l.contains("__")),
        "naga_oil needs single underscores"
    );
}

/// Without a driver, the native back ends say which runtime is missing.
#[test]
fn native_backends_without_a_driver_say_what_is_missing() {
    for (args, library) in [
        (&["check", "--backend", "cuda"][..], "libcuda.so"),
        (
            &["check", "--backend", "hip", "--arch", "gfx942"][..],
            "libamdhip64.so",
        ),
    ] {
        let out = wavekit(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.status.success() || !stderr.contains(library) {
            // A machine with that runtime installed: nothing to check here.
            assert!(
                out.status.success() || !stderr.is_empty(),
                "{args:?}: failed without a message"
            );
            continue;
        }
        assert_one_line_error(args, library);
    }
}

/// `--arch` is the one flag that names an AMD architecture (issue 34): the
/// HIP back end needs it, a bad name gets the list, and another back end
/// refuses it, all before a device is opened (so on any machine).
#[test]
fn arch_is_needed_by_hip_checked_and_refused_elsewhere() {
    let names = "gfx90a, gfx942, gfx1030, gfx1100, gfx1200";
    for command in ["check", "run"] {
        // `run` checks its device flags before it reads the shader.
        let base: &[&str] = if command == "run" {
            &["run", "no-such-shader.wgsl"]
        } else {
            &["check"]
        };
        let with = |extra: &[&'static str]| [base, extra].concat();
        assert_one_line_error(
            &with(&["--backend", "hip"]),
            &format!("error: --backend hip needs --arch, one of {names}"),
        );
        assert_one_line_error(
            &with(&["--backend", "hip", "--arch", "gfx908"]),
            &format!("error: --arch gfx908: expected one of {names}"),
        );
        assert_one_line_error(
            &with(&["--backend", "cuda", "--arch", "gfx942"]),
            "error: --arch gfx942 chooses HIP code objects: it applies to --backend hip and \
             --lang hsaco, not --backend cuda",
        );
        assert_one_line_error(&with(&["--arch", "gfx1100"]), "not a wgpu adapter");
        // The wave size is HIP's, and one the architecture runs.
        assert_one_line_error(
            &with(&["--backend", "vulkan", "--subgroup-size", "64"]),
            "error: --subgroup-size 64 chooses the wave size of --backend hip, not of \
             --backend vulkan",
        );
    }
    assert_one_line_error(
        &[
            "check",
            "--backend",
            "hip",
            "--arch",
            "gfx942",
            "--subgroup-size",
            "32",
        ],
        "gfx942 runs waves of [64] lanes, not 32",
    );
}

/// Every flag that takes several values is repeated or given them
/// comma-separated, the two alike (issue 34): the filters are checked
/// before an adapter is opened, so a bad value in either spelling is the
/// same error.
#[test]
fn list_flags_take_repeats_and_commas_alike() {
    for args in [
        &["check", "--op", "reduce_add", "--op", "shufle_xor"][..],
        &["check", "--op", "reduce_add,shufle_xor"][..],
    ] {
        assert_one_line_error(
            args,
            "unknown op `shufle_xor` (did you mean `shuffle_xor`?)",
        );
    }
    for args in [
        &["check", "--dtype", "u32", "--dtype", "f23"][..],
        &["check", "--dtype", "u32,f23"][..],
    ] {
        assert_one_line_error(args, "unknown dtype `f23`");
    }
    for args in [
        &["check", "--lowering", "builtin", "--lowering", "fast"][..],
        &["check", "--lowering", "builtin,fast"][..],
    ] {
        assert_one_line_error(args, "fast");
    }
    for args in [
        &[
            "expand",
            "ballot_u64",
            "--without",
            "f16",
            "--without",
            "int64",
        ][..],
        &["expand", "ballot_u64", "--without", "f16,int64"][..],
    ] {
        assert_one_line_error(args, "`ballot_u64` needs shader-int64");
    }
    // Named constants, repeated or comma-separated, print the same WGSL.
    let instance = "block::radix_rank_match_atomic_or";
    let repeated = wavekit(&[
        "expand",
        instance,
        "--block-dim",
        "256",
        "--const",
        "radix_bits=8",
        "--const",
        "bit_start=0",
        "--const",
        "num_bits=8",
    ]);
    let commas = wavekit(&[
        "expand",
        instance,
        "--block-dim",
        "256",
        "--const",
        "radix_bits=8,bit_start=0,num_bits=8",
    ]);
    assert!(
        repeated.status.success(),
        "{}",
        String::from_utf8_lossy(&repeated.stderr)
    );
    assert!(!repeated.stdout.is_empty());
    assert_eq!(repeated.stdout, commas.stdout);
    // Export's dtype groups, both ways.
    let export = |groups: &[&str]| {
        let out = wavekit(&[&["export", "naga-oil", "--subgroup-size", "8"], groups].concat());
        assert!(out.status.success(), "{groups:?}");
        out.stdout
    };
    assert_eq!(
        export(&["--dtype-group", "core", "--dtype-group", "wide"]),
        export(&["--dtype-group", "core,wide"])
    );
}

/// `gen-snippets --verify` compares the snippet files (`--check`, its old
/// spelling, still works): "check" is the conformance suite.
#[test]
fn gen_snippets_verify_reports_stale_files() {
    let root = std::env::temp_dir().join(format!("wavekit-cli-snippets-{}", std::process::id()));
    std::fs::create_dir_all(&root).expect("temp dir");
    for flag in ["--verify", "--check"] {
        let out = wavekit(&["gen-snippets", "--root", root.to_str().unwrap(), flag]);
        assert!(!out.status.success(), "{flag}: an empty root is stale");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.starts_with("error: stale snippets (run `wavekit gen-snippets`): wgsl/"),
            "{flag}: {stderr}"
        );
    }
    assert_eq!(
        std::fs::read_dir(&root).unwrap().count(),
        0,
        "--verify wrote nothing"
    );
    let _ = std::fs::remove_dir_all(&root);
}

/// `adapters` lists the wgpu adapters and then the CUDA and HIP devices;
/// where a runtime is missing (as on a machine without GPUs), a line says
/// so and the command still succeeds (issue 34).
#[test]
fn adapters_lists_cuda_and_hip_devices_or_why_there_are_none() {
    let out = wavekit(&["adapters"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    if cfg!(feature = "native") {
        for api in ["CUDA", "HIP"] {
            let lines: Vec<&str> = stdout
                .lines()
                .filter(|l| {
                    l.starts_with(&format!("{api} device "))
                        || l.starts_with(&format!("{api}: none found ("))
                })
                .collect();
            assert!(!lines.is_empty(), "no {api} line: {stdout}");
            // None found: one line naming the missing library.
            let library = if api == "CUDA" {
                "libcuda.so"
            } else {
                "libamdhip64.so"
            };
            if lines[0].starts_with(&format!("{api}: none found")) {
                assert_eq!(lines.len(), 1, "{stdout}");
                assert!(lines[0].contains(library), "{stdout}");
            } else {
                assert!(
                    lines[0].contains(&format!("--backend {} --device 0", api.to_lowercase())),
                    "{stdout}"
                );
            }
        }
    } else {
        assert!(stdout.contains("CUDA, HIP: not built in"), "{stdout}");
    }
}

/// `check --op` / `--dtype` filters that select nothing are refused before an
/// adapter is opened, with the closest name (issue 23: it ran no case and
/// printed `FAIL: 0/0`).
#[test]
fn check_refuses_an_unknown_op_or_dtype_with_a_suggestion() {
    assert_one_line_error(
        &["check", "--op", "shufle_xor"],
        "error: unknown op `shufle_xor` (did you mean `shuffle_xor`?)",
    );
    assert_one_line_error(
        &["check", "--op", "nonsense"],
        "error: unknown op `nonsense`: no op's name contains it (`wavekit list` shows the catalog)",
    );
    assert_one_line_error(
        &["check", "--op", "reduce_add", "--dtype", "f23"],
        "error: unknown dtype `f23` (did you mean `f32`?) (expected one of",
    );
    assert_one_line_error(
        &["check", "--dtype", "float"],
        "error: unknown dtype `float` (expected one of i32, u32, f32, f16, i64, u64, f64)",
    );
}

/// Subgroup size ranges say what is wrong with them (issue 23: a reversed
/// range was reported as "subgroup size 64 is not a power of two").
#[test]
fn subgroup_range_errors_say_what_is_wrong() {
    let range = |range: &str, needle: &str| {
        assert_one_line_error(&["expand", "ballot", "--subgroup-range", range], needle);
    };
    range(
        "64..=8",
        "error: subgroup size range 64..=8 is empty: its minimum is above its maximum \
         (did you mean 8..=64?)",
    );
    range(
        "8..64",
        "error: subgroup range `8..64`: write MIN..=MAX: both sizes are included",
    );
    range(
        "..=64",
        "error: subgroup range `..=64`: the minimum is missing: expected MIN..=MAX",
    );
    range(
        "8..=x",
        "error: subgroup range `8..=x`: the maximum `x` is not a number",
    );
    range("8-64", "error: subgroup range `8-64`: expected MIN..=MAX");
    range(
        "2..=64",
        "error: subgroup size 2 is not one of 4, 8, 16, 32, 64, 128",
    );
    range(
        "8..=48",
        "error: subgroup size 48 is not one of 4, 8, 16, 32, 64, 128",
    );
    assert_one_line_error(
        &["expand", "ballot", "--subgroup-size", "256"],
        "error: subgroup size 256 is not one of 4, 8, 16, 32, 64, 128",
    );
}

/// A shader in a file of its own under the temporary directory.
fn shader_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("wavekit-cli-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write shader");
    path
}

/// Diagnostics rendered against the shader (the composer's and naga's) are
/// printed with one `error:` prefix (issue 23: `error: error: ...`).
#[test]
fn shader_diagnostics_have_one_error_prefix() {
    let cases = [
        (
            "unknown_op.wgsl",
            "#import wavekit::subgroup as sg\n@compute @workgroup_size(64)\n\
             fn main() {\n    let x = sg::reduce_ad<u32>(1u);\n}\n",
            "error: unknown op `reduce_ad` (did you mean `reduce_add`?)",
            "unknown_op.wgsl:4:17",
        ),
        (
            "syntax.wgsl",
            "#import wavekit::subgroup as sg\n@compute @workgroup_size(64)\n\
             fn main() {\n    let x = sg::reduce_all_add<u32>(1u) + ;\n}\n",
            "error: expected expression",
            "syntax.wgsl:4:43",
        ),
    ];
    for (name, text, headline, location) in cases {
        let path = shader_file(name, text);
        let out = wavekit(&["emit", path.to_str().unwrap(), "--lang", "wgsl"]);
        assert!(!out.status.success(), "{name} should fail");
        let stderr = String::from_utf8(out.stderr).expect("utf-8");
        assert!(stderr.starts_with(headline), "{name}: {stderr}");
        assert_eq!(stderr.matches("error:").count(), 1, "{name}: {stderr}");
        assert!(stderr.contains(location), "{name}: {stderr}");
    }
}

/// Without `XDG_RUNTIME_DIR`, the command makes a private one under the
/// temporary directory, so Mesa prints no `XDG_RUNTIME_DIR is invalid or
/// not set` lines while adapters are enumerated (issue 23).
#[cfg(target_os = "linux")]
#[test]
fn adapters_without_xdg_runtime_dir_print_no_mesa_errors() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let tmp = std::env::temp_dir().join(format!("wavekit-cli-xdg-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let out = Command::new(env!("CARGO_BIN_EXE_wavekit"))
        .arg("adapters")
        .env_remove("XDG_RUNTIME_DIR")
        .env("TMPDIR", &tmp)
        .output()
        .expect("wavekit runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("XDG_RUNTIME_DIR"), "{stderr}");
    let uid = std::fs::metadata("/proc/self").unwrap().uid();
    let made = std::fs::metadata(tmp.join(format!("wavekit-runtime-{uid}")))
        .expect("the private runtime directory exists");
    assert!(made.is_dir());
    assert_eq!(made.permissions().mode() & 0o777, 0o700);
    // A variable that is set is left alone: no directory is made.
    let kept = tmp.join("kept");
    std::fs::create_dir_all(&kept).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_wavekit"))
        .args(["expand", "ballot"])
        .env("XDG_RUNTIME_DIR", "/nonexistent-runtime")
        .env("TMPDIR", &kept)
        .output()
        .expect("wavekit runs");
    assert!(out.status.success());
    assert_eq!(std::fs::read_dir(&kept).unwrap().count(), 0);
    let _ = std::fs::remove_dir_all(&tmp);
}

/// Without a Vulkan driver (the loader pointed at a driver file that does
/// not exist), a run is one line saying which driver to install, without
/// the loader's own messages, and `adapters` says the same in one line.
#[test]
fn vulkan_without_a_driver_says_what_is_missing() {
    let no_driver = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_wavekit"))
            .args(args)
            .env("VK_DRIVER_FILES", "/nonexistent/icd.json")
            .env("VK_ICD_FILENAMES", "/nonexistent/icd.json")
            .output()
            .expect("wavekit runs")
    };
    let shader =
        std::env::temp_dir().join(format!("wavekit-no-driver-{}.wgsl", std::process::id()));
    std::fs::write(&shader, "@compute @workgroup_size(1) fn main() {}\n").unwrap();
    let out = no_driver(&["run", shader.to_str().unwrap(), "--backend", "vulkan"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: no GPU adapter found on vulkan: no driver answered")
            && stderr.contains("mesa-vulkan-drivers"),
        "{stderr}"
    );
    let out = no_driver(&["adapters"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.starts_with("wgpu (Vulkan, Metal, DX12): none found (no driver answered"),
        "{stdout}"
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `wavekit check --skip-family` takes a family's name as `wavekit list`
/// shows it; another is refused before an adapter is opened.
#[test]
fn an_unknown_family_to_skip_is_refused() {
    assert_one_line_error(
        &["check", "--skip-family", "block exchanges"],
        "--skip-family `block exchanges`: expected one of",
    );
}

#[test]
fn warp_striped_exchanges_are_checked_at_expansion() {
    assert_one_line_error(
        &[
            "expand",
            "block::blocked_to_warp_striped<u32, 48, 2>",
            "--subgroup-size",
            "32",
        ],
        "block_dim 48 is not a multiple of the subgroup size 32",
    );
    assert_one_line_error(
        &[
            "expand",
            "block::load_warp_transpose<f32, 256, 32, input>",
            "--subgroup-size",
            "32",
        ],
        "needs 32768 bytes of workgroup memory, over the 16384 every WebGPU device offers",
    );
    let out = wavekit(&[
        "expand",
        "block::blocked_to_warp_striped<u32, 128, 4>",
        "--subgroup-size",
        "32",
    ]);
    assert!(out.status.success());
    let wgsl = String::from_utf8(out.stdout).expect("utf-8");
    assert!(
        wgsl.ends_with("// workgroup memory: 2048 bytes\n"),
        "{wgsl}"
    );
}

#[test]
fn vectorized_loads_take_whole_words_of_32_bit_vectors() {
    assert_one_line_error(
        &["expand", "block::load_vectorized<u32, 64, 6, words>"],
        "`block::load_vectorized`: items 6 is not a multiple of 4: each thread's items are \
         whole vec4 words of A",
    );
    assert_one_line_error(
        &["expand", "block::store_vectorized<f32, 64, 2, words>"],
        "items 2 is out of range 4..=64",
    );
    assert_one_line_error(
        &["expand", "block::load_vectorized<f64, 64, 4, words>"],
        "`load_vectorized` is not defined for f64 (allowed dtypes: u32, i32, f32)",
    );
    assert_one_line_error(
        &["expand", "block::store_vectorized<i32, 64, 8, 7>"],
        "template argument 4 must be the name of a module-scope WGSL array of vec4<T>, got `7`",
    );
    // The array the caller declares is one of vectors.
    let out = wavekit(&["expand", "block::load_vectorized<f32, 64, 8, words>"]);
    assert!(out.status.success());
    let wgsl = String::from_utf8(out.stdout).expect("utf-8");
    assert!(
        wgsl.ends_with(
            "// not validated alone: needs `var<...> words: array<vec4<f32>, ...>` from your \
             module\n"
        ),
        "{wgsl}"
    );
}

/// `network` prints the host's grain network as WGSL; a segment or grain it
/// has no network for is one error line.
#[test]
fn network_prints_the_grain_sort_or_names_the_bad_size() {
    let out = wavekit(&["network", "--segment", "16"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(
        text.starts_with("fn sort_grains(q: u32, g: Grains) -> Grains {"),
        "{text}"
    );
    // Segments of 16 in grains of 4: 3 stages across lanes, 2 shuffles a
    // register of 4.
    assert_eq!(text.matches("sg::shuffle_xor").count(), 24, "{text}");
    for (segment, grain, needle) in [
        (
            "24",
            "4",
            "segments of 24: segments are 2, 4, 8, 16 or 32 elements",
        ),
        (
            "64",
            "4",
            "segments of 64: segments are 2, 4, 8, 16 or 32 elements",
        ),
        (
            "16",
            "32",
            "grains of 32: a grain is a power of two from 2 to the segment (16)",
        ),
        ("8", "3", "grains of 3"),
    ] {
        assert_one_line_error(&["network", "--segment", segment, "--grain", grain], needle);
    }
    // SegmentedSort's network: segments of up to 64 in grains of 8, six
    // stages across lanes (each only inside a segment's lanes), and each size
    // past the grain skipped by subgroups whose segments are shorter; the
    // emulated form runs every stage.
    let out = wavekit(&["network", "--segmented"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(
        text.starts_with(
            "fn sort_segment_grains(q: u32, lanes: u32, widest: u32, g: Grains) -> Grains {"
        ),
        "{text}"
    );
    assert_eq!(text.matches("sg::shuffle_xor").count(), 6 * 2 * 8, "{text}");
    assert_eq!(text.matches("&& lanes > 4u").count(), 8, "{text}");
    assert_eq!(text.matches("if widest >= ").count(), 3, "{text}");
    let out = wavekit(&["network", "--segmented", "--emulated", "--grain", "16"]);
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(
        out.status.success() && !text.contains("widest >="),
        "{text}"
    );
    assert_one_line_error(
        &["network", "--segmented", "--grain", "128"],
        "a segmented sort's network for grains of 128: a grain is a power of two from 2 to 64",
    );
}
