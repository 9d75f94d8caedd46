//! Workgroup histograms (CUB's BlockHistogram): each thread's `items` bin
//! indices counted into a workgroup array of `bins` atomic counters that
//! the caller declares and names (`A`), by atomic adds or by sorting the
//! samples and counting runs.

use super::{
    Arg, CheckArgs, Cost, Family, Formula, Namespace, Param, Placement, Primitive, Ret,
    block_radix_sort::fits_radix_sort,
};
use crate::target::{Lowering, Target};

/// `items`, the samples per thread.
const HISTOGRAM_ITEMS: Param = Param::Const {
    name: "items",
    min: 1,
    max: 16,
    samples: &[1, 3],
};

/// `bins`, the number of counters.
const BINS: Param = Param::Const {
    name: "bins",
    min: 1,
    max: 4096,
    samples: &[5, 64],
};

/// The key bits the sort-based form sorts: enough for `bins` (the
/// out-of-range samples are clamped to `bins`).
pub fn histogram_sort_bits(bins: u32) -> u32 {
    32 - bins.leading_zeros()
}

/// The sort-based form: the block radix sort's contract (B a power of two
/// and a multiple of the subgroup size, its workgroup memory within 16 KiB).
fn check_histogram_sort(args: &CheckArgs<'_>, target: &Target) -> Result<(), String> {
    let b = args.block_dim.expect("histograms take B");
    let items = args.constant("items");
    if !b.is_power_of_two() || !b.is_multiple_of(target.subgroup_size.max()) {
        return Err(format!(
            "block_dim {b} must be a power of two and a multiple of the subgroup size {} (the \
             sort-based histogram sorts with block::radix_sort_keys)",
            target.subgroup_size
        ));
    }
    fits_radix_sort("a sort-based histogram", b, items, target)
}

const ATOMIC: Primitive = Primitive {
    name: "",
    namespace: Namespace::Block,
    family: Family::BlockHistogram,
    template_macro: "histogram_atomic",
    params: &[Param::BlockDim, HISTOGRAM_ITEMS, BINS, Param::Array],
    dtypes: &[],
    args: &[Arg::Samples],
    ret: Ret::Nothing,
    placement: Placement::Block,
    cost: Cost {
        builtin: Formula::Zero,
        shuffle: None,
        note: "`items` workgroup atomicAdds per thread, 2 workgroup barriers (1 without the \
               clearing)",
    },
    lowerings: &[Lowering::Builtin],
    operator: None,
    check: None,
    shared_memory: Some(
        "none of its own; the caller's `var<workgroup> A: array<atomic<u32>, bins>` (4 * bins \
         bytes)",
    ),
    needs: None,
    doc: "",
};

const SORTED: Primitive = Primitive {
    template_macro: "histogram_sort",
    cost: Cost {
        builtin: Formula::Zero,
        shuffle: None,
        note: "block::radix_sort_keys<u32, B, items> over ceil(log2(bins + 1)) bits, 2 \
               workgroup barriers, at most 2 workgroup atomics per run of equal samples",
    },
    check: Some(check_histogram_sort),
    shared_memory: Some(
        "block::radix_sort_keys<u32, B, items>'s (its tile holds the sorted samples), plus the \
         caller's `var<workgroup> A: array<atomic<u32>, bins>` (4 * bins bytes); at most 16 KiB \
         of its own (checked at expansion)",
    ),
    ..ATOMIC
};

/// Every block histogram.
pub(super) const PRIMITIVES: &[Primitive] = &[
    Primitive {
        name: "histogram_atomic",
        doc: "Counts the workgroup's `B * items` samples into `bins` counters (CUB \
              `BlockHistogram::Histogram` with `BLOCK_HISTO_ATOMIC`): `samples` points to the \
              thread's bin indices (u32; a sample `>= bins` is not counted) and `A` names the \
              caller's `var<workgroup> A: array<atomic<u32>, bins>`, which the call clears and \
              then fills with one workgroup atomicAdd per sample. Barriers before the clearing, \
              between clearing and counting and after the counting: the counts are readable \
              (atomicLoad) by every thread when the call returns. Uniform control flow, every \
              thread.",
        ..ATOMIC
    },
    Primitive {
        name: "histogram_composite_atomic",
        template_macro: "histogram_atomic",
        doc: "Adds the workgroup's samples to the counts already in `A` (CUB \
              `BlockHistogram::Composite`, atomic form): as `block::histogram_atomic` without \
              the clearing; `A` must have been cleared (or hold counts to add to) and be \
              visible to every thread (a barrier) before the call.",
        ..ATOMIC
    },
    Primitive {
        name: "histogram_sort",
        doc: "Counts the workgroup's samples into `A` as `block::histogram_atomic` does, by \
              sorting (CUB `BlockHistogram` with `BLOCK_HISTO_SORT`): a copy of the samples \
              (out-of-range ones clamped to `bins`) is sorted with \
              `block::radix_sort_keys<u32, B, items>` over `ceil(log2(bins + 1))` bits, the \
              sorted tile goes to workgroup memory, and the first and last sample of each run \
              of equal bins subtract and add their tile indices, so each bin gets its run's \
              length with at most 2 atomics. `samples` is left as it was. Contract, checked at \
              expansion: B a power of two and a multiple of the subgroup size, the sort's \
              workgroup memory within 16 KiB. Uniform control flow, every thread.",
        ..SORTED
    },
    Primitive {
        name: "histogram_composite_sort",
        template_macro: "histogram_sort",
        doc: "Adds the workgroup's samples to the counts already in `A` by sorting (CUB \
              `BlockHistogram::Composite`, sort form): as `block::histogram_sort` without the \
              clearing.",
        ..SORTED
    },
];
