//! wavekit's native back ends.
//!
//! A validated `naga::Module` is lowered to LLVM IR with inkwell (LLVM 19):
//! [`lower`] is shared by every target; [`nvptx`] (PTX, CUDA's warp
//! instructions) and [`amdgpu`] (HSA code objects, wave32/wave64 lowering)
//! are the target layers. [`driver`] is the seam to a GPU runtime: launches,
//! timing, resident buffers and programs are written once over its
//! [`driver::Driver`] trait, which [`cuda`] implements with cudarc's driver
//! API (PTX) and [`hip`] with the HIP runtime (code objects), both loaded
//! at run time so that nothing here needs a GPU stack to build; [`abi`] is
//! the kernel ABI between them. [`tools`] runs `ptxas`, `nvdisasm`,
//! `ld.lld` and `llvm-objdump` for the static checks.

pub mod abi;
pub mod amdgpu;
pub mod cuda;
pub mod driver;
pub mod error;
pub mod hip;
pub mod lower;
pub mod nvptx;
pub mod target;
pub mod tools;

/// The cudarc these kernels are launched with: callers name its types
/// (contexts, streams, device memory) through this re-export, so theirs and
/// ours are the same version.
pub use cudarc;
pub use error::NativeError;
pub use lower::{BoundsChecks, LowerOptions};
