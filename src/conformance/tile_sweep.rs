//! Which instances of the block collectives over a tile (loads and stores,
//! vectorized too, exchanges, discontinuities, shuffles) the suite runs.
//! Their code differs between dtypes only in the element type, and between
//! block sizes and `items` only in constants, so a lean sweep covers it:
//! every dtype at the smallest block size with the most items; `u32` there
//! with the fewest items too (one: the loops that do not run; four, for the
//! vectorized rows: one word); `u32` and `f32` at 256 threads (many
//! subgroups; `u32` alone for the vectorized rows). That also keeps each
//! kernel's tiles in workgroup memory within 16 KiB. The block radix sorts
//! get a lean sweep of their own ([`skips_radix_sort`]), the histograms
//! another ([`skips_histogram`]), the subgroup and block merge sorts a
//! third ([`skips_merge_sort`]), the subgroup loads, stores and exchanges a
//! fourth ([`skips_subgroup_tile`]), the radix rankings a fifth
//! ([`skips_radix_rank`]), the block reductions and scans a sixth
//! ([`skips_block_scan`]).

use crate::catalog::{Family, Param};
use crate::{Dtype, Instance, Target};

/// The block size of the sweep with many subgroups.
const LARGE_BLOCK: u32 = 256;

/// Whether the suite leaves `instance` out.
pub(super) fn skips(instance: &Instance, target: &Target) -> bool {
    if instance.primitive.name.starts_with("radix_sort_") {
        return skips_radix_sort(instance, target);
    }
    match instance.primitive.family {
        Family::BlockHistogram => skips_histogram(instance, target),
        Family::MergeSort | Family::BlockMergeSort => skips_merge_sort(instance, target),
        Family::BlockScan => skips_block_scan(instance, target),
        Family::BlockRadix => skips_radix_rank(instance),
        Family::Load | Family::Exchange => skips_subgroup_tile(instance, target),
        Family::BlockExchange
        | Family::BlockLoad
        | Family::BlockDiscontinuity
        | Family::BlockShuffle
        | Family::BlockWarpExchange
        | Family::BlockLoadVectorized => skips_block_tile(instance, target),
        _ => false,
    }
}

/// The lean sweep of the block layer's tiled rows (loads, stores,
/// exchanges, discontinuities, shuffles): at one subgroup (`B = S`) the
/// most `items` in every dtype and every `items` in `u32`; at 256 threads
/// the most `items` in `u32` and `f32` (`u32` alone for the vectorized
/// rows).
fn skips_block_tile(instance: &Instance, target: &Target) -> bool {
    let most_items = instance.primitive.params.iter().find_map(|p| match p {
        Param::Const {
            name: "items",
            samples,
            ..
        } => samples.iter().copied().max(),
        _ => None,
    });
    let items = most_items.map(|_| instance.constant("items"));
    let most = items == most_items;
    // The vectorized rows' arrays hold 8 items a thread: at 256 threads
    // one dtype's is 8 KiB, so u32 alone runs there.
    let large_dtype = if instance.primitive.family == Family::BlockLoadVectorized {
        matches!(instance.dtype, Some(Dtype::U32))
    } else {
        matches!(instance.dtype, Some(Dtype::U32 | Dtype::F32))
    };
    let keep = match instance.block_dim {
        Some(b) if b == target.subgroup_size.max() => most || instance.dtype == Some(Dtype::U32),
        Some(LARGE_BLOCK) => most && large_dtype,
        _ => false,
    };
    !keep
}

/// The lean sweep of the block reductions and scans, whose code differs
/// between dtypes only in the element type (the subgroup stage's shuffles
/// and the workgroup array of partials), while the block size sets how
/// many subgroups combine: `u32` and `f32` (and the ops without a dtype)
/// at every block size, the other dtypes at one subgroup (`B = S`) and at
/// 256 threads. That is 16 of a row's 28 instances at 8 lanes.
fn skips_block_scan(instance: &Instance, target: &Target) -> bool {
    let plain = instance
        .dtype
        .is_none_or(|d| matches!(d, Dtype::U32 | Dtype::F32));
    let ends = instance
        .block_dim
        .is_none_or(|b| b == target.subgroup_size.max() || b == LARGE_BLOCK);
    !(plain || ends)
}

/// The lean sweep of the radix rankings, whose digit window (`bit_start`,
/// `num_bits`) is a shift and a mask of constants, while the block size
/// (and with it `radix_bits`) shapes the ranking itself; each instance
/// took about 2 s to compile on lavapipe, a ninth of `make test`'s
/// conformance runs. At every block size: the low bits (`0`, 1 bit), a
/// window inside the key (`5`, 3 bits) and the top of the key (`24`, the
/// widest window the row takes: 8 bits, bits 24..32, at 256 threads), so
/// each `bit_start` and each `num_bits` sample runs at least once.
fn skips_radix_rank(instance: &Instance) -> bool {
    let bit_start = instance.constant("bit_start");
    let num_bits = instance.constant("num_bits");
    let top = if instance.constant("radix_bits") >= 8 {
        8
    } else {
        3
    };
    !matches!((bit_start, num_bits), (0, 1) | (5, 3)) && (bit_start, num_bits) != (24, top)
}

/// The lean sweep of the subgroup loads, stores and exchanges' tiled
/// forms, whose code differs between dtypes only in the element type (and
/// the two 32-bit shuffles of a 64-bit one), while the tile size and
/// `items` shape its index arithmetic and shuffles (a tile size only in
/// constants): `u32` at `L` = 0 and 1, every dtype at the widest tile
/// (`L = log2` of the smallest subgroup size), each with every `items`
/// sample. That is 18 of a tiled row's 56 instances at 8 lanes, 6 of 14
/// on `u32` at 64 emulated lanes; the untiled forms run whole.
fn skips_subgroup_tile(instance: &Instance, target: &Target) -> bool {
    let Some(l) = instance.log2_size else {
        return false;
    };
    let widest = l == target.subgroup_size.min().trailing_zeros();
    !(widest || (l <= 1 && instance.dtype == Some(Dtype::U32)))
}

/// The lean sweep of the block radix sorts, whose code differs between key
/// dtypes only in the key's bit twiddle, between value dtypes only in a
/// bitcast, and between rows in the twiddle's direction and the last
/// exchange; each call is a whole sort, slow to compile on lavapipe. At
/// `B = S` with 3 items: every key dtype of `radix_sort_keys`, `f32` keys
/// of `radix_sort_keys_descending` (the float twiddle reversed), `u32` keys
/// of the striped rows, `i32` keys with `f32` values of `radix_sort_pairs`
/// and `u32` pairs of the other pairs rows; `u32` keys at 256 threads with
/// 1 item of `radix_sort_keys`.
fn skips_radix_sort(instance: &Instance, target: &Target) -> bool {
    let name = instance.primitive.name;
    let items = instance.constant("items");
    let key = instance.dtype;
    let value = instance.value_dtype;
    let plain = key == Some(Dtype::U32) && value.is_none_or(|v| v == Dtype::U32);
    let keep = match instance.block_dim {
        Some(b) if b == target.subgroup_size.max() && items == 3 => match name {
            "radix_sort_keys" => true,
            "radix_sort_keys_descending" => key == Some(Dtype::F32),
            "radix_sort_pairs" => key == Some(Dtype::I32) && value == Some(Dtype::F32),
            _ => plain,
        },
        Some(LARGE_BLOCK) => name == "radix_sort_keys" && items == 1 && plain,
        _ => false,
    };
    !keep
}

/// The lean sweep of the histograms: the atomic forms at `B = S` with every
/// `items` and `bins` and at 256 threads with 3 items into 64 bins; the
/// sort-based forms (a whole sort per call, slow to compile) at `B = S`,
/// 3 items into 64 bins and, composite, 1 item into 5 bins.
fn skips_histogram(instance: &Instance, target: &Target) -> bool {
    let items = instance.constant("items");
    let bins = instance.constant("bins");
    let sort = instance.primitive.name.ends_with("_sort");
    let composite = instance.primitive.name.contains("composite");
    let keep = match instance.block_dim {
        Some(b) if b == target.subgroup_size.max() => {
            !sort
                || (!composite && items == 3 && bins == 64)
                || (composite && items == 1 && bins == 5)
        }
        Some(LARGE_BLOCK) => !sort && items == 3 && bins == 64,
        _ => false,
    };
    !keep
}

/// The lean sweep of the merge sorts, whose code differs between dtypes
/// only in the types (and the two 32-bit shuffles of a 64-bit one), and
/// between tile sizes, block sizes and `items` only in constants; each call
/// is a whole sort, slow to compile on lavapipe. With 3 items: every key
/// dtype of `merge_sort_keys`, `i32` keys with every value dtype and every
/// key dtype with `u32` values of `merge_sort_pairs`, at `B = S` for the
/// block sorts; `u32` keys with 1 item too (no in-lane sort, no fine
/// search). The tiled forms with
/// `u32` at `L` = 0 and 1 (keys; the merge rounds are a loop to `L`) or
/// `L` = 1 (pairs), every key dtype (with `u32` values) at the largest
/// `L`, `f32` keys with 1 item there too.
/// The block sorts also at 256 threads: `u32` and `f32` keys, `u32` pairs.
fn skips_merge_sort(instance: &Instance, target: &Target) -> bool {
    let name = instance.primitive.name;
    let items = instance.constant("items");
    let key = instance.dtype;
    let value = instance.value_dtype;
    let u32_pairs = key == Some(Dtype::U32) && value.is_none_or(|v| v == Dtype::U32);
    let pairs = value.is_some();
    let whole = match instance.block_dim {
        Some(b) if b == target.subgroup_size.max() => true,
        Some(LARGE_BLOCK) => {
            return !(items == 3 && (u32_pairs || (!pairs && key == Some(Dtype::F32))));
        }
        Some(_) => return true,
        None => instance.log2_size.is_none(),
    };
    let keep = if whole {
        match (pairs, items) {
            (false, 3) => true,
            (false, _) => key == Some(Dtype::U32),
            (true, 3) => value == Some(Dtype::U32) || key == Some(Dtype::I32),
            (true, _) => false,
        }
    } else {
        let l = instance.log2_size.expect("tiled");
        let widest = l == target.subgroup_size.min().trailing_zeros();
        match (name.starts_with("merge_sort_pairs"), items) {
            (false, 3) => (key == Some(Dtype::U32) && l <= 1) || widest,
            (false, _) => widest && key == Some(Dtype::F32),
            (true, 3) => (u32_pairs && l == 1) || (widest && value == Some(Dtype::U32)),
            (true, _) => false,
        }
    };
    !keep
}
