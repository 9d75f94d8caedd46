//! [`AdjacentDifference`]: the difference of each u32, i32 or f32 element
//! and its left or right neighbour, by subtraction or a caller's WGSL
//! operator, into another slice or in place
//! (`shaders/adjacent_difference.wgsl`), as CUB's
//! `DeviceAdjacentDifference`.

use super::context::{Context, Op, Pipeline, TempLayout, record};
use super::shader::Shader;
use super::shaders::writable;
use super::slice::{Slice, disjoint};
use super::user_fn::{self, Signature};
use crate::backend::{Device, Queue};
use crate::dtype::Dtype;
use crate::error::Error;

const NAME: &str = "wavekit::device::AdjacentDifference";
/// Threads per workgroup.
const BLOCK: u32 = 256;

/// Which neighbour each element is combined with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Subtract {
    /// `output[i] = difference(input[i], input[i - 1])`, `output[0] =
    /// input[0]` (CUB's `SubtractLeft` / `SubtractLeftCopy`).
    Left,
    /// `output[i] = difference(input[i], input[i + 1])`, `output[n - 1] =
    /// input[n - 1]` (CUB's `SubtractRight` / `SubtractRightCopy`).
    Right,
}

/// Device-wide adjacent differences, built once per device, element type,
/// side and operator.
///
/// - **Operator**: `a - b` (wrapping for integers, IEEE for f32, CUB's
///   default `cuda::std::minus`), or the WGSL text of `fn difference(a: T,
///   b: T) -> T` (`T` the element type, also spelled out), called as
///   `difference(x, neighbour)`: a pure function that may bring helper
///   functions and module-scope constants, imports nothing and calls no
///   subgroup or barrier operation. It is composed on its own first: a
///   malformed one is an error at its own line and column.
/// - **Dtypes**: u32, i32, f32.
/// - **Copy** ([`AdjacentDifference::record`], CUB's `SubtractLeftCopy` /
///   `SubtractRightCopy`): input and output `n` elements each, which may
///   share a buffer where their bytes do not overlap (every binding is
///   read-write); no temp (CUB's takes one it does not need).
/// - **In place** ([`AdjacentDifference::record_in_place`], CUB's
///   `SubtractLeft` / `SubtractRight`): the `n` elements of one slice
///   overwritten with their differences; temp at least
///   [`AdjacentDifference::temp_storage_bytes`] bytes (`STORAGE`), 4 per
///   tile, in another buffer or bytes of the same that do not overlap.
/// - **Algorithm**: tiles of 1024 elements on CUDA and through wgpu (256
///   threads × `ITEMS` = 4, a shader parameter), 2048 on HIP (× 8), one
///   workgroup each, coalesced. Copy reads and
///   writes each thread's elements as vec4s (lane-striped quads of 4), all
///   read before any is written, and takes each quad's outer neighbour from
///   the lane beside it (a subgroup shuffle); a subgroup's first lane
///   (right: last) reads it from the input. Below 4 elements one thread
///   does the call. In place, one dispatch
///   first saves the neighbour each tile needs from the next tile (or the
///   one before) into temp; then every workgroup reads its tile into
///   registers, waits at a barrier for all its threads' reads and writes,
///   so no workgroup reads what another writes.
/// - **Cost of a call**: copy 1 dispatch, 1 read and 1 write per element
///   (plus a read per subgroup row); in place 2 dispatches, 2 reads (the
///   second from cache) and 1 write per element; 1 dispatch of one thread
///   below 4 elements.
pub struct AdjacentDifference {
    ctx: Context,
    side: Subtract,
    dtype: Dtype,
    copy: Pipeline,
    save_edges: Pipeline,
    in_place: Pipeline,
    /// `adjacent_difference_few.wgsl`'s, for 1 to 3 elements (the main
    /// kernels' vec4 views need 16 bytes), copied or in place.
    few: Pipeline,
    /// Elements per workgroup: 256 threads × the shader's `ITEMS`.
    tile: u32,
}

impl AdjacentDifference {
    /// The differences of `dtype` elements (u32, i32 or f32) with their
    /// `side` neighbour by `operator` (the text of `fn difference(a: T, b:
    /// T) -> T`; `None`: subtraction) on `device` (created with
    /// [`Target::wgpu_features`](crate::Target::wgpu_features) on wgpu).
    /// Checks the operator, composes and compiles the pipelines (once).
    pub fn new<'d>(
        device: impl Into<Device<'d>>,
        dtype: Dtype,
        side: Subtract,
        operator: Option<&str>,
    ) -> Result<Self, Error> {
        let element = user_fn::element(NAME, dtype, &[Dtype::U32, Dtype::I32, Dtype::F32])?;
        let ctx = Context::new(device.into())?;
        if let Some(text) = operator {
            let signature = Signature {
                algorithm: NAME,
                name: "difference",
                parameters: &["a", "b"],
                returns: "T",
            };
            user_fn::check(&ctx, &signature, text, element, None)?;
        }
        let shader = |file| -> Result<Shader, Error> {
            let shader = Shader::new(file)?
                .map(|text| Ok(writable(text)))?
                .set("T", element)
                .set("RIGHT", side == Subtract::Right);
            Ok(match operator {
                Some(text) => shader.function("difference", text),
                None => shader,
            })
        };
        // 4 a thread (one quad) on CUDA and through wgpu: an H200 took
        // 128.1 / 128.4 us at 2^26 against 132.1 / 132.5 at 8 through CUDA
        // (CUB 129.9), 1-4 % less from 2^22, and 1-5 % less through Vulkan
        // at every size (docs/benchmarks/2026-11-29m-h200-tile-shapes).
        // HIP, unmeasured, keeps the shader's 8.
        let mut main = shader("adjacent_difference.wgsl")?;
        if !ctx.is_native() || ctx.target.is_native_cuda() {
            main = main.set("ITEMS", "4u");
        }
        let [items] = main.u32_values_in(NAME, [("ITEMS", 1..=32, "elements per thread")])?;
        let [copy, save_edges, in_place] = ctx.pipelines(
            &ctx.compose(&main)?,
            ["subtract_copy", "save_edges", "subtract_in_place"],
        )?;
        let few_shader = shader("adjacent_difference_few.wgsl")?;
        let [few] = ctx.pipelines(&ctx.compose(&few_shader)?, ["subtract_few"])?;
        Ok(AdjacentDifference {
            ctx,
            side,
            dtype,
            copy,
            save_edges,
            in_place,
            few,
            tile: BLOCK * items,
        })
    }

    /// The neighbour each element is combined with.
    pub fn side(&self) -> Subtract {
        self.side
    }

    /// The element type.
    pub fn dtype(&self) -> Dtype {
        self.dtype
    }

    fn tiles(&self, n: u32) -> u32 {
        n.div_ceil(self.tile)
    }

    /// Temp bytes an in-place call on `n` elements needs: one element per
    /// tile (of 2048 by default), plus alignment. (A copy needs none.)
    pub fn temp_storage_bytes(&self, n: u32) -> u64 {
        let mut layout = TempLayout::new(&self.ctx.limits);
        layout.place(4 * u64::from(self.tiles(n)));
        layout.bytes()
    }

    /// Records the differences of the `n` elements at `input` into the `n`
    /// at `output` (CUB's `SubtractLeftCopy` / `SubtractRightCopy`). Checks
    /// both slices first (an error names the slice and the numbers, and
    /// nothing is recorded).
    pub fn record<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        input: Slice<'_>,
        output: Slice<'_>,
        n: u32,
    ) -> Result<(), Error> {
        let limits = &self.ctx.limits;
        let bytes = 4 * u64::from(n);
        let input = limits.check(NAME, "input", input, bytes)?;
        let output = limits.check(NAME, "output", output, bytes)?;
        disjoint(NAME, &[("input", input), ("output", output)])?;
        let ops = match n {
            0 => Vec::new(),
            1..4 => vec![Op::Dispatch(&self.few, vec![input, output], [1, 1, 1])],
            _ => {
                let quads = 16 * u64::from(n / 4);
                let bindings = vec![
                    input,
                    output,
                    output,
                    input.sub(0, quads),
                    output.sub(0, quads),
                ];
                vec![Op::Dispatch(
                    &self.copy,
                    bindings,
                    self.ctx.grid(self.tiles(n)),
                )]
            }
        };
        record(&self.ctx, queue.into(), &ops)
    }

    /// Records the differences of the `n` elements at `data` over them
    /// (CUB's `SubtractLeft` / `SubtractRight`), with scratch at `temp`.
    /// Checks both slices first (an error names the slice and the numbers,
    /// and nothing is recorded).
    pub fn record_in_place<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        data: Slice<'_>,
        n: u32,
        temp: Slice<'_>,
    ) -> Result<(), Error> {
        let limits = &self.ctx.limits;
        let data = limits.check(NAME, "data", data, 4 * u64::from(n))?;
        let temp = limits.check(NAME, "temp", temp, self.temp_storage_bytes(n))?;
        disjoint(NAME, &[("data", data), ("temp", temp)])?;
        let tiles = self.tiles(n);
        let ops = if n == 0 {
            Vec::new()
        } else if n < 4 {
            vec![Op::Dispatch(&self.few, vec![data, data], [1, 1, 1])]
        } else {
            let edges = temp.sub(0, 4 * u64::from(tiles));
            let quads = data.sub(0, 16 * u64::from(n / 4));
            let bindings = vec![data, data, edges, quads, quads];
            vec![
                Op::Dispatch(
                    &self.save_edges,
                    bindings.clone(),
                    self.ctx.grid(tiles.div_ceil(BLOCK)),
                ),
                Op::Dispatch(&self.in_place, bindings, self.ctx.grid(tiles)),
            ]
        };
        record(&self.ctx, queue.into(), &ops)
    }
}
