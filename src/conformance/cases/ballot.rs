//! Ballots: bit `i` of the result is lane `i`'s predicate.

use super::{Inputs, per_lane};
use crate::conformance::case::{Case, CaseBuilder, Lanes};
use crate::conformance::value::{Value, ValueType};
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
