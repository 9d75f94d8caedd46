//! How a kernel is built: the runtime checks wgpu adds to a shader, the
//! bounds checks the native back ends add the same way, and the zeroing of
//! workgroup memory both do.

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
/// no loop counter, so loop bounding changes nothing there. Every back end
/// zeroes workgroup memory when a workgroup starts, as WGSL says, unless
/// [`KernelOptions::without_workgroup_zeroing`] turns that off. The native
/// back ends may also be told how many workgroups a multiprocessor should
/// hold at once ([`KernelOptions::with_min_resident_workgroups`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelOptions {
    loop_bounding: bool,
    bounds_checks: bool,
    workgroup_zeroing: bool,
    min_resident_workgroups: Option<u32>,
}

impl Default for KernelOptions {
    /// wgpu's checks and WGSL's zeroed workgroup memory, all on.
    fn default() -> Self {
        KernelOptions {
            loop_bounding: true,
            bounds_checks: true,
            workgroup_zeroing: true,
            min_resident_workgroups: None,
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

    /// The same options without zeroing workgroup memory when a workgroup
    /// starts (wgpu's `zero_initialize_workgroup_memory: false`; the native
    /// lowering's option of the same name).
    ///
    /// # Safety
    ///
    /// Every entry point of the module must write each workgroup word
    /// before it reads it: a word read first is then undefined.
    pub unsafe fn without_workgroup_zeroing(self) -> Self {
        KernelOptions {
            workgroup_zeroing: false,
            ..self
        }
    }

    /// The same options with the native code generator keeping the
    /// kernel's registers to what `workgroups` workgroups per
    /// multiprocessor leave (CUDA's `__launch_bounds__(threads,
    /// workgroups)`; `wavekit_native::LowerOptions::min_resident_workgroups`).
    /// More registers than that spill to local memory. wgpu has no such
    /// hint: its kernels are unchanged.
    pub fn with_min_resident_workgroups(self, workgroups: u32) -> Self {
        KernelOptions {
            min_resident_workgroups: Some(workgroups),
            ..self
        }
    }

    /// Whether the module's accesses are bounds-checked (by wgpu, or by
    /// the native lowering).
    pub fn bounds_checks(&self) -> bool {
        self.bounds_checks
    }

    /// Whether workgroup memory starts zeroed.
    pub fn workgroup_zeroing(&self) -> bool {
        self.workgroup_zeroing
    }

    /// The native lowering's options for these options.
    #[cfg(feature = "native")]
    pub fn native_lower(&self) -> wavekit_native::LowerOptions {
        wavekit_native::LowerOptions {
            bounds: if self.bounds_checks {
                wavekit_native::BoundsChecks::Restrict
            } else {
                wavekit_native::BoundsChecks::Unchecked
            },
            zero_initialize_workgroup_memory: self.workgroup_zeroing,
            min_resident_workgroups: self.min_resident_workgroups,
        }
    }

    /// Whether wgpu bounds the module's loops.
    pub fn loop_bounding(&self) -> bool {
        self.loop_bounding
    }
}
