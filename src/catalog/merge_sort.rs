//! The subgroup merge sort (CUB's WarpMergeSort): each lane's `items` keys
//! (and values) of a subgroup or `2^L`-lane tile sorted stably by the
//! caller's comparator, in registers: an in-lane sort, then `L` merge
//! rounds, each lane finding its outputs by a merge-path search over
//! shuffles.

use super::{ANY_DTYPE, Arg, Cost, Family, Formula, Namespace, Param, Placement, Primitive, Ret};
use crate::target::Lowering;

/// `items`, the keys per lane.
const MERGE_ITEMS: Param = Param::Const {
    name: "items",
    min: 1,
    max: 16,
    samples: &[1, 3],
};

const KEYS_COST: Cost = Cost {
    builtin: Formula::MergeKeys,
    shuffle: None,
    note: "n = items; per merge round r (L rounds): a lane-level merge-path search of r + 1 \
           steps of 2 shuffles, then 4n shuffles fetching the 4 lanes that hold the lane's \
           outputs and a serial merge in registers; an in-lane odd-even sort first (n(n-1)/2 \
           calls of F); 64-bit keys: two 32-bit shuffles each",
};

const KEYS: Primitive = Primitive {
    name: "merge_sort_keys",
    namespace: Namespace::Subgroup,
    family: Family::MergeSort,
    template_macro: "merge_sort",
    params: &[Param::Dtype, MERGE_ITEMS, Param::Function],
    dtypes: ANY_DTYPE,
    args: &[Arg::Keys, Arg::ValidItems, Arg::OobDefault],
    ret: Ret::Nothing,
    placement: Placement::PerLane,
    cost: KEYS_COST,
    lowerings: &[Lowering::Shuffle],
    operator: None,
    check: None,
    shared_memory: None,
    needs: None,
    doc: "Sorts the subgroup's `S * items` keys stably by the user function `F: fn(a: T, b: \
          T) -> bool`, true where `a` goes before `b` (CUB `WarpMergeSort::Sort(keys, \
          compare_op, valid_items, oob_default)`, stable here). `keys` holds the lane's keys \
          in the blocked arrangement (lane l holds indices `l * items + k`) and is rewritten \
          with the sorted keys, blocked. Only the first `valid_items` keys take part \
          (`valid_items` the same in every lane; `S * items` or more sorts them all); the \
          indices from `valid_items` on come back holding `oob_default`. Keys that neither \
          precedes keep their order. `F` must be a strict weak order and a pure function; \
          float keys with `<` must be NaN-free. In registers, no workgroup memory: each lane \
          sorts its keys (odd-even transposition), then log2(S) rounds merge pairs of sorted \
          runs of `2^r` lanes, each lane finding where its outputs start by a merge-path \
          search over shuffles and merging them from the 4 lanes that hold them. Uniform \
          control flow, all lanes active.",
};

const PAIRS: Primitive = Primitive {
    name: "merge_sort_pairs",
    params: &[
        Param::Dtype,
        Param::ValueDtype,
        MERGE_ITEMS,
        Param::Function,
    ],
    args: &[Arg::Keys, Arg::Values, Arg::ValidItems, Arg::OobDefault],
    cost: Cost {
        builtin: Formula::MergePairs,
        note: "as merge_sort_keys, and 4n more shuffles a round for the values",
        ..KEYS_COST
    },
    doc: "As `merge_sort_keys`, carrying `values` (dtype V, the lane's values in the blocked \
          arrangement) with their keys: each value ends where its key does (CUB \
          `WarpMergeSort::Sort` with items). Values at indices from `valid_items` on stay \
          where they are; values of keys that neither precedes keep their order.",
    ..KEYS
};

/// Every subgroup merge sort.
pub(super) const PRIMITIVES: &[Primitive] = &[
    KEYS,
    Primitive {
        name: "merge_sort_keys_tiled",
        params: &[Param::Dtype, Param::Log2Size, MERGE_ITEMS, Param::Function],
        doc: "Per aligned tile of `2^L` lanes (CUB's `WarpMergeSort` with \
              `LOGICAL_WARP_THREADS = 2^L`): `merge_sort_keys` of the tile's `2^L * items` \
              keys, `valid_items` the same in every lane of the tile (tiles may differ). `L <= \
              log2(min subgroup size)`.",
        ..KEYS
    },
    PAIRS,
    Primitive {
        name: "merge_sort_pairs_tiled",
        params: &[
            Param::Dtype,
            Param::ValueDtype,
            Param::Log2Size,
            MERGE_ITEMS,
            Param::Function,
        ],
        doc: "Per aligned tile of `2^L` lanes: `merge_sort_pairs` of the tile's keys and \
              values, `valid_items` the same in every lane of the tile. `L <= log2(min \
              subgroup size)`.",
        ..PAIRS
    },
];
