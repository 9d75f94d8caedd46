//! Shuffles and broadcasts: moving register values between lanes.

use super::{ANY_DTYPE, Arg, Cost, Family, Formula, Namespace, Param, Placement, Primitive, Ret};
use crate::target::Lowering;

const ONE_EXCHANGE: Cost = Cost {
    builtin: Formula::One,
    shuffle: None,
    note: "64-bit dtypes: 2, one per 32-bit half",
};

const SHIFT_EXCHANGE: Cost = Cost {
    builtin: Formula::One,
    shuffle: None,
    note: "+2 ALU for the clamped source lane; 64-bit dtypes: 2 exchanges",
};

const BASE: Primitive = Primitive {
    name: "",
    namespace: Namespace::Subgroup,
    family: Family::Movement,
    template_macro: "",
    params: &[Param::Dtype],
    dtypes: ANY_DTYPE,
    args: &[Arg::Value],
    ret: Ret::Value,
    placement: Placement::PerLane,
    cost: ONE_EXCHANGE,
    lowerings: &[Lowering::Builtin],
    operator: None,
    check: None,
    shared_memory: None,
    needs: None,
    doc: "",
};

pub(super) const PRIMITIVES: &[Primitive] = &[
    Primitive {
        name: "shuffle",
        template_macro: "shuffle",
        args: &[Arg::Value, Arg::Lane],
        doc: "Each lane returns `value` as held by lane `lane` (subgroup-local id). \
              `lane` may differ per lane but must be below the subgroup size; \
              out-of-range lanes give an undefined value. Call from uniform control flow \
              with every lane active. Lowers to `subgroupShuffle` \
              (OpGroupNonUniformShuffle, `shfl.sync.idx`).",
        ..BASE
    },
    Primitive {
        name: "shuffle_up",
        template_macro: "shuffle_up",
        args: &[Arg::Value, Arg::Delta],
        cost: SHIFT_EXCHANGE,
        doc: "Lane i returns `value` of lane `i - delta`; lanes `i < delta` return their \
              own `value` (CUDA `__shfl_up_sync` semantics). `delta` must be the same in every \
              lane. Uniform control flow, all lanes active. Lowers to `subgroupShuffle` at \
              the clamped source lane rather than `subgroupShuffleUp`: the same one exchange \
              on hardware, a defined result in every lane, and it avoids a Mesa lavapipe \
              (22.3) crash compiling OpGroupNonUniformShuffleUp with delta >= 2.",
        ..BASE
    },
    Primitive {
        name: "shuffle_down",
        template_macro: "shuffle_down",
        args: &[Arg::Value, Arg::Delta],
        cost: SHIFT_EXCHANGE,
        doc: "Lane i returns `value` of lane `i + delta`; lanes with `i + delta >= S` return \
              their own `value` (CUDA `__shfl_down_sync` semantics), so tree reductions may \
              read every lane. `delta` must be the same in every lane. Uniform control flow, \
              all lanes active. Lowers to `subgroupShuffle` at the clamped source lane, like \
              `shuffle_up`.",
        ..BASE
    },
    Primitive {
        name: "shuffle_xor",
        template_macro: "shuffle_xor",
        args: &[Arg::Value, Arg::Mask],
        doc: "Lane i returns `value` of lane `i ^ mask` (butterfly exchange). `mask` must \
              be the same in every lane and `i ^ mask` inside the subgroup. Uniform control \
              flow, all lanes active. Lowers to `subgroupShuffleXor`.",
        ..BASE
    },
    Primitive {
        name: "broadcast",
        template_macro: "broadcast",
        args: &[Arg::Value, Arg::UniformLane],
        placement: Placement::Subgroup,
        doc: "Every lane returns `value` of lane `lane`. Contract: `lane` is dynamically \
              uniform (the same in every lane) and below the subgroup size; for a per-lane \
              source use `shuffle`. Lowers to `subgroupShuffle` with the uniform index \
              (naga only accepts a constant index for `subgroupBroadcast`); native back ends \
              may use a uniform read-lane.",
        ..BASE
    },
    Primitive {
        name: "broadcast_first",
        template_macro: "broadcast_first",
        placement: Placement::Subgroup,
        doc: "Every lane returns lane 0's `value`. Under the all-lanes-active contract lane 0 \
              is the first active lane, so this is `subgroupBroadcastFirst`.",
        ..BASE
    },
];
