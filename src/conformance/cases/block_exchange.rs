//! Block exchanges (blocked, striped, warp-striped, scattered), checked
//! over whole workgroups: each thread's items before and after two calls
//! back to back (the second reuses the tile), against the permutation the
//! arrangements define.

use rand::seq::SliceRandom;

use super::Inputs;
use crate::conformance::case::{Case, CaseBuilder, Lanes};
use crate::conformance::expected::Expected;
use crate::conformance::value::{Value, ValueType, random_bits};
use crate::dtype::Dtype;
use crate::expand::Instance;

/// The tile index of thread `t`'s item `k`: blocked or striped.
pub(super) fn tile_index(striped: bool, b: u32, items: u32, t: u32, k: u32) -> u32 {
    if striped { k * b + t } else { t * items + k }
}

/// Where thread t's item k sits in the tile, in the arrangements an
/// exchange goes between.
#[derive(Clone, Copy)]
enum Arrangement {
    /// `t * items + k`.
    Blocked,
    /// `k * B + t`.
    Striped,
    /// `w * S * items + k * S + l`, for lane l of subgroup w of `S` lanes.
    WarpStriped,
    /// The rank the case passes in operand `items + k`.
    Ranks,
}

/// The tile index of thread `t`'s item `k` in `arrangement`, over `b`
/// threads in subgroups of `l.subgroup_size` lanes.
fn arranged_index(
    arrangement: Arrangement,
    l: &Lanes<'_>,
    b: u32,
    items: u32,
    t: u32,
    k: u32,
) -> u32 {
    let s = l.subgroup_size;
    match arrangement {
        Arrangement::Blocked => tile_index(false, b, items, t, k),
        Arrangement::Striped => tile_index(true, b, items, t, k),
        Arrangement::WarpStriped => (t / s) * s * items + k * s + t % s,
        Arrangement::Ranks => l.get((items + k) as usize, t).as_u32(),
    }
}

/// `var items = array<T, n>($first, ..., $first + n - 1);`: the thread's
/// items from consecutive operands.
pub(super) fn items_from_operands(t: &str, n: u32, first: u32) -> String {
    let operands: Vec<String> = (first..first + n).map(|i| format!("${i}")).collect();
    format!("var items = array<{t}, {n}>({});", operands.join(", "))
}

/// The workgroup's tile in the blocked arrangement: thread t's item k,
/// from operand k, at `t * items + k`.
pub(super) fn blocked_tile(l: &Lanes<'_>, b: u32, items: u32) -> Vec<Value> {
    (0..b)
        .flat_map(|t| (0..items).map(move |k| l.get(k as usize, t)))
        .collect()
}

/// `let r = ...` of the items, one result per item.
pub(super) fn bind_items(n: u32) -> &'static str {
    if n == 1 {
        "let r = items[0];"
    } else {
        "let r = items;"
    }
}

pub(super) fn cases(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    let dtype = instance.dtype.expect("block exchanges take a dtype");
    let b = instance.block_dim.expect("block exchanges take B");
    let n = instance.constant("items");
    let ty = ValueType::Scalar(dtype);
    let name = instance.primitive.name;
    let scatter = name.starts_with("scatter_");
    let (from, to) = match name {
        "blocked_to_striped" => (Arrangement::Blocked, Arrangement::Striped),
        "striped_to_blocked" => (Arrangement::Striped, Arrangement::Blocked),
        "blocked_to_warp_striped" => (Arrangement::Blocked, Arrangement::WarpStriped),
        "warp_striped_to_blocked" => (Arrangement::WarpStriped, Arrangement::Blocked),
        "scatter_to_blocked" => (Arrangement::Ranks, Arrangement::Blocked),
        _ => (Arrangement::Ranks, Arrangement::Striped),
    };
    let mut builder = CaseBuilder::new(instance.spec(), instance.lowering, ty, move |l| {
        exchange_model(l, b, n, from, to)
    });
    for _ in 0..n {
        builder = builder.operand(ty, inputs.per_invocation(|rng, _| random_bits(dtype, rng)));
    }
    let mut code = items_from_operands(dtype.wgsl(), n, 0);
    if scatter {
        for ranks in permutation_operands(inputs, b, n) {
            builder = builder.operand(ValueType::Scalar(Dtype::U32), ranks);
        }
        code.push('\n');
        code.push_str(&items_from_operands("u32", n, n).replace("var items", "var ranks"));
        code.push_str("\n$f(&items, &ranks);\n$f(&items, &ranks);\n");
    } else {
        code.push_str("\n$f(&items);\n$f(&items);\n");
    }
    code.push_str(bind_items(n));
    vec![
        builder
            .custom(code)
            .label(if scatter {
                "random bits, random permutation ranks, two calls back to back"
            } else {
                "random bits, two calls back to back"
            })
            .results(n)
            .block(b)
            .build(),
    ]
}

/// `n` operands of ranks: each workgroup's `b * n` ranks are a random
/// permutation of the tile's indices, thread t's k-th in operand k.
fn permutation_operands(inputs: &mut Inputs, b: u32, n: u32) -> Vec<Vec<Value>> {
    let workgroups = inputs.invocations / b;
    let mut operands = vec![Vec::new(); n as usize];
    for _ in 0..workgroups {
        let mut ranks: Vec<u32> = (0..b * n).collect();
        ranks.shuffle(inputs.rng());
        for t in 0..b {
            for k in 0..n {
                operands[k as usize].push(Value::u32(ranks[(t * n + k) as usize]));
            }
        }
    }
    operands
}

/// Each thread's items after two exchanges.
fn exchange_model(
    l: &Lanes<'_>,
    b: u32,
    n: u32,
    from: Arrangement,
    to: Arrangement,
) -> Vec<Option<Expected>> {
    let mut items = blocked_tile(l, b, n);
    for _ in 0..2 {
        let mut tile = vec![Value::u32(0); (b * n) as usize];
        for t in 0..b {
            for k in 0..n {
                let at = arranged_index(from, l, b, n, t, k);
                tile[at as usize] = items[(t * n + k) as usize];
            }
        }
        for t in 0..b {
            for k in 0..n {
                items[(t * n + k) as usize] = tile[arranged_index(to, l, b, n, t, k) as usize];
            }
        }
    }
    items.into_iter().map(|v| Some(v.into())).collect()
}
