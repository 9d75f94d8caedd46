//! # wavekit
//!
//! Portable GPU subgroup (warp / wave) primitives as a WGSL template library.
//! Each primitive is a minijinja template under `templates/`, expanded per
//! target (subgroup size, dtype, `log2_size`) into straight-line WGSL,
//! validated by naga with the target's capabilities, and run through wgpu.
//!
//! ```no_run
//! use wavekit::{Backend, Library, SubgroupSize, Target};
//! let target = Target::new(Backend::Vulkan, SubgroupSize::fixed(32)?);
//! let expansion = Library::new(target).expand_strs(&["all_equal_tiled<f32, 3>"])?;
//! println!("{}", expansion.wgsl());
//! # Ok::<(), wavekit::Error>(())
//! ```
//!
//! ## Calling the generated functions
//!
//! Every instance becomes one WGSL function with a stable mangled name: the
//! prefix `wk_sg_`, the op name, then each template argument after `__`:
//!
//! | call (composer syntax)          | WGSL function                     |
//! |---------------------------------|-----------------------------------|
//! | `sg::ballot(p)`                 | `wk_sg_ballot(p)`                 |
//! | `sg::shuffle<f32>(v, lane)`     | `wk_sg_shuffle__f32(v, lane)`     |
//! | `sg::all_true_tiled<3>(p)`      | `wk_sg_all_true_tiled__3(p)`      |
//! | `sg::all_equal_tiled<i64, 2>(v)`| `wk_sg_all_equal_tiled__i64__2(v)`|
//! | `sg::ballot_first_n<8>(p)`      | `wk_sg_ballot_first_n__8(p)`      |
//!
//! WGSL has `subgroup_invocation_id` and `subgroup_size` only as entry-point
//! builtins, so an entry point that uses the library first calls
//! `wk_sg_init(subgroup_invocation_id, subgroup_size)`.
//!
//! Contract shared by every subgroup primitive: call it from uniform control
//! flow with every lane of the subgroup active.
//!
//! ## Features
//!
//! The default features are the catalog, expansion, the composer and the
//! emitters (naga, minijinja): no wgpu, LLVM, CUDA or command-line crate.
//! `wgpu` adds `Target::from_adapter`; `device` the device-wide algorithms
//! on the caller's wgpu device and buffers (`wavekit::device`); `runner` the host API
//! (`wavekit::runner::Gpu`) over wgpu; `native` the CUDA and HIP back ends
//! (`wavekit-native`, LLVM 19); `conformance` the conformance suite; `build`
//! `wavekit::emit::build` (wgsl_to_wgpu). The `wavekit` command is the
//! `wavekit-cli` package.

#[cfg(feature = "device")]
pub mod backend;
pub mod catalog;
pub mod compose;
#[cfg(feature = "conformance")]
pub mod conformance;
#[cfg(feature = "device")]
pub mod device;
pub mod dtype;
pub mod emit;
pub mod error;
pub mod expand;
#[cfg(feature = "runner")]
pub mod runner;
pub mod target;
#[cfg(feature = "runner")]
pub mod tune;

pub use dtype::{Dtype, ScalarFeature};
pub use error::Error;
pub use expand::{Expansion, Instance, InstanceSpec, Library, TemplateArg, ValidModule};
pub use target::{
    Backend, EMULATED_DEFAULT_SIZE, EMULATED_MAX_THREADS, Lowering, ScalarFeatures, Strategy,
    SubgroupChoice, SubgroupMode, SubgroupSize, Target,
};
