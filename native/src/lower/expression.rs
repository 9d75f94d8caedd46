//! naga expressions → LLVM values.

use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValue, BasicValueEnum, IntValue, PointerValue};
use inkwell::{FloatPredicate, IntPredicate};
use naga::{BinaryOperator as Bin, Expression, Handle, ScalarKind, TypeInner};

use super::FunctionLowerer;
use super::types::{self, scalar_of};
use crate::error::NativeError;
use crate::target::llvm_error;

/// Applies an `IntMathValue`/`FloatMathValue` builder method to a scalar
/// or vector value.
macro_rules! on_int {
    ($v:expr, |$x:ident| $body:expr) => {
        match $v {
            BasicValueEnum::IntValue($x) => $body.map(|r| r.as_basic_value_enum()),
            BasicValueEnum::VectorValue($x) => $body.map(|r| r.as_basic_value_enum()),
            other => Err(NativeError::Llvm(format!(
                "expected an integer, got {other:?}"
            ))),
        }
    };
}
macro_rules! on_float {
    ($v:expr, |$x:ident| $body:expr) => {
        match $v {
            BasicValueEnum::FloatValue($x) => $body.map(|r| r.as_basic_value_enum()),
            BasicValueEnum::VectorValue($x) => $body.map(|r| r.as_basic_value_enum()),
            other => Err(NativeError::Llvm(format!(
                "expected a float, got {other:?}"
            ))),
        }
    };
}

impl<'m, 'a, 'ctx> FunctionLowerer<'m, 'a, 'ctx> {
    /// Builds the value of `handle` at the builder's position.
    pub(crate) fn build_expression(
        &mut self,
        handle: Handle<Expression>,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        let function = self.naga_function();
        let context = self.m.context;
        let expression = &function.expressions[handle];
        Ok(match *expression {
            Expression::Literal(literal) => self
                .literal(literal)
                .ok_or_else(|| self.unsupported_at(handle, format!("the literal {literal:?}")))?,
            Expression::Constant(constant) => {
                self.const_expression(self.m.naga.constants[constant].init)?
            }
            Expression::ZeroValue(ty) => {
                types::value_type(context, &self.m.naga.types, &self.m.naga.types[ty].inner)?
                    .const_zero()
            }
            Expression::Compose { ty, ref components } => {
                let values = components
                    .iter()
                    .map(|c| self.expression(*c))
                    .collect::<Result<Vec<_>, _>>()?;
                self.compose(&self.m.naga.types[ty].inner, &values)?
            }
            Expression::Splat { size, value } => {
                let value = self.expression(value)?;
                self.splat(value, size as u32)?
            }
            Expression::Swizzle {
                size,
                vector,
                pattern,
            } => {
                let vector = self.expression(vector)?.into_vector_value();
                let i32t = context.i32_type();
                let mask: Vec<_> = pattern[..size as usize]
                    .iter()
                    .map(|c| i32t.const_int(*c as u64, false))
                    .collect();
                self.builder
                    .build_shuffle_vector(
                        vector,
                        vector.get_type().get_undef(),
                        inkwell::types::VectorType::const_vector(&mask),
                        "",
                    )
                    .map_err(llvm_error)?
                    .into()
            }
            Expression::FunctionArgument(index) => self
                .llvm
                .get_nth_param(self.frame.len() as u32 + index)
                .expect("argument"),
            Expression::GlobalVariable(global) => self.global_pointer(global)?.into(),
            Expression::LocalVariable(local) => self.locals[&local].into(),
            Expression::Load { pointer } => {
                let inner = self.pointee(pointer)?;
                let ptr = self.expression(pointer)?.into_pointer_value();
                self.load_typed(ptr, &inner)?
            }
            Expression::Access { base, index } => {
                let index_value = self.expression(index)?.into_int_value();
                self.access(base, index_value)?
            }
            Expression::AccessIndex { base, index } => match *self.type_of(base) {
                TypeInner::Pointer { .. } | TypeInner::ValuePointer { .. } => {
                    let inner = self.pointee(base)?;
                    let ptr = self.expression(base)?.into_pointer_value();
                    if self.constant_index_needs_check(&inner) {
                        let index = context.i32_type().const_int(index as u64, false);
                        let index = self.restrict_pointer_index(base, &inner, index)?;
                        self.element_pointer(ptr, &inner, index)?.into()
                    } else {
                        self.member_pointer(ptr, &inner, index)?.into()
                    }
                }
                _ => {
                    let value = self.expression(base)?;
                    self.extract(value, index)?
                }
            },
            Expression::Unary { op, expr } => {
                let value = self.expression(expr)?;
                let b = &self.builder;
                match op {
                    naga::UnaryOperator::Negate => match scalar_of(self.type_of(expr)) {
                        Some(s) if s.kind == ScalarKind::Float => {
                            on_float!(value, |x| b.build_float_neg(x, "").map_err(llvm_error))?
                        }
                        _ => on_int!(value, |x| b.build_int_neg(x, "").map_err(llvm_error))?,
                    },
                    naga::UnaryOperator::LogicalNot | naga::UnaryOperator::BitwiseNot => {
                        on_int!(value, |x| b.build_not(x, "").map_err(llvm_error))?
                    }
                }
            }
            Expression::Binary { op, left, right } => self.binary(handle, op, left, right)?,
            Expression::Select {
                condition,
                accept,
                reject,
            } => {
                let condition = self.expression(condition)?;
                let accept = self.expression(accept)?;
                let reject = self.expression(reject)?;
                self.select(condition, accept, reject)?
            }
            Expression::Relational { fun, argument } => {
                let value = self.expression(argument)?;
                self.relational(handle, fun, value)?
            }
            Expression::Math {
                fun,
                arg,
                arg1,
                arg2,
                arg3,
            } => self.math(handle, fun, arg, arg1, arg2, arg3)?,
            Expression::As {
                expr,
                kind,
                convert,
            } => self.convert(expr, kind, convert)?,
            Expression::ArrayLength(pointer) => self.array_length(handle, pointer)?,
            Expression::CallResult(_)
            | Expression::AtomicResult { .. }
            | Expression::WorkGroupUniformLoadResult { .. }
            | Expression::SubgroupBallotResult
            | Expression::SubgroupOperationResult { .. } => {
                return Err(NativeError::Llvm(format!(
                    "{}: a result used before its statement",
                    self.expression_location(handle)
                )));
            }
            Expression::Override(_) => {
                return Err(self.unsupported_at(handle, "pipeline-overridable constants"));
            }
            Expression::ImageSample { .. }
            | Expression::ImageLoad { .. }
            | Expression::ImageQuery { .. } => return Err(self.unsupported_at(handle, "textures")),
            Expression::Derivative { .. } => {
                return Err(self.unsupported_at(handle, "derivatives"));
            }
            _ => return Err(self.unsupported_at(handle, format!("the expression {expression:?}"))),
        })
    }

    fn literal(&self, literal: naga::Literal) -> Option<BasicValueEnum<'ctx>> {
        let c = self.m.context;
        Some(match literal {
            naga::Literal::F64(v) => c.f64_type().const_float(v).into(),
            naga::Literal::F32(v) => c.f32_type().const_float(v as f64).into(),
            naga::Literal::F16(v) => c.f16_type().const_float(v.to_f64()).into(),
            naga::Literal::U32(v) => c.i32_type().const_int(v as u64, false).into(),
            naga::Literal::I32(v) => c.i32_type().const_int(v as i64 as u64, true).into(),
            naga::Literal::U64(v) => c.i64_type().const_int(v, false).into(),
            naga::Literal::I64(v) => c.i64_type().const_int(v as u64, true).into(),
            naga::Literal::Bool(v) => c.bool_type().const_int(v as u64, false).into(),
            _ => return None,
        })
    }

    /// A module-scope constant expression.
    pub(crate) fn const_expression(
        &self,
        handle: Handle<Expression>,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        let naga = self.m.naga;
        let unsupported = |what: String| NativeError::Unsupported {
            construct: what,
            location: self
                .m
                .span_location(naga.global_expressions.get_span(handle)),
        };
        match naga.global_expressions[handle] {
            Expression::Literal(literal) => self
                .literal(literal)
                .ok_or_else(|| unsupported(format!("the literal {literal:?}"))),
            Expression::Constant(c) => self.const_expression(naga.constants[c].init),
            Expression::ZeroValue(ty) => {
                Ok(
                    types::value_type(self.m.context, &naga.types, &naga.types[ty].inner)?
                        .const_zero(),
                )
            }
            Expression::Compose { ty, ref components } => {
                let values = components
                    .iter()
                    .map(|c| self.const_expression(*c))
                    .collect::<Result<Vec<_>, _>>()?;
                self.compose(&naga.types[ty].inner, &values)
            }
            Expression::Splat { size, value } => {
                let value = self.const_expression(value)?;
                self.splat(value, size as u32)
            }
            ref other => Err(unsupported(format!("the constant expression {other:?}"))),
        }
    }

    fn compose(
        &self,
        inner: &TypeInner,
        components: &[BasicValueEnum<'ctx>],
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        let ty = types::value_type(self.m.context, &self.m.naga.types, inner)?;
        let mut value = ty.const_zero();
        if let TypeInner::Vector { .. } = inner {
            // vec4(xy, z, w): flatten vector components.
            let mut index = 0;
            for component in components {
                match component {
                    BasicValueEnum::VectorValue(v) => {
                        for i in 0..v.get_type().get_size() {
                            let scalar = self.extract((*v).into(), i)?;
                            value = self.insert(value, scalar, index)?;
                            index += 1;
                        }
                    }
                    scalar => {
                        value = self.insert(value, *scalar, index)?;
                        index += 1;
                    }
                }
            }
        } else {
            for (i, component) in components.iter().enumerate() {
                value = self.insert(value, *component, i as u32)?;
            }
        }
        Ok(value)
    }

    /// A vector of `n` copies of `value`.
    pub(crate) fn splat(
        &self,
        value: BasicValueEnum<'ctx>,
        n: u32,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        let ty: BasicTypeEnum = match value.get_type() {
            BasicTypeEnum::IntType(t) => t.vec_type(n).into(),
            BasicTypeEnum::FloatType(t) => t.vec_type(n).into(),
            other => return Err(NativeError::Llvm(format!("splatting {other:?}"))),
        };
        let mut v = ty.const_zero();
        for i in 0..n {
            v = self.insert(v, value, i)?;
        }
        Ok(v)
    }

    /// A constant of `ty`'s shape (scalar or vector) with every component
    /// `f(scalar type)`.
    pub(crate) fn constant_like(
        &self,
        ty: BasicTypeEnum<'ctx>,
        f: impl Fn(BasicTypeEnum<'ctx>) -> BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        match ty {
            BasicTypeEnum::VectorType(v) => {
                let scalar = f(v.get_element_type());
                self.splat(scalar, v.get_size())
            }
            other => Ok(f(other)),
        }
    }

    fn global_pointer(
        &self,
        global: Handle<naga::GlobalVariable>,
    ) -> Result<PointerValue<'ctx>, NativeError> {
        if let Some(offset) = self.m.private_offsets.get(&global) {
            let private = self.frame[0].into_pointer_value();
            return self.byte_offset(
                private,
                self.m.context.i64_type().const_int(*offset as u64, false),
            );
        }
        if let Some(var) = self.m.workgroup.get(&global) {
            return Ok(var.pointer);
        }
        self.buffer(global)
            .map(|(pointer, _)| pointer)
            .ok_or_else(|| NativeError::Abi("a global of an unsupported kind".into()))
    }

    fn access(
        &mut self,
        base: Handle<Expression>,
        index: IntValue<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        match *self.type_of(base) {
            TypeInner::Pointer { .. } | TypeInner::ValuePointer { .. } => {
                let inner = self.pointee(base)?;
                let ptr = self.expression(base)?.into_pointer_value();
                let index = self.restrict_pointer_index(base, &inner, index)?;
                Ok(self.element_pointer(ptr, &inner, index)?.into())
            }
            ref inner @ TypeInner::Vector { .. } => {
                let index = self.restrict_value_index(inner, index)?;
                let vector = self.expression(base)?.into_vector_value();
                self.builder
                    .build_extract_element(vector, index, "")
                    .map_err(llvm_error)
            }
            ref inner => {
                // A dynamically indexed array or matrix value: spill it.
                let index = self.restrict_value_index(inner, index)?;
                let value = self.expression(base)?;
                let ty = value.get_type();
                let slot = self.entry_alloca(ty)?;
                self.builder.build_store(slot, value).map_err(llvm_error)?;
                let zero = self.m.context.i32_type().const_zero();
                let element_ptr = unsafe { self.builder.build_gep(ty, slot, &[zero, index], "") }
                    .map_err(llvm_error)?;
                let element_ty = match ty {
                    BasicTypeEnum::ArrayType(a) => a.get_element_type(),
                    other => return Err(NativeError::Llvm(format!("indexing {other:?}"))),
                };
                self.builder
                    .build_load(element_ty, element_ptr, "")
                    .map_err(llvm_error)
            }
        }
    }

    /// An alloca in the function's entry block (allocas elsewhere would
    /// grow the stack on every loop iteration).
    pub(crate) fn entry_alloca(
        &self,
        ty: BasicTypeEnum<'ctx>,
    ) -> Result<PointerValue<'ctx>, NativeError> {
        let entry = self.llvm.get_first_basic_block().expect("entry block");
        let builder = self.m.context.create_builder();
        match entry.get_first_instruction() {
            Some(first) => builder.position_before(&first),
            None => builder.position_at_end(entry),
        }
        builder.build_alloca(ty, "spill").map_err(llvm_error)
    }

    pub(crate) fn select(
        &self,
        condition: BasicValueEnum<'ctx>,
        accept: BasicValueEnum<'ctx>,
        reject: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        let b = &self.builder;
        match condition {
            BasicValueEnum::IntValue(c) => {
                b.build_select(c, accept, reject, "").map_err(llvm_error)
            }
            BasicValueEnum::VectorValue(c) => {
                b.build_select(c, accept, reject, "").map_err(llvm_error)
            }
            other => Err(NativeError::Llvm(format!("select on {other:?}"))),
        }
    }

    fn binary(
        &mut self,
        handle: Handle<Expression>,
        op: Bin,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        let left_type = self.type_of(left);
        let right_type = self.type_of(right);
        let mut a = self.expression(left)?;
        let mut b = self.expression(right)?;
        if matches!(left_type, TypeInner::Matrix { .. })
            || matches!(right_type, TypeInner::Matrix { .. })
        {
            return self.matrix_binary(handle, op, left_type, right_type, a, b);
        }
        // vector op scalar: splat the scalar.
        match (left_type, right_type) {
            (TypeInner::Vector { size, .. }, TypeInner::Scalar(_)) => {
                b = self.splat(b, *size as u32)?
            }
            (TypeInner::Scalar(_), TypeInner::Vector { size, .. }) => {
                a = self.splat(a, *size as u32)?
            }
            _ => {}
        }
        let scalar = scalar_of(left_type)
            .ok_or_else(|| self.unsupported_at(handle, "a binary operation on this type"))?;
        self.scalar_binary(op, scalar, a, b)
    }

    /// `a op b` for scalars or vectors of the same shape.
    pub(crate) fn scalar_binary(
        &self,
        op: Bin,
        scalar: naga::Scalar,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        use inkwell::values::InstructionOpcode as O;
        let bld = &self.builder;
        let float = scalar.kind == ScalarKind::Float;
        let signed = scalar.kind == ScalarKind::Sint;
        let binop = |opcode| bld.build_binop(opcode, a, b, "").map_err(llvm_error);
        match op {
            Bin::Add => binop(if float { O::FAdd } else { O::Add }),
            Bin::Subtract => binop(if float { O::FSub } else { O::Sub }),
            Bin::Multiply => binop(if float { O::FMul } else { O::Mul }),
            Bin::Divide if float => binop(O::FDiv),
            Bin::Modulo if float => binop(O::FRem),
            Bin::Divide | Bin::Modulo => {
                let divisor = self.safe_divisor(a, b, signed)?;
                let opcode = match (op, signed) {
                    (Bin::Divide, true) => O::SDiv,
                    (Bin::Divide, false) => O::UDiv,
                    (_, true) => O::SRem,
                    (_, false) => O::URem,
                };
                bld.build_binop(opcode, a, divisor, "").map_err(llvm_error)
            }
            Bin::Equal
            | Bin::NotEqual
            | Bin::Less
            | Bin::LessEqual
            | Bin::Greater
            | Bin::GreaterEqual => {
                if float {
                    let predicate = match op {
                        Bin::Equal => FloatPredicate::OEQ,
                        Bin::NotEqual => FloatPredicate::UNE,
                        Bin::Less => FloatPredicate::OLT,
                        Bin::LessEqual => FloatPredicate::OLE,
                        Bin::Greater => FloatPredicate::OGT,
                        _ => FloatPredicate::OGE,
                    };
                    on_float!(a, |x| bld
                        .build_float_compare(predicate, x, from_same(b, x), "")
                        .map_err(llvm_error))
                } else {
                    let predicate = match (op, signed) {
                        (Bin::Equal, _) => IntPredicate::EQ,
                        (Bin::NotEqual, _) => IntPredicate::NE,
                        (Bin::Less, true) => IntPredicate::SLT,
                        (Bin::Less, false) => IntPredicate::ULT,
                        (Bin::LessEqual, true) => IntPredicate::SLE,
                        (Bin::LessEqual, false) => IntPredicate::ULE,
                        (Bin::Greater, true) => IntPredicate::SGT,
                        (Bin::Greater, false) => IntPredicate::UGT,
                        (_, true) => IntPredicate::SGE,
                        (_, false) => IntPredicate::UGE,
                    };
                    self.int_compare(predicate, a, b)
                }
            }
            Bin::And | Bin::LogicalAnd => binop(O::And),
            Bin::InclusiveOr | Bin::LogicalOr => binop(O::Or),
            Bin::ExclusiveOr => binop(O::Xor),
            Bin::ShiftLeft | Bin::ShiftRight => {
                // WGSL masks the shift amount to the value's width.
                let width = scalar.width as u64 * 8;
                let amount = self.int_resize(b, a.get_type())?;
                let mask = self.constant_like(a.get_type(), |t| {
                    t.into_int_type().const_int(width - 1, false).into()
                })?;
                let amount = bld
                    .build_binop(O::And, amount, mask, "")
                    .map_err(llvm_error)?;
                let opcode = match (op, signed) {
                    (Bin::ShiftLeft, _) => O::Shl,
                    (_, true) => O::AShr,
                    (_, false) => O::LShr,
                };
                bld.build_binop(opcode, a, amount, "").map_err(llvm_error)
            }
        }
    }

    /// An integer compare of scalars or vectors.
    pub(crate) fn int_compare(
        &self,
        predicate: IntPredicate,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        let bld = &self.builder;
        on_int!(a, |x| bld
            .build_int_compare(predicate, x, from_same(b, x), "")
            .map_err(llvm_error))
    }

    /// `value` zero-extended or truncated to the integer shape of `ty`.
    fn int_resize(
        &self,
        value: BasicValueEnum<'ctx>,
        ty: BasicTypeEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        use inkwell::values::InstructionOpcode as O;
        if value.get_type() == ty {
            return Ok(value);
        }
        let from = int_bits(value.get_type());
        let to = int_bits(ty);
        let opcode = if from < to { O::ZExt } else { O::Trunc };
        self.builder
            .build_cast(opcode, value, ty, "")
            .map_err(llvm_error)
    }

    /// The divisor WGSL's division uses: 1 where the divisor is 0 or where
    /// a signed `MIN / -1` would overflow (the result is then the dividend
    /// for `/` and 0 for `%`).
    fn safe_divisor(
        &self,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
        signed: bool,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        use inkwell::values::InstructionOpcode as O;
        let ty = b.get_type();
        let zero = self.constant_like(ty, |t| t.into_int_type().const_zero().into())?;
        let one = self.constant_like(ty, |t| t.into_int_type().const_int(1, false).into())?;
        let mut bad = self.int_compare(IntPredicate::EQ, b, zero)?;
        if signed {
            let bits = int_bits(ty);
            let min = self.constant_like(ty, |t| {
                t.into_int_type()
                    .const_int(1u64 << (bits - 1), false)
                    .into()
            })?;
            let minus_one =
                self.constant_like(ty, |t| t.into_int_type().const_all_ones().into())?;
            let a_min = self.int_compare(IntPredicate::EQ, a, min)?;
            let b_m1 = self.int_compare(IntPredicate::EQ, b, minus_one)?;
            let overflow = self
                .builder
                .build_binop(O::And, a_min, b_m1, "")
                .map_err(llvm_error)?;
            bad = self
                .builder
                .build_binop(O::Or, bad, overflow, "")
                .map_err(llvm_error)?;
        }
        self.select(bad, one, b)
    }

    fn relational(
        &self,
        handle: Handle<Expression>,
        fun: naga::RelationalFunction,
        value: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        use naga::RelationalFunction as R;
        match fun {
            R::All | R::Any => match value {
                BasicValueEnum::VectorValue(v) => {
                    let n = v.get_type().get_size();
                    let name = format!(
                        "llvm.vector.reduce.{}.v{n}i1",
                        if fun == R::All { "and" } else { "or" }
                    );
                    Ok(self.cx().call_value(
                        &name,
                        Some(self.m.context.bool_type().into()),
                        &[value],
                    )?)
                }
                scalar => Ok(scalar),
            },
            R::IsNan => on_float!(value, |x| self
                .builder
                .build_float_compare(FloatPredicate::UNO, x, x, "")
                .map_err(llvm_error)),
            R::IsInf => Err(self.unsupported_at(handle, "isInf")),
        }
    }

    fn convert(
        &mut self,
        expr: Handle<Expression>,
        kind: ScalarKind,
        convert: Option<u8>,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        use inkwell::values::InstructionOpcode as O;
        let source_type = self.type_of(expr);
        let source =
            scalar_of(source_type).ok_or_else(|| self.unsupported_at(expr, "this cast"))?;
        let value = self.expression(expr)?;
        let target = naga::Scalar {
            kind,
            width: convert.unwrap_or(source.width),
        };
        let target_scalar = types::scalar_type(self.m.context, target);
        let target_type: BasicTypeEnum = match value.get_type() {
            BasicTypeEnum::VectorType(v) => match target_scalar {
                BasicTypeEnum::IntType(t) => t.vec_type(v.get_size()).into(),
                BasicTypeEnum::FloatType(t) => t.vec_type(v.get_size()).into(),
                _ => unreachable!("scalars only"),
            },
            _ => target_scalar,
        };
        let cast = |opcode| {
            self.builder
                .build_cast(opcode, value, target_type, "")
                .map_err(llvm_error)
        };
        if convert.is_none() {
            return cast(O::BitCast);
        }
        use ScalarKind::{Bool, Float, Sint, Uint};
        match (source.kind, kind) {
            (Float, Float) if source.width == target.width => Ok(value),
            (Float, Float) if source.width < target.width => cast(O::FPExt),
            (Float, Float) => cast(O::FPTrunc),
            (Float, Sint | Uint) => {
                let name = format!(
                    "llvm.fpto{}i.sat.{}.{}",
                    if kind == Sint { "s" } else { "u" },
                    mangle(target_type),
                    mangle(value.get_type())
                );
                Ok(self.cx().call_value(&name, Some(target_type), &[value])?)
            }
            (Sint, Float) => cast(O::SIToFP),
            (Uint | Bool, Float) => cast(O::UIToFP),
            (Sint | Uint | Bool, Sint | Uint)
                if source.width == target.width && source.kind != Bool =>
            {
                Ok(value)
            }
            (Sint, Sint | Uint) if source.width < target.width => cast(O::SExt),
            (Uint | Bool, Sint | Uint) if source.width < target.width || source.kind == Bool => {
                cast(O::ZExt)
            }
            (Sint | Uint, Sint | Uint) => cast(O::Trunc),
            (Sint | Uint, Bool) => {
                let zero = value.get_type().const_zero();
                self.int_compare(IntPredicate::NE, value, zero)
            }
            (Float, Bool) => {
                let zero = value.get_type().const_zero();
                on_float!(value, |x| self
                    .builder
                    .build_float_compare(FloatPredicate::UNE, x, from_same(zero, x), "")
                    .map_err(llvm_error))
            }
            (Bool, Bool) => Ok(value),
            _ => Err(self.unsupported_at(expr, format!("a cast from {source:?} to {target:?}"))),
        }
    }

    fn array_length(
        &self,
        handle: Handle<Expression>,
        pointer: Handle<Expression>,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        match self.pointee(pointer)? {
            TypeInner::Array {
                size: naga::ArraySize::Dynamic,
                ..
            } => Ok(self.runtime_length(pointer)?.into()),
            _ => Err(self.unsupported_at(handle, "arrayLength of a sized array")),
        }
    }
}

/// `value` as the same kind of LLVM value as `like` (both scalars or both
/// vectors), for the generic builder methods.
pub(crate) fn from_same<'ctx, T: TryFrom<BasicValueEnum<'ctx>>>(
    value: BasicValueEnum<'ctx>,
    _like: T,
) -> T
where
    T::Error: std::fmt::Debug,
{
    T::try_from(value).expect("operands of one shape")
}

fn int_bits(ty: BasicTypeEnum<'_>) -> u32 {
    match ty {
        BasicTypeEnum::IntType(t) => t.get_bit_width(),
        BasicTypeEnum::VectorType(v) => v.get_element_type().into_int_type().get_bit_width(),
        _ => 0,
    }
}

/// LLVM's overloaded-intrinsic suffix for a type: `i32`, `f32`, `v4f32`.
pub(crate) fn mangle(ty: BasicTypeEnum<'_>) -> String {
    match ty {
        BasicTypeEnum::IntType(t) => format!("i{}", t.get_bit_width()),
        BasicTypeEnum::FloatType(t) => match t.get_bit_width() {
            16 => "f16".into(),
            64 => "f64".into(),
            _ => "f32".into(),
        },
        BasicTypeEnum::VectorType(v) => {
            format!("v{}{}", v.get_size(), mangle(v.get_element_type()))
        }
        other => format!("{other:?}"),
    }
}
