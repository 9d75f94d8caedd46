//! A kernel that reads and writes out of bounds on purpose, run through
//! CUDA with the default bounds checks: every access must stay inside its
//! own buffer or workgroup array (WGSL's robust access, as on wgpu), so the
//! buffers allocated around the target and a neighbouring workgroup array
//! keep their contents. Skipped (with a note) on machines without a CUDA
//! driver; run on the device machine:
//!
//! ```text
//! cargo test -p wavekit-native --test cuda_bounds -- --nocapture
//! ```
//!
//! Without the checks the stores below would cover the first kilobyte
//! after the 20-byte target buffer, where CUDA's allocator places the next
//! small allocation; that variant is not run (it is undefined behaviour and
//! could fault the context every other test shares).

use wavekit_native::NativeError;
use wavekit_native::cuda::Cuda;
use wavekit_native::driver::Launch;
use wavekit_native::nvptx::{BoundsChecks, PtxOptions, compile};

const SHADER: &str = "
struct Tail { count: u32, data: array<u32> }
@group(0) @binding(0) var<storage, read> before: array<u32>;
@group(0) @binding(1) var<storage, read_write> victim: Tail;
@group(0) @binding(2) var<storage, read_write> after: array<u32>;
@group(0) @binding(3) var<storage, read_write> result: array<u32>;
var<workgroup> first: array<u32, 32>;
var<workgroup> second: array<u32, 32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_index) li: u32,
        @builtin(num_workgroups) groups: vec3<u32>) {
    // Stores past the end of a runtime-sized array behind a fixed part,
    // word after word over the next kilobyte, and before its start.
    victim.data[4u + gid.x] = 0xA0000000u | gid.x;
    victim.data[i32(gid.x) - 1000] = 0xB0000000u | gid.x;
    // A workgroup array written past its end must not reach its neighbour.
    if (li < 32u) {
        first[li] = li;
        second[li] = 1000u + li;
    }
    workgroupBarrier();
    first[li + 40u] = 0xBADu;
    workgroupBarrier();
    let n = groups.x * 64u;
    result[gid.x] = second[li % 32u];
    // A load past the end reads an element of the same buffer.
    result[n + gid.x] = before[gid.x + 100000u];
}
";

const WORDS: usize = 256;
const GROUPS: u32 = 4;
const THREADS: usize = 64 * GROUPS as usize;

fn cuda() -> Option<Cuda> {
    match Cuda::open(0) {
        Ok(cuda) => Some(cuda),
        Err(NativeError::NoCudaDriver(why)) => {
            eprintln!("skipped: no CUDA device ({why}); the out-of-bounds test runs on a GPU");
            None
        }
        Err(e) => panic!("{e}"),
    }
}

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn out_of_bounds_accesses_stay_inside_their_buffers() {
    let Some(cuda) = cuda() else { return };
    let module = naga::front::wgsl::parse_str(SHADER).expect("WGSL");
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
            lower: BoundsChecks::Restrict.into(),
        },
    )
    .expect("PTX");
    let kernel = cuda.load(&ptx.text, "main").expect("load");

    let before: Vec<u32> = (0..WORDS as u32).map(|i| 0x1000_0000 | i).collect();
    let target: Vec<u32> = vec![0x5EED, 0x2000_0000, 0x2000_0001, 0x2000_0002, 0x2000_0003];
    let after: Vec<u32> = (0..WORDS as u32).map(|i| 0x3000_0000 | i).collect();
    let mut buffers = vec![
        bytes(&before),
        bytes(&target),
        bytes(&after),
        vec![0u8; 2 * THREADS * 4],
    ];
    cuda.launch(&kernel, &mut buffers, [GROUPS, 1, 1], [64, 1, 1], 0)
        .expect("launch");

    assert_eq!(words(&buffers[0]), before, "the buffer before was written");
    assert_eq!(words(&buffers[2]), after, "the buffer after was written");
    let target_now = words(&buffers[1]);
    assert_eq!(target_now[0], 0x5EED, "the fixed part was overwritten");
    assert_eq!(
        &target_now[1..4],
        &target[1..4],
        "only the last element may take the clamped stores"
    );
    let last = target_now[4];
    assert!(
        last >> 28 == 0xA || last >> 28 == 0xB,
        "the last element should hold a clamped store, holds {last:#x}"
    );
    let result = words(&buffers[3]);
    for gid in 0..THREADS {
        assert_eq!(
            result[gid],
            1000 + (gid % 64 % 32) as u32,
            "thread {gid}: the workgroup array next to the one written out of bounds changed"
        );
        assert_eq!(
            result[THREADS + gid],
            before[WORDS - 1],
            "thread {gid}: a load past the end should read the last element"
        );
    }
    println!(
        "out-of-bounds stores and loads stayed inside their buffers and workgroup arrays \
         (the last element holds {last:#x})"
    );
}
