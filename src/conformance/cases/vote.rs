//! Votes: all / any / all-equal over the subgroup or over `2^L`-lane tiles,
//! with the result broadcast to every lane of the tile.

use rand::Rng;

use super::{Inputs, per_lane};
use crate::conformance::case::{Case, CaseBuilder, Lanes};
use crate::conformance::value::{Value, ValueType, nan_and_zeros, random_bits};
use crate::dtype::Dtype;
use crate::expand::Instance;

/// For each lane, `f` over the lanes of its tile.
fn tile_vote(
    l: &Lanes<'_>,
    tile: u32,
    f: impl Fn(std::ops::Range<u32>) -> bool,
) -> Vec<Option<crate::conformance::expected::Expected>> {
    per_lane(l.size, |lane| {
        let first = lane - lane % tile;
        Some(Value::Bool(f(first..first + tile)))
    })
}

pub(super) fn cases(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    let tile_hint = instance.log2_size.map_or(inputs.min_size, |l| 1 << l);
    let tiled = instance.log2_size;
    let name = instance.primitive.name;
    if let Some(dtype) = instance.dtype {
        return all_equal_cases(instance, inputs, dtype, tile_hint);
    }
    let all = name.starts_with("all_true");
    let model = move |l: &Lanes<'_>| {
        let tile = tiled.map_or(l.size, |t| 1 << t);
        if all {
            tile_vote(l, tile, |mut lanes| lanes.all(|i| l.get(0, i).as_bool()))
        } else {
            tile_vote(l, tile, |mut lanes| lanes.any(|i| l.get(0, i).as_bool()))
        }
    };
    let patterns = inputs.tile_predicates(tile_hint);
    vec![
        CaseBuilder::new(instance.spec(), instance.lowering, ValueType::Bool, model)
            .operand(ValueType::Bool, patterns)
            .label("per-tile patterns")
            .build(),
    ]
}

/// Per tile: all equal, one lane different (in one 32-bit half for 64-bit
/// types), NaNs, a mix of +0 and -0, or random.
fn all_equal_cases(
    instance: &Instance,
    inputs: &mut Inputs,
    dtype: Dtype,
    tile_hint: u32,
) -> Vec<Case> {
    let ty = ValueType::Scalar(dtype);
    let values = inputs.per_tile(tile_hint, |rng, n| {
        let base = random_bits(dtype, rng);
        let odd_one = rng.random_range(0..n);
        let kind = rng.random_range(0..5);
        (0..n)
            .map(|i| match kind {
                0 => base,
                1 if i == odd_one => {
                    let bit = rng.random_range(0..dtype.bits());
                    Value::Bits(dtype, base.bits() ^ (1 << bit))
                }
                1 => base,
                2 if dtype.is_float() => Value::Bits(dtype, nan_and_zeros(dtype).0),
                3 if dtype.is_float() => {
                    let (_, pos, neg) = nan_and_zeros(dtype);
                    Value::Bits(dtype, if rng.random_bool(0.5) { pos } else { neg })
                }
                _ => random_bits(dtype, rng),
            })
            .collect()
    });
    let tiled = instance.log2_size;
    vec![
        CaseBuilder::new(
            instance.spec(),
            instance.lowering,
            ValueType::Bool,
            move |l| {
                let tile = tiled.map_or(l.size, |t| 1 << t);
                // WGSL lets implementations flush subnormals to zero: where
                // that changes the answer, either answer conforms.
                per_lane(l.size, |lane| {
                    let start = lane - lane % tile;
                    let first = l.get(0, start);
                    let tile_lanes = start..start + tile;
                    let strict = tile_lanes.clone().all(|i| l.get(0, i).ieee_eq(first));
                    let flushed = tile_lanes
                        .into_iter()
                        .all(|i| l.get(0, i).ieee_eq_flushed(first));
                    (strict == flushed).then_some(Value::Bool(strict))
                })
            },
        )
        .operand(ty, values)
        .label("per-tile equal / one different / NaN / signed zeros / random")
        .build(),
    ]
}
