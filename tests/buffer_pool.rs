//! The wgpu back end's buffer pool on lavapipe (`runner/wgpu_pool.rs`): a
//! dropped buffer is kept and reused by the next one of its size class,
//! comes back zeroed or holding exactly the new data, kernels see the size
//! asked for (not the class), uploads and read-backs larger than one
//! 16 MiB chunk round-trip, and the cache can be limited and released.

use wavekit::compose::Composer;
use wavekit::runner::{AdapterChoice, Gpu, Step, words};

/// Writes `arrayLength(&data)` to `len[0]` and bumps every word of `data`.
const SHADER: &str = "@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@group(0) @binding(1) var<storage, read_write> len: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = id.x + id.y * groups.x * 64u;
    if i == 0u {
        len[0] = arrayLength(&data);
    }
    if i < arrayLength(&data) {
        data[i] += 1u;
    }
}
";

fn lavapipe() -> Gpu {
    Gpu::open(&AdapterChoice::named("llvmpipe")).expect("lavapipe")
}

#[test]
fn a_dropped_buffer_is_reused_zeroed_and_kernels_see_the_size_asked_for() {
    let gpu = lavapipe();
    let composed = Composer::new(gpu.target().clone())
        .compose(SHADER, "pool.wgsl")
        .unwrap_or_else(|e| panic!("{e}"));
    let kernel = gpu.kernel(&composed.module, "main").expect("pipeline");
    // 1 MiB + 12 bytes: class 2 MiB.
    let n = (1u32 << 18) + 3;
    let first: Vec<u8> = (0..n).flat_map(|i| (i | 0x8000_0000).to_le_bytes()).collect();
    let data = gpu.upload(&first).expect("upload");
    assert_eq!(gpu.cached_buffer_bytes(), 0);
    drop(data);
    assert_eq!(gpu.cached_buffer_bytes(), 2 << 20, "the 2 MiB class is kept");

    // The same class again: the idle buffer, cleared.
    let data = gpu.buffer(4 * u64::from(n)).expect("buffer");
    assert_eq!(gpu.cached_buffer_bytes(), 0, "the idle buffer was reused");
    let len = gpu.buffer(4).expect("buffer");
    let groups = u32::div_ceil(n, 64);
    gpu.execute(&[Step::dispatch(&kernel, &[&data, &len], [groups, 1, 1])])
        .expect("runs");
    assert_eq!(words(&gpu.read(&len).expect("read")), [n], "arrayLength");
    let got = words(&gpu.read(&data).expect("read"));
    assert_eq!(got.len(), n as usize);
    assert!(got.iter().all(|&w| w == 1), "a reused buffer starts zeroed");
    // The read-backs' own buffers are idle in the pool too.
    let idle = gpu.cached_buffer_bytes();
    drop(data);
    assert_eq!(gpu.cached_buffer_bytes(), idle + (2 << 20));

    // Reused for an upload of fewer bytes: exactly the new data.
    let m = (1u32 << 18) + 1;
    let second: Vec<u8> = (0..m).flat_map(|i| (7 * i).to_le_bytes()).collect();
    let data = gpu.upload(&second).expect("upload");
    assert_eq!(gpu.cached_buffer_bytes(), idle);
    assert_eq!(gpu.read(&data).expect("read"), second);
}

#[test]
fn uploads_and_read_backs_of_several_chunks_round_trip() {
    let gpu = lavapipe();
    // 40 MiB and 2 bytes: three 16 MiB chunks, the last one padded.
    let bytes = (40 << 20) + 2;
    let data: Vec<u8> = (0..bytes).map(|i| (i * 31 % 251) as u8).collect();
    let buffer = gpu.upload(&data).expect("upload");
    assert_eq!(buffer.size(), bytes as u64);
    assert!(gpu.read(&buffer).expect("read") == data, "round trip");
}

#[test]
fn the_cache_is_limited_and_released() {
    let gpu = lavapipe();
    let a = gpu.buffer(4 << 20).expect("buffer");
    let b = gpu.buffer(2 << 20).expect("buffer");
    drop((a, b));
    assert_eq!(gpu.cached_buffer_bytes(), 6 << 20);
    // The oldest idle buffer (4 MiB) goes first.
    gpu.set_buffer_cache_limit(3 << 20);
    assert_eq!(gpu.cached_buffer_bytes(), 2 << 20);
    assert_eq!(gpu.release_cached_buffers(), 2 << 20);
    assert_eq!(gpu.cached_buffer_bytes(), 0);
    // Limit 0: nothing is kept.
    gpu.set_buffer_cache_limit(0);
    drop(gpu.buffer(1 << 20).expect("buffer"));
    assert_eq!(gpu.cached_buffer_bytes(), 0);
}
