//! Case generators, one module per catalog family: seeded random inputs
//! biased toward the patterns each op's contract singles out, and the
//! reference model of each op.

mod ballot;
mod block;
mod block_discontinuity;
mod block_exchange;
mod block_histogram;
mod block_load;
mod block_load_vectorized;
mod block_radix_sort;
mod block_shuffle;
mod exchange;
mod identification;
mod lanemask;
mod load;
mod merge_sort;
mod movement;
mod reduction;
mod scan;
mod segmented;
mod sort;
mod vote;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::catalog::{Family, Operator};
use crate::dtype::Dtype;
use crate::expand::Instance;

use super::arith::float_bits;
use super::case::Case;
use super::expected::Expected;
use super::value::{Value, float_of, min_normal, random_bits};

pub(crate) use block_discontinuity::function_names;
pub(crate) use block_histogram::histogram_array_name;
pub(crate) use block_load::array_name;
pub(crate) use block_load_vectorized::vector_array_name;
pub(crate) use load::subgroup_array_name;

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

/// A random operand for `op` on `dtype`: any bits for integers (they
/// wrap); for floats, values whose sums and products stay finite and normal
/// (`±100` for sums, `±[0.9, 1.1]` for products) and NaN-free normal values,
/// zeros and infinities for min / max.
pub fn arithmetic_value(op: Operator, dtype: Dtype, rng: &mut ChaCha8Rng) -> Value {
    if !dtype.is_float() {
        return random_bits(dtype, rng);
    }
    match op {
        Operator::Add => {
            let x = if rng.random_ratio(1, 8) {
                0.0
            } else {
                rng.random_range(-100.0..100.0)
            };
            Value::Bits(dtype, float_bits(dtype, x))
        }
        Operator::Mul => {
            let x: f64 = rng.random_range(0.9..1.1);
            let sign = if rng.random_bool(0.5) { -1.0 } else { 1.0 };
            Value::Bits(dtype, float_bits(dtype, sign * x))
        }
        _ => ordered_value(dtype, rng),
    }
}

/// A random value that orders without surprises: any integer; for floats
/// no NaN (unordered) and no subnormal (flushed to zero by some targets).
pub fn ordered_value(dtype: Dtype, rng: &mut ChaCha8Rng) -> Value {
    loop {
        let v = random_bits(dtype, rng);
        if !dtype.is_float() {
            return v;
        }
        let x = float_of(dtype, v.bits());
        if !x.is_nan() && (x == 0.0 || x.abs() >= min_normal(dtype)) {
            return v;
        }
    }
}

/// The lanes `base..base + tile` of each tile of a subgroup.
pub fn tiles(size: u32, log2_size: Option<u32>) -> impl Iterator<Item = std::ops::Range<u32>> {
    let tile = log2_size.map_or(size, |l| 1 << l);
    (0..size)
        .step_by(tile as usize)
        .map(move |base| base..base + tile)
}

/// The cases of one instance.
pub fn cases(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    match instance.primitive.family {
        Family::Movement => movement::cases(instance, inputs),
        Family::Identification => identification::cases(instance, inputs),
        Family::Ballot => ballot::cases(instance, inputs),
        Family::Vote => vote::cases(instance, inputs),
        Family::LaneMask => lanemask::cases(instance, inputs),
        Family::Reduction => reduction::cases(instance, inputs),
        Family::Scan => scan::cases(instance, inputs),
        Family::Segmented => segmented::cases(instance, inputs),
        Family::Sort => sort::cases(instance, inputs),
        Family::BlockSync | Family::BlockScan | Family::BlockRadix | Family::GridSync => {
            block::cases(instance, inputs)
        }
        Family::BlockExchange => block_exchange::cases(instance, inputs),
        Family::BlockLoad => block_load::cases(instance, inputs),
        Family::BlockLoadVectorized => block_load_vectorized::cases(instance, inputs),
        Family::BlockDiscontinuity => block_discontinuity::cases(instance, inputs),
        Family::BlockShuffle => block_shuffle::cases(instance, inputs),
        Family::BlockRadixSort => block_radix_sort::cases(instance, inputs),
        Family::BlockHistogram => block_histogram::cases(instance, inputs),
        Family::MergeSort | Family::BlockMergeSort => merge_sort::cases(instance, inputs),
        // The warp-transposed loads and stores leave memory and items as
        // the transposed ones do; the exchanges are exchanges.
        Family::BlockWarpExchange if instance.primitive.name.ends_with("_transpose") => {
            block_load::cases(instance, inputs)
        }
        Family::BlockWarpExchange => block_exchange::cases(instance, inputs),
        Family::Exchange => exchange::cases(instance, inputs),
        Family::Load => load::cases(instance, inputs),
    }
}

/// Expected results for every lane from a per-lane function.
pub fn per_lane<E: Into<Expected>>(
    size: u32,
    f: impl Fn(u32) -> Option<E>,
) -> Vec<Option<Expected>> {
    (0..size).map(|lane| f(lane).map(Into::into)).collect()
}
