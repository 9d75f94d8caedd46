//! A catalog primitive bound to its template arguments and lowering.

use std::fmt;

use crate::catalog::{CheckArgs, Param, Primitive};
use crate::dtype::Dtype;
use crate::error::Error;
use crate::target::{Lowering, Target};

use super::spec::{InstanceSpec, TemplateArg};

/// A checked instance: the primitive, its template arguments and the
/// lowering the target's strategy picked.
#[derive(Clone, Debug)]
pub struct Instance {
    /// The catalog entry.
    pub primitive: &'static Primitive,
    /// `T`, if the op has one.
    pub dtype: Option<Dtype>,
    /// `V`, the value dtype of a key/value op.
    pub value_dtype: Option<Dtype>,
    /// `L`, if the op is tiled.
    pub log2_size: Option<u32>,
    /// `N`, if the op takes a lane count.
    pub count: Option<u32>,
    /// `B`, threads per workgroup, for block ops.
    pub block_dim: Option<u32>,
    /// Named compile-time constants (`radix_bits`), in parameter order.
    pub constants: Vec<(&'static str, u32)>,
    /// `F`, the user function of a generic operator.
    pub function: Option<String>,
    /// `A`, the user's array a block load or store reads or writes.
    pub array: Option<String>,
    /// The lowering used.
    pub lowering: Lowering,
}

impl Instance {
    /// Checks `spec` against the catalog and the target.
    pub fn resolve(spec: &InstanceSpec, target: &Target) -> Result<Instance, Error> {
        let primitive = crate::catalog::find(&spec.op).ok_or_else(|| Error::UnknownOp {
            name: spec.op.clone(),
            suggestion: crate::catalog::suggest(&spec.op),
        })?;
        if spec.args.len() != primitive.params.len() {
            return Err(Error::Arity {
                op: primitive.qualified_name(),
                signature: primitive.signature(),
                expected: primitive.params.len(),
                got: spec.args.len(),
            });
        }
        let mut instance = Instance {
            primitive,
            dtype: None,
            value_dtype: None,
            log2_size: None,
            count: None,
            block_dim: None,
            constants: Vec::new(),
            function: None,
            array: None,
            lowering: Lowering::Builtin,
        };
        for (index, (param, arg)) in primitive.params.iter().zip(&spec.args).enumerate() {
            let bad_arg = |expected: &str| Error::BadTemplateArg {
                op: primitive.name.to_string(),
                index: index + 1,
                expected: expected.to_string(),
                got: arg.to_string(),
            };
            match (param, arg.clone()) {
                (Param::Dtype | Param::ValueDtype, TemplateArg::Dtype(dtype)) => {
                    if !primitive.dtypes.contains(&dtype) {
                        return Err(Error::DtypeNotAllowed {
                            op: primitive.name.to_string(),
                            dtype,
                            allowed: primitive.dtype_list(),
                        });
                    }
                    if let Some(&feature) =
                        dtype.features().iter().find(|f| !target.scalars.has(**f))
                    {
                        return Err(Error::DtypeUnavailable {
                            op: primitive.name.to_string(),
                            dtype,
                            feature,
                            target: target.to_string(),
                        });
                    }
                    if *param == Param::Dtype {
                        instance.dtype = Some(dtype);
                    } else {
                        instance.value_dtype = Some(dtype);
                    }
                }
                (Param::Dtype | Param::ValueDtype, _) => return Err(bad_arg("a dtype")),
                (Param::Log2Size, TemplateArg::Int(l)) => {
                    let max = target.subgroup_size.max_log2();
                    if l < 0 || l > i64::from(max) {
                        return Err(Error::Log2OutOfRange {
                            op: primitive.name.to_string(),
                            log2_size: l,
                            max,
                            subgroup_size: target.subgroup_size.to_string(),
                        });
                    }
                    instance.log2_size = Some(l as u32);
                }
                (Param::Log2Size, _) => return Err(bad_arg("an integer log2_size")),
                (Param::Count { min, max }, TemplateArg::Int(n)) => {
                    if n < i64::from(*min) || n > i64::from(*max) {
                        return Err(Error::CountOutOfRange {
                            op: primitive.name.to_string(),
                            count: n,
                            min: *min,
                            max: *max,
                        });
                    }
                    instance.count = Some(n as u32);
                }
                (Param::Count { .. }, _) => return Err(bad_arg("an integer lane count")),
                (Param::BlockDim, TemplateArg::Int(b)) => {
                    if !(1..=1024).contains(&b) {
                        return Err(Error::Contract {
                            op: primitive.qualified_name(),
                            message: format!("block_dim {b} is out of range 1..=1024"),
                        });
                    }
                    instance.block_dim = Some(b as u32);
                }
                (Param::BlockDim, _) => return Err(bad_arg("an integer block_dim")),
                (Param::Function, TemplateArg::Name(name)) => instance.function = Some(name),
                (Param::Function, _) => {
                    return Err(bad_arg(&format!(
                        "the name of a WGSL function {}",
                        primitive.function_signature().unwrap_or_default()
                    )));
                }
                (Param::Array, TemplateArg::Name(name)) => instance.array = Some(name),
                (Param::Array, _) => {
                    return Err(bad_arg("the name of a module-scope WGSL array of T"));
                }
                (Param::VectorArray, TemplateArg::Name(name)) => instance.array = Some(name),
                (Param::VectorArray, _) => {
                    return Err(bad_arg("the name of a module-scope WGSL array of vec4<T>"));
                }
                (Param::Const { name, min, max, .. }, TemplateArg::Int(v)) => {
                    if v < i64::from(*min) || v > i64::from(*max) {
                        return Err(Error::Contract {
                            op: primitive.qualified_name(),
                            message: format!("{name} {v} is out of range {min}..={max}"),
                        });
                    }
                    instance.constants.push((name, v as u32));
                }
                (Param::Const { name, .. }, _) => {
                    return Err(bad_arg(&format!("an integer {name}")));
                }
            }
        }
        if let Some(feature) = primitive.needs.filter(|f| !target.scalars.has(*f)) {
            return Err(Error::FeatureUnavailable {
                op: primitive.name.to_string(),
                feature,
                target: target.to_string(),
            });
        }
        if let Some(check) = primitive.check {
            check(&instance.check_args(), target).map_err(|message| Error::Contract {
                op: primitive.qualified_name(),
                message,
            })?;
        }
        instance.lowering = target
            .strategy
            .lowering(primitive.name, primitive.lowerings)
            .unwrap_or(Lowering::Builtin);
        Ok(instance)
    }

    /// The template arguments, in call order.
    pub fn args(&self) -> Vec<TemplateArg> {
        self.primitive
            .params
            .iter()
            .map(|p| match p {
                Param::Dtype => TemplateArg::Dtype(self.dtype.expect("resolved dtype")),
                Param::ValueDtype => {
                    TemplateArg::Dtype(self.value_dtype.expect("resolved value dtype"))
                }
                Param::Log2Size => TemplateArg::from(self.log2_size.expect("resolved L")),
                Param::Count { .. } => TemplateArg::from(self.count.expect("resolved N")),
                Param::BlockDim => TemplateArg::from(self.block_dim.expect("resolved B")),
                Param::Function => TemplateArg::Name(self.function.clone().expect("resolved F")),
                Param::Array | Param::VectorArray => {
                    TemplateArg::Name(self.array.clone().expect("resolved A"))
                }
                Param::Const { name, .. } => TemplateArg::from(self.constant(name)),
            })
            .collect()
    }

    /// The value of the named compile-time constant.
    pub fn constant(&self, name: &str) -> u32 {
        self.check_args().constant(name)
    }

    /// `A` when it is the caller's workgroup counters (a block histogram's
    /// `var<workgroup> A: array<atomic<u32>, bins>`), with their number;
    /// `None` for an array of `T` (block loads and stores) or no array.
    pub fn counter_array(&self) -> Option<(&str, u32)> {
        let array = self.array.as_deref()?;
        (self.primitive.family == crate::catalog::Family::BlockHistogram)
            .then(|| (array, self.constant("bins")))
    }

    /// The element type of `A` as the caller declares it (`T`, or
    /// `vec4<T>` for the vectorized loads and stores), `T` spelled out;
    /// `None` for the histograms' counters ([`Instance::counter_array`])
    /// and for ops without an array.
    pub fn array_element(&self) -> Option<String> {
        let t = self.dtype?.wgsl();
        if self.primitive.params.contains(&Param::VectorArray) {
            Some(format!("vec4<{t}>"))
        } else if self.primitive.params.contains(&Param::Array) {
            Some(t.to_string())
        } else {
            None
        }
    }

    /// The resolved template arguments as the catalog's contract checks
    /// read them.
    pub fn check_args(&self) -> CheckArgs<'_> {
        CheckArgs {
            primitive: self.primitive,
            dtype: self.dtype,
            value_dtype: self.value_dtype,
            log2_size: self.log2_size,
            count: self.count,
            block_dim: self.block_dim,
            constants: &self.constants,
        }
    }

    /// The request this instance answers.
    pub fn spec(&self) -> InstanceSpec {
        InstanceSpec::new(self.primitive.qualified_name(), self.args())
    }

    /// The stable WGSL function name: see [`mangle`].
    pub fn mangled_name(&self) -> String {
        mangle(
            self.primitive.namespace.prefix(),
            self.primitive.name,
            &self.args(),
        )
    }
}

impl fmt::Display for Instance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.spec())
    }
}

/// Mangled WGSL name of an instance: the module prefix (`wk_sg_`), the op
/// name, then each template argument after a double underscore.
///
/// `reduce_add_tiled<f32, 3>` becomes `wk_sg_reduce_add_tiled__f32__3`,
/// `ballot` becomes `wk_sg_ballot`. Op names never contain `__`, so the
/// name splits back unambiguously.
pub fn mangle(prefix: &str, op: &str, args: &[TemplateArg]) -> String {
    let mut name = format!("{prefix}{op}");
    for arg in args {
        name.push_str("__");
        name.push_str(&arg.to_string());
    }
    name
}

/// The mangled name of a request, its namespace read from its qualifier.
pub fn mangle_spec(spec: &InstanceSpec) -> String {
    let (namespace, bare) = crate::catalog::split_namespace(&spec.op);
    mangle(namespace.prefix(), bare, &spec.args)
}

/// Splits a mangled name back into a spec, if it has the given prefix
/// (`wk_sg_`, `wk_blk_` or `wk_grid_`; block and grid ops come back
/// qualified, `block::` and `grid::`).
pub fn demangle(prefix: &str, name: &str) -> Option<InstanceSpec> {
    let rest = name.strip_prefix(prefix)?;
    let mut parts = rest.split("__");
    let bare = parts.next()?;
    let namespace = crate::catalog::Namespace::ALL
        .into_iter()
        .find(|n| n.prefix() == prefix)?;
    let op = format!("{}{bare}", namespace.qualifier());
    let args = parts
        .map(super::spec::parse_template_arg)
        .collect::<Option<Vec<_>>>()?;
    Some(InstanceSpec::new(op, args))
}
