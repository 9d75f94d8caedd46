//! Shuffles, broadcasts, quad operations and rotates: every lane's result is another lane's value,
//! compared bit for bit (NaN payloads, signed zeros and subnormals included).

use std::collections::BTreeSet;

use rand::Rng;

use super::{Inputs, per_lane};
use crate::conformance::case::{Case, CaseBuilder};
use crate::conformance::value::{Value, ValueType, random_bits};
use crate::expand::Instance;

pub(super) fn cases(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    let dtype = instance.dtype.expect("movement ops take a dtype");
    let ty = ValueType::Scalar(dtype);
    let s = inputs.min_size;
    let values = inputs.per_invocation(|rng, _| random_bits(dtype, rng));
    let builder = |model: fn(&crate::conformance::case::Lanes<'_>, u32) -> Option<Value>| {
        CaseBuilder::new(instance.spec(), instance.lowering, ty, move |lanes| {
            per_lane(lanes.size, |lane| model(lanes, lane))
        })
        .operand(ty, values.clone())
    };
    let small = |extra: &[u32]| -> BTreeSet<u32> {
        [1, 2, s / 2, s - 1].iter().chain(extra).copied().collect()
    };
    match instance.primitive.name {
        "shuffle" => {
            let random = inputs.per_invocation(|rng, _| Value::u32(rng.random_range(0..s)));
            let reversed = inputs.per_invocation(|_, i| Value::u32(s - 1 - i % s));
            let model = |l: &crate::conformance::case::Lanes<'_>, lane: u32| {
                Some(l.get(0, l.get(1, lane).as_u32()))
            };
            vec![
                builder(model)
                    .operand(ValueType::Scalar(crate::Dtype::U32), random)
                    .label("random source lanes")
                    .build(),
                builder(model)
                    .operand(ValueType::Scalar(crate::Dtype::U32), reversed)
                    .label("reversed lanes")
                    .build(),
            ]
        }
        "shuffle_up" => small(&[0])
            .into_iter()
            .map(|delta| {
                CaseBuilder::new(instance.spec(), instance.lowering, ty, move |l| {
                    per_lane(l.size, |lane| {
                        Some(l.get(0, lane.checked_sub(delta).unwrap_or(lane)))
                    })
                })
                .operand(ty, values.clone())
                .literal(format!("{delta}u"))
                .label(format!("delta={delta}"))
                .build()
            })
            .collect(),
        "shuffle_down" => small(&[0])
            .into_iter()
            .map(|delta| {
                CaseBuilder::new(instance.spec(), instance.lowering, ty, move |l| {
                    per_lane(l.size, |lane| {
                        let source = if lane + delta < l.size {
                            lane + delta
                        } else {
                            lane
                        };
                        Some(l.get(0, source))
                    })
                })
                .operand(ty, values.clone())
                .literal(format!("{delta}u"))
                .label(format!("delta={delta}"))
                .build()
            })
            .collect(),
        "shuffle_xor" => small(&[])
            .into_iter()
            .map(|mask| {
                CaseBuilder::new(instance.spec(), instance.lowering, ty, move |l| {
                    per_lane(l.size, |lane| Some(l.get(0, lane ^ mask)))
                })
                .operand(ty, values.clone())
                .literal(format!("{mask}u"))
                .label(format!("mask={mask}"))
                .build()
            })
            .collect(),
        "broadcast" => {
            let random = inputs.rng().random_range(0..s);
            [0, 1, s - 1, random]
                .into_iter()
                .collect::<BTreeSet<u32>>()
                .into_iter()
                .map(|src| {
                    CaseBuilder::new(instance.spec(), instance.lowering, ty, move |l| {
                        per_lane(l.size, |_| Some(l.get(0, src)))
                    })
                    .operand(ty, values.clone())
                    .literal(format!("{src}u"))
                    .label(format!("lane={src}"))
                    .build()
                })
                .collect()
        }
        "broadcast_first" => vec![
            builder(|l, _| Some(l.get(0, 0)))
                .label("all lanes active")
                .build(),
        ],
        "quad_broadcast" => {
            let random = inputs.per_invocation(|rng, _| Value::u32(rng.random_range(0..4)));
            let model = |l: &crate::conformance::case::Lanes<'_>, lane: u32| {
                Some(l.get(0, (lane & !3) | l.get(1, lane).as_u32()))
            };
            let mut cases = vec![
                builder(model)
                    .operand(ValueType::Scalar(crate::Dtype::U32), random)
                    .label("random ids per lane")
                    .build(),
            ];
            cases.extend([0u32, 3].into_iter().map(|id| {
                CaseBuilder::new(instance.spec(), instance.lowering, ty, move |l| {
                    per_lane(l.size, |lane| Some(l.get(0, (lane & !3) | id)))
                })
                .operand(ty, values.clone())
                .literal(format!("{id}u"))
                .label(format!("id={id}"))
                .build()
            }));
            cases
        }
        "quad_swap_x" => vec![
            builder(|l, lane| Some(l.get(0, lane ^ 1)))
                .label("lane ^ 1")
                .build(),
        ],
        "quad_swap_y" => vec![
            builder(|l, lane| Some(l.get(0, lane ^ 2)))
                .label("lane ^ 2")
                .build(),
        ],
        "quad_swap_diagonal" => {
            vec![
                builder(|l, lane| Some(l.get(0, lane ^ 3)))
                    .label("lane ^ 3")
                    .build(),
            ]
        }
        "rotate" | "rotate_tiled" => {
            // Tile of the op; a full rotate wraps at the subgroup's own size.
            let tile = instance.log2_size.map(|l| 1u32 << l);
            let t = tile.unwrap_or(s);
            // Delta 1 first: the first case is the one static budgets compile.
            let mut deltas: Vec<u32> = Vec::new();
            for delta in [1, 0, t - 1, 2 * t + 1] {
                if !deltas.contains(&delta) {
                    deltas.push(delta);
                }
            }
            deltas
                .into_iter()
                .map(|delta| {
                    CaseBuilder::new(instance.spec(), instance.lowering, ty, move |l| {
                        let t = tile.unwrap_or(l.size);
                        per_lane(l.size, |lane| {
                            Some(l.get(0, (lane & !(t - 1)) | ((lane + delta) % t)))
                        })
                    })
                    .operand(ty, values.clone())
                    .literal(format!("{delta}u"))
                    .label(format!("delta={delta}"))
                    .build()
                })
                .collect()
        }
        other => unreachable!("movement op `{other}` has no cases"),
    }
}
