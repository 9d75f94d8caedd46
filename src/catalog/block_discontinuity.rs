//! Workgroup discontinuities (CUB's BlockDiscontinuity) and adjacent
//! differences (CUB's BlockAdjacentDifference) over the workgroup's tile
//! of `B * items` values in the blocked arrangement: each item compared
//! with, or combined with, its neighbour in the tile, the neighbours across
//! threads exchanged through workgroup memory.

use super::block_exchange::{ITEMS, fits_shared_memory};
use super::{
    ANY_DTYPE, Arg, CheckArgs, Cost, Family, Formula, Namespace, Param, Placement, Primitive, Ret,
};
use crate::target::{Lowering, Target};

/// Workgroup memory of the block discontinuities and adjacent differences
/// of `dtype_bytes`-byte values over `b` threads: each thread's first and
/// last item.
pub fn discontinuity_shared_bytes(b: u32, dtype_bytes: u32) -> u32 {
    2 * b * dtype_bytes
}

/// The neighbours within [`MAX_SHARED_BYTES`](super::MAX_SHARED_BYTES).
pub(super) fn check_neighbours(args: &CheckArgs<'_>, _target: &Target) -> Result<(), String> {
    let b = args.block_dim.expect("block discontinuities take B");
    let dtype = args.dtype.expect("block discontinuities take T");
    fits_shared_memory(
        &format!("block_dim {b} with {dtype} items"),
        discontinuity_shared_bytes(b, dtype.size()),
    )
}

const HEADS_ARGS: &[Arg] = &[
    Arg::Items,
    Arg::Flags,
    Arg::TilePredecessor,
    Arg::HasTilePredecessor,
];
const TAILS_ARGS: &[Arg] = &[
    Arg::Items,
    Arg::Flags,
    Arg::TileSuccessor,
    Arg::HasTileSuccessor,
];
const BOTH_ARGS: &[Arg] = &[
    Arg::Items,
    Arg::HeadFlags,
    Arg::TailFlags,
    Arg::TilePredecessor,
    Arg::HasTilePredecessor,
    Arg::TileSuccessor,
    Arg::HasTileSuccessor,
];
const ADJACENT_COST: Cost = Cost {
    builtin: Formula::Zero,
    shuffle: None,
    note: "2 workgroup barriers; 2 writes and 1 read of workgroup memory per thread, `items` \
           calls of F",
};
const WITH_F: &[Param] = &[Param::Dtype, Param::BlockDim, ITEMS, Param::Function];

const FLAGS: Primitive = Primitive {
    name: "",
    namespace: Namespace::Block,
    family: Family::BlockDiscontinuity,
    template_macro: "",
    params: &[Param::Dtype, Param::BlockDim, ITEMS],
    dtypes: ANY_DTYPE,
    args: HEADS_ARGS,
    ret: Ret::Nothing,
    placement: Placement::PerLane,
    cost: Cost {
        builtin: Formula::Zero,
        shuffle: None,
        note: "2 workgroup barriers; 2 writes and 1 read (2 for heads and tails) of workgroup \
               memory per thread, `items` comparisons",
    },
    lowerings: &[Lowering::Builtin],
    operator: None,
    check: Some(check_neighbours),
    shared_memory: Some(
        "2 * B * sizeof(T) bytes: each thread's first and last item, shared by the block \
         discontinuities and adjacent differences of the same T and B; at most 16 KiB \
         (checked at expansion)",
    ),
    needs: None,
    doc: "",
};

/// What every flag row says of the tile, the neighbours and the barriers.
macro_rules! tile_contract {
    () => {
        " The tile is the workgroup's `B * items` values in the blocked arrangement (thread t \
          holds tile indices `t * items + k`); the neighbours across threads go through \
          workgroup memory between two barriers (the first lets back-to-back calls reuse it). \
          Uniform control flow, every thread; flags are 0 or 1."
    };
}

/// Every block discontinuity and adjacent difference.
pub(super) const PRIMITIVES: &[Primitive] = &[
    Primitive {
        name: "flag_heads",
        template_macro: "flag_heads",
        doc: concat!(
            "Head flags (CUB `BlockDiscontinuity::FlagHeads`): `(*flags)[k]` is 1 where the \
             item differs (`!=`) from the one before it in the tile. The first item of the \
             tile is compared with `tile_predecessor` when `has_tile_predecessor` is true and \
             flagged 1 otherwise (both read in thread 0 only).",
            tile_contract!()
        ),
        ..FLAGS
    },
    Primitive {
        name: "flag_heads_by",
        template_macro: "flag_heads",
        params: WITH_F,
        doc: concat!(
            "Head flags under the user function `F: fn(a: T, b: T) -> bool`, called as \
             `F(predecessor, item)` and true where the two differ (CUB's `flag_op`); \
             otherwise as `block::flag_heads`.",
            tile_contract!()
        ),
        ..FLAGS
    },
    Primitive {
        name: "flag_tails",
        template_macro: "flag_tails",
        args: TAILS_ARGS,
        doc: concat!(
            "Tail flags (CUB `BlockDiscontinuity::FlagTails`): `(*flags)[k]` is 1 where the \
             item differs (`!=`) from the one after it in the tile. The last item of the tile \
             is compared with `tile_successor` when `has_tile_successor` is true and flagged \
             1 otherwise (both read in the last thread only).",
            tile_contract!()
        ),
        ..FLAGS
    },
    Primitive {
        name: "flag_tails_by",
        template_macro: "flag_tails",
        params: WITH_F,
        args: TAILS_ARGS,
        doc: concat!(
            "Tail flags under the user function `F: fn(a: T, b: T) -> bool`, called as \
             `F(item, successor)`; otherwise as `block::flag_tails`.",
            tile_contract!()
        ),
        ..FLAGS
    },
    Primitive {
        name: "flag_heads_and_tails",
        template_macro: "flag_heads_and_tails",
        args: BOTH_ARGS,
        doc: concat!(
            "Head and tail flags at once (CUB `BlockDiscontinuity::FlagHeadsAndTails`), \
             with one exchange of neighbours: `head_flags` as `block::flag_heads` and \
             `tail_flags` as `block::flag_tails` give them.",
            tile_contract!()
        ),
        ..FLAGS
    },
    Primitive {
        name: "flag_heads_and_tails_by",
        template_macro: "flag_heads_and_tails",
        params: WITH_F,
        args: BOTH_ARGS,
        doc: concat!(
            "Head and tail flags at once under the user function `F: fn(a: T, b: T) -> \
             bool` (`F(predecessor, item)` for heads, `F(item, successor)` for tails).",
            tile_contract!()
        ),
        ..FLAGS
    },
    Primitive {
        name: "adjacent_difference_left",
        template_macro: "adjacent_difference_left",
        params: WITH_F,
        args: &[Arg::Items, Arg::TilePredecessor, Arg::HasTilePredecessor],
        cost: ADJACENT_COST,
        doc: concat!(
            "In place, each item becomes `F(item, predecessor)`, the predecessor being the \
             item before it in the tile as it was before the call (CUB \
             `BlockAdjacentDifference::SubtractLeft` with `F: fn(a: T, b: T) -> T`, \
             `a - b` for a difference). The first item of the tile becomes \
             `F(item, tile_predecessor)` when `has_tile_predecessor` is true and is left as \
             it is otherwise (both read in thread 0 only).",
            tile_contract!()
        ),
        ..FLAGS
    },
    Primitive {
        name: "adjacent_difference_right",
        template_macro: "adjacent_difference_right",
        params: WITH_F,
        args: &[Arg::Items, Arg::TileSuccessor, Arg::HasTileSuccessor],
        cost: ADJACENT_COST,
        doc: concat!(
            "In place, each item becomes `F(item, successor)`, the successor being the item \
             after it in the tile as it was before the call (CUB \
             `BlockAdjacentDifference::SubtractRight`). The last item of the tile becomes \
             `F(item, tile_successor)` when `has_tile_successor` is true and is left as it \
             is otherwise (both read in the last thread only).",
            tile_contract!()
        ),
        ..FLAGS
    },
];
