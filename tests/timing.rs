//! `Gpu::time_at` times dispatches with the GPU's own clock (timestamp
//! queries on lavapipe here); it checks that the times come back, one per
//! run, and that the timed kernel still computes (no speed is asserted).

use wavekit::compose::Composer;
use wavekit::runner::{AdapterChoice, Binding, Gpu, words};

const SHADER: &str = "#import wavekit::subgroup as sg
@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    output[id.x] = sg::reduce_all_add<u32>(input[id.x]);
}
";

#[test]
fn dispatches_are_timed_on_the_gpu_clock() {
    let gpu = Gpu::open(&AdapterChoice::named("llvmpipe")).expect("lavapipe");
    let composed = Composer::new(gpu.target().clone())
        .compose(SHADER, "timing.wgsl")
        .unwrap_or_else(|e| panic!("{e}"));
    let kernel = gpu.kernel(&composed.module, "main").expect("pipeline");
    let input: Vec<u8> = (0..1024u32).flat_map(|i| (i % 7).to_le_bytes()).collect();
    let bindings = [
        (0, Binding::Input(&input)),
        (1, Binding::Output { size: 4096 }),
    ];
    let times = gpu
        .time_at(&kernel, &bindings, [16, 1, 1], 2, 5)
        .expect("timestamp queries");
    assert_eq!(times.len(), 5);
    assert!(
        times.iter().all(|t| t.is_finite() && *t >= 0.0),
        "{times:?}"
    );
    assert!(times.iter().any(|t| *t > 0.0), "{times:?}");
    // The same kernel and buffers still compute the right thing.
    let out = words(
        &gpu.run_at(&kernel, &bindings, [16, 1, 1])
            .expect("dispatch")[0],
    );
    let size = gpu.target().subgroup_size.exact().expect("one size") as usize;
    let values: Vec<u32> = (0..1024u32).map(|i| i % 7).collect();
    for (i, got) in out.iter().enumerate() {
        let group = &values[i - i % size..i - i % size + size];
        assert_eq!(*got, group.iter().sum::<u32>(), "invocation {i}");
    }
}

/// A `wavekit::device` call that is the whole timed program is timed by its
/// own compute pass (`Queue::WgpuTimed`), and still computes.
#[test]
fn a_library_call_is_timed_by_its_pass() {
    use wavekit::device::{Reduce, ReduceOp, ReduceType};
    use wavekit::runner::Step;
    let gpu = Gpu::open(&AdapterChoice::named("llvmpipe")).expect("lavapipe");
    let reduce = Reduce::new(gpu.library_device(), ReduceOp::Sum, ReduceType::U32).expect("builds");
    let n = 5000u32;
    let values: Vec<u32> = (0..n).map(|i| i % 13).collect();
    let input = gpu.upload(bytemuck::cast_slice(&values)).expect("input");
    let result = gpu.buffer(4).expect("result");
    let temp = gpu.buffer(reduce.temp_storage_bytes(n)).expect("temp");
    let record = |queue: wavekit::device::Queue<'_>| {
        reduce.record(queue, input.slice(), result.slice(), n, temp.slice())
    };
    let times = gpu
        .time_program(&[Step::Record(&record)], 1, 4)
        .expect("timed by the call's pass");
    assert_eq!(times.len(), 4);
    assert!(times.iter().all(|t| t.is_finite() && *t > 0.0), "{times:?}");
    let sum = words(&gpu.read(&result).expect("reads"))[0];
    assert_eq!(sum, values.iter().sum::<u32>());
}

/// A recorded step that records nothing, alone in a timed program, writes
/// no timestamps: timing it is an error that says so, never a time of 0.
#[test]
fn a_lone_recorded_step_that_records_nothing_is_an_error() {
    use wavekit::runner::Step;
    let gpu = Gpu::open(&AdapterChoice::named("llvmpipe")).expect("lavapipe");
    let nothing = |_: wavekit::device::Queue<'_>| Ok(());
    let error = gpu
        .time_program(&[Step::Record(&nothing)], 0, 2)
        .expect_err("no timestamps were written");
    assert_eq!(
        error.to_string(),
        "timing a program: a run wrote no timestamps (a recorded step that recorded \
         nothing, as a call on 0 elements does, cannot be timed alone)"
    );
}
