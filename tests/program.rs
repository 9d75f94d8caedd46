//! Device-resident buffers and multi-dispatch programs (`Gpu::buffer`,
//! `upload`, `execute`, `time_program`, `read`) on lavapipe: each dispatch
//! sees the writes of the steps before it, clears and copies run in order,
//! timed runs come back one per run, and misuse is an error.

use wavekit::compose::Composer;
use wavekit::runner::{AdapterChoice, Gpu, Step, words};

const SHADER: &str = "#import wavekit::subgroup as sg
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@group(0) @binding(1) var<storage, read_write> total: array<atomic<u32>>;
@compute @workgroup_size(64)
fn bump(@builtin(global_invocation_id) id: vec3<u32>) {
    data[id.x] += 1u;
    let sum = sg::reduce_all_add<u32>(data[id.x]);
    if sg::elect() {
        atomicAdd(&total[0], sum);
    }
}
";

/// lavapipe and the `bump` kernel.
fn lavapipe_bump() -> (Gpu, wavekit::runner::Kernel) {
    let gpu = Gpu::open(&AdapterChoice::named("llvmpipe")).expect("lavapipe");
    let composed = Composer::new(gpu.target().clone())
        .compose(SHADER, "program.wgsl")
        .unwrap_or_else(|e| panic!("{e}"));
    let bump = gpu.kernel(&composed.module, "bump").expect("pipeline");
    (gpu, bump)
}

#[test]
fn programs_chain_dispatches_clears_and_copies() {
    let (gpu, bump) = lavapipe_bump();
    let n = 1024u32;
    let start: Vec<u8> = (0..n).flat_map(|i| i.to_le_bytes()).collect();
    let data = gpu.upload(&start).expect("upload");
    let total = gpu.buffer(4).expect("buffer");
    let copy = gpu.buffer(4 * u64::from(n)).expect("buffer");
    assert_eq!(data.size(), 4 * u64::from(n));
    let groups = [n / 64, 1, 1];
    // total = sum after the second bump only: cleared between the two.
    let steps = [
        Step::dispatch(&bump, &[&data, &total], groups),
        Step::Zero(&total),
        Step::dispatch(&bump, &[&data, &total], groups),
        Step::Copy {
            src: &data,
            dst: &copy,
        },
    ];
    gpu.execute(&steps).expect("program runs");
    let want: Vec<u32> = (0..n).map(|i| i + 2).collect();
    assert_eq!(words(&gpu.read(&data).expect("read")), want);
    assert_eq!(words(&gpu.read(&copy).expect("read")), want);
    let sum: u32 = want.iter().sum();
    assert_eq!(words(&gpu.read(&total).expect("read")), [sum]);

    // Two warm-up and three timed runs: five more bumps, one time per run.
    let times = gpu.time_program(&steps, 2, 3).expect("timestamps");
    assert_eq!(times.len(), 3);
    assert!(
        times.iter().all(|t| t.is_finite() && *t >= 0.0),
        "{times:?}"
    );
    let want: Vec<u32> = (0..n).map(|i| i + 12).collect();
    assert_eq!(words(&gpu.read(&copy).expect("read")), want);
}

#[test]
fn a_dispatch_missing_a_binding_is_an_error() {
    let (gpu, bump) = lavapipe_bump();
    let data = gpu.buffer(4096).expect("buffer");
    // Only one buffer for a kernel with two bindings.
    let error = gpu
        .execute(&[Step::dispatch(&bump, &[&data], [1, 1, 1])])
        .expect_err("a missing binding must not run");
    assert_eq!(
        error.to_string(),
        "dispatch of `bump`: @binding(1) (`total`) has no buffer: every declared binding needs one"
    );
}

/// The host checks a program before the GPU sees it: an empty buffer for
/// a runtime-sized array and more workgroups than the adapter dispatches
/// are errors naming the numbers (wgpu would report a validation error,
/// CUDA would read out of bounds).
#[test]
fn a_dispatch_over_the_limits_is_an_error() {
    let (gpu, bump) = lavapipe_bump();
    let data = gpu.buffer(4096).expect("buffer");
    let empty = gpu.buffer(0).expect("buffer");
    let error = gpu
        .execute(&[Step::dispatch(&bump, &[&data, &empty], [1, 1, 1])])
        .expect_err("an empty buffer must not run");
    assert_eq!(
        error.to_string(),
        "dispatch of `bump`: @binding(1) (`total`) has a buffer of 0 bytes, the shader needs \
         0 bytes plus at least one 4-byte element"
    );
    let max = gpu.limits().max_workgroups[0];
    let error = gpu
        .execute(&[Step::dispatch(&bump, &[&data, &data], [max + 1, 1, 1])])
        .expect_err("too many workgroups must not run");
    assert_eq!(
        error.to_string(),
        format!(
            "dispatch of `bump`: {} workgroups in x: the device dispatches at most {max} per \
             dimension",
            max + 1
        )
    );
    let too_big = gpu.limits().max_buffer_size + 1;
    let error = gpu.buffer(too_big).err().expect("an oversized buffer");
    assert!(error.to_string().contains("max_buffer_size"), "{error}");
}
