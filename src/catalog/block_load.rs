//! Workgroup loads and stores (CUB's BlockLoad and BlockStore): a tile of
//! `B * items` values between an array of the caller's module and each
//! thread's `items` values, directly (blocked or striped) or through a
//! block exchange (transposed).

use super::block_exchange::{ITEMS, check_exchange};
use super::{ANY_DTYPE, Arg, Cost, Family, Formula, Namespace, Param, Placement, Primitive, Ret};
use crate::target::Lowering;

/// The direct rows' shared fields (also the vectorized rows' base,
/// `block_load_vectorized.rs`).
pub(super) const DIRECT: Primitive = Primitive {
    name: "",
    namespace: Namespace::Block,
    family: Family::BlockLoad,
    template_macro: "",
    params: &[Param::Dtype, Param::BlockDim, ITEMS, Param::Array],
    dtypes: ANY_DTYPE,
    args: &[Arg::Offset, Arg::ValidItems, Arg::Items],
    ret: Ret::Nothing,
    placement: Placement::PerLane,
    cost: Cost {
        builtin: Formula::Zero,
        shuffle: None,
        note: "`items` guarded accesses of `A` per thread; no barrier, no workgroup memory",
    },
    lowerings: &[Lowering::Builtin],
    operator: None,
    check: None,
    shared_memory: None,
    needs: None,
    doc: "",
};

const TRANSPOSE: Primitive = Primitive {
    cost: Cost {
        builtin: Formula::Zero,
        shuffle: None,
        note: "the striped access of `A` and a block exchange: 2 workgroup barriers, `items` \
               writes and reads of workgroup memory per thread",
    },
    check: Some(check_exchange),
    shared_memory: Some(
        "B * items * sizeof(T) bytes: the tile of the block exchanges of the same T, B and \
         items; at most 16 KiB (checked at expansion)",
    ),
    ..DIRECT
};

/// Where the vector path is, said once in every direct row's contract.
macro_rules! see_vectorized {
    () => {
        " WGSL cannot view an `array<u32>` as `vec4<u32>` (CUB's \
          `LoadDirectBlockedVectorized` casts the pointer): for an array the caller declares \
          as `array<vec4<T>>`, `block::load_vectorized` / `block::store_vectorized` access \
          four items at a time; the striped forms are the coalesced ones."
    };
}

/// Every block load and store.
pub(super) const PRIMITIVES: &[Primitive] = &[
    Primitive {
        name: "load_direct_blocked",
        template_macro: "load_direct_blocked",
        doc: concat!(
            "Loads the workgroup's tile `A[offset .. offset + B * items]` in the blocked \
             arrangement (CUB `LoadDirectBlocked`): thread t gets `(*items)[k] = A[offset + t \
             * items + k]` for every k whose tile index `t * items + k` is below \
             `valid_items`; the other items keep their values (set them first for a default). \
             `A` names a module-scope array of T of the caller's module (a storage buffer, a \
             workgroup or a private array); `offset` and `valid_items` the same in every \
             thread. No barrier and no workgroup memory, so divergent threads may call it; the \
             caller's `var items: array<T, items>` is passed as `&items`.",
            see_vectorized!()
        ),
        ..DIRECT
    },
    Primitive {
        name: "load_direct_striped",
        template_macro: "load_direct_striped",
        doc: concat!(
            "Loads the workgroup's tile in the striped arrangement (CUB `LoadDirectStriped`): \
             thread t gets `(*items)[k] = A[offset + k * B + t]` where `k * B + t < \
             valid_items`; consecutive threads read consecutive elements (coalesced). Same \
             arguments and contract as `block::load_direct_blocked`.",
            see_vectorized!()
        ),
        ..DIRECT
    },
    Primitive {
        name: "store_direct_blocked",
        template_macro: "store_direct_blocked",
        doc: concat!(
            "Stores the thread's items to the workgroup's tile in the blocked arrangement (CUB \
             `StoreDirectBlocked`): `A[offset + t * items + k] = (*items)[k]` where `t * items \
             + k < valid_items`. `A` must be writable (a read_write storage buffer, a \
             workgroup or a private array). No barrier: a workgroup array written here needs \
             `block::sync` before other threads read it.",
            see_vectorized!()
        ),
        ..DIRECT
    },
    Primitive {
        name: "store_direct_striped",
        template_macro: "store_direct_striped",
        doc: concat!(
            "Stores the thread's items in the striped arrangement (CUB `StoreDirectStriped`): \
             `A[offset + k * B + t] = (*items)[k]` where `k * B + t < valid_items` \
             (coalesced). Same contract as `block::store_direct_blocked`.",
            see_vectorized!()
        ),
        ..DIRECT
    },
    Primitive {
        name: "load_transpose",
        template_macro: "load_transpose",
        doc: "Loads the tile striped (coalesced) and turns it blocked with \
              `block::striped_to_blocked` (CUB `BLOCK_LOAD_TRANSPOSE`): thread t gets \
              `(*items)[k] = A[offset + t * items + k]` for every tile index `t * items + k` \
              below `valid_items`; the other items are undefined. Uniform control flow, every \
              thread (the exchange has barriers).",
        ..TRANSPOSE
    },
    Primitive {
        name: "store_transpose",
        template_macro: "store_transpose",
        doc: "Turns the blocked items striped with `block::blocked_to_striped` and stores them \
              striped (coalesced; CUB `BLOCK_STORE_TRANSPOSE`): `A[offset + t * items + k] = \
              (*items)[k]` (the values as they were before the call) where `t * items + k < \
              valid_items`. `items` is left in the striped arrangement. Uniform control flow, \
              every thread.",
        ..TRANSPOSE
    },
];
