//! Segmented scans: inclusive scans that restart at every non-zero head flag.

use super::{
    ANY_DTYPE, Arg, Cost, Family, Formula, Namespace, Operator, Param, Placement, Primitive, Ret,
};
use crate::target::Lowering;

const BASE: Primitive = Primitive {
    name: "",
    namespace: Namespace::Subgroup,
    family: Family::Segmented,
    template_macro: "segmented_reduce",
    params: &[Param::Dtype],
    dtypes: ANY_DTYPE,
    args: &[Arg::Value, Arg::HeadFlag],
    ret: Ret::Value,
    placement: Placement::PerLane,
    cost: Cost {
        builtin: Formula::LPlusOne,
        shuffle: None,
        note: "1 ballot + L shuffle_up + op steps, plus firstLeadingBit on 1-4 ballot words",
    },
    lowerings: &[Lowering::Shuffle],
    operator: None,
    check: None,
    shared_memory: None,
    needs: None,
    doc: "",
};

const TILED: &[Param] = &[Param::Dtype, Param::Log2Size];

macro_rules! segmented {
    ($($op:literal, $operator:expr;)*) => {
        pub(super) const PRIMITIVES: &[Primitive] = &[$(
            Primitive {
                name: concat!("segmented_reduce_", $op),
                operator: Some($operator),
                doc: concat!("Per-lane inclusive `", $op, "` scan over the subgroup that \
                    restarts at every lane whose `head_flag` is non-zero; lane 0 is an implicit \
                    head. Lane i gets the scan of v[h..=i], h the last head at or below i. \
                    A ballot of the head flags gives each lane its distance to its head, and \
                    the Hillis-Steele steps combine only partners within that distance, so no \
                    identity element is needed. Works for every subgroup size up to 128 \
                    (all four ballot words). Uniform control flow, all lanes active."),
                ..BASE
            },
            Primitive {
                name: concat!("segmented_reduce_", $op, "_tiled"),
                params: TILED,
                operator: Some($operator),
                doc: concat!("Per aligned tile of `2^L` lanes: the segmented inclusive `", $op,
                    "` scan, each tile's first lane an implicit head. `L <= log2(min subgroup \
                    size)`, up to 7 (128-lane tiles)."),
                ..BASE
            },
        )*];
    };
}

segmented! {
    "add", Operator::Add;
    "min", Operator::Min;
    "max", Operator::Max;
}
