//! Build-script integration: compose a shader that uses wavekit imports for
//! a target and generate typed wgpu bindings for it with `wgsl_to_wgpu`
//! (bind groups, pipelines, `encase`-derived host structs).
//!
//! ```no_run
//! // build.rs of a crate with `wavekit = { features = ["build"] }` as a build-dependency
//! use wavekit::{Backend, SubgroupSize, Target};
//! let target = Target::new(Backend::Vulkan, SubgroupSize::range(4, 128).unwrap());
//! wavekit::emit::build::shader("shaders/scan.wgsl", &target).unwrap();
//! // src/lib.rs: include!(concat!(env!("OUT_DIR"), "/scan.rs"));
//! ```

use std::path::{Path, PathBuf};

use super::{Emitted, Language, emit};
use crate::compose::Composer;
use crate::error::Error;
use crate::target::Target;

/// Composes `shader` for `target`, writes the composed WGSL (init calls
/// included, written back by naga) and its bindings to `$OUT_DIR/<stem>.wgsl`
/// and `$OUT_DIR/<stem>.rs`, and tells cargo to rerun when the shader
/// changes. Returns the path of the bindings.
pub fn shader(shader: impl AsRef<Path>, target: &Target) -> Result<PathBuf, Error> {
    let out_dir = std::env::var_os("OUT_DIR")
        .map(PathBuf::from)
        .ok_or_else(|| {
            Error::Usage("wavekit::emit::build::shader runs in a build script (no OUT_DIR)".into())
        })?;
    shader_to(shader.as_ref(), target, &out_dir)
}

/// [`shader`] with an explicit output directory.
pub fn shader_to(shader: &Path, target: &Target, out_dir: &Path) -> Result<PathBuf, Error> {
    let io = |what: &Path, e: std::io::Error| Error::Usage(format!("{}: {e}", what.display()));
    println!("cargo:rerun-if-changed={}", shader.display());
    let source = std::fs::read_to_string(shader).map_err(|e| io(shader, e))?;
    let composed = Composer::new(target.clone()).compose(&source, &shader.display().to_string())?;
    let Emitted::Text(wgsl) = emit(&composed.module, Language::Wgsl, None)? else {
        unreachable!("WGSL is text");
    };
    let stem = shader
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or_else(|| Error::Usage(format!("{}: no file name", shader.display())))?;
    let wgsl_path = out_dir.join(format!("{stem}.wgsl"));
    std::fs::write(&wgsl_path, &wgsl).map_err(|e| io(&wgsl_path, e))?;
    let options = wgsl_to_wgpu::WriteOptions {
        derive_encase_host_shareable: true,
        ..Default::default()
    };
    let bindings = wgsl_to_wgpu::create_shader_module(&wgsl, &format!("{stem}.wgsl"), options)
        .map_err(|e| Error::Usage(format!("wgsl_to_wgpu on {}: {e:?}", shader.display())))?;
    let rs_path = out_dir.join(format!("{stem}.rs"));
    std::fs::write(&rs_path, bindings).map_err(|e| io(&rs_path, e))?;
    Ok(rs_path)
}
