//! Demos built from wavekit primitives. The shaders are composed in the
//! build script (`build.rs`) and used through the typed bindings
//! `wgsl_to_wgpu` generates for them.

/// Typed bindings of `shaders/normalise.wgsl`, generated at build time.
#[allow(clippy::all, missing_docs, dead_code, unused)]
pub mod normalise {
    include!(concat!(env!("OUT_DIR"), "/normalise.rs"));
}
