//! `radix_sort`: LSD radix sort of u32 keys (`keys`) and of u32 key / u32
//! value pairs (`pairs`, stable), 8-bit digits, 4 passes
//! (`shaders/radix_sort.wgsl`).
//!
//! Each pass is reduce-then-scan, as CUB's DeviceRadixSort before OneSweep:
//!
//! 1. `upsweep`: the keys are cut into tiles of 2048 (256 threads × 8) and
//!    the tiles into `P = min(tiles, 4096)` partitions of consecutive tiles,
//!    one workgroup each; a workgroup counts its keys' digits with
//!    workgroup atomics into `counts[digit * P + partition]` (digit-major).
//! 2. the device scan ([`crate::scan::DeviceScan`]) of the whole `256 × P`
//!    count matrix: entry `(d, p)` of the exclusive prefix sum is where
//!    partition `p`'s keys with digit `d` start in the output.
//! 3. `downsweep`: each workgroup walks its partition in order, 256 keys
//!    (one per thread) at a time, ranks them stably with
//!    `block::radix_rank_match_atomic_or<256, 8, SHIFT, 8>` and scatters
//!    each key (and value) to `offset[d, p]` + the keys of digit `d` in the
//!    earlier slices + its rank among the slice's keys of digit `d`, read
//!    from the rank's `wk_blk_radix_bins__8` / `wk_blk_radix_excl_prefix__8`.
//!
//! The digit is a compile-time argument of the rank, so the shader is
//! composed once per pass with `const SHIFT` edited. The passes ping-pong
//! between two key (and value) buffers; the input buffers are only read, so
//! a timed program can run any number of times on the same input.
//!
//! Bindings: 0 keys in, 1 keys out, 2 values in, 3 values out (4-byte
//! placeholders for `keys`), 4 the count matrix, 5 its scan. Grids: `P`
//! workgroups (at most 4096, so never spilling into y, though the shader
//! takes the linear index). Result: the sorted keys (and their values) in the
//! second ping-pong buffer.
//!
//! Cost per key and pass: 1 key read and 1 workgroup atomicAdd (upsweep),
//! 1 key read, 1 scattered write and a 256th of a radix rank (7 workgroup
//! barriers, a 256-thread block scan and one workgroup atomicOr per key)
//! (downsweep); `pairs` adds a value read and write. The rank, one key per
//! thread and call, is what bounds it: on an H100 (Vulkan) the 4 passes
//! take 37.5 ms at 2^28 keys, about 9 ms a pass against about 1 ms for the
//! memory traffic. Staging each 2048-key tile through workgroup memory in
//! digit order before the scatter, as CUB does for coalesced writes, was
//! tried and was slower there (50 ms at 2^28: one more block scan and 3
//! more barriers per tile), so keys are scattered straight from registers.
//! A rank over several keys per thread would amortise the barriers.
//! Workgroup memory: the rank's (about 10 KiB) + 2 KiB, within WebGPU's
//! default 16 KiB.
//!
//! Inputs: `keys` uniform random u32; `pairs` keys with about 8 copies of
//! each (`x * 0x9e3779b1` for random `x < n / 8`) and values their input
//! index, so the check also checks stability.
//! Bytes counted: per pass, the upsweep's key reads and the downsweep's key
//! (and value) reads and writes: `48 n` for `keys`, `80 n` for `pairs`.

use wavekit::Error;
use wavekit::runner::{Buffer, Kernel, Step};

use crate::harness::{Ctx, Report, bytes_of, check_equal, grid, random_u32, words_of};
use crate::scan::DeviceScan;
use crate::{Demo, Prepared, unknown_variant};

const SHADER: &str = include_str!("../shaders/radix_sort.wgsl");
/// Keys per tile: 256 threads × 8.
const TILE: usize = 2048;
/// Digits per pass.
const RADIX: usize = 256;
/// The most partitions (workgroups) of a pass: a few waves of resident
/// workgroups on an H100 (132 SMs × 8 workgroups of 256 threads), and a
/// count matrix of at most 1 Mi entries.
const MAX_PARTITIONS: usize = 4096;
const SHIFTS: [u32; 4] = [0, 8, 16, 24];

/// The `radix_sort` demo.
pub struct RadixSort;

impl Demo for RadixSort {
    fn name(&self) -> &'static str {
        "radix_sort"
    }

    fn variants(&self) -> &'static [&'static str] {
        &["keys", "pairs"]
    }

    fn prepare<'c>(
        &self,
        ctx: &'c Ctx<'c>,
        variant: &str,
    ) -> Result<Box<dyn Prepared + 'c>, Error> {
        if !self.variants().contains(&variant) {
            return Err(unknown_variant(self, variant));
        }
        let pairs = variant == "pairs";
        let mut passes = Vec::new();
        for shift in SHIFTS {
            let shift_decl = format!("const SHIFT = {shift}u;");
            let pairs_decl = format!("const PAIRS = {pairs};");
            let module = ctx.compose(
                SHADER,
                "radix_sort.wgsl",
                &[
                    ("const SHIFT = 0u;", &shift_decl),
                    ("const PAIRS = false;", &pairs_decl),
                ],
            )?;
            let [upsweep, downsweep] = ctx.kernels(&module, ["upsweep", "downsweep"])?;
            passes.push(Pass { upsweep, downsweep });
        }
        Ok(Box::new(PreparedRadixSort {
            ctx,
            variant: variant.to_string(),
            pairs,
            passes,
            scan: DeviceScan::new(ctx, None)?,
        }))
    }
}

struct Pass {
    upsweep: Kernel,
    downsweep: Kernel,
}

struct PreparedRadixSort<'c> {
    ctx: &'c Ctx<'c>,
    variant: String,
    pairs: bool,
    passes: Vec<Pass>,
    scan: DeviceScan<'c>,
}

/// The device buffers of one sort.
struct Buffers {
    keys: [Buffer; 3],
    values: [Buffer; 3],
    counts: Buffer,
    offsets: Buffer,
    partitions: u32,
}

impl PreparedRadixSort<'_> {
    /// Four passes: input → 1 → 2 → 1 → 2 (buffer 0 is the input, never
    /// written).
    fn program<'b>(
        &'b self,
        b: &'b Buffers,
        scratch: &'b crate::scan::ScanScratch,
    ) -> Vec<Step<'b>> {
        let mut steps = Vec::new();
        let workgroups = grid(b.partitions);
        for (pass, kernels) in self.passes.iter().enumerate() {
            let (src, dst) = match pass {
                0 => (0, 1),
                _ if pass % 2 == 1 => (1, 2),
                _ => (2, 1),
            };
            let buffers = [
                &b.keys[src],
                &b.keys[dst],
                &b.values[src],
                &b.values[dst],
                &b.counts,
                &b.offsets,
            ];
            steps.push(Step::dispatch(&kernels.upsweep, &buffers, workgroups));
            steps.extend(self.scan.steps(&b.counts, &b.offsets, scratch));
            steps.push(Step::dispatch(&kernels.downsweep, &buffers, workgroups));
        }
        steps
    }
}

impl Prepared for PreparedRadixSort<'_> {
    fn run(&self, n: usize, seed: u64) -> Result<Report, Error> {
        if n == 0 || n > 1 << 30 {
            return Err(Error::Usage(format!(
                "radix_sort takes 1 to 2^30 keys, not {n}"
            )));
        }
        let gpu = self.ctx.gpu;
        let keys: Vec<u32> = if self.pairs {
            random_u32(n, (n / 8).max(1) as u32, seed)
                .into_iter()
                .map(|x| x.wrapping_mul(0x9e37_79b1))
                .collect()
        } else {
            random_u32(n, u32::MAX, seed)
        };
        let values: Vec<u32> = (0..n as u32).collect();
        let partitions = n.div_ceil(TILE).min(MAX_PARTITIONS);
        let value_buffer = |data: Option<&[u32]>| match (self.pairs, data) {
            (false, _) => gpu.buffer(4),
            (true, Some(data)) => gpu.upload(bytes_of(data)),
            (true, None) => gpu.buffer(4 * n as u64),
        };
        let matrix = (4 * RADIX * partitions) as u64;
        let buffers = Buffers {
            keys: [
                gpu.upload(bytes_of(&keys))?,
                gpu.buffer(4 * n as u64)?,
                gpu.buffer(4 * n as u64)?,
            ],
            values: [
                value_buffer(Some(&values))?,
                value_buffer(None)?,
                value_buffer(None)?,
            ],
            counts: gpu.buffer(matrix)?,
            offsets: gpu.buffer(matrix)?,
            partitions: partitions as u32,
        };
        let scratch = self.scan.scratch(RADIX * partitions)?;
        let timing = self.ctx.run(&self.program(&buffers, &scratch))?;
        let got_keys: Vec<u32> = words_of(&gpu.read(&buffers.keys[2])?);
        let variant = &self.variant;
        if self.pairs {
            // A stable sort by key is the sort by (key, input index).
            let mut want: Vec<u64> = keys
                .iter()
                .zip(&values)
                .map(|(&k, &v)| (u64::from(k) << 32) | u64::from(v))
                .collect();
            want.sort_unstable();
            let want: Vec<(u32, u32)> = want
                .into_iter()
                .map(|p| ((p >> 32) as u32, p as u32))
                .collect();
            let got_values: Vec<u32> = words_of(&gpu.read(&buffers.values[2])?);
            let got: Vec<(u32, u32)> = got_keys.into_iter().zip(got_values).collect();
            check_equal("radix_sort", variant, &got, &want)?;
        } else {
            let mut want = keys;
            want.sort_unstable();
            check_equal("radix_sort", variant, &got_keys, &want)?;
        }
        let per_key_pass: u64 = if self.pairs { 4 + 16 } else { 4 + 8 };
        Ok(Report::new(
            "radix_sort",
            variant,
            self.ctx,
            &format!(
                "LSD radix sort, 4 passes of 8 bits: upsweep digit counts, device scan ({}), \
                 downsweep ranking 256-key slices with block::radix_rank_match_atomic_or and \
                 scattering",
                self.scan.algorithm().describe()
            ),
            n,
            4 * per_key_pass * n as u64,
            timing,
        ))
    }
}
