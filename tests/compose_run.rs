//! Realistic user shaders, composed with wavekit imports and run on
//! lavapipe, checked against CPU references.

use wavekit::compose::Composer;
use wavekit::runner::{AdapterChoice, Binding, Gpu};

const WORKGROUP: usize = 64;
const WORKGROUPS: usize = 4;
const N: usize = WORKGROUP * WORKGROUPS;

fn gpu() -> Gpu {
    Gpu::open(&AdapterChoice::named("llvmpipe")).expect("lavapipe is installed by scripts/setup")
}

/// Composes `shader`, runs `main` over 4 workgroups with `input` at binding
/// 0 and outputs of the given word counts after it; returns the outputs.
fn run(gpu: &Gpu, shader: &str, input: &[u32], outputs: &[usize]) -> Vec<Vec<u32>> {
    let composed = Composer::new(gpu.target().clone())
        .compose(shader, "shader.wgsl")
        .unwrap_or_else(|e| panic!("{e}"));
    let kernel = gpu.kernel(&composed.module, "main").expect("pipeline");
    let bytes: Vec<u8> = input.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut bindings = vec![Binding::Input(&bytes)];
    bindings.extend(
        outputs
            .iter()
            .map(|&n| Binding::Output { size: 4 * n as u64 }),
    );
    gpu.run(&kernel, &bindings, [WORKGROUPS as u32, 1, 1])
        .expect("dispatch")
        .into_iter()
        .map(|b| {
            b.chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        })
        .collect()
}

fn subgroup_size(gpu: &Gpu) -> usize {
    gpu.target()
        .subgroup_size
        .exact()
        .expect("lavapipe has one size") as usize
}

fn inputs(seed: u32) -> Vec<u32> {
    (0..N as u32)
        .map(|i| (i.wrapping_mul(2654435761) ^ seed) % 1000)
        .collect()
}

#[test]
fn normalisation_by_subgroup_sum() {
    let gpu = gpu();
    let shader = "#import wavekit::subgroup as sg
@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let x = f32(input[id.x] + 1u);
    output[id.x] = x / sg::reduce_all_add<f32>(x);
}
";
    let input = inputs(7);
    let out = run(&gpu, shader, &input, &[N]);
    let s = subgroup_size(&gpu);
    for (group, values) in input.chunks(s).enumerate() {
        let sum: f64 = values.iter().map(|&v| f64::from(v + 1)).sum();
        for (k, &v) in values.iter().enumerate() {
            let got = f64::from(f32::from_bits(out[0][group * s + k]));
            let want = f64::from(v + 1) / sum;
            assert!((got - want).abs() <= 1e-5 * want, "{got} vs {want}");
        }
    }
}

#[test]
fn block_wide_inclusive_scan() {
    let gpu = gpu();
    let shader = "#import wavekit::block as blk
@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    output[id.x] = blk::inclusive_add<u32, 64>(input[id.x]);
}
";
    let input = inputs(11);
    let out = run(&gpu, shader, &input, &[N]);
    for (block, values) in input.chunks(WORKGROUP).enumerate() {
        let mut sum = 0;
        for (t, &v) in values.iter().enumerate() {
            sum += v;
            assert_eq!(
                out[0][block * WORKGROUP + t],
                sum,
                "block {block} thread {t}"
            );
        }
    }
}

#[test]
fn stream_compaction() {
    let gpu = gpu();
    let shader = "#import wavekit::block as blk
@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> kept: array<u32>;
@group(0) @binding(2) var<storage, read_write> counts: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(workgroup_id) wg: vec3<u32>) {
    let x = input[id.x];
    let keep = select(0u, 1u, x % 3u == 0u);
    let slot = blk::exclusive_add<u32, 64>(keep);
    let total = blk::reduce_all_add<u32, 64>(keep);
    if (keep == 1u) {
        kept[wg.x * 64u + slot] = x;
    }
    if (blk::thread_idx() == 0u) {
        counts[wg.x] = total;
    }
}
";
    let input = inputs(3);
    let out = run(&gpu, shader, &input, &[N, WORKGROUPS]);
    for (block, values) in input.chunks(WORKGROUP).enumerate() {
        let want: Vec<u32> = values.iter().copied().filter(|x| x % 3 == 0).collect();
        assert_eq!(out[1][block] as usize, want.len());
        assert_eq!(
            &out[0][block * WORKGROUP..block * WORKGROUP + want.len()],
            &want[..]
        );
    }
}

#[test]
fn segmented_scan_over_key_runs() {
    let gpu = gpu();
    let shader = "#import wavekit::subgroup as sg
@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    // Keys run in sorted order; a run starts where the key changes.
    let key = id.x / (1u + input[id.x / 16u] % 5u + id.x / 16u % 3u);
    let previous = sg::shuffle_up<u32>(key, 1u);
    let head = select(0u, 1u, key != previous);
    output[id.x] = sg::segmented_reduce_add<u32>(input[id.x], head);
}
";
    let input = inputs(5);
    let out = run(&gpu, shader, &input, &[N]);
    let s = subgroup_size(&gpu);
    let key = |i: usize| i / (1 + input[i / 16] as usize % 5 + i / 16 % 3);
    for (i, &got) in out[0].iter().enumerate() {
        let lane = i % s;
        let mut sum = 0u32;
        let mut j = i;
        loop {
            sum += input[j];
            if j % s == 0 || key(j) != key(j - 1) || j == i - lane {
                break;
            }
            j -= 1;
        }
        assert_eq!(got, sum, "invocation {i}");
    }
}

#[test]
fn histogram_with_block_barriers() {
    let gpu = gpu();
    let shader = "#import wavekit::block as blk
@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> histogram: array<atomic<u32>, 16>;
@group(0) @binding(2) var<storage, read_write> zeros: array<u32>;
var<workgroup> local_bins: array<atomic<u32>, 16>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(workgroup_id) wg: vec3<u32>) {
    let t = blk::thread_idx();
    if (t < 16u) {
        atomicStore(&local_bins[t], 0u);
    }
    blk::sync();
    let bin = input[id.x] % 16u;
    atomicAdd(&local_bins[bin], 1u);
    // How many threads of the block fell in bin 0, counted at a barrier.
    let in_bin_zero = blk::sync_count_nonzero(select(0u, 1u, bin == 0u));
    if (t < 16u) {
        atomicAdd(&histogram[t], atomicLoad(&local_bins[t]));
    }
    if (t == 0u) {
        zeros[wg.x] = in_bin_zero;
    }
}
";
    let input = inputs(9);
    let out = run(&gpu, shader, &input, &[16, WORKGROUPS]);
    let mut want = [0u32; 16];
    for &v in &input {
        want[(v % 16) as usize] += 1;
    }
    assert_eq!(out[0], want);
    for (block, values) in input.chunks(WORKGROUP).enumerate() {
        let zeros = values.iter().filter(|&&v| v % 16 == 0).count() as u32;
        assert_eq!(out[1][block], zeros);
    }
}

/// `#import wavekit::grid`: a thread publishes a value in a storage buffer,
/// fences at device scope, then sets its flag; here the same thread reads
/// both back (the fence keeps program order; what it orders for other
/// workgroups has no deterministic test on one adapter).
#[test]
fn grid_fence_between_data_and_flag() {
    let gpu = gpu();
    let shader = "#import wavekit::grid
@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> data: array<u32>;
@group(0) @binding(2) var<storage, read_write> flags: array<atomic<u32>>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    data[id.x] = input[id.x] * 3u;
    grid::mem_fence();
    atomicStore(&flags[id.x], data[id.x] + 1u);
}
";
    let input = inputs(7);
    let out = run(&gpu, shader, &input, &[N, N]);
    for (i, x) in input.iter().enumerate() {
        assert_eq!(out[0][i], x * 3, "data[{i}]");
        assert_eq!(out[1][i], x * 3 + 1, "flags[{i}]");
    }
}

/// Block loads and stores of storage buffers: each workgroup loads its tile
/// of 64 x 4 words transposed (coalesced reads, blocked items), each thread
/// sorts its 4 items, and the tile is stored transposed; the last tile is
/// partial (`valid_items`), and nothing past it is written.
#[test]
fn tiles_sorted_in_chunks_through_transposed_loads_and_stores() {
    const ITEMS: usize = 4;
    const VALID: usize = 1000;
    let gpu = gpu();
    let shader = "#import wavekit::block as blk
@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3<u32>) {
    let offset = wg.x * 256u;
    let valid = min(1000u - offset, 256u);
    var items = array<u32, 4>(0u, 0u, 0u, 0u);
    blk::load_transpose<u32, 64, 4, input>(offset, valid, &items);
    for (var i = 0u; i < 3u; i = i + 1u) {
        for (var j = 0u; j < 3u - i; j = j + 1u) {
            if (items[j] > items[j + 1u]) {
                let swap = items[j];
                items[j] = items[j + 1u];
                items[j + 1u] = swap;
            }
        }
    }
    blk::store_transpose<u32, 64, 4, output>(offset, valid, &items);
}
";
    let input: Vec<u32> = (0..(N * ITEMS) as u32)
        .map(|i| i.wrapping_mul(2654435761) % 1000)
        .collect();
    let out = run(&gpu, shader, &input, &[N * ITEMS]);
    let mut want = input[..VALID].to_vec();
    want.chunks_mut(ITEMS).for_each(<[u32]>::sort_unstable);
    want.resize(N * ITEMS, 0);
    assert_eq!(out[0], want);
}
