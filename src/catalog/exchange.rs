//! Subgroup data exchange in registers (CUB's WarpExchange): each lane's
//! `items` values rearranged across the subgroup (or an aligned tile of
//! `2^L` lanes) between the blocked arrangement (lane `l` holds indices
//! `l * items ..`) and the striped one (lane `l` holds `l, l + n, ..`),
//! with shuffles and no workgroup memory.

use super::{ANY_DTYPE, Arg, Cost, Family, Formula, Namespace, Param, Placement, Primitive, Ret};
use crate::target::Lowering;

/// `items`, the values per lane: every shuffle exchange costs `items²`
/// shuffles, so fewer than the block exchanges take.
pub(super) const ITEMS: Param = Param::Const {
    name: "items",
    min: 1,
    max: 16,
    samples: &[1, 3],
};

const EXCHANGE: Primitive = Primitive {
    name: "",
    namespace: Namespace::Subgroup,
    family: Family::Exchange,
    template_macro: "",
    params: &[Param::Dtype, ITEMS],
    dtypes: ANY_DTYPE,
    args: &[Arg::Items],
    ret: Ret::Nothing,
    placement: Placement::PerLane,
    cost: Cost {
        builtin: Formula::ItemsSquared,
        shuffle: None,
        note: "`items * items` shuffles and selects per lane (none at 1 item, where blocked and \
               striped coincide); no workgroup memory, no barrier",
    },
    lowerings: &[Lowering::Shuffle],
    operator: None,
    check: None,
    shared_memory: None,
    needs: None,
    doc: "",
};

/// The shuffle variant, said once in every row's contract.
macro_rules! by_shuffles {
    () => {
        " In registers, CUB's `WARP_EXCHANGE_SHUFFLE` generalised to any `items` and any \
          subgroup size: for each of its items a lane shuffles every item index from the lane \
          that holds its value and keeps the right one (`items * items` shuffles, no \
          workgroup memory, where CUB's shared-memory variant takes `n * items * sizeof(T)` \
          bytes and CUB's shuffle variant needs `items` equal to the warp size). `items` \
          points to the lane's values and is rewritten in place. Uniform control flow, every \
          lane active."
    };
}

/// Every subgroup exchange.
pub(super) const PRIMITIVES: &[Primitive] = &[
    Primitive {
        name: "blocked_to_striped",
        template_macro: "blocked_to_striped",
        doc: concat!(
            "Rearranges the subgroup's `S * items` values from the blocked arrangement (lane \
             l holds indices `l * items + k`, k < items) to the striped one (lane l then \
             holds `k * S + l`): CUB `WarpExchange::BlockedToStriped`.",
            by_shuffles!()
        ),
        ..EXCHANGE
    },
    Primitive {
        name: "striped_to_blocked",
        template_macro: "striped_to_blocked",
        doc: concat!(
            "Rearranges the subgroup's values from the striped arrangement (lane l holds \
             indices `k * S + l`) to the blocked one (lane l then holds `l * items + k`): CUB \
             `WarpExchange::StripedToBlocked`.",
            by_shuffles!()
        ),
        ..EXCHANGE
    },
    Primitive {
        name: "blocked_to_striped_tiled",
        template_macro: "blocked_to_striped",
        params: &[Param::Dtype, Param::Log2Size, ITEMS],
        doc: concat!(
            "Per aligned tile of `n = 2^L` lanes (CUB's logical warp of `LOGICAL_WARP_THREADS \
             = n`): `sg::blocked_to_striped` over the tile's `n * items` values, lane l of the \
             tile getting tile indices `k * n + l`. `L <= log2(min subgroup size)`.",
            by_shuffles!()
        ),
        ..EXCHANGE
    },
    Primitive {
        name: "striped_to_blocked_tiled",
        template_macro: "striped_to_blocked",
        params: &[Param::Dtype, Param::Log2Size, ITEMS],
        doc: concat!(
            "Per aligned tile of `n = 2^L` lanes: `sg::striped_to_blocked` over the tile's \
             values, lane l of the tile getting tile indices `l * items + k`. `L <= log2(min \
             subgroup size)`.",
            by_shuffles!()
        ),
        ..EXCHANGE
    },
];
