//! The AMDGPU target: HSA kernels for CDNA (gfx90a, gfx942; wave64) and
//! RDNA (gfx1030, gfx1100, gfx1200; wave32 by default, wave64 on request).
//!
//! Facts checked on LLVM 19 (`../shared/reference/llvm-native.md` §3):
//! overloaded intrinsics are called by their mangled names
//! (`llvm.amdgcn.readlane.i32`); `ballot.i32` on wave64 and `permlane64`
//! before gfx11 crash llc instead of erroring, so this layer never emits
//! them there; the C API cannot give a fence a sync scope, so scoped fences
//! come from a small textual-IR module linked in (`fences.rs`).
//! [`code_object`] checks the linked code objects the way a loader reading
//! them in place needs (the HIP driver does so before loading one).

pub mod code_object;
mod compile;
mod fences;
pub mod shuffle;

use inkwell::AddressSpace;
use inkwell::attributes::AttributeLoc;
use inkwell::context::Context;
use inkwell::module::Module;
use inkwell::values::{FunctionValue, IntValue};

pub use crate::lower::{BoundsChecks, LowerOptions};
pub use compile::{Hsaco, compile, compile_many, compile_many_with};

use crate::error::NativeError;
use crate::target::{Cx, Dim, NativeReduce, Scope, Shuffle, TargetLayer, llvm_error};

/// `amdgpu_kernel` in LLVM's numbering.
const AMDGPU_KERNEL_CALLING_CONVENTION: u32 = 91;

/// The GPU architectures wavekit compiles for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arch {
    /// CDNA2 (MI200), wave64.
    Gfx90a,
    /// CDNA3 (MI300), wave64.
    Gfx942,
    /// RDNA2.
    Gfx1030,
    /// RDNA3.
    Gfx1100,
    /// RDNA4.
    Gfx1200,
}

impl Arch {
    /// Every architecture.
    pub const ALL: [Arch; 5] = [
        Arch::Gfx90a,
        Arch::Gfx942,
        Arch::Gfx1030,
        Arch::Gfx1100,
        Arch::Gfx1200,
    ];

    /// LLVM's processor name.
    pub fn name(self) -> &'static str {
        match self {
            Arch::Gfx90a => "gfx90a",
            Arch::Gfx942 => "gfx942",
            Arch::Gfx1030 => "gfx1030",
            Arch::Gfx1100 => "gfx1100",
            Arch::Gfx1200 => "gfx1200",
        }
    }

    /// Parses a processor name.
    pub fn from_name(name: &str) -> Option<Arch> {
        Arch::ALL.into_iter().find(|a| a.name() == name)
    }

    /// CDNA: always wave64, `ds_bpermute` permutes the whole wave.
    pub fn is_cdna(self) -> bool {
        matches!(self, Arch::Gfx90a | Arch::Gfx942)
    }

    /// `v_permlane64_b32` exists (gfx11 and later).
    pub fn has_permlane64(self) -> bool {
        matches!(self, Arch::Gfx1100 | Arch::Gfx1200)
    }

    /// The wave sizes it runs.
    pub fn wave_sizes(self) -> &'static [u32] {
        if self.is_cdna() { &[64] } else { &[32, 64] }
    }
}

/// How a 32-bit lane-to-lane move is done on a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gather {
    /// One `ds_bpermute_b32`: it addresses the whole wave (CDNA, RDNA wave32).
    Bpermute,
    /// RDNA wave64 on gfx11+: `ds_bpermute` only reaches its own 32-lane
    /// half, so read both halves (the other through `v_permlane64_b32`)
    /// and select on the half of the *target* lane.
    CrossHalf,
    /// RDNA wave64 on gfx10 (no `v_permlane64`): a `v_readlane` waterfall —
    /// each round takes the first unfinished lane's target, reads it with
    /// `v_readlane_b32` (wave-wide, exec-independent) and serves every lane
    /// that wants the same source. At most one round per distinct target
    /// (one for a broadcast, up to 64 for a permutation); AMD's LLPC does
    /// the same on gfx10 wave64, and it needs no LDS.
    Waterfall,
}

/// AMDGPU for one architecture and wave size.
#[derive(Clone, Copy, Debug)]
pub struct Amdgpu {
    /// The architecture.
    pub arch: Arch,
    /// 32 or 64 lanes.
    pub wave_size: u32,
}

impl Amdgpu {
    /// `arch` at `wave_size` (CDNA is wave64 only; RDNA runs both).
    pub fn new(arch: Arch, wave_size: u32) -> Result<Amdgpu, NativeError> {
        if !arch.wave_sizes().contains(&wave_size) {
            return Err(NativeError::Abi(format!(
                "{} runs waves of {:?} lanes, not {wave_size}",
                arch.name(),
                arch.wave_sizes()
            )));
        }
        Ok(Amdgpu { arch, wave_size })
    }

    /// The target features string of the target machine.
    pub fn features(&self) -> &'static str {
        match (self.arch.is_cdna(), self.wave_size) {
            (true, _) => "",
            (false, 64) => "+wavefrontsize64",
            (false, _) => "+wavefrontsize32",
        }
    }

    /// How shuffles are done.
    pub fn gather(&self) -> Gather {
        match (
            self.wave_size,
            self.arch.is_cdna(),
            self.arch.has_permlane64(),
        ) {
            (32, _, _) | (_, true, _) => Gather::Bpermute,
            (_, false, true) => Gather::CrossHalf,
            _ => Gather::Waterfall,
        }
    }

    fn call_i32<'ctx>(
        &self,
        cx: &Cx<'_, 'ctx>,
        name: &str,
        args: &[inkwell::values::BasicValueEnum<'ctx>],
    ) -> Result<IntValue<'ctx>, NativeError> {
        Ok(cx
            .call_value(name, Some(cx.context.i32_type().into()), args)?
            .into_int_value())
    }

    /// The ballot as a wave-wide integer (i64 on wave64, i32 on wave32).
    fn ballot_word<'ctx>(
        &self,
        cx: &Cx<'_, 'ctx>,
        predicate: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>, NativeError> {
        let ty = cx.context.custom_width_int_type(self.wave_size);
        Ok(cx
            .call_value(
                &format!("llvm.amdgcn.ballot.i{}", self.wave_size),
                Some(ty.into()),
                &[predicate.into()],
            )?
            .into_int_value())
    }

    /// `ds_bpermute`: the word of lane `lane` (byte address lane × 4).
    pub(crate) fn bpermute<'ctx>(
        &self,
        cx: &Cx<'_, 'ctx>,
        lane: IntValue<'ctx>,
        word: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>, NativeError> {
        let address = cx
            .builder
            .build_left_shift(lane, cx.i32(2), "")
            .map_err(llvm_error)?;
        self.call_i32(
            cx,
            "llvm.amdgcn.ds.bpermute",
            &[address.into(), word.into()],
        )
    }
}

impl TargetLayer for Amdgpu {
    fn triple(&self) -> &'static str {
        "amdgcn-amd-amdhsa"
    }

    fn subgroup_size(&self) -> u32 {
        self.wave_size
    }

    fn private_space(&self) -> u16 {
        5
    }

    fn workgroup_space(&self) -> u16 {
        3
    }

    fn global_space(&self) -> u16 {
        1
    }

    fn declare_kernel<'ctx>(
        &self,
        context: &'ctx Context,
        _module: &Module<'ctx>,
        kernel: FunctionValue<'ctx>,
        workgroup_size: [u32; 3],
        min_resident: Option<u32>,
    ) {
        kernel.set_call_conventions(AMDGPU_KERNEL_CALLING_CONVENTION);
        let threads: u32 = workgroup_size.iter().product();
        let mut attributes = vec![
            (
                "amdgpu-flat-work-group-size",
                format!("{threads},{threads}"),
            ),
            // WGSL dispatches whole workgroups.
            ("uniform-work-group-size", "true".to_string()),
        ];
        if let Some(workgroups) = min_resident {
            // The waves of that many workgroups over the 4 SIMDs of a CDNA
            // compute unit (or an RDNA workgroup processor, LLVM's default
            // mode): at least that many waves per SIMD.
            let waves = workgroups * threads.div_ceil(self.wave_size);
            attributes.push(("amdgpu-waves-per-eu", waves.div_ceil(4).max(1).to_string()));
        }
        for (key, value) in attributes {
            kernel.add_attribute(
                AttributeLoc::Function,
                context.create_string_attribute(key, &value),
            );
        }
    }

    fn local_id<'ctx>(&self, cx: &Cx<'_, 'ctx>, dim: Dim) -> Result<IntValue<'ctx>, NativeError> {
        self.call_i32(cx, &format!("llvm.amdgcn.workitem.id.{}", dim.name()), &[])
    }

    fn group_id<'ctx>(&self, cx: &Cx<'_, 'ctx>, dim: Dim) -> Result<IntValue<'ctx>, NativeError> {
        self.call_i32(cx, &format!("llvm.amdgcn.workgroup.id.{}", dim.name()), &[])
    }

    fn num_groups<'ctx>(&self, cx: &Cx<'_, 'ctx>, dim: Dim) -> Result<IntValue<'ctx>, NativeError> {
        // Code object v5 hidden arguments: hidden_block_count_{x,y,z} are
        // the first three u32 after the implicit-argument pointer.
        let constant = cx.context.ptr_type(AddressSpace::from(4));
        let base = cx
            .call_intrinsic("llvm.amdgcn.implicitarg.ptr", Some(constant.into()), &[])?
            .expect("a pointer")
            .into_pointer_value();
        let offset = match dim {
            Dim::X => 0,
            Dim::Y => 4,
            Dim::Z => 8,
        };
        let i8t = cx.context.i8_type();
        let field = unsafe {
            cx.builder.build_gep(
                i8t,
                base,
                &[cx.context.i64_type().const_int(offset, false)],
                "",
            )
        }
        .map_err(llvm_error)?;
        let value = cx
            .builder
            .build_load(cx.context.i32_type(), field, "")
            .map_err(llvm_error)?;
        Ok(value.into_int_value())
    }

    fn lane_id<'ctx>(&self, cx: &Cx<'_, 'ctx>) -> Result<IntValue<'ctx>, NativeError> {
        let low = self.call_i32(
            cx,
            "llvm.amdgcn.mbcnt.lo",
            &[cx.i32(u32::MAX).into(), cx.i32(0).into()],
        )?;
        if self.wave_size == 32 {
            return Ok(low);
        }
        self.call_i32(
            cx,
            "llvm.amdgcn.mbcnt.hi",
            &[cx.i32(u32::MAX).into(), low.into()],
        )
    }

    fn shuffle<'ctx>(
        &self,
        cx: &Cx<'_, 'ctx>,
        kind: Shuffle,
        word: IntValue<'ctx>,
        operand: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>, NativeError> {
        // A uniform source lane needs no permute: `v_readlane_b32` reads
        // any lane of the wave, on every architecture and wave size.
        match kind {
            Shuffle::Broadcast => {
                let lane = cx
                    .builder
                    .build_and(operand, cx.i32(self.wave_size - 1), "")
                    .map_err(llvm_error)?;
                return self.call_i32(cx, "llvm.amdgcn.readlane.i32", &[word.into(), lane.into()]);
            }
            Shuffle::BroadcastFirst => {
                return self.call_i32(cx, "llvm.amdgcn.readfirstlane.i32", &[word.into()]);
            }
            _ => {}
        }
        let lane = self.lane_id(cx)?;
        let target = shuffle::source_lane(cx, kind, lane, operand, self.wave_size)?;
        match self.gather() {
            Gather::Bpermute => self.bpermute(cx, target, word),
            Gather::CrossHalf => shuffle::cross_half(self, cx, lane, target, word),
            Gather::Waterfall => shuffle::waterfall(cx, target, word),
        }
    }

    fn ballot<'ctx>(
        &self,
        cx: &Cx<'_, 'ctx>,
        predicate: IntValue<'ctx>,
    ) -> Result<[IntValue<'ctx>; 4], NativeError> {
        let mask = self.ballot_word(cx, predicate)?;
        let i32t = cx.context.i32_type();
        let zero = cx.i32(0);
        if self.wave_size == 32 {
            return Ok([mask, zero, zero, zero]);
        }
        let low = cx
            .builder
            .build_int_truncate(mask, i32t, "")
            .map_err(llvm_error)?;
        let shifted = cx
            .builder
            .build_right_shift(mask, mask.get_type().const_int(32, false), false, "")
            .map_err(llvm_error)?;
        let high = cx
            .builder
            .build_int_truncate(shifted, i32t, "")
            .map_err(llvm_error)?;
        Ok([low, high, zero, zero])
    }

    fn vote<'ctx>(
        &self,
        cx: &Cx<'_, 'ctx>,
        all: bool,
        predicate: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>, NativeError> {
        let votes = self.ballot_word(cx, predicate)?;
        if all {
            let active = self.ballot_word(cx, cx.context.bool_type().const_int(1, false))?;
            cx.builder
                .build_int_compare(inkwell::IntPredicate::EQ, votes, active, "")
                .map_err(llvm_error)
        } else {
            cx.builder
                .build_int_compare(
                    inkwell::IntPredicate::NE,
                    votes,
                    votes.get_type().const_zero(),
                    "",
                )
                .map_err(llvm_error)
        }
    }

    fn first_active_lane<'ctx>(&self, cx: &Cx<'_, 'ctx>) -> Result<IntValue<'ctx>, NativeError> {
        let active = self.ballot_word(cx, cx.context.bool_type().const_int(1, false))?;
        let ty = active.get_type();
        let first = cx
            .call_value(
                &format!("llvm.cttz.i{}", self.wave_size),
                Some(ty.into()),
                &[active.into(), cx.context.bool_type().const_zero().into()],
            )?
            .into_int_value();
        cx.builder
            .build_int_truncate_or_bit_cast(first, cx.context.i32_type(), "")
            .map_err(llvm_error)
    }

    fn native_reduce<'ctx>(
        &self,
        _cx: &Cx<'_, 'ctx>,
        _op: NativeReduce,
        _word: IntValue<'ctx>,
    ) -> Result<Option<IntValue<'ctx>>, NativeError> {
        // LLVM 19 has only `wave.reduce.umin/umax` (an iterative loop); the
        // xor-shuffle butterfly is as good.
        Ok(None)
    }

    fn workgroup_barrier<'ctx>(&self, cx: &Cx<'_, 'ctx>) -> Result<(), NativeError> {
        fences::call(cx, fences::Fence::WorkgroupRelease)?;
        cx.call_intrinsic("llvm.amdgcn.s.barrier", None, &[])?;
        fences::call(cx, fences::Fence::WorkgroupAcquire)
    }

    fn subgroup_barrier<'ctx>(&self, cx: &Cx<'_, 'ctx>) -> Result<(), NativeError> {
        fences::call(cx, fences::Fence::Wavefront)?;
        cx.call_intrinsic("llvm.amdgcn.wave.barrier", None, &[])?;
        Ok(())
    }

    fn fence<'ctx>(&self, cx: &Cx<'_, 'ctx>, scope: Scope) -> Result<(), NativeError> {
        fences::call(
            cx,
            match scope {
                Scope::Subgroup => fences::Fence::Wavefront,
                Scope::Workgroup => fences::Fence::Workgroup,
                Scope::Device => fences::Fence::Agent,
            },
        )
    }

    fn math_routine(&self, name: &str) -> Option<String> {
        // The AMDGPU back end lowers these f32 intrinsics itself (no ocml).
        let routine = match name {
            "sinf" => "llvm.sin.f32",
            "cosf" => "llvm.cos.f32",
            "expf" => "llvm.exp.f32",
            "exp2f" => "llvm.exp2.f32",
            "logf" => "llvm.log.f32",
            "log2f" => "llvm.log2.f32",
            "powf" => "llvm.pow.f32",
            _ => return None,
        };
        Some(routine.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::{Amdgpu, Arch, Gather};

    #[test]
    fn cdna_is_wave64_only_and_rdna_runs_both() {
        assert!(Amdgpu::new(Arch::Gfx942, 32).is_err());
        assert!(Amdgpu::new(Arch::Gfx90a, 64).is_ok());
        assert!(Amdgpu::new(Arch::Gfx1100, 32).is_ok());
        assert!(Amdgpu::new(Arch::Gfx1100, 64).is_ok());
        assert!(Amdgpu::new(Arch::Gfx1030, 16).is_err());
    }

    #[test]
    fn each_wave_mode_gets_its_gather() {
        let gather = |arch, wave| Amdgpu::new(arch, wave).expect("supported").gather();
        assert_eq!(gather(Arch::Gfx942, 64), Gather::Bpermute);
        assert_eq!(gather(Arch::Gfx90a, 64), Gather::Bpermute);
        assert_eq!(gather(Arch::Gfx1030, 32), Gather::Bpermute);
        assert_eq!(gather(Arch::Gfx1030, 64), Gather::Waterfall);
        assert_eq!(gather(Arch::Gfx1100, 64), Gather::CrossHalf);
        assert_eq!(gather(Arch::Gfx1200, 64), Gather::CrossHalf);
        assert_eq!(gather(Arch::Gfx1200, 32), Gather::Bpermute);
    }
}
