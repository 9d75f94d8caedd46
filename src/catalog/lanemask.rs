//! Closed-form 32-bit lane masks relative to a lane id.

use super::{Arg, Cost, Family, Formula, Namespace, Placement, Primitive, Ret};
use crate::target::Lowering;

const BASE: Primitive = Primitive {
    name: "",
    namespace: Namespace::Subgroup,
    family: Family::LaneMask,
    template_macro: "",
    params: &[],
    dtypes: &[],
    args: &[Arg::LaneId],
    ret: Ret::U32,
    placement: Placement::PerLane,
    cost: Cost {
        builtin: Formula::Zero,
        shuffle: None,
        note: "1-3 ALU ops",
    },
    lowerings: &[Lowering::Builtin],
    operator: None,
    check: None,
    shared_memory: None,
    needs: None,
    doc: "",
};

pub(super) const PRIMITIVES: &[Primitive] = &[
    Primitive {
        name: "lanemask_lt",
        template_macro: "lanemask_lt",
        doc: "Bits `i < lane_id` set: `(1 << lane_id) - 1`. Pure arithmetic, so `lane_id` \
              may vary per lane. Contract: `lane_id` in 0..=31 (the mask covers lanes 0..31 \
              only; use `ballot` for wider subgroups).",
        ..BASE
    },
    Primitive {
        name: "lanemask_le",
        template_macro: "lanemask_le",
        doc: "Bits `i <= lane_id` set. `lane_id` in 0..=31.",
        ..BASE
    },
    Primitive {
        name: "lanemask_eq",
        template_macro: "lanemask_eq",
        doc: "Only bit `lane_id` set: `1 << lane_id`. `lane_id` in 0..=31.",
        ..BASE
    },
    Primitive {
        name: "lanemask_gt",
        template_macro: "lanemask_gt",
        doc: "Bits `i > lane_id` set: `~lanemask_le`. `lane_id` in 0..=31.",
        ..BASE
    },
    Primitive {
        name: "lanemask_ge",
        template_macro: "lanemask_ge",
        doc: "Bits `i >= lane_id` set: `~lanemask_lt`. `lane_id` in 0..=31.",
        ..BASE
    },
];
