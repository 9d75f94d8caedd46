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
