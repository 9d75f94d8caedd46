//! Block primitives (and the grid fence), checked over whole workgroups in
//! thread order.

use rand::Rng;
use rand::seq::SliceRandom;

use super::{Inputs, arithmetic_value, per_lane};
use crate::conformance::arith::fold;
use crate::conformance::case::{Case, CaseBuilder, Lanes};
use crate::conformance::value::{Value, ValueType};
use crate::dtype::Dtype;
use crate::expand::Instance;

const U32: ValueType = ValueType::Scalar(Dtype::U32);

pub(super) fn cases(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    match instance.primitive.name {
        "sync" | "mem_fence" => exchange(instance, inputs),
        "sync_all_nonzero" | "sync_any_nonzero" | "sync_count_nonzero" => votes(instance, inputs),
        "thread_idx" | "global_thread_idx" => indices(instance, inputs),
        "radix_rank_match_atomic_or" => radix(instance, inputs),
        _ => scans(instance, inputs),
    }
}

/// The workgroup size of the dispatch `inputs` fills: block cases without
/// `B` run in workgroups of the suite's default size.
fn threads(instance: &Instance, inputs: &Inputs) -> u32 {
    instance.block_dim.unwrap_or(inputs.invocations / 2)
}

/// Barrier and fences: each thread publishes a value in workgroup memory and,
/// after the call, reads the value of the thread mirrored across the
/// workgroup (`sync`) or its own (`block::mem_fence` and `grid::mem_fence`,
/// which do not synchronise: the case checks that the fence compiles, runs
/// in every thread and keeps program order; what it orders between threads
/// has no deterministic test).
fn exchange(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    let values = inputs.per_invocation(|rng, _| Value::u32(rng.random()));
    let mirrored = instance.primitive.name == "sync";
    let source = if mirrored {
        "threads - 1u - thread"
    } else {
        "thread"
    };
    vec![
        CaseBuilder::new(instance.spec(), instance.lowering, U32, move |l| {
            per_lane(l.size, |t| {
                Some(l.get(0, if mirrored { l.size - 1 - t } else { t }))
            })
        })
        .operand(U32, values)
        .custom(format!(
            "wk_conf_scratch[thread] = $0;\n$f();\nlet r = wk_conf_scratch[{source}];"
        ))
        .label("exchange through workgroup memory")
        .block(threads(instance, inputs))
        .build(),
    ]
}

/// The three votes, called twice back to back (the second with another
/// predicate) to exercise the alternating counters.
fn votes(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    let n = threads(instance, inputs);
    let vote = match instance.primitive.name {
        "sync_all_nonzero" => |p: &[u32]| u32::from(p.iter().all(|&x| x != 0)),
        "sync_any_nonzero" => |p: &[u32]| u32::from(p.iter().any(|&x| x != 0)),
        _ => |p: &[u32]| p.iter().filter(|&&x| x != 0).count() as u32,
    };
    // Per workgroup: all non-zero, all zero, one non-zero, one zero, random.
    let pattern = |kind: u32, rng: &mut rand_chacha::ChaCha8Rng, n: u32| -> Vec<Value> {
        let odd = rng.random_range(0..n);
        (0..n)
            .map(|t| {
                let on = match kind % 5 {
                    0 => true,
                    1 => false,
                    2 => t == odd,
                    3 => t != odd,
                    _ => rng.random_bool(0.5),
                };
                Value::u32(if on {
                    rng.random_range(1..=u32::MAX)
                } else {
                    0
                })
            })
            .collect()
    };
    (0..3)
        .map(|c| {
            let mut kind = 2 * c;
            let first = inputs.per_tile(n, |rng, n| {
                kind += 1;
                pattern(kind, rng, n)
            });
            let mut kind2 = 2 * c + 3;
            let second = inputs.per_tile(n, |rng, n| {
                kind2 += 1;
                pattern(kind2, rng, n)
            });
            CaseBuilder::new(instance.spec(), instance.lowering, U32, move |l| {
                let predicates =
                    |i: usize| -> Vec<u32> { (0..l.size).map(|t| l.get(i, t).as_u32()).collect() };
                let result = vote(&predicates(0)) * 65536 + vote(&predicates(1));
                per_lane(l.size, |_| Some(Value::u32(result)))
            })
            .operand(U32, first)
            .operand(U32, second)
            .custom("let first = $f($0);\nlet r = first * 65536u + $f($1);")
            .label("two votes back to back, per-workgroup patterns")
            .block(n)
            .build()
        })
        .collect()
}

fn indices(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    let global = instance.primitive.name == "global_thread_idx";
    let invocation = inputs.per_invocation(|_, g| Value::u32(g));
    vec![
        CaseBuilder::new(instance.spec(), instance.lowering, U32, move |l| {
            per_lane(l.size, |t| {
                Some(if global { l.get(0, t) } else { Value::u32(t) })
            })
        })
        .operand(U32, invocation)
        .custom("let unused = $0;\nlet r = $f();")
        .label("1-D dispatch of two workgroups")
        .block(threads(instance, inputs))
        .build(),
    ]
}

/// Reductions and scans over the workgroup, once and twice back to back.
fn scans(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    let dtype = instance.dtype.expect("block scans take a dtype");
    // A generic operator names one of the suite's functions.
    let user = instance
        .function
        .as_deref()
        .map(|f| crate::conformance::user_functions(f).expect("the suite's own function"));
    let op = instance
        .primitive
        .operator
        .or(user.as_ref().map(|(op, _)| *op))
        .expect("block scans have an operator");
    let ty = ValueType::Scalar(dtype);
    let shape = instance.primitive.template_macro;
    let name = instance.primitive.name;
    let first_only =
        name == "reduce" || (name.starts_with("reduce_") && !name.starts_with("reduce_all"));
    // The generic exclusive scan takes the identity as an argument.
    let identity = (user.is_some() && shape == "exclusive").then(|| op.identity_expr(dtype));
    let call = match &identity {
        Some(id) => format!("$f($0, {id})"),
        None => "$f($0)".to_string(),
    };
    let model = move |l: &Lanes<'_>| {
        let values: Vec<Value> = (0..l.size).map(|t| l.get(0, t)).collect();
        per_lane(l.size, |t| match shape {
            "reduce" if first_only && t != 0 => None,
            "reduce" => Some(fold(op, dtype, &values)),
            "inclusive" => Some(fold(op, dtype, &values[..=t as usize])),
            _ => Some(fold(op, dtype, &values[..t as usize])),
        })
    };
    let n = threads(instance, inputs);
    let once = inputs.per_invocation(|rng, _| arithmetic_value(op, dtype, rng));
    let twice = inputs.per_invocation(|rng, _| arithmetic_value(op, dtype, rng));
    let with_support = |builder: CaseBuilder| match &user {
        Some((_, code)) => builder.support(code.clone()),
        None => builder,
    };
    vec![
        with_support(CaseBuilder::new(
            instance.spec(),
            instance.lowering,
            ty,
            model,
        ))
        .operand(ty, once)
        .custom(format!("let r = {call};"))
        .label("random values")
        .block(n)
        .build(),
        with_support(CaseBuilder::new(
            instance.spec(),
            instance.lowering,
            ty,
            model,
        ))
        .operand(ty, twice)
        .custom(format!("let warm_up = {call};\nlet r = {call};"))
        .label("second of two calls back to back")
        .block(n)
        .build(),
    ]
}

/// Radix ranking against a stable counting sort, for random, all-equal and
/// all-distinct keys; a second output checks the bins and prefix arrays.
fn radix(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    let n = threads(instance, inputs);
    let bit_start = instance.constant("bit_start");
    let num_bits = instance.constant("num_bits");
    let radix_bits = instance.constant("radix_bits");
    let digit = move |key: u32| (key >> bit_start) & ((1u64 << num_bits) - 1) as u32;
    let random = inputs.per_invocation(|rng, _| Value::u32(rng.random()));
    let equal_key: u32 = inputs.rng().random();
    let equal = inputs.per_invocation(|_, _| Value::u32(equal_key));
    let distinct = inputs.per_tile(n, |rng, n| {
        // Distinct keys whose digits cover as many values as the digit has.
        let mut keys: Vec<u32> = (0..n)
            .map(|t| {
                let high = rng.random::<u32>() & !(((1u64 << (bit_start + num_bits)) - 1) as u32);
                let low = rng.random::<u32>() & ((1u32 << bit_start) - 1);
                high | ((t % (1 << num_bits)) << bit_start) | low
            })
            .collect();
        keys.shuffle(rng);
        keys.sort_unstable();
        keys.dedup();
        while keys.len() < n as usize {
            keys.push(rng.random());
        }
        keys.shuffle(rng);
        keys.into_iter().map(Value::u32).collect()
    });
    let rank_model = move |l: &Lanes<'_>| {
        let digits: Vec<u32> = (0..l.size).map(|t| digit(l.get(0, t).as_u32())).collect();
        per_lane(l.size, |t| {
            let d = digits[t as usize];
            let smaller = digits.iter().filter(|&&x| x < d).count();
            let before = digits[..t as usize].iter().filter(|&&x| x == d).count();
            Some(Value::u32((smaller + before) as u32))
        })
    };
    let bins_model = move |l: &Lanes<'_>| {
        let mut bins = vec![0u32; l.size as usize];
        for t in 0..l.size {
            bins[digit(l.get(0, t).as_u32()) as usize] += 1;
        }
        per_lane(l.size, |t| {
            let prefix: u32 = bins[..t as usize].iter().sum();
            Some(Value::u32(bins[t as usize] * 65536 + prefix))
        })
    };
    let bins_code = format!(
        "let rank = $f($0);\nlet r = wk_blk_radix_bins__{radix_bits}[thread] * 65536u + \
         wk_blk_radix_excl_prefix__{radix_bits}[thread];"
    );
    let mut cases = Vec::new();
    for (label, keys) in [
        ("random keys", random),
        ("all keys equal", equal),
        ("all keys distinct", distinct),
    ] {
        cases.push(
            CaseBuilder::new(instance.spec(), instance.lowering, U32, rank_model)
                .operand(U32, keys.clone())
                .label(format!("{label}: ranks"))
                .block(n)
                .build(),
        );
        cases.push(
            CaseBuilder::new(instance.spec(), instance.lowering, U32, bins_model)
                .operand(U32, keys)
                .custom(bins_code.clone())
                .label(format!("{label}: bins and exclusive prefix"))
                .block(n)
                .build(),
        );
    }
    cases
}
