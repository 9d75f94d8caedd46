//! Device-wide (grid) primitives: the device-scope memory fence.

use super::{Cost, Family, Formula, Namespace, Placement, Primitive, Ret};
use crate::target::Lowering;

/// Every grid primitive.
pub const PRIMITIVES: &[Primitive] = &[Primitive {
    name: "mem_fence",
    namespace: Namespace::Grid,
    family: Family::GridSync,
    template_macro: "mem_fence",
    params: &[],
    dtypes: &[],
    args: &[],
    ret: Ret::Nothing,
    placement: Placement::Nothing,
    cost: Cost {
        builtin: Formula::Zero,
        shuffle: None,
        note: "one device-scope memory fence, no execution barrier",
    },
    lowerings: &[Lowering::Builtin],
    operator: None,
    check: None,
    shared_memory: None,
    needs: None,
    doc: "Device-scope memory fence (document 000's planned `grid.mem_fence()`, CUDA \
          `__threadfence`): the calling thread's storage-buffer accesses before the call are \
          ordered before those after it, as threads of any workgroup observe them, when an \
          atomic carries the order (a producer writes data, fences, then sets a flag with an \
          atomic; a consumer that reads the flag with an atomic, fences, then reads the data \
          sees it). No thread waits for another. What WGSL promises: its barriers order memory \
          at workgroup scope only and its atomics are relaxed, so WGSL itself promises nothing \
          across workgroups; what runs is stronger. The expansion writes `storageBarrier()` and \
          wavekit rewrites it in the naga module to `Statement::MemoryBarrier(STORAGE)`: \
          SPIR-V OpMemoryBarrier(Device, AcquireRelease | UniformMemory) on Vulkan, HLSL \
          `DeviceMemoryBarrier()`, GLSL `memoryBarrierBuffer()`; naga's MSL writer has no \
          fence and writes `threadgroup_barrier(mem_device)`, which also synchronises the \
          threadgroup, so on Metal call it in uniform control flow. Natively it is \
          `fence.acq_rel.gpu` on CUDA (lighter than `membar.gl`, which is `fence.sc.gpu`) and \
          an LLVM `fence syncscope(\"agent\") acq_rel` on AMDGPU. Text WGSL output cannot \
          carry a fence and keeps the `storageBarrier()`. naga requires uniform control flow \
          for it, as for every barrier.",
}];
