//! [`Histogram`]: device-wide histogram of u32, i32 or f32 samples into
//! even bins over `[lower, upper)` or by a caller's WGSL bin function
//! (`shaders/histogram.wgsl`), as CUB's `DeviceHistogram::HistogramEven`.

use super::context::{Context, Op, Pipeline, record};
use super::shader::Shader;
use super::slice::{Slice, distinct};
use super::user_fn::{self, Signature};
use crate::backend::{Device, Queue};
use crate::dtype::Dtype;
use crate::error::Error;

const NAME: &str = "wavekit::device::Histogram";
/// Threads per workgroup.
const BLOCK: u64 = 256;
/// Workgroups at most: each folds a grid-stride share of the samples.
const MAX_GROUPS: u64 = 1024;
/// The most bins counted in workgroup memory first (8 KiB); more go
/// straight to the output with global atomics.
const MAX_SHARED_BINS: u32 = 2048;

/// Even bins over `[lower, upper)` of one sample type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EvenLevels {
    /// f32 samples: sample `x` in `[lower, upper)` goes to bin
    /// `min(⌊(x − lower) · scale⌋, bins − 1)`, `scale = bins / (upper −
    /// lower)` rounded to f32 (CUB's floating-point path); NaN is dropped.
    F32 {
        /// The first bin's lower edge.
        lower: f32,
        /// The last bin's upper edge (excluded).
        upper: f32,
    },
    /// u32 samples: `x` in `[lower, upper)` goes to bin
    /// `⌊(x − lower) · bins / (upper − lower)⌋`, exactly.
    U32 {
        /// The first bin's lower edge.
        lower: u32,
        /// The last bin's upper edge (excluded).
        upper: u32,
    },
    /// i32 samples, as u32's.
    I32 {
        /// The first bin's lower edge.
        lower: i32,
        /// The last bin's upper edge (excluded).
        upper: i32,
    },
}

impl EvenLevels {
    /// The element type.
    pub fn dtype(self) -> Dtype {
        match self {
            EvenLevels::F32 { .. } => Dtype::F32,
            EvenLevels::U32 { .. } => Dtype::U32,
            EvenLevels::I32 { .. } => Dtype::I32,
        }
    }

    /// The WGSL of `fn bin(x: T) -> u32` for `bins` even bins, or an error
    /// naming the levels when they describe no bins.
    fn bin_fn(self, bins: u32) -> Result<String, Error> {
        let empty = || {
            Err(Error::Usage(format!(
                "{NAME}: even levels {self:?} hold no samples: lower must be below upper"
            )))
        };
        match self {
            EvenLevels::F32 { lower, upper } => {
                let scale = bins as f32 / (upper - lower);
                let valid = lower < upper
                    && lower.is_finite()
                    && upper.is_finite()
                    && scale.is_finite()
                    && scale > 0.0;
                if !valid {
                    return Err(Error::Usage(format!(
                        "{NAME}: even levels {self:?}: lower and upper must be finite, lower \
                         below upper, and {bins} / (upper - lower) a finite f32, not {scale}"
                    )));
                }
                let f = |x: f32| format!("bitcast<f32>({:#x}u)", x.to_bits());
                Ok(format!(
                    "fn bin(x: f32) -> u32 {{\n    if !(x >= {lower} && x < {upper}) {{\n        \
                     return 0xffffffffu;\n    }}\n    return min(u32((x - {lower}) * {scale}), \
                     {last}u);\n}}\n",
                    lower = f(lower),
                    upper = f(upper),
                    scale = f(scale),
                    last = bins - 1,
                ))
            }
            EvenLevels::U32 { lower, upper } => {
                if lower >= upper {
                    return empty();
                }
                Ok(integer_bin_fn(
                    "u32",
                    &format!("{lower}u"),
                    &format!("{upper}u"),
                    "x - LOWER",
                    upper - lower,
                    bins,
                ))
            }
            EvenLevels::I32 { lower, upper } => {
                if lower >= upper {
                    return empty();
                }
                Ok(integer_bin_fn(
                    "i32",
                    &format!("i32({lower})"),
                    &format!("i32({upper})"),
                    "bitcast<u32>(x) - bitcast<u32>(LOWER)",
                    upper.wrapping_sub(lower) as u32,
                    bins,
                ))
            }
        }
    }
}

/// `fn bin` for integer samples: `⌊d · bins / range⌋` of the distance `d`
/// from `lower`, exactly: a division by the bin width where `range` is a
/// multiple of `bins`, else the largest `q < bins` with `q · range ≤ d ·
/// bins`, bit by bit on 64-bit products of 16-bit halves.
fn integer_bin_fn(
    ty: &str,
    lower: &str,
    upper: &str,
    distance: &str,
    range: u32,
    bins: u32,
) -> String {
    let header = format!(
        "const WK_HIST_LOWER = {lower};\nconst WK_HIST_UPPER = {upper};\n\
         fn bin(x: {ty}) -> u32 {{\n    if x < WK_HIST_LOWER || x >= WK_HIST_UPPER {{\n        \
         return 0xffffffffu;\n    }}\n    let d = {};\n",
        distance.replace("LOWER", "WK_HIST_LOWER")
    );
    if range.is_multiple_of(bins) {
        return format!("{header}    return d / {}u;\n}}\n", range / bins);
    }
    let top = 1u32 << (31 - (bins - 1).max(1).leading_zeros());
    format!(
        "{header}    let p = wk_hist_mul_wide(d, {bins}u);\n    var q = 0u;\n    \
         for (var bit = {top}u; bit != 0u; bit >>= 1u) {{\n        let c = q | bit;\n        \
         let m = wk_hist_mul_wide(c, {range}u);\n        \
         if c < {bins}u && (m.y < p.y || (m.y == p.y && m.x <= p.x)) {{\n            \
         q = c;\n        }}\n    }}\n    return q;\n}}\n\
         /// a * b as (low, high) words.\n\
         fn wk_hist_mul_wide(a: u32, b: u32) -> vec2<u32> {{\n    \
         let a0 = a & 0xffffu;\n    let a1 = a >> 16u;\n    let b0 = b & 0xffffu;\n    \
         let b1 = b >> 16u;\n    let p00 = a0 * b0;\n    let p01 = a0 * b1;\n    \
         let p10 = a1 * b0;\n    \
         let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);\n    \
         let low = (p00 & 0xffffu) | (mid << 16u);\n    \
         let high = a1 * b1 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u);\n    \
         return vec2<u32>(low, high);\n}}\n"
    )
}

/// A device-wide histogram: `bins` u32 counts of the samples by bin,
/// built once per device, sample type and binning.
///
/// - **Binning**: even bins over `[lower, upper)` ([`Histogram::even`],
///   CUB's `HistogramEven`; samples outside, and f32 NaN, are dropped), or
///   a caller's WGSL `fn bin(x: T) -> u32` ([`Histogram::with_bin_fn`]), a
///   pure function of the sample that may bring helper functions; a bin of
///   `bins` or more drops the sample.
/// - **Output**: overwritten, as CUB's: a call zeroes the `bins` counts
///   first, then counts (to accumulate over calls, add the results).
/// - **Placement**: samples `n` 4-byte elements; histogram `bins` u32 in
///   another buffer. No temp storage (CUB's takes some; this does not).
/// - **Algorithm**: `G = min(⌈n / 2048⌉, 1024)` workgroups of 256 threads
///   fold a grid-stride share of the samples into a workgroup-memory
///   histogram (up to 2048 bins; more count straight into the output),
///   where a subgroup whose lanes share one bin (`sg::all_equal`) adds them
///   with one atomic from an elected lane, then add their non-zero bins to
///   the output with global atomics.
/// - **Cost of a call**: 1 read of each sample, at most `bins` global
///   atomics per workgroup; 2 dispatches (1 for `n = 0`), 2 bind groups.
pub struct Histogram {
    ctx: Context,
    bins: u32,
    count: Pipeline,
}

impl Histogram {
    /// `bins` even bins over `levels`' `[lower, upper)` on `device`, which
    /// must have been created with
    /// [`Target::wgpu_features`](crate::Target::wgpu_features).
    pub fn even<'d>(
        device: impl Into<Device<'d>>,
        bins: u32,
        levels: EvenLevels,
    ) -> Result<Self, Error> {
        Self::check_bins(bins)?;
        let text = levels.bin_fn(bins)?;
        Self::build(device, levels.dtype(), bins, &text, false)
    }

    /// `bins` bins of `dtype` samples (u32, i32 or f32) by `bin_fn`, the
    /// WGSL text of `fn bin(x: T) -> u32`, on `device`. A malformed
    /// function is an error at its own line and column.
    pub fn with_bin_fn<'d>(
        device: impl Into<Device<'d>>,
        dtype: Dtype,
        bins: u32,
        bin_fn: &str,
    ) -> Result<Self, Error> {
        Self::check_bins(bins)?;
        Self::build(device, dtype, bins, bin_fn, true)
    }

    fn check_bins(bins: u32) -> Result<(), Error> {
        if bins == 0 || bins > 1 << 24 {
            return Err(Error::Usage(format!(
                "{NAME}: {bins} bins: take 1 to 2^24 (16777216)"
            )));
        }
        Ok(())
    }

    fn build<'d>(
        device: impl Into<Device<'d>>,
        dtype: Dtype,
        bins: u32,
        bin_fn: &str,
        check: bool,
    ) -> Result<Self, Error> {
        let element = user_fn::element(NAME, dtype, &[Dtype::U32, Dtype::I32, Dtype::F32])?;
        let ctx = Context::new(device.into())?.with_clears()?;
        if check {
            let signature = Signature {
                algorithm: NAME,
                name: "bin",
                parameters: &["x"],
                returns: "u32",
            };
            user_fn::check(&ctx, &signature, bin_fn, element, None)?;
        }
        let shared = bins <= MAX_SHARED_BINS;
        let module = ctx.compose(
            &Shader::new("histogram.wgsl")?
                .set("T", element)
                .set("BINS", format!("{bins}u"))
                .set("SHARED_BINS", format!("{}u", if shared { bins } else { 1 }))
                .function("bin", bin_fn),
        )?;
        let entry = if shared {
            "histogram"
        } else {
            "histogram_global"
        };
        let [count] = ctx.pipelines(&module, [entry])?;
        Ok(Histogram { ctx, bins, count })
    }

    /// The number of bins.
    pub fn bins(&self) -> u32 {
        self.bins
    }

    /// Records the histogram of the `n` samples at `samples` into the
    /// `bins` u32 at `histogram` (overwritten). Checks every slice first
    /// (an error names the slice and the numbers, and nothing is recorded).
    pub fn record<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        samples: Slice<'_>,
        histogram: Slice<'_>,
        n: u32,
    ) -> Result<(), Error> {
        distinct(NAME, ("samples", samples), ("histogram", histogram))?;
        let limits = &self.ctx.limits;
        let samples = limits.check(NAME, "samples", samples, 4 * u64::from(n))?;
        let histogram = limits.check(NAME, "histogram", histogram, 4 * u64::from(self.bins))?;
        let mut ops = vec![Op::Clear(histogram)];
        if n > 0 {
            let groups = u64::from(n).div_ceil(BLOCK * 8).clamp(1, MAX_GROUPS) as u32;
            ops.push(Op::Dispatch(
                &self.count,
                vec![samples, histogram],
                [groups, 1, 1],
            ));
        }
        record(&self.ctx, queue.into(), &ops)
    }
}
