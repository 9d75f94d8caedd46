//! Workgroup radix sort (CUB's BlockRadixSort): the workgroup's `B * items`
//! keys (and values) sorted by a least-significant-digit radix sort of
//! `log2(B)`-bit digits over a bit range, each pass built on
//! `block::radix_rank_match_atomic_or` and the block exchanges.

use super::{
    Arg, CheckArgs, Cost, Family, Formula, Namespace, Param, Placement, Primitive, Ret,
    block_exchange::fits_shared_memory, radix_shared_bytes,
};
use crate::dtype::Dtype;
use crate::target::{Lowering, Target};

/// Key dtypes (and value dtypes of the pairs): the 32-bit ones, which the
/// sort carries as `u32` bits through one exchange tile.
const SORT_DTYPES: &[Dtype] = &[Dtype::U32, Dtype::I32, Dtype::F32];

/// `items`, the keys per thread.
const SORT_ITEMS: Param = Param::Const {
    name: "items",
    min: 1,
    max: 16,
    samples: &[1, 3],
};

/// Workgroup memory of a block radix sort over `b` threads with `items`
/// keys per thread: the radix ranking's (its scan included) and one tile of
/// `B * items` u32 words, which carries the keys, the values and each
/// pass's digit offsets in turn.
pub fn radix_sort_shared_bytes(b: u32, items: u32, min_size: u32, max_size: u32) -> u32 {
    radix_shared_bytes(b, min_size, max_size) + 4 * b * items
}

/// `B` a power of two and a multiple of the subgroup size (the digit is
/// `log2(B)` bits), and the workgroup memory within 16 KiB.
fn check_radix_sort(args: &CheckArgs<'_>, target: &Target) -> Result<(), String> {
    let b = args.block_dim.expect("radix sorts take B");
    let items = args.constant("items");
    if !b.is_power_of_two() || !(2..=1024).contains(&b) {
        return Err(format!(
            "block_dim {b} must be a power of two in 2..=1024 (the digit is log2(B) bits)"
        ));
    }
    let s = target.subgroup_size.max();
    if !b.is_multiple_of(s) {
        return Err(format!(
            "block_dim {b} is not a multiple of the subgroup size {}",
            target.subgroup_size
        ));
    }
    fits_radix_sort("a radix sort", b, items, target)
}

/// [`radix_sort_shared_bytes`] of `b` threads with `items` keys each on
/// `target` within 16 KiB; else an error naming `what` and both numbers.
pub(super) fn fits_radix_sort(
    what: &str,
    b: u32,
    items: u32,
    target: &Target,
) -> Result<(), String> {
    fits_shared_memory(
        &format!("{what} over block_dim {b} with {items} items per thread"),
        radix_sort_shared_bytes(
            b,
            items,
            target.subgroup_size.min(),
            target.subgroup_size.max(),
        ),
    )
}

const SORT: Primitive = Primitive {
    name: "",
    namespace: Namespace::Block,
    family: Family::BlockRadixSort,
    template_macro: "radix_sort",
    params: &[Param::Dtype, Param::BlockDim, SORT_ITEMS],
    dtypes: SORT_DTYPES,
    args: &[Arg::Keys, Arg::BeginBit, Arg::EndBit],
    ret: Ret::Nothing,
    placement: Placement::PerLane,
    cost: Cost {
        builtin: Formula::Zero,
        shuffle: None,
        note: "per pass of log2(B) bits: `items` radix rankings (each 6 workgroup barriers + the \
               block exclusive scan), 1 block exclusive scan, 2 barriers and 1 scatter (2 \
               barriers) per array sorted; 1 exchange per array before and (blocked result) \
               after the passes",
    },
    lowerings: &[Lowering::Builtin],
    operator: None,
    check: Some(check_radix_sort),
    shared_memory: Some(
        "the radix ranking's 4 * ((B / G) * B * (G / 32) + 2 * B + 2 * B / S) bytes, G = \
         max(32, S), plus 4 * B * items bytes (one u32 tile for keys, values and digit offsets): \
         14 KiB at B = 256, S = 32, items = 4; at most 16 KiB (checked at expansion)",
    ),
    needs: None,
    doc: "",
};

const PAIRS: Primitive = Primitive {
    params: &[Param::Dtype, Param::ValueDtype, Param::BlockDim, SORT_ITEMS],
    args: &[Arg::Keys, Arg::Values, Arg::BeginBit, Arg::EndBit],
    ..SORT
};

/// Every block radix sort.
pub(super) const PRIMITIVES: &[Primitive] = &[
    Primitive {
        name: "radix_sort_keys",
        doc: "Sorts the workgroup's `B * items` keys in ascending order (CUB \
              `BlockRadixSort::Sort`): `keys` holds the thread's keys in the blocked \
              arrangement (thread t holds tile indices `t * items + k`) and is rewritten with \
              the sorted tile in the blocked arrangement. Only bits `begin_bit .. end_bit` of \
              the ordered key take part (`0 <= begin_bit <= end_bit <= 32`, the same in every \
              thread); keys equal there keep their tile order (stable). u32 keys order as \
              unsigned integers, i32 as signed (the sign bit flipped), f32 by value (negative \
              keys' bits inverted): -0.0 and +0.0 are equal, NaNs sort by their bits beyond \
              the infinities. An LSD sort of log2(B)-bit digits: the keys go striped, then each \
              pass ranks the tile's `items` rows of B keys with \
              `block::radix_rank_match_atomic_or<B, log2(B), 0, log2(B)>`, adds each digit's \
              offset over the rows (a block exclusive scan) and scatters the keys through a \
              tile in workgroup memory. Contract, checked at expansion: B a power of two and a \
              multiple of the subgroup size, workgroup memory within 16 KiB. Uniform control \
              flow, every thread.",
        ..SORT
    },
    Primitive {
        name: "radix_sort_keys_descending",
        doc: "As `block::radix_sort_keys`, in descending order (CUB \
              `BlockRadixSort::SortDescending`): the bits of the ordered key are inverted, so \
              keys equal within the bit range still keep their tile order.",
        ..SORT
    },
    Primitive {
        name: "radix_sort_keys_blocked_to_striped",
        doc: "As `block::radix_sort_keys`, with the sorted tile left in the striped \
              arrangement: thread t holds sorted indices `k * B + t` (CUB \
              `BlockRadixSort::SortBlockedToStriped`), one exchange fewer.",
        ..SORT
    },
    Primitive {
        name: "radix_sort_keys_descending_blocked_to_striped",
        doc: "As `block::radix_sort_keys_descending`, with the result striped (CUB \
              `BlockRadixSort::SortDescendingBlockedToStriped`).",
        ..SORT
    },
    Primitive {
        name: "radix_sort_pairs",
        doc: "As `block::radix_sort_keys`, carrying `values` (dtype V, 32-bit, the thread's \
              values in the blocked arrangement) with their keys: each value ends where its key \
              does (CUB `BlockRadixSort::Sort` with values). The values travel as u32 bits \
              through the keys' tile.",
        ..PAIRS
    },
    Primitive {
        name: "radix_sort_pairs_descending",
        doc: "As `block::radix_sort_pairs`, in descending order (CUB \
              `BlockRadixSort::SortDescending` with values); stable.",
        ..PAIRS
    },
    Primitive {
        name: "radix_sort_pairs_blocked_to_striped",
        doc: "As `block::radix_sort_pairs`, keys and values left striped (CUB \
              `BlockRadixSort::SortBlockedToStriped` with values).",
        ..PAIRS
    },
    Primitive {
        name: "radix_sort_pairs_descending_blocked_to_striped",
        doc: "As `block::radix_sort_pairs_descending`, keys and values left striped (CUB \
              `BlockRadixSort::SortDescendingBlockedToStriped` with values).",
        ..PAIRS
    },
];
