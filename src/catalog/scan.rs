//! Inclusive and exclusive scans for seven operators, each with its
//! `_tiled<L>` form. Lane i of a tile gets `v[0] op ... op v[i]` (inclusive)
//! or `v[0] op ... op v[i-1]` with the operator's identity in lane 0 (exclusive).

use super::operator::INTEGER_DTYPES;
use super::{
    ANY_DTYPE, Arg, Cost, Family, Formula, Namespace, Operator, Param, Placement, Primitive, Ret,
};
use crate::target::Lowering;

const BOTH: &[Lowering] = &[Lowering::Builtin, Lowering::Shuffle];
const SHUFFLE_ONLY: &[Lowering] = &[Lowering::Shuffle];

const INCLUSIVE: Primitive = Primitive {
    name: "",
    namespace: Namespace::Subgroup,
    family: Family::Scan,
    template_macro: "inclusive",
    params: &[Param::Dtype],
    dtypes: ANY_DTYPE,
    args: &[Arg::Value],
    ret: Ret::Value,
    placement: Placement::PerLane,
    cost: Cost {
        builtin: Formula::One,
        shuffle: Some(Formula::L),
        note: "Hillis-Steele: L shuffle_up + op + select steps; 64-bit: 2 shuffles a step",
    },
    lowerings: SHUFFLE_ONLY,
    operator: None,
    check: None,
    shared_memory: None,
    needs: None,
    doc: "",
};

const EXCLUSIVE: Primitive = Primitive {
    template_macro: "exclusive",
    cost: Cost {
        builtin: Formula::One,
        shuffle: Some(Formula::LPlusOne),
        note: "the inclusive scan, one shuffle_up by 1 and the identity in lane 0",
    },
    ..INCLUSIVE
};

const TILED: &[Param] = &[Param::Dtype, Param::Log2Size];

macro_rules! scans {
    ($($op:literal, $operator:expr, $dtypes:expr, $lowerings:expr, $identity:literal;)*) => {
        pub(super) const PRIMITIVES: &[Primitive] = &[$(
            Primitive {
                name: concat!("inclusive_", $op),
                dtypes: $dtypes,
                lowerings: $lowerings,
                operator: Some($operator),
                doc: concat!("Inclusive `", $op, "` scan over the subgroup: lane i gets \
                    v[0] ", $op, " ... ", $op, " v[i]. Shuffle lowering: Hillis-Steele over \
                    log2(S) shuffle_up steps (a loop bounded by the subgroup size on a size \
                    range); builtin (add and mul only): `subgroupInclusiveAdd/Mul`. \
                    Uniform control flow, all lanes active."),
                ..INCLUSIVE
            },
            Primitive {
                name: concat!("inclusive_", $op, "_tiled"),
                params: TILED,
                dtypes: $dtypes,
                lowerings: $lowerings,
                operator: Some($operator),
                doc: concat!("Per aligned tile of `2^L` lanes: inclusive `", $op, "` scan \
                    restarted at each tile's first lane. L shuffle_up steps."),
                ..INCLUSIVE
            },
            Primitive {
                name: concat!("exclusive_", $op),
                dtypes: $dtypes,
                lowerings: $lowerings,
                operator: Some($operator),
                doc: concat!("Exclusive `", $op, "` scan over the subgroup: lane i > 0 gets \
                    v[0] ", $op, " ... ", $op, " v[i-1]; lane 0 gets the identity (", $identity,
                    "). Shuffle lowering: the inclusive scan, one shuffle_up by 1, and the \
                    identity in lane 0; builtin (add and mul only): `subgroupExclusiveAdd/Mul`."),
                ..EXCLUSIVE
            },
            Primitive {
                name: concat!("exclusive_", $op, "_tiled"),
                params: TILED,
                dtypes: $dtypes,
                lowerings: $lowerings,
                operator: Some($operator),
                doc: concat!("Per aligned tile of `2^L` lanes: exclusive `", $op, "` scan; \
                    each tile's first lane gets the identity (", $identity, ")."),
                ..EXCLUSIVE
            },
        )*];
    };
}

scans! {
    "add", Operator::Add, ANY_DTYPE, BOTH, "0";
    "mul", Operator::Mul, ANY_DTYPE, BOTH, "1";
    "min", Operator::Min, ANY_DTYPE, SHUFFLE_ONLY, "+inf, or the dtype's largest integer";
    "max", Operator::Max, ANY_DTYPE, SHUFFLE_ONLY, "-inf, the dtype's smallest integer, or 0 unsigned";
    "and", Operator::And, INTEGER_DTYPES, SHUFFLE_ONLY, "all ones";
    "or", Operator::Or, INTEGER_DTYPES, SHUFFLE_ONLY, "0";
    "xor", Operator::Xor, INTEGER_DTYPES, SHUFFLE_ONLY, "0";
}
