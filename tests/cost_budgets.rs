//! Each catalog row's cost formula (what `wavekit list` prints) against the
//! SASS budget rows (`tests/data/sass_budgets.tsv`, counted by
//! `tests/native_sass.rs` from `nvdisasm` without a GPU).
//!
//! **Consistent** means: for every budget row under the `shuffle` lowering
//! whose op's shuffle formula (or only formula) is not zero, the row's
//! exchange instructions, `SHFL + VOTE + MATCH` (the formula counts
//! shuffles, ballots and votes; a ballot is one `VOTE`), equal the formula
//! evaluated at the row's instantiation:
//! `L` its `log2_size`, or 5 for a full-subgroup op (CUDA's 32 lanes),
//! `items` its `items` constant, twice that for a 64-bit `T` (two 32-bit
//! shuffles). The budget counts SASS instructions in the code, the formula
//! shuffles a call issues; they agree because the native lowering unrolls
//! every loop bounded by a constant (`native/src/lower/loops.rs`), and at
//! a fixed 32 lanes every loop of the shuffle lowerings is.
//!
//! Not checked, and why:
//! - rows under the `builtin` lowering: the formula counts WGSL subgroup
//!   builtins, and one builtin is not one SASS instruction (`subgroupAdd`
//!   on f32 is 5 `SHFL` + 5 `FADD`, a ballot one `VOTE`, a u32 reduction
//!   one `REDUX`);
//! - formulas that count a data-dependent loop ([`Formula::PerDistinct`],
//!   `match_any`'s shuffle lowering: the worst case of its rounds), whose
//!   body the code holds once;
//! - rows whose formula is zero (lane identification, lane masks, the
//!   block exchanges, loads, shuffles, discontinuities and sorts, whose
//!   cost is in barriers and workgroup memory, the note, and whose
//!   shuffles, where any, are those of the subgroup ops they call, which
//!   have rows of their own): nothing to compare. The block reductions and
//!   scans, whose formula is their subgroup stage's, are checked.
//!
//! It found the block exclusive scans' shuffle formula one short (`L` for
//! the subgroup exclusive scan's `L + 1`).

use wavekit::catalog::Formula;
use wavekit::{Backend, Dtype, InstanceSpec, Library, SubgroupSize, Target};

/// `(instance, lowering, SHFL + VOTE + MATCH)` of each SASS budget row.
fn shuffle_rows() -> Vec<(String, String, u32)> {
    let table = include_str!("data/sass_budgets.tsv");
    table
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            let shfl = cells[3]
                .split_whitespace()
                .filter_map(|c| c.split_once('='))
                .filter(|(name, _)| matches!(*name, "SHFL" | "VOTE" | "MATCH"))
                .map(|(_, n)| n.parse::<u32>().expect("a count"))
                .sum();
            (cells[1].to_string(), cells[2].to_string(), shfl)
        })
        .collect()
}

#[test]
fn shuffle_formulas_match_the_sass_budgets() {
    let library = Library::new(Target::new(
        Backend::Cuda,
        SubgroupSize::fixed(32).expect("32 lanes"),
    ));
    let mut checked = Vec::new();
    let mut wrong = Vec::new();
    for (text, lowering, shfl) in shuffle_rows() {
        if lowering != "shuffle" {
            continue;
        }
        let spec: InstanceSpec = text.parse().expect("a budget row names an instance");
        let instance = library.resolve(&spec).expect("a budget row resolves");
        let cost = instance.primitive.cost;
        let formula = cost.shuffle.unwrap_or(cost.builtin);
        if matches!(formula, Formula::Zero | Formula::PerDistinct) {
            continue;
        }
        let l = instance.log2_size.unwrap_or(5);
        let items = instance
            .constants
            .iter()
            .find(|(name, _)| *name == "items")
            .map_or(1, |(_, n)| *n);
        let wide = instance.dtype.map_or(1, |d: Dtype| d.bits() / 32).max(1);
        let expected = formula.eval_items(l, items) * wide;
        if shfl != expected {
            wrong.push(format!(
                "{text} [{lowering}]: {formula} at L = {l}, items = {items} is {expected}, \
                 the budget has {shfl} (SHFL + VOTE + MATCH)"
            ));
        }
        checked.push(text);
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    // Every family with a shuffle formula has rows: movement, votes,
    // reductions, scans, segmented scans, the bitonic and merge sorts.
    for op in [
        "all_true",
        "reduce_add_tiled",
        "inclusive_add",
        "bitonic_sort_kv",
        "merge_sort_pairs",
    ] {
        assert!(
            checked.iter().any(|c| c.starts_with(op)),
            "no {op} row was checked: {checked:#?}"
        );
    }
}
