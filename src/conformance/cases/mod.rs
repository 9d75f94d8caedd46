//! Case generators, one module per catalog family: seeded random inputs
//! biased toward the patterns each op's contract singles out, and the
//! reference model of each op.

mod ballot;
mod identification;
mod lanemask;
mod movement;
mod vote;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::catalog::Family;
use crate::expand::Instance;

use super::case::Case;
use super::value::Value;

/// What generators know of the dispatch they fill.
pub struct Inputs {
    rng: ChaCha8Rng,
    /// Invocations in the dispatch: each operand has this many values.
    pub invocations: u32,
    /// The smallest subgroup size the target may use: uniform lane indices,
    /// deltas and masks stay below it, so every case is valid at any size.
    pub min_size: u32,
}

impl Inputs {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64, invocations: u32, min_size: u32) -> Inputs {
        Inputs {
            rng: ChaCha8Rng::seed_from_u64(seed),
            invocations,
            min_size,
        }
    }

    /// The random source.
    pub fn rng(&mut self) -> &mut ChaCha8Rng {
        &mut self.rng
    }

    /// One value per invocation from `f`.
    pub fn per_invocation(
        &mut self,
        mut f: impl FnMut(&mut ChaCha8Rng, u32) -> Value,
    ) -> Vec<Value> {
        (0..self.invocations).map(|i| f(&mut self.rng, i)).collect()
    }

    /// One value per invocation, drawn tile by tile: `f` gets the tile's
    /// invocations count `tile` and returns its values. Tiles are aligned
    /// blocks of invocation indices, which is how every adapter seen so far
    /// lays subgroups out; the models never rely on it.
    pub fn per_tile(
        &mut self,
        tile: u32,
        mut f: impl FnMut(&mut ChaCha8Rng, u32) -> Vec<Value>,
    ) -> Vec<Value> {
        let mut values = Vec::with_capacity(self.invocations as usize);
        while values.len() < self.invocations as usize {
            values.extend(f(&mut self.rng, tile));
        }
        values.truncate(self.invocations as usize);
        values
    }

    /// Per-tile predicate patterns: all true, all false, a single lane off,
    /// a single lane on, or random, chosen tile by tile.
    pub fn tile_predicates(&mut self, tile: u32) -> Vec<Value> {
        self.per_tile(tile, |rng, n| {
            let odd_one = rng.random_range(0..n);
            let kind = rng.random_range(0..5);
            (0..n)
                .map(|i| {
                    Value::Bool(match kind {
                        0 => true,
                        1 => false,
                        2 => i != odd_one,
                        3 => i == odd_one,
                        _ => rng.random_bool(0.5),
                    })
                })
                .collect()
        })
    }
}

/// The cases of one instance.
pub fn cases(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    match instance.primitive.family {
        Family::Movement => movement::cases(instance, inputs),
        Family::Identification => identification::cases(instance, inputs),
        Family::Ballot => ballot::cases(instance, inputs),
        Family::Vote => vote::cases(instance, inputs),
        Family::LaneMask => lanemask::cases(instance, inputs),
        _ => Vec::new(),
    }
}

/// Expected results for every lane from a per-lane function.
pub fn per_lane(size: u32, f: impl Fn(u32) -> Option<Value>) -> Vec<Option<Value>> {
    (0..size).map(f).collect()
}
