//! [`Histogram`]: device-wide histogram of u32, i32 or f32 samples into
//! even bins over `[lower, upper)` or by a caller's WGSL bin function
//! (`shaders/histogram.wgsl`), as CUB's `DeviceHistogram::HistogramEven`;
//! by levels (CUB's `HistogramRange`) and of up to 4 interleaved channels
//! ([`MultiHistogram`], CUB's `MultiHistogramEven` / `MultiHistogramRange`)
//! through `shaders/histogram_multi.wgsl`.

use super::context::{Context, Op, Pipeline, record};
use super::shader::Shader;
use super::slice::{Slice, distinct, distinct_each};
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
    /// Built by [`Histogram::range`]: called with levels.
    range: bool,
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
        Ok(Histogram {
            ctx,
            bins,
            count,
            range: false,
        })
    }

    /// `bins` bins of `dtype` samples (u32, i32 or f32) by `bins + 1`
    /// levels given at each call ([`Histogram::record_range`]; CUB's
    /// `HistogramRange`): sample `x` goes to bin `i` where `levels[i] <= x
    /// < levels[i + 1]`; samples below the first level or from the last on
    /// (and f32 NaN) are dropped. The levels must be non-decreasing (others
    /// give unspecified counts, never an access outside the slices).
    pub fn range<'d>(
        device: impl Into<Device<'d>>,
        dtype: Dtype,
        bins: u32,
    ) -> Result<Self, Error> {
        Self::check_bins(bins)?;
        let multi = Multi::build(device.into(), dtype, 1, &[bins], None)?;
        Ok(Histogram {
            ctx: multi.ctx,
            bins,
            count: multi.count,
            range: true,
        })
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
        if self.range {
            return Err(Error::Usage(format!(
                "{NAME}: built by levels (Histogram::range): call record_range with the {} levels",
                u64::from(self.bins) + 1
            )));
        }
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

impl Histogram {
    /// Records the histogram of the `n` samples at `samples` by the `bins +
    /// 1` levels (of the sample type) at `levels` into the `bins` u32 at
    /// `histogram` (overwritten), for a histogram built by
    /// [`Histogram::range`]. Checks every slice first.
    pub fn record_range<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        samples: Slice<'_>,
        levels: Slice<'_>,
        histogram: Slice<'_>,
        n: u32,
    ) -> Result<(), Error> {
        if !self.range {
            return Err(Error::Usage(format!(
                "{NAME}: built with even bins or a bin function: call record (no levels)"
            )));
        }
        record_multi(
            &self.ctx,
            queue.into(),
            &self.count,
            NAME,
            (1, 1),
            u64::from(self.bins),
            samples,
            Some(levels),
            histogram,
            n,
        )
    }
}

const MULTI: &str = "wavekit::device::MultiHistogram";
/// The most levels (of all channels) held in workgroup memory (4 KiB).
const MAX_SHARED_LEVELS: u32 = 1024;

/// What a multi-channel or range histogram is built into.
struct Multi {
    ctx: Context,
    count: Pipeline,
}

impl Multi {
    /// `histogram_multi.wgsl` for `channels` interleaved channels of
    /// `dtype`, the first `bins.len()` counted into `bins[c]` bins each: by
    /// the even levels `even` (one per active channel), or by levels at
    /// each call where `None`.
    fn build(
        device: Device<'_>,
        dtype: Dtype,
        channels: u32,
        bins: &[u32],
        even: Option<&[EvenLevels]>,
    ) -> Result<Self, Error> {
        let element = user_fn::element(MULTI, dtype, &[Dtype::U32, Dtype::I32, Dtype::F32])?;
        let active = bins.len() as u32;
        if !(1..=4).contains(&channels) || active == 0 || active > channels {
            return Err(Error::Usage(format!(
                "{MULTI}: {channels} channels with {active} counted: take 1 to 4 channels, \
                 1 to that many counted (one bin count each)"
            )));
        }
        let total: u64 = bins.iter().map(|&b| u64::from(b)).sum();
        if bins.contains(&0) || total > 1 << 24 {
            return Err(Error::Usage(format!(
                "{MULTI}: bins {bins:?} ({total} in all): each channel takes 1 or more, \
                 2^24 (16777216) in all at most"
            )));
        }
        let total = total as u32;
        let mut base = vec![0u32];
        for &b in bins {
            base.push(base.last().unwrap() + b);
        }
        base.resize(5, total);
        let base_text: Vec<String> = base.iter().map(|b| format!("{b}u")).collect();
        let channel_bin = match even {
            None => "fn channel_bin(c: u32, x: T) -> u32 {\n    return range_bin(c, x);\n}\n"
                .to_string(),
            Some(levels) => {
                let mut text =
                    String::from("fn channel_bin(c: u32, x: T) -> u32 {\n    switch c {\n");
                let mut helpers = String::new();
                for (c, (level, &b)) in levels.iter().zip(bins).enumerate() {
                    if level.dtype() != dtype {
                        return Err(Error::Usage(format!(
                            "{MULTI}: channel {c}'s levels {level:?} are not of the \
                             channels' sample type {dtype}"
                        )));
                    }
                    let own = level
                        .bin_fn(b)?
                        .replace("fn bin(", &format!("fn wk_bin{c}("))
                        .replace("WK_HIST_", &format!("WK_HIST{c}_"))
                        .replace("wk_hist_mul_wide", &format!("wk_hist{c}_mul_wide"));
                    helpers.push_str(&own);
                    text.push_str(&format!(
                        "        case {c}u: {{\n            return wk_bin{c}(x);\n        }}\n"
                    ));
                }
                text.push_str(
                    "        default: {\n            return 0xffffffffu;\n        }\n    }\n}\n",
                );
                text.push_str(&helpers);
                text
            }
        };
        let ctx = Context::new(device)?.with_clears()?;
        let levels_total = total + active;
        let shared_bins = total <= MAX_SHARED_BINS;
        let shared_levels = even.is_none() && levels_total <= MAX_SHARED_LEVELS;
        let module = ctx.compose(
            &Shader::new("histogram_multi.wgsl")?
                .set("T", element)
                .set("CHANNELS", format!("{channels}u"))
                .set("ACTIVE", format!("{active}u"))
                .set("TOTAL_BINS", format!("{total}u"))
                .set(
                    "BIN_BASE",
                    format!("array<u32, 5>({})", base_text.join(", ")),
                )
                .set("BINS_IN_SHARED", shared_bins)
                .set(
                    "SHARED_BINS",
                    format!("{}u", if shared_bins { total } else { 1 }),
                )
                .set("LEVELS_IN_SHARED", shared_levels)
                .set(
                    "SHARED_LEVELS",
                    format!("{}u", if shared_levels { levels_total } else { 1 }),
                )
                .function("channel_bin", channel_bin),
        )?;
        let [count] = ctx.pipelines(&module, ["histogram_multi"])?;
        Ok(Multi { ctx, count })
    }
}

/// Records a `histogram_multi.wgsl` call: `(channels, active)`,
/// `total_bins`, `pixels` pixels of `channels` samples, the levels where
/// the histogram is by range.
#[allow(clippy::too_many_arguments)]
fn record_multi(
    ctx: &Context,
    queue: Queue<'_>,
    count: &Pipeline,
    name: &str,
    (channels, active): (u32, u32),
    total_bins: u64,
    samples: Slice<'_>,
    levels: Option<Slice<'_>>,
    histogram: Slice<'_>,
    pixels: u32,
) -> Result<(), Error> {
    let mut readers = vec![("samples", samples)];
    if let Some(levels) = levels {
        readers.push(("levels", levels));
    }
    distinct_each(name, &readers, &[("histogram", histogram)])?;
    let limits = &ctx.limits;
    let elements = u64::from(pixels) * u64::from(channels);
    let samples = limits.check(name, "samples", samples, 4 * elements)?;
    let histogram = limits.check(name, "histogram", histogram, 4 * total_bins)?;
    let levels = match levels {
        Some(levels) => {
            limits.check(name, "levels", levels, 4 * (total_bins + u64::from(active)))?
        }
        // Not read for even bins: any 4 bytes of the same access.
        None => samples,
    };
    let mut ops = vec![Op::Clear(histogram)];
    if pixels > 0 {
        // As the single-channel kernel: 2048 counted samples a workgroup.
        let groups = (u64::from(pixels) * u64::from(active))
            .div_ceil(BLOCK * 8)
            .clamp(1, MAX_GROUPS) as u32;
        ops.push(Op::Dispatch(
            count,
            vec![samples, histogram, levels],
            [groups, 1, 1],
        ));
    }
    record(ctx, queue, &ops)
}

/// A device-wide histogram of pixels of 1 to 4 interleaved channels
/// (CUB's `MultiHistogramEven` / `MultiHistogramRange`), built once per
/// device, sample type, channel count and binning.
///
/// - **Samples**: `pixels · channels` 4-byte samples (u32, i32 or f32),
///   channel `c` of pixel `p` at `p · channels + c`; the first `active`
///   channels (one bin count each, `1 ≤ active ≤ channels ≤ 4`) are
///   counted, as CUB's `NUM_ACTIVE_CHANNELS` of `NUM_CHANNELS` (RGBA
///   pixels, RGB counted).
/// - **Binning**: per channel even bins ([`MultiHistogram::even`], as
///   [`Histogram::even`]) or levels ([`MultiHistogram::range`], as
///   [`Histogram::range`]; the channels' levels one after another,
///   `bins[c] + 1` each, given at each call).
/// - **Output**: one slice of all channels' counts one after another
///   (channel `c`'s `bins[c]` counts start at `bins[0] + … + bins[c −
///   1]`; CUB takes one array per channel), overwritten.
/// - **Placement**: samples and levels must not share a buffer with the
///   histogram. No temp storage.
/// - **Algorithm**: `histogram_multi.wgsl`: [`Histogram`]'s workgroup
///   histograms of all channels' bins together (up to 2048; beyond,
///   global atomics), each thread a pixel a round and every active channel
///   of it; levels binary-searched, in workgroup memory when all channels'
///   levels number at most 1024.
/// - **Cost of a call**: 1 read of each counted sample (a pixel's inactive
///   channels are not read), at most `Σ bins` global atomics per workgroup;
///   2 dispatches (1 for no pixels), 2 bind groups.
pub struct MultiHistogram {
    ctx: Context,
    channels: u32,
    bins: Vec<u32>,
    count: Pipeline,
    range: bool,
}

impl MultiHistogram {
    /// `channels` channels (1 to 4) of samples of the levels' type, the
    /// first `levels.len()` counted, channel `c` into `levels[c].0` even
    /// bins over `levels[c].1` (every channel's levels of one type).
    pub fn even<'d>(
        device: impl Into<Device<'d>>,
        channels: u32,
        levels: &[(u32, EvenLevels)],
    ) -> Result<Self, Error> {
        let Some(first) = levels.first() else {
            return Err(Error::Usage(format!(
                "{MULTI}: no channel counted: give 1 to {channels} channels' levels"
            )));
        };
        let bins: Vec<u32> = levels.iter().map(|l| l.0).collect();
        let even: Vec<EvenLevels> = levels.iter().map(|l| l.1).collect();
        let multi = Multi::build(device.into(), first.1.dtype(), channels, &bins, Some(&even))?;
        Ok(MultiHistogram {
            ctx: multi.ctx,
            channels,
            bins,
            count: multi.count,
            range: false,
        })
    }

    /// `channels` channels (1 to 4) of `dtype` samples, the first
    /// `bins.len()` counted, channel `c` into `bins[c]` bins by `bins[c] +
    /// 1` non-decreasing levels given at each call
    /// ([`MultiHistogram::record_range`]).
    pub fn range<'d>(
        device: impl Into<Device<'d>>,
        dtype: Dtype,
        channels: u32,
        bins: &[u32],
    ) -> Result<Self, Error> {
        let multi = Multi::build(device.into(), dtype, channels, bins, None)?;
        Ok(MultiHistogram {
            ctx: multi.ctx,
            channels,
            bins: bins.to_vec(),
            count: multi.count,
            range: true,
        })
    }

    /// Samples a pixel holds.
    pub fn channels(&self) -> u32 {
        self.channels
    }

    /// Each counted channel's bin count.
    pub fn bins(&self) -> &[u32] {
        &self.bins
    }

    /// All channels' bins: the u32 counts the histogram slice holds.
    pub fn total_bins(&self) -> u64 {
        self.bins.iter().map(|&b| u64::from(b)).sum()
    }

    /// All channels' levels a [`MultiHistogram::record_range`] call takes.
    pub fn total_levels(&self) -> u64 {
        self.total_bins() + self.bins.len() as u64
    }

    /// Records the even-bin histograms of the `pixels` pixels at `samples`
    /// into the [`MultiHistogram::total_bins`] u32 at `histogram`
    /// (overwritten). Checks every slice first.
    pub fn record<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        samples: Slice<'_>,
        histogram: Slice<'_>,
        pixels: u32,
    ) -> Result<(), Error> {
        if self.range {
            return Err(Error::Usage(format!(
                "{MULTI}: built by levels (MultiHistogram::range): call record_range with \
                 the {} levels",
                self.total_levels()
            )));
        }
        self.record_any(queue.into(), samples, None, histogram, pixels)
    }

    /// Records the histograms by the [`MultiHistogram::total_levels`]
    /// levels at `levels` (channel `c`'s `bins[c] + 1` after the earlier
    /// channels') of the `pixels` pixels at `samples` into the
    /// [`MultiHistogram::total_bins`] u32 at `histogram` (overwritten).
    /// Checks every slice first.
    pub fn record_range<'q>(
        &self,
        queue: impl Into<Queue<'q>>,
        samples: Slice<'_>,
        levels: Slice<'_>,
        histogram: Slice<'_>,
        pixels: u32,
    ) -> Result<(), Error> {
        if !self.range {
            return Err(Error::Usage(format!(
                "{MULTI}: built with even bins: call record (no levels)"
            )));
        }
        self.record_any(queue.into(), samples, Some(levels), histogram, pixels)
    }

    fn record_any(
        &self,
        queue: Queue<'_>,
        samples: Slice<'_>,
        levels: Option<Slice<'_>>,
        histogram: Slice<'_>,
        pixels: u32,
    ) -> Result<(), Error> {
        record_multi(
            &self.ctx,
            queue,
            &self.count,
            MULTI,
            (self.channels, self.bins.len() as u32),
            self.total_bins(),
            samples,
            levels,
            histogram,
            pixels,
        )
    }
}
