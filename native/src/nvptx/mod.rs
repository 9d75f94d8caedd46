//! The CUDA target: NVPTX special registers, warp intrinsics and PTX.
//!
//! Facts checked on LLVM 19 (see `../shared/reference/llvm-native.md`):
//! kernels use the `ptx_kernel` calling convention; launch bounds only
//! work through `!nvvm.annotations` (`reqntidx/y/z`); the IR `fence`
//! cannot be selected, so fences are `llvm.nvvm.membar.cta` and inline
//! `fence.acq_rel.gpu`; `shfl.sync.up`
//! takes clamp 0 and the other shuffles 0x1f; `redux.sync` (sm_80+) takes
//! the value first and the mask second.

mod compile;
mod fused;
mod peephole;

use inkwell::context::Context;
use inkwell::module::Module;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValueEnum, FunctionValue, IntValue};

pub use crate::lower::KernelRequest;
pub use crate::lower::{BoundsChecks, LowerOptions};
pub use compile::{Ptx, PtxOptions, compile, compile_many, compile_many_with};

use crate::error::NativeError;
use crate::target::{Cx, Dim, NativeReduce, Scope, Shuffle, TargetLayer};

/// `ptx_kernel` in LLVM's numbering.
const PTX_KERNEL_CALLING_CONVENTION: u32 = 71;

/// Lanes of a warp on every NVIDIA GPU the back end targets: the subgroup
/// size of the lowering and of a CUDA device's target.
pub const WARP_SIZE: u32 = 32;

/// NVPTX for one compute capability (`sm` = 70, 80, 90, ...).
#[derive(Clone, Copy, Debug)]
pub struct Nvptx {
    /// The SM version the code may use instructions of.
    pub sm: u32,
}

impl Nvptx {
    fn sreg<'ctx>(&self, cx: &Cx<'_, 'ctx>, name: &str) -> Result<IntValue<'ctx>, NativeError> {
        Ok(cx
            .call_value(
                &format!("llvm.nvvm.read.ptx.sreg.{name}"),
                Some(cx.context.i32_type().into()),
                &[],
            )?
            .into_int_value())
    }

    /// The membermask operand of the `.sync` warp instructions.
    fn mask<'ctx>(&self, cx: &Cx<'_, 'ctx>) -> Result<IntValue<'ctx>, NativeError> {
        if cx.lane_mask == u32::MAX {
            Ok(cx.i32(u32::MAX))
        } else {
            Ok(cx
                .call_value(
                    "llvm.nvvm.activemask",
                    Some(cx.context.i32_type().into()),
                    &[],
                )?
                .into_int_value())
        }
    }
}

impl TargetLayer for Nvptx {
    fn triple(&self) -> &'static str {
        "nvptx64-nvidia-cuda"
    }

    fn subgroup_size(&self) -> u32 {
        WARP_SIZE
    }

    fn private_space(&self) -> u16 {
        0
    }

    fn workgroup_space(&self) -> u16 {
        3
    }

    fn global_space(&self) -> u16 {
        1
    }

    /// ptxas refuses more than 48 KiB of static shared memory ("uses too
    /// much shared data (0xcc84 bytes, 0xc000 max)" for sm_90); CUDA's
    /// guide: allocations over 48 KiB must be dynamic, with the kernel's
    /// opt-in (`CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES`).
    fn static_workgroup_limit(&self) -> Option<u32> {
        Some(48 * 1024)
    }

    fn declare_kernel<'ctx>(
        &self,
        context: &'ctx Context,
        module: &Module<'ctx>,
        kernel: FunctionValue<'ctx>,
        workgroup_size: [u32; 3],
        min_resident: Option<u32>,
    ) {
        kernel.set_call_conventions(PTX_KERNEL_CALLING_CONVENTION);
        let i32t = context.i32_type();
        // `minctasm` is `.minnctapersm`: ptxas caps the registers so that
        // that many blocks fit an SM (CUB's `__launch_bounds__` second
        // argument).
        let annotations = ["reqntidx", "reqntidy", "reqntidz"]
            .into_iter()
            .zip(workgroup_size)
            .chain(min_resident.map(|blocks| ("minctasm", blocks)));
        for (key, size) in annotations {
            let node = context.metadata_node(&[
                kernel.as_global_value().as_pointer_value().into(),
                context.metadata_string(key).into(),
                i32t.const_int(size as u64, false).into(),
            ]);
            module
                .add_global_metadata("nvvm.annotations", &node)
                .expect("a metadata node");
        }
    }

    fn local_id<'ctx>(&self, cx: &Cx<'_, 'ctx>, dim: Dim) -> Result<IntValue<'ctx>, NativeError> {
        self.sreg(cx, &format!("tid.{}", dim.name()))
    }

    fn group_id<'ctx>(&self, cx: &Cx<'_, 'ctx>, dim: Dim) -> Result<IntValue<'ctx>, NativeError> {
        self.sreg(cx, &format!("ctaid.{}", dim.name()))
    }

    fn num_groups<'ctx>(&self, cx: &Cx<'_, 'ctx>, dim: Dim) -> Result<IntValue<'ctx>, NativeError> {
        self.sreg(cx, &format!("nctaid.{}", dim.name()))
    }

    fn lane_id<'ctx>(&self, cx: &Cx<'_, 'ctx>) -> Result<IntValue<'ctx>, NativeError> {
        self.sreg(cx, "laneid")
    }

    fn shuffle<'ctx>(
        &self,
        cx: &Cx<'_, 'ctx>,
        kind: Shuffle,
        word: IntValue<'ctx>,
        operand: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>, NativeError> {
        // Clamp operand c: 0 for `up` (it clamps from below), 0x1f otherwise.
        let operand = match kind {
            Shuffle::BroadcastFirst => self.first_active_lane(cx)?,
            _ => operand,
        };
        let (mode, clamp) = match kind {
            Shuffle::Index | Shuffle::Broadcast | Shuffle::BroadcastFirst => ("idx", 0x1f),
            Shuffle::Up => ("up", 0),
            Shuffle::Down => ("down", 0x1f),
            Shuffle::Xor => ("bfly", 0x1f),
        };
        let mask = self.mask(cx)?;
        Ok(cx
            .call_value(
                &format!("llvm.nvvm.shfl.sync.{mode}.i32"),
                Some(cx.context.i32_type().into()),
                &[
                    mask.into(),
                    word.into(),
                    operand.into(),
                    cx.i32(clamp).into(),
                ],
            )?
            .into_int_value())
    }

    fn ballot<'ctx>(
        &self,
        cx: &Cx<'_, 'ctx>,
        predicate: IntValue<'ctx>,
    ) -> Result<[IntValue<'ctx>; 4], NativeError> {
        let mask = self.mask(cx)?;
        let word = cx
            .call_value(
                "llvm.nvvm.vote.ballot.sync",
                Some(cx.context.i32_type().into()),
                &[mask.into(), predicate.into()],
            )?
            .into_int_value();
        let zero = cx.i32(0);
        Ok([word, zero, zero, zero])
    }

    fn vote<'ctx>(
        &self,
        cx: &Cx<'_, 'ctx>,
        all: bool,
        predicate: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>, NativeError> {
        let mask = self.mask(cx)?;
        let name = if all {
            "llvm.nvvm.vote.all.sync"
        } else {
            "llvm.nvvm.vote.any.sync"
        };
        Ok(cx
            .call_value(
                name,
                Some(cx.context.bool_type().into()),
                &[mask.into(), predicate.into()],
            )?
            .into_int_value())
    }

    fn first_active_lane<'ctx>(&self, cx: &Cx<'_, 'ctx>) -> Result<IntValue<'ctx>, NativeError> {
        let active = cx.call_value(
            "llvm.nvvm.activemask",
            Some(cx.context.i32_type().into()),
            &[],
        )?;
        let zero_is_poison = cx.context.bool_type().const_zero();
        Ok(cx
            .call_value(
                "llvm.cttz.i32",
                Some(cx.context.i32_type().into()),
                &[active, zero_is_poison.into()],
            )?
            .into_int_value())
    }

    fn native_reduce<'ctx>(
        &self,
        cx: &Cx<'_, 'ctx>,
        op: NativeReduce,
        word: IntValue<'ctx>,
    ) -> Result<Option<IntValue<'ctx>>, NativeError> {
        if self.sm < 80 {
            return Ok(None);
        }
        let name = match op {
            NativeReduce::Add => "add",
            NativeReduce::MinSigned => "min",
            NativeReduce::MaxSigned => "max",
            NativeReduce::MinUnsigned => "umin",
            NativeReduce::MaxUnsigned => "umax",
            NativeReduce::And => "and",
            NativeReduce::Or => "or",
            NativeReduce::Xor => "xor",
        };
        let mask = self.mask(cx)?;
        // Value first, mask second.
        Ok(Some(
            cx.call_value(
                &format!("llvm.nvvm.redux.sync.{name}"),
                Some(cx.context.i32_type().into()),
                &[word.into(), mask.into()],
            )?
            .into_int_value(),
        ))
    }

    fn workgroup_barrier<'ctx>(&self, cx: &Cx<'_, 'ctx>) -> Result<(), NativeError> {
        // `barrier.sync 0`, not `bar.sync 0` (`barrier.sync.aligned`): LLVM
        // may tail-duplicate a barrier into both arms of a branch, and then
        // the lanes of one warp reach different barrier instructions, which
        // the aligned form does not allow (the look-back scan hung so).
        let barrier_id = cx.context.i32_type().const_zero();
        cx.call_intrinsic("llvm.nvvm.barrier.sync", None, &[barrier_id.into()])?;
        Ok(())
    }

    fn subgroup_barrier<'ctx>(&self, cx: &Cx<'_, 'ctx>) -> Result<(), NativeError> {
        let mask = self.mask(cx)?;
        cx.call_intrinsic("llvm.nvvm.bar.warp.sync", None, &[mask.into()])?;
        Ok(())
    }

    fn fence<'ctx>(&self, cx: &Cx<'_, 'ctx>, scope: Scope) -> Result<(), NativeError> {
        match scope {
            Scope::Subgroup | Scope::Workgroup => {
                cx.call_intrinsic("llvm.nvvm.membar.cta", None, &[])?;
            }
            // naga's barriers are acquire-release: `fence.acq_rel.gpu`
            // (sm_70+, PTX 6.0), where `membar.gl` would be the stronger
            // and slower `fence.sc.gpu`. LLVM 19 has no intrinsic for it.
            Scope::Device => {
                let fn_type = cx.context.void_type().fn_type(&[], false);
                let asm = cx.context.create_inline_asm(
                    fn_type,
                    "fence.acq_rel.gpu;".into(),
                    "~{memory}".into(),
                    true,
                    false,
                    None,
                    false,
                );
                cx.builder
                    .build_indirect_call(fn_type, asm, &[], "")
                    .map_err(crate::target::llvm_error)?;
            }
        }
        Ok(())
    }

    fn math_routine(&self, name: &str) -> Option<String> {
        // libdevice's names: __nv_sinf, __nv_sin, __nv_powf, ...
        Some(format!("__nv_{name}"))
    }

    fn fused_body<'ctx>(
        &self,
        cx: &Cx<'_, 'ctx>,
        name: &str,
        args: &[BasicValueEnum<'ctx>],
        ret: Option<BasicTypeEnum<'ctx>>,
    ) -> Result<Option<BasicValueEnum<'ctx>>, NativeError> {
        fused::body(self, cx, name, args, ret)
    }
}
