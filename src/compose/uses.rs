//! What a user's shader uses of the library: the instance each call site
//! names (its template arguments, with the shader's module-scope aliases
//! and constants substituted, resolved by the library) and the instances it
//! names directly by their mangled names, with what the checks after
//! validation need to know of them by the name the composed code calls
//! them by: the `B` of each block op, and which primitives need uniform
//! control flow.

use std::collections::HashMap;

use super::scan::{self, CallSite, SpanError};
use super::uniformity::{needs_uniform_control_flow, uniform_result};
use crate::error::Error;
use crate::expand::{Instance, InstanceSpec, Library, TemplateArg, demangle, parse_template_arg};

/// The instance `site` calls: its spec (`sg::op<args>` with `declared`,
/// the shader's aliases and constants by name, substituted for names among
/// the arguments) and the library's resolution of it. An error at the first
/// argument that is not a template argument, or at the call (at the op's
/// name for an unknown op) with the library's message.
pub(super) fn resolve(
    library: &Library,
    declared: &HashMap<String, TemplateArg>,
    site: &CallSite,
) -> Result<(InstanceSpec, Instance), SpanError> {
    let args = template_args(declared, site)?;
    let spec = InstanceSpec::new(format!("{}{}", site.namespace.qualifier(), site.op), args);
    let instance = library.resolve(&spec).map_err(|e| {
        let span = match e {
            Error::UnknownOp { .. } => site.op_span.clone(),
            _ => site.span.clone(),
        };
        SpanError {
            span,
            message: e.to_string(),
            label: "in this call".into(),
        }
    })?;
    Ok((spec, instance))
}

/// `site`'s template arguments, parsed in order, a name among `declared`
/// replaced by its declaration. An error at the first that does not parse.
fn template_args(
    declared: &HashMap<String, TemplateArg>,
    site: &CallSite,
) -> Result<Vec<TemplateArg>, SpanError> {
    site.args
        .iter()
        .map(|(arg, span)| {
            let parsed = parse_template_arg(arg).map(|parsed| match &parsed {
                TemplateArg::Name(name) => declared.get(name).cloned().unwrap_or(parsed),
                _ => parsed,
            });
            parsed.ok_or_else(|| SpanError {
                span: span.clone(),
                message: format!(
                    "`{arg}` is not a template argument: expected a dtype, a constant integer \
                     or a function name"
                ),
                label: "here".into(),
            })
        })
        .collect()
}

/// The library instances a shader uses, gathered call by call.
#[derive(Debug, Default)]
pub(super) struct Uses {
    /// The specs to expand, in the order they were met (repeats allowed).
    pub(super) specs: Vec<InstanceSpec>,
    /// The `B` of each block op by the name its calls use.
    pub(super) block_dims: HashMap<String, u32>,
    /// The names of the primitives that need uniform control flow, and
    /// whether their result is the same on every lane, for the uniformity
    /// check.
    pub(super) primitive_names: HashMap<String, bool>,
    /// The calls that name a user function `F`: each call's span and its
    /// instance, for `user_function::check`.
    pub(super) user_functions: Vec<(std::ops::Range<usize>, Instance)>,
}

impl Uses {
    /// Records a call of `instance` (resolved from `spec`) under `name`,
    /// the name the rewritten call uses.
    pub(super) fn record(&mut self, name: String, spec: InstanceSpec, instance: &Instance) {
        if let Some(b) = instance.block_dim {
            self.block_dims.insert(name.clone(), b);
        }
        if needs_uniform_control_flow(instance) {
            self.primitive_names.insert(name, uniform_result(instance));
        }
        self.specs.push(spec);
    }

    /// Records the mangled names `source` uses directly (`wk_sg_...`,
    /// `wk_blk_...`) that demangle to an instance the library resolves;
    /// others are left to naga to report.
    pub(super) fn record_mangled(&mut self, library: &Library, source: &str) {
        for (name, _) in scan::mangled_uses(source) {
            for prefix in ["wk_sg_", "wk_blk_"] {
                if let Some(spec) = demangle(prefix, &name)
                    && let Ok(instance) = library.resolve(&spec)
                {
                    self.specs.push(spec);
                    if needs_uniform_control_flow(&instance) {
                        self.primitive_names
                            .insert(name.clone(), uniform_result(&instance));
                    }
                }
            }
        }
    }

    /// Records the `B` of every block op among `instances` (the expansion,
    /// dependencies included) by its mangled name.
    pub(super) fn record_expanded(&mut self, instances: &[Instance]) {
        for instance in instances {
            if let Some(b) = instance.block_dim {
                self.block_dims.insert(instance.mangled_name(), b);
            }
        }
    }
}
