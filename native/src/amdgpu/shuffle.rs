//! Lane-to-lane moves on AMDGPU.
//!
//! `ds_bpermute_b32` *pulls*: each lane reads the word of the lane whose
//! index it gives (as a byte address, lane × 4). On CDNA and on RDNA in
//! wave32 it addresses the whole wave. On RDNA in wave64 it only reaches the
//! lane's own 32-lane half (it uses five address bits), so a wave-wide
//! gather reads both halves — its own directly, the other through
//! `v_permlane64_b32`, which swaps the halves — and keeps the read from
//! the half the *target* lane is in:
//!
//! ```text
//! own   = bpermute(target * 4, value)             // value[(lane & 32) | (target & 31)]
//! other = bpermute(target * 4, permlane64(value)) // value[((lane & 32) | (target & 31)) ^ 32]
//! result = ((target ^ lane) & 32) == 0 ? own : other
//! ```
//!
//! The selection uses the full target index: selecting on `target & 31`
//! (or on a 5-bit address) picks the wrong half for lanes 32–63. The
//! lane operand goes through an empty `asm "=v,0"`, so LLVM cannot see a
//! uniform operand and rewrite the permute into `v_readlane_b32` (which
//! would be wrong for the other-half read). The `tests` module checks the sequence
//! on a lane-level model of RDNA wave64 for all 64 × 64 (lane, target)
//! pairs, and that one plain `ds_bpermute` is not enough.

use inkwell::IntPredicate;
use inkwell::values::IntValue;

use super::Amdgpu;
use crate::error::NativeError;
use crate::target::{Cx, Shuffle, llvm_error};

/// The lane each lane reads for a shuffle of `kind` (CUDA's conventions at
/// the edges: lanes with no source keep their own value).
pub fn source_lane<'ctx>(
    cx: &Cx<'_, 'ctx>,
    kind: Shuffle,
    lane: IntValue<'ctx>,
    operand: IntValue<'ctx>,
    wave_size: u32,
) -> Result<IntValue<'ctx>, NativeError> {
    let b = cx.builder;
    // `candidate` where `(left predicate right)` holds, the lane itself elsewhere.
    let guarded = |candidate: IntValue<'ctx>,
                   predicate: IntPredicate,
                   left: IntValue<'ctx>,
                   right: IntValue<'ctx>| {
        let has = b
            .build_int_compare(predicate, left, right, "")
            .map_err(llvm_error)?;
        Ok::<_, NativeError>(
            b.build_select(has, candidate, lane, "")
                .map_err(llvm_error)?
                .into_int_value(),
        )
    };
    let wave = cx.i32(wave_size);
    match kind {
        Shuffle::Index | Shuffle::Broadcast | Shuffle::BroadcastFirst => b
            .build_and(operand, cx.i32(wave_size - 1), "")
            .map_err(llvm_error),
        Shuffle::Up => {
            let below = b.build_int_sub(lane, operand, "").map_err(llvm_error)?;
            guarded(below, IntPredicate::UGE, lane, operand)
        }
        Shuffle::Down => {
            let above = b.build_int_add(lane, operand, "").map_err(llvm_error)?;
            guarded(above, IntPredicate::ULT, above, wave)
        }
        Shuffle::Xor => {
            let partner = b.build_xor(lane, operand, "").map_err(llvm_error)?;
            guarded(partner, IntPredicate::ULT, partner, wave)
        }
    }
}

/// Whether `lane` reads `target` from its own half (the selection of the
/// cross-half sequence, on full lane indices).
pub fn reads_own_half(lane: u32, target: u32) -> bool {
    (target ^ lane) & 32 == 0
}

/// The RDNA wave64 gather on gfx11+: permlane64, two bpermutes, a select.
pub fn cross_half<'ctx>(
    amdgpu: &Amdgpu,
    cx: &Cx<'_, 'ctx>,
    lane: IntValue<'ctx>,
    target: IntValue<'ctx>,
    word: IntValue<'ctx>,
) -> Result<IntValue<'ctx>, NativeError> {
    let b = cx.builder;
    let i32t = cx.context.i32_type();
    // Keep the target in a VGPR (see the module docs).
    let fence_type = i32t.fn_type(&[i32t.into()], false);
    let fence = cx.context.create_inline_asm(
        fence_type,
        String::new(),
        "=v,0".to_string(),
        true,
        false,
        None,
        false,
    );
    let pinned = b
        .build_indirect_call(fence_type, fence, &[target.into()], "")
        .map_err(llvm_error)?
        .try_as_basic_value()
        .basic()
        .expect("a value")
        .into_int_value();
    let swapped = cx
        .call_value(
            "llvm.amdgcn.permlane64.i32",
            Some(i32t.into()),
            &[word.into()],
        )?
        .into_int_value();
    let own = amdgpu.bpermute(cx, pinned, word)?;
    let other = amdgpu.bpermute(cx, pinned, swapped)?;
    let differ = b.build_xor(target, lane, "").map_err(llvm_error)?;
    let half_bit = b.build_and(differ, cx.i32(32), "").map_err(llvm_error)?;
    let same_half = b
        .build_int_compare(IntPredicate::EQ, half_bit, cx.i32(0), "")
        .map_err(llvm_error)?;
    Ok(b.build_select(same_half, own, other, "")
        .map_err(llvm_error)?
        .into_int_value())
}

/// The RDNA wave64 gather on gfx10: a `v_readlane` waterfall.
pub fn waterfall<'ctx>(
    cx: &Cx<'_, 'ctx>,
    target: IntValue<'ctx>,
    word: IntValue<'ctx>,
) -> Result<IntValue<'ctx>, NativeError> {
    let b = cx.builder;
    let context = cx.context;
    let i32t = context.i32_type();
    let i1 = context.bool_type();
    let entry = b.get_insert_block().expect("positioned");
    let function = entry.get_parent().expect("in a function");
    let header = context.append_basic_block(function, "waterfall");
    let pending = context.append_basic_block(function, "waterfall_pending");
    let work = context.append_basic_block(function, "waterfall_read");
    let latch = context.append_basic_block(function, "waterfall_next");
    let exit = context.append_basic_block(function, "waterfall_done");
    b.build_unconditional_branch(header).map_err(llvm_error)?;

    b.position_at_end(header);
    let done = b.build_phi(i1, "done").map_err(llvm_error)?;
    let result = b.build_phi(i32t, "result").map_err(llvm_error)?;
    done.add_incoming(&[(&i1.const_zero(), entry)]);
    result.add_incoming(&[(&i32t.get_undef(), entry)]);
    let done_value = done.as_basic_value().into_int_value();
    let not_done = b.build_not(done_value, "").map_err(llvm_error)?;
    let waiting = cx
        .call_value(
            "llvm.amdgcn.ballot.i64",
            Some(context.i64_type().into()),
            &[not_done.into()],
        )?
        .into_int_value();
    let any = b
        .build_int_compare(
            IntPredicate::NE,
            waiting,
            context.i64_type().const_zero(),
            "",
        )
        .map_err(llvm_error)?;
    b.build_conditional_branch(any, pending, exit)
        .map_err(llvm_error)?;

    // Only unfinished lanes go on: readfirstlane picks one of them.
    b.position_at_end(pending);
    b.build_conditional_branch(done_value, latch, work)
        .map_err(llvm_error)?;

    b.position_at_end(work);
    let source = cx
        .call_value(
            "llvm.amdgcn.readfirstlane.i32",
            Some(i32t.into()),
            &[target.into()],
        )?
        .into_int_value();
    let value = cx
        .call_value(
            "llvm.amdgcn.readlane.i32",
            Some(i32t.into()),
            &[word.into(), source.into()],
        )?
        .into_int_value();
    let hit = b
        .build_int_compare(IntPredicate::EQ, target, source, "")
        .map_err(llvm_error)?;
    let served = b
        .build_select(hit, value, result.as_basic_value().into_int_value(), "")
        .map_err(llvm_error)?
        .into_int_value();
    b.build_unconditional_branch(latch).map_err(llvm_error)?;

    b.position_at_end(latch);
    let done_next = b.build_phi(i1, "").map_err(llvm_error)?;
    done_next.add_incoming(&[(&done_value, pending), (&hit, work)]);
    let result_next = b.build_phi(i32t, "").map_err(llvm_error)?;
    result_next.add_incoming(&[
        (&result.as_basic_value().into_int_value(), pending),
        (&served, work),
    ]);
    b.build_unconditional_branch(header).map_err(llvm_error)?;
    done.add_incoming(&[(&done_next.as_basic_value().into_int_value(), latch)]);
    result.add_incoming(&[(&result_next.as_basic_value().into_int_value(), latch)]);

    b.position_at_end(exit);
    Ok(result.as_basic_value().into_int_value())
}

#[cfg(test)]
mod tests;
