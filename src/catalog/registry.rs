//! The registry: every primitive of the catalog, lookup of a request's op
//! name, and "did you mean" suggestions.

use super::{
    Namespace, Primitive, ballot, block, block_discontinuity, block_exchange, block_histogram,
    block_load, block_radix_sort, block_shuffle, grid, identification, lanemask, movement,
    reduction, scan, segmented, sort, vote,
};
use super::{block_merge_sort, merge_sort};
// The warp-striped block exchanges, the subgroup exchanges, loads and
// stores (issue 36, third batch).
use super::{block_warp_exchange, exchange, load};
// The vectorized block loads and stores (issue 36, last batch).
use super::block_load_vectorized;
use crate::target::Lowering;

/// Every primitive in the catalog, grouped by family.
pub fn primitives() -> impl Iterator<Item = &'static Primitive> {
    [
        movement::PRIMITIVES,
        identification::PRIMITIVES,
        ballot::PRIMITIVES,
        vote::PRIMITIVES,
        lanemask::PRIMITIVES,
        reduction::PRIMITIVES,
        scan::PRIMITIVES,
        segmented::PRIMITIVES,
        sort::PRIMITIVES,
        merge_sort::PRIMITIVES,
    ]
    .into_iter()
    .chain(block::PRIMITIVES)
    .chain([
        block_exchange::PRIMITIVES,
        block_load::PRIMITIVES,
        block_load_vectorized::PRIMITIVES,
        block_discontinuity::PRIMITIVES,
        block_shuffle::PRIMITIVES,
        block_radix_sort::PRIMITIVES,
        block_histogram::PRIMITIVES,
    ])
    .chain([
        block_warp_exchange::PRIMITIVES,
        exchange::PRIMITIVES,
        load::PRIMITIVES,
    ])
    .chain([grid::PRIMITIVES])
    .chain([block_merge_sort::PRIMITIVES])
    .flatten()
}

/// The ops a lowering strategy (a tune profile) chooses for: subgroup ops
/// with both lowerings; each op's tiled form (`{op}_tiled`) follows it
/// ([`Strategy::with_op_and_tiled`](crate::target::Strategy::with_op_and_tiled)).
pub fn tunable_ops() -> impl Iterator<Item = &'static Primitive> {
    primitives().filter(|p| {
        p.namespace == Namespace::Subgroup
            && !p.name.ends_with("_tiled")
            && Lowering::ALL.iter().all(|l| p.lowerings.contains(l))
    })
}

/// The primitive a request names: `reduce_add` or `subgroup::reduce_add`
/// for the subgroup op, `block::reduce_add` for the workgroup one,
/// `grid::mem_fence` for the device-wide fence.
pub fn find(name: &str) -> Option<&'static Primitive> {
    let (namespace, bare) = split_namespace(name);
    primitives().find(|p| p.namespace == namespace && p.name == bare)
}

/// The namespace a qualified name selects and the bare name.
pub fn split_namespace(name: &str) -> (Namespace, &str) {
    if let Some(bare) = name.strip_prefix("block::") {
        (Namespace::Block, bare)
    } else if let Some(bare) = name.strip_prefix("grid::") {
        (Namespace::Grid, bare)
    } else {
        (
            Namespace::Subgroup,
            name.strip_prefix("subgroup::").unwrap_or(name),
        )
    }
}

/// The catalog name closest to `name`, for "did you mean" hints.
pub fn suggest(name: &str) -> Option<String> {
    primitives()
        .map(|p| {
            (
                strsim::levenshtein(name, &p.qualified_name()),
                p.qualified_name(),
            )
        })
        .filter(|(d, _)| *d <= 3)
        .min()
        .map(|(_, n)| n)
}
