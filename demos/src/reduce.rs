//! `reduce`: device-wide sum, min and max of f32 and u32
//! (`shaders/reduce.wgsl`): a block reduction per workgroup over a
//! grid-stride loop, then one workgroup over the partials. Through wgpu it
//! runs [`wavekit::device::Reduce`] (the same partial pass, the library's
//! final pass), so its timings are the library's; on CUDA and HIP its own
//! two steps.

use wavekit::Error;
use wavekit::device::Queue;
use wavekit::runner::{Buffer, Kernel, Step};

use crate::harness::{Ctx, Report, bytes_of, random_u32, words_of};
use crate::{Demo, Prepared, unknown_variant};

static SHADER: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    wavekit::device::shaders::source("reduce.wgsl").expect("a device shader")
});
const BLOCK: usize = 256;
/// Workgroups of the first pass: enough to fill an H100 (132 SMs × 8
/// resident blocks) and a few waves on smaller GPUs.
const MAX_PARTIALS: usize = 2048;

/// The `reduce` demo.
pub struct Reduce;

impl Demo for Reduce {
    fn name(&self) -> &'static str {
        "reduce"
    }

    fn variants(&self) -> &'static [&'static str] {
        &[
            "sum_f32", "min_f32", "max_f32", "sum_u32", "min_u32", "max_u32",
        ]
    }

    fn prepare<'c>(
        &self,
        ctx: &'c Ctx<'c>,
        variant: &str,
    ) -> Result<Box<dyn Prepared + 'c>, Error> {
        let (op, dtype) = variant
            .split_once('_')
            .filter(|_| self.variants().contains(&variant))
            .ok_or_else(|| unknown_variant(self, variant))?;
        let edit = format!("alias T = {dtype};");
        let module = ctx.compose(&SHADER, "reduce.wgsl", &[("alias T = f32;", &edit)])?;
        let entry = if op == "sum" { "add" } else { op };
        let [partial, last] = ctx.kernels(
            &module,
            [
                &format!("partial_{entry}") as &str,
                &format!("final_{entry}"),
            ],
        )?;
        // The library reduces (so the benchmark measures it) unless asked
        // not to, and on HIP.
        let library = match ctx.library_device() {
            Some(device) => Some(wavekit::device::Reduce::new(
                device,
                match op {
                    "sum" => wavekit::device::ReduceOp::Sum,
                    "min" => wavekit::device::ReduceOp::Min,
                    _ => wavekit::device::ReduceOp::Max,
                },
                if dtype == "f32" {
                    wavekit::device::ReduceType::F32
                } else {
                    wavekit::device::ReduceType::U32
                },
            )?),
            None => None,
        };
        Ok(Box::new(PreparedReduce {
            ctx,
            library,
            variant: variant.to_string(),
            op: match op {
                "sum" => Op::Sum,
                "min" => Op::Min,
                _ => Op::Max,
            },
            float: dtype == "f32",
            partial,
            last,
        }))
    }
}

#[derive(Clone, Copy)]
enum Op {
    Sum,
    Min,
    Max,
}

struct PreparedReduce<'c> {
    ctx: &'c Ctx<'c>,
    library: Option<wavekit::device::Reduce>,
    variant: String,
    op: Op,
    float: bool,
    partial: Kernel,
    last: Kernel,
}

impl PreparedReduce<'_> {
    fn program<'b>(
        &'b self,
        input: &'b Buffer,
        partials: &'b Buffer,
        result: &'b Buffer,
        groups: u32,
    ) -> [Step<'b>; 2] {
        [
            Step::dispatch(&self.partial, &[input, partials, result], [groups, 1, 1]),
            Step::dispatch(&self.last, &[input, partials, result], [1, 1, 1]),
        ]
    }

    /// Compares the GPU's `got` (bits of the result) with the CPU
    /// reference: exact for u32 (sums wrap) and for f32 min / max; f32 sums
    /// to a relative 1e-5 of the f64 sum (the values are in [0, 1), so there
    /// is no cancellation).
    fn check(&self, input: &[u32], got: u32) -> Result<(), Error> {
        let name = format!("reduce {}", self.variant);
        if self.float && matches!(self.op, Op::Sum) {
            let want: f64 = input.iter().map(|&b| f64::from(f32::from_bits(b))).sum();
            let got = f32::from_bits(got);
            if (f64::from(got) - want).abs() > 1e-5 * want.abs().max(1.0) {
                return Err(Error::Gpu(format!(
                    "{name}: got {got}, want {want} (within 1e-5)"
                )));
            }
            return Ok(());
        }
        let want = self.exact(input);
        if got != want {
            let (got, want) = if self.float {
                (
                    format!("{}", f32::from_bits(got)),
                    format!("{}", f32::from_bits(want)),
                )
            } else {
                (got.to_string(), want.to_string())
            };
            return Err(Error::Gpu(format!("{name}: got {got}, want {want}")));
        }
        Ok(())
    }

    /// The exact result's bits: every u32 op, and f32 min / max.
    fn exact(&self, input: &[u32]) -> u32 {
        if self.float {
            let values = input.iter().map(|&b| f32::from_bits(b));
            return match self.op {
                Op::Min => values.fold(f32::INFINITY, f32::min).to_bits(),
                _ => values.fold(f32::NEG_INFINITY, f32::max).to_bits(),
            };
        }
        let values = input.iter().copied();
        match self.op {
            Op::Sum => values.fold(0u32, u32::wrapping_add),
            Op::Min => values.min().unwrap_or(u32::MAX),
            Op::Max => values.max().unwrap_or(0),
        }
    }
}

impl Prepared for PreparedReduce<'_> {
    fn run(&self, n: usize, seed: u64) -> Result<Report, Error> {
        if n == 0 || !n.is_multiple_of(4) {
            return Err(Error::Usage(format!(
                "reduce needs a positive multiple of 4 elements, not {n}"
            )));
        }
        let input: Vec<u32> = if self.float {
            // Values in [0, 1) with 24 random bits: exact in f32.
            random_u32(n, 1 << 24, seed)
                .into_iter()
                .map(|x| (x as f32 / (1u32 << 24) as f32).to_bits())
                .collect()
        } else {
            random_u32(n, u32::MAX, seed)
        };
        let gpu = self.ctx.gpu;
        let groups = (n / 4).div_ceil(BLOCK).clamp(1, MAX_PARTIALS);
        let input_buffer = gpu.upload(bytes_of(&input))?;
        let partials = gpu.buffer(4 * groups as u64)?;
        let result = gpu.buffer(4)?;
        let timing = match &self.library {
            Some(library) => {
                let temp = gpu.buffer(library.temp_storage_bytes(n as u32))?;
                let record = |queue: Queue<'_>| {
                    library.record(
                        queue,
                        input_buffer.slice(),
                        result.slice(),
                        n as u32,
                        temp.slice(),
                    )
                };
                self.ctx.run(&[Step::Record(&record)])?
            }
            None => {
                self.ctx
                    .run(&self.program(&input_buffer, &partials, &result, groups as u32))?
            }
        };
        let got: Vec<u32> = words_of(&gpu.read(&result)?);
        self.check(&input, got[0])?;
        Ok(Report::new(
            "reduce",
            &self.variant,
            self.ctx,
            "block reduce per workgroup (grid-stride), then one workgroup over the partials",
            n,
            4 * n as u64,
            timing,
        ))
    }
}
