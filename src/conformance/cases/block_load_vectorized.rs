//! Vectorized block loads and stores, checked like the direct blocked ones
//! (`block_load.rs`, whose model they share: the blocked arrangement) over
//! a workgroup array of `vec4<T>`: a full tile (every word whole) and a
//! partial one whose last word is partly valid.

use rand::Rng;

use super::Inputs;
use super::block_load::{TileArray, most_items, tile_case};
use crate::conformance::case::Case;
use crate::dtype::Dtype;
use crate::expand::Instance;

/// Where the workgroup's tile starts in the case's array: a multiple of 4,
/// as the contract asks, and not 0, so that the offset counts.
const OFFSET: u32 = 4;

/// The array of `vec4<dtype>` the suite's vectorized loads and stores over
/// `b` threads name.
pub(crate) fn vector_array_name(dtype: Dtype, b: u32) -> String {
    format!("wk_conf_vectors_{dtype}_{b}")
}

pub(super) fn cases(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    let dtype = instance.dtype.expect("vectorized loads take a dtype");
    let b = instance.block_dim.expect("vectorized loads take B");
    let n = instance.constant("items");
    let array = TileArray {
        name: vector_array_name(dtype, b),
        // The tile at OFFSET of every sampled `items`: whole words.
        len: OFFSET + b * most_items("block::load_vectorized"),
        offset: OFFSET,
        vectors: true,
    };
    // Partly valid: 1 to 3 items into a word of the tile's second half.
    let words = b * n / 4;
    let partial = 4 * inputs.rng().random_range(words / 2..words) + inputs.rng().random_range(1..4);
    vec![
        tile_case(instance, inputs, &array, b * n),
        tile_case(instance, inputs, &array, partial),
    ]
}
