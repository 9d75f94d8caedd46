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
    /// Forced on a CPU adapter it is not reliable. lavapipe (Mesa 22.3's
    /// llvmpipe) gives each invocation one budget of 65535 loop
    /// iterations, shared by all the shader's loops, and ends every loop
    /// once it is spent (`LP_MAX_TGSI_LOOP_ITERATIONS`; the test
    /// `lavapipe_ends_loops_after_65535_iterations` shows it). When the
    /// worker thread that runs an earlier tile is preempted, a tile spinning
    /// on it runs out of budget, leaves the spin as if the tile had
    /// published, and counts it as 0 — the wrong results seen there about
    /// once in eight scans of 2^20 elements on two busy cores
    /// (docs/benchmarks/2026-11-25h-h100-device-library) and once in 20
    /// OneSweep sorts. No spin can be made safe against that budget, so
    /// [`ScanAlgorithm::for_adapter`] never picks look-back there, and the
    /// tests that force it on lavapipe run its workgroups in order
    /// (`LP_NUM_THREADS=0`), where no tile waits. On the H100 (CUDA and
    /// Vulkan) every checked run has passed.
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
