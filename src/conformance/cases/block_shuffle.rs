//! Block shuffles, checked over whole workgroups: offsets and rotations of
//! one value per thread, and the blocked tile shifted by one item.

use super::Inputs;
use super::block_exchange::{blocked_tile, items_from_operands};
use crate::conformance::case::{Case, CaseBuilder, Lanes};
use crate::conformance::expected::Expected;
use crate::conformance::value::{ValueType, random_bits};
use crate::expand::Instance;

pub(super) fn cases(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    let dtype = instance.dtype.expect("block shuffles take a dtype");
    let b = instance.block_dim.expect("block shuffles take B");
    let ty = ValueType::Scalar(dtype);
    match instance.primitive.name {
        "shuffle_offset" | "rotate" => {
            let rotate = instance.primitive.name == "rotate";
            let values = inputs.per_invocation(|rng, _| random_bits(dtype, rng));
            // Forward by one, backward past the middle; rotations past B.
            let distances: [i64; 2] = if rotate {
                [1, i64::from(b) + 3]
            } else {
                [1, -i64::from(b / 2 + 1)]
            };
            distances
                .into_iter()
                .map(|d| {
                    let model = move |l: &Lanes<'_>| {
                        (0..b)
                            .map(|t| {
                                let source = if rotate {
                                    (i64::from(t) + d).rem_euclid(i64::from(b))
                                } else {
                                    i64::from(t) + d
                                };
                                let from = u32::try_from(source).ok().filter(|s| *s < b);
                                Some(l.get(0, from.unwrap_or(t)).into())
                            })
                            .collect()
                    };
                    let literal = if rotate {
                        format!("{d}u")
                    } else {
                        format!("{d}i")
                    };
                    CaseBuilder::new(instance.spec(), instance.lowering, ty, model)
                        .operand(ty, values.clone())
                        .literal(literal)
                        .label(format!("random bits, distance {d}"))
                        .block(b)
                        .build()
                })
                .collect()
        }
        _ => shift(instance, inputs),
    }
}

/// `up` and `down`: the items after the shift, then the returned end of
/// the tile.
fn shift(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    let dtype = instance.dtype.expect("block shuffles take a dtype");
    let b = instance.block_dim.expect("block shuffles take B");
    let n = instance.constant("items");
    let ty = ValueType::Scalar(dtype);
    let up = instance.primitive.name == "up";
    let model = move |l: &Lanes<'_>| {
        let tile = blocked_tile(l, b, n);
        let last = tile.len() - 1;
        let end = if up { tile[last] } else { tile[0] };
        (0..b as usize)
            .flat_map(|t| {
                let shifted = (t * n as usize..(t + 1) * n as usize).map(|j| match (up, j) {
                    (true, 0) => tile[0],
                    (true, _) => tile[j - 1],
                    (false, j) if j == last => tile[last],
                    (false, _) => tile[j + 1],
                });
                shifted.chain([end]).collect::<Vec<_>>()
            })
            .map(|v| Some(Expected::from(v)))
            .collect()
    };
    let mut builder = CaseBuilder::new(instance.spec(), instance.lowering, ty, model);
    for _ in 0..n {
        builder = builder.operand(ty, inputs.per_invocation(|rng, _| random_bits(dtype, rng)));
    }
    let reads: Vec<String> = (0..n).map(|k| format!("items[{k}]")).collect();
    let t = dtype.wgsl();
    let code = format!(
        "{}\nlet end = $f(&items);\nlet r = array<{t}, {}>({}, end);",
        items_from_operands(t, n, 0),
        n + 1,
        reads.join(", ")
    );
    vec![
        builder
            .custom(code)
            .label("random bits")
            .results(n + 1)
            .block(b)
            .build(),
    ]
}
