//! Reductions: each tile's fold in its first lane (`reduce_*`) or in every
//! lane (`reduce_all_*`).

use super::{Inputs, arithmetic_value, tiles};
use crate::conformance::arith::fold;
use crate::conformance::case::{Case, CaseBuilder};
use crate::conformance::value::{Value, ValueType};
use crate::expand::Instance;

pub(super) fn cases(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    let op = instance
        .primitive
        .operator
        .expect("reductions have an operator");
    let dtype = instance.dtype.expect("reductions take a dtype");
    let ty = ValueType::Scalar(dtype);
    let broadcast = instance.primitive.template_macro == "reduce_all";
    let log2_size = instance.log2_size;
    let values = inputs.per_invocation(|rng, _| arithmetic_value(op, dtype, rng));
    vec![
        CaseBuilder::new(instance.spec(), instance.lowering, ty, move |l| {
            let mut expected = vec![None; l.size as usize];
            for tile in tiles(l.size, log2_size) {
                let values: Vec<Value> = tile.clone().map(|i| l.get(0, i)).collect();
                let result = fold(op, dtype, &values);
                let lanes = if broadcast {
                    tile
                } else {
                    tile.start..tile.start + 1
                };
                for lane in lanes {
                    expected[lane as usize] = Some(result);
                }
            }
            expected
        })
        .operand(ty, values)
        .label("random values")
        .build(),
    ]
}
