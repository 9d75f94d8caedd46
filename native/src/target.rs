//! What a native target supplies to the shared lowering.
//!
//! [`crate::lower`] turns naga IR into target-independent LLVM IR and asks
//! the target for everything that differs between GPUs: address spaces,
//! the kernel calling convention, special registers, warp/wave operations
//! and barriers. `nvptx` implements it for CUDA and `amdgpu` for HIP.

use inkwell::builder::Builder;
use inkwell::context::Context;
use inkwell::module::Module;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValueEnum, FunctionValue, IntValue};

use crate::error::NativeError;

/// A 32-bit lane-to-lane move, the building block of every gather.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shuffle {
    /// From an absolute lane.
    Index,
    /// From `lane - delta`; lanes below `delta` keep their own value.
    Up,
    /// From `lane + delta`; lanes past the end keep their own value.
    Down,
    /// From `lane ^ mask`.
    Xor,
    /// From one lane every lane names alike (a uniform operand).
    Broadcast,
    /// From the lowest active lane (the operand is ignored).
    BroadcastFirst,
}

/// A subgroup reduction a target may do in one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NativeReduce {
    /// Wrapping add.
    Add,
    /// Signed minimum.
    MinSigned,
    /// Signed maximum.
    MaxSigned,
    /// Unsigned minimum.
    MinUnsigned,
    /// Unsigned maximum.
    MaxUnsigned,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise xor.
    Xor,
}

/// The compute dimensions a special register is read for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dim {
    /// x
    X,
    /// y
    Y,
    /// z
    Z,
}

impl Dim {
    /// x, y, z.
    pub const ALL: [Dim; 3] = [Dim::X, Dim::Y, Dim::Z];

    /// `x`, `y` or `z`, as intrinsic names spell it.
    pub fn name(self) -> &'static str {
        match self {
            Dim::X => "x",
            Dim::Y => "y",
            Dim::Z => "z",
        }
    }
}

/// A memory scope for fences.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The subgroup.
    Subgroup,
    /// The workgroup.
    Workgroup,
    /// The device.
    Device,
}

/// Target-specific pieces of the lowering. Every method emits at the
/// builder's position.
pub trait TargetLayer {
    /// LLVM target triple.
    fn triple(&self) -> &'static str;
    /// Lanes per subgroup.
    fn subgroup_size(&self) -> u32;
    /// Address space of allocas (per-invocation memory).
    fn private_space(&self) -> u16;
    /// Address space of workgroup (shared) memory.
    fn workgroup_space(&self) -> u16;
    /// Address space of storage and uniform buffers.
    fn global_space(&self) -> u16;
    /// The most workgroup memory a kernel may declare statically (bytes);
    /// a kernel that uses more takes it all as dynamic workgroup memory
    /// ([`KernelAbi::dynamic_workgroup_bytes`](crate::KernelAbi)). `None`:
    /// no such limit below the device's (AMDGPU's LDS is static).
    fn static_workgroup_limit(&self) -> Option<u32> {
        None
    }
    /// Marks `kernel` as an entry point launched with `workgroup_size`
    /// threads, of which a multiprocessor should hold at least
    /// `min_resident` workgroups at once where given
    /// ([`LowerOptions::min_resident_workgroups`](crate::LowerOptions)).
    fn declare_kernel<'ctx>(
        &self,
        context: &'ctx Context,
        module: &Module<'ctx>,
        kernel: FunctionValue<'ctx>,
        workgroup_size: [u32; 3],
        min_resident: Option<u32>,
    );
    /// The invocation's id within its workgroup.
    fn local_id<'ctx>(&self, cx: &Cx<'_, 'ctx>, dim: Dim) -> Result<IntValue<'ctx>, NativeError>;
    /// The workgroup's id within the dispatch.
    fn group_id<'ctx>(&self, cx: &Cx<'_, 'ctx>, dim: Dim) -> Result<IntValue<'ctx>, NativeError>;
    /// The number of workgroups dispatched.
    fn num_groups<'ctx>(&self, cx: &Cx<'_, 'ctx>, dim: Dim) -> Result<IntValue<'ctx>, NativeError>;
    /// The invocation's lane in its subgroup.
    fn lane_id<'ctx>(&self, cx: &Cx<'_, 'ctx>) -> Result<IntValue<'ctx>, NativeError>;
    /// Moves a 32-bit word between lanes.
    fn shuffle<'ctx>(
        &self,
        cx: &Cx<'_, 'ctx>,
        kind: Shuffle,
        word: IntValue<'ctx>,
        operand: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>, NativeError>;
    /// The lanes where `predicate` holds, as up to four 32-bit words (the
    /// first covers lanes 0..32).
    fn ballot<'ctx>(
        &self,
        cx: &Cx<'_, 'ctx>,
        predicate: IntValue<'ctx>,
    ) -> Result<[IntValue<'ctx>; 4], NativeError>;
    /// Whether `predicate` holds in every (`all`) or some active lane.
    fn vote<'ctx>(
        &self,
        cx: &Cx<'_, 'ctx>,
        all: bool,
        predicate: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>, NativeError>;
    /// The lowest active lane.
    fn first_active_lane<'ctx>(&self, cx: &Cx<'_, 'ctx>) -> Result<IntValue<'ctx>, NativeError>;
    /// A one-instruction reduction of a 32-bit integer, where the target has one.
    fn native_reduce<'ctx>(
        &self,
        cx: &Cx<'_, 'ctx>,
        op: NativeReduce,
        word: IntValue<'ctx>,
    ) -> Result<Option<IntValue<'ctx>>, NativeError>;
    /// A control barrier over the workgroup (orders workgroup memory too).
    fn workgroup_barrier<'ctx>(&self, cx: &Cx<'_, 'ctx>) -> Result<(), NativeError>;
    /// A control barrier over the subgroup.
    fn subgroup_barrier<'ctx>(&self, cx: &Cx<'_, 'ctx>) -> Result<(), NativeError>;
    /// A memory fence at `scope`.
    fn fence<'ctx>(&self, cx: &Cx<'_, 'ctx>, scope: Scope) -> Result<(), NativeError>;
    /// The name of an accurate math routine for `name` (`sinf`, `pow`, ...)
    /// to declare and call, or `None` if the target has none.
    fn math_routine(&self, name: &str) -> Option<String>;
    /// The target's own body for a template helper function it does in
    /// fewer instructions (CUDA's fused barrier votes and `match.any`):
    /// called at the entry of the lowered function whose WGSL name is
    /// `name`, with its arguments and its return type. `Ok(Some(value))`
    /// makes the function return `value` instead of running the template's
    /// body; `Ok(None)` (the default) keeps the template's body. A target
    /// must check the signature it expects and answer `None` on any other.
    fn fused_body<'ctx>(
        &self,
        _cx: &Cx<'_, 'ctx>,
        _name: &str,
        _args: &[BasicValueEnum<'ctx>],
        _ret: Option<BasicTypeEnum<'ctx>>,
    ) -> Result<Option<BasicValueEnum<'ctx>>, NativeError> {
        Ok(None)
    }
}

/// The LLVM objects an emitting method works with.
pub struct Cx<'a, 'ctx> {
    /// The context.
    pub context: &'ctx Context,
    /// The module being built.
    pub module: &'a Module<'ctx>,
    /// The builder, positioned where code goes.
    pub builder: &'a Builder<'ctx>,
    /// The membermask of the enclosing kernel's subgroups (all ones when
    /// every subgroup is full).
    pub lane_mask: u32,
}

impl<'ctx> Cx<'_, 'ctx> {
    /// Declares (once) and calls `name` with `args`, returning its value.
    pub fn call_intrinsic(
        &self,
        name: &str,
        ret: Option<inkwell::types::BasicTypeEnum<'ctx>>,
        args: &[inkwell::values::BasicValueEnum<'ctx>],
    ) -> Result<Option<inkwell::values::BasicValueEnum<'ctx>>, NativeError> {
        use inkwell::types::{BasicMetadataTypeEnum, BasicType};
        let function = self.module.get_function(name).unwrap_or_else(|| {
            let params: Vec<BasicMetadataTypeEnum> =
                args.iter().map(|a| a.get_type().into()).collect();
            let ty = match ret {
                Some(r) => r.fn_type(&params, false),
                None => self.context.void_type().fn_type(&params, false),
            };
            self.module.add_function(name, ty, None)
        });
        let args: Vec<inkwell::values::BasicMetadataValueEnum> =
            args.iter().map(|a| (*a).into()).collect();
        let call = self
            .builder
            .build_call(function, &args, "")
            .map_err(llvm_error)?;
        Ok(call.try_as_basic_value().basic())
    }

    /// [`Cx::call_intrinsic`] for a function that returns a value.
    pub fn call_value(
        &self,
        name: &str,
        ret: Option<inkwell::types::BasicTypeEnum<'ctx>>,
        args: &[inkwell::values::BasicValueEnum<'ctx>],
    ) -> Result<inkwell::values::BasicValueEnum<'ctx>, NativeError> {
        self.call_intrinsic(name, ret, args)?
            .ok_or_else(|| NativeError::Llvm(format!("`{name}` returned no value")))
    }

    /// An i32 constant.
    pub fn i32(&self, value: u32) -> IntValue<'ctx> {
        self.context.i32_type().const_int(value as u64, false)
    }
}

/// A builder error as a [`NativeError`].
pub fn llvm_error(e: inkwell::builder::BuilderError) -> NativeError {
    NativeError::Llvm(e.to_string())
}
