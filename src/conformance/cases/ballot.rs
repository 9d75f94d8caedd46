//! Ballots: bit `i` of the result is lane `i`'s predicate (or, for
//! `match_any`, whether lane `i` holds the same value as this lane).

use rand::Rng;

use super::{Inputs, ordered_value, per_lane};
use crate::conformance::case::{Case, CaseBuilder, Lanes};
use crate::conformance::value::{Value, ValueType, nan_and_zeros, random_bits};
use crate::dtype::Dtype;
use crate::expand::Instance;

/// The 128-bit ballot of a subgroup.
fn ballot_words(l: &Lanes<'_>) -> [u32; 4] {
    let mut words = [0u32; 4];
    for lane in 0..l.size {
        if l.get(0, lane).as_bool() {
            words[(lane / 32) as usize] |= 1 << (lane % 32);
        }
    }
    words
}

pub(super) fn cases(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    if instance.primitive.name == "match_any" {
        return match_any_cases(instance, inputs);
    }
    let patterns = [
        (
            "per-tile patterns",
            inputs.tile_predicates(inputs.min_size.min(32)),
        ),
        (
            "sparse",
            inputs.per_invocation(|rng, _| Value::Bool(rand::Rng::random_ratio(rng, 1, 8))),
        ),
    ];
    patterns
        .into_iter()
        .map(|(label, predicates)| {
            let builder = match instance.primitive.name {
                "ballot" => {
                    CaseBuilder::new(instance.spec(), instance.lowering, ValueType::Ballot, |l| {
                        let words = ballot_words(l);
                        per_lane(l.size, |_| Some(Value::Ballot(words)))
                    })
                }
                "ballot_u64" => CaseBuilder::new(
                    instance.spec(),
                    instance.lowering,
                    ValueType::Scalar(Dtype::U64),
                    |l| {
                        let w = ballot_words(l);
                        let bits = u64::from(w[0]) | (u64::from(w[1]) << 32);
                        per_lane(l.size, |_| Some(Value::u64(bits)))
                    },
                ),
                "ballot_first_n" => {
                    let n = instance.count.expect("ballot_first_n takes N");
                    let mask = if n == 32 { u32::MAX } else { (1 << n) - 1 };
                    CaseBuilder::new(
                        instance.spec(),
                        instance.lowering,
                        ValueType::Scalar(Dtype::U32),
                        move |l| {
                            let word = ballot_words(l)[0] & mask;
                            per_lane(l.size, |_| Some(Value::u32(word)))
                        },
                    )
                }
                other => unreachable!("ballot op `{other}` has no cases"),
            };
            builder
                .operand(ValueType::Bool, predicates)
                .label(label)
                .build()
        })
        .collect()
}

/// A value for `match_any` palettes: any bits for integers; for floats
/// ordered values, signed zeros and (32 and 64 bits) a NaN. f16 gets no NaN
/// and no subnormal: it is compared through its f32 conversion.
fn palette_value(dtype: Dtype, rng: &mut rand_chacha::ChaCha8Rng) -> Value {
    if !dtype.is_float() {
        return random_bits(dtype, rng);
    }
    let (nan, pos, neg) = nan_and_zeros(dtype);
    match rng.random_range(0..6) {
        0 => Value::Bits(dtype, pos),
        1 => Value::Bits(dtype, neg),
        2 if dtype != Dtype::F16 => Value::Bits(dtype, nan),
        _ => ordered_value(dtype, rng),
    }
}

/// Per subgroup-sized tile: one value, two or three values, values that
/// differ in one bit (in each 32-bit half for 64-bit types), or all lanes
/// distinct; each lane's expected mask is the ballot of the lanes holding
/// the same bits.
fn match_any_cases(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    let dtype = instance.dtype.expect("match_any takes a dtype");
    let values = inputs.per_tile(inputs.min_size, |rng, n| {
        let kind = rng.random_range(0..5);
        let base = palette_value(dtype, rng);
        let palette: Vec<Value> = match kind {
            0 => vec![base],
            1 => (0..rng.random_range(2..=3))
                .map(|_| palette_value(dtype, rng))
                .collect(),
            2 if dtype != Dtype::F16 => {
                let low = rng.random_range(0..32);
                let high = if dtype.bits() == 64 { low + 32 } else { low };
                vec![
                    base,
                    Value::Bits(dtype, base.bits() ^ (1 << low)),
                    Value::Bits(dtype, base.bits() ^ (1 << high)),
                ]
            }
            _ => (0..n).map(|_| palette_value(dtype, rng)).collect(),
        };
        (0..n)
            .map(|_| palette[rng.random_range(0..palette.len())])
            .collect()
    });
    vec![
        CaseBuilder::new(
            instance.spec(),
            instance.lowering,
            ValueType::Ballot,
            |l: &Lanes<'_>| {
                per_lane(l.size, |lane| {
                    let mine = l.get(0, lane).bits();
                    let mut words = [0u32; 4];
                    for other in 0..l.size {
                        if l.get(0, other).bits() == mine {
                            words[(other / 32) as usize] |= 1 << (other % 32);
                        }
                    }
                    Some(Value::Ballot(words))
                })
            },
        )
        .operand(ValueType::Scalar(dtype), values)
        .label("per-subgroup one / few / one-bit-apart / distinct values")
        .build(),
    ]
}
