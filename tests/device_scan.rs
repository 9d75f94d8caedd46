//! `wavekit::device::Scan` on lavapipe at subgroup sizes 4, 8 and 16
//! against a CPU reference: exclusive and inclusive, both algorithms, edge
//! sizes (0, 1, below a vec4, a tile ± 1, odd sizes, 2^20), slices at
//! non-zero offsets inside larger buffers whose other bytes must stay;
//! scans under an operator (`ScanOperator`): min and max of u32, i32 and
//! f32, f32 sums within `1e-5 Σ|x|` of the sequential sum (f64), and a
//! non-commutative user operator (the composition of affine maps of u32,
//! `x -> a x + b` packed as 16-bit a and b), whose malformed text is a
//! spanned compose error.

mod device_support;

use device_support::*;
use wavekit::Dtype;
use wavekit::device::{Scan, ScanAlgorithm, ScanKind, ScanOperator, Slice};

const TILE: usize = 8192;

fn reference(input: &[u32], kind: ScanKind) -> Vec<u32> {
    let mut sum = 0u32;
    input
        .iter()
        .map(|&x| {
            let before = sum;
            sum = sum.wrapping_add(x);
            match kind {
                ScanKind::Exclusive => before,
                ScanKind::Inclusive => sum,
            }
        })
        .collect()
}

fn check(device: &wgpu::Device, queue: &wgpu::Queue, scan: &Scan, n: usize, seed: u64) {
    let align = alignment(device);
    let input = random(n, 0, seed);
    let (in_at, out_at) = (align, 2 * align);
    let input_buffer = guarded(device, &input, in_at, 64);
    let output = guarded(device, &vec![GUARD; n], out_at, 64);
    let temp = zeroed(device, scan.temp_storage_bytes(n as u32));
    let mut encoder = encoder(device);
    scan.record(
        &mut encoder,
        Slice::new(&input_buffer, in_at),
        Slice::new(&output, out_at),
        n as u32,
        (&temp).into(),
    )
    .expect("records");
    let read = submit_and_read(device, queue, encoder, &[&output, &input_buffer]);
    let what = format!("{:?} {:?} n = {n}", scan.kind(), scan.algorithm());
    let got = inside(&read[0], out_at, n, &what);
    assert_eq!(
        inside(&read[1], in_at, n, &what),
        input,
        "{what}: input changed"
    );
    assert_same(&got, &reference(&input, scan.kind()), &what);
}

#[test]
fn scan_cases() {
    if !is_child() {
        return;
    }
    let (device, queue) = open();
    let sizes = [
        0,
        1,
        2,
        3,
        4,
        5,
        7,
        1000,
        TILE - 1,
        TILE,
        TILE + 1,
        3 * TILE + 3,
        50_001,
    ];
    for kind in [ScanKind::Exclusive, ScanKind::Inclusive] {
        let scan = Scan::new(&device, kind, Dtype::U32).expect("builds");
        assert_eq!(
            scan.algorithm(),
            ScanAlgorithm::DecoupledLookBack,
            "lavapipe's choice: the single pass"
        );
        let three_pass = Scan::new(&device, kind, Dtype::I32)
            .expect("builds")
            .with_algorithm(ScanAlgorithm::ReduceThenScan);
        for (seed, &n) in sizes.iter().enumerate() {
            check(&device, &queue, &scan, n, seed as u64);
            check(&device, &queue, &three_pass, n, seed as u64 + 100);
        }
    }
    let scan = Scan::exclusive_sum(&device, Dtype::U32).expect("builds");
    check(&device, &queue, &scan, 1 << 20, 7);
}

#[test]
fn scan_at_each_subgroup_size() {
    at_each_subgroup_size("scan_cases");
}

/// Tile of the scans, every operator's (`scan.wgsl`, 256 × 8 vec4s).
const OP_TILE: usize = 8192;

/// The composition of the affine maps `x -> a x + b mod 2^16` packed as
/// `a << 16 | b`: `compose(f, g)` applies f, then g. Associative, not
/// commutative; identity `1 << 16` (a = 1, b = 0).
const AFFINE: &str = "
fn affine_then(f: u32, g: u32) -> u32 {
    let a = ((f >> 16u) * (g >> 16u)) & 0xffffu;
    let b = ((f & 0xffffu) * (g >> 16u) + (g & 0xffffu)) & 0xffffu;
    return a << 16u | b;
}";

fn affine_then(f: u32, g: u32) -> u32 {
    let a = ((f >> 16) * (g >> 16)) & 0xffff;
    let b = ((f & 0xffff).wrapping_mul(g >> 16).wrapping_add(g & 0xffff)) & 0xffff;
    a << 16 | b
}

/// The scan of `input` under `op` from `identity`, in order.
fn fold_reference(
    input: &[u32],
    kind: ScanKind,
    identity: u32,
    op: impl Fn(u32, u32) -> u32,
) -> Vec<u32> {
    let mut acc = identity;
    input
        .iter()
        .map(|&x| {
            let before = acc;
            acc = op(acc, x);
            match kind {
                ScanKind::Exclusive => before,
                ScanKind::Inclusive => acc,
            }
        })
        .collect()
}

/// Runs `scan` on `input` at a non-zero offset and returns its output,
/// checking the guards and that the input stayed.
fn run(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    scan: &Scan,
    input: &[u32],
    what: &str,
) -> Vec<u32> {
    let align = alignment(device);
    let n = input.len();
    let (in_at, out_at) = (3 * align, align);
    let input_buffer = guarded(device, input, in_at, 32);
    let output = guarded(device, &vec![GUARD; n], out_at, 32);
    let temp = zeroed(device, scan.temp_storage_bytes(n as u32));
    let mut encoder = encoder(device);
    scan.record(
        &mut encoder,
        Slice::new(&input_buffer, in_at),
        Slice::new(&output, out_at),
        n as u32,
        (&temp).into(),
    )
    .expect("records");
    let read = submit_and_read(device, queue, encoder, &[&output, &input_buffer]);
    assert_eq!(
        inside(&read[1], in_at, n, what),
        input,
        "{what}: input changed"
    );
    inside(&read[0], out_at, n, what)
}

#[test]
fn operator_cases() {
    if !is_child() {
        return;
    }
    let (device, queue) = open();
    let sizes = [
        0,
        1,
        2,
        5,
        255,
        OP_TILE - 1,
        OP_TILE,
        OP_TILE + 1,
        3 * OP_TILE + 7,
        40_001,
    ];
    for kind in [ScanKind::Exclusive, ScanKind::Inclusive] {
        // min / max of u32, i32 (as bits) and f32 (as bits), exactly: each
        // dtype under both operators and each kind over every dtype, in
        // half the pairs (every build compiles five pipelines on lavapipe,
        // about a second each at three subgroup sizes).
        let (first, second) = if kind == ScanKind::Exclusive {
            (ScanOperator::Min, ScanOperator::Max)
        } else {
            (ScanOperator::Max, ScanOperator::Min)
        };
        for (dtype, op) in [
            (Dtype::U32, first.clone()),
            (Dtype::I32, second),
            (Dtype::F32, first),
        ] {
            let scan = Scan::with_operator(&device, kind, dtype, op.clone()).expect("builds");
            assert_eq!(scan.algorithm(), ScanAlgorithm::DecoupledLookBack);
            for (seed, &n) in sizes.iter().enumerate() {
                let what = format!("{kind:?} {dtype} {op:?} n = {n}");
                let (input, want): (Vec<u32>, Vec<u32>) = match dtype {
                    Dtype::U32 => {
                        let input = random(n, 0, seed as u64);
                        let want = match op {
                            ScanOperator::Min => fold_reference(&input, kind, u32::MAX, u32::min),
                            _ => fold_reference(&input, kind, 0, u32::max),
                        };
                        (input, want)
                    }
                    Dtype::I32 => {
                        let input = random(n, 0, seed as u64 + 10);
                        let signed = |f: fn(i32, i32) -> i32| {
                            move |a: u32, b: u32| f(a as i32, b as i32) as u32
                        };
                        let want = match op {
                            ScanOperator::Min => {
                                fold_reference(&input, kind, i32::MAX as u32, signed(i32::min))
                            }
                            _ => fold_reference(&input, kind, i32::MIN as u32, signed(i32::max)),
                        };
                        (input, want)
                    }
                    _ => {
                        let input: Vec<u32> = random(n, 1 << 20, seed as u64 + 20)
                            .iter()
                            .map(|&x| (x as f32 / 1024.0 - 512.0).to_bits())
                            .collect();
                        let float = |f: fn(f32, f32) -> f32| {
                            move |a: u32, b: u32| f(f32::from_bits(a), f32::from_bits(b)).to_bits()
                        };
                        let want = match op {
                            ScanOperator::Min => fold_reference(
                                &input,
                                kind,
                                f32::INFINITY.to_bits(),
                                float(f32::min),
                            ),
                            _ => fold_reference(
                                &input,
                                kind,
                                f32::NEG_INFINITY.to_bits(),
                                float(f32::max),
                            ),
                        };
                        (input, want)
                    }
                };
                assert_same(&run(&device, &queue, &scan, &input, &what), &want, &what);
            }
        }
        // f32 sums, within 1e-5 of the prefix's sum of |x| (+ a tiny
        // absolute slack for the exclusive scan's leading zeros).
        let scan =
            Scan::with_operator(&device, kind, Dtype::F32, ScanOperator::Add).expect("builds");
        for (seed, &n) in sizes.iter().chain(&[1 << 20]).enumerate() {
            let what = format!("{kind:?} f32 sum n = {n}");
            let values: Vec<f32> = random(n, 1 << 16, seed as u64 + 30)
                .iter()
                .map(|&x| x as f32 / 4096.0 - 8.0)
                .collect();
            let input: Vec<u32> = values.iter().map(|x| x.to_bits()).collect();
            let got = run(&device, &queue, &scan, &input, &what);
            let (mut sum, mut magnitude) = (0f64, 0f64);
            for (i, &x) in values.iter().enumerate() {
                if kind == ScanKind::Inclusive {
                    sum += f64::from(x);
                    magnitude += f64::from(x.abs());
                }
                let g = f64::from(f32::from_bits(got[i]));
                assert!(
                    (g - sum).abs() <= 1e-5 * magnitude + 1e-30,
                    "{what}: element {i}: got {g}, sequential {sum}, Σ|x| {magnitude}"
                );
                if kind == ScanKind::Exclusive {
                    sum += f64::from(x);
                    magnitude += f64::from(x.abs());
                }
            }
        }
        // A non-commutative user operator, by both algorithms.
        for algorithm in [
            ScanAlgorithm::DecoupledLookBack,
            ScanAlgorithm::ReduceThenScan,
        ] {
            let scan = Scan::with_operator(
                &device,
                kind,
                Dtype::U32,
                ScanOperator::custom(AFFINE, "1u << 16u"),
            )
            .expect("builds")
            .with_algorithm(algorithm);
            for (seed, &n) in sizes.iter().enumerate() {
                let what = format!("{kind:?} affine {algorithm:?} n = {n}");
                let input = random(n, 0, seed as u64 + 40);
                let want = fold_reference(&input, kind, 1 << 16, affine_then);
                assert_same(&run(&device, &queue, &scan, &input, &what), &want, &what);
            }
        }
    }
    // The look-back's ordered window (the subgroup of thread 0 combining S
    // predecessors a round in tile order): what the native back ends
    // build; through wgpu thread 0 walks alone, so it is forced here (one
    // kind: the walk does not depend on it).
    let kind = ScanKind::Exclusive;
    let scan = wavekit::device::debug::with_shader_params(vec![("WINDOW", "true".into())], || {
        Scan::with_operator(
            &device,
            kind,
            Dtype::U32,
            ScanOperator::custom(AFFINE, "1u << 16u"),
        )
    })
    .expect("builds");
    for (seed, &n) in sizes.iter().enumerate() {
        let what = format!("{kind:?} affine, the window walk, n = {n}");
        let input = random(n, 0, seed as u64 + 50);
        let want = fold_reference(&input, kind, 1 << 16, affine_then);
        assert_same(&run(&device, &queue, &scan, &input, &what), &want, &what);
    }
}

#[test]
fn operators_at_each_subgroup_size() {
    at_each_subgroup_size("operator_cases");
}

#[test]
fn operator_errors() {
    let (device, _queue) = open();
    let malformed = Scan::with_operator(
        &device,
        ScanKind::Inclusive,
        Dtype::U32,
        ScanOperator::custom(
            "fn bad(a: u32, b: u32) -> u32 {\n    return a +* b;\n}",
            "0u",
        ),
    );
    let message = malformed
        .err()
        .expect("a malformed operator fails")
        .to_string();
    assert!(
        message.contains("a +* b") && message.contains('^'),
        "a spanned error at the operator's line: {message}"
    );
    let mistyped = Scan::with_operator(
        &device,
        ScanKind::Inclusive,
        Dtype::F32,
        ScanOperator::custom("fn add(a: u32, b: u32) -> u32 { return a + b; }", "0u"),
    );
    assert!(
        mistyped.is_err(),
        "an operator of u32 for an f32 scan fails"
    );
    let nameless = Scan::with_operator(
        &device,
        ScanKind::Exclusive,
        Dtype::U32,
        ScanOperator::custom("return a + b;", "0u"),
    );
    let message = nameless.err().expect("no function fails").to_string();
    assert!(message.contains("no `fn NAME"), "{message}");
    let f64_scan = Scan::with_operator(&device, ScanKind::Exclusive, Dtype::F64, ScanOperator::Add);
    assert!(
        f64_scan
            .err()
            .expect("f64 is refused")
            .to_string()
            .contains("not f64")
    );
}

/// Why look-back is never lavapipe's default and why its tests run
/// lavapipe's workgroups in order (`at_each_subgroup_size`): lavapipe (Mesa
/// 22.3's llvmpipe) counts the loop iterations of an invocation in one
/// budget of 65535 (`LP_MAX_TGSI_LOOP_ITERATIONS`, shared by every loop of
/// the shader) and ends every loop once it is spent. A spin on a flag that
/// is never set returns after 65535 rounds instead of hanging, and a
/// counted loop after it then runs once, not 100000 times.
#[test]
fn lavapipe_ends_loops_after_65535_iterations() {
    let (device, queue) = open();
    let source = "
@group(0) @binding(0) var<storage, read_write> words: array<atomic<u32>>;
@compute @workgroup_size(1)
fn main() {
    var spins = 0u;
    loop {
        if atomicLoad(&words[0]) != 0u {
            break;
        }
        spins += 1u;
    }
    atomicStore(&words[1], spins);
    var counted = 0u;
    for (var i = 0u; i < 100000u; i++) {
        counted += 1u;
    }
    atomicStore(&words[2], counted);
}";
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("loop cap"),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("loop cap"),
        layout: None,
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    let words = zeroed(&device, 12);
    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("loop cap"),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: words.as_entire_binding(),
        }],
    });
    let mut encoder = encoder(&device);
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &bind_group, &[]);
        pass.dispatch_workgroups(1, 1, 1);
    }
    let read = submit_and_read(&device, &queue, encoder, &[&words]);
    assert_eq!(
        read[0][1..3],
        [65535, 1],
        "spins of a never-set flag, then rounds of a 100000-round loop"
    );
}
