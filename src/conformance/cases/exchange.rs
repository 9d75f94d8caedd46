//! Subgroup exchanges, checked per tile of lanes (the subgroup, or each
//! aligned tile of `2^L`): each lane's items after one call, against the
//! permutation between the blocked and striped arrangements.

use super::block_exchange::{bind_items, items_from_operands};
use super::{Inputs, tiles};
use crate::conformance::case::{Case, CaseBuilder, Lanes};
use crate::conformance::expected::Expected;
use crate::conformance::value::{ValueType, random_bits};
use crate::expand::Instance;

pub(super) fn cases(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    let dtype = instance.dtype.expect("subgroup exchanges take a dtype");
    let n = instance.constant("items");
    let log2_size = instance.log2_size;
    let ty = ValueType::Scalar(dtype);
    let to_striped = instance.primitive.name.starts_with("blocked_to_striped");
    let mut builder = CaseBuilder::new(instance.spec(), instance.lowering, ty, move |l| {
        exchange_model(l, log2_size, n, to_striped)
    });
    for _ in 0..n {
        builder = builder.operand(ty, inputs.per_invocation(|rng, _| random_bits(dtype, rng)));
    }
    let mut code = items_from_operands(dtype.wgsl(), n, 0);
    code.push_str("\n$f(&items);\n");
    code.push_str(bind_items(n));
    vec![builder.custom(code).label("random bits").results(n).build()]
}

/// Each lane's items after the exchange, tile by tile: lane `l` of a tile
/// of `w` lanes holds index `l * n + k` (blocked) or `k * w + l` (striped)
/// as its item `k`.
fn exchange_model(
    l: &Lanes<'_>,
    log2_size: Option<u32>,
    n: u32,
    to_striped: bool,
) -> Vec<Option<Expected>> {
    let mut expected = vec![None; (l.size * n) as usize];
    for tile in tiles(l.size, log2_size) {
        let base = tile.start;
        let w = tile.end - tile.start;
        for lane in 0..w {
            for j in 0..n {
                let (from_lane, from_item) = if to_striped {
                    let x = j * w + lane;
                    (x / n, x % n)
                } else {
                    let x = lane * n + j;
                    (x % w, x / w)
                };
                let value = l.get(from_item as usize, base + from_lane);
                expected[((base + lane) * n + j) as usize] = Some(value.into());
            }
        }
    }
    expected
}
