//! `histogram`: 256-bin histogram of the low byte of u32 keys with
//! workgroup histograms and subgroup-aggregated atomics
//! (`src/device/shaders/histogram.wgsl`).
//!
//! Through wgpu the demo records [`wavekit::device::Histogram`] (the low
//! byte as a WGSL bin function), so its timings are the library's, the
//! zeroing of the bins (a dispatch of its own) included; on CUDA and HIP
//! (and with `WAVEKIT_DEMOS_LIBRARY=0`) its own steps over the same shader,
//! whose leading zero is not timed
//! ([`Ctx::library_device`](crate::harness::Ctx::library_device)).

use rand::Rng;
use wavekit::Error;
use wavekit::device::Queue;
use wavekit::runner::{Kernel, Step};

use crate::harness::{Ctx, Report, bytes_of, check_equal, rng, words_of};
use crate::{Demo, Prepared, known_variant};

static SHADER: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    wavekit::device::shaders::source("histogram.wgsl").expect("a device shader")
});
/// The bin of a key, as the library takes it (the shader's default).
const BIN_FN: &str = "fn bin(x: u32) -> u32 { return x & 0xffu; }";
const BLOCK: usize = 256;
/// Workgroups: enough to fill a large GPU; each folds a grid-stride share.
const MAX_GROUPS: usize = 1024;

/// The `histogram` demo.
pub struct Histogram;

impl Demo for Histogram {
    fn name(&self) -> &'static str {
        "histogram"
    }

    /// `uniform`: random keys (subgroups rarely agree, one atomic per
    /// key); `skewed`: runs of 64 equal keys, 90% of them in one bin (the
    /// subgroup-aggregated path: one atomic per subgroup).
    fn variants(&self) -> &'static [&'static str] {
        &["uniform", "skewed"]
    }

    fn prepare<'c>(
        &self,
        ctx: &'c Ctx<'c>,
        variant: &str,
    ) -> Result<Box<dyn Prepared + 'c>, Error> {
        known_variant(self, variant)?;
        let module = ctx.compose(&SHADER, "histogram.wgsl", &[])?;
        let [kernel] = ctx.kernels(&module, ["histogram"])?;
        // The library counts (so the benchmark measures it) unless asked
        // not to, and on HIP.
        let library = match ctx.library_device() {
            Some(device) => Some(wavekit::device::Histogram::with_bin_fn(
                device,
                wavekit::Dtype::U32,
                256,
                BIN_FN,
            )?),
            None => None,
        };
        Ok(Box::new(PreparedHistogram {
            ctx,
            skewed: variant == "skewed",
            kernel,
            library,
        }))
    }
}

struct PreparedHistogram<'c> {
    ctx: &'c Ctx<'c>,
    skewed: bool,
    kernel: Kernel,
    library: Option<wavekit::device::Histogram>,
}

impl PreparedHistogram<'_> {
    fn input(&self, n: usize, seed: u64) -> Vec<u32> {
        let mut rng = rng(seed);
        if !self.skewed {
            return (0..n).map(|_| rng.random()).collect();
        }
        let mut keys = Vec::with_capacity(n);
        while keys.len() < n {
            let key = if rng.random_bool(0.9) {
                7
            } else {
                rng.random()
            };
            keys.extend(std::iter::repeat_n(key, 64.min(n - keys.len())));
        }
        keys
    }
}

impl Prepared for PreparedHistogram<'_> {
    fn run(&self, n: usize, seed: u64) -> Result<Report, Error> {
        let gpu = self.ctx.gpu;
        let input = self.input(n, seed);
        let input_buffer = gpu.upload(bytes_of(&input))?;
        let bins = gpu.buffer(4 * 256)?;
        let groups = n.div_ceil(BLOCK * 8).clamp(1, MAX_GROUPS) as u32;
        let timing = match &self.library {
            Some(library) => {
                let record = |queue: Queue<'_>| {
                    library.record(queue, input_buffer.slice(), bins.slice(), n as u32)
                };
                self.ctx.run(&[Step::Record(&record)])?
            }
            None => self.ctx.run(&[
                Step::Zero(&bins),
                Step::dispatch(&self.kernel, &[&input_buffer, &bins], [groups, 1, 1]),
            ])?,
        };
        let got: Vec<u32> = words_of(&gpu.read(&bins)?);
        let mut want = vec![0u32; 256];
        for &key in &input {
            want[(key & 0xff) as usize] += 1;
        }
        let variant = if self.skewed { "skewed" } else { "uniform" };
        check_equal("histogram", variant, &got, &want)?;
        Ok(Report::new(
            "histogram",
            variant,
            self.ctx,
            "workgroup histograms, subgroup-aggregated atomics (all_equal + elect)",
            n,
            4 * n as u64,
            timing,
        ))
    }
}
