//! Workgroup exchanges and loads in the warp-striped arrangement (CUB's
//! `BlockExchange::BlockedToWarpStriped` / `WarpStripedToBlocked` and
//! `BLOCK_LOAD_WARP_TRANSPOSE` / `BLOCK_STORE_WARP_TRANSPOSE`): each
//! subgroup owns the `S * items` consecutive tile indices from
//! `subgroup * S * items`, striped across its lanes, so every subgroup
//! touches only its own part of the tile.

use super::block::check_block_dim;
use super::block_exchange::{self, ITEMS, check_exchange};
use super::{Arg, CheckArgs, Cost, Family, Formula, Param, Primitive};
use crate::target::Target;

/// `B` a multiple of the subgroup size (whole subgroups), and the tile
/// within 16 KiB.
fn check_warp_exchange(args: &CheckArgs<'_>, target: &Target) -> Result<(), String> {
    check_block_dim(args, target)?;
    check_exchange(args, target)
}

/// The warp-striped arrangement, said once in every row's contract.
macro_rules! warp_striped {
    () => {
        " Warp-striped: lane l of subgroup w (`S` lanes, the subgroup size the kernel runs at) \
          holds the tile indices `w * S * items + k * S + l`, k < items. `B` must be a \
          multiple of every subgroup size the target may use (checked at expansion), and \
          subgroups must tile the workgroup in index order, as every known driver does (the \
          adapter check verifies it)."
    };
}

/// The block exchanges' row, in this family, with its own check and
/// notes.
const EXCHANGE: Primitive = Primitive {
    family: Family::BlockWarpExchange,
    cost: Cost {
        builtin: Formula::Zero,
        shuffle: None,
        note: "2 workgroup barriers; `items` writes and `items` reads of workgroup memory per \
               thread, each subgroup within its own `S * items` values",
    },
    check: Some(check_warp_exchange),
    shared_memory: Some(
        "B * items * sizeof(T) bytes: the tile of the block exchanges of the same T, B and \
         items (shared with `block::blocked_to_striped`); at most 16 KiB (checked at \
         expansion)",
    ),
    ..block_exchange::EXCHANGE
};

const LOAD: Primitive = Primitive {
    params: &[Param::Dtype, Param::BlockDim, ITEMS, Param::Array],
    args: &[Arg::Offset, Arg::ValidItems, Arg::Items],
    cost: Cost {
        builtin: Formula::Zero,
        shuffle: None,
        note: "the warp-striped access of `A` (each subgroup's lanes read consecutive \
               elements) and a warp-striped exchange: 2 workgroup barriers, `items` writes and \
               reads of workgroup memory per thread",
    },
    ..EXCHANGE
};

/// Every warp-striped exchange, load and store.
pub(super) const PRIMITIVES: &[Primitive] = &[
    Primitive {
        name: "blocked_to_warp_striped",
        template_macro: "blocked_to_warp_striped",
        doc: concat!(
            "Rearranges the workgroup's `B * items` values from the blocked arrangement \
             (thread t holds tile indices `t * items + k`) to the warp-striped one, through \
             a tile in workgroup memory (CUB `BlockExchange::BlockedToWarpStriped`). `items` \
             points to the thread's values and is rewritten in place. No value crosses a \
             subgroup, but WGSL has no subgroup-scoped memory barrier, so the two barriers \
             are workgroup barriers (one before the writes, so back-to-back calls may reuse \
             the tile): uniform control flow, every thread.",
            warp_striped!()
        ),
        ..EXCHANGE
    },
    Primitive {
        name: "warp_striped_to_blocked",
        template_macro: "warp_striped_to_blocked",
        doc: concat!(
            "Rearranges the workgroup's values from the warp-striped arrangement to the \
             blocked one (thread t then holds `t * items + k`; CUB \
             `BlockExchange::WarpStripedToBlocked`). Same barriers and contract as \
             `block::blocked_to_warp_striped`.",
            warp_striped!()
        ),
        ..EXCHANGE
    },
    Primitive {
        name: "load_warp_transpose",
        template_macro: "load_warp_transpose",
        doc: concat!(
            "Loads the workgroup's tile `A[offset .. offset + B * items]` warp-striped (each \
             subgroup reads its `S * items` consecutive elements, its lanes consecutive ones) \
             and turns it blocked with `block::warp_striped_to_blocked` (CUB \
             `BLOCK_LOAD_WARP_TRANSPOSE`): thread t gets `(*items)[k] = A[offset + t * items \
             + k]` for every tile index `t * items + k` below `valid_items`; the other items \
             are undefined. `A` names a module-scope array of T of the caller's module; \
             `offset` and `valid_items` the same in every thread. Uniform control flow, every \
             thread (the exchange has barriers).",
            warp_striped!()
        ),
        ..LOAD
    },
    Primitive {
        name: "store_warp_transpose",
        template_macro: "store_warp_transpose",
        doc: concat!(
            "Turns the blocked items warp-striped with `block::blocked_to_warp_striped` and \
             stores them warp-striped (CUB `BLOCK_STORE_WARP_TRANSPOSE`): `A[offset + t * \
             items + k] = (*items)[k]` (the values as they were before the call) where `t * \
             items + k < valid_items`. `A` must be writable; `items` is left warp-striped. \
             Uniform control flow, every thread; a workgroup array written here needs \
             `block::sync` before other threads read it.",
            warp_striped!()
        ),
        ..LOAD
    },
];
