//! Workgroup shuffles (CUB's BlockShuffle): each thread's value from
//! another thread at a uniform offset or rotation, and the blocked tile
//! shifted up or down by one item, through the same workgroup array as the
//! block discontinuities.

use super::block_discontinuity::check_neighbours;
use super::block_exchange::ITEMS;
use super::{ANY_DTYPE, Arg, Cost, Family, Formula, Namespace, Param, Placement, Primitive, Ret};
use crate::target::Lowering;

const SHUFFLE: Primitive = Primitive {
    name: "",
    namespace: Namespace::Block,
    family: Family::BlockShuffle,
    template_macro: "",
    params: &[Param::Dtype, Param::BlockDim],
    dtypes: ANY_DTYPE,
    args: &[Arg::Value, Arg::Distance],
    ret: Ret::Value,
    placement: Placement::PerLane,
    cost: Cost {
        builtin: Formula::Zero,
        shuffle: None,
        note: "2 workgroup barriers; 1 write and 1 read of workgroup memory per thread",
    },
    lowerings: &[Lowering::Builtin],
    operator: None,
    check: Some(check_neighbours),
    shared_memory: Some(
        "2 * B * sizeof(T) bytes: the array of the block discontinuities of the same T and B, \
         which these share; at most 16 KiB (checked at expansion)",
    ),
    needs: None,
    doc: "",
};

const SHIFT: Primitive = Primitive {
    params: &[Param::Dtype, Param::BlockDim, ITEMS],
    args: &[Arg::Items],
    placement: Placement::Block,
    ..SHUFFLE
};

/// What every row says of the barriers.
macro_rules! barriers {
    () => {
        " Through workgroup memory between two barriers (the first lets back-to-back calls \
          reuse it): any `B`, uniform control flow, every thread."
    };
}

/// Every block shuffle.
pub(super) const PRIMITIVES: &[Primitive] = &[
    Primitive {
        name: "shuffle_offset",
        template_macro: "shuffle_offset",
        doc: concat!(
            "The `value` of thread `t + distance` (CUB `BlockShuffle::Offset`), or the \
             thread's own `value` where `t + distance` falls outside `0 .. B`. `distance` the \
             same in every thread.",
            barriers!()
        ),
        ..SHUFFLE
    },
    Primitive {
        name: "rotate",
        template_macro: "rotate",
        args: &[Arg::Value, Arg::Delta],
        doc: concat!(
            "The `value` of thread `(t + delta) % B` (CUB `BlockShuffle::Rotate`). `delta` \
             the same in every thread; any size, taken modulo B.",
            barriers!()
        ),
        ..SHUFFLE
    },
    Primitive {
        name: "up",
        template_macro: "up",
        doc: concat!(
            "Shifts the blocked tile (thread t holds tile indices `t * items + k`) up by one \
             item, in place (CUB `BlockShuffle::Up`): each item becomes the one before it in \
             the tile; thread 0's first item is left as it is. Returns, in every thread, the \
             tile's last item before the shift (CUB's `block_suffix`).",
            barriers!()
        ),
        ..SHIFT
    },
    Primitive {
        name: "down",
        template_macro: "down",
        doc: concat!(
            "Shifts the blocked tile down by one item, in place (CUB `BlockShuffle::Down`): \
             each item becomes the one after it in the tile; the last thread's last item is \
             left as it is. Returns, in every thread, the tile's first item before the shift \
             (CUB's `block_prefix`).",
            barriers!()
        ),
        ..SHIFT
    },
];
