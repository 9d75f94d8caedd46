//! `wavekit run`: a composed shader on lavapipe with .npy and raw buffers,
//! a kernel that sorts a `read_write` buffer in place in bind group 1 with
//! a uniform beside it, and bad buffers and `--out`s refused before
//! dispatch with one error line; the example kernel that sorts 256-key
//! tiles with `block::radix_sort_keys`.

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

/// Runs `wavekit` with `args` and asserts it succeeds.
fn succeeds(args: &[&str]) {
    let out = wavekit(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A `.npy` file's element type (`'<u4'`) and elements.
fn read_npy<T: npyz::Deserialize>(path: &std::path::Path) -> (String, Vec<T>) {
    let bytes = std::fs::read(path).unwrap();
    let file = npyz::NpyFile::new(&bytes[..]).unwrap();
    (file.dtype().descr(), file.into_vec().unwrap())
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

/// Runs [`SHADER`] (two workgroups of a block scan) on 128 values
/// `i % modulo` written to `NAME-input.npy`, with `outs` as its `--out`
/// flags' values; checks that it succeeded and returns the values.
fn run_block_scan(name: &str, modulo: u32, outs: &[String]) -> Vec<f32> {
    let shader = scratch(&format!("{name}.wgsl"));
    std::fs::write(&shader, SHADER).unwrap();
    let input = scratch(&format!("{name}-input.npy"));
    let values: Vec<f32> = (0..128).map(|i| (i % modulo) as f32).collect();
    npyz::to_file_1d(&input, values.iter().copied()).unwrap();
    let bind = format!("0:0={}", input.display());
    let mut args = vec![
        "run",
        shader.to_str().unwrap(),
        "--workgroups",
        "2",
        "--bind",
        &bind,
        "--bind",
        "0:1=out:f32:128",
        "--bind",
        "0:2=out:f32:2",
    ];
    for out in outs {
        args.extend(["--out", out.as_str()]);
    }
    let out = wavekit(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    values
}

#[test]
fn runs_a_composed_shader_from_npy_to_npy() {
    let (scan, totals) = (scratch("scan.npy"), scratch("totals.bin"));
    let outs = [&scan, &totals].map(|p| p.display().to_string());
    let values = run_block_scan("scan", 5, &outs);
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

/// An odd-even transposition sort of `keys[..params.n]` by one workgroup,
/// in place, in bind group 1 (group 0 is empty) with a uniform.
const SORT: &str = "struct Params {
    n: u32,
}

@group(1) @binding(0) var<storage, read_write> keys: array<u32>;
@group(1) @binding(1) var<uniform> params: Params;

const THREADS: u32 = 64u;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) t: u32) {
    let n = min(params.n, arrayLength(&keys));
    for (var round = 0u; round < n; round++) {
        for (var i = 2u * t + (round & 1u); i + 1u < n; i += 2u * THREADS) {
            let a = keys[i];
            let b = keys[i + 1u];
            if (a > b) {
                keys[i] = b;
                keys[i + 1u] = a;
            }
        }
        storageBarrier();
    }
}
";

/// The sort kernel, 300 pseudo-random keys as `.npy` and `n` as a raw
/// uniform; returns (shader, keys.npy, params.bin, the keys).
fn sort_inputs(tag: &str) -> (PathBuf, PathBuf, PathBuf, Vec<u32>) {
    let shader = scratch(&format!("{tag}-sort.wgsl"));
    std::fs::write(&shader, SORT).unwrap();
    let mut state = 0x2545_f491_u32;
    let keys: Vec<u32> = (0..300)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state % 1000
        })
        .collect();
    let keys_path = scratch(&format!("{tag}-keys.npy"));
    npyz::to_file_1d(&keys_path, keys.iter().copied()).unwrap();
    let params = scratch(&format!("{tag}-params.bin"));
    std::fs::write(&params, (keys.len() as u32).to_le_bytes()).unwrap();
    (shader, keys_path, params, keys)
}

#[test]
fn sorts_a_read_write_buffer_in_place_in_group_1_with_a_uniform() {
    let (shader, keys_path, params, keys) = sort_inputs("ok");
    let sorted = scratch("sorted.npy");
    succeeds(&[
        "run",
        shader.to_str().unwrap(),
        "--bind",
        &format!("1:0={}", keys_path.display()),
        "--bind",
        &format!("1:1={}", params.display()),
        "--out",
        &format!("1:0={}", sorted.display()),
    ]);
    let bytes = std::fs::read(&sorted).unwrap();
    let file = npyz::NpyFile::new(&bytes[..]).unwrap();
    assert_eq!(file.shape(), &[keys.len() as u64]);
    let got: Vec<u32> = file.into_vec().unwrap();
    let mut want = keys.clone();
    want.sort_unstable();
    assert_ne!(keys, want, "the input was sorted already");
    assert_eq!(got, want);
    // The input file is untouched.
    let bytes = std::fs::read(&keys_path).unwrap();
    let input: Vec<u32> = npyz::NpyFile::new(&bytes[..]).unwrap().into_vec().unwrap();
    assert_eq!(input, keys);
}

/// Asserts a failed run whose stderr has exactly one `error:` line, which
/// contains `needle`, and no panic.
fn assert_one_error_line(args: &[&str], needle: &str) {
    let out = wavekit(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} should fail");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 1, "{args:?}: {stderr}");
    assert!(errors[0].contains(needle), "{args:?}: {stderr}");
}

#[test]
fn refuses_bad_in_place_and_uniform_bindings_with_one_line() {
    let (shader, keys_path, params, _) = sort_inputs("bad");
    let shader = shader.to_str().unwrap();
    let keys = format!("1:0={}", keys_path.display());
    let params = format!("1:1={}", params.display());
    let wide = scratch("bad-wide-params.bin");
    std::fs::write(&wide, [0u8; 8]).unwrap();
    let wide = format!("1:1={}", wide.display());
    let cases: [(Vec<&str>, &str); 6] = [
        (
            vec!["--bind", &keys, "--bind", &wide],
            "binding 1:1 (`params`) is a uniform of exactly 4 bytes (its type's size), the \
             buffer has 8",
        ),
        (
            vec!["--bind", &keys],
            "the shader's binding 1:1 (`params`) has no --bind",
        ),
        (
            vec!["--bind", &keys, "--bind", &params, "--out", "1:1=p.npy"],
            "--out `1:1=p.npy`: binding 1:1 (`params`) is a uniform: only a \
             `var<storage, read_write>` binding is read back",
        ),
        (
            vec!["--bind", &keys, "--bind", &params, "--out", "2:0=x.npy"],
            "--out `2:0=x.npy`: the shader has no buffer at 2:0",
        ),
        (
            vec!["--bind", &keys, "--bind", &params, "--bind", &keys],
            "1:0 (`keys`) is already bound by --bind",
        ),
        (
            vec!["--bind", &keys, "--bind", &params, "--out", "rest.npy"],
            "1 plain --out files for 0 output bindings",
        ),
    ];
    for (extra, needle) in cases {
        let mut args = vec!["run", shader];
        args.extend(extra);
        assert_one_error_line(&args, needle);
    }
    // An `--out` naming a read-only storage binding.
    let scan = scratch("bad-scan.wgsl");
    std::fs::write(&scan, SHADER).unwrap();
    let input = scratch("bad-input.npy");
    npyz::to_file_1d(&input, (0..128).map(|i| i as f32)).unwrap();
    assert_one_error_line(
        &[
            "run",
            scan.to_str().unwrap(),
            "--bind",
            &format!("0:0={}", input.display()),
            "--bind",
            "0:1=out:f32:128",
            "--bind",
            "0:2=out:f32:2",
            "--out",
            "0:0=back.npy",
        ],
        "--out `0:0=back.npy`: binding 0:0 (`input`) is read-only in the shader: only a \
         `var<storage, read_write>` binding is read back",
    );
}

/// The positional `--out` and `--out G:B=FILE` together: the slot form
/// takes its binding, the plain files the other outputs in order.
#[test]
fn plain_and_slot_outs_mix() {
    let (scan, totals) = (scratch("mix-scan.npy"), scratch("mix-totals.npy"));
    let outs = [
        format!("0:2={}", totals.display()),
        scan.display().to_string(),
    ];
    let values = run_block_scan("mix", 3, &outs);
    let read = |path: &PathBuf| -> Vec<f32> {
        let bytes = std::fs::read(path).unwrap();
        npyz::NpyFile::new(&bytes[..]).unwrap().into_vec().unwrap()
    };
    let want: Vec<f32> = values.chunks(64).map(|c| c.iter().sum()).collect();
    assert_eq!(read(&totals), want);
    assert_eq!(read(&scan).len(), 128);
    assert_eq!(read(&scan)[63], want[0]);
}

/// Doubles `keys` in place: an `array<f32>` read_write binding.
const DOUBLE: &str = "@group(0) @binding(0) var<storage, read_write> keys: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x < arrayLength(&keys)) {
        keys[id.x] = keys[id.x] * 2.0;
    }
}
";

/// Issue 37: `--bind 0:0=keys.bin --out 0:0=keys.npy` on a raw input
/// takes the `.npy`'s element type from the binding's `array<f32>`.
#[test]
fn a_raw_input_written_as_npy_takes_the_bindings_element_type() {
    let dir = scratch("issue37");
    std::fs::create_dir_all(&dir).unwrap();
    let shader = dir.join("double.wgsl");
    std::fs::write(&shader, DOUBLE).unwrap();
    let values: Vec<f32> = (0..100).map(|i| i as f32 * 0.25 - 3.0).collect();
    let raw: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    std::fs::write(dir.join("keys.bin"), &raw).unwrap();
    // Exactly the command line, relative names and all.
    let out = Command::new(env!("CARGO_BIN_EXE_wavekit"))
        .current_dir(&dir)
        .args([
            "run",
            "double.wgsl",
            "--workgroups",
            "2",
            "--bind",
            "0:0=keys.bin",
            "--out",
            "0:0=keys.npy",
            "--adapter",
            "llvmpipe",
        ])
        .output()
        .expect("wavekit runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(dir.join("keys.npy")).unwrap();
    let file = npyz::NpyFile::new(&bytes[..]).unwrap();
    assert_eq!(file.dtype().descr(), "'<f4'");
    assert_eq!(file.shape(), &[values.len() as u64]);
    let got: Vec<f32> = file.into_vec().unwrap();
    let want: Vec<f32> = values.iter().map(|v| v * 2.0).collect();
    assert_eq!(got, want);
    // The raw input is untouched.
    assert_eq!(std::fs::read(dir.join("keys.bin")).unwrap(), raw);
}

/// The element type of a raw input comes from integer bindings and vectors
/// too; a binding whose type mixes scalars gives none, and says why.
#[test]
fn a_raw_inputs_npy_element_type_follows_the_declaration() {
    let (shader, _, params, _) = sort_inputs("raw");
    let raw_keys = scratch("raw-keys.bin");
    let keys: Vec<u32> = vec![7, 3, 9, 1, 4];
    std::fs::write(
        &raw_keys,
        keys.iter()
            .flat_map(|k| k.to_le_bytes())
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let sorted = scratch("raw-sorted.npy");
    succeeds(&[
        "run",
        shader.to_str().unwrap(),
        "--bind",
        &format!("1:0={}", raw_keys.display()),
        "--bind",
        &format!("1:1={}", params.display()),
        "--out",
        &format!("1:0={}", sorted.display()),
    ]);
    let (descr, got) = read_npy::<u32>(&sorted);
    assert_eq!(descr, "'<u4'");
    assert_eq!(got, [1, 3, 4, 7, 9]);

    // vec2<i32> elements: a .npy of i32, two per element.
    let pairs = scratch("raw-pairs.wgsl");
    std::fs::write(
        &pairs,
        "@group(0) @binding(0) var<storage, read_write> v: array<vec2<i32>>;
@compute @workgroup_size(1)
fn main() {
    v[0] = -v[0];
}
",
    )
    .unwrap();
    let raw = scratch("raw-pairs.bin");
    std::fs::write(&raw, [5i32, -6, 7, 8].map(i32::to_le_bytes).concat()).unwrap();
    let back = scratch("raw-pairs.npy");
    succeeds(&[
        "run",
        pairs.to_str().unwrap(),
        "--bind",
        &format!("0:0={}", raw.display()),
        "--out",
        &format!("0:0={}", back.display()),
    ]);
    let (descr, got) = read_npy::<i32>(&back);
    assert_eq!(descr, "'<i4'");
    assert_eq!(got, [-5, 6, 7, 8]);

    // A struct of a u32 and an f32 has no one element type.
    let mixed = scratch("raw-mixed.wgsl");
    std::fs::write(
        &mixed,
        "struct Pair {
    key: u32,
    weight: f32,
}
@group(0) @binding(0) var<storage, read_write> pairs: array<Pair>;
@compute @workgroup_size(1)
fn main() {
    pairs[0].key = 1u;
}
",
    )
    .unwrap();
    let raw = scratch("raw-mixed.bin");
    std::fs::write(&raw, [0u8; 16]).unwrap();
    let (bind, out) = (
        format!("0:0={}", raw.display()),
        format!("0:0={}", scratch("raw-mixed.npy").display()),
    );
    assert_one_error_line(
        &[
            "run",
            mixed.to_str().unwrap(),
            "--bind",
            &bind,
            "--out",
            &out,
        ],
        "binding 0:0 (`pairs`) was read from a raw file, and its declaration gives no one \
         element type for a .npy (`Pair` mixes u32 and f32): bind a .npy, or write raw bytes",
    );
    // Raw bytes out need no element type.
    let raw_out = scratch("raw-mixed-out.bin");
    succeeds(&[
        "run",
        mixed.to_str().unwrap(),
        "--bind",
        &bind,
        "--out",
        &format!("0:0={}", raw_out.display()),
    ]);
    let back = std::fs::read(&raw_out).unwrap();
    assert_eq!(back.len(), 16);
    assert_eq!(back[..4], 1u32.to_le_bytes());
}

/// A kernel that would run for hours on lavapipe (65535 × 16 workgroups of
/// 64 invocations, 60000 steps each).
const SPIN: &str = "@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    var x = id.x;
    for (var i = 0u; i < 60000u; i++) {
        x = x * 1664525u + 1013904223u;
    }
    out[id.x % 64u] = x;
}
";

/// `--timeout`: a kernel still running after the limit is an error naming
/// the entry point and the limit, and wavekit exits at once (it does not
/// wait for the device when it drops it). The parent gives it 60 s.
#[test]
fn a_kernel_past_the_timeout_is_an_error_and_wavekit_exits() {
    let shader = scratch("spin.wgsl");
    std::fs::write(&shader, SPIN).unwrap();
    let started = std::time::Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_wavekit"))
        .args(["run", shader.to_str().unwrap(), "--adapter", "llvmpipe"])
        .args(["--workgroups", "65535,16", "--timeout", "1"])
        .args(["--bind", "0:0=out:u32:64"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("wavekit runs");
    while child.try_wait().expect("waits").is_none() {
        if started.elapsed() > std::time::Duration::from_secs(60) {
            child.kill().expect("kills");
            panic!("wavekit run --timeout 1 still running after 60 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("its output");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("running `main`") && stderr.contains("not finished after 1s"),
        "{stderr}"
    );
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
    eprintln!("timed out and exited in {:.1?}", started.elapsed());
}

#[test]
fn a_bad_timeout_is_refused() {
    for bad in ["--timeout=-1", "--timeout=nan", "--timeout=inf"] {
        assert_one_error_line(&["run", "k.wgsl", bad], "--timeout");
    }
}

/// The example kernel `examples/shaders/sort_tiles.wgsl`: 1000 keys in 4
/// tiles of 256 (the last one partial), each sorted by one workgroup with
/// `block::radix_sort_keys`.
#[test]
fn the_example_sorts_256_key_tiles_with_block_radix_sort() {
    let shader = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/shaders/sort_tiles.wgsl"
    );
    let mut state = 0x9e37_79b9_u32;
    let mut keys: Vec<u32> = (0..1000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state
        })
        .collect();
    // Keys equal to the padding of the partial tile, and runs of equals.
    keys[900] = u32::MAX;
    keys[10] = keys[11];
    let keys_path = scratch("tiles-keys.npy");
    npyz::to_file_1d(&keys_path, keys.iter().copied()).unwrap();
    let params = scratch("tiles-params.bin");
    std::fs::write(&params, (keys.len() as u32).to_le_bytes()).unwrap();
    let sorted = scratch("tiles-sorted.npy");
    succeeds(&[
        "run",
        shader,
        "--workgroups",
        "4",
        "--bind",
        &format!("0:0={}", keys_path.display()),
        "--bind",
        &format!("0:1={}", params.display()),
        "--out",
        &format!("0:0={}", sorted.display()),
    ]);
    let (_, got) = read_npy::<u32>(&sorted);
    let mut want = keys.clone();
    for tile in want.chunks_mut(256) {
        tile.sort_unstable();
    }
    assert_ne!(keys, want, "the input was sorted already");
    assert_eq!(got, want);
}
