//! Merge sorts, subgroup and block, checked tile by tile (a subgroup's
//! `2^L`-lane tiles, the subgroup, or the workgroup) against a stable sort
//! of the tile's valid keys by the suite's comparator: descending by bits
//! 2..4 for integers (keys equal under it differ, so keys alone show the
//! order kept), descending for floats (with both zeros among the keys).
//! Pairs carry each item's index as its value, so a value out of place or
//! out of order shows; partial tiles take a different valid count per tile.

use std::cmp::Ordering;

use rand::Rng;

use super::Inputs;
use super::block_exchange::items_from_operands;
use crate::conformance::arith::float_bits;
use crate::conformance::case::{Case, CaseBuilder, Lanes};
use crate::conformance::expected::Expected;
use crate::conformance::value::{Value, ValueType, float_of};
use crate::dtype::Dtype;
use crate::expand::Instance;

use super::ordered_value;

/// The key a sort leaves past the valid ones.
const OOB_DEFAULT: i128 = 77;

/// WGSL of the suite's comparator `function` on `dtype`.
pub(super) fn comparator_code(function: &str, dtype: Dtype) -> String {
    let t = dtype.wgsl();
    let body = if dtype.is_float() {
        "a > b".to_string()
    } else {
        "((a >> 2u) & 7) > ((b >> 2u) & 7)".to_string()
    };
    format!("fn {function}(a: {t}, b: {t}) -> bool {{\n    return {body};\n}}\n")
}

/// Whether key `a` goes before key `b` under the suite's comparator.
fn before(a: Value, b: Value) -> bool {
    match a {
        Value::Bits(d, x) if d.is_float() => float_of(d, x) > float_of(d, b.bits()),
        _ => (a.bits() >> 2) & 7 > (b.bits() >> 2) & 7,
    }
}

/// A value of `dtype` that names index `i` (exact in f16 below 2048).
fn index_value(dtype: Dtype, i: u32) -> Value {
    if dtype.is_float() {
        Value::Bits(dtype, float_bits(dtype, f64::from(i % 2048)))
    } else {
        Value::Bits(dtype, u64::from(i))
    }
}

/// What one merge sort instance does to a tile.
#[derive(Clone, Copy)]
struct Sort {
    key: Dtype,
    items: u32,
    /// Tile lanes: `None` for the subgroup (or the workgroup of a block
    /// sort), whose size the model sees.
    tile: Option<u32>,
    /// The valid count: tile `j` (of its subgroup) takes
    /// `(j * 7 + c) % (tile * items + 1)`, or every key where `None`.
    partial: Option<u32>,
    /// Whether the results are the values (operands `items ..`).
    values: bool,
}

impl Sort {
    /// Each lane's results, lane by lane.
    fn model(self, l: &Lanes<'_>) -> Vec<Option<Expected>> {
        let tile = self.tile.unwrap_or(l.size);
        let n = self.items;
        let mut out = Vec::with_capacity((l.size * n) as usize);
        for (j, base) in (0..l.size).step_by(tile as usize).enumerate() {
            let count = tile * n;
            let valid = self
                .partial
                .map_or(count, |c| (j as u32 * 7 + c) % (count + 1));
            let key = |i: u32| l.get((i % n) as usize, base + i / n);
            let mut order: Vec<u32> = (0..valid).collect();
            order.sort_by(|&x, &y| {
                if before(key(x), key(y)) {
                    Ordering::Less
                } else if before(key(y), key(x)) {
                    Ordering::Greater
                } else {
                    Ordering::Equal
                }
            });
            order.extend(valid..count);
            for (at, &from) in order.iter().enumerate() {
                let result = if self.values {
                    l.get((n + from % n) as usize, base + from / n)
                } else if (at as u32) < valid {
                    key(from)
                } else {
                    Value::Bits(self.key, oob_bits(self.key))
                };
                out.push(Some(result.into()));
            }
        }
        out
    }
}

/// The bits of [`OOB_DEFAULT`] in `dtype`.
fn oob_bits(dtype: Dtype) -> u64 {
    if dtype.is_float() {
        float_bits(dtype, OOB_DEFAULT as f64)
    } else {
        OOB_DEFAULT as u64
    }
}

pub(super) fn cases(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    let key = instance.dtype.expect("merge sorts take a key dtype");
    let value = instance.value_dtype;
    let n = instance.constant("items");
    let block = instance.block_dim;
    let tile = instance.log2_size.map(|l| 1u32 << l);
    let support = comparator_code(
        instance.function.as_deref().expect("merge sorts take F"),
        key,
    );
    // Keys from a pool (both zeros among them for floats): keys equal under
    // the comparator, whose order the sort must keep.
    let mut pool: Vec<Value> = (0..5).map(|_| ordered_value(key, inputs.rng())).collect();
    if key.is_float() {
        pool.extend([Value::Bits(key, 0), Value::Bits(key, float_bits(key, -0.0))]);
    }
    let pooled: Vec<Vec<Value>> = (0..n)
        .map(|_| inputs.per_invocation(|rng, _| pool[rng.random_range(0..pool.len())]))
        .collect();
    let random: Vec<Vec<Value>> = (0..n)
        .map(|_| inputs.per_invocation(|rng, _| ordered_value(key, rng)))
        .collect();
    let c = inputs.rng().random_range(0..64);
    let mut cases = Vec::new();
    for (label, keys, partial, values) in [
        (
            "keys from a pool, partial tiles",
            pooled,
            Some(c),
            value.is_some(),
        ),
        ("random keys, whole tiles", random, None, false),
    ] {
        let sort = Sort {
            key,
            items: n,
            tile,
            partial,
            values,
        };
        let result = if values { value.expect("pairs") } else { key };
        let mut builder = CaseBuilder::new(
            instance.spec(),
            instance.lowering,
            ValueType::Scalar(result),
            move |l| sort.model(l),
        );
        for operand in keys {
            builder = builder.operand(ValueType::Scalar(key), operand);
        }
        let mut code = items_from_operands(key.wgsl(), n, 0).replace("var items", "var keys");
        let mut args = "&keys".to_string();
        if let Some(v) = value {
            for k in 0..n {
                builder = builder.operand(
                    ValueType::Scalar(v),
                    inputs.per_invocation(|_, i| index_value(v, i * n + k)),
                );
            }
            code.push('\n');
            code.push_str(&items_from_operands(v.wgsl(), n, n).replace("var items", "var values"));
            args.push_str(", &values");
        }
        let count = match (block, tile) {
            (Some(b), _) => format!("{}u", b * n),
            (None, Some(t)) => format!("{}u", t * n),
            (None, None) => format!("(lane_count * {n}u)"),
        };
        let tile_of_lane = match (block, tile) {
            (None, Some(t)) => format!("(lane / {t}u)"),
            _ => "0u".into(),
        };
        let valid = match partial {
            Some(c) => format!("({tile_of_lane} * 7u + {c}u) % ({count} + 1u)"),
            None => "0xffffffffu".into(),
        };
        let out = if values { "values" } else { "keys" };
        let bind = if n == 1 {
            format!("let r = {out}[0];")
        } else {
            format!("let r = {out};")
        };
        let mut builder = builder
            .custom(format!(
                "{code}\n$f({args}, {valid}, {});\n{bind}",
                key.int_literal(OOB_DEFAULT)
            ))
            .support(support.clone())
            .label(format!("{label}: {out}"))
            .results(n);
        if let Some(b) = block {
            builder = builder.block(b);
        }
        cases.push(builder.build());
    }
    cases
}
