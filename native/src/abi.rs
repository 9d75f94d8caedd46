//! The kernel ABI of the native back ends.
//!
//! A lowered compute entry point is a kernel named like the entry point.
//! For each storage or uniform buffer of the module, in (group, binding)
//! order, it takes two parameters:
//!
//! 1. the buffer's device address (`ptr addrspace(1)`; `.param .u64` in PTX),
//!    a multiple of [`BUFFER_ALIGNMENT`] (16): the kernel declares it
//!    (LLVM's `align 16` on the parameter), so that a thread's four
//!    consecutive words 16 bytes apart from an aligned start load as one
//!    vector (`ld.global.v4`, `global_load_dwordx4`) where LLVM can prove
//!    the start aligned;
//! 2. the buffer's byte length as a `u32` (`arrayLength` divides what
//!    follows the fixed part by the stride of the trailing runtime-sized
//!    array, and so do the bounds checks of its indices; for other buffers
//!    it is unused).
//!
//! A buffer with a runtime-sized array must hold at least one element
//! (WebGPU's minimum binding size), so that a clamped index always has an
//! element to land on; [`BufferParam::check`] refuses shorter ones.
//!
//! Workgroup variables are `addrspace(3)` globals, zeroed by the kernel at
//! start. The workgroup size is the block size (and the kernel's launch
//! bound); the dispatch grid gives `num_workgroups`. Buffer contents use
//! naga's (WGSL's) memory layout byte for byte.

/// What every buffer address passed to a kernel is a multiple of: device
/// allocations are (CUDA and HIP give 256 bytes), and `wavekit::device`
/// checks each slice it binds for it.
pub const BUFFER_ALIGNMENT: u32 = 16;

/// One buffer parameter pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferParam {
    /// `@group`.
    pub group: u32,
    /// `@binding`.
    pub binding: u32,
    /// The WGSL variable name.
    pub name: Option<String>,
    /// `var<storage, read_write>`.
    pub writable: bool,
    /// `var<uniform>`.
    pub uniform: bool,
    /// The size without the runtime-sized array (the whole size otherwise).
    pub fixed_size: u32,
    /// The stride of a trailing runtime-sized array, if any.
    pub runtime_stride: Option<u32>,
}

impl BufferParam {
    /// Whether a buffer of `bytes` bytes fits this binding: the fixed part,
    /// and for a runtime-sized array at least one whole element and no
    /// partial one.
    pub fn check(&self, bytes: usize) -> Result<(), String> {
        let name = self.name.as_deref().unwrap_or("?");
        let fixed = self.fixed_size as usize;
        match self.runtime_stride {
            None if bytes < fixed => Err(format!(
                "binding @group({}) @binding({}) `{name}` needs {fixed} bytes, got {bytes}",
                self.group, self.binding
            )),
            Some(stride) if bytes < fixed || !(bytes - fixed).is_multiple_of(stride as usize) => {
                Err(format!(
                    "binding @group({}) @binding({}) `{name}` needs {fixed} bytes plus a multiple of {stride}, got {bytes}",
                    self.group, self.binding
                ))
            }
            Some(stride) if bytes == fixed => Err(format!(
                "binding @group({}) @binding({}) `{name}` needs at least one element of its runtime-sized array ({} bytes, WebGPU's minimum binding size), got {bytes}",
                self.group,
                self.binding,
                fixed + stride as usize
            )),
            _ => Ok(()),
        }
    }
}

/// What a launch must provide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelAbi {
    /// Buffer parameters in order.
    pub buffers: Vec<BufferParam>,
    /// The block size.
    pub workgroup_size: [u32; 3],
    /// Lanes per subgroup the kernel was compiled for.
    pub subgroup_size: u32,
    /// Workgroup memory the kernel takes as dynamic shared memory (bytes;
    /// 0: none), which every launch must give it: on CUDA, all of a
    /// kernel's workgroup variables where they exceed the 48 KiB a kernel
    /// may declare statically.
    pub dynamic_workgroup_bytes: u32,
}

/// The parameter block of one launch in this ABI: each buffer's device
/// address and byte length. The driver (`cuLaunchKernel`,
/// `hipModuleLaunchKernel`) reads the values through [`KernelArgs::pointers`]
/// during the launch, so the vectors must not move or change while it runs;
/// they are built once and only read.
pub(crate) struct KernelArgs {
    pub(crate) addresses: Vec<u64>,
    pub(crate) lengths: Vec<u32>,
}

impl KernelArgs {
    /// The block of `buffers`, (device address, byte length) pairs in the
    /// ABI's order.
    pub(crate) fn of(buffers: &[(u64, u32)]) -> Self {
        KernelArgs {
            addresses: buffers.iter().map(|b| b.0).collect(),
            lengths: buffers.iter().map(|b| b.1).collect(),
        }
    }

    /// The launch's `kernelParams`: a pointer to each parameter's value,
    /// address then length for each buffer.
    pub(crate) fn pointers(&mut self) -> Vec<*mut std::ffi::c_void> {
        let mut pointers = Vec::with_capacity(2 * self.addresses.len());
        for (address, length) in self.addresses.iter_mut().zip(self.lengths.iter_mut()) {
            pointers.push((address as *mut u64).cast());
            pointers.push((length as *mut u32).cast());
        }
        pointers
    }
}
