//! What a call costs: the number of subgroup exchanges ([`Formula`]) under
//! each lowering, with a note on the rest ([`Cost`]).

use std::fmt;

use crate::target::Lowering;

/// The number of subgroup data-exchange operations (shuffles, ballots, votes)
/// an instance issues, as a function of `L` (or of `log2(S)` for full-subgroup ops).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Formula {
    /// No exchange at all: pure ALU.
    Zero,
    /// Exactly one.
    One,
    /// Exactly two.
    Two,
    /// `L`.
    L,
    /// `L + 1`.
    LPlusOne,
    /// `L * (L + 1)` (a bitonic network: `L(L+1)/2` stages of 2).
    Bitonic,
    /// Three per distinct value among the lanes (a loop of rounds); `3 * 2^L`
    /// when every lane differs.
    PerDistinct,
    /// `L(L+1) + 4nL` with `n` = `items`: a merge sort of keys (`L` merge
    /// rounds, round `r` a search of `r + 1` steps of 2 shuffles and 4
    /// lanes of `n` keys fetched). [`Formula::eval`] counts `n = 1`,
    /// [`Formula::eval_items`] any `n`.
    MergeKeys,
    /// `L(L+1) + 8nL`: a merge sort of pairs (the values fetched too).
    MergePairs,
    /// `items * items`, whatever `L` (a register exchange of `items` values
    /// per lane), and 0 at one item (nothing moves); [`Formula::eval`]
    /// counts one item, [`Formula::eval_items`] any.
    ItemsSquared,
}

impl Formula {
    /// The count at `log2_size = l` (the worst case for
    /// [`Formula::PerDistinct`]).
    pub fn eval(self, l: u32) -> u32 {
        match self {
            Formula::Zero => 0,
            Formula::One => 1,
            Formula::Two => 2,
            Formula::L => l,
            Formula::LPlusOne => l + 1,
            Formula::Bitonic => l * (l + 1),
            Formula::PerDistinct => 3 << l,
            Formula::MergeKeys | Formula::MergePairs | Formula::ItemsSquared => {
                self.eval_items(l, 1)
            }
        }
    }

    /// The count at `log2_size = l` for ops over `items` values per lane:
    /// the merge sorts' and the register exchanges' depend on it, no other
    /// formula does.
    pub fn eval_items(self, l: u32, items: u32) -> u32 {
        match self {
            Formula::MergeKeys => l * (l + 1) + 4 * items * l,
            Formula::MergePairs => l * (l + 1) + 8 * items * l,
            // One item moves nothing.
            Formula::ItemsSquared if items == 1 => 0,
            Formula::ItemsSquared => items * items,
            other => other.eval(l),
        }
    }
}

impl fmt::Display for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Formula::Zero => "0",
            Formula::One => "1",
            Formula::Two => "2",
            Formula::L => "L",
            Formula::LPlusOne => "L+1",
            Formula::Bitonic => "L(L+1)",
            Formula::PerDistinct => "3D",
            Formula::MergeKeys => "L(L+1)+4nL",
            Formula::MergePairs => "L(L+1)+8nL",
            Formula::ItemsSquared => "items^2",
        })
    }
}

/// Cost of one call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Cost {
    /// Subgroup exchanges with the `builtin` lowering (or the only lowering).
    pub builtin: Formula,
    /// Subgroup exchanges with the `shuffle` lowering, where it exists.
    pub shuffle: Option<Formula>,
    /// What else it costs, in words.
    pub note: &'static str,
}

impl Cost {
    /// Exchanges issued under `lowering` at `log2_size = l`.
    pub fn exchanges(&self, lowering: Lowering, l: u32) -> u32 {
        match (lowering, self.shuffle) {
            (Lowering::Shuffle, Some(f)) => f.eval(l),
            _ => self.builtin.eval(l),
        }
    }
}

impl fmt::Display for Cost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.shuffle {
            Some(s) => write!(f, "builtin {} / shuffle {}", self.builtin, s)?,
            None => write!(f, "{}", self.builtin)?,
        }
        if !self.note.is_empty() {
            write!(f, " ({})", self.note)?;
        }
        Ok(())
    }
}
