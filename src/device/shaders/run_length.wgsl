// Run lengths from run starts (wavekit::device::RunLengthEncode, after the
// compaction of `compact.wgsl` with RUN_STARTS wrote the index of each run's
// first element and the number of runs): run j's key is input[starts[j]]
// and its length starts[j + 1] - starts[j] (the last run ends at n).
//
// Parameters (set by name by the host): the element type T below (u32 or i32).
// run_lengths: dispatch ceil(n / 256) workgroups (spilling into y), one run
// per thread; threads past the number of runs return.
// Bindings: 0 input (array<T>, n), 1 starts (array<u32>, n), 2 count (1 word),
//   3 unique (array<T>, n), 4 lengths (array<u32>, n).

alias T = u32;

@group(0) @binding(0) var<storage, read> input: array<T>;
@group(0) @binding(1) var<storage, read_write> starts: array<u32>;
@group(0) @binding(2) var<storage, read_write> count: array<u32>;
@group(0) @binding(3) var<storage, read_write> unique: array<T>;
@group(0) @binding(4) var<storage, read_write> lengths: array<u32>;

@compute @workgroup_size(256)
fn run_lengths(@builtin(global_invocation_id) gid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    let j = gid.x + gid.y * nwg.x * 256u;
    let runs = count[0];
    if j >= runs {
        return;
    }
    let start = starts[j];
    var end = arrayLength(&input);
    if j + 1u < runs {
        end = starts[j + 1u];
    }
    unique[j] = input[start];
    lengths[j] = end - start;
}
