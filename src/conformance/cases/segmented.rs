//! Segmented scans: head-flag patterns none, all, first lane only, last lane
//! only and random, each tile getting one, cycled so every pattern appears
//! whatever the number of tiles.

use rand::Rng;

use super::{Inputs, arithmetic_value, tiles};
use crate::conformance::arith::fold;
use crate::conformance::case::{Case, CaseBuilder};
use crate::conformance::value::{Value, ValueType};
use crate::dtype::Dtype;
use crate::expand::Instance;

const PATTERNS: [&str; 5] = ["random", "none", "all", "first lane only", "last lane only"];

pub(super) fn cases(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    let op = instance
        .primitive
        .operator
        .expect("segmented scans have an operator");
    let dtype = instance.dtype.expect("segmented scans take a dtype");
    let ty = ValueType::Scalar(dtype);
    let flag_ty = ValueType::Scalar(Dtype::U32);
    let log2_size = instance.log2_size;
    let tile_hint = log2_size.map_or(inputs.min_size, |l| 1 << l);
    // Two cases with the pattern cycle offset, so that even a dispatch of
    // three tiles meets all five patterns.
    [0usize, 3]
        .into_iter()
        .map(|offset| {
            let values = inputs.per_invocation(|rng, _| arithmetic_value(op, dtype, rng));
            let mut tile_index = offset;
            let flags = inputs.per_tile(tile_hint, |rng, n| {
                let pattern = tile_index % PATTERNS.len();
                tile_index += 1;
                (0..n)
                    .map(|i| {
                        let head = match pattern {
                            0 => rng.random_ratio(1, 4),
                            1 => false,
                            2 => true,
                            3 => i == 0,
                            _ => i == n - 1,
                        };
                        // Any non-zero value is a head.
                        Value::u32(if head {
                            rng.random_range(1..=u32::MAX)
                        } else {
                            0
                        })
                    })
                    .collect()
            });
            let label = format!(
                "head flags per tile: {} ...",
                (0..PATTERNS.len())
                    .map(|i| PATTERNS[(offset + i) % PATTERNS.len()])
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            CaseBuilder::new(instance.spec(), instance.lowering, ty, move |l| {
                let mut expected = vec![None; l.size as usize];
                for tile in tiles(l.size, log2_size) {
                    for lane in tile.clone() {
                        let head = (tile.start..=lane)
                            .rev()
                            .find(|&i| l.get(1, i).as_u32() != 0)
                            .unwrap_or(tile.start);
                        let values: Vec<Value> = (head..=lane).map(|i| l.get(0, i)).collect();
                        expected[lane as usize] = Some(fold(op, dtype, &values));
                    }
                }
                expected
            })
            .operand(ty, values)
            .operand(flag_ty, flags)
            .label(label)
            .build()
        })
        .collect()
}
