//! Workgroup data exchange (CUB's BlockExchange): each thread's `items`
//! values rearranged across the workgroup through a tile in workgroup
//! memory, between the blocked arrangement (thread `t` holds tile indices
//! `t * items ..`), the striped one (thread `t` holds `t, t + B, ..`) and
//! ranks the caller chooses.

use super::{
    ANY_DTYPE, Arg, CheckArgs, Cost, Family, Formula, MAX_SHARED_BYTES, Namespace, Param,
    Placement, Primitive, Ret,
};
use crate::target::{Lowering, Target};

/// `items`, the values per thread: a template argument of every block
/// load, store and exchange.
pub(super) const ITEMS: Param = Param::Const {
    name: "items",
    min: 1,
    max: 64,
    samples: &[1, 3],
};

/// Workgroup memory of a block exchange of `items` values of `dtype_bytes`
/// bytes per thread over `b` threads: one tile of `B * items` values.
pub fn exchange_shared_bytes(b: u32, items: u32, dtype_bytes: u32) -> u32 {
    b * items * dtype_bytes
}

/// An error unless `bytes` of workgroup memory fit [`MAX_SHARED_BYTES`];
/// `what` names the configuration that needs them.
pub(super) fn fits_shared_memory(what: &str, bytes: u32) -> Result<(), String> {
    if bytes > MAX_SHARED_BYTES {
        return Err(format!(
            "{what} needs {bytes} bytes of workgroup memory, over the {MAX_SHARED_BYTES} every \
             WebGPU device offers"
        ));
    }
    Ok(())
}

/// The tile within [`MAX_SHARED_BYTES`].
pub(super) fn check_exchange(args: &CheckArgs<'_>, _target: &Target) -> Result<(), String> {
    let b = args.block_dim.expect("block exchanges take B");
    let items = args.constant("items");
    let dtype = args.dtype.expect("block exchanges take T");
    fits_shared_memory(
        &format!("block_dim {b} with {items} {dtype} items per thread"),
        exchange_shared_bytes(b, items, dtype.size()),
    )
}

pub(super) const EXCHANGE: Primitive = Primitive {
    name: "",
    namespace: Namespace::Block,
    family: Family::BlockExchange,
    template_macro: "",
    params: &[Param::Dtype, Param::BlockDim, ITEMS],
    dtypes: ANY_DTYPE,
    args: &[Arg::Items],
    ret: Ret::Nothing,
    placement: Placement::PerLane,
    cost: Cost {
        builtin: Formula::Zero,
        shuffle: None,
        note: "2 workgroup barriers; `items` writes and `items` reads of workgroup memory per \
               thread",
    },
    lowerings: &[Lowering::Builtin],
    operator: None,
    check: Some(check_exchange),
    shared_memory: Some(
        "B * items * sizeof(T) bytes: one tile, shared by the exchanges of the same T, B and \
         items; at most 16 KiB (checked at expansion)",
    ),
    needs: None,
    doc: "",
};

/// Every block exchange.
pub(super) const PRIMITIVES: &[Primitive] = &[
    Primitive {
        name: "blocked_to_striped",
        template_macro: "blocked_to_striped",
        doc: "Rearranges the workgroup's `B * items` values from the blocked arrangement \
              (thread t holds tile indices `t * items + k`, k < items) to the striped one \
              (thread t then holds indices `k * B + t`), through a tile in workgroup memory \
              (CUB `BlockExchange::BlockedToStriped`). `items` points to the thread's values \
              and is rewritten in place. A barrier before the writes lets back-to-back calls \
              reuse the tile; a second one separates writes from reads. Any `B` (no subgroup \
              is involved); uniform control flow, every thread.",
        ..EXCHANGE
    },
    Primitive {
        name: "striped_to_blocked",
        template_macro: "striped_to_blocked",
        doc: "Rearranges the workgroup's `B * items` values from the striped arrangement \
              (thread t holds tile indices `k * B + t`) to the blocked one (thread t then \
              holds `t * items + k`), through a tile in workgroup memory (CUB \
              `BlockExchange::StripedToBlocked`). Same barriers and contract as \
              `block::blocked_to_striped`.",
        ..EXCHANGE
    },
    Primitive {
        name: "scatter_to_blocked",
        template_macro: "scatter_to_blocked",
        args: &[Arg::Items, Arg::Ranks],
        doc: "Writes each of the thread's values to the tile index `ranks[k]`, then gives \
              thread t the tile indices `t * items + k` (blocked): CUB \
              `BlockExchange::ScatterToBlocked`, the step after a rank (a radix sort's \
              scatter). `ranks` must be a permutation of `0 .. B * items` across the \
              workgroup; a repeated or out-of-range rank leaves the result undefined. Same \
              barriers as `block::blocked_to_striped`.",
        ..EXCHANGE
    },
    Primitive {
        name: "scatter_to_striped",
        template_macro: "scatter_to_striped",
        args: &[Arg::Items, Arg::Ranks],
        doc: "Writes each of the thread's values to the tile index `ranks[k]`, then gives \
              thread t the tile indices `k * B + t` (striped): CUB \
              `BlockExchange::ScatterToStriped`. `ranks` a permutation of `0 .. B * items`, as \
              for `block::scatter_to_blocked`.",
        ..EXCHANGE
    },
];
