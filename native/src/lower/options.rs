//! What a lowering adds to a kernel beyond its WGSL: the two guarantees
//! WGSL makes that a GPU does not give by itself, each of which a kernel
//! that does not need it may turn off, as wgpu's shader runtime checks and
//! `PipelineCompilationOptions::zero_initialize_workgroup_memory` do.

use super::BoundsChecks;

/// How [`super::lower_entry_point`] treats indices and workgroup memory.
///
/// The default is WGSL's semantics, what wgpu gives every pipeline: clamped
/// indices and workgroup memory that starts zeroed. A [`BoundsChecks`]
/// converts into the options with that policy and zeroed workgroup memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LowerOptions {
    /// What out-of-bounds indices do.
    pub bounds: BoundsChecks,
    /// Whether the kernel zeroes the workgroup variables its entry point
    /// uses before running it (every thread stores its share of the words,
    /// then one workgroup barrier). `false` leaves them undefined: for
    /// kernels that write every workgroup word before reading it.
    pub zero_initialize_workgroup_memory: bool,
    /// The workgroups a multiprocessor (an SM; a compute unit) should hold
    /// at once, as CUDA's `__launch_bounds__(threads, min_blocks)`: the
    /// code generator limits the kernel's registers to fit them. `None`
    /// leaves the registers to the code generator (WGSL has no such
    /// hint), as does `Some(0)`. NVPTX writes `.minnctapersm`; AMDGPU asks
    /// for the waves per SIMD the workgroups need (`amdgpu-waves-per-eu`).
    pub min_resident_workgroups: Option<u32>,
}

impl Default for LowerOptions {
    fn default() -> Self {
        BoundsChecks::default().into()
    }
}

impl From<BoundsChecks> for LowerOptions {
    fn from(bounds: BoundsChecks) -> Self {
        LowerOptions {
            bounds,
            zero_initialize_workgroup_memory: true,
            min_resident_workgroups: None,
        }
    }
}

impl LowerOptions {
    /// Neither guarantee: no bounds checks and no zeroing, for kernels that
    /// prove every index in bounds and write every workgroup word before
    /// reading it.
    pub fn proven() -> Self {
        LowerOptions {
            bounds: BoundsChecks::Unchecked,
            zero_initialize_workgroup_memory: false,
            min_resident_workgroups: None,
        }
    }
}
