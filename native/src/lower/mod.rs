//! naga IR → LLVM IR, shared by every native target.
//!
//! Every naga function becomes an internal, always-inlined LLVM function
//! whose leading parameters are the *frame*: a pointer to the invocation's
//! private variables, then each buffer binding's pointer and byte length.
//! The entry point is wrapped in a kernel (see [`crate::abi`]) that builds
//! the frame, the compute built-ins, zeroes workgroup memory (unless
//! [`LowerOptions`] say the kernel needs no zeroing), and calls it.
//!
//! Memory follows naga's layout (struct member offsets, array strides)
//! exactly: pointers are byte addresses and loads and stores walk the naga
//! type, so buffers have the same bytes as on wgpu. Indices are clamped as
//! wgpu's are ([`BoundsChecks`], `bounds.rs`) unless the caller opts out.

mod bounds;
mod expression;
mod function;
mod loops;
mod math;
mod memory;
mod options;
mod subgroup;
pub mod types;

use std::collections::{BTreeMap, HashMap, HashSet};

use inkwell::AddressSpace;
use inkwell::attributes::AttributeLoc;
use inkwell::context::Context;
use inkwell::module::{Linkage, Module};
use inkwell::types::BasicMetadataTypeEnum;
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum, FunctionValue, PointerValue};
use naga::valid::ModuleInfo;
use naga::{AddressSpace as Space, Handle};

use crate::abi::{BufferParam, KernelAbi};
use crate::error::NativeError;
use crate::target::{Cx, Dim, TargetLayer, llvm_error};

pub use bounds::BoundsChecks;
pub use function::FunctionLowerer;
pub use options::LowerOptions;

/// Where a module's WGSL came from, for error locations.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    /// File name shown in messages.
    pub name: &'a str,
    /// The WGSL text the module's spans point into.
    pub text: &'a str,
}

/// Module-wide state of one lowering.
pub struct ModuleLowerer<'a, 'ctx> {
    pub(crate) context: &'ctx Context,
    pub(crate) module: &'a Module<'ctx>,
    pub(crate) kernel_name: &'a str,
    pub(crate) naga: &'a naga::Module,
    pub(crate) info: &'a ModuleInfo,
    pub(crate) layouter: naga::proc::Layouter,
    pub(crate) target: &'a dyn TargetLayer,
    pub(crate) source: Option<Source<'a>>,
    /// Buffer bindings in (group, binding) order.
    pub(crate) resources: Vec<Handle<naga::GlobalVariable>>,
    /// Byte offset of each private global in the private block.
    pub(crate) private_offsets: BTreeMap<Handle<naga::GlobalVariable>, u32>,
    pub(crate) private_size: u32,
    /// Ordered, so that the generated IR does not depend on hashing.
    pub(crate) workgroup: BTreeMap<Handle<naga::GlobalVariable>, WorkgroupVar<'ctx>>,
    pub(crate) functions: HashMap<Handle<naga::Function>, FunctionValue<'ctx>>,
    pub(crate) lane_mask: u32,
    /// Index of the entry point being lowered.
    pub(crate) entry_point: usize,
    /// What out-of-bounds indices do.
    pub(crate) bounds: BoundsChecks,
    /// Whether the kernel zeroes its workgroup memory first.
    pub(crate) zero_workgroup: bool,
    /// [`LowerOptions::min_resident_workgroups`].
    pub(crate) min_resident: Option<u32>,
}

/// One kernel to lower: an entry point of a validated module.
#[derive(Clone, Copy)]
pub struct KernelRequest<'a> {
    /// The validated module.
    pub module: &'a naga::Module,
    /// Its analysis.
    pub info: &'a ModuleInfo,
    /// The entry point to lower (a compute shader).
    pub entry: &'a str,
    /// The kernel's name (unique within the LLVM module).
    pub name: &'a str,
    /// The WGSL, for error locations.
    pub source: Option<Source<'a>>,
}

/// Lowers `request` into `module` with `options` (bounds checks and
/// workgroup zeroing; a [`BoundsChecks`] converts); returns the kernel's
/// ABI. Several kernels may share one LLVM module (their functions
/// get unique names).
pub fn lower_entry_point<'ctx>(
    context: &'ctx Context,
    module: &Module<'ctx>,
    request: &KernelRequest<'_>,
    target: &dyn TargetLayer,
    options: impl Into<LowerOptions>,
) -> Result<KernelAbi, NativeError> {
    let options = options.into();
    let KernelRequest {
        module: naga,
        info,
        entry,
        name: kernel_name,
        source,
    } = *request;
    let (ep_index, ep) = naga
        .entry_points
        .iter()
        .enumerate()
        .find(|(_, ep)| ep.name == entry)
        .ok_or_else(|| NativeError::Abi(format!("the module has no entry point `{entry}`")))?;
    if ep.stage != naga::ShaderStage::Compute {
        return Err(NativeError::Abi(format!(
            "`{entry}` is a {:?} entry point; native back ends run compute shaders",
            ep.stage
        )));
    }
    let mut layouter = naga::proc::Layouter::default();
    layouter
        .update(naga.to_ctx())
        .map_err(|e| NativeError::Abi(format!("layout: {e}")))?;
    let threads: u32 = ep.workgroup_size.iter().product();
    let lane_mask = if threads.is_multiple_of(target.subgroup_size()) {
        u32::MAX
    } else {
        0
    };
    let mut lowerer = ModuleLowerer {
        context,
        module,
        kernel_name,
        naga,
        info,
        layouter,
        target,
        source,
        resources: Vec::new(),
        private_offsets: BTreeMap::new(),
        private_size: 0,
        workgroup: BTreeMap::new(),
        functions: HashMap::new(),
        lane_mask,
        entry_point: ep_index,
        bounds: options.bounds,
        zero_workgroup: options.zero_initialize_workgroup_memory,
        min_resident: options.min_resident_workgroups.filter(|&n| n > 0),
    };
    let abi = lowerer.declare_globals(ep.workgroup_size)?;
    let ep_info = info.get_entry_point(ep_index);
    for handle in lowerer.reachable_functions(&ep.function) {
        let fn_info = &info[handle];
        let function = &naga.functions[handle];
        let name = format!(
            "{kernel_name}.{}",
            function.name.as_deref().unwrap_or("anonymous")
        );
        let value = FunctionLowerer::lower(&lowerer, function, fn_info, &name)?;
        lowerer.functions.insert(handle, value);
    }
    let body = FunctionLowerer::lower(
        &lowerer,
        &ep.function,
        ep_info,
        &format!("{kernel_name}.entry"),
    )?;
    lowerer.build_kernel(ep, body)?;
    module
        .verify()
        .map_err(|e| NativeError::Llvm(format!("the generated IR does not verify: {e}")))?;
    Ok(abi)
}

/// A workgroup variable: where it starts, and its size in words.
#[derive(Clone, Copy)]
pub(crate) struct WorkgroupVar<'ctx> {
    pub(crate) pointer: PointerValue<'ctx>,
    pub(crate) words: u32,
}

impl<'a, 'ctx> ModuleLowerer<'a, 'ctx> {
    /// Lays out buffers, private and workgroup variables; returns the ABI.
    fn declare_globals(&mut self, workgroup_size: [u32; 3]) -> Result<KernelAbi, NativeError> {
        let mut resources: Vec<_> = self
            .naga
            .global_variables
            .iter()
            .filter(|(_, g)| matches!(g.space, Space::Storage { .. } | Space::Uniform))
            .collect();
        resources.sort_by_key(|(_, g)| g.binding.as_ref().map(|b| (b.group, b.binding)));
        let mut params = Vec::new();
        for (handle, global) in &resources {
            let binding = global
                .binding
                .as_ref()
                .ok_or_else(|| NativeError::Abi("a buffer without @group/@binding".into()))?;
            let inner = &self.naga.types[global.ty].inner;
            let (fixed_size, runtime_stride) = runtime_array_shape(inner, self.naga);
            params.push(BufferParam {
                group: binding.group,
                binding: binding.binding,
                name: global.name.clone(),
                writable: matches!(global.space, Space::Storage { access } if access.contains(naga::StorageAccess::STORE)),
                uniform: global.space == Space::Uniform,
                fixed_size,
                runtime_stride,
            });
            self.resources.push(*handle);
        }
        let mut workgroup = Vec::new();
        for (handle, global) in self.naga.global_variables.iter() {
            let layout = &self.layouter[global.ty];
            match global.space {
                Space::Private => {
                    let offset = layout.alignment.round_up(self.private_size);
                    self.private_offsets.insert(handle, offset);
                    self.private_size = offset + layout.size;
                }
                Space::WorkGroup => workgroup.push((handle, global)),
                Space::Storage { .. } | Space::Uniform => {}
                other => {
                    return Err(NativeError::Unsupported {
                        construct: format!("globals in the {other:?} address space"),
                        location: self.span_location(self.naga.global_variables.get_span(handle)),
                    });
                }
            }
        }
        let dynamic_workgroup_bytes = self.declare_workgroup(&workgroup);
        Ok(KernelAbi {
            buffers: params,
            workgroup_size,
            subgroup_size: self.target.subgroup_size(),
            dynamic_workgroup_bytes,
        })
    }

    /// Places the workgroup variables: each its own static global, unless
    /// those the entry point uses exceed the target's static limit; then
    /// those are laid out in one dynamic workgroup array (CUDA's `extern
    /// __shared__`), whose size this returns (else 0).
    fn declare_workgroup(
        &mut self,
        globals: &[(Handle<naga::GlobalVariable>, &naga::GlobalVariable)],
    ) -> u32 {
        let ep_info = self.info.get_entry_point(self.entry_point);
        // Each variable's bytes (whole words, at least one), alignment and,
        // where the entry point uses it, offset in the dynamic layout.
        let mut end = 0u32;
        let placed: Vec<_> = globals
            .iter()
            .map(|&(handle, global)| {
                let layout = &self.layouter[global.ty];
                let bytes = layout.alignment.round_up(layout.size.max(4));
                let align = layout.alignment.round_up(1).max(4);
                let offset = (!ep_info[handle].is_empty()).then(|| {
                    let offset = end.next_multiple_of(align);
                    end = offset + bytes;
                    offset
                });
                (handle, global, bytes, align, offset)
            })
            .collect();
        let space = AddressSpace::from(self.target.workgroup_space());
        let i8t = self.context.i8_type();
        let base = self
            .target
            .static_workgroup_limit()
            .is_some_and(|limit| end > limit)
            .then(|| {
                // An external symbol keeps its name in PTX, where `.` may
                // not start a part of it.
                let kernel: String = self
                    .kernel_name
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                    .collect();
                let base = self.module.add_global(
                    i8t.array_type(0),
                    Some(space),
                    &format!("{kernel}_dynamic_workgroup"),
                );
                base.set_linkage(Linkage::External);
                base.set_alignment(16);
                base
            });
        for (handle, global, bytes, align, offset) in placed {
            let pointer = match (base, offset) {
                (Some(base), Some(offset)) => {
                    let at = self.context.i64_type().const_int(u64::from(offset), false);
                    // SAFETY: the offset is within the launch's dynamic
                    // workgroup memory (`end` bytes).
                    unsafe { base.as_pointer_value().const_gep(i8t, &[at]) }
                }
                _ => {
                    let ty = self.context.i32_type().array_type(bytes / 4);
                    let value = self.module.add_global(
                        ty,
                        Some(space),
                        &format!(
                            "{}.{}",
                            self.kernel_name,
                            global.name.as_deref().unwrap_or("workgroup")
                        ),
                    );
                    value.set_linkage(Linkage::Internal);
                    value.set_initializer(&ty.get_undef());
                    value.set_alignment(align);
                    value.as_pointer_value()
                }
            };
            self.workgroup.insert(
                handle,
                WorkgroupVar {
                    pointer,
                    words: bytes / 4,
                },
            );
        }
        base.map_or(0, |_| end.next_multiple_of(16))
    }

    /// Functions the entry point calls, directly or not, callees first.
    fn reachable_functions(&self, entry: &naga::Function) -> Vec<Handle<naga::Function>> {
        fn calls(block: &naga::Block, out: &mut Vec<Handle<naga::Function>>) {
            for statement in block.iter() {
                match statement {
                    naga::Statement::Call { function, .. } => out.push(*function),
                    naga::Statement::Block(b) => calls(b, out),
                    naga::Statement::If { accept, reject, .. } => {
                        calls(accept, out);
                        calls(reject, out);
                    }
                    naga::Statement::Switch { cases, .. } => {
                        cases.iter().for_each(|c| calls(&c.body, out))
                    }
                    naga::Statement::Loop {
                        body, continuing, ..
                    } => {
                        calls(body, out);
                        calls(continuing, out);
                    }
                    _ => {}
                }
            }
        }
        let mut seen = HashSet::new();
        let mut stack = Vec::new();
        calls(&entry.body, &mut stack);
        while let Some(h) = stack.pop() {
            if seen.insert(h) {
                calls(&self.naga.functions[h].body, &mut stack);
            }
        }
        // naga's arena has callees before callers.
        self.naga
            .functions
            .iter()
            .map(|(h, _)| h)
            .filter(|h| seen.contains(h))
            .collect()
    }

    /// The frame parameters every lowered function starts with.
    pub(crate) fn frame_param_types(&self) -> Vec<BasicMetadataTypeEnum<'ctx>> {
        let mut params: Vec<BasicMetadataTypeEnum> = vec![
            self.context
                .ptr_type(AddressSpace::from(self.target.private_space()))
                .into(),
        ];
        for _ in &self.resources {
            params.push(
                self.context
                    .ptr_type(AddressSpace::from(self.target.global_space()))
                    .into(),
            );
        }
        for _ in &self.resources {
            params.push(self.context.i32_type().into());
        }
        params
    }

    /// `file:line:col` of a span, or `fallback` when there is no source.
    pub(crate) fn span_location(&self, span: naga::Span) -> String {
        match self.source {
            Some(source)
                if span.is_defined()
                    && (span.to_range().map(|r| r.end).unwrap_or(0) <= source.text.len()) =>
            {
                let loc = span.location(source.text);
                format!("{}:{}:{}", source.name, loc.line_number, loc.line_position)
            }
            Some(source) => source.name.to_string(),
            None => "<module>".to_string(),
        }
    }

    /// The kernel: ABI parameters in, frame and built-ins built, entry called.
    fn build_kernel(
        &self,
        ep: &naga::EntryPoint,
        body: FunctionValue<'ctx>,
    ) -> Result<(), NativeError> {
        let context = self.context;
        let global_ptr = context.ptr_type(AddressSpace::from(self.target.global_space()));
        let mut params: Vec<BasicMetadataTypeEnum> = Vec::new();
        for _ in &self.resources {
            params.push(global_ptr.into());
            params.push(context.i32_type().into());
        }
        let kernel = self.module.add_function(
            self.kernel_name,
            context.void_type().fn_type(&params, false),
            None,
        );
        // Every buffer address is aligned (the ABI's BUFFER_ALIGNMENT):
        // LLVM's alignment inference then lets the load-store vectorizer
        // join a thread's consecutive words into vector loads.
        let align = inkwell::attributes::Attribute::get_named_enum_kind_id("align");
        for i in 0..self.resources.len() {
            kernel.add_attribute(
                AttributeLoc::Param(2 * i as u32),
                context.create_enum_attribute(align, u64::from(crate::abi::BUFFER_ALIGNMENT)),
            );
        }
        self.target.declare_kernel(
            context,
            self.module,
            kernel,
            ep.workgroup_size,
            self.min_resident,
        );
        let builder = context.create_builder();
        let entry = context.append_basic_block(kernel, "entry");
        builder.position_at_end(entry);
        let cx = Cx {
            context,
            module: self.module,
            builder: &builder,
            lane_mask: self.lane_mask,
        };
        let i32t = context.i32_type();

        // The private block, initialised.
        let private_ty = i32t.array_type(self.private_size.div_ceil(4).max(1));
        let private = builder
            .build_alloca(private_ty, "private")
            .map_err(llvm_error)?;
        let init = FunctionLowerer::for_kernel(self, kernel, &builder, private);
        for (handle, offset) in &self.private_offsets {
            let global = &self.naga.global_variables[*handle];
            let inner = &self.naga.types[global.ty].inner;
            let ptr = init.byte_offset(private, i32t.const_int(*offset as u64, false))?;
            let value = match global.init {
                Some(expr) => init.const_expression(expr)?,
                None => types::value_type(context, &self.naga.types, inner)?.const_zero(),
            };
            init.store_typed(ptr, inner, value)?;
        }

        // Built-ins.
        let [wx, wy, wz] = ep.workgroup_size;
        let mut local = Vec::new();
        let mut group = Vec::new();
        let mut groups = Vec::new();
        for dim in Dim::ALL {
            local.push(self.target.local_id(&cx, dim)?);
            group.push(self.target.group_id(&cx, dim)?);
            groups.push(self.target.num_groups(&cx, dim)?);
        }
        let size = [wx, wy, wz];
        let global_id: Vec<_> = (0..3)
            .map(|i| {
                let base = builder
                    .build_int_mul(group[i], i32t.const_int(size[i] as u64, false), "")
                    .map_err(llvm_error)?;
                builder
                    .build_int_add(base, local[i], "")
                    .map_err(llvm_error)
            })
            .collect::<Result<_, _>>()?;
        let local_index = {
            let zy = builder
                .build_int_mul(local[2], i32t.const_int(wy as u64, false), "")
                .map_err(llvm_error)?;
            let zyy = builder
                .build_int_add(zy, local[1], "")
                .map_err(llvm_error)?;
            let zyx = builder
                .build_int_mul(zyy, i32t.const_int(wx as u64, false), "")
                .map_err(llvm_error)?;
            builder
                .build_int_add(zyx, local[0], "")
                .map_err(llvm_error)?
        };
        let lanes = self.target.subgroup_size();
        let builtins = Builtins {
            global_id: vec3(context, &builder, &global_id)?,
            local_id: vec3(context, &builder, &local)?,
            group_id: vec3(context, &builder, &group)?,
            num_groups: vec3(context, &builder, &groups)?,
            local_index,
            subgroup_size: i32t.const_int(lanes as u64, false),
            lane: self.target.lane_id(&cx)?,
            subgroup_id: builder
                .build_int_unsigned_div(local_index, i32t.const_int(lanes as u64, false), "")
                .map_err(llvm_error)?,
            num_subgroups: i32t.const_int((wx * wy * wz).div_ceil(lanes) as u64, false),
        };

        // Workgroup memory starts zeroed (WGSL), spread over the workgroup,
        // unless the caller's options say the kernel needs no zeroing.
        let ep_info = self.info.get_entry_point(self.entry_point);
        let used: Vec<_> = self
            .workgroup
            .iter()
            .filter(|(handle, _)| self.zero_workgroup && !ep_info[**handle].is_empty())
            .map(|(_, var)| *var)
            .collect();
        if !used.is_empty() {
            for var in &used {
                init.zero_words_strided(var.pointer, var.words, local_index, wx * wy * wz)?;
            }
            builder.position_at_end(init.builder.get_insert_block().expect("positioned"));
            self.target.workgroup_barrier(&cx)?;
        }

        // The call: frame, then the entry point's arguments.
        let mut args: Vec<BasicMetadataValueEnum> = vec![private.into()];
        for i in 0..self.resources.len() {
            args.push(
                kernel
                    .get_nth_param(2 * i as u32)
                    .expect("pointer param")
                    .into(),
            );
        }
        for i in 0..self.resources.len() {
            args.push(
                kernel
                    .get_nth_param(2 * i as u32 + 1)
                    .expect("length param")
                    .into(),
            );
        }
        for argument in &ep.function.arguments {
            let value = self.builtin_argument(argument, &builtins, &builder)?;
            args.push(value.into());
        }
        builder.build_call(body, &args, "").map_err(llvm_error)?;
        builder.build_return(None).map_err(llvm_error)?;
        Ok(())
    }

    fn builtin_argument(
        &self,
        argument: &naga::FunctionArgument,
        builtins: &Builtins<'ctx>,
        builder: &inkwell::builder::Builder<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        match (&argument.binding, &self.naga.types[argument.ty].inner) {
            (Some(naga::Binding::BuiltIn(b)), _) => builtins.get(*b),
            (None, naga::TypeInner::Struct { members, .. }) => {
                let ty = types::value_type(
                    self.context,
                    &self.naga.types,
                    &self.naga.types[argument.ty].inner,
                )?
                .into_struct_type();
                let mut value = ty.get_undef();
                for (i, member) in members.iter().enumerate() {
                    let Some(naga::Binding::BuiltIn(b)) = member.binding else {
                        return Err(NativeError::Abi(
                            "entry point struct members must be built-ins".into(),
                        ));
                    };
                    value = builder
                        .build_insert_value(value, builtins.get(b)?, i as u32, "")
                        .map_err(llvm_error)?
                        .into_struct_value();
                }
                Ok(value.into())
            }
            _ => Err(NativeError::Abi(
                "compute entry point arguments must be built-ins".into(),
            )),
        }
    }
}

/// The compute built-ins of one invocation.
struct Builtins<'ctx> {
    global_id: BasicValueEnum<'ctx>,
    local_id: BasicValueEnum<'ctx>,
    group_id: BasicValueEnum<'ctx>,
    num_groups: BasicValueEnum<'ctx>,
    local_index: inkwell::values::IntValue<'ctx>,
    subgroup_size: inkwell::values::IntValue<'ctx>,
    lane: inkwell::values::IntValue<'ctx>,
    subgroup_id: inkwell::values::IntValue<'ctx>,
    num_subgroups: inkwell::values::IntValue<'ctx>,
}

impl<'ctx> Builtins<'ctx> {
    fn get(&self, builtin: naga::BuiltIn) -> Result<BasicValueEnum<'ctx>, NativeError> {
        use naga::BuiltIn as B;
        Ok(match builtin {
            B::GlobalInvocationId => self.global_id,
            B::LocalInvocationId => self.local_id,
            B::WorkGroupId => self.group_id,
            B::NumWorkGroups => self.num_groups,
            B::LocalInvocationIndex => self.local_index.into(),
            B::SubgroupSize => self.subgroup_size.into(),
            B::SubgroupInvocationId => self.lane.into(),
            B::SubgroupId => self.subgroup_id.into(),
            B::NumSubgroups => self.num_subgroups.into(),
            other => {
                return Err(NativeError::Unsupported {
                    construct: format!("the built-in {other:?}"),
                    location: "the entry point's arguments".into(),
                });
            }
        })
    }
}

fn vec3<'ctx>(
    context: &'ctx Context,
    builder: &inkwell::builder::Builder<'ctx>,
    parts: &[inkwell::values::IntValue<'ctx>],
) -> Result<BasicValueEnum<'ctx>, NativeError> {
    let mut v = context.i32_type().vec_type(3).get_undef();
    for (i, p) in parts.iter().enumerate() {
        v = builder
            .build_insert_element(v, *p, context.i32_type().const_int(i as u64, false), "")
            .map_err(llvm_error)?;
    }
    Ok(v.into())
}

/// For a buffer's type: its size when it has no runtime-sized array, or
/// the offset and stride of its trailing runtime-sized array.
fn runtime_array_shape(inner: &naga::TypeInner, module: &naga::Module) -> (u32, Option<u32>) {
    let dynamic_stride = |ty: Handle<naga::Type>| match module.types[ty].inner {
        naga::TypeInner::Array {
            size: naga::ArraySize::Dynamic,
            stride,
            ..
        } => Some(stride),
        _ => None,
    };
    match inner {
        naga::TypeInner::Array {
            size: naga::ArraySize::Dynamic,
            stride,
            ..
        } => (0, Some(*stride)),
        naga::TypeInner::Struct { members, span } => match members.last() {
            Some(last) => match dynamic_stride(last.ty) {
                Some(stride) => (last.offset, Some(stride)),
                None => (*span, None),
            },
            None => (*span, None),
        },
        _ => (inner.size(module.to_ctx()), None),
    }
}

/// Marks a lowered naga function internal and always inlined.
pub(crate) fn make_internal(context: &Context, function: FunctionValue<'_>) {
    function.set_linkage(Linkage::Internal);
    let kind = inkwell::attributes::Attribute::get_named_enum_kind_id("alwaysinline");
    function.add_attribute(
        AttributeLoc::Function,
        context.create_enum_attribute(kind, 0),
    );
}
