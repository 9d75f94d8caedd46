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
mod prune;
mod scan;
mod uniformity;

use std::collections::HashMap;

use crate::catalog::{Family, Placement, Ret};
use crate::error::Error;
use crate::expand::{
    Instance, InstanceSpec, Library, TemplateArg, ValidModule, demangle, parse_template_arg,
};
use crate::target::Target;

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

    /// Composes `source` (named `file_name` in diagnostics).
    pub fn compose(&self, source: &str, file_name: &str) -> Result<Composition, Error> {
        let at = |e: SpanError| Error::Compose {
            rendered: diagnostic::render(source, file_name, e.span, &e.message, &e.label),
        };
        let imports = scan::imports(source).map_err(at)?;
        let sites = scan::call_sites(source, &imports).map_err(at)?;
        // Edited as bytes: every edit replaces a span by ASCII of the same
        // length, so offsets stay put and the text stays UTF-8.
        let mut text = source.as_bytes().to_vec();
        for import in &imports {
            text[import.span.clone()].fill(b' ');
        }
        let declared = aliases::declarations(source);
        let mut specs = Vec::new();
        let mut forwarders = String::new();
        // One forwarder per instance whose mangled name is longer than a
        // call site, named `wk` + a base-36 number and padded with spaces,
        // so names are unique at any number of calls.
        let mut forwarded: HashMap<String, String> = HashMap::new();
        // The `B` of each block op by the name its calls use.
        let mut block_dims: HashMap<String, u32> = HashMap::new();
        // The names the rewritten calls use, and whether their result is
        // the same on every lane, for the uniformity check.
        let mut primitive_names: HashMap<String, bool> = HashMap::new();
        for site in &sites {
            let args = site
                .args
                .iter()
                .map(|(arg, span)| {
                    let parsed = parse_template_arg(arg).map(|parsed| match &parsed {
                        TemplateArg::Name(name) => declared.get(name).cloned().unwrap_or(parsed),
                        _ => parsed,
                    });
                    parsed.ok_or_else(|| {
                        at(SpanError {
                            span: span.clone(),
                            message: format!(
                                "`{arg}` is not a template argument: expected a dtype, a constant \
                                 integer or a function name"
                            ),
                            label: "here".into(),
                        })
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            let spec =
                InstanceSpec::new(format!("{}{}", site.namespace.qualifier(), site.op), args);
            let instance = self.library.resolve(&spec).map_err(|e| {
                let span = match e {
                    Error::UnknownOp { .. } => site.op_span.clone(),
                    _ => site.span.clone(),
                };
                at(SpanError {
                    span,
                    message: e.to_string(),
                    label: "in this call".into(),
                })
            })?;
            let mangled = instance.mangled_name();
            let width = site.span.len();
            let name = if mangled.len() <= width {
                mangled
            } else {
                let count = forwarded.len();
                let name = forwarded
                    .entry(mangled)
                    .or_insert_with(|| {
                        let name = format!("wk{}", base36(count));
                        forwarders.push_str(&forwarder(&name, &instance));
                        name
                    })
                    .clone();
                if name.len() > width {
                    return Err(at(SpanError {
                        span: site.span.clone(),
                        message: format!(
                            "this call is too short to rewrite: write the mangled name `{}`",
                            instance.mangled_name()
                        ),
                        label: "in this call".into(),
                    }));
                }
                name
            };
            if let Some(b) = instance.block_dim {
                block_dims.insert(name.clone(), b);
            }
            if needs_uniform_control_flow(&instance) {
                primitive_names.insert(name.clone(), uniform_result(&instance));
            }
            text[site.span.clone()].copy_from_slice(format!("{name:width$}").as_bytes());
            specs.push(spec);
        }
        for (name, _) in scan::mangled_uses(source) {
            for prefix in ["wk_sg_", "wk_blk_"] {
                if let Some(spec) = demangle(prefix, &name)
                    && let Ok(instance) = self.library.resolve(&spec)
                {
                    specs.push(spec);
                    if needs_uniform_control_flow(&instance) {
                        primitive_names.insert(name.clone(), uniform_result(&instance));
                    }
                }
            }
        }
        let expansion = self.library.expand(&specs)?;
        let directives = expansion.directives();
        if !directives.is_empty() && !source.contains("enable f16") {
            let slot = imports
                .first()
                .filter(|im| im.span.len() >= directives.trim_end().len());
            match slot {
                Some(import) => {
                    let line = directives.trim_end().replace('\n', " ");
                    let start = import.span.start;
                    text[start..start + line.len()].copy_from_slice(line.as_bytes());
                }
                None => {
                    return Err(Error::Compose {
                        rendered: format!(
                            "error: the library needs `{}` at the top of `{file_name}`\n",
                            directives.trim_end()
                        ),
                    });
                }
            }
        }
        let text = String::from_utf8(text).expect("ASCII replaced whole spans");
        let user_len = text.len();
        let wgsl = format!("{text}\n{}\n{forwarders}", expansion.declarations());
        let emulated = self
            .target()
            .is_emulated()
            .then(|| self.target().subgroup_size.min());
        let module = crate::expand::validate_composed(
            &wgsl,
            source,
            user_len,
            file_name,
            self.target(),
            &|module| entry::insert_init_calls(module, emulated),
        )?;
        let module = if emulated.is_some() {
            module.rewritten(file_name, prune::dead_code)?
        } else {
            module
        };
        for instance in expansion.instances() {
            if let Some(b) = instance.block_dim {
                block_dims.insert(instance.mangled_name(), b);
            }
        }
        block_size::check(&module.module, source, &block_dims).map_err(at)?;
        if self.target().is_emulated() && !expansion.instances().is_empty() {
            let size = self.target().subgroup_size.min();
            emulation::check(&module.module, &module.info, source, user_len, size).map_err(at)?;
        }
        let found = uniformity::check(&module.module, source, &primitive_names);
        if self.deny_warnings
            && let Some(first) = found.first()
        {
            return Err(at(SpanError {
                span: first.span.clone(),
                message: format!("{} (a warning, denied)", first.message),
                label: first.label.clone(),
            }));
        }
        let warnings = found
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
            .collect();
        Ok(Composition {
            wgsl,
            user_len,
            module,
            instances: expansion.instances().to_vec(),
            warnings,
        })
    }
}

/// Whether `instance` exchanges data between lanes or threads, so that every
/// one of them must call it: not the per-lane values (lane and thread ids,
/// the subgroup size, lane masks), fences, or `elect` (which elects among
/// the lanes that call it).
fn needs_uniform_control_flow(instance: &Instance) -> bool {
    let primitive = instance.primitive;
    primitive.family != Family::LaneMask
        && !matches!(
            primitive.name,
            "invocation_id"
                | "group_size"
                | "log2_group_size"
                | "elect"
                | "mem_fence"
                | "thread_idx"
                | "global_thread_idx"
        )
}

/// Whether every lane of the subgroup gets the same result from `instance`.
fn uniform_result(instance: &Instance) -> bool {
    matches!(
        instance.primitive.placement,
        Placement::Subgroup | Placement::Block | Placement::Nothing
    )
}

fn base36(mut n: usize) -> String {
    let digits = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(digits[n % 36]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).expect("ascii")
}

/// `fn name(args) -> R { return mangled(args); }` for `instance`.
fn forwarder(name: &str, instance: &Instance) -> String {
    let t = instance.dtype.map_or("", |d| d.wgsl());
    let v = instance.value_dtype.map_or("", |d| d.wgsl());
    let params: Vec<(&str, String)> = instance
        .primitive
        .args
        .iter()
        .map(|a| {
            let (name, ty) = a.name_and_type();
            (name, ty.replace('T', t).replace('V', v))
        })
        .collect();
    let declared: Vec<String> = params.iter().map(|(n, ty)| format!("{n}: {ty}")).collect();
    let passed: Vec<&str> = params.iter().map(|(n, _)| *n).collect();
    let call = format!("{}({})", instance.mangled_name(), passed.join(", "));
    match instance.primitive.ret {
        Ret::Nothing => format!("fn {name}({}) {{\n    {call};\n}}\n", declared.join(", ")),
        ret => {
            let ty = match ret {
                Ret::KeyValue => format!("wk_sg_kv__{t}__{v}"),
                other => other.wgsl().replace('T', t),
            };
            format!(
                "fn {name}({}) -> {ty} {{\n    return {call};\n}}\n",
                declared.join(", ")
            )
        }
    }
}
