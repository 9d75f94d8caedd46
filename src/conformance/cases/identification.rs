//! Lane id, subgroup size, election, the subgroup barrier and the memory
//! fence.

use super::{Inputs, per_lane};
use crate::conformance::case::{Case, CaseBuilder};
use crate::conformance::value::{Value, ValueType};
use crate::dtype::Dtype;
use crate::expand::Instance;

pub(super) fn cases(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    let u32_ty = ValueType::Scalar(Dtype::U32);
    let builder = |ret, model: fn(u32, u32) -> Value| {
        CaseBuilder::new(instance.spec(), instance.lowering, ret, move |l| {
            per_lane(l.size, |lane| Some(model(l.size, lane)))
        })
    };
    let case = match instance.primitive.name {
        "invocation_id" => builder(u32_ty, |_, lane| Value::u32(lane)),
        "group_size" => builder(u32_ty, |size, _| Value::u32(size)),
        "log2_group_size" => builder(u32_ty, |size, _| Value::u32(size.trailing_zeros())),
        "elect" => builder(ValueType::Bool, |_, lane| Value::Bool(lane == 0)),
        "sync" => {
            // Each lane publishes a value in workgroup memory, passes the
            // barrier, and reads the value of the lane mirrored across the
            // subgroup; a second barrier keeps the next case's writes after
            // every read (lanes of emulated subgroups do not run in step).
            let values = inputs.per_invocation(|rng, _| Value::u32(rand::Rng::random(rng)));
            CaseBuilder::new(instance.spec(), instance.lowering, u32_ty, |l| {
                per_lane(l.size, |lane| Some(l.get(0, l.size - 1 - lane)))
            })
            .operand(u32_ty, values)
            .custom(
                "let slot = subgroup * lane_count;\n\
                 wk_conf_scratch[slot + lane] = $0;\n\
                 $f();\n\
                 let r = wk_conf_scratch[slot + lane_count - 1u - lane];\n\
                 $f();",
            )
            .label("exchange through workgroup memory")
        }
        "mem_fence" => {
            // Each lane writes its value to workgroup memory, fences, and
            // reads its own slot back.
            let values = inputs.per_invocation(|rng, _| Value::u32(rand::Rng::random(rng)));
            CaseBuilder::new(instance.spec(), instance.lowering, u32_ty, |l| {
                per_lane(l.size, |lane| Some(l.get(0, lane)))
            })
            .operand(u32_ty, values)
            .custom(
                "let slot = subgroup * lane_count;\n\
                 wk_conf_scratch[slot + lane] = $0;\n\
                 $f();\n\
                 let r = wk_conf_scratch[slot + lane];",
            )
            .label("write, fence, read back")
        }
        other => unreachable!("identification op `{other}` has no cases"),
    };
    vec![case.build()]
}
