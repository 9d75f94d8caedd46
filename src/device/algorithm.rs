//! [`ScanAlgorithm`]: how the tiles of a device-wide pass learn what the
//! tiles before them hold, and which one a device gets.

/// How the tiles of a scan (and of a radix sort pass) learn the sum of the
/// tiles before them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScanAlgorithm {
    /// One pass; each tile waits on its predecessors' published sums
    /// (Merrill & Garland 2016). Needs workgroups that have started to keep
    /// making progress while others spin, which WebGPU and Vulkan do not
    /// promise.
    ///
    /// Forced on a CPU adapter it is not reliable: on lavapipe (Mesa 22.3,
    /// subgroup size 4) the look-back has been seen to count a predecessor
    /// tile as 0, about one run in eight at 2^20 elements for the scan
    /// (128 tiles) and one in ten for the selection (256 tiles), so the
    /// result is wrong (`wavekit-demos scan --variant lookback --adapter
    /// llvmpipe --log2 20..=20` with `LP_NATIVE_VECTOR_WIDTH=128`). A spin
    /// loop with no branch around its read cured the scan's there (0 in 65
    /// runs) but cost 15 % (CUDA) and 58 % (Vulkan) on the H100 at 2^24, so
    /// it is not taken; the cause is not found yet
    /// (docs/benchmarks/2026-11-25h-h100-device-library).
    /// [`ScanAlgorithm::for_adapter`] never picks look-back there, and the
    /// tests force it on lavapipe only up to a few tiles. On the H100
    /// (CUDA and Vulkan) every checked run has passed.
    DecoupledLookBack,
    /// Three passes: tile sums, a scan of them, tile scans. Portable.
    ReduceThenScan,
}

impl ScanAlgorithm {
    /// Look-back on NVIDIA, AMD and Intel GPUs (vendor IDs 0x10de, 0x1002,
    /// 0x8086, discrete or integrated), whose schedulers keep started
    /// workgroups running; reduce-then-scan on every other adapter (CPU
    /// rasterisers, mobile and Apple GPUs, unknown vendors).
    pub fn for_adapter(info: &wgpu::AdapterInfo) -> ScanAlgorithm {
        let gpu_type = matches!(
            info.device_type,
            wgpu::DeviceType::DiscreteGpu | wgpu::DeviceType::IntegratedGpu
        );
        if gpu_type && [0x10de, 0x1002, 0x8086].contains(&info.vendor) {
            ScanAlgorithm::DecoupledLookBack
        } else {
            ScanAlgorithm::ReduceThenScan
        }
    }

    /// In words, for reports.
    pub fn describe(self) -> &'static str {
        match self {
            ScanAlgorithm::DecoupledLookBack => "single pass, decoupled look-back",
            ScanAlgorithm::ReduceThenScan => "reduce-then-scan (3 passes)",
        }
    }
}
