//! The composer: a user's WGSL with `#import wavekit::subgroup as sg` /
//! `#import wavekit::block as blk` and calls such as
//! `sg::reduce_all_add<f32>(x)` becomes one validated naga module for a
//! target, with only the instances it uses.
//!
//! The user's text keeps every byte offset: import lines become blank
//! lines (or carry the `enable` directives the library needs), and each
//! call site is replaced by a name padded with spaces to the same length:
//! the mangled name, or, when that is longer than the call, a short
//! forwarding function (one per instance, `wk` and a base-36 number). The
//! library follows the user's code, and the init calls are added to the
//! entry points in the naga module. So naga's own diagnostics on the user's
//! code point at the user's lines and columns, and the composer's own errors
//! are rendered the same way.
//!
//! ```no_run
//! use wavekit::{Backend, SubgroupSize, Target};
//! use wavekit::compose::Composer;
//! let composer = Composer::new(Target::new(Backend::Vulkan, SubgroupSize::fixed(32)?));
//! let shader = "#import wavekit::subgroup as sg
//! @group(0) @binding(0) var<storage, read_write> data: array<f32>;
//! @compute @workgroup_size(64)
//! fn main(@builtin(global_invocation_id) id: vec3<u32>) {
//!     data[id.x] = sg::reduce_all_add<f32>(data[id.x]);
//! }";
//! let composed = composer.compose(shader, "sum.wgsl")?;
//! # Ok::<(), wavekit::Error>(())
//! ```

mod aliases;
mod block_size;
mod diagnostic;
mod emulation;
mod entry;
mod forward;
mod prune;
mod rewrite;
mod scan;
mod uniformity;
mod user_function;
mod uses;

use std::collections::HashMap;

use crate::error::Error;
use crate::expand::{Instance, Library, ValidModule};
use crate::target::Target;
use rewrite::Rewrite;
use scan::CallSite;
use uses::Uses;

pub use scan::SpanError;

/// Composes user shaders for one target.
#[derive(Clone, Debug)]
pub struct Composer {
    library: Library,
    deny_warnings: bool,
}

/// A composed shader.
#[derive(Debug)]
pub struct Composition {
    /// The composed WGSL: the user's code (same offsets), then the library.
    pub wgsl: String,
    /// Bytes of `wgsl` that are the user's code.
    pub user_len: usize,
    /// The validated module, init calls included.
    pub module: ValidModule,
    /// The instances used, dependencies included.
    pub instances: Vec<Instance>,
    /// Warnings, rendered like errors (`warning: ...`, the file, line and
    /// column, the line and a caret): calls of primitives under
    /// non-uniform control flow (`uniformity.rs` says what is found and
    /// what is not).
    pub warnings: Vec<String>,
}

impl Composer {
    /// A composer for `target`.
    pub fn new(target: Target) -> Self {
        Composer {
            library: Library::new(target),
            deny_warnings: false,
        }
    }

    /// The same composer, turning every warning into an error (the CLI's
    /// `--deny warnings`).
    pub fn deny_warnings(mut self, deny: bool) -> Self {
        self.deny_warnings = deny;
        self
    }

    /// The target it composes for.
    pub fn target(&self) -> &Target {
        self.library.target()
    }

    /// Composes `source` (named `file_name` in diagnostics): scans its
    /// imports and calls, rewrites them in place (offsets kept), expands the
    /// library for what it uses, validates the whole with the init calls
    /// inserted, then runs the composer's checks. Errors on the user's code
    /// are rendered at its lines and columns; warnings are errors when
    /// denied.
    pub fn compose(&self, source: &str, file_name: &str) -> Result<Composition, Error> {
        let at = |e: SpanError| Error::Compose {
            rendered: diagnostic::render(source, file_name, e.span, &e.message, &e.label),
        };
        let imports = scan::imports(source).map_err(at)?;
        let sites = scan::call_sites(source, &imports).map_err(at)?;
        let mut text = Rewrite::new(source, &imports);
        let mut uses = self.rewrite_calls(source, &sites, &mut text).map_err(at)?;
        uses.record_mangled(&self.library, source);
        let expansion = self.library.expand(&uses.specs)?;
        text.enable(&expansion.directives(), source, &imports, file_name)?;
        let (wgsl, user_len) = text.finish(&expansion.declarations());
        user_function::check(&wgsl, user_len, &uses.user_functions).map_err(at)?;
        let module = self.validate(&wgsl, source, user_len, file_name)?;
        uses.record_expanded(expansion.instances());
        self.check(
            &module,
            source,
            user_len,
            &uses.block_dims,
            expansion.instances(),
        )
        .map_err(at)?;
        let warnings = self
            .warnings(&module, source, file_name, &uses.primitive_names)
            .map_err(at)?;
        Ok(Composition {
            wgsl,
            user_len,
            module,
            instances: expansion.instances().to_vec(),
            warnings,
        })
    }

    /// Resolves every call of `sites` (found in `source`, in order) and
    /// rewrites it in `text`, recording what it uses. The first call that
    /// does not resolve or cannot be rewritten is the error, at its span.
    fn rewrite_calls(
        &self,
        source: &str,
        sites: &[CallSite],
        text: &mut Rewrite,
    ) -> Result<Uses, SpanError> {
        let declared = aliases::declarations(source);
        let mut uses = Uses::default();
        for site in sites {
            let (spec, instance) = uses::resolve(&self.library, &declared, site)?;
            let name = text.call(site, &instance)?;
            if instance.function.is_some() {
                uses.user_functions
                    .push((site.span.clone(), instance.clone()));
            }
            uses.record(name, spec, &instance);
        }
        Ok(uses)
    }

    /// The composed `wgsl` parsed and validated for the target, the init
    /// calls inserted into its compute entry points; with emulated
    /// subgroups, dead code pruned and the module validated again. naga's
    /// errors within the first `user_len` bytes (the user's code) are
    /// rendered against `source` under `file_name`.
    fn validate(
        &self,
        wgsl: &str,
        source: &str,
        user_len: usize,
        file_name: &str,
    ) -> Result<ValidModule, Error> {
        let emulated = self
            .target()
            .is_emulated()
            .then(|| self.target().subgroup_size.min());
        let module = crate::expand::validate_composed(
            wgsl,
            source,
            user_len,
            file_name,
            self.target(),
            &|module| entry::insert_init_calls(module, emulated),
        )?;
        if emulated.is_some() {
            module.rewritten(file_name, prune::dead_code)
        } else {
            Ok(module)
        }
    }

    /// The composer's errors on the validated `module`: every block op
    /// (`block_dims`, by the names its calls use) called from an entry
    /// point whose workgroup is its `B` threads; with emulated subgroups and
    /// any library `instances`, the emulation's contract. The first broken
    /// is the error, at a span of `source` (the first `user_len` bytes).
    fn check(
        &self,
        module: &ValidModule,
        source: &str,
        user_len: usize,
        block_dims: &HashMap<String, u32>,
        instances: &[Instance],
    ) -> Result<(), SpanError> {
        block_size::check(&module.module, source, block_dims)?;
        if self.target().is_emulated() && !instances.is_empty() {
            let size = self.target().subgroup_size.min();
            emulation::check(&module.module, &module.info, source, user_len, size)?;
        }
        Ok(())
    }

    /// The calls of `primitives` (names to uniform results) under
    /// non-uniform control flow in `module`, rendered as warnings against
    /// `source` under `file_name`, in source order. When warnings are
    /// denied, the first is the error instead, marked as a denied warning.
    fn warnings(
        &self,
        module: &ValidModule,
        source: &str,
        file_name: &str,
        primitives: &HashMap<String, bool>,
    ) -> Result<Vec<String>, SpanError> {
        let found = uniformity::check(&module.module, source, primitives);
        if self.deny_warnings
            && let Some(first) = found.first()
        {
            return Err(SpanError {
                span: first.span.clone(),
                message: format!("{} (a warning, denied)", first.message),
                label: first.label.clone(),
            });
        }
        Ok(found
            .iter()
            .map(|w| {
                diagnostic::render_as(
                    "warning",
                    source,
                    file_name,
                    w.span.clone(),
                    &w.message,
                    &w.label,
                )
            })
            .collect())
    }
}
