//! naga's subgroup statements, composed from the target's 32-bit lane
//! moves, ballots, votes and native reductions.
//!
//! Values wider or narrower than 32 bits move as 32-bit words (64-bit ones
//! as two), vectors component by component. Reductions use the target's
//! one-instruction form where it has one (`redux.sync` on sm_80+) and a
//! butterfly of `log2(S)` xor-shuffles otherwise; scans are Kogge–Stone
//! ladders of up-shuffles.
//!
//! Contract (as for CUB's warp primitives): every lane of the subgroup
//! reaches the operation together; kernels whose workgroup is not a
//! multiple of the subgroup size use the active-lane mask instead.

use inkwell::IntPredicate;
use inkwell::types::BasicTypeEnum;
use inkwell::values::InstructionOpcode as O;
use inkwell::values::{BasicValue, BasicValueEnum, IntValue};
use naga::{
    BinaryOperator as Bin, CollectiveOperation, Expression, GatherMode, Handle, ScalarKind,
    SubgroupOperation as Op,
};

use super::FunctionLowerer;
use super::types::scalar_of;
use crate::error::NativeError;
use crate::target::{NativeReduce, Shuffle, llvm_error};

impl<'m, 'a, 'ctx> FunctionLowerer<'m, 'a, 'ctx> {
    pub(crate) fn subgroup_ballot(
        &mut self,
        result: Handle<Expression>,
        predicate: Option<Handle<Expression>>,
    ) -> Result<(), NativeError> {
        let predicate = match predicate {
            Some(p) => self.expression(p)?.into_int_value(),
            None => self.m.context.bool_type().const_int(1, false),
        };
        let words = self.m.target.ballot(&self.cx(), predicate)?;
        let mut value: BasicValueEnum = self.m.context.i32_type().vec_type(4).const_zero().into();
        for (i, word) in words.iter().enumerate() {
            value = self.insert(value, (*word).into(), i as u32)?;
        }
        self.values.insert(result, value);
        Ok(())
    }

    pub(crate) fn subgroup_gather(
        &mut self,
        mode: &GatherMode,
        argument: Handle<Expression>,
        result: Handle<Expression>,
    ) -> Result<(), NativeError> {
        let value = self.expression(argument)?;
        let i32t = self.m.context.i32_type();
        let (kind, operand) = match *mode {
            GatherMode::BroadcastFirst => (Shuffle::BroadcastFirst, i32t.const_zero()),
            GatherMode::Broadcast(lane) => {
                (Shuffle::Broadcast, self.expression(lane)?.into_int_value())
            }
            GatherMode::Shuffle(lane) => (Shuffle::Index, self.expression(lane)?.into_int_value()),
            GatherMode::ShuffleDown(delta) => {
                (Shuffle::Down, self.expression(delta)?.into_int_value())
            }
            GatherMode::ShuffleUp(delta) => (Shuffle::Up, self.expression(delta)?.into_int_value()),
            GatherMode::ShuffleXor(mask) => (Shuffle::Xor, self.expression(mask)?.into_int_value()),
            GatherMode::QuadBroadcast(index) => {
                let lane = self.m.target.lane_id(&self.cx())?;
                let base = self
                    .builder
                    .build_and(lane, i32t.const_int(!3u32 as u64, false), "")
                    .map_err(llvm_error)?;
                let index = self.expression(index)?.into_int_value();
                let source = self
                    .builder
                    .build_int_add(base, index, "")
                    .map_err(llvm_error)?;
                (Shuffle::Index, source)
            }
            GatherMode::QuadSwap(direction) => {
                let mask = match direction {
                    naga::Direction::X => 1,
                    naga::Direction::Y => 2,
                    naga::Direction::Diagonal => 3,
                };
                (Shuffle::Xor, i32t.const_int(mask, false))
            }
        };
        let moved = self.shuffle_value(kind, value, operand)?;
        self.values.insert(result, moved);
        Ok(())
    }

    /// Moves a value of any scalar or vector type between lanes.
    pub(crate) fn shuffle_value(
        &self,
        kind: Shuffle,
        value: BasicValueEnum<'ctx>,
        operand: IntValue<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        let context = self.m.context;
        let i32t = context.i32_type();
        let b = &self.builder;
        match value.get_type() {
            BasicTypeEnum::VectorType(v) => {
                let mut out = value.get_type().const_zero();
                for i in 0..v.get_size() {
                    let component = self.extract(value, i)?;
                    let moved = self.shuffle_value(kind, component, operand)?;
                    out = self.insert(out, moved, i)?;
                }
                Ok(out)
            }
            ty => {
                let bits = match ty {
                    BasicTypeEnum::IntType(t) => t.get_bit_width(),
                    _ if ty == context.f16_type().into() => 16,
                    _ if ty == context.f64_type().into() => 64,
                    _ => 32,
                };
                let int_ty = context.custom_width_int_type(bits);
                let as_int = if ty.is_int_type() {
                    value
                } else {
                    b.build_cast(O::BitCast, value, int_ty, "")
                        .map_err(llvm_error)?
                };
                let moved = if bits <= 32 {
                    let word = if bits < 32 {
                        b.build_cast(O::ZExt, as_int, i32t, "")
                            .map_err(llvm_error)?
                    } else {
                        as_int
                    };
                    let moved =
                        self.m
                            .target
                            .shuffle(&self.cx(), kind, word.into_int_value(), operand)?;
                    if bits < 32 {
                        b.build_cast(O::Trunc, moved, int_ty, "")
                            .map_err(llvm_error)?
                    } else {
                        moved.into()
                    }
                } else {
                    let wide = as_int.into_int_value();
                    let low = b.build_int_truncate(wide, i32t, "").map_err(llvm_error)?;
                    let high = b
                        .build_right_shift(wide, int_ty.const_int(32, false), false, "")
                        .map_err(llvm_error)?;
                    let high = b.build_int_truncate(high, i32t, "").map_err(llvm_error)?;
                    let low = self.m.target.shuffle(&self.cx(), kind, low, operand)?;
                    let high = self.m.target.shuffle(&self.cx(), kind, high, operand)?;
                    let low = b.build_int_z_extend(low, int_ty, "").map_err(llvm_error)?;
                    let high = b.build_int_z_extend(high, int_ty, "").map_err(llvm_error)?;
                    let high = b
                        .build_left_shift(high, int_ty.const_int(32, false), "")
                        .map_err(llvm_error)?;
                    b.build_or(low, high, "").map_err(llvm_error)?.into()
                };
                if ty.is_int_type() {
                    Ok(moved)
                } else {
                    b.build_cast(O::BitCast, moved, ty, "").map_err(llvm_error)
                }
            }
        }
    }

    pub(crate) fn subgroup_collective(
        &mut self,
        op: Op,
        collective: CollectiveOperation,
        argument: Handle<Expression>,
        result: Handle<Expression>,
    ) -> Result<(), NativeError> {
        let value = self.expression(argument)?;
        let scalar = scalar_of(self.type_of(argument))
            .ok_or_else(|| self.unsupported_at(argument, "a subgroup operation on this type"))?;
        let out = match op {
            Op::All | Op::Any => {
                if collective != CollectiveOperation::Reduce {
                    return Err(self.unsupported_at(argument, "scans of all/any"));
                }
                self.m
                    .target
                    .vote(&self.cx(), op == Op::All, value.into_int_value())?
                    .into()
            }
            _ => match collective {
                CollectiveOperation::Reduce => self.reduce(op, scalar, value)?,
                CollectiveOperation::InclusiveScan => self.inclusive_scan(op, scalar, value)?,
                CollectiveOperation::ExclusiveScan => {
                    let inclusive = self.inclusive_scan(op, scalar, value)?;
                    // Integer add and xor are invertible (exactly, wrapping):
                    // the exclusive prefix is the inclusive one without the
                    // lane's own value, one operation instead of a shuffle.
                    let integer = matches!(scalar.kind, ScalarKind::Sint | ScalarKind::Uint);
                    if integer && matches!(op, Op::Add | Op::Xor) {
                        let undo = if op == Op::Add {
                            Bin::Subtract
                        } else {
                            Bin::ExclusiveOr
                        };
                        let exclusive = self.scalar_binary(undo, scalar, inclusive, value)?;
                        self.values.insert(result, exclusive);
                        return Ok(());
                    }
                    let shifted = self.shuffle_value(
                        Shuffle::Up,
                        inclusive,
                        self.m.context.i32_type().const_int(1, false),
                    )?;
                    let lane = self.m.target.lane_id(&self.cx())?;
                    let first = self
                        .builder
                        .build_int_compare(
                            IntPredicate::EQ,
                            lane,
                            self.m.context.i32_type().const_zero(),
                            "",
                        )
                        .map_err(llvm_error)?;
                    let identity = self.identity(op, scalar, value.get_type())?;
                    self.select(first.into(), identity, shifted)?
                }
            },
        };
        self.values.insert(result, out);
        Ok(())
    }

    fn combine(
        &self,
        op: Op,
        scalar: naga::Scalar,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        match op {
            Op::Add => self.scalar_binary(Bin::Add, scalar, a, b),
            Op::Mul => self.scalar_binary(Bin::Multiply, scalar, a, b),
            Op::And => self.scalar_binary(Bin::And, scalar, a, b),
            Op::Or => self.scalar_binary(Bin::InclusiveOr, scalar, a, b),
            Op::Xor => self.scalar_binary(Bin::ExclusiveOr, scalar, a, b),
            Op::Min | Op::Max => self.min_max(op == Op::Min, scalar.kind, a, b),
            Op::All | Op::Any => Err(NativeError::Llvm("votes are not combined".into())),
        }
    }

    /// The value that leaves others unchanged under `op`.
    fn identity(
        &self,
        op: Op,
        scalar: naga::Scalar,
        ty: BasicTypeEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        let bits = scalar.width as u32 * 8;
        let float = scalar.kind == ScalarKind::Float;
        self.constant_like(ty, |t| match (op, scalar.kind) {
            (Op::Add | Op::Or | Op::Xor, _) => t.const_zero(),
            (Op::Mul, _) if float => t.into_float_type().const_float(1.0).into(),
            (Op::Mul, _) => t.into_int_type().const_int(1, false).into(),
            (Op::And, _) => t.into_int_type().const_all_ones().into(),
            (Op::Min, ScalarKind::Float) => t.into_float_type().const_float(f64::INFINITY).into(),
            (Op::Max, ScalarKind::Float) => {
                t.into_float_type().const_float(f64::NEG_INFINITY).into()
            }
            (Op::Min, ScalarKind::Sint) => t
                .into_int_type()
                .const_int((1u64 << (bits - 1)) - 1, false)
                .into(),
            (Op::Max, ScalarKind::Sint) => t
                .into_int_type()
                .const_int(1u64 << (bits - 1), false)
                .into(),
            (Op::Min, _) => t.into_int_type().const_all_ones().into(),
            (Op::Max, _) => t.const_zero(),
            (Op::All | Op::Any, _) => t.const_zero(),
        })
    }

    fn reduce(
        &self,
        op: Op,
        scalar: naga::Scalar,
        value: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        if let (4, ScalarKind::Sint | ScalarKind::Uint, BasicValueEnum::IntValue(word)) =
            (scalar.width, scalar.kind, value)
        {
            let signed = scalar.kind == ScalarKind::Sint;
            let native = match op {
                Op::Add => Some(NativeReduce::Add),
                Op::Min if signed => Some(NativeReduce::MinSigned),
                Op::Min => Some(NativeReduce::MinUnsigned),
                Op::Max if signed => Some(NativeReduce::MaxSigned),
                Op::Max => Some(NativeReduce::MaxUnsigned),
                Op::And => Some(NativeReduce::And),
                Op::Or => Some(NativeReduce::Or),
                Op::Xor => Some(NativeReduce::Xor),
                _ => None,
            };
            if let Some(native) = native
                && let Some(r) = self.m.target.native_reduce(&self.cx(), native, word)?
            {
                return Ok(r.into());
            }
        }
        let mut accumulator = value;
        let mut distance = self.m.target.subgroup_size() / 2;
        while distance >= 1 {
            let other = self.shuffle_value(
                Shuffle::Xor,
                accumulator,
                self.m.context.i32_type().const_int(distance as u64, false),
            )?;
            accumulator = self.combine(op, scalar, accumulator, other)?;
            distance /= 2;
        }
        Ok(accumulator)
    }

    fn inclusive_scan(
        &self,
        op: Op,
        scalar: naga::Scalar,
        value: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, NativeError> {
        let i32t = self.m.context.i32_type();
        let lane = self.m.target.lane_id(&self.cx())?;
        let mut accumulator = value;
        let mut distance = 1;
        while distance < self.m.target.subgroup_size() {
            let delta = i32t.const_int(distance as u64, false);
            let other = self.shuffle_value(Shuffle::Up, accumulator, delta)?;
            let combined = self.combine(op, scalar, accumulator, other)?;
            let has_source = self
                .builder
                .build_int_compare(IntPredicate::UGE, lane, delta, "")
                .map_err(llvm_error)?;
            accumulator = self.select(has_source.as_basic_value_enum(), combined, accumulator)?;
            distance *= 2;
        }
        Ok(accumulator)
    }
}
