//! wavekit's native back ends.
//!
//! A validated `naga::Module` is lowered to LLVM IR with inkwell (LLVM 19):
//! [`lower`] is shared by every target; [`nvptx`] (PTX, CUDA's warp
//! instructions) and [`amdgpu`] (HSA code objects, wave32/wave64 lowering)
//! are the target layers; [`cuda`] dispatches PTX through cudarc's driver
//! API and [`hip`] code objects through the HIP runtime, both loaded at run
//! time so that nothing here needs a GPU stack to build; [`tools`] runs
//! `ptxas`, `nvdisasm`, `ld.lld` and `llvm-objdump` for the static checks.

pub mod abi;
pub mod amdgpu;
pub mod cuda;
pub mod error;
pub mod hip;
pub mod lower;
pub mod nvptx;
pub mod target;
pub mod tools;

pub use error::NativeError;
