//! WGSL built-in functions: LLVM intrinsics where LLVM has them, the
//! target's accurate math library (libdevice on CUDA) for transcendental
//! functions, and WGSL's exact integer semantics for the bit functions.

use inkwell::IntPredicate;
use inkwell::types::BasicTypeEnum;
use inkwell::values::InstructionOpcode as O;
use inkwell::values::{BasicValue, BasicValueEnum};
use naga::{BinaryOperator as Bin, Expression, Handle, MathFunction as M, ScalarKind};

use super::FunctionLowerer;
use super::expression::mangle;
use super::types::scalar_of;
use crate::error::NativeError;
use crate::target::llvm_error;

impl<'m, 'a, 'ctx> FunctionLowerer<'m, 'a, 'ctx> {
    pub(crate) fn math(
        &mut self,
        handle: Handle<Expression>,
        fun: M,
        arg: Handle<Expression>,
        arg1: Option<Handle<Expression>>,
        arg2: Option<Handle<Expression>>,
        arg3: Option<Handle<Expression>>,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        let arg_type = self.type_of(arg);
        let scalar = scalar_of(arg_type)
            .ok_or_else(|| self.unsupported_at(handle, format!("{fun:?} on this type")))?;
        let x = self.expression(arg)?;
        let y = arg1.map(|h| self.expression(h)).transpose()?;
        let z = arg2.map(|h| self.expression(h)).transpose()?;
        let w = arg3.map(|h| self.expression(h)).transpose()?;
        let float = scalar.kind == ScalarKind::Float;
        let signed = scalar.kind == ScalarKind::Sint;
        let ty = x.get_type();
        let one_arg = |name: &str| self.intrinsic(name, ty, &[x]);
        let fconst = |v: f64| self.constant_like(ty, |t| t.into_float_type().const_float(v).into());
        let iconst =
            |v: u64| self.constant_like(ty, |t| t.into_int_type().const_int(v, false).into());
        let bits = scalar.width as u64 * 8;
        let unsupported = || self.unsupported_at(handle, format!("the math function {fun:?}"));
        Ok(match fun {
            M::Abs if float => one_arg("llvm.fabs")?,
            M::Abs if signed => {
                let poison = self
                    .m
                    .context
                    .bool_type()
                    .const_zero()
                    .as_basic_value_enum();
                let name = format!("llvm.abs.{}", mangle(ty));
                self.cx().call_value(&name, Some(ty), &[x, poison])?
            }
            M::Abs => x,
            M::Min | M::Max => {
                let y = y.ok_or_else(unsupported)?;
                self.min_max(fun == M::Min, scalar.kind, x, y)?
            }
            M::Clamp => {
                let low = self.min_max(false, scalar.kind, x, y.ok_or_else(unsupported)?)?;
                self.min_max(true, scalar.kind, low, z.ok_or_else(unsupported)?)?
            }
            M::Saturate => {
                let low = self.min_max(false, scalar.kind, x, fconst(0.0)?)?;
                self.min_max(true, scalar.kind, low, fconst(1.0)?)?
            }
            M::Ceil => one_arg("llvm.ceil")?,
            M::Floor => one_arg("llvm.floor")?,
            M::Trunc => one_arg("llvm.trunc")?,
            M::Round => one_arg("llvm.roundeven")?,
            M::Fract => {
                let floor = one_arg("llvm.floor")?;
                self.builder
                    .build_binop(O::FSub, x, floor, "")
                    .map_err(llvm_error)?
            }
            M::Sqrt => one_arg("llvm.sqrt")?,
            M::InverseSqrt => {
                let root = one_arg("llvm.sqrt")?;
                self.builder
                    .build_binop(O::FDiv, fconst(1.0)?, root, "")
                    .map_err(llvm_error)?
            }
            M::Fma => self.intrinsic(
                "llvm.fma",
                ty,
                &[x, y.ok_or_else(unsupported)?, z.ok_or_else(unsupported)?],
            )?,
            M::Mix => {
                // a * (1 - t) + b * t
                let (b, t) = (y.ok_or_else(unsupported)?, z.ok_or_else(unsupported)?);
                let t = if t.get_type() != ty {
                    self.splat(t, ty.into_vector_type().get_size())?
                } else {
                    t
                };
                let one_minus = self
                    .builder
                    .build_binop(O::FSub, fconst(1.0)?, t, "")
                    .map_err(llvm_error)?;
                let left = self
                    .builder
                    .build_binop(O::FMul, x, one_minus, "")
                    .map_err(llvm_error)?;
                let right = self
                    .builder
                    .build_binop(O::FMul, b, t, "")
                    .map_err(llvm_error)?;
                self.builder
                    .build_binop(O::FAdd, left, right, "")
                    .map_err(llvm_error)?
            }
            M::Step => {
                // step(edge, x) = select(0, 1, edge <= x)
                let edge_le =
                    self.scalar_binary(Bin::LessEqual, scalar, x, y.ok_or_else(unsupported)?)?;
                self.select(edge_le, fconst(1.0)?, fconst(0.0)?)?
            }
            M::SmoothStep => {
                let (hi, v) = (y.ok_or_else(unsupported)?, z.ok_or_else(unsupported)?);
                let span = self
                    .builder
                    .build_binop(O::FSub, hi, x, "")
                    .map_err(llvm_error)?;
                let off = self
                    .builder
                    .build_binop(O::FSub, v, x, "")
                    .map_err(llvm_error)?;
                let t = self
                    .builder
                    .build_binop(O::FDiv, off, span, "")
                    .map_err(llvm_error)?;
                let t = self.min_max(false, scalar.kind, t, fconst(0.0)?)?;
                let t = self.min_max(true, scalar.kind, t, fconst(1.0)?)?;
                let two_t = self
                    .builder
                    .build_binop(O::FMul, fconst(2.0)?, t, "")
                    .map_err(llvm_error)?;
                let k = self
                    .builder
                    .build_binop(O::FSub, fconst(3.0)?, two_t, "")
                    .map_err(llvm_error)?;
                let tt = self
                    .builder
                    .build_binop(O::FMul, t, t, "")
                    .map_err(llvm_error)?;
                self.builder
                    .build_binop(O::FMul, tt, k, "")
                    .map_err(llvm_error)?
            }
            M::Sign if float => {
                let positive = self.scalar_binary(Bin::Greater, scalar, x, fconst(0.0)?)?;
                let negative = self.scalar_binary(Bin::Less, scalar, x, fconst(0.0)?)?;
                let inner = self.select(negative, fconst(-1.0)?, fconst(0.0)?)?;
                self.select(positive, fconst(1.0)?, inner)?
            }
            M::Sign => {
                let zero = iconst(0)?;
                let positive = self.scalar_binary(Bin::Greater, scalar, x, zero)?;
                let negative = self.scalar_binary(Bin::Less, scalar, x, zero)?;
                let inner = self.select(negative, iconst(u64::MAX)?, zero)?;
                self.select(positive, iconst(1)?, inner)?
            }
            M::Radians => self
                .builder
                .build_binop(O::FMul, x, fconst(std::f64::consts::PI / 180.0)?, "")
                .map_err(llvm_error)?,
            M::Degrees => self
                .builder
                .build_binop(O::FMul, x, fconst(180.0 / std::f64::consts::PI)?, "")
                .map_err(llvm_error)?,
            M::Cos
            | M::Sin
            | M::Tan
            | M::Acos
            | M::Asin
            | M::Atan
            | M::Cosh
            | M::Sinh
            | M::Tanh
            | M::Acosh
            | M::Asinh
            | M::Atanh
            | M::Exp
            | M::Exp2
            | M::Log
            | M::Log2 => {
                let name = match fun {
                    M::Cos => "cos",
                    M::Sin => "sin",
                    M::Tan => "tan",
                    M::Acos => "acos",
                    M::Asin => "asin",
                    M::Atan => "atan",
                    M::Cosh => "cosh",
                    M::Sinh => "sinh",
                    M::Tanh => "tanh",
                    M::Acosh => "acosh",
                    M::Asinh => "asinh",
                    M::Atanh => "atanh",
                    M::Exp => "exp",
                    M::Exp2 => "exp2",
                    M::Log => "log",
                    _ => "log2",
                };
                self.routine(handle, name, &[x])?
            }
            M::Pow => self.routine(handle, "pow", &[x, y.ok_or_else(unsupported)?])?,
            M::Atan2 => self.routine(handle, "atan2", &[x, y.ok_or_else(unsupported)?])?,
            M::Dot => {
                let product =
                    self.scalar_binary(Bin::Multiply, scalar, x, y.ok_or_else(unsupported)?)?;
                self.horizontal_add(scalar, product)?
            }
            M::Length => match x {
                BasicValueEnum::VectorValue(_) => {
                    let square = self.scalar_binary(Bin::Multiply, scalar, x, x)?;
                    let sum = self.horizontal_add(scalar, square)?;
                    self.intrinsic("llvm.sqrt", sum.get_type(), &[sum])?
                }
                _ => one_arg("llvm.fabs")?,
            },
            M::Distance => {
                let difference =
                    self.scalar_binary(Bin::Subtract, scalar, x, y.ok_or_else(unsupported)?)?;
                let square = self.scalar_binary(Bin::Multiply, scalar, difference, difference)?;
                let sum = self.horizontal_add(scalar, square)?;
                self.intrinsic("llvm.sqrt", sum.get_type(), &[sum])?
            }
            M::Normalize => {
                let square = self.scalar_binary(Bin::Multiply, scalar, x, x)?;
                let sum = self.horizontal_add(scalar, square)?;
                let length = self.intrinsic("llvm.sqrt", sum.get_type(), &[sum])?;
                let length = self.splat(length, ty.into_vector_type().get_size())?;
                self.builder
                    .build_binop(O::FDiv, x, length, "")
                    .map_err(llvm_error)?
            }
            M::Cross => {
                let y = y.ok_or_else(unsupported)?;
                let mut out = ty.const_zero();
                for i in 0..3u32 {
                    let (j, k) = ((i + 1) % 3, (i + 2) % 3);
                    let aj = self.extract(x, j)?;
                    let bk = self.extract(y, k)?;
                    let ak = self.extract(x, k)?;
                    let bj = self.extract(y, j)?;
                    let l = self
                        .builder
                        .build_binop(O::FMul, aj, bk, "")
                        .map_err(llvm_error)?;
                    let r = self
                        .builder
                        .build_binop(O::FMul, ak, bj, "")
                        .map_err(llvm_error)?;
                    let c = self
                        .builder
                        .build_binop(O::FSub, l, r, "")
                        .map_err(llvm_error)?;
                    out = self.insert(out, c, i)?;
                }
                out
            }
            M::QuantizeToF16 => {
                let half: BasicTypeEnum = match ty {
                    BasicTypeEnum::VectorType(v) => {
                        self.m.context.f16_type().vec_type(v.get_size()).into()
                    }
                    _ => self.m.context.f16_type().into(),
                };
                let narrow = self
                    .builder
                    .build_cast(O::FPTrunc, x, half, "")
                    .map_err(llvm_error)?;
                self.builder
                    .build_cast(O::FPExt, narrow, ty, "")
                    .map_err(llvm_error)?
            }
            M::CountOneBits => one_arg("llvm.ctpop")?,
            M::ReverseBits => one_arg("llvm.bitreverse")?,
            M::CountLeadingZeros | M::CountTrailingZeros => {
                let name = if fun == M::CountLeadingZeros {
                    "llvm.ctlz"
                } else {
                    "llvm.cttz"
                };
                let defined_at_zero = self.m.context.bool_type().const_zero().into();
                self.cx().call_value(
                    &format!("{name}.{}", mangle(ty)),
                    Some(ty),
                    &[x, defined_at_zero],
                )?
            }
            M::FirstTrailingBit => {
                let defined_at_zero = self.m.context.bool_type().const_zero().into();
                let tz = self.cx().call_value(
                    &format!("llvm.cttz.{}", mangle(ty)),
                    Some(ty),
                    &[x, defined_at_zero],
                )?;
                let is_zero = self.int_compare(IntPredicate::EQ, x, iconst(0)?)?;
                self.select(is_zero, iconst(u64::MAX)?, tz)?
            }
            M::FirstLeadingBit => {
                // For negative signed values, the first 0 bit from the top.
                let v = if signed {
                    let negative = self.int_compare(IntPredicate::SLT, x, iconst(0)?)?;
                    let inverted = self
                        .builder
                        .build_binop(O::Xor, x, iconst(u64::MAX)?, "")
                        .map_err(llvm_error)?;
                    self.select(negative, inverted, x)?
                } else {
                    x
                };
                let defined_at_zero = self.m.context.bool_type().const_zero().into();
                let lz = self.cx().call_value(
                    &format!("llvm.ctlz.{}", mangle(ty)),
                    Some(ty),
                    &[v, defined_at_zero],
                )?;
                let top = self
                    .builder
                    .build_binop(O::Sub, iconst(bits - 1)?, lz, "")
                    .map_err(llvm_error)?;
                let is_zero = self.int_compare(IntPredicate::EQ, v, iconst(0)?)?;
                self.select(is_zero, iconst(u64::MAX)?, top)?
            }
            M::ExtractBits => {
                let (offset, count) = self.bit_range(
                    ty,
                    bits,
                    y.ok_or_else(unsupported)?,
                    z.ok_or_else(unsupported)?,
                )?;
                let count_zero = self.int_compare(IntPredicate::EQ, count, iconst(0)?)?;
                let width = iconst(bits)?;
                let extracted = if signed {
                    // (x << (w - o - c)) >>a (w - c)
                    let left = self
                        .builder
                        .build_binop(O::Sub, width, offset, "")
                        .map_err(llvm_error)?;
                    let left = self
                        .builder
                        .build_binop(O::Sub, left, count, "")
                        .map_err(llvm_error)?;
                    let right = self
                        .builder
                        .build_binop(O::Sub, width, count, "")
                        .map_err(llvm_error)?;
                    let right = self.clamp_shift(right, bits)?;
                    let shifted = self
                        .builder
                        .build_binop(O::Shl, x, left, "")
                        .map_err(llvm_error)?;
                    self.builder
                        .build_binop(O::AShr, shifted, right, "")
                        .map_err(llvm_error)?
                } else {
                    let o = self.clamp_shift(offset, bits)?;
                    let shifted = self
                        .builder
                        .build_binop(O::LShr, x, o, "")
                        .map_err(llvm_error)?;
                    let rest = self
                        .builder
                        .build_binop(O::Sub, width, count, "")
                        .map_err(llvm_error)?;
                    let rest = self.clamp_shift(rest, bits)?;
                    let mask = self
                        .builder
                        .build_binop(O::LShr, iconst(u64::MAX)?, rest, "")
                        .map_err(llvm_error)?;
                    self.builder
                        .build_binop(O::And, shifted, mask, "")
                        .map_err(llvm_error)?
                };
                self.select(count_zero, iconst(0)?, extracted)?
            }
            M::InsertBits => {
                let new_bits = y.ok_or_else(unsupported)?;
                let (offset, count) = self.bit_range(
                    ty,
                    bits,
                    z.ok_or_else(unsupported)?,
                    w.ok_or_else(unsupported)?,
                )?;
                let count_zero = self.int_compare(IntPredicate::EQ, count, iconst(0)?)?;
                let rest = self
                    .builder
                    .build_binop(O::Sub, iconst(bits)?, count, "")
                    .map_err(llvm_error)?;
                let rest = self.clamp_shift(rest, bits)?;
                let o = self.clamp_shift(offset, bits)?;
                let low_mask = self
                    .builder
                    .build_binop(O::LShr, iconst(u64::MAX)?, rest, "")
                    .map_err(llvm_error)?;
                let mask = self
                    .builder
                    .build_binop(O::Shl, low_mask, o, "")
                    .map_err(llvm_error)?;
                let mask = self.select(count_zero, iconst(0)?, mask)?;
                let inverse = self
                    .builder
                    .build_binop(O::Xor, mask, iconst(u64::MAX)?, "")
                    .map_err(llvm_error)?;
                let kept = self
                    .builder
                    .build_binop(O::And, x, inverse, "")
                    .map_err(llvm_error)?;
                let moved = self
                    .builder
                    .build_binop(O::Shl, new_bits, o, "")
                    .map_err(llvm_error)?;
                let moved = self
                    .builder
                    .build_binop(O::And, moved, mask, "")
                    .map_err(llvm_error)?;
                self.builder
                    .build_binop(O::Or, kept, moved, "")
                    .map_err(llvm_error)?
            }
            M::Pack2x16float => {
                let half2 = self.m.context.f16_type().vec_type(2);
                let narrow = self
                    .builder
                    .build_cast(O::FPTrunc, x, half2, "")
                    .map_err(llvm_error)?;
                self.builder
                    .build_cast(O::BitCast, narrow, self.m.context.i32_type(), "")
                    .map_err(llvm_error)?
            }
            M::Unpack2x16float => {
                let half2 = self.m.context.f16_type().vec_type(2);
                let halves = self
                    .builder
                    .build_cast(O::BitCast, x, half2, "")
                    .map_err(llvm_error)?;
                self.builder
                    .build_cast(O::FPExt, halves, self.m.context.f32_type().vec_type(2), "")
                    .map_err(llvm_error)?
            }
            M::Pack4xI8 | M::Pack4xU8 => {
                let bytes = self
                    .builder
                    .build_cast(O::Trunc, x, self.m.context.i8_type().vec_type(4), "")
                    .map_err(llvm_error)?;
                self.builder
                    .build_cast(O::BitCast, bytes, self.m.context.i32_type(), "")
                    .map_err(llvm_error)?
            }
            M::Unpack4xI8 | M::Unpack4xU8 => {
                let bytes = self
                    .builder
                    .build_cast(O::BitCast, x, self.m.context.i8_type().vec_type(4), "")
                    .map_err(llvm_error)?;
                let opcode = if fun == M::Unpack4xI8 {
                    O::SExt
                } else {
                    O::ZExt
                };
                self.builder
                    .build_cast(opcode, bytes, self.m.context.i32_type().vec_type(4), "")
                    .map_err(llvm_error)?
            }
            _ => return Err(unsupported()),
        })
    }

    /// An overloaded LLVM intrinsic mangled by its first argument's type.
    fn intrinsic(
        &self,
        name: &str,
        ty: BasicTypeEnum<'ctx>,
        args: &[BasicValueEnum<'ctx>],
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        self.cx()
            .call_value(&format!("{name}.{}", mangle(ty)), Some(ty), args)
    }

    pub(crate) fn min_max(
        &self,
        min: bool,
        kind: ScalarKind,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        let name = match (kind, min) {
            (ScalarKind::Float, true) => "llvm.minnum",
            (ScalarKind::Float, false) => "llvm.maxnum",
            (ScalarKind::Sint, true) => "llvm.smin",
            (ScalarKind::Sint, false) => "llvm.smax",
            (_, true) => "llvm.umin",
            (_, false) => "llvm.umax",
        };
        self.intrinsic(name, a.get_type(), &[a, b])
    }

    /// Clamped (offset, count) of extractBits / insertBits, splatted to `ty`.
    fn bit_range(
        &self,
        ty: BasicTypeEnum<'ctx>,
        bits: u64,
        offset: BasicValueEnum<'ctx>,
        count: BasicValueEnum<'ctx>,
    ) -> Result<(BasicValueEnum<'ctx>, BasicValueEnum<'ctx>), NativeError> {
        let u32t = self.m.context.i32_type();
        let width = u32t.const_int(bits, false).as_basic_value_enum();
        let o = self.min_max(true, ScalarKind::Uint, offset, width)?;
        let room = self
            .builder
            .build_binop(O::Sub, width, o, "")
            .map_err(llvm_error)?;
        let c = self.min_max(true, ScalarKind::Uint, count, room)?;
        let widen = |v: BasicValueEnum<'ctx>| -> Result<BasicValueEnum<'ctx>, NativeError> {
            let scalar_ty = match ty {
                BasicTypeEnum::VectorType(vt) => vt.get_element_type(),
                other => other,
            };
            let v = if scalar_ty != v.get_type() {
                self.builder
                    .build_cast(O::ZExt, v, scalar_ty, "")
                    .map_err(llvm_error)?
            } else {
                v
            };
            match ty {
                BasicTypeEnum::VectorType(vt) => self.splat(v, vt.get_size()),
                _ => Ok(v),
            }
        };
        Ok((widen(o)?, widen(c)?))
    }

    /// A shift amount kept below the width (the callers select away the
    /// lanes where the true amount is the width).
    fn clamp_shift(
        &self,
        amount: BasicValueEnum<'ctx>,
        bits: u64,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        let ty = amount.get_type();
        let mask =
            self.constant_like(ty, |t| t.into_int_type().const_int(bits - 1, false).into())?;
        self.builder
            .build_binop(O::And, amount, mask, "")
            .map_err(llvm_error)
    }

    fn horizontal_add(
        &self,
        scalar: naga::Scalar,
        vector: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        let BasicValueEnum::VectorValue(v) = vector else {
            return Ok(vector);
        };
        let mut sum = self.extract(vector, 0)?;
        for i in 1..v.get_type().get_size() {
            let c = self.extract(vector, i)?;
            sum = self.scalar_binary(Bin::Add, scalar, sum, c)?;
        }
        Ok(sum)
    }

    /// Calls the target's accurate routine for `name` per component
    /// (f16 goes through f32).
    fn routine(
        &self,
        handle: Handle<Expression>,
        name: &str,
        args: &[BasicValueEnum<'ctx>],
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        let ty = args[0].get_type();
        if let BasicTypeEnum::VectorType(v) = ty {
            let mut out = ty.const_zero();
            for i in 0..v.get_size() {
                let parts = args
                    .iter()
                    .map(|a| self.extract(*a, i))
                    .collect::<Result<Vec<_>, _>>()?;
                let r = self.routine(handle, name, &parts)?;
                out = self.insert(out, r, i)?;
            }
            return Ok(out);
        }
        let f32t = self.m.context.f32_type();
        let is_half = ty == self.m.context.f16_type().into();
        let is_double = ty == self.m.context.f64_type().into();
        let full = if is_double {
            name.to_string()
        } else {
            format!("{name}f")
        };
        let routine = self.m.target.math_routine(&full).ok_or_else(|| {
            self.unsupported_at(handle, format!("the math function {name} on this target"))
        })?;
        let args = args
            .iter()
            .map(|a| {
                if is_half {
                    self.builder
                        .build_cast(O::FPExt, *a, f32t, "")
                        .map_err(llvm_error)
                } else {
                    Ok(*a)
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        let call_ty = if is_half { f32t.into() } else { ty };
        let result = self.cx().call_value(&routine, Some(call_ty), &args)?;
        if is_half {
            self.builder
                .build_cast(O::FPTrunc, result, ty, "")
                .map_err(llvm_error)
        } else {
            Ok(result)
        }
    }

    /// Matrix arithmetic: `m * v`, `v * m`, `m * m`, `m * s`, `m ± m`.
    pub(crate) fn matrix_binary(
        &self,
        handle: Handle<Expression>,
        op: Bin,
        left_type: &naga::TypeInner,
        right_type: &naga::TypeInner,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        use naga::TypeInner as T;
        let scalar = scalar_of(left_type).expect("numeric");
        let columns = |t: &T| match *t {
            T::Matrix { columns, .. } => columns as u32,
            _ => 0,
        };
        let mul = |x, y| self.scalar_binary(Bin::Multiply, scalar, x, y);
        let add = |x, y| self.scalar_binary(Bin::Add, scalar, x, y);
        // matrix * vector: sum over columns of column * v[c].
        let mat_vec = |m: BasicValueEnum<'ctx>, cols: u32, v: BasicValueEnum<'ctx>| {
            let mut sum: Option<BasicValueEnum> = None;
            for c in 0..cols {
                let column = self.extract(m, c)?;
                let size = column.into_vector_value().get_type().get_size();
                let factor = self.splat(self.extract(v, c)?, size)?;
                let term = mul(column, factor)?;
                sum = Some(match sum {
                    Some(s) => add(s, term)?,
                    None => term,
                });
            }
            sum.ok_or_else(|| NativeError::Llvm("an empty matrix".into()))
        };
        match (op, left_type, right_type) {
            (Bin::Add | Bin::Subtract, T::Matrix { .. }, T::Matrix { .. }) => {
                let mut out = a.get_type().const_zero();
                for c in 0..columns(left_type) {
                    let r =
                        self.scalar_binary(op, scalar, self.extract(a, c)?, self.extract(b, c)?)?;
                    out = self.insert(out, r, c)?;
                }
                Ok(out)
            }
            (Bin::Multiply, T::Matrix { rows, .. }, T::Scalar(_)) => {
                let factor = self.splat(b, *rows as u32)?;
                let mut out = a.get_type().const_zero();
                for c in 0..columns(left_type) {
                    out = self.insert(out, mul(self.extract(a, c)?, factor)?, c)?;
                }
                Ok(out)
            }
            (Bin::Multiply, T::Scalar(_), T::Matrix { .. }) => {
                self.matrix_binary(handle, op, right_type, left_type, b, a)
            }
            (Bin::Multiply, T::Matrix { .. }, T::Vector { .. }) => {
                mat_vec(a, columns(left_type), b)
            }
            (Bin::Multiply, T::Vector { .. }, T::Matrix { .. }) => {
                let n = columns(right_type);
                let ty = match self.extract(b, 0)?.get_type() {
                    BasicTypeEnum::VectorType(_) => {
                        let e = a.get_type().into_vector_type().get_element_type();
                        match e {
                            BasicTypeEnum::FloatType(f) => f.vec_type(n),
                            _ => return Err(self.unsupported_at(handle, "integer matrices")),
                        }
                    }
                    _ => return Err(self.unsupported_at(handle, "this matrix product")),
                };
                let mut out: BasicValueEnum = ty.const_zero().into();
                for c in 0..n {
                    let product = mul(a, self.extract(b, c)?)?;
                    let d = self.horizontal_add(scalar, product)?;
                    out = self.insert(out, d, c)?;
                }
                Ok(out)
            }
            (Bin::Multiply, T::Matrix { .. }, T::Matrix { .. }) => {
                let n = columns(right_type);
                let mut results = Vec::new();
                for c in 0..n {
                    results.push(mat_vec(a, columns(left_type), self.extract(b, c)?)?);
                }
                let column_ty = results[0].get_type();
                let array_ty = match column_ty {
                    BasicTypeEnum::VectorType(v) => v.array_type(n),
                    _ => return Err(self.unsupported_at(handle, "this matrix product")),
                };
                let mut value: BasicValueEnum = array_ty.const_zero().into();
                for (c, r) in results.into_iter().enumerate() {
                    value = self.insert(value, r, c as u32)?;
                }
                Ok(value)
            }
            _ => Err(self.unsupported_at(handle, format!("the matrix operation {op:?}"))),
        }
    }
}
