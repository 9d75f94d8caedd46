//! Block discontinuities and adjacent differences, checked over whole
//! workgroups against the blocked tile: flags from comparisons of
//! neighbours, differences from the suite's own `F`.

use std::cmp::Ordering;

use rand::Rng;

use super::block_exchange::{bind_items, blocked_tile, items_from_operands};
use super::{Inputs, arithmetic_value, ordered_value};
use crate::catalog::{Operator, Primitive};
use crate::conformance::arith::{compare, fold};
use crate::conformance::case::{Case, CaseBuilder, Lanes};
use crate::conformance::expected::Expected;
use crate::conformance::value::{Value, ValueType};
use crate::dtype::Dtype;
use crate::expand::Instance;

const U32: ValueType = ValueType::Scalar(Dtype::U32);

/// The suite's user functions for `primitive` on `dtype`: `max` and `add`
/// for generic reductions and scans, `less` (whether two neighbours
/// differ: `a < b`) for flags, `sub` (`a - b`) for adjacent differences,
/// `before` for merge sorts (`merge_sort::comparator_code`).
pub(crate) fn function_names(primitive: &Primitive, dtype: Dtype) -> Vec<String> {
    let names: &[&str] = if primitive.name.starts_with("merge_sort") {
        &["before"]
    } else if primitive.name.starts_with("flag_") {
        &["less"]
    } else if primitive.name.starts_with("adjacent_difference") {
        &["sub"]
    } else {
        &["max", "add"]
    };
    names
        .iter()
        .map(|op| format!("wk_conf_{op}_{dtype}"))
        .collect()
}

/// WGSL of the suite's `less` or `sub` function on `dtype`.
fn function_code(function: &str, dtype: Dtype) -> String {
    let t = dtype.wgsl();
    if function.starts_with("wk_conf_less_") {
        format!("fn {function}(a: {t}, b: {t}) -> bool {{\n    return a < b;\n}}\n")
    } else {
        format!("fn {function}(a: {t}, b: {t}) -> {t} {{\n    return a - b;\n}}\n")
    }
}

/// `-value`: the sign bit flipped for floats, wrapping for integers.
fn negate(value: Value) -> Value {
    match value {
        Value::Bits(d, bits) if d.is_float() => Value::Bits(d, bits ^ (1 << (d.bits() - 1))),
        Value::Bits(d, bits) => {
            let mask = if d.bits() == 64 {
                u64::MAX
            } else {
                (1 << d.bits()) - 1
            };
            Value::Bits(d, bits.wrapping_neg() & mask)
        }
        other => other,
    }
}

pub(super) fn cases(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    let dtype = instance.dtype.expect("block discontinuities take a dtype");
    let b = instance.block_dim.expect("block discontinuities take B");
    let n = instance.constant("items");
    let ty = ValueType::Scalar(dtype);
    let name = instance.primitive.name;
    let support = instance
        .function
        .as_deref()
        .map(|f| function_code(f, dtype));
    let (heads, tails) = if name.starts_with("adjacent_difference") {
        (name.ends_with("_left"), name.ends_with("_right"))
    } else {
        (name.starts_with("flag_heads"), name.contains("tails"))
    };
    // Operands: the items, then per side the tile's neighbour and whether
    // there is one.
    let items: Vec<Vec<Value>> = if name.starts_with("flag_") {
        // Few distinct values, so that neighbours are often equal.
        let pool: Vec<Value> = (0..3).map(|_| ordered_value(dtype, inputs.rng())).collect();
        (0..=n)
            .map(|_| inputs.per_invocation(|rng, _| pool[rng.random_range(0..pool.len())]))
            .collect()
    } else {
        (0..=n)
            .map(|_| inputs.per_invocation(|rng, _| arithmetic_value(Operator::Add, dtype, rng)))
            .collect()
    };
    let mut operands: Vec<(ValueType, Vec<Value>)> = Vec::new();
    let mut args = vec!["&items".to_string()];
    let mut code = items_from_operands(dtype.wgsl(), n, 0);
    for values in &items[..n as usize] {
        operands.push((ty, values.clone()));
    }
    let sides = usize::from(heads) + usize::from(tails);
    for side in 0..sides {
        let at = n + 2 * side as u32;
        operands.push((ty, items[n as usize].clone()));
        operands.push((
            ValueType::Bool,
            inputs.per_invocation(|rng, _| Value::Bool(rng.random_bool(0.5))),
        ));
        args.extend([format!("${at}"), format!("${}", at + 1)]);
    }
    let flags = name.starts_with("flag_");
    let (ret, results) = if flags {
        let flag_arrays: &[&str] = if heads && tails {
            &["head_flags", "tail_flags"]
        } else {
            &["flags"]
        };
        for (i, array) in flag_arrays.iter().enumerate() {
            code.push_str(&format!("\nvar {array}: array<u32, {n}>;"));
            args.insert(1 + i, format!("&{array}"));
        }
        let call = format!("$f({});", args.join(", "));
        // Twice: the second call reuses the neighbours' memory.
        code.push_str(&format!("\n{call}\n{call}\n"));
        let reads: Vec<String> = flag_arrays
            .iter()
            .flat_map(|a| (0..n).map(move |k| format!("{a}[{k}]")))
            .collect();
        let count = reads.len() as u32;
        if count == 1 {
            code.push_str(&format!("let r = {};", reads[0]));
        } else {
            code.push_str(&format!(
                "let r = array<u32, {count}>({});",
                reads.join(", ")
            ));
        }
        (U32, count)
    } else {
        code.push_str(&format!("\n$f({});\n{}", args.join(", "), bind_items(n)));
        (ty, n)
    };
    let generic = instance.function.is_some();
    let model = move |l: &Lanes<'_>| {
        let tile = blocked_tile(l, b, n);
        let last = tile.len() - 1;
        // The tile's neighbour on a side and whether there is one, from
        // thread 0 (heads, left) or the last thread (tails, right).
        let side = |side: u32, thread: u32| {
            let at = (n + 2 * side) as usize;
            (l.get(at, thread), l.get(at + 1, thread).as_bool())
        };
        let (predecessor, has_predecessor) = if heads { side(0, 0) } else { (tile[0], false) };
        let (successor, has_successor) = if tails {
            side(u32::from(heads), b - 1)
        } else {
            (tile[last], false)
        };
        if flags {
            let differ = |a: Value, bb: Value| {
                let ordering = compare(a, bb);
                let differs = if generic {
                    ordering == Ordering::Less
                } else {
                    ordering != Ordering::Equal
                };
                Value::u32(u32::from(differs))
            };
            let head = |j: usize| match j {
                0 if has_predecessor => differ(predecessor, tile[0]),
                0 => Value::u32(1),
                _ => differ(tile[j - 1], tile[j]),
            };
            let tail = |j: usize| match j {
                j if j == last && has_successor => differ(tile[last], successor),
                j if j == last => Value::u32(1),
                _ => differ(tile[j], tile[j + 1]),
            };
            (0..b as usize)
                .flat_map(|t| {
                    let blocked = t * n as usize..(t + 1) * n as usize;
                    let heads_of = blocked.clone().filter(|_| heads).map(head);
                    let tails_of = blocked.filter(|_| tails).map(tail);
                    heads_of.chain(tails_of).collect::<Vec<_>>()
                })
                .map(|v| Some(Expected::from(v)))
                .collect()
        } else {
            let sub = |a: Value, bb: Value| Some(fold(Operator::Add, dtype, &[a, negate(bb)]));
            (0..tile.len())
                .map(|j| match (heads, j) {
                    (true, 0) if !has_predecessor => Some(tile[0].into()),
                    (true, 0) => sub(tile[0], predecessor),
                    (true, _) => sub(tile[j], tile[j - 1]),
                    (false, j) if j == last && !has_successor => Some(tile[last].into()),
                    (false, j) if j == last => sub(tile[last], successor),
                    (false, _) => sub(tile[j], tile[j + 1]),
                })
                .collect()
        }
    };
    let mut builder = CaseBuilder::new(instance.spec(), instance.lowering, ret, model);
    for (ty, values) in operands {
        builder = builder.operand(ty, values);
    }
    if let Some(code) = support {
        builder = builder.support(code);
    }
    vec![
        builder
            .custom(code)
            .label(if flags {
                "three distinct values, random tile neighbours, two calls back to back"
            } else {
                "random values, a random tile neighbour"
            })
            .results(results)
            .block(b)
            .build(),
    ]
}
