//! Closed-form lane masks of a lane id in `0..=31`.

use rand::Rng;

use super::{Inputs, per_lane};
use crate::conformance::case::{Case, CaseBuilder};
use crate::conformance::value::{Value, ValueType};
use crate::dtype::Dtype;
use crate::expand::Instance;

pub(super) fn cases(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    let u32_ty = ValueType::Scalar(Dtype::U32);
    // Every id 0..=31 appears, then random ones.
    let ids = inputs
        .per_invocation(|rng, i| Value::u32(if i < 32 { i } else { rng.random_range(0..32) }));
    let model: fn(u32) -> u32 = match instance.primitive.name {
        "lanemask_lt" => |id| ((1u64 << id) - 1) as u32,
        "lanemask_le" => |id| ((2u64 << id) - 1) as u32,
        "lanemask_eq" => |id| 1 << id,
        "lanemask_gt" => |id| !(((2u64 << id) - 1) as u32),
        "lanemask_ge" => |id| !(((1u64 << id) - 1) as u32),
        other => unreachable!("lane-mask op `{other}` has no cases"),
    };
    vec![
        CaseBuilder::new(instance.spec(), instance.lowering, u32_ty, move |l| {
            per_lane(l.size, |lane| {
                Some(Value::u32(model(l.get(0, lane).as_u32())))
            })
        })
        .operand(u32_ty, ids)
        .label("every lane id")
        .build(),
    ]
}
