//! [`BinarySearch`]: the lower or upper bound of each of many u32, i32 or
//! f32 needles in a sorted haystack (`shaders/search.wgsl`), as CUB's
//! `DeviceFind::LowerBound` / `UpperBound`.

use super::context::{Context, Op, Pipeline, record};
use super::shader::Shader;
use super::slice::{Slice, distinct_each};
use super::user_fn;
use crate::backend::{Device, Queue};
use crate::dtype::Dtype;
use crate::error::Error;

const NAME: &str = "wavekit::device::BinarySearch";
/// Threads per workgroup of `search.wgsl` (its `BLOCK`).
const BLOCK: u32 = 256;

/// Which bound a [`BinarySearch`] finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The first index whose element is not less than the needle
    /// (`std::lower_bound`, CUB's `LowerBound`).
    Lower,
    /// The first index whose element is greater than the needle
    /// (`std::upper_bound`, CUB's `UpperBound`).
    Upper,
}

/// A batched binary search, built once per device, element type and
/// bound: for each needle, its lower or upper bound in a haystack sorted
/// ascending.
///
/// - **Dtypes**: u32, i32 or f32 haystack and needles (one type), ordered
///   by `<` (f32: `-0.0` equals `0.0`; with NaN in either the indices are
///   unspecified, as with CUB's `std::less`); u32 indices out, `m` for a
///   needle past every element (an empty haystack gives 0s).
/// - **Placement**: haystack `m` elements, needles `k`, output `k` u32;
///   no temp. Haystack and needles may share a buffer (both are bound
///   read-only); the output's buffer is neither.
/// - **Algorithm**: 4096 needles a workgroup of 256 threads (16 a
///   thread); the midpoints of the first 8 levels of the search (255
///   elements, the same for every needle) are loaded into workgroup memory
///   once a workgroup, then each needle's search reads
///   `ceil(log2(m + 1)) - 8` haystack elements: a thread's 16 searches one
///   after another on CUDA, in lockstep elsewhere (16 reads in flight; an
///   H100 through Vulkan measured lockstep 3-16 % faster from 2^22 needles,
///   through CUDA 12-15 % slower: docs/benchmarks/2026-11-27h-h100-by-key-merge-search).
/// - **Cost of a call**: 1 dispatch (a clear for `m = 0`, nothing for `k =
///   0`); 1 read of each needle, 1 write per needle.
pub struct BinarySearch {
    ctx: Context,
    bound: Bound,
    dtype: Dtype,
    search: Pipeline,
    /// Needles a workgroup searches (`BLOCK` threads × `ITEMS`).
    needles_per_group: u32,
}

impl BinarySearch {
    /// The search for `bound` among `dtype` elements (u32, i32 or f32) on
    /// `device` (created with [`Target::wgpu_features`](crate::Target::wgpu_features)
    /// on wgpu). Composes and compiles its pipeline (once).
    pub fn new<'d>(
        device: impl Into<Device<'d>>,
        dtype: Dtype,
        bound: Bound,
    ) -> Result<Self, Error> {
        let element = user_fn::element(NAME, dtype, &[Dtype::U32, Dtype::I32, Dtype::F32])?;
        // An empty haystack's output is a clear.
        let ctx = Context::new(device.into())?.with_clears()?;
        let cuda = ctx.target.is_native_cuda();
        let shader = Shader::new("search.wgsl")?
            .set("T", element)
            .set("UPPER", bound == Bound::Upper)
            .set("LOCKSTEP", !cuda);
        let [items] = shader.u32_values_in(NAME, [("ITEMS", 1..=32, "needles per thread")])?;
        let module = ctx.compose(&shader)?;
        let [search] = ctx.pipelines(&module, ["search"])?;
        Ok(BinarySearch {
            ctx,
            bound,
            dtype,
            search,
            needles_per_group: BLOCK * items,
        })
    }

    /// The bound.
    pub fn bound(&self) -> Bound {
        self.bound
    }

    /// The element type.
    pub fn dtype(&self) -> Dtype {
        self.dtype
    }

    /// Records the search of each of the `k` needles at `needles` in the
    /// `m` sorted elements at `haystack`, its index into `output` (`k`
    /// u32). Checks every slice first (an error names the slice and the
    /// numbers, and nothing is recorded).
    #[allow(clippy::too_many_arguments)]
    pub fn record<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        haystack: Slice<'_>,
        m: u32,
        needles: Slice<'_>,
        k: u32,
        output: Slice<'_>,
    ) -> Result<(), Error> {
        distinct_each(
            NAME,
            &[("haystack", haystack), ("needles", needles)],
            &[("output", output)],
        )?;
        let limits = &self.ctx.limits;
        let haystack = limits.check(NAME, "haystack", haystack, 4 * u64::from(m))?;
        let needles = limits.check(NAME, "needles", needles, 4 * u64::from(k))?;
        let output = limits.check(NAME, "output", output, 4 * u64::from(k))?;
        let ops = match (m, k) {
            (_, 0) => Vec::new(),
            (0, _) => vec![Op::Clear(output)],
            _ => vec![Op::Dispatch(
                &self.search,
                vec![haystack, needles, output],
                self.ctx.grid(k.div_ceil(self.needles_per_group)),
            )],
        };
        record(&self.ctx, queue.into(), &ops)
    }
}
