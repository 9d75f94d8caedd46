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
    /// subgroup size 4) the selection's look-back has been seen to count a
    /// predecessor tile as 0, about one run in ten at 2^20 elements
    /// (256 tiles), so the count and the output are wrong (`wavekit-demos
    /// compact --variant u32_half_lookback --adapter llvmpipe --log2 20..=20`
    /// with `LP_NATIVE_VECTOR_WIDTH=128`). The scan's did the same (one run
    /// in eight) until its spin loop lost the branch around its read
    /// (`look_back` in `shaders/scan.wgsl`: 0 in 65 runs since); the same
    /// change did not cure the selection's, whose cause is not found yet.
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
