//! Block histograms, checked over whole workgroups: the counters of the
//! kernel's workgroup array after two calls back to back (the second
//! clears what the first counted), or after two composite calls over
//! counters preset to 7.

use rand::Rng;

use super::Inputs;
use super::block_exchange::items_from_operands;
use crate::conformance::case::{Case, CaseBuilder, Lanes};
use crate::conformance::expected::Expected;
use crate::conformance::value::{Value, ValueType};
use crate::dtype::Dtype;
use crate::expand::Instance;

const U32: ValueType = ValueType::Scalar(Dtype::U32);

/// What the counters of a composite case start at.
const PRESET: u32 = 7;

/// The workgroup array of `bins` atomic counters the kernels declare.
pub(crate) fn histogram_array_name(bins: u32) -> String {
    format!("wk_conf_histogram_{bins}")
}

pub(super) fn cases(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    let b = instance.block_dim.expect("histograms take B");
    let n = instance.constant("items");
    let bins = instance.constant("bins");
    let composite = instance.primitive.name.contains("composite");
    let array = histogram_array_name(bins);
    // Counters per thread in the results: thread t reports bins t * m ..
    let m = bins.div_ceil(b);
    let model = move |l: &Lanes<'_>| {
        let mut counts = vec![0u32; bins as usize];
        for t in 0..b {
            for k in 0..n {
                let bin = l.get(k as usize, t).as_u32();
                if bin < bins {
                    counts[bin as usize] += 1;
                }
            }
        }
        let mut out: Vec<Option<Expected>> = Vec::new();
        for t in 0..b {
            for j in 0..m {
                let bin = t * m + j;
                let value = match counts.get(bin as usize) {
                    Some(c) if composite => PRESET + 2 * c,
                    Some(c) => *c,
                    None => 0,
                };
                out.push(Some(Value::u32(value).into()));
            }
        }
        out
    };
    let mut code = items_from_operands("u32", n, 0).replace("var items", "var samples");
    code.push('\n');
    // The first barrier lets the kernel's earlier cases finish reading the
    // counters before they are preset.
    if composite {
        code.push_str(&format!(
            "workgroupBarrier();\nfor (var c = thread; c < {bins}u; c = c + threads) {{ \
             atomicStore(&{array}[c], {PRESET}u); }}\nworkgroupBarrier();\n"
        ));
    }
    code.push_str("$f(&samples);\n$f(&samples);\n");
    let reads: Vec<String> = (0..m)
        .map(|j| {
            format!(
                "select(0u, atomicLoad(&{array}[min(thread * {m}u + {j}u, {}u)]), thread * {m}u + \
                 {j}u < {bins}u)",
                bins - 1
            )
        })
        .collect();
    if m == 1 {
        code.push_str(&format!("let r = {};", reads[0]));
    } else {
        code.push_str(&format!("let r = array<u32, {m}>({});", reads.join(", ")));
    }
    let support = format!("var<workgroup> {array}: array<atomic<u32>, {bins}>;\n");
    let mut cases = Vec::new();
    // The sort-based forms (a whole sort per call, slow to compile) the
    // random samples alone.
    let labels: &[&str] = if instance.primitive.name.ends_with("_sort") {
        &["random bins, some out of range"]
    } else {
        &["random bins, some out of range", "one bin"]
    };
    for &label in labels {
        let one: u32 = inputs.rng().random_range(0..bins);
        let mut builder = CaseBuilder::new(instance.spec(), instance.lowering, U32, model);
        for _ in 0..n {
            let samples = inputs.per_invocation(|rng, _| {
                Value::u32(if label == "one bin" {
                    one
                } else {
                    rng.random_range(0..bins + 2)
                })
            });
            builder = builder.operand(U32, samples);
        }
        cases.push(
            builder
                .custom(code.clone())
                .support(support.clone())
                .label(if composite {
                    format!("{label}: counters preset to {PRESET}, two composite calls")
                } else {
                    format!("{label}: two calls back to back")
                })
                .results(m)
                .block(b)
                .build(),
        );
    }
    cases
}
