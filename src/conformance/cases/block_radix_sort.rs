//! Block radix sorts, checked over whole workgroups: each thread's keys
//! (or values) after the sort, against a stable sort of the workgroup's
//! tile by the key bits in the range.

use rand::Rng;

use super::Inputs;
use super::block_exchange::{blocked_tile, items_from_operands, tile_index};
use crate::conformance::case::{Case, CaseBuilder, Lanes};
use crate::conformance::expected::Expected;
use crate::conformance::value::{Value, ValueType, random_bits};
use crate::dtype::{Dtype, Kind};
use crate::expand::Instance;

/// What one radix sort instance does.
#[derive(Clone, Copy)]
struct Sort {
    key: Dtype,
    b: u32,
    items: u32,
    descending: bool,
    striped: bool,
}

impl Sort {
    /// The key's u32 bits in sort order, -0.0 as +0.0 (CUB's twiddle).
    fn ordered(self, bits: u32) -> u32 {
        let twiddled = match self.key.kind() {
            Kind::Unsigned => bits,
            Kind::Signed => bits ^ 0x8000_0000,
            Kind::Float => {
                let bits = if bits == 0x8000_0000 { 0 } else { bits };
                bits ^ if bits & 0x8000_0000 != 0 {
                    u32::MAX
                } else {
                    0x8000_0000
                }
            }
        };
        if self.descending { !twiddled } else { twiddled }
    }

    /// The tile after a stable sort by bits `begin..end` of the ordered
    /// keys, `order[i]` the input tile index at sorted index `i`.
    fn order(self, keys: &[Value], begin: u32, end: u32) -> Vec<usize> {
        let mask = ((1u64 << (end - begin)) - 1) as u32;
        let digit = |v: &Value| (u64::from(self.ordered(v.as_u32())) >> begin) as u32 & mask;
        let mut order: Vec<usize> = (0..keys.len()).collect();
        order.sort_by_key(|&i| digit(&keys[i]));
        order
    }

    /// Each thread's results, `tile` in sorted order.
    fn arrange(self, sorted: &[Value]) -> Vec<Option<Expected>> {
        let mut out = Vec::with_capacity(sorted.len());
        for t in 0..self.b {
            for k in 0..self.items {
                let at = tile_index(self.striped, self.b, self.items, t, k);
                out.push(Some(sorted[at as usize].into()));
            }
        }
        out
    }
}

pub(super) fn cases(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    let key = instance.dtype.expect("radix sorts take a key dtype");
    let value = instance.value_dtype;
    let name = instance.primitive.name;
    let sort = Sort {
        key,
        b: instance.block_dim.expect("radix sorts take B"),
        items: instance.constant("items"),
        descending: name.contains("descending"),
        striped: name.contains("blocked_to_striped"),
    };
    let n = sort.items;
    let random = |inputs: &mut Inputs| -> Vec<Vec<Value>> {
        (0..n)
            .map(|_| inputs.per_invocation(|rng, _| random_bits(key, rng)))
            .collect()
    };
    // Keys from a pool of 12 (both zeros among them for floats): runs of
    // equal keys, whose tile order the sort must keep.
    let pooled = |inputs: &mut Inputs| -> Vec<Vec<Value>> {
        let mut pool: Vec<Value> = (0..12).map(|_| random_bits(key, inputs.rng())).collect();
        if key.is_float() {
            pool.push(Value::Bits(key, 0));
            pool.push(Value::Bits(key, 0x8000_0000));
        }
        (0..n)
            .map(|_| inputs.per_invocation(|rng, _| pool[rng.random_range(0..pool.len())]))
            .collect()
    };
    // Pairs check their values where keys repeat (the permutation and its
    // stability) and their keys over a bit range; the rows that differ from
    // `radix_sort_keys` and `radix_sort_pairs` only in direction or last
    // exchange, the first case alone (each call is slow to compile).
    let primary = matches!(name, "radix_sort_keys" | "radix_sort_pairs");
    let mut runs = vec![
        (
            "keys from a pool of 12, every bit",
            pooled(inputs),
            0,
            key.bits(),
            value.is_some(),
        ),
        ("random keys, bits 5..17", random(inputs), 5, 17, false),
    ];
    if !primary {
        runs.truncate(1);
    }
    let values: Vec<Vec<Value>> = match value {
        Some(v) => (0..n)
            .map(|_| inputs.per_invocation(|rng, _| random_bits(v, rng)))
            .collect(),
        None => Vec::new(),
    };
    let mut cases = Vec::new();
    for (label, keys, begin, end, check_values) in runs {
        let result = if check_values {
            value.expect("pairs have values")
        } else {
            key
        };
        let ty = ValueType::Scalar(result);
        let model = move |l: &Lanes<'_>| {
            let tile = blocked_tile(l, sort.b, n);
            let order = sort.order(&tile, begin, end);
            let source = if check_values {
                let mut all = Vec::with_capacity(tile.len());
                for t in 0..sort.b {
                    for k in 0..n {
                        all.push(l.get((n + k) as usize, t));
                    }
                }
                all
            } else {
                tile
            };
            let sorted: Vec<Value> = order.iter().map(|&i| source[i]).collect();
            sort.arrange(&sorted)
        };
        let mut builder = CaseBuilder::new(instance.spec(), instance.lowering, ty, model);
        for operand in keys {
            builder = builder.operand(ValueType::Scalar(key), operand);
        }
        let mut code = items_from_operands(key.wgsl(), n, 0).replace("var items", "var keys");
        let call = if let Some(v) = value {
            for operand in &values {
                builder = builder.operand(ValueType::Scalar(v), operand.clone());
            }
            code.push('\n');
            code.push_str(&items_from_operands(v.wgsl(), n, n).replace("var items", "var values"));
            format!("$f(&keys, &values, {begin}u, {end}u);")
        } else {
            format!("$f(&keys, {begin}u, {end}u);")
        };
        let out = if check_values { "values" } else { "keys" };
        let bind = if n == 1 {
            format!("let r = {out}[0];")
        } else {
            format!("let r = {out};")
        };
        let what = if check_values { "values" } else { "keys" };
        cases.push(
            builder
                .custom(format!("{code}\n{call}\n{bind}"))
                .label(format!("{label}: {what}"))
                .results(n)
                .block(sort.b)
                .build(),
        );
    }
    cases
}
