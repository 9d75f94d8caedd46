//! Workgroup memory past the 48 KiB ptxas allows statically, checked
//! without a GPU: on NVPTX a kernel whose workgroup variables exceed it
//! takes them all as one dynamic shared array (`.extern .shared`), the ABI
//! says how many bytes each launch gives it, and ptxas accepts the PTX
//! with no static shared memory; at or below the limit the variables stay
//! static globals. Variables the entry point does not use take no room.
//! AMDGPU keeps them static (its LDS has no such limit below the device's).

mod support;

use support::{hsaco_gfx942, ptx_sm90};
use wavekit_native::{LowerOptions, tools};

/// A kernel with a 32 KiB array, a `words`-word array, a scalar and an
/// array it never touches, each written and read back.
fn source(words: u32) -> String {
    format!(
        "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n\
         var<workgroup> big: array<u32, 8192>;\n\
         var<workgroup> more: array<u32, {words}>;\n\
         var<workgroup> flag: u32;\n\
         var<workgroup> unused: array<u32, 4096>;\n\
         @compute @workgroup_size(256)\n\
         fn main(@builtin(local_invocation_index) t: u32) {{\n\
             for (var i = t; i < 8192u; i += 256u) {{ big[i] = i; }}\n\
             for (var i = t; i < {words}u; i += 256u) {{ more[i] = 2u * i; }}\n\
             if t == 0u {{ flag = 7u; }}\n\
             workgroupBarrier();\n\
             out[t] = big[8191u - t] + more[{words}u - 1u - t] + flag;\n\
         }}\n"
    )
}

#[test]
fn nvptx_takes_workgroup_memory_past_48_kib_as_dynamic_shared_memory() {
    // 32 KiB + 20 KiB + 4 bytes: over 48 KiB.
    let ptx = ptx_sm90(&source(5120), "big.wgsl", LowerOptions::default());
    assert!(ptx.text.contains(".extern .shared"), "{}", ptx.text);
    assert_eq!(
        ptx.abi.dynamic_workgroup_bytes,
        (32768 + 20480 + 4u32).next_multiple_of(16),
        "the used variables, laid out in order, the unused one left out"
    );
    let usage = tools::resource_usage(&ptx.text, 90).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(usage[&ptx.entry].shared, 0, "no static shared memory");

    // 32 KiB + 8 KiB + 4 bytes: static, as before.
    let ptx = ptx_sm90(&source(2048), "small.wgsl", LowerOptions::default());
    assert!(!ptx.text.contains(".extern .shared"), "{}", ptx.text);
    assert_eq!(ptx.abi.dynamic_workgroup_bytes, 0);
    let usage = tools::resource_usage(&ptx.text, 90).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(usage[&ptx.entry].shared, 32768 + 8192 + 4);
}

#[test]
fn amdgpu_keeps_workgroup_memory_static() {
    let hsaco = hsaco_gfx942(&source(5120), LowerOptions::default());
    assert_eq!(hsaco.abis[0].dynamic_workgroup_bytes, 0);
}
