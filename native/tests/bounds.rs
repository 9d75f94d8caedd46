//! WGSL's guarantees in the native lowering, checked without a GPU: by
//! default every dynamic index into a storage buffer's runtime-sized
//! array, a workgroup array, a private array or a vector is clamped
//! (`min.u32` in PTX, `v_min_u32` on AMDGPU), and workgroup memory starts
//! zeroed; `BoundsChecks::Unchecked` leaves no clamp, and
//! `LowerOptions::zero_initialize_workgroup_memory: false` no zeroing. The
//! run-time counterpart, a kernel writing out of bounds on purpose, is
//! `cuda_bounds.rs`.

mod support;

use support::{hsaco_gfx942, ptx_sm90};
use wavekit_native::tools;
use wavekit_native::{BoundsChecks, LowerOptions};

fn ptx(source: &str, lower: impl Into<LowerOptions>) -> String {
    let ptx = ptx_sm90(source, "shader.wgsl", lower.into());
    tools::assemble(&ptx.text, 90).unwrap_or_else(|e| panic!("{e}\n{}", ptx.text));
    ptx.text
}

fn amdgpu_mnemonics(source: &str, bounds: BoundsChecks) -> Vec<String> {
    let hsaco = hsaco_gfx942(source, bounds);
    let disassembly = tools::amdgpu_disassemble(&hsaco.bytes, "gfx942").expect("llvm-objdump");
    tools::amdgpu_mnemonics(&disassembly, "main")
}

/// Loads and stores whose indices the compiler cannot bound: a
/// runtime-sized array (length from the buffer), one behind a fixed part,
/// a workgroup array, and a vector.
const DYNAMIC: &str = "
struct Tail { count: u32, data: array<u32> }
@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: Tail;
var<workgroup> tile: array<u32, 64>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let x = input[gid.x * 3u];
    tile[(x * 7u) % 100u] = x;
    workgroupBarrier();
    let v = vec4<u32>(x, 1u, 2u, 3u);
    output.data[x + 5u] = tile[li] + v[x & 7u];
}
";

fn count(text: &str, needle: &str) -> usize {
    text.matches(needle).count()
}

#[test]
fn indices_are_clamped_by_default_and_not_when_unchecked() {
    let checked = ptx(DYNAMIC, BoundsChecks::default());
    let unchecked = ptx(DYNAMIC, BoundsChecks::Unchecked);
    // input, tile (the store; the load at `li` is in bounds by the block
    // size), output.data, and the vector.
    assert!(
        count(&checked, "min.u32") >= 3,
        "the checked PTX should clamp its indices:\n{checked}"
    );
    assert_eq!(
        count(&unchecked, "min.u32"),
        0,
        "the unchecked PTX should have no clamps:\n{unchecked}"
    );
}

#[test]
fn amdgpu_clamps_by_default_and_not_when_unchecked() {
    let is_min = |m: &&String| m.starts_with("v_min_u32") || m.starts_with("s_min_u32");
    let checked = amdgpu_mnemonics(DYNAMIC, BoundsChecks::default());
    let unchecked = amdgpu_mnemonics(DYNAMIC, BoundsChecks::Unchecked);
    assert!(
        checked.iter().filter(is_min).count() >= 3,
        "the checked code object should clamp its indices: {checked:?}"
    );
    assert_eq!(
        unchecked.iter().filter(is_min).count(),
        0,
        "the unchecked code object should have no clamps: {unchecked:?}"
    );
}

#[test]
fn constant_in_bounds_indices_cost_nothing() {
    let source = "
@group(0) @binding(0) var<storage, read_write> output: array<u32, 8>;
var<workgroup> tile: array<u32, 4>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) li: u32) {
    tile[2] = li;
    workgroupBarrier();
    output[3] = tile[2] + tile[1];
}
";
    let checked = ptx(source, BoundsChecks::default());
    assert_eq!(count(&checked, "min.u32"), 0, "{checked}");
}

#[test]
fn a_constant_index_into_a_runtime_sized_array_is_clamped() {
    let source = "
@group(0) @binding(0) var<storage, read_write> output: array<u32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
    output[7] = li;
}
";
    let checked = ptx(source, BoundsChecks::default());
    assert!(count(&checked, "min.u32") >= 1, "{checked}");
    let unchecked = ptx(source, BoundsChecks::Unchecked);
    assert_eq!(count(&unchecked, "min.u32"), 0, "{unchecked}");
}

#[test]
fn negative_indices_are_clamped_as_unsigned() {
    let source = "
@group(0) @binding(0) var<storage, read_write> output: array<i32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
    let i = i32(li) - 40;
    output[i] = i;
}
";
    let checked = ptx(source, BoundsChecks::default());
    assert!(count(&checked, "min.u32") >= 1, "{checked}");
}

#[test]
fn the_abi_refuses_a_runtime_array_without_an_element() {
    let ptx = ptx_sm90(DYNAMIC, "shader.wgsl", BoundsChecks::default().into());
    let output = &ptx.abi.buffers[1];
    let message = output.check(4).expect_err("no element");
    assert!(message.contains("at least one element"), "{message}");
    assert!(message.contains("8 bytes"), "{message}");
    output.check(8).expect("one element");
    output.check(12).expect("two elements");
}

/// A kernel that writes its workgroup array before reading it: 256 words
/// over 64 threads, so the zeroing is four stores a thread and a barrier.
const WRITES_FIRST: &str = "
@group(0) @binding(0) var<storage, read_write> output: array<u32>;
var<workgroup> tile: array<u32, 256>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
    for (var k = li; k < 256u; k += 64u) {
        tile[k] = k * 3u;
    }
    workgroupBarrier();
    output[li] = tile[255u - li];
}
";

#[test]
fn workgroup_memory_is_zeroed_unless_the_options_say_not() {
    let zeroed = ptx(WRITES_FIRST, LowerOptions::default());
    let bare = ptx(
        WRITES_FIRST,
        LowerOptions {
            zero_initialize_workgroup_memory: false,
            ..LowerOptions::default()
        },
    );
    let proven = ptx(WRITES_FIRST, LowerOptions::proven());
    let barriers = |text: &str| count(text, "barrier.sync") + count(text, "bar.sync");
    // The zeroing's stores of 0 and its barrier, then the shader's own.
    assert!(
        count(&zeroed, "st.shared.u32") > count(&bare, "st.shared.u32"),
        "{zeroed}"
    );
    assert_eq!(barriers(&zeroed), 2, "{zeroed}");
    assert_eq!(barriers(&bare), 1, "{bare}");
    assert_eq!(barriers(&proven), 1, "{proven}");
    assert_eq!(count(&proven, "min.u32"), 0, "{proven}");
}
