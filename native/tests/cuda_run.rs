//! Kernels run through CUDA and checked against the CPU. Skipped (with a
//! note) on machines without a CUDA driver; run on the device machine.

use wavekit_native::NativeError;
use wavekit_native::cuda::Cuda;
use wavekit_native::driver::Launch;
use wavekit_native::nvptx::{PtxOptions, compile};

fn cuda() -> Option<Cuda> {
    match Cuda::open(0) {
        Ok(cuda) => Some(cuda),
        Err(NativeError::NoCudaDriver(why)) => {
            eprintln!("skipped: {why}");
            None
        }
        Err(e) => panic!("{e}"),
    }
}

fn run(cuda: &Cuda, source: &str, buffers: &mut [Vec<u8>], groups: u32) {
    let module = naga::front::wgsl::parse_str(source).expect("WGSL");
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .expect("valid");
    let ptx = compile(
        &module,
        &info,
        "main",
        &PtxOptions {
            sm: 90,
            source: None,
            lower: Default::default(),
        },
    )
    .expect("PTX");
    let kernel = cuda.load(&ptx.text, "main").expect("load");
    let [x, y, z] = ptx.abi.workgroup_size;
    cuda.launch(&kernel, buffers, [groups, 1, 1], [x, y, z], 0)
        .expect("launch");
}

fn floats(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn math_matches_the_cpu() {
    let Some(cuda) = cuda() else { return };
    let source = "
@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read_write> output: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let x = input[gid.x];
    output[4u * gid.x] = sin(x);
    output[4u * gid.x + 1u] = pow(abs(x) + 1.0, 0.5);
    output[4u * gid.x + 2u] = atan2(x, 2.0);
    output[4u * gid.x + 3u] = f32(exp(f64(x) * 0.25));
}
";
    let input: Vec<f32> = (0..256).map(|i| (i as f32 - 128.0) * 0.05).collect();
    let mut buffers = vec![
        input.iter().flat_map(|f| f.to_le_bytes()).collect(),
        vec![0u8; 256 * 16],
    ];
    run(&cuda, source, &mut buffers, 4);
    let out = floats(&buffers[1]);
    for (i, x) in input.iter().enumerate() {
        let want = [
            x.sin(),
            (x.abs() + 1.0).powf(0.5),
            x.atan2(2.0),
            ((*x as f64) * 0.25).exp() as f32,
        ];
        for (k, w) in want.iter().enumerate() {
            let got = out[4 * i + k];
            assert!(
                (got - w).abs() <= 2e-6 * w.abs().max(1.0),
                "x = {x}, function {k}: {got} vs {w}"
            );
        }
    }
}

#[test]
fn control_flow_atomics_and_workgroup_memory() {
    let Some(cuda) = cuda() else { return };
    let source = "
@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> histogram: array<atomic<u32>, 4>;
@group(0) @binding(2) var<storage, read_write> output: array<u32>;
var<workgroup> tile: array<u32, 128>;
@compute @workgroup_size(128)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let x = input[gid.x];
    tile[li] = x;
    workgroupBarrier();
    var acc = 0u;
    var i = 0u;
    loop {
        if (i >= 4u) { break; }
        acc += tile[(li + i) % 128u];
        continuing { i += 1u; }
    }
    switch (x % 4u) {
        case 0u, 1u: { atomicAdd(&histogram[x % 4u], 1u); }
        default: { atomicAdd(&histogram[x % 4u], 1u); }
    }
    output[gid.x] = acc / max(x, 1u) + u32(i32(x) / -3 % 5);
}
";
    let input: Vec<u32> = (0..256u32)
        .map(|i| i.wrapping_mul(2654435761) % 1000)
        .collect();
    let mut buffers = vec![
        input.iter().flat_map(|w| w.to_le_bytes()).collect(),
        vec![0u8; 16],
        vec![0u8; 256 * 4],
    ];
    run(&cuda, source, &mut buffers, 2);
    let histogram = words(&buffers[1]);
    for bin in 0..4u32 {
        let want = input.iter().filter(|x| *x % 4 == bin).count() as u32;
        assert_eq!(histogram[bin as usize], want, "bin {bin}");
    }
    let out = words(&buffers[2]);
    for (g, x) in input.iter().enumerate() {
        let base = g - g % 128;
        let li = g % 128;
        let acc: u32 = (0..4).map(|i| input[base + (li + i) % 128]).sum();
        let want = acc / (*x).max(1) + ((*x as i32) / -3 % 5) as u32;
        assert_eq!(out[g], want, "invocation {g}");
    }
}
