//! Pointers, loads, stores and atomics, in naga's memory layout.
//!
//! A pointer is the byte address of its object; accesses add byte offsets
//! (member offsets, index × stride) and loads and stores walk the naga type
//! down to scalars and vectors, so every address space has the layout WGSL
//! gives it.

use inkwell::values::{
    AggregateValueEnum, BasicValue, BasicValueEnum, InstructionValue, IntValue, PointerValue,
};
use inkwell::{AtomicOrdering, AtomicRMWBinOp, IntPredicate};
use naga::{Handle, ScalarKind, TypeInner};

use super::FunctionLowerer;
use super::types::{self, column_stride, vector_layout};
use crate::error::NativeError;
use crate::target::llvm_error;

/// Arrays longer than this are not loaded or stored as whole values.
const MAX_ELEMENTS_BY_VALUE: u32 = 4096;

impl<'m, 'a, 'ctx> FunctionLowerer<'m, 'a, 'ctx> {
    /// `ptr + offset` bytes.
    pub(crate) fn byte_offset(
        &self,
        ptr: PointerValue<'ctx>,
        offset: IntValue<'ctx>,
    ) -> Result<PointerValue<'ctx>, NativeError> {
        let i8t = self.m.context.i8_type();
        // Safety: offsets stay inside the object naga's validator allowed
        // (or inside the buffer, for runtime-sized arrays).
        unsafe { self.builder.build_gep(i8t, ptr, &[offset], "") }.map_err(llvm_error)
    }

    fn const_offset(
        &self,
        ptr: PointerValue<'ctx>,
        offset: u32,
    ) -> Result<PointerValue<'ctx>, NativeError> {
        if offset == 0 {
            return Ok(ptr);
        }
        self.byte_offset(
            ptr,
            self.m.context.i64_type().const_int(offset as u64, false),
        )
    }

    /// The type a pointer expression points to.
    pub(crate) fn pointee(
        &self,
        pointer: Handle<naga::Expression>,
    ) -> Result<TypeInner, NativeError> {
        match *self.type_of(pointer) {
            TypeInner::Pointer { base, .. } => Ok(self.m.naga.types[base].inner.clone()),
            TypeInner::ValuePointer {
                size: Some(size),
                scalar,
                ..
            } => Ok(TypeInner::Vector { size, scalar }),
            TypeInner::ValuePointer {
                size: None, scalar, ..
            } => Ok(TypeInner::Scalar(scalar)),
            ref other => Err(NativeError::Llvm(format!("{other:?} is not a pointer"))),
        }
    }

    /// Element `index` of the array, vector or matrix at `ptr`.
    pub(crate) fn element_pointer(
        &self,
        ptr: PointerValue<'ctx>,
        pointee: &TypeInner,
        index: IntValue<'ctx>,
    ) -> Result<PointerValue<'ctx>, NativeError> {
        let stride = match *pointee {
            TypeInner::Array { stride, .. } => stride,
            TypeInner::Vector { scalar, .. } => scalar.width as u32,
            TypeInner::Matrix { rows, scalar, .. } => {
                column_stride(rows as u32, scalar.width as u32)
            }
            ref other => {
                return Err(NativeError::Llvm(format!("indexing into {other:?}")));
            }
        };
        let i64t = self.m.context.i64_type();
        let wide = self
            .builder
            .build_int_z_extend_or_bit_cast(index, i64t, "")
            .map_err(llvm_error)?;
        let offset = self
            .builder
            .build_int_mul(wide, i64t.const_int(stride as u64, false), "")
            .map_err(llvm_error)?;
        self.byte_offset(ptr, offset)
    }

    /// Member or element `index` (a constant) of the object at `ptr`.
    pub(crate) fn member_pointer(
        &self,
        ptr: PointerValue<'ctx>,
        pointee: &TypeInner,
        index: u32,
    ) -> Result<PointerValue<'ctx>, NativeError> {
        match *pointee {
            TypeInner::Struct { ref members, .. } => {
                self.const_offset(ptr, members[index as usize].offset)
            }
            _ => self.element_pointer(
                ptr,
                pointee,
                self.m.context.i32_type().const_int(index as u64, false),
            ),
        }
    }

    /// The naga type of element/member `index` of `inner`.
    pub(crate) fn component_type(&self, inner: &TypeInner, index: u32) -> TypeInner {
        match *inner {
            TypeInner::Struct { ref members, .. } => {
                self.m.naga.types[members[index as usize].ty].inner.clone()
            }
            TypeInner::Array { base, .. } => self.m.naga.types[base].inner.clone(),
            TypeInner::Vector { scalar, .. } => TypeInner::Scalar(scalar),
            TypeInner::Matrix { rows, scalar, .. } => TypeInner::Vector { size: rows, scalar },
            ref other => other.clone(),
        }
    }

    /// Loads a value of naga type `inner` from `ptr`.
    pub(crate) fn load_typed(
        &self,
        ptr: PointerValue<'ctx>,
        inner: &TypeInner,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        let context = self.m.context;
        match *inner {
            TypeInner::Scalar(s) if s.kind == ScalarKind::Bool => {
                let byte = self
                    .builder
                    .build_load(context.i8_type(), ptr, "")
                    .map_err(llvm_error)?
                    .into_int_value();
                Ok(self
                    .builder
                    .build_int_compare(IntPredicate::NE, byte, context.i8_type().const_zero(), "")
                    .map_err(llvm_error)?
                    .into())
            }
            TypeInner::Scalar(s) | TypeInner::Atomic(s) => {
                let value = self
                    .builder
                    .build_load(types::scalar_type(context, s), ptr, "")
                    .map_err(llvm_error)?;
                let load = value.as_instruction_value().expect("a load");
                load.set_alignment(s.width as u32)
                    .map_err(|e| NativeError::Llvm(e.to_string()))?;
                if matches!(inner, TypeInner::Atomic(_)) {
                    load.set_atomic_ordering(AtomicOrdering::Monotonic)
                        .map_err(|e| NativeError::Llvm(e.to_string()))?;
                }
                Ok(value)
            }
            TypeInner::Vector { size, scalar } if scalar.kind != ScalarKind::Bool => {
                let ty = types::value_type(context, &self.m.naga.types, inner)?;
                let value = self.builder.build_load(ty, ptr, "").map_err(llvm_error)?;
                value
                    .as_instruction_value()
                    .expect("a load")
                    .set_alignment(vector_access_alignment(size, scalar))
                    .map_err(|e| NativeError::Llvm(e.to_string()))?;
                Ok(value)
            }
            _ => {
                let ty = types::value_type(context, &self.m.naga.types, inner)?;
                let count = self.component_count(inner)?;
                let mut aggregate = ty.const_zero();
                for i in 0..count {
                    let element_type = self.component_type(inner, i);
                    let element_ptr = self.member_pointer(ptr, inner, i)?;
                    let element = self.load_typed(element_ptr, &element_type)?;
                    aggregate = self.insert(aggregate, element, i)?;
                }
                Ok(aggregate)
            }
        }
    }

    /// Stores `value` of naga type `inner` at `ptr`; returns the store
    /// instruction when it is a single one.
    pub(crate) fn store_typed(
        &self,
        ptr: PointerValue<'ctx>,
        inner: &TypeInner,
        value: BasicValueEnum<'ctx>,
    ) -> Result<Option<InstructionValue<'ctx>>, NativeError> {
        let context = self.m.context;
        match *inner {
            TypeInner::Scalar(s) if s.kind == ScalarKind::Bool => {
                let byte = self
                    .builder
                    .build_int_z_extend(value.into_int_value(), context.i8_type(), "")
                    .map_err(llvm_error)?;
                Ok(Some(
                    self.builder.build_store(ptr, byte).map_err(llvm_error)?,
                ))
            }
            TypeInner::Scalar(s) | TypeInner::Atomic(s) => {
                let store = self.builder.build_store(ptr, value).map_err(llvm_error)?;
                store
                    .set_alignment(s.width as u32)
                    .map_err(|e| NativeError::Llvm(e.to_string()))?;
                Ok(Some(store))
            }
            TypeInner::Vector { size, scalar } if scalar.kind != ScalarKind::Bool => {
                let store = self.builder.build_store(ptr, value).map_err(llvm_error)?;
                store
                    .set_alignment(vector_access_alignment(size, scalar))
                    .map_err(|e| NativeError::Llvm(e.to_string()))?;
                Ok(Some(store))
            }
            _ => {
                let count = self.component_count(inner)?;
                for i in 0..count {
                    let element_type = self.component_type(inner, i);
                    let element_ptr = self.member_pointer(ptr, inner, i)?;
                    let element = self.extract(value, i)?;
                    self.store_typed(element_ptr, &element_type, element)?;
                }
                Ok(None)
            }
        }
    }

    fn component_count(&self, inner: &TypeInner) -> Result<u32, NativeError> {
        Ok(match *inner {
            TypeInner::Struct { ref members, .. } => members.len() as u32,
            TypeInner::Vector { size, .. } => size as u32,
            TypeInner::Matrix { columns, .. } => columns as u32,
            TypeInner::Array {
                size: naga::ArraySize::Constant(n),
                ..
            } if n.get() <= MAX_ELEMENTS_BY_VALUE => n.get(),
            ref other => {
                return Err(NativeError::Unsupported {
                    construct: format!(
                        "loading or storing {} as a whole value",
                        types::describe(other, &self.m.naga.types)
                    ),
                    location: self
                        .function
                        .and_then(|f| f.name.clone())
                        .unwrap_or_else(|| "<entry point>".into()),
                });
            }
        })
    }

    /// `aggregate` with component `index` replaced (vectors, arrays, structs).
    pub(crate) fn insert(
        &self,
        aggregate: BasicValueEnum<'ctx>,
        element: BasicValueEnum<'ctx>,
        index: u32,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        let b = &self.builder;
        Ok(match aggregate {
            BasicValueEnum::VectorValue(v) => b
                .build_insert_element(
                    v,
                    element,
                    self.m.context.i32_type().const_int(index as u64, false),
                    "",
                )
                .map_err(llvm_error)?
                .into(),
            BasicValueEnum::ArrayValue(a) => b
                .build_insert_value(a, element, index, "")
                .map(aggregate_value)
                .map_err(llvm_error)?,
            BasicValueEnum::StructValue(s) => b
                .build_insert_value(s, element, index, "")
                .map(aggregate_value)
                .map_err(llvm_error)?,
            other => return Err(NativeError::Llvm(format!("inserting into {other:?}"))),
        })
    }

    /// Component `index` of a vector, array or struct value.
    pub(crate) fn extract(
        &self,
        aggregate: BasicValueEnum<'ctx>,
        index: u32,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        let b = &self.builder;
        Ok(match aggregate {
            BasicValueEnum::VectorValue(v) => b
                .build_extract_element(
                    v,
                    self.m.context.i32_type().const_int(index as u64, false),
                    "",
                )
                .map_err(llvm_error)?,
            BasicValueEnum::ArrayValue(a) => {
                b.build_extract_value(a, index, "").map_err(llvm_error)?
            }
            BasicValueEnum::StructValue(s) => {
                b.build_extract_value(s, index, "").map_err(llvm_error)?
            }
            other => return Err(NativeError::Llvm(format!("extracting from {other:?}"))),
        })
    }

    /// Stores zero words `local_index, local_index + threads, ...` below
    /// `words`: the workgroup clears its memory together.
    pub(crate) fn zero_words_strided(
        &self,
        base: PointerValue<'ctx>,
        words: u32,
        local_index: IntValue<'ctx>,
        threads: u32,
    ) -> Result<(), NativeError> {
        let context = self.m.context;
        let i32t = context.i32_type();
        let before = self.builder.get_insert_block().expect("positioned");
        let header = context.append_basic_block(self.llvm, "zero");
        let body = context.append_basic_block(self.llvm, "zero_body");
        let done = context.append_basic_block(self.llvm, "zero_done");
        self.builder
            .build_unconditional_branch(header)
            .map_err(llvm_error)?;
        self.builder.position_at_end(header);
        let i = self.builder.build_phi(i32t, "i").map_err(llvm_error)?;
        i.add_incoming(&[(&local_index, before)]);
        let index = i.as_basic_value().into_int_value();
        let more = self
            .builder
            .build_int_compare(
                IntPredicate::ULT,
                index,
                i32t.const_int(words as u64, false),
                "",
            )
            .map_err(llvm_error)?;
        self.builder
            .build_conditional_branch(more, body, done)
            .map_err(llvm_error)?;
        self.builder.position_at_end(body);
        let offset = self
            .builder
            .build_int_mul(index, i32t.const_int(4, false), "")
            .map_err(llvm_error)?;
        let ptr = self.byte_offset(base, offset)?;
        self.builder
            .build_store(ptr, i32t.const_zero())
            .map_err(llvm_error)?;
        let next = self
            .builder
            .build_int_add(index, i32t.const_int(threads as u64, false), "")
            .map_err(llvm_error)?;
        i.add_incoming(&[(&next, body)]);
        self.builder
            .build_unconditional_branch(header)
            .map_err(llvm_error)?;
        self.builder.position_at_end(done);
        Ok(())
    }

    /// A WGSL atomic read-modify-write or compare-exchange.
    pub(crate) fn atomic(
        &mut self,
        pointer: Handle<naga::Expression>,
        fun: &naga::AtomicFunction,
        value: Handle<naga::Expression>,
        result: Option<Handle<naga::Expression>>,
    ) -> Result<(), NativeError> {
        let TypeInner::Atomic(scalar) = self.pointee(pointer)? else {
            return Err(NativeError::Llvm("atomic on a non-atomic".into()));
        };
        if scalar.kind == ScalarKind::Float {
            return Err(self.unsupported_at(value, "float atomics"));
        }
        let signed = scalar.kind == ScalarKind::Sint;
        let ptr = self.expression(pointer)?.into_pointer_value();
        let operand = self.expression(value)?.into_int_value();
        let ordering = AtomicOrdering::Monotonic;
        let op = match *fun {
            naga::AtomicFunction::Add => AtomicRMWBinOp::Add,
            naga::AtomicFunction::Subtract => AtomicRMWBinOp::Sub,
            naga::AtomicFunction::And => AtomicRMWBinOp::And,
            naga::AtomicFunction::ExclusiveOr => AtomicRMWBinOp::Xor,
            naga::AtomicFunction::InclusiveOr => AtomicRMWBinOp::Or,
            naga::AtomicFunction::Min if signed => AtomicRMWBinOp::Min,
            naga::AtomicFunction::Min => AtomicRMWBinOp::UMin,
            naga::AtomicFunction::Max if signed => AtomicRMWBinOp::Max,
            naga::AtomicFunction::Max => AtomicRMWBinOp::UMax,
            naga::AtomicFunction::Exchange { compare: None } => AtomicRMWBinOp::Xchg,
            naga::AtomicFunction::Exchange {
                compare: Some(compare),
            } => {
                let expected = self.expression(compare)?.into_int_value();
                let pair = self
                    .builder
                    .build_cmpxchg(ptr, expected, operand, ordering, ordering)
                    .map_err(llvm_error)?;
                if let Some(result) = result {
                    let ty = types::value_type(
                        self.m.context,
                        &self.m.naga.types,
                        self.type_of(result),
                    )?;
                    let old = self
                        .builder
                        .build_extract_value(pair, 0, "")
                        .map_err(llvm_error)?;
                    let exchanged = self
                        .builder
                        .build_extract_value(pair, 1, "")
                        .map_err(llvm_error)?;
                    let value = self.insert(ty.const_zero(), old, 0)?;
                    let value = self.insert(value, exchanged, 1)?;
                    self.values.insert(result, value);
                }
                return Ok(());
            }
        };
        let old = self
            .builder
            .build_atomicrmw(op, ptr, operand, ordering)
            .map_err(llvm_error)?;
        if let Some(result) = result {
            self.values.insert(result, old.into());
        }
        Ok(())
    }
}

/// The alignment a vector load or store may promise: its layout's, except
/// for vec3, which is 12 bytes in memory (a member may follow it at 12), so
/// only the scalar's.
fn vector_access_alignment(size: naga::VectorSize, scalar: naga::Scalar) -> u32 {
    if size == naga::VectorSize::Tri {
        scalar.width as u32
    } else {
        vector_layout(size as u32, scalar.width as u32).1
    }
}

fn aggregate_value(value: AggregateValueEnum<'_>) -> BasicValueEnum<'_> {
    match value {
        AggregateValueEnum::ArrayValue(a) => a.into(),
        AggregateValueEnum::StructValue(s) => s.into(),
    }
}
