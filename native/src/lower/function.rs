//! One naga function → one LLVM function: the frame, local variables,
//! control flow and the statements that are not about memory or subgroups.

use std::collections::HashMap;

use inkwell::AddressSpace;
use inkwell::basic_block::BasicBlock;
use inkwell::builder::Builder;
use inkwell::types::{BasicType, BasicTypeEnum};
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum, FunctionValue, PointerValue};
use naga::valid::FunctionInfo;
use naga::{Handle, Statement};

use super::{ModuleLowerer, loops, make_internal, types};
use crate::error::NativeError;
use crate::target::{Cx, Scope, llvm_error};

/// Where `break` and `continue` go.
#[derive(Clone, Copy)]
struct Exits<'ctx> {
    break_to: BasicBlock<'ctx>,
    /// `None` for a `switch`, which `continue` passes through.
    continue_to: Option<BasicBlock<'ctx>>,
}

/// The state of lowering one function.
pub struct FunctionLowerer<'m, 'a, 'ctx> {
    pub(crate) m: &'m ModuleLowerer<'a, 'ctx>,
    pub(crate) function: Option<&'a naga::Function>,
    pub(crate) info: Option<&'a FunctionInfo>,
    pub(crate) llvm: FunctionValue<'ctx>,
    pub(crate) builder: Builder<'ctx>,
    /// Private block, buffer pointers, buffer lengths.
    pub(crate) frame: Vec<BasicValueEnum<'ctx>>,
    pub(crate) values: HashMap<Handle<naga::Expression>, BasicValueEnum<'ctx>>,
    pub(crate) locals: HashMap<Handle<naga::LocalVariable>, PointerValue<'ctx>>,
    exits: Vec<Exits<'ctx>>,
}

impl<'m, 'a, 'ctx> FunctionLowerer<'m, 'a, 'ctx> {
    /// Lowers `function` to an internal LLVM function named `name`.
    pub fn lower(
        m: &'m ModuleLowerer<'a, 'ctx>,
        function: &'a naga::Function,
        info: &'a FunctionInfo,
        name: &str,
    ) -> Result<FunctionValue<'ctx>, NativeError> {
        let context = m.context;
        let mut params = m.frame_param_types();
        for argument in &function.arguments {
            params.push(m.param_type(argument.ty)?.into());
        }
        let fn_type = match &function.result {
            Some(result) => m.param_type(result.ty)?.fn_type(&params, false),
            None => context.void_type().fn_type(&params, false),
        };
        let llvm = m.module.add_function(name, fn_type, None);
        make_internal(context, llvm);
        let builder = context.create_builder();
        let entry = context.append_basic_block(llvm, "entry");
        builder.position_at_end(entry);
        let frame_len = 1 + 2 * m.resources.len();
        let frame = (0..frame_len)
            .map(|i| llvm.get_nth_param(i as u32).expect("frame parameter"))
            .collect();
        let mut lowerer = FunctionLowerer {
            m,
            function: Some(function),
            info: Some(info),
            llvm,
            builder,
            frame,
            values: HashMap::new(),
            locals: HashMap::new(),
            exits: Vec::new(),
        };
        if let Some(name) = function.name.as_deref() {
            let args: Vec<BasicValueEnum<'ctx>> = (frame_len..)
                .take(function.arguments.len())
                .map(|i| llvm.get_nth_param(i as u32).expect("argument"))
                .collect();
            let ret = llvm.get_type().get_return_type();
            if let Some(value) = m.target.fused_body(&lowerer.cx(), name, &args, ret)? {
                lowerer
                    .builder
                    .build_return(Some(&value))
                    .map_err(llvm_error)?;
                return Ok(llvm);
            }
        }
        // Local variables live for the whole call; naga zeroes those
        // without an initialiser, and so do we.
        for (handle, local) in function.local_variables.iter() {
            let inner = &m.naga.types[local.ty].inner;
            let layout = &m.layouter[local.ty];
            let bytes = layout.alignment.round_up(layout.size.max(1));
            let slot = lowerer
                .builder
                .build_alloca(context.i8_type().array_type(bytes), "")
                .map_err(llvm_error)?;
            slot.as_instruction()
                .expect("alloca")
                .set_alignment(layout.alignment.round_up(1).max(4))
                .map_err(|e| NativeError::Llvm(e.to_string()))?;
            lowerer.locals.insert(handle, slot);
            let value = match local.init {
                Some(init) => lowerer.expression(init)?,
                None => types::value_type(context, &m.naga.types, inner)?.const_zero(),
            };
            lowerer.store_typed(slot, inner, value)?;
        }
        lowerer.block(&function.body)?;
        if !lowerer.terminated() {
            if function.result.is_some() {
                lowerer.builder.build_unreachable().map_err(llvm_error)?;
            } else {
                lowerer.builder.build_return(None).map_err(llvm_error)?;
            }
        }
        Ok(llvm)
    }

    /// A lowerer for code the kernel wrapper emits itself (initialising
    /// private variables, zeroing workgroup memory).
    pub(crate) fn for_kernel(
        m: &'m ModuleLowerer<'a, 'ctx>,
        kernel: FunctionValue<'ctx>,
        at: &Builder<'ctx>,
        private: PointerValue<'ctx>,
    ) -> Self {
        let builder = m.context.create_builder();
        builder.position_at_end(at.get_insert_block().expect("positioned"));
        FunctionLowerer {
            m,
            function: None,
            info: None,
            llvm: kernel,
            builder,
            frame: vec![private.into()],
            values: HashMap::new(),
            locals: HashMap::new(),
            exits: Vec::new(),
        }
    }

    /// The frame's device address and byte length of buffer `global`, or
    /// `None` if it is not a buffer (the frame is the private block, then
    /// every buffer's pointer, then every buffer's length).
    pub(crate) fn buffer(
        &self,
        global: Handle<naga::GlobalVariable>,
    ) -> Option<(PointerValue<'ctx>, inkwell::values::IntValue<'ctx>)> {
        let index = self.m.resources.iter().position(|r| *r == global)?;
        Some((
            self.frame[1 + index].into_pointer_value(),
            self.frame[1 + self.m.resources.len() + index].into_int_value(),
        ))
    }

    /// The emitting context for target hooks.
    pub(crate) fn cx(&self) -> Cx<'_, 'ctx> {
        Cx {
            context: self.m.context,
            module: self.m.module,
            builder: &self.builder,
            lane_mask: self.m.lane_mask,
        }
    }

    pub(crate) fn naga_function(&self) -> &'a naga::Function {
        self.function.expect("inside a naga function")
    }

    /// `file:line:col` of an expression.
    pub(crate) fn expression_location(&self, handle: Handle<naga::Expression>) -> String {
        let span = self.naga_function().expressions.get_span(handle);
        self.m.span_location(span)
    }

    /// An "unsupported construct" error at an expression.
    pub(crate) fn unsupported_at(
        &self,
        handle: Handle<naga::Expression>,
        construct: impl Into<String>,
    ) -> NativeError {
        NativeError::Unsupported {
            construct: construct.into(),
            location: self.expression_location(handle),
        }
    }

    pub(crate) fn terminated(&self) -> bool {
        self.builder
            .get_insert_block()
            .and_then(|b| b.get_terminator())
            .is_some()
    }

    fn new_block(&self, name: &str) -> BasicBlock<'ctx> {
        self.m.context.append_basic_block(self.llvm, name)
    }

    fn branch_to(&self, target: BasicBlock<'ctx>) -> Result<(), NativeError> {
        if !self.terminated() {
            self.builder
                .build_unconditional_branch(target)
                .map_err(llvm_error)?;
        }
        Ok(())
    }

    fn block(&mut self, block: &'a naga::Block) -> Result<(), NativeError> {
        for (statement, span) in block.span_iter() {
            if self.terminated() {
                // Code after return/break/continue: unreachable but valid.
                let dead = self.new_block("dead");
                self.builder.position_at_end(dead);
            }
            self.statement(statement, *span)?;
        }
        Ok(())
    }

    fn statement(&mut self, statement: &'a Statement, span: naga::Span) -> Result<(), NativeError> {
        let unsupported = |what: &str| NativeError::Unsupported {
            construct: what.to_string(),
            location: self.m.span_location(span),
        };
        match *statement {
            Statement::Emit(ref range) => {
                for handle in range.clone() {
                    let value = self.build_expression(handle)?;
                    self.values.insert(handle, value);
                }
            }
            Statement::Block(ref block) => self.block(block)?,
            Statement::If {
                condition,
                ref accept,
                ref reject,
            } => {
                let condition = self.expression(condition)?.into_int_value();
                let then_block = self.new_block("then");
                let else_block = self.new_block("else");
                let merge = self.new_block("endif");
                self.builder
                    .build_conditional_branch(condition, then_block, else_block)
                    .map_err(llvm_error)?;
                self.builder.position_at_end(then_block);
                self.block(accept)?;
                self.branch_to(merge)?;
                self.builder.position_at_end(else_block);
                self.block(reject)?;
                self.branch_to(merge)?;
                self.builder.position_at_end(merge);
            }
            Statement::Switch {
                selector,
                ref cases,
            } => {
                let value = self.expression(selector)?.into_int_value();
                let merge = self.new_block("endswitch");
                let blocks: Vec<_> = cases.iter().map(|_| self.new_block("case")).collect();
                let mut default = merge;
                let mut table = Vec::new();
                for (case, block) in cases.iter().zip(&blocks) {
                    match case.value {
                        naga::SwitchValue::I32(v) => {
                            table.push((value.get_type().const_int(v as i64 as u64, true), *block))
                        }
                        naga::SwitchValue::U32(v) => {
                            table.push((value.get_type().const_int(v as u64, false), *block))
                        }
                        naga::SwitchValue::Default => default = *block,
                    }
                }
                self.builder
                    .build_switch(value, default, &table)
                    .map_err(llvm_error)?;
                self.exits.push(Exits {
                    break_to: merge,
                    continue_to: None,
                });
                for (i, case) in cases.iter().enumerate() {
                    self.builder.position_at_end(blocks[i]);
                    self.block(&case.body)?;
                    let next = if case.fall_through && i + 1 < blocks.len() {
                        blocks[i + 1]
                    } else {
                        merge
                    };
                    self.branch_to(next)?;
                }
                self.exits.pop();
                self.builder.position_at_end(merge);
            }
            Statement::Loop {
                ref body,
                ref continuing,
                break_if,
            } => {
                let body_block = self.new_block("loop");
                let continuing_block = self.new_block("continuing");
                let exit = self.new_block("endloop");
                self.branch_to(body_block)?;
                self.builder.position_at_end(body_block);
                self.exits.push(Exits {
                    break_to: exit,
                    continue_to: Some(continuing_block),
                });
                self.block(body)?;
                self.branch_to(continuing_block)?;
                self.builder.position_at_end(continuing_block);
                self.block(continuing)?;
                self.exits.pop();
                if !self.terminated() {
                    let latch = match break_if {
                        Some(condition) => {
                            let condition = self.expression(condition)?.into_int_value();
                            self.builder
                                .build_conditional_branch(condition, exit, body_block)
                                .map_err(llvm_error)?
                        }
                        None => self
                            .builder
                            .build_unconditional_branch(body_block)
                            .map_err(llvm_error)?,
                    };
                    if let Some(function) = self.function
                        && loops::is_small_counted_loop(self.m.naga, function, body)
                    {
                        loops::mark_unroll_full(self.m.context, latch)?;
                    }
                }
                self.builder.position_at_end(exit);
            }
            Statement::Break => {
                let exits = *self
                    .exits
                    .last()
                    .ok_or_else(|| unsupported("break outside a loop"))?;
                self.branch_to(exits.break_to)?;
            }
            Statement::Continue => {
                let target = self
                    .exits
                    .iter()
                    .rev()
                    .find_map(|e| e.continue_to)
                    .ok_or_else(|| unsupported("continue outside a loop"))?;
                self.branch_to(target)?;
            }
            Statement::Return { value } => match value {
                Some(value) => {
                    let value = self.expression(value)?;
                    self.builder
                        .build_return(Some(&value))
                        .map_err(llvm_error)?;
                }
                None => {
                    self.builder.build_return(None).map_err(llvm_error)?;
                }
            },
            Statement::ControlBarrier(barrier) => {
                let only_subgroup = barrier == naga::Barrier::SUB_GROUP;
                if only_subgroup {
                    self.m.target.subgroup_barrier(&self.cx())?;
                } else {
                    if barrier.contains(naga::Barrier::STORAGE) {
                        self.m.target.fence(&self.cx(), Scope::Device)?;
                    }
                    self.m.target.workgroup_barrier(&self.cx())?;
                }
            }
            Statement::MemoryBarrier(barrier) => {
                // The scope as naga's SPIR-V writer takes it: storage makes
                // it device-wide, else the subgroup flag narrows it.
                let scope = if barrier.contains(naga::Barrier::STORAGE) {
                    Scope::Device
                } else if barrier.contains(naga::Barrier::SUB_GROUP) {
                    Scope::Subgroup
                } else {
                    Scope::Workgroup
                };
                self.m.target.fence(&self.cx(), scope)?;
            }
            Statement::Store { pointer, value } => {
                let inner = self.pointee(pointer)?;
                let ptr = self.expression(pointer)?.into_pointer_value();
                let value = self.expression(value)?;
                let store = self.store_typed(ptr, &inner, value)?;
                if let (naga::TypeInner::Atomic(_), Some(store)) = (&inner, store) {
                    store
                        .set_atomic_ordering(inkwell::AtomicOrdering::Monotonic)
                        .map_err(|e| NativeError::Llvm(e.to_string()))?;
                }
            }
            Statement::Atomic {
                pointer,
                ref fun,
                value,
                result,
            } => self.atomic(pointer, fun, value, result)?,
            Statement::WorkGroupUniformLoad { pointer, result } => {
                self.m.target.workgroup_barrier(&self.cx())?;
                let inner = self.pointee(pointer)?;
                let ptr = self.expression(pointer)?.into_pointer_value();
                let value = self.load_typed(ptr, &inner)?;
                self.m.target.workgroup_barrier(&self.cx())?;
                self.values.insert(result, value);
            }
            Statement::Call {
                function,
                ref arguments,
                result,
            } => {
                let callee = *self
                    .m
                    .functions
                    .get(&function)
                    .ok_or_else(|| unsupported("a call to a function lowered out of order"))?;
                let mut args: Vec<BasicMetadataValueEnum> =
                    self.frame.iter().map(|v| (*v).into()).collect();
                for argument in arguments {
                    args.push(self.expression(*argument)?.into());
                }
                let call = self
                    .builder
                    .build_call(callee, &args, "")
                    .map_err(llvm_error)?;
                if let Some(result) = result {
                    let value = call.try_as_basic_value().basic().ok_or_else(|| {
                        NativeError::Llvm("a call with a result returned nothing".into())
                    })?;
                    self.values.insert(result, value);
                }
            }
            Statement::SubgroupBallot { result, predicate } => {
                self.subgroup_ballot(result, predicate)?
            }
            Statement::SubgroupGather {
                ref mode,
                argument,
                result,
            } => self.subgroup_gather(mode, argument, result)?,
            Statement::SubgroupCollectiveOperation {
                ref op,
                ref collective_op,
                argument,
                result,
            } => self.subgroup_collective(*op, *collective_op, argument, result)?,
            Statement::Kill => return Err(unsupported("discard")),
            Statement::ImageStore { .. } | Statement::ImageAtomic { .. } => {
                return Err(unsupported("textures"));
            }
            Statement::RayQuery { .. } | Statement::RayPipelineFunction(_) => {
                return Err(unsupported("ray tracing"));
            }
            Statement::CooperativeStore { .. } => {
                return Err(unsupported("cooperative matrices"));
            }
        }
        Ok(())
    }

    /// An expression's value: computed by its `Emit`, or built now for
    /// expressions naga never emits (constants, arguments, variables).
    pub(crate) fn expression(
        &mut self,
        handle: Handle<naga::Expression>,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        if let Some(value) = self.values.get(&handle) {
            return Ok(*value);
        }
        self.build_expression(handle)
    }

    /// The naga type of an expression.
    pub(crate) fn type_of(&self, handle: Handle<naga::Expression>) -> &'a naga::TypeInner {
        let info = self.info.expect("inside a naga function");
        info[handle].ty.inner_with(&self.m.naga.types)
    }
}

impl<'a, 'ctx> ModuleLowerer<'a, 'ctx> {
    /// The LLVM type a value of naga type `ty` is passed as.
    pub(crate) fn param_type(
        &self,
        ty: Handle<naga::Type>,
    ) -> Result<BasicTypeEnum<'ctx>, NativeError> {
        match self.naga.types[ty].inner {
            naga::TypeInner::Pointer { space, .. }
            | naga::TypeInner::ValuePointer { space, .. } => {
                Ok(self.context.ptr_type(self.space_of(space)?).into())
            }
            ref inner => types::value_type(self.context, &self.naga.types, inner),
        }
    }

    /// The LLVM address space of a naga one.
    pub(crate) fn space_of(&self, space: naga::AddressSpace) -> Result<AddressSpace, NativeError> {
        Ok(AddressSpace::from(match space {
            naga::AddressSpace::Function | naga::AddressSpace::Private => {
                self.target.private_space()
            }
            naga::AddressSpace::WorkGroup => self.target.workgroup_space(),
            naga::AddressSpace::Storage { .. } | naga::AddressSpace::Uniform => {
                self.target.global_space()
            }
            other => {
                return Err(NativeError::Unsupported {
                    construct: format!("pointers into the {other:?} address space"),
                    location: "a function signature".into(),
                });
            }
        }))
    }
}
