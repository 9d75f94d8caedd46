//! Subgroup loads and stores, checked per tile of lanes against a region
//! of a workgroup array that each tile fills from its own operands: what
//! each lane's items hold after a load, what the region holds after a
//! store.

use rand::Rng;

use super::block_exchange::{bind_items, items_from_operands};
use super::block_load::most_items;
use super::{Inputs, tiles};
use crate::conformance::case::{Case, CaseBuilder, Lanes};
use crate::conformance::value::{Value, ValueType, random_bits};
use crate::dtype::Dtype;
use crate::expand::Instance;

/// Where the first tile's region starts in the case's array.
const OFFSET: u32 = 2;

/// The array the suite's subgroup loads and stores of `dtype` name.
pub(crate) fn subgroup_array_name(dtype: Dtype) -> String {
    format!("wk_conf_sg_tile_{dtype}")
}

/// Where lane `lane` of a tile of `w` lanes keeps its item `k`, blocked or
/// striped.
fn tile_index(striped: bool, w: u32, items: u32, lane: u32, k: u32) -> u32 {
    if striped {
        k * w + lane
    } else {
        lane * items + k
    }
}

pub(super) fn cases(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    let dtype = instance.dtype.expect("subgroup loads take a dtype");
    let n = instance.constant("items");
    let log2_size = instance.log2_size;
    let ty = ValueType::Scalar(dtype);
    let t = dtype.wgsl();
    let array = subgroup_array_name(dtype);
    // Each tile's region starts at OFFSET + (its first thread) * n: within
    // the workgroup, so within the dispatch's invocations.
    let len = OFFSET + inputs.invocations * most_items("load_blocked");
    let name = instance.primitive.name;
    let store = name.starts_with("store_");
    let striped = name.contains("_striped");
    let transposed = name.contains("_transpose");
    let smallest_tile = log2_size.map_or(inputs.min_size, |l| 1 << l);
    // At least one valid item, so that a transposed load compares a lane.
    let valid = inputs
        .rng()
        .random_range((smallest_tile * n / 2).max(1)..=smallest_tile * n);
    let w = log2_size.map_or_else(|| "lane_count".to_string(), |l| format!("{}u", 1u32 << l));
    let mut code = format!(
        "let w = {w};\nlet tile_lane = lane % w;\n\
         let base = {OFFSET}u + (thread - tile_lane) * {n}u;\nworkgroupBarrier();\n"
    );
    // Fill the tile's region: element j * w + l from operand j of lane l.
    for j in 0..n {
        code.push_str(&format!("{array}[base + {j}u * w + tile_lane] = ${j};\n"));
    }
    code.push_str("workgroupBarrier();\n");
    code.push_str(&items_from_operands(t, n, n));
    code.push_str(&format!("\n$f(base, {valid}u, &items);\n"));
    if store {
        code.push_str("workgroupBarrier();\n");
        let reads: Vec<String> = (0..n)
            .map(|j| format!("{array}[base + {j}u * w + tile_lane]"))
            .collect();
        code.push_str(&if n == 1 {
            format!("let r = {};", reads[0])
        } else {
            format!("let r = array<{t}, {n}>({});", reads.join(", "))
        });
    } else {
        code.push_str(bind_items(n));
    }
    let model = move |l: &Lanes<'_>| {
        let mut out = vec![None; (l.size * n) as usize];
        for tile in tiles(l.size, log2_size) {
            let (first, w) = (tile.start, tile.end - tile.start);
            let region = |x: u32| l.get((x / w) as usize, first + x % w);
            let item = |lane: u32, k: u32| l.get((n + k) as usize, first + lane);
            // Memory index of lane's item k (a transposed store writes the
            // blocked items, like a blocked store).
            let index = |lane: u32, k: u32| tile_index(striped, w, n, lane, k);
            if store {
                let mut after: Vec<Value> = (0..w * n).map(region).collect();
                for lane in 0..w {
                    for k in 0..n {
                        if index(lane, k) < valid {
                            after[index(lane, k) as usize] = item(lane, k);
                        }
                    }
                }
                for lane in 0..w {
                    for j in 0..n {
                        let x = j * w + lane;
                        out[((first + lane) * n + j) as usize] = Some(after[x as usize].into());
                    }
                }
            } else {
                for lane in 0..w {
                    for k in 0..n {
                        let x = index(lane, k);
                        out[((first + lane) * n + k) as usize] = if x < valid {
                            Some(region(x).into())
                        } else if transposed {
                            None
                        } else {
                            Some(item(lane, k).into())
                        };
                    }
                }
            }
        }
        out
    };
    let mut builder = CaseBuilder::new(instance.spec(), instance.lowering, ty, model);
    for _ in 0..2 * n {
        builder = builder.operand(ty, inputs.per_invocation(|rng, _| random_bits(dtype, rng)));
    }
    vec![
        builder
            .custom(code)
            .support(format!("var<workgroup> {array}: array<{t}, {len}>;\n"))
            .label(format!("random bits, {valid} valid"))
            .results(n)
            .build(),
    ]
}
