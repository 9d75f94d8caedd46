//! wavekit's native back ends.
//!
//! A validated `naga::Module` is lowered to LLVM IR with inkwell (LLVM 19):
//! [`lower`] is shared by every target, [`nvptx`] is the CUDA target layer
//! (PTX, vendor shortcuts), [`cuda`] dispatches PTX through cudarc's driver
//! API (loaded at run time, so nothing here needs CUDA to build), and
//! [`tools`] runs `ptxas` / `nvdisasm` for the static checks.

pub mod abi;
pub mod cuda;
pub mod error;
pub mod lower;
pub mod nvptx;
pub mod target;
pub mod tools;

pub use error::NativeError;
