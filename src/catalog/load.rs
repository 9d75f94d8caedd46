//! Subgroup loads and stores (CUB's WarpLoad and WarpStore): a tile of
//! `n * items` values (the subgroup's `n = S` lanes, or an aligned tile of
//! `n = 2^L`) between an array of the caller's module and each lane's
//! `items` values, directly (blocked or striped) or transposed through a
//! register exchange.

use super::exchange::ITEMS;
use super::{ANY_DTYPE, Arg, Cost, Family, Formula, Namespace, Param, Placement, Primitive, Ret};
use crate::target::Lowering;

const DIRECT: Primitive = Primitive {
    name: "",
    namespace: Namespace::Subgroup,
    family: Family::Load,
    template_macro: "",
    params: &[Param::Dtype, ITEMS, Param::Array],
    dtypes: ANY_DTYPE,
    args: &[Arg::Offset, Arg::ValidItems, Arg::Items],
    ret: Ret::Nothing,
    placement: Placement::PerLane,
    cost: Cost {
        builtin: Formula::Zero,
        shuffle: None,
        note: "`items` guarded accesses of `A` per lane; no exchange, no workgroup memory",
    },
    lowerings: &[Lowering::Builtin],
    operator: None,
    check: None,
    shared_memory: None,
    needs: None,
    doc: "",
};

const TILED: &[Param] = &[Param::Dtype, Param::Log2Size, ITEMS, Param::Array];

const TRANSPOSE: Primitive = Primitive {
    cost: Cost {
        builtin: Formula::ItemsSquared,
        shuffle: None,
        note: "the striped access of `A` and a register exchange (`sg::striped_to_blocked` or \
               `sg::blocked_to_striped`): `items * items` shuffles per lane, none at 1 item; no \
               workgroup memory",
    },
    lowerings: &[Lowering::Shuffle],
    ..DIRECT
};

/// The arguments, said once in every row's contract.
macro_rules! tile_args {
    () => {
        " The tile is the subgroup (`n = S`, the subgroup size the kernel runs at) or, in the \
          `_tiled` forms, each aligned tile of `n = 2^L` lanes (CUB's logical warp; `L <= \
          log2(min subgroup size)`), lane l its l-th lane. `A` names a module-scope array of \
          T of the caller's module (a storage buffer, a workgroup or a private array); \
          `offset` and `valid_items` must be the same in every lane of a tile (each tile \
          passes its own, as CUB's logical warps pass their own pointer). The caller's `var \
          items: array<T, items>` is passed as `&items`."
    };
}

/// Every subgroup load and store.
pub(super) const PRIMITIVES: &[Primitive] = &[
    Primitive {
        name: "load_blocked",
        template_macro: "load_blocked",
        doc: concat!(
            "Loads the tile `A[offset .. offset + n * items]` in the blocked arrangement (CUB \
             `WarpLoad` with `WARP_LOAD_DIRECT`): lane l gets `(*items)[k] = A[offset + l * \
             items + k]` where `l * items + k < valid_items`; the other items keep their \
             values. No exchange, so divergent lanes may call it.",
            tile_args!()
        ),
        ..DIRECT
    },
    Primitive {
        name: "load_striped",
        template_macro: "load_striped",
        doc: concat!(
            "Loads the tile in the striped arrangement (CUB `WARP_LOAD_STRIPED`): lane l gets \
             `(*items)[k] = A[offset + k * n + l]` where `k * n + l < valid_items` \
             (consecutive lanes read consecutive elements); the other items keep their \
             values. No exchange.",
            tile_args!()
        ),
        ..DIRECT
    },
    Primitive {
        name: "store_blocked",
        template_macro: "store_blocked",
        doc: concat!(
            "Stores the lane's items in the blocked arrangement (CUB `WarpStore` with \
             `WARP_STORE_DIRECT`): `A[offset + l * items + k] = (*items)[k]` where `l * items \
             + k < valid_items`. `A` must be writable; a workgroup array written here needs a \
             barrier before other lanes read it.",
            tile_args!()
        ),
        ..DIRECT
    },
    Primitive {
        name: "store_striped",
        template_macro: "store_striped",
        doc: concat!(
            "Stores the lane's items in the striped arrangement (CUB `WARP_STORE_STRIPED`): \
             `A[offset + k * n + l] = (*items)[k]` where `k * n + l < valid_items`. Same \
             contract as `sg::store_blocked`.",
            tile_args!()
        ),
        ..DIRECT
    },
    Primitive {
        name: "load_transpose",
        template_macro: "load_transpose",
        doc: concat!(
            "Loads the tile striped (coalesced) and turns it blocked with \
             `sg::striped_to_blocked` (CUB `WARP_LOAD_TRANSPOSE`, here through shuffles \
             instead of CUB's shared memory): lane l gets `(*items)[k] = A[offset + l * items \
             + k]` for every tile index below `valid_items`; the other items are undefined. \
             Uniform control flow, every lane of the tile active.",
            tile_args!()
        ),
        ..TRANSPOSE
    },
    Primitive {
        name: "store_transpose",
        template_macro: "store_transpose",
        doc: concat!(
            "Turns the blocked items striped with `sg::blocked_to_striped` (shuffles) and \
             stores them striped (CUB `WARP_STORE_TRANSPOSE`): `A[offset + l * items + k] = \
             (*items)[k]` (the values before the call) where `l * items + k < valid_items`. \
             `items` is left striped. Uniform control flow, every lane of the tile active.",
            tile_args!()
        ),
        ..TRANSPOSE
    },
    Primitive {
        name: "load_blocked_tiled",
        template_macro: "load_blocked",
        params: TILED,
        doc: "`sg::load_blocked` per aligned tile of `2^L` lanes (CUB's logical warps).",
        ..DIRECT
    },
    Primitive {
        name: "load_striped_tiled",
        template_macro: "load_striped",
        params: TILED,
        doc: "`sg::load_striped` per aligned tile of `2^L` lanes.",
        ..DIRECT
    },
    Primitive {
        name: "store_blocked_tiled",
        template_macro: "store_blocked",
        params: TILED,
        doc: "`sg::store_blocked` per aligned tile of `2^L` lanes.",
        ..DIRECT
    },
    Primitive {
        name: "store_striped_tiled",
        template_macro: "store_striped",
        params: TILED,
        doc: "`sg::store_striped` per aligned tile of `2^L` lanes.",
        ..DIRECT
    },
    Primitive {
        name: "load_transpose_tiled",
        template_macro: "load_transpose",
        params: TILED,
        doc: "`sg::load_transpose` per aligned tile of `2^L` lanes, through \
              `sg::striped_to_blocked_tiled`.",
        ..TRANSPOSE
    },
    Primitive {
        name: "store_transpose_tiled",
        template_macro: "store_transpose",
        params: TILED,
        doc: "`sg::store_transpose` per aligned tile of `2^L` lanes, through \
              `sg::blocked_to_striped_tiled`.",
        ..TRANSPOSE
    },
];
