//! [`ScanAlgorithm`]: how the tiles of a device-wide pass learn what the
//! tiles before them hold, and which one a device gets.

/// How the tiles of a scan (and of a radix sort pass) learn the sum of the
/// tiles before them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScanAlgorithm {
    /// One pass; each tile publishes its sum and walks back over its
    /// predecessors' published sums (Merrill & Garland 2016), with
    /// decoupled fallback (Smith, Levien & Owens, SPAA 2025): a walk that
    /// waits too long on a predecessor computes that tile's sum itself
    /// from its input and walks on. So it needs no forward-progress
    /// guarantee: it is correct on every adapter, whatever order its
    /// scheduler runs workgroups in (CPU adapters, Apple, mobile and
    /// browser GPUs, emulated subgroups). Where the scheduler does keep
    /// started workgroups running (CUDA; NVIDIA, AMD and Intel GPUs through
    /// wgpu) the shaders are built without the fallback's branch, as the
    /// plain look-back: that code measured faster there (H100: the
    /// fallback's shape cost 2-13 % in the OneSweep sort and up to 2.8x
    /// in the Vulkan compaction, docs/benchmarks/2026-11-26a-h100-look-back-fallback).
    /// `src/device/shaders/look_back.wgsl` states the protocol;
    /// [`debug`](super::debug) has the switches that test it.
    DecoupledLookBack,
    /// Three passes: tile sums, a scan of them, tile scans. Slower (2
    /// reads and 1 write of each element); kept as an explicit choice.
    ReduceThenScan,
}

impl ScanAlgorithm {
    /// The single pass ([`ScanAlgorithm::DecoupledLookBack`]) on every
    /// adapter: its fallback makes it safe where the scheduler promises no
    /// forward progress. `info` is kept for choices by adapter to come.
    pub fn for_adapter(info: &wgpu::AdapterInfo) -> ScanAlgorithm {
        let _ = info;
        ScanAlgorithm::DecoupledLookBack
    }

    /// In words, for reports.
    pub fn describe(self) -> &'static str {
        match self {
            ScanAlgorithm::DecoupledLookBack => "single pass, decoupled look-back with fallback",
            ScanAlgorithm::ReduceThenScan => "reduce-then-scan (3 passes)",
        }
    }
}
