//! Lane identity, subgroup size, election, the subgroup barrier and the
//! subgroup memory fence.

use super::{Cost, Family, Formula, Namespace, Placement, Primitive, Ret};
use crate::target::Lowering;

const FREE: Cost = Cost {
    builtin: Formula::Zero,
    shuffle: None,
    note: "reads the lane state set at entry",
};

const BASE: Primitive = Primitive {
    name: "",
    namespace: Namespace::Subgroup,
    family: Family::Identification,
    template_macro: "",
    params: &[],
    dtypes: &[],
    args: &[],
    ret: Ret::U32,
    placement: Placement::PerLane,
    cost: FREE,
    lowerings: &[Lowering::Builtin],
    operator: None,
    check: None,
    shared_memory: None,
    needs: None,
    doc: "",
};

pub(super) const PRIMITIVES: &[Primitive] = &[
    Primitive {
        name: "invocation_id",
        template_macro: "invocation_id",
        doc: "This lane's subgroup-local index, `0 ..= S-1` (WGSL's \
              `subgroup_invocation_id`). Valid after the entry point has run `wk_sg_init` \
              (the composer inserts it; snippet users call it first thing).",
        ..BASE
    },
    Primitive {
        name: "group_size",
        template_macro: "group_size",
        placement: Placement::Subgroup,
        cost: Cost {
            builtin: Formula::Zero,
            shuffle: None,
            note: "a constant when the target's size is fixed",
        },
        doc: "The subgroup size S. A literal when the target's size is fixed, else the \
              `subgroup_size` builtin recorded by `wk_sg_init`.",
        ..BASE
    },
    Primitive {
        name: "log2_group_size",
        template_macro: "log2_group_size",
        placement: Placement::Subgroup,
        cost: Cost {
            builtin: Formula::Zero,
            shuffle: None,
            note: "a constant when the target's size is fixed, else one firstTrailingBit",
        },
        doc: "`log2(S)`: the `log2_size` at which a tiled op covers the whole subgroup.",
        ..BASE
    },
    Primitive {
        name: "elect",
        template_macro: "elect",
        ret: Ret::Bool,
        cost: Cost {
            builtin: Formula::Zero,
            shuffle: None,
            note: "one compare",
        },
        doc: "True on lane 0 of every subgroup, false elsewhere. Narrower than SPIR-V's \
              OpGroupNonUniformElect (any active lane), so every back end elects the same lane.",
        ..BASE
    },
    Primitive {
        name: "sync",
        template_macro: "sync",
        ret: Ret::Nothing,
        placement: Placement::Nothing,
        cost: Cost {
            builtin: Formula::Zero,
            shuffle: None,
            note: "one subgroup control barrier",
        },
        doc: "Subgroup-scope control barrier (`subgroupBarrier`): every lane reaches it \
              before any proceeds. Its memory semantics are subgroup-scoped \
              (naga emits OpControlBarrier(Subgroup, Subgroup, AcquireRelease | SubgroupMemory)); \
              use `block::sync` to order workgroup memory. Uniform control flow, all lanes active.",
        ..BASE
    },
    Primitive {
        name: "mem_fence",
        template_macro: "mem_fence",
        ret: Ret::Nothing,
        placement: Placement::Nothing,
        cost: Cost {
            builtin: Formula::Zero,
            shuffle: None,
            note: "one subgroup-scope memory fence, no execution barrier",
        },
        doc: "Subgroup memory fence (document 000's `subgroup.mem_fence()`): orders the calling \
              lane's workgroup-memory accesses before the call against those after it, as \
              the other lanes of its subgroup observe them; no lane waits for another (pair \
              it with `sync` or a flag to exchange data). WGSL has no fence statement, so the \
              expansion writes `subgroupBarrier()` and wavekit rewrites it in the naga module \
              to `Statement::MemoryBarrier(SUB_GROUP | WORK_GROUP)`: SPIR-V \
              OpMemoryBarrier(Subgroup, AcquireRelease | WorkgroupMemory | SubgroupMemory), \
              GLSL `memoryBarrierShared(); subgroupMemoryBarrier();`, HLSL \
              `GroupMemoryBarrier()` (HLSL has no subgroup scope: over-strict, correct since \
              the subgroup is part of the workgroup); naga's MSL writer has no fence and \
              writes `threadgroup_barrier(mem_threadgroup)` and `simdgroup_barrier`, which \
              also synchronise. Natively it is `membar.cta` (`__threadfence_block`) on CUDA - \
              PTX has no warp-scope membar, and `__syncwarp` is an execution barrier, not a \
              fence - and an LLVM `fence syncscope(\"wavefront\") acq_rel` on AMDGPU. Text \
              WGSL output (snippets, `emit --lang wgsl`) cannot carry a fence and keeps the \
              `subgroupBarrier()`. naga requires uniform control flow for it (its uniformity \
              analysis treats memory barriers like barriers).",
        ..BASE
    },
];
