//! The bitonic key/value sort: random pairs, duplicate keys (ties broken by
//! value, duplicate pairs too), and short inputs padded with sentinels.

use rand::Rng;

use super::{Inputs, ordered_value, tiles};
use crate::catalog::Operator;
use crate::conformance::arith::{compare, identity};
use crate::conformance::case::{Case, CaseBuilder};
use crate::conformance::expected::Expected;
use crate::conformance::value::{Value, ValueType};
use crate::dtype::Dtype;
use crate::expand::Instance;

pub(super) fn cases(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    let key_dtype = instance.dtype.expect("the sort takes a key dtype");
    let value_dtype = instance.value_dtype.expect("the sort takes a value dtype");
    let log2_size = instance.log2_size;
    let tile_hint = log2_size.map_or(inputs.min_size, |l| 1 << l);
    let random_keys = inputs.per_invocation(|rng, _| ordered_value(key_dtype, rng));
    let random_values = inputs.per_invocation(|rng, _| ordered_value(value_dtype, rng));
    let key_choices: Vec<Value> = (0..3)
        .map(|_| ordered_value(key_dtype, inputs.rng()))
        .collect();
    let value_choices: Vec<Value> = (0..4)
        .map(|_| ordered_value(value_dtype, inputs.rng()))
        .collect();
    let duplicate_keys =
        inputs.per_invocation(|rng, _| key_choices[rng.random_range(0..key_choices.len())]);
    let duplicate_values =
        inputs.per_invocation(|rng, _| value_choices[rng.random_range(0..value_choices.len())]);
    // Sentinels: the largest key and value (+inf for floats) sort last.
    let (key_sentinel, value_sentinel) = (
        identity(Operator::Min, key_dtype),
        identity(Operator::Min, value_dtype),
    );
    let mut padded_keys = Vec::new();
    let mut padded_values = Vec::new();
    let padding = inputs.per_tile(tile_hint, |rng, n| {
        let real = rng.random_range(1..=n);
        (0..n).map(|i| Value::Bool(i < real)).collect()
    });
    for (i, is_real) in padding.iter().enumerate() {
        let real = is_real.as_bool();
        padded_keys.push(if real { random_keys[i] } else { key_sentinel });
        padded_values.push(if real {
            random_values[i]
        } else {
            value_sentinel
        });
    }
    [
        ("random pairs", random_keys, random_values),
        ("duplicate keys and pairs", duplicate_keys, duplicate_values),
        (
            "short inputs padded with sentinels",
            padded_keys,
            padded_values,
        ),
    ]
    .into_iter()
    .map(|(label, keys, values)| {
        CaseBuilder::new(
            instance.spec(),
            instance.lowering,
            ValueType::KeyValue(key_dtype, value_dtype),
            move |l| sorted_tiles(l, log2_size, key_dtype, value_dtype),
        )
        .operand(ValueType::Scalar(key_dtype), keys)
        .operand(ValueType::Scalar(value_dtype), values)
        .label(label)
        .build()
    })
    .collect()
}

/// Each tile's pairs in ascending (key, value) order.
fn sorted_tiles(
    l: &crate::conformance::case::Lanes<'_>,
    log2_size: Option<u32>,
    key_dtype: Dtype,
    value_dtype: Dtype,
) -> Vec<Option<Expected>> {
    let mut expected = vec![None; l.size as usize];
    for tile in tiles(l.size, log2_size) {
        let mut pairs: Vec<(Value, Value)> =
            tile.clone().map(|i| (l.get(0, i), l.get(1, i))).collect();
        pairs.sort_by(|a, b| compare(a.0, b.0).then(compare(a.1, b.1)));
        for (lane, (k, v)) in tile.zip(pairs) {
            let pair = Value::Pair(key_dtype, k.bits(), value_dtype, v.bits());
            expected[lane as usize] = Some(Expected::Numeric(pair));
        }
    }
    expected
}
