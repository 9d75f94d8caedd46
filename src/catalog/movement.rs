//! Shuffles, broadcasts, quad operations and rotates: moving register values
//! between lanes.

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

const QUAD_SWAP: Cost = Cost {
    builtin: Formula::One,
    shuffle: Some(Formula::One),
    note: "builtin: one quad swap; shuffle: one xor shuffle; 64-bit dtypes: 2",
};

const ROTATE: Cost = Cost {
    builtin: Formula::One,
    shuffle: None,
    note: "one shuffle + 2 ALU for the source lane; 64-bit dtypes: 2 exchanges",
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

const QUAD: Primitive = Primitive {
    cost: QUAD_SWAP,
    lowerings: &[Lowering::Builtin, Lowering::Shuffle],
    ..BASE
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
    Primitive {
        name: "quad_broadcast",
        template_macro: "quad_broadcast",
        args: &[Arg::Value, Arg::QuadLane],
        cost: Cost {
            builtin: Formula::One,
            shuffle: None,
            note: "one shuffle + 2 ALU for the source lane; 64-bit dtypes: 2 exchanges",
        },
        doc: "Each lane returns `value` as held by lane `id` of its quad (the aligned group \
              of 4 lanes it belongs to, lanes `4q ..= 4q+3`): lane i reads lane \
              `(i & ~3) | id` (SPIR-V OpGroupNonUniformQuadBroadcast, HLSL `QuadReadLaneAt`). \
              `id` must be in `0..=3`; it may differ per lane (a larger id reads outside the \
              quad, undefined). WGSL's `quadBroadcast` (and naga) requires a const-expression \
              id, so this run-time id always lowers to one `subgroupShuffle` at \
              `(lane & ~3) | id`, on every target. Uniform control flow, all lanes active.",
        ..BASE
    },
    Primitive {
        name: "quad_swap_x",
        template_macro: "quad_swap_x",
        doc: "Each lane returns `value` of the horizontally opposite lane of its quad, lane \
              `i ^ 1` (`subgroupQuadSwapHorizontal`, HLSL `QuadReadAcrossX`). Builtin: WGSL \
              `quadSwapX` (OpGroupNonUniformQuadSwap, direction 0); shuffle: \
              `subgroupShuffleXor(value, 1u)`. Uniform control flow, all lanes active.",
        ..QUAD
    },
    Primitive {
        name: "quad_swap_y",
        template_macro: "quad_swap_y",
        doc: "Each lane returns `value` of the vertically opposite lane of its quad, lane \
              `i ^ 2` (`subgroupQuadSwapVertical`, HLSL `QuadReadAcrossY`). Builtin: WGSL \
              `quadSwapY` (OpGroupNonUniformQuadSwap, direction 1); shuffle: \
              `subgroupShuffleXor(value, 2u)`. Uniform control flow, all lanes active.",
        ..QUAD
    },
    Primitive {
        name: "quad_swap_diagonal",
        template_macro: "quad_swap_diagonal",
        doc: "Each lane returns `value` of the diagonally opposite lane of its quad, lane \
              `i ^ 3` (`subgroupQuadSwapDiagonal`, HLSL `QuadReadAcrossDiagonal`). Builtin: \
              WGSL `quadSwapDiagonal` (OpGroupNonUniformQuadSwap, direction 2); shuffle: \
              `subgroupShuffleXor(value, 3u)`. Uniform control flow, all lanes active.",
        ..QUAD
    },
    Primitive {
        name: "rotate",
        template_macro: "rotate",
        args: &[Arg::Value, Arg::Delta],
        cost: ROTATE,
        doc: "Lane i returns `value` of lane `(i + delta) mod S`: the subgroup rotated down \
              by `delta` lanes, wrapping around (SPV_KHR_subgroup_rotate's \
              OpGroupNonUniformRotateKHR, GLSL `subgroupRotate`, Metal \
              `simd_shuffle_rotate_down`). `delta` must be the same in every lane; any value \
              is allowed (taken mod S). naga has no rotate builtin, so it lowers to one \
              `subgroupShuffle` at `(lane + delta) & (S - 1)` on every target.",
        ..BASE
    },
    Primitive {
        name: "rotate_tiled",
        template_macro: "rotate",
        params: &[Param::Dtype, Param::Log2Size],
        args: &[Arg::Value, Arg::Delta],
        cost: ROTATE,
        doc: "Clustered rotate: within each aligned tile of `2^L` lanes, lane `base + j` \
              returns `value` of lane `base + ((j + delta) mod 2^L)` (the ClusterSize form of \
              OpGroupNonUniformRotateKHR). `delta` must be the same in every lane, any value. \
              One `subgroupShuffle` at `(lane & ~(2^L - 1)) | ((lane + delta) & (2^L - 1))` \
              on every target. `L <= log2(min subgroup size)`, checked at expansion.",
        ..BASE
    },
];
