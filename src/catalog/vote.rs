//! Votes: all / any / all-equal across the subgroup or across `2^L`-lane tiles.

use super::{ANY_DTYPE, Arg, Cost, Family, Formula, Namespace, Param, Placement, Primitive, Ret};
use crate::target::Lowering;

const BASE: Primitive = Primitive {
    name: "",
    namespace: Namespace::Subgroup,
    family: Family::Vote,
    template_macro: "",
    params: &[],
    dtypes: &[],
    args: &[Arg::Predicate],
    ret: Ret::Bool,
    placement: Placement::Subgroup,
    cost: Cost {
        builtin: Formula::One,
        shuffle: Some(Formula::L),
        note: "builtin: one vote or ballot + ALU mask; shuffle: L xor-butterfly steps",
    },
    lowerings: &[Lowering::Builtin, Lowering::Shuffle],
    operator: None,
    check: None,
    shared_memory: None,
    needs: None,
    doc: "",
};

const TILED: Primitive = Primitive {
    params: &[Param::Log2Size],
    placement: Placement::Tile,
    ..BASE
};

const EQUAL_COST: Cost = Cost {
    builtin: Formula::Two,
    shuffle: Some(Formula::LPlusOne),
    note: "1 shuffle from the tile's first lane + the all_true vote (builtin: 1 + 1)",
};

pub(super) const PRIMITIVES: &[Primitive] = &[
    Primitive {
        name: "all_true",
        template_macro: "all_true",
        doc: "True in every lane iff the predicate is true in every lane of the subgroup. \
              Builtin: `subgroupAll`; shuffle: an AND butterfly over `log2(S)` xor steps \
              (a loop bounded by the subgroup size when the size is a range). \
              Uniform control flow, all lanes active.",
        ..BASE
    },
    Primitive {
        name: "any_true",
        template_macro: "any_true",
        doc: "True in every lane iff the predicate is true in at least one lane of the \
              subgroup. Builtin: `subgroupAny`; shuffle: an OR butterfly. Uniform control \
              flow, all lanes active.",
        ..BASE
    },
    Primitive {
        name: "all_equal",
        template_macro: "all_equal",
        params: &[Param::Dtype],
        dtypes: ANY_DTYPE,
        args: &[Arg::Value],
        cost: EQUAL_COST,
        doc: "True in every lane iff every lane's value equals lane 0's under WGSL `==`: \
              for floats IEEE equality, so any NaN makes it false and +0 equals -0 \
              (bit-cast floats to integers for bit equality). Subnormal values may compare \
              as zero where the target flushes them, as WGSL allows (NVIDIA does for f32). Lane 0's value is broadcast \
              and compared, then reduced with `all_true`. Uniform control flow, all lanes active.",
        ..BASE
    },
    Primitive {
        name: "all_true_tiled",
        template_macro: "all_true",
        doc: "Per `2^L`-lane tile (lanes aligned to multiples of `2^L`): true in every lane \
              of the tile iff the predicate is true in every lane of that tile. Builtin: \
              one ballot and a mask test of the tile's bits (`subgroupAll` when the tile is \
              the whole fixed-size subgroup); shuffle: L AND-butterfly steps. \
              `L <= log2(min subgroup size)`, checked at expansion.",
        ..TILED
    },
    Primitive {
        name: "any_true_tiled",
        template_macro: "any_true",
        doc: "Per `2^L`-lane tile: true in every lane of the tile iff the predicate is true \
              in at least one lane of that tile. Builtin: one ballot and a mask test \
              (`subgroupAny` for the whole fixed-size subgroup); shuffle: L OR-butterfly steps.",
        ..TILED
    },
    Primitive {
        name: "all_equal_tiled",
        template_macro: "all_equal",
        params: &[Param::Dtype, Param::Log2Size],
        dtypes: ANY_DTYPE,
        args: &[Arg::Value],
        cost: EQUAL_COST,
        doc: "Per `2^L`-lane tile: true in every lane of the tile iff every value in the tile \
              equals the value of the tile's first lane under IEEE `==` (NaN != NaN, \
              +0 == -0). One shuffle from the tile's first lane, then `all_true_tiled<L>`.",
        ..TILED
    },
];
