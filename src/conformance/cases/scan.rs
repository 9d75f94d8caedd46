//! Inclusive and exclusive scans within each tile.

use super::{Inputs, arithmetic_value, tiles};
use crate::conformance::arith::fold;
use crate::conformance::case::{Case, CaseBuilder};
use crate::conformance::value::{Value, ValueType};
use crate::expand::Instance;

pub(super) fn cases(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    let op = instance.primitive.operator.expect("scans have an operator");
    let dtype = instance.dtype.expect("scans take a dtype");
    let ty = ValueType::Scalar(dtype);
    let exclusive = instance.primitive.template_macro == "exclusive";
    let log2_size = instance.log2_size;
    let values = inputs.per_invocation(|rng, _| arithmetic_value(op, dtype, rng));
    vec![
        CaseBuilder::new(instance.spec(), instance.lowering, ty, move |l| {
            let mut expected = vec![None; l.size as usize];
            for tile in tiles(l.size, log2_size) {
                let values: Vec<Value> = tile.clone().map(|i| l.get(0, i)).collect();
                for (t, lane) in tile.enumerate() {
                    let end = if exclusive { t } else { t + 1 };
                    expected[lane as usize] = Some(fold(op, dtype, &values[..end]));
                }
            }
            expected
        })
        .operand(ty, values)
        .label("random values")
        .build(),
    ]
}
