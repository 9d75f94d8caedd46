//! How a kernel is built: the runtime checks wgpu adds to a shader, and
//! the bounds checks the native back ends add the same way.

/// Options for [`Gpu::kernel_with`](super::Gpu::kernel_with).
///
/// wgpu guards every shader it compiles: buffer indices are clamped (robust
/// access) and every loop gets a hidden iteration counter that ends it
/// (`force_loop_bounding`), so that an infinite loop cannot let a driver
/// assume the loop unreachable. That counter costs dearly on NVIDIA's Vulkan
/// driver: it leaves loops rolled, so private arrays indexed by the loop
/// counter go to local memory (H100, 2^24 elements: the device scan at 67
/// against 244 G items/s without it, compaction 36 against 315). The
/// native back ends (CUDA, HIP) clamp indices as wgpu does
/// (`wavekit_native::BoundsChecks::Restrict`) unless
/// [`KernelOptions::without_bounds_checks`] turns that off too; they add
/// no loop counter, so loop bounding changes nothing there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelOptions {
    loop_bounding: bool,
    bounds_checks: bool,
}

impl Default for KernelOptions {
    /// wgpu's checks, all on.
    fn default() -> Self {
        KernelOptions {
            loop_bounding: true,
            bounds_checks: true,
        }
    }
}

impl KernelOptions {
    /// The same options without wgpu's loop bounding (bounds checks stay).
    ///
    /// # Safety
    ///
    /// Every loop of the module must terminate: wgpu says a backend
    /// compiler may treat an infinite loop as unreachable and draw
    /// conclusions about other code from it. A spin loop that waits on
    /// another workgroup terminates only where the device keeps started
    /// workgroups running.
    pub unsafe fn without_loop_bounding(self) -> Self {
        KernelOptions {
            loop_bounding: false,
            ..self
        }
    }

    /// The same options without bounds checks on buffer and array accesses
    /// (naga's `BoundsCheckPolicy::Unchecked` everywhere): wgpu's, and the
    /// native back ends' clamping.
    ///
    /// # Safety
    ///
    /// Every index of the module must be in bounds for every dispatch it
    /// is used with: an out-of-bounds access is then undefined behaviour
    /// instead of WGSL's clamped, in-buffer access.
    pub unsafe fn without_bounds_checks(self) -> Self {
        KernelOptions {
            bounds_checks: false,
            ..self
        }
    }

    /// Whether the module's accesses are bounds-checked (by wgpu, or by
    /// the native lowering).
    pub fn bounds_checks(&self) -> bool {
        self.bounds_checks
    }

    /// The native back ends' policy for these options.
    #[cfg(feature = "native")]
    pub fn native_bounds(&self) -> wavekit_native::BoundsChecks {
        if self.bounds_checks {
            wavekit_native::BoundsChecks::Restrict
        } else {
            wavekit_native::BoundsChecks::Unchecked
        }
    }

    /// Whether wgpu bounds the module's loops.
    pub fn loop_bounding(&self) -> bool {
        self.loop_bounding
    }
}
