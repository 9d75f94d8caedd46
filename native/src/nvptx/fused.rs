//! CUDA's one-instruction forms of template helpers
//! ([`TargetLayer::fused_body`](crate::target::TargetLayer::fused_body)).
//!
//! The templates implement these helpers portably; on NVPTX each becomes
//! one instruction, recognised by the helper's name and signature (the
//! templates name the contract next to each helper):
//!
//! - `wk_blk_sync_all_nonzero`, `wk_blk_sync_any_nonzero`,
//!   `wk_blk_sync_count_nonzero` (`u32 -> u32`, `templates/block/sync.wgsl.j2`):
//!   two barriers around workgroup atomics become one `barrier.red.and`,
//!   `.or` or `.popc` (CUDA's `__syncthreads_and/or/count`). It is the
//!   non-`.aligned` form (`barrier.red`, not `bar.red`) for the reason
//!   [`workgroup_barrier`](crate::target::TargetLayer::workgroup_barrier)
//!   uses `barrier.sync`: LLVM may duplicate a barrier into both arms of a
//!   branch. Like `barrier.sync`, it orders the threads' memory accesses.
//!   The inline assembly call is marked `convergent`.
//! - `wk_sg_match_key32` (`u32 -> vec4<u32>`) and `wk_sg_match_key64`
//!   (`vec2<u32> -> vec4<u32>`, `templates/subgroup/ballot.wgsl.j2`): the
//!   ballot loop of `match_any` becomes one `match.any.sync.b32`/`.b64`
//!   (sm_70+), the 64-bit key rebuilt from its two words.
//! - `wk_sg_match_bits8` (`u32 -> u32`, the OneSweep pass of
//!   `src/device/shaders/radix_onesweep.wgsl`): the lanes of a full warp
//!   whose 8-bit digit equals this lane's, eight ballots as CUB's
//!   `MatchAny<8>` writes them (per bit `and`, `setp`, `vote.ballot`,
//!   `@!p not`, `and`): LLVM otherwise tests each bit twice, once shifted
//!   for the vote's predicate and once masked for the complement.

use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValueEnum, IntValue};

use super::Nvptx;
use crate::error::NativeError;
use crate::target::{Cx, llvm_error};

/// The fused body of helper `name`, or `None` if it has none here or its
/// signature is not the expected one.
pub fn body<'ctx>(
    nvptx: &Nvptx,
    cx: &Cx<'_, 'ctx>,
    name: &str,
    args: &[BasicValueEnum<'ctx>],
    ret: Option<BasicTypeEnum<'ctx>>,
) -> Result<Option<BasicValueEnum<'ctx>>, NativeError> {
    let [arg] = args else {
        return Ok(None);
    };
    let vote = match name {
        "wk_blk_sync_all_nonzero" => Some(Vote::All),
        "wk_blk_sync_any_nonzero" => Some(Vote::Any),
        "wk_blk_sync_count_nonzero" => Some(Vote::Count),
        _ => None,
    };
    if let Some(vote) = vote {
        if !is_i32(arg) || ret.is_none_or(|r| !r.is_int_type()) {
            return Ok(None);
        }
        return Ok(Some(barrier_vote(cx, vote, arg.into_int_value())?.into()));
    }
    if name == "wk_sg_match_bits8" {
        if !is_i32(arg) || ret.is_none_or(|r| !r.is_int_type()) {
            return Ok(None);
        }
        return Ok(Some(match_bits(cx, arg.into_int_value(), 8)?.into()));
    }
    let key = match name {
        "wk_sg_match_key32" if is_i32(arg) => arg.into_int_value(),
        "wk_sg_match_key64" if is_vector_of_i32(arg, 2) => joined(cx, *arg)?,
        _ => return Ok(None),
    };
    let Some(BasicTypeEnum::VectorType(vec4)) = ret else {
        return Ok(None);
    };
    if vec4.get_size() != 4 || !vec4.get_element_type().is_int_type() {
        return Ok(None);
    }
    let width = key.get_type().get_bit_width();
    let mask = nvptx.mask(cx)?;
    let lanes = cx
        .call_value(
            &format!("llvm.nvvm.match.any.sync.i{width}"),
            Some(cx.context.i32_type().into()),
            &[mask.into(), key.into()],
        )?
        .into_int_value();
    let result = cx
        .builder
        .build_insert_element(vec4.const_zero(), lanes, cx.i32(0), "")
        .map_err(llvm_error)?;
    Ok(Some(result.into()))
}

/// Which `barrier.red`.
#[derive(Clone, Copy)]
enum Vote {
    All,
    Any,
    Count,
}

/// `barrier.red` over the predicate `word != 0`; 0/1 for `and`/`or`, the
/// count for `popc`.
fn barrier_vote<'ctx>(
    cx: &Cx<'_, 'ctx>,
    vote: Vote,
    word: IntValue<'ctx>,
) -> Result<IntValue<'ctx>, NativeError> {
    let reduce = match vote {
        Vote::Count => "barrier.red.popc.u32 $0, 0, %wkp;",
        Vote::All => "barrier.red.and.pred %wkq, 0, %wkp; selp.u32 $0, 1, 0, %wkq;",
        Vote::Any => "barrier.red.or.pred %wkq, 0, %wkp; selp.u32 $0, 1, 0, %wkq;",
    };
    let text = format!("{{ .reg .pred %wkp, %wkq; setp.ne.u32 %wkp, $1, 0; {reduce} }}");
    // Side effects and a memory clobber: the barrier orders memory.
    convergent_asm(cx, text, "=r,r,~{memory}", true, word, "barrier.red")
}

/// The lanes of a full warp whose low `bits` bits of `digit` equal this
/// lane's: one ballot per bit, complemented where the bit is clear.
fn match_bits<'ctx>(
    cx: &Cx<'_, 'ctx>,
    digit: IntValue<'ctx>,
    bits: u32,
) -> Result<IntValue<'ctx>, NativeError> {
    let mut text = String::from("{ .reg .pred %wkp; .reg .b32 %wkm, %wkt; mov.b32 $0, -1; ");
    for bit in 0..bits {
        text += &format!(
            "and.b32 %wkt, $1, {}; setp.ne.u32 %wkp, %wkt, 0; \
             vote.sync.ballot.b32 %wkm, %wkp, -1; @!%wkp not.b32 %wkm, %wkm; \
             and.b32 $0, $0, %wkm; ",
            1u32 << bit
        );
    }
    text += "}";
    // $0 is written before $1's last read: an early clobber.
    convergent_asm(cx, text, "=&r,r", false, digit, "the ballots")
}

/// A call of the PTX `text` taking one i32 (`$1`) and giving one (`$0`),
/// with LLVM's `constraints`, marked `convergent` (it holds warp- or
/// block-wide instructions); `what` names it in errors.
fn convergent_asm<'ctx>(
    cx: &Cx<'_, 'ctx>,
    text: String,
    constraints: &str,
    side_effects: bool,
    arg: IntValue<'ctx>,
    what: &str,
) -> Result<IntValue<'ctx>, NativeError> {
    let i32t = cx.context.i32_type();
    let fn_type = i32t.fn_type(&[i32t.into()], false);
    let asm = cx.context.create_inline_asm(
        fn_type,
        text,
        constraints.into(),
        side_effects,
        false,
        None,
        false,
    );
    let call = cx
        .builder
        .build_indirect_call(fn_type, asm, &[arg.into()], "")
        .map_err(llvm_error)?;
    let convergent = Attribute::get_named_enum_kind_id("convergent");
    call.add_attribute(
        AttributeLoc::Function,
        cx.context.create_enum_attribute(convergent, 0),
    );
    Ok(call
        .try_as_basic_value()
        .basic()
        .ok_or_else(|| NativeError::Llvm(format!("{what} returned nothing")))?
        .into_int_value())
}

fn is_i32(value: &BasicValueEnum<'_>) -> bool {
    value.is_int_value() && value.into_int_value().get_type().get_bit_width() == 32
}

fn is_vector_of_i32(value: &BasicValueEnum<'_>, size: u32) -> bool {
    value.is_vector_value() && {
        let ty = value.into_vector_value().get_type();
        ty.get_size() == size
            && ty.get_element_type().is_int_type()
            && ty.get_element_type().into_int_type().get_bit_width() == 32
    }
}

/// `key.x | key.y << 32` as an i64.
fn joined<'ctx>(
    cx: &Cx<'_, 'ctx>,
    key: BasicValueEnum<'ctx>,
) -> Result<IntValue<'ctx>, NativeError> {
    let b = cx.builder;
    let i64t = cx.context.i64_type();
    let vector = key.into_vector_value();
    let word = |i: u32| -> Result<IntValue<'ctx>, NativeError> {
        let w = b
            .build_extract_element(vector, cx.i32(i), "")
            .map_err(llvm_error)?
            .into_int_value();
        b.build_int_z_extend(w, i64t, "").map_err(llvm_error)
    };
    let (low, high) = (word(0)?, word(1)?);
    let high = b
        .build_left_shift(high, i64t.const_int(32, false), "")
        .map_err(llvm_error)?;
    b.build_or(low, high, "").map_err(llvm_error)
}
