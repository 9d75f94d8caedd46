//! The one-workgroup path of [`RadixSort`](super::RadixSort): at most
//! [`Tile::CAPACITY`] 32-bit keys sorted in one dispatch
//! (`shaders/radix_tile.wgsl`), as CUB's single-tile sort.

use super::{PassBuffers, RadixSortOptions};
use crate::device::context::{Context, Op, Pipeline};
use crate::device::shader::Shader;
use crate::error::Error;

/// Threads of the workgroup.
const BLOCK: u32 = 256;
/// Keys a thread: the most whose block sort (`block::radix_sort_keys`)
/// fits the 16 KiB of workgroup memory every WebGPU device offers, at
/// every subgroup size.
const ITEMS: u32 = 5;

/// The sort's one pipeline, for keys or for pairs.
pub(super) struct Tile {
    sort: Pipeline,
}

impl Tile {
    /// The most keys it sorts: 1280.
    pub const CAPACITY: u32 = BLOCK * ITEMS;

    /// The path for `options`, or `None` where it does not apply: 64-bit
    /// keys, and sorts whose algorithm the caller chose (those keep it at
    /// every size, so what they run is what they asked for).
    pub fn new(ctx: &Context, options: &RadixSortOptions) -> Result<Option<Self>, Error> {
        if options.key.is_wide() || options.algorithm.is_some() {
            return Ok(None);
        }
        let shader = Shader::new("radix_tile.wgsl")?
            .set("KEY_ORDER", format!("{}u", options.key.order()))
            .set("BEGIN_BIT", format!("{}u", options.bits.start))
            .set("END_BIT", format!("{}u", options.bits.end))
            .set("BLOCK", format!("{BLOCK}u"))
            .set("ITEMS", format!("{ITEMS}u"));
        let module = ctx.compose(&shader)?;
        let entry = if options.pairs {
            "sort_pairs"
        } else {
            "sort_keys"
        };
        let [sort] = ctx.pipelines(&module, [entry])?;
        Ok(Some(Tile { sort }))
    }

    /// The one dispatch of a sort of `n` keys (`0 < n <= CAPACITY`) from
    /// `data`'s inputs into its outputs (`keys_out` exactly `n` keys: the
    /// shader reads `n` from its length).
    pub fn ops<'a>(&'a self, data: PassBuffers<'a>) -> Vec<Op<'a>> {
        vec![Op::Dispatch(
            &self.sort,
            vec![data.keys_in, data.keys_out, data.values_in, data.values_out],
            [1, 1, 1],
        )]
    }
}
