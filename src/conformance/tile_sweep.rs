//! Which instances of the block collectives over a tile (loads and stores,
//! exchanges, discontinuities, shuffles) the suite runs. Their code differs
//! between dtypes only in the element type, and between block sizes and
//! `items` only in constants, so a lean sweep covers it: every dtype at
//! the smallest block size with the most items; `u32` there with one item
//! too (the loops that do not run); `u32` and `f32` at 256 threads (many
//! subgroups). That also keeps each kernel's tiles in workgroup memory
//! within 16 KiB.

use crate::catalog::{Family, Param};
use crate::{Dtype, Instance, Target};

/// The block size of the sweep with many subgroups.
const LARGE_BLOCK: u32 = 256;

/// Whether the suite leaves `instance` out.
pub(super) fn skips(instance: &Instance, target: &Target) -> bool {
    if !matches!(
        instance.primitive.family,
        Family::BlockExchange
            | Family::BlockLoad
            | Family::BlockDiscontinuity
            | Family::BlockShuffle
    ) {
        return false;
    }
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
    let keep = match instance.block_dim {
        Some(b) if b == target.subgroup_size.max() => most || instance.dtype == Some(Dtype::U32),
        Some(LARGE_BLOCK) => most && matches!(instance.dtype, Some(Dtype::U32 | Dtype::F32)),
        _ => false,
    };
    !keep
}
