//! Every output form of a validated module or of the library itself:
//!
//! - [`emit`]: one module in a shading language naga writes (SPIR-V, MSL,
//!   HLSL, GLSL, WGSL in naga's dialect or the browser's) — `language.rs`;
//! - [`snippets`]: the pre-expanded snippet files under `wgsl/`;
//! - [`export`]: the library as a module for other shader composers
//!   (naga_oil);
//! - `build` (feature `build`): a composed shader and its typed wgpu
//!   bindings, from a build script;
//! - `native` (feature `native`): PTX for CUDA and AMDGPU code objects for
//!   HIP, through `wavekit-native` (the CLI's `wavekit emit --lang
//!   ptx|hsaco`).

#[cfg(feature = "build")]
pub mod build;
pub mod export;
mod language;
#[cfg(feature = "native")]
pub mod native;
pub mod snippets;

pub use language::{Emitted, Language, emit};
