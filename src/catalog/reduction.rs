//! Reductions: to lane 0 of each tile (`reduce_*`) or to every lane of it
//! (`reduce_all_*`), for seven operators, each with its `_tiled<L>` form.

use super::operator::INTEGER_DTYPES;
use super::{
    ANY_DTYPE, Arg, Cost, Family, Formula, Namespace, Operator, Param, Placement, Primitive, Ret,
};
use crate::target::Lowering;

const BASE: Primitive = Primitive {
    name: "",
    namespace: Namespace::Subgroup,
    family: Family::Reduction,
    template_macro: "",
    params: &[Param::Dtype],
    dtypes: ANY_DTYPE,
    args: &[Arg::Value],
    ret: Ret::Value,
    placement: Placement::FirstLane,
    cost: Cost {
        builtin: Formula::One,
        shuffle: Some(Formula::L),
        note: "builtin on the whole subgroup, else L shuffle+op steps; 64-bit: 2 shuffles a step",
    },
    lowerings: &[Lowering::Builtin, Lowering::Shuffle],
    operator: None,
    check: None,
    shared_memory: None,
    needs: None,
    doc: "",
};

const TILED: &[Param] = &[Param::Dtype, Param::Log2Size];

macro_rules! reductions {
    ($($op:literal, $operator:expr, $dtypes:expr, $what:literal;)*) => {
        pub(super) const PRIMITIVES: &[Primitive] = &[$(
            Primitive {
                name: concat!("reduce_", $op),
                template_macro: "reduce",
                dtypes: $dtypes,
                operator: Some($operator),
                doc: concat!("The ", $what, " of `value` over the subgroup, valid in lane 0 \
                    (other lanes hold partial results). Builtin: `subgroup", $what, "`-style \
                    WGSL collective; shuffle: a shuffle_down tree of log2(S) steps (a loop \
                    bounded by the subgroup size on a size range). Integers wrap; float results \
                    depend on the combination order. Uniform control flow, all lanes active."),
                ..BASE
            },
            Primitive {
                name: concat!("reduce_", $op, "_tiled"),
                template_macro: "reduce",
                params: TILED,
                dtypes: $dtypes,
                operator: Some($operator),
                doc: concat!("Per aligned tile of `2^L` lanes: the ", $what, " of the tile's \
                    values, valid in the tile's first lane. L shuffle_down steps (the WGSL \
                    builtin when the tile is the whole fixed-size subgroup and the lowering \
                    is builtin). `L <= log2(min subgroup size)`, checked at expansion."),
                ..BASE
            },
            Primitive {
                name: concat!("reduce_all_", $op),
                template_macro: "reduce_all",
                dtypes: $dtypes,
                operator: Some($operator),
                placement: Placement::Subgroup,
                doc: concat!("The ", $what, " of `value` over the subgroup, in every lane. \
                    Builtin: the WGSL collective; shuffle: a shuffle_xor butterfly of log2(S) \
                    steps. Uniform control flow, all lanes active."),
                ..BASE
            },
            Primitive {
                name: concat!("reduce_all_", $op, "_tiled"),
                template_macro: "reduce_all",
                params: TILED,
                dtypes: $dtypes,
                operator: Some($operator),
                placement: Placement::Tile,
                doc: concat!("Per aligned tile of `2^L` lanes: the ", $what, " of the tile's \
                    values in every lane of the tile. L shuffle_xor butterfly steps (the WGSL \
                    builtin for the whole fixed-size subgroup under the builtin lowering)."),
                ..BASE
            },
        )*];
    };
}

reductions! {
    "add", Operator::Add, ANY_DTYPE, "sum";
    "mul", Operator::Mul, ANY_DTYPE, "product";
    "min", Operator::Min, ANY_DTYPE, "minimum";
    "max", Operator::Max, ANY_DTYPE, "maximum";
    "and", Operator::And, INTEGER_DTYPES, "bitwise AND";
    "or", Operator::Or, INTEGER_DTYPES, "bitwise OR";
    "xor", Operator::Xor, INTEGER_DTYPES, "bitwise XOR";
}
