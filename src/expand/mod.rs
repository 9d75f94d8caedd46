//! Expansion: from requested instances to WGSL text and a validated naga module.
//!
//! ```no_run
//! use wavekit::{Library, Target, Backend, SubgroupSize};
//! let library = Library::new(Target::new(Backend::Vulkan, SubgroupSize::fixed(32)?));
//! let expansion = library.expand_strs(&["all_true_tiled<3>", "shuffle<f32>"])?;
//! let module = expansion.module()?;
//! # Ok::<(), wavekit::Error>(())
//! ```

mod emulate;
mod instance;
mod render;
mod rewrite;
mod spec;
mod validate;

pub use instance::{Instance, demangle, mangle, mangle_spec};
pub use spec::{InstanceSpec, TemplateArg, parse_template_arg};
pub use validate::{ValidModule, validate_composed, validate_wgsl};

use std::collections::{BTreeSet, HashSet, VecDeque};

use crate::dtype::Dtype;
use crate::error::Error;
use crate::target::Target;

use render::Renderer;

/// The primitive library for one target.
#[derive(Clone, Debug)]
pub struct Library {
    target: Target,
}

impl Library {
    /// The library as expanded for `target`.
    pub fn new(target: Target) -> Self {
        Library { target }
    }

    /// The target instances are expanded for.
    pub fn target(&self) -> &Target {
        &self.target
    }

    /// Checks one request against the catalog and the target.
    pub fn resolve(&self, spec: &InstanceSpec) -> Result<Instance, Error> {
        Instance::resolve(spec, &self.target)
    }

    /// Expands requests given as text (`"reduce_add_tiled<f32, 3>"`).
    pub fn expand_strs(&self, specs: &[&str]) -> Result<Expansion, Error> {
        let specs = specs
            .iter()
            .map(|s| s.parse())
            .collect::<Result<Vec<InstanceSpec>, _>>()?;
        self.expand(&specs)
    }

    /// Expands the requested instances and every instance they use, each
    /// once, in request order (dependencies after their first user).
    pub fn expand(&self, specs: &[InstanceSpec]) -> Result<Expansion, Error> {
        let renderer = Renderer::new();
        let mut queue: VecDeque<InstanceSpec> = specs.iter().cloned().collect();
        let mut seen: HashSet<String> = HashSet::new();
        let mut instances = Vec::new();
        let mut functions = Vec::new();
        while let Some(spec) = queue.pop_front() {
            let instance = self.resolve(&spec)?;
            if !seen.insert(instance.mangled_name()) {
                continue;
            }
            let (text, deps) = renderer.render(&instance, &self.target)?;
            functions.push(text);
            queue.extend(deps);
            instances.push(instance);
        }
        let mut enables = BTreeSet::new();
        if instances
            .iter()
            .any(|i| i.dtype == Some(Dtype::F16) || i.value_dtype == Some(Dtype::F16))
        {
            enables.insert("f16");
        }
        let mut expansion = Expansion {
            target: self.target.clone(),
            enables,
            prelude: renderer.prelude(
                instances
                    .iter()
                    .any(|i| i.primitive.namespace == crate::catalog::Namespace::Block),
                &self.target,
            )?,
            shared: renderer.declarations(),
            functions,
            instances,
            lowered: None,
        };
        if self.target.is_emulated() {
            let directives = expansion.directives();
            let text = format!("{directives}{}", expansion.declarations());
            let lowered = emulate::lower(&text, &expansion.generic_stubs(), &self.target)?;
            expansion.lowered = Some(lowered[directives.len()..].to_string());
        }
        Ok(expansion)
    }
}

/// The WGSL of a set of instances.
#[derive(Clone, Debug)]
pub struct Expansion {
    target: Target,
    enables: BTreeSet<&'static str>,
    prelude: String,
    shared: Vec<String>,
    functions: Vec<String>,
    instances: Vec<Instance>,
    /// With emulated subgroups: the declarations with every subgroup
    /// builtin lowered to workgroup-memory helpers ([`emulate`]).
    lowered: Option<String>,
}

impl Expansion {
    /// The instances expanded, requested ones and their dependencies.
    pub fn instances(&self) -> &[Instance] {
        &self.instances
    }

    /// The target it was expanded for.
    pub fn target(&self) -> &Target {
        &self.target
    }

    /// `enable` extensions the functions need (`f16`). naga accepts these;
    /// browser WGSL also needs `enable subgroups;`, added by the emitters.
    pub fn enables(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.enables.iter().copied()
    }

    /// The directive lines (`enable f16;`), which must open a WGSL module.
    pub fn directives(&self) -> String {
        self.enables
            .iter()
            .map(|e| format!("enable {e};\n"))
            .collect()
    }

    /// Module-scope declarations and functions, without directives. With
    /// emulated subgroups, no subgroup builtin is left in them.
    pub fn declarations(&self) -> String {
        if let Some(lowered) = &self.lowered {
            return lowered.clone();
        }
        let mut out = self.prelude.trim_end().to_string();
        out.push('\n');
        for d in &self.shared {
            out.push('\n');
            out.push_str(d.trim());
            out.push('\n');
        }
        for f in &self.functions {
            out.push('\n');
            out.push_str(f.trim());
            out.push('\n');
        }
        out
    }

    /// A complete WGSL module: directives then declarations.
    pub fn wgsl(&self) -> String {
        format!("{}{}", self.directives(), self.declarations())
    }

    /// The expansion followed by `user_code` (an entry point, say), as one
    /// module: directives first, then `user_code`, then the library.
    pub fn wgsl_with(&self, user_code: &str) -> String {
        format!(
            "{}{}\n{}",
            self.directives(),
            user_code.trim_end(),
            self.declarations()
        )
    }

    /// Placeholder definitions of the user functions generic instances call
    /// (`combine()` of a user operator) and of the arrays block loads,
    /// stores and histograms name, so the library parses alone.
    fn generic_stubs(&self) -> String {
        let mut stubs = String::new();
        let mut seen = BTreeSet::new();
        for instance in &self.instances {
            // A histogram's counters: `bins` workgroup atomics.
            if let Some((array, bins)) = instance.counter_array()
                && seen.insert(array.to_string())
            {
                stubs.push_str(&format!(
                    "var<workgroup> {array}: array<atomic<u32>, {bins}>;\n"
                ));
            }
            let Some(t) = instance.dtype.map(Dtype::wgsl) else {
                continue;
            };
            if let (Some(function), Some(signature)) =
                (&instance.function, instance.primitive.function_signature())
                && seen.insert(function.clone())
            {
                // `fn(a: T, b: T) -> R` named, with a body returning `a`'s
                // type or a bool.
                let signature =
                    signature
                        .replace('T', t)
                        .replacen("fn", &format!("fn {function}"), 1);
                let body = if signature.ends_with("bool") {
                    "false"
                } else {
                    "a"
                };
                stubs.push_str(&format!("{signature} {{ return {body}; }}\n"));
            }
            if let (Some(array), Some(element)) = (&instance.array, instance.array_element())
                && seen.insert(array.clone())
            {
                stubs.push_str(&format!("var<private> {array}: array<{element}, 1>;\n"));
            }
        }
        stubs
    }

    /// Parses and validates the expansion alone.
    pub fn module(&self) -> Result<ValidModule, Error> {
        validate_wgsl(&self.wgsl(), "wavekit-expansion.wgsl", &self.target)
    }
}

impl Library {
    /// Every valid request of `primitive` on this target: each allowed dtype
    /// the target has, each `log2_size` in range, each lane count.
    pub fn specs_of(&self, primitive: &crate::catalog::Primitive) -> Vec<InstanceSpec> {
        use crate::catalog::Param;
        // Generic operators and block loads and stores name a function or
        // an array of the caller's module, so they have no stand-alone
        // requests.
        let generic = primitive
            .params
            .iter()
            .any(|p| matches!(p, Param::Function | Param::Array | Param::VectorArray));
        if generic || primitive.needs.is_some_and(|f| !self.target.scalars.has(f)) {
            return Vec::new();
        }
        let mut specs = vec![InstanceSpec::new(primitive.qualified_name(), [])];
        for param in primitive.params {
            let choices: Vec<TemplateArg> = match param {
                Param::Dtype | Param::ValueDtype => primitive
                    .dtypes
                    .iter()
                    .filter(|d| self.target.scalars.supports(**d))
                    .map(|d| TemplateArg::Dtype(*d))
                    .collect(),
                Param::Log2Size => (0..=self.target.subgroup_size.max_log2())
                    .map(TemplateArg::from)
                    .collect(),
                Param::Count { min, max } => (*min..=*max).map(TemplateArg::from).collect(),
                Param::BlockDim => {
                    crate::catalog::sample_block_dims(self.target.subgroup_size.max())
                        .into_iter()
                        .map(TemplateArg::from)
                        .collect()
                }
                Param::Function | Param::Array | Param::VectorArray => Vec::new(),
                Param::Const { samples, .. } => {
                    samples.iter().copied().map(TemplateArg::from).collect()
                }
            };
            specs = specs
                .into_iter()
                .flat_map(|spec| {
                    choices.iter().map(move |arg| {
                        let mut s = spec.clone();
                        s.args.push(arg.clone());
                        s
                    })
                })
                .collect();
        }
        // Relations between parameters (`B == 2^radix_bits`) prune the sweep.
        if primitive.check.is_some() {
            specs.retain(|spec| self.resolve(spec).is_ok());
        }
        specs
    }

    /// Every valid request of every catalog primitive on this target.
    pub fn all_specs(&self) -> Vec<InstanceSpec> {
        crate::catalog::primitives()
            .flat_map(|p| self.specs_of(p))
            .collect()
    }
}
