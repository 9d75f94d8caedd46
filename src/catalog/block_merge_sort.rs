//! Workgroup merge sort (CUB's BlockMergeSort): the workgroup's `B * items`
//! keys (and values) sorted stably by the caller's comparator, an in-thread
//! sort followed by `log2(B)` merge rounds through workgroup memory with
//! merge-path partitioning.

use super::block_exchange::{ITEMS, exchange_shared_bytes, fits_shared_memory};
use super::{
    ANY_DTYPE, Arg, CheckArgs, Cost, Family, Formula, Namespace, Param, Placement, Primitive, Ret,
};
use crate::target::{Lowering, Target};

/// Workgroup memory of a block merge sort over `b` threads with `items`
/// keys of `key_bytes` (and values of `value_bytes`, 0 for keys alone) per
/// thread: the block exchange tile of the keys' dtype, and a tile of the
/// values.
pub fn merge_sort_shared_bytes(b: u32, items: u32, key_bytes: u32, value_bytes: u32) -> u32 {
    exchange_shared_bytes(b, items, key_bytes) + exchange_shared_bytes(b, items, value_bytes)
}

/// `B` a power of two (the merge rounds pair runs of `2^r` threads) and the
/// workgroup memory within 16 KiB.
fn check_merge_sort(args: &CheckArgs<'_>, _target: &Target) -> Result<(), String> {
    let b = args.block_dim.expect("merge sorts take B");
    let items = args.constant("items");
    let key = args.dtype.expect("merge sorts take T");
    if !b.is_power_of_two() {
        return Err(format!(
            "block_dim {b} must be a power of two (each merge round pairs runs of 2^r threads)"
        ));
    }
    let value_bytes = args.value_dtype.map_or(0, |v| v.size());
    fits_shared_memory(
        &format!("a merge sort over block_dim {b} with {items} items per thread"),
        merge_sort_shared_bytes(b, items, key.size(), value_bytes),
    )
}

const SORT: Primitive = Primitive {
    name: "merge_sort_keys",
    namespace: Namespace::Block,
    family: Family::BlockMergeSort,
    template_macro: "merge_sort",
    params: &[Param::Dtype, Param::BlockDim, ITEMS, Param::Function],
    dtypes: ANY_DTYPE,
    args: &[Arg::Keys, Arg::ValidItems, Arg::OobDefault],
    ret: Ret::Nothing,
    placement: Placement::PerLane,
    cost: Cost {
        builtin: Formula::Zero,
        shuffle: None,
        note: "an in-thread odd-even sort (items(items-1)/2 calls of F), then per merge round \
               (log2(B) rounds) 2 workgroup barriers, `items` writes per array sorted, a \
               merge-path search of at most log2(items * B) + 1 calls of F and `items` reads \
               per array sorted",
    },
    lowerings: &[Lowering::Builtin],
    operator: None,
    check: Some(check_merge_sort),
    shared_memory: Some(
        "B * items * sizeof(T) bytes, the block exchange tile of T (shared with the exchanges \
         of the same T, B and items), plus B * items * sizeof(V) for the values of pairs (a \
         tile of their own); at most 16 KiB (checked at expansion)",
    ),
    needs: None,
    doc: "Sorts the workgroup's `B * items` keys stably by the user function `F: fn(a: T, b: \
          T) -> bool`, true where `a` goes before `b` (CUB `BlockMergeSort::Sort(keys, \
          compare_op, valid_items, oob_default)`, which is stable here as `StableSort` is). \
          `keys` holds the thread's keys in the blocked arrangement (thread t holds tile \
          indices `t * items + k`) and is rewritten with the sorted tile, blocked. Only the \
          first `valid_items` keys of the tile take part (`valid_items` the same in every \
          thread; `B * items` or more sorts the whole tile); the tile indices from \
          `valid_items` on come back holding `oob_default`. Keys that neither precedes keep \
          their tile order. `F` must be a strict weak order (irreflexive, transitive, \
          incomparability transitive) and a pure function; float keys with `<` must be \
          NaN-free. Each thread sorts its own keys (odd-even transposition), then `log2(B)` \
          rounds merge pairs of sorted runs of `2^r` threads through workgroup memory, each \
          thread finding where its `items` outputs start by a merge-path binary search and \
          merging them serially. Contract, checked at expansion: B a power of two, workgroup \
          memory within 16 KiB. Uniform control flow, every thread.",
};

/// Every block merge sort.
pub(super) const PRIMITIVES: &[Primitive] = &[
    SORT,
    Primitive {
        name: "merge_sort_pairs",
        params: &[
            Param::Dtype,
            Param::ValueDtype,
            Param::BlockDim,
            ITEMS,
            Param::Function,
        ],
        args: &[Arg::Keys, Arg::Values, Arg::ValidItems, Arg::OobDefault],
        doc: "As `block::merge_sort_keys`, carrying `values` (dtype V, the thread's values in \
              the blocked arrangement) with their keys: each value ends where its key does \
              (CUB `BlockMergeSort::Sort` with items). Values at tile indices from \
              `valid_items` on stay where they are. Stable: values of keys that neither \
              precedes keep their tile order.",
        ..SORT
    },
];
