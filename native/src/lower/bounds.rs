//! WGSL's bounds semantics: every dynamic index is clamped into its array,
//! vector or matrix, as naga's `BoundsCheckPolicy::Restrict` does.
//!
//! wgpu compiles shaders with `Restrict` for indices into values, local,
//! private and workgroup memory, and for storage and uniform buffers
//! (`Unchecked` for buffers only where the Vulkan device promises
//! `robustBufferAccess2`). The native back ends have no such hardware
//! guarantee, so they clamp everywhere by default: an index `i` into `n`
//! elements becomes `min(i, n - 1)` with `i` read as unsigned (a negative
//! `i32` index goes to the last element), one branch-free `min` per access.
//! For a runtime-sized array `n` comes from the buffer's byte length in the
//! kernel ABI (`(bytes - fixed part) / stride`, computed once per kernel
//! after inlining; the launch refuses a binding without one element, as
//! WebGPU's minimum binding size does). Constant indices that naga has
//! already proved in bounds are left alone; a constant index into a
//! runtime-sized array is clamped like a dynamic one.
//!
//! [`BoundsChecks::Unchecked`] turns all of it off, for kernels that prove
//! their own bounds: an out-of-bounds index is then undefined behaviour.

use inkwell::IntPredicate;
use inkwell::values::IntValue;
use naga::{ArraySize, Expression, Handle, TypeInner};

use super::FunctionLowerer;
use crate::error::NativeError;
use crate::target::llvm_error;

/// How the native lowering treats indices (naga's `BoundsCheckPolicy`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BoundsChecks {
    /// Clamp every index into its object (naga's `Restrict`, what wgpu
    /// uses): memory accesses stay inside their buffer or variable.
    #[default]
    Restrict,
    /// No checks (naga's `Unchecked`): an out-of-bounds index is undefined
    /// behaviour; for kernels that prove their own bounds.
    Unchecked,
}

impl BoundsChecks {
    /// The policy's name, as options and messages spell it.
    pub fn name(self) -> &'static str {
        match self {
            BoundsChecks::Restrict => "restrict",
            BoundsChecks::Unchecked => "unchecked",
        }
    }
}

/// How many elements an index may reach.
enum Extent<'ctx> {
    /// Known at compile time.
    Fixed(u32),
    /// A runtime-sized array: computed from the buffer's length.
    Runtime(IntValue<'ctx>),
}

impl<'m, 'a, 'ctx> FunctionLowerer<'m, 'a, 'ctx> {
    /// `index` clamped into the object of type `inner` that `base` (a
    /// pointer expression) points to, under the module's policy.
    pub(crate) fn restrict_pointer_index(
        &self,
        base: Handle<Expression>,
        inner: &TypeInner,
        index: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>, NativeError> {
        if self.m.bounds == BoundsChecks::Unchecked {
            return Ok(index);
        }
        let extent = match *inner {
            TypeInner::Array {
                size: ArraySize::Dynamic,
                ..
            } => Extent::Runtime(self.runtime_length(base)?),
            _ => match fixed_extent(inner) {
                Some(n) => Extent::Fixed(n),
                None => return Ok(index),
            },
        };
        self.clamp(index, extent)
    }

    /// `index` clamped into a vector, matrix or array *value* of type
    /// `inner`, under the module's policy.
    pub(crate) fn restrict_value_index(
        &self,
        inner: &TypeInner,
        index: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>, NativeError> {
        match fixed_extent(inner) {
            Some(n) if self.m.bounds == BoundsChecks::Restrict => {
                self.clamp(index, Extent::Fixed(n))
            }
            _ => Ok(index),
        }
    }

    /// Whether a constant `index` into `inner` (behind a pointer) still
    /// needs a check: only runtime-sized arrays, whose length naga cannot
    /// know.
    pub(crate) fn constant_index_needs_check(&self, inner: &TypeInner) -> bool {
        self.m.bounds == BoundsChecks::Restrict
            && matches!(
                inner,
                TypeInner::Array {
                    size: ArraySize::Dynamic,
                    ..
                }
            )
    }

    /// `min(index, n - 1)`, unsigned; `n` is at least 1.
    fn clamp(
        &self,
        index: IntValue<'ctx>,
        extent: Extent<'ctx>,
    ) -> Result<IntValue<'ctx>, NativeError> {
        let ty = index.get_type();
        let last = match extent {
            Extent::Fixed(n) => {
                let last = n.saturating_sub(1) as u64;
                if let Some(constant) = index.get_zero_extended_constant()
                    && constant <= last
                {
                    return Ok(index);
                }
                ty.const_int(last, false)
            }
            Extent::Runtime(length) => {
                let length = self
                    .builder
                    .build_int_z_extend_or_bit_cast(length, ty, "")
                    .map_err(llvm_error)?;
                self.builder
                    .build_int_sub(length, ty.const_int(1, false), "last")
                    .map_err(llvm_error)?
            }
        };
        let inside = self
            .builder
            .build_int_compare(IntPredicate::ULE, index, last, "")
            .map_err(llvm_error)?;
        Ok(self
            .builder
            .build_select(inside, index, last, "clamped")
            .map_err(llvm_error)?
            .into_int_value())
    }

    /// The element count of the runtime-sized array `pointer` points to:
    /// `(bytes - fixed part) / stride` of the buffer it lies in.
    pub(crate) fn runtime_length(
        &self,
        pointer: Handle<Expression>,
    ) -> Result<IntValue<'ctx>, NativeError> {
        let function = self.naga_function();
        let mut base = pointer;
        let global = loop {
            match function.expressions[base] {
                Expression::GlobalVariable(g) => break g,
                Expression::AccessIndex { base: b, .. } => base = b,
                _ => {
                    return Err(self.unsupported_at(
                        pointer,
                        "a runtime-sized array reached other than through its buffer",
                    ));
                }
            }
        };
        let (_, bytes) = self.buffer(global).ok_or_else(|| {
            self.unsupported_at(pointer, "a runtime-sized array outside a buffer")
        })?;
        let inner = &self.m.naga.types[self.m.naga.global_variables[global].ty].inner;
        let (fixed, stride) = super::runtime_array_shape(inner, self.m.naga);
        let stride =
            stride.ok_or_else(|| self.unsupported_at(pointer, "the length of a sized array"))?;
        let i32t = self.m.context.i32_type();
        let rest = self
            .builder
            .build_int_sub(bytes, i32t.const_int(fixed as u64, false), "")
            .map_err(llvm_error)?;
        self.builder
            .build_int_unsigned_div(rest, i32t.const_int(stride as u64, false), "length")
            .map_err(llvm_error)
    }
}

/// The element count of a sized array, vector or matrix (columns).
fn fixed_extent(inner: &TypeInner) -> Option<u32> {
    match *inner {
        TypeInner::Array {
            size: ArraySize::Constant(n),
            ..
        } => Some(n.get()),
        TypeInner::Vector { size, .. } => Some(size as u32),
        TypeInner::Matrix { columns, .. } => Some(columns as u32),
        _ => None,
    }
}
