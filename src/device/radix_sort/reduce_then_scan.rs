//! The reduce-then-scan sort (`shaders/radix_sort.wgsl`), for adapters
//! without the look-back's forward-progress guarantee: per pass an upsweep
//! counting each partition's digits, the device scan of the count matrix,
//! and a downsweep ranking 256-key slices with
//! `block::radix_rank_match_atomic_or` and scattering. 64-bit keys take
//! the same shader through [`wide::widen`].

use super::{RadixSortOptions, SortRanges, key_params, passes, wide};
use crate::backend::Range;
use crate::device::context::{Context, Op, Pipeline, TempLayout};
use crate::device::scan::{Scan, ScanKind};
use crate::device::shader::Shader;
use crate::device::shaders::writable;
use crate::error::Error;

/// Keys per tile: 256 threads × 8.
const TILE: u64 = 2048;
/// Digits per pass.
const RADIX: u64 = 256;
/// The most partitions (workgroups) of a pass: a few waves of resident
/// workgroups on an H100 (132 SMs × 8 workgroups of 256 threads), and a
/// count matrix of at most 1 Mi entries.
const MAX_PARTITIONS: u64 = 4096;

struct Pass {
    upsweep: Pipeline,
    downsweep: Pipeline,
}

/// The pipelines of the reduce-then-scan sort for one device and options.
pub(crate) struct ReduceThenScan {
    passes: Vec<Pass>,
    scan: Scan,
}

impl ReduceThenScan {
    /// Composes one module per pass (of 64-bit keys when the key type is),
    /// and the device scan (reduce-then-scan too unless the device keeps
    /// started workgroups running).
    pub fn new(ctx: &Context, options: &RadixSortOptions) -> Result<Self, Error> {
        let mut shader = Shader::new("radix_sort.wgsl")?.map(|text| Ok(writable(text)))?;
        if options.key.is_wide() {
            shader = shader.map(|text| wide::widen(text, wide::PassShader::ReduceThenScan))?;
        }
        let mut built = Vec::new();
        for pass in passes(&options.bits) {
            let module = ctx.compose(
                &shader
                    .clone()
                    .set_all(key_params(options.key, &pass))
                    .set("SHIFT", format!("{}u", pass.shift))
                    .set("PAIRS", options.pairs),
            )?;
            let [upsweep, downsweep] = ctx.pipelines(&module, ["upsweep", "downsweep"])?;
            built.push(Pass { upsweep, downsweep });
        }
        Ok(ReduceThenScan {
            passes: built,
            scan: Scan::with_context(ctx.clone(), ScanKind::Exclusive, true, None)?,
        })
    }

    /// What the sort does, in words, for reports.
    pub fn describe(&self) -> String {
        format!(
            "LSD radix sort, {} passes of up to 8 bits: upsweep digit counts, device scan ({}), \
             downsweep ranking 256-key slices with block::radix_rank_match_atomic_or and \
             scattering",
            self.passes.len(),
            self.scan.algorithm().describe()
        )
    }

    fn partitions(n: u32) -> u64 {
        u64::from(n).div_ceil(TILE).clamp(1, MAX_PARTITIONS)
    }

    /// Places its temp regions: counts, offsets, the scan's temp.
    pub fn temp(&self, layout: &mut TempLayout, n: u32) -> Vec<(u64, u64)> {
        let matrix = RADIX * Self::partitions(n);
        vec![
            layout.place(4 * matrix),
            layout.place(4 * matrix),
            layout.place(self.scan.temp_storage_bytes(matrix as u32)),
        ]
    }

    /// The commands of a checked call (`n > 0`).
    pub fn ops<'a>(
        &'a self,
        ctx: &Context,
        sort: &SortRanges<'a>,
        own: &[Range<'a>],
        _n: u32,
        count: usize,
    ) -> Vec<Op<'a>> {
        let (counts, offsets, scan_temp) = (own[0], own[1], own[2]);
        let partitions = counts.size / 4 / RADIX;
        let grid = ctx.grid(partitions as u32);
        let mut ops = Vec::new();
        for (i, pass) in self.passes.iter().enumerate() {
            let b = sort.pass(i, count);
            let bindings = vec![
                b.keys_in,
                b.keys_out,
                b.values_in,
                b.values_out,
                counts,
                offsets,
            ];
            ops.push(Op::Dispatch(&pass.upsweep, bindings.clone(), grid));
            ops.extend(
                self.scan
                    .ops(counts, offsets, (RADIX * partitions) as u32, scan_temp),
            );
            ops.push(Op::Dispatch(&pass.downsweep, bindings, grid));
        }
        ops
    }
}
