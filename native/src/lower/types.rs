//! naga types as LLVM value types, and the facts about scalars the
//! lowering keeps asking.

use inkwell::context::Context;
use inkwell::types::{BasicType, BasicTypeEnum};
use naga::{Scalar, ScalarKind, TypeInner, UniqueArena};

use crate::error::NativeError;

/// The LLVM type of a scalar value: `i1` for bool, `iN` for integers,
/// `half` / `float` / `double`.
pub fn scalar_type<'ctx>(context: &'ctx Context, scalar: Scalar) -> BasicTypeEnum<'ctx> {
    match (scalar.kind, scalar.width) {
        (ScalarKind::Bool, _) => context.bool_type().into(),
        (ScalarKind::Float, 2) => context.f16_type().into(),
        (ScalarKind::Float, 8) => context.f64_type().into(),
        (ScalarKind::Float, _) => context.f32_type().into(),
        (_, width) => context.custom_width_int_type(width as u32 * 8).into(),
    }
}

/// The LLVM type of a value of `inner`: vectors are LLVM vectors, matrices
/// arrays of column vectors, arrays and structs LLVM aggregates (their
/// memory layout is naga's and is applied by loads and stores, not here).
pub fn value_type<'ctx>(
    context: &'ctx Context,
    types: &UniqueArena<naga::Type>,
    inner: &TypeInner,
) -> Result<BasicTypeEnum<'ctx>, NativeError> {
    Ok(match *inner {
        TypeInner::Scalar(s) | TypeInner::Atomic(s) => scalar_type(context, s),
        TypeInner::Vector { size, scalar } => vector_of(scalar_type(context, scalar), size as u32),
        TypeInner::Matrix {
            columns,
            rows,
            scalar,
        } => vector_of(scalar_type(context, scalar), rows as u32)
            .array_type(columns as u32)
            .into(),
        TypeInner::Array {
            base,
            size: naga::ArraySize::Constant(n),
            ..
        } => value_type(context, types, &types[base].inner)?
            .array_type(n.get())
            .into(),
        TypeInner::Struct { ref members, .. } => {
            let fields = members
                .iter()
                .map(|m| value_type(context, types, &types[m.ty].inner))
                .collect::<Result<Vec<_>, _>>()?;
            context.struct_type(&fields, false).into()
        }
        // Pointers only live in registers as addresses; their space is
        // fixed by the caller, so an opaque pointer in space 0 stands in.
        TypeInner::Pointer { .. } | TypeInner::ValuePointer { .. } => {
            context.ptr_type(inkwell::AddressSpace::default()).into()
        }
        ref other => {
            return Err(NativeError::Abi(format!(
                "values of type {other:?} are not supported natively"
            )));
        }
    })
}

fn vector_of(scalar: BasicTypeEnum<'_>, n: u32) -> BasicTypeEnum<'_> {
    match scalar {
        BasicTypeEnum::IntType(t) => t.vec_type(n).into(),
        BasicTypeEnum::FloatType(t) => t.vec_type(n).into(),
        other => other,
    }
}

/// The scalar of a scalar, vector, matrix or atomic type.
pub fn scalar_of(inner: &TypeInner) -> Option<Scalar> {
    match *inner {
        TypeInner::Scalar(s) | TypeInner::Atomic(s) => Some(s),
        TypeInner::Vector { scalar, .. } | TypeInner::Matrix { scalar, .. } => Some(scalar),
        TypeInner::ValuePointer { scalar, .. } => Some(scalar),
        _ => None,
    }
}

/// Byte size and alignment of a vector of `n` scalars of `width` bytes, by
/// WGSL's layout rules (vec3 is aligned like vec4).
pub fn vector_layout(n: u32, width: u32) -> (u32, u32) {
    let align = if n == 2 { 2 * width } else { 4 * width };
    (n * width, align)
}

/// Byte stride between the columns of a matrix with `rows` rows.
pub fn column_stride(rows: u32, width: u32) -> u32 {
    let (size, align) = vector_layout(rows, width);
    size.div_ceil(align) * align
}

/// How a WGSL type is named in messages.
pub fn describe(inner: &TypeInner, types: &UniqueArena<naga::Type>) -> String {
    let scalar_name = |s: Scalar| match (s.kind, s.width) {
        (ScalarKind::Bool, _) => "bool".to_string(),
        (ScalarKind::Sint, w) => format!("i{}", w * 8),
        (ScalarKind::Uint, w) => format!("u{}", w * 8),
        (ScalarKind::Float, w) => format!("f{}", w * 8),
        (k, w) => format!("{k:?}{}", w * 8),
    };
    match *inner {
        TypeInner::Scalar(s) => scalar_name(s),
        TypeInner::Vector { size, scalar } => format!("vec{}<{}>", size as u8, scalar_name(scalar)),
        TypeInner::Atomic(s) => format!("atomic<{}>", scalar_name(s)),
        TypeInner::Struct { .. } => "a struct".into(),
        TypeInner::Array { base, .. } => {
            format!("array<{}>", describe(&types[base].inner, types))
        }
        ref other => format!("{other:?}"),
    }
}
