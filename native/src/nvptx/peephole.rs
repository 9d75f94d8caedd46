//! PTX-specific rewrites of optimised LLVM IR.
//!
//! `all_equal` on a 32-bit integer reaches the back end as
//! `vote.all(x == shfl.idx(x, lane))` (a broadcast, then a vote), which
//! `match.all.sync` (sm_70+) does in one instruction: for integers bit
//! equality is value equality, and all lanes equal one lane's value exactly
//! when all lanes are equal. Floats keep the vote: IEEE `==` is not bit
//! equality.

use inkwell::IntPredicate;
use inkwell::builder::Builder;
use inkwell::context::Context;
use inkwell::module::Module;
use inkwell::values::{
    BasicMetadataValueEnum, BasicValue, BasicValueEnum, InstructionOpcode, InstructionValue,
};

use crate::error::NativeError;
use crate::target::llvm_error;

/// The callee name of a call instruction.
fn callee(call: InstructionValue<'_>) -> Option<String> {
    if call.get_opcode() != InstructionOpcode::Call {
        return None;
    }
    let operands = call.get_num_operands();
    let function = call.get_operand(operands - 1)?.value()?;
    let name = function
        .into_pointer_value()
        .get_name()
        .to_str()
        .ok()?
        .to_string();
    Some(name)
}

fn as_instruction(value: BasicValueEnum<'_>) -> Option<InstructionValue<'_>> {
    value.as_instruction_value()
}

/// Rewrites every `vote.all.sync(m, icmp eq x, shfl.idx(m, x, ..))` on i32
/// into `match.all.sync.i32p(m, x).1`, dropping the dead broadcast.
pub fn match_all_equal<'ctx>(
    context: &'ctx Context,
    module: &Module<'ctx>,
) -> Result<usize, NativeError> {
    let builder: Builder<'ctx> = context.create_builder();
    let mut rewritten = 0;
    let mut votes = Vec::new();
    for function in module.get_functions() {
        for block in function.get_basic_blocks() {
            let mut next = block.get_first_instruction();
            while let Some(instruction) = next {
                next = instruction.get_next_instruction();
                if callee(instruction).as_deref() == Some("llvm.nvvm.vote.all.sync") {
                    votes.push(instruction);
                }
            }
        }
    }
    for vote in votes {
        let Some(mask) = vote.get_operand(0).and_then(|o| o.value()) else {
            continue;
        };
        let Some(compare) = vote
            .get_operand(1)
            .and_then(|o| o.value())
            .and_then(as_instruction)
        else {
            continue;
        };
        if compare.get_opcode() != InstructionOpcode::ICmp
            || compare.get_icmp_predicate() != Some(IntPredicate::EQ)
        {
            continue;
        }
        let (Some(a), Some(b)) = (
            compare.get_operand(0).and_then(|o| o.value()),
            compare.get_operand(1).and_then(|o| o.value()),
        ) else {
            continue;
        };
        let is_broadcast_of = |shfl: BasicValueEnum<'ctx>, value: BasicValueEnum<'ctx>| {
            as_instruction(shfl).is_some_and(|s| {
                callee(s).as_deref() == Some("llvm.nvvm.shfl.sync.idx.i32")
                    && s.get_operand(1).and_then(|o| o.value()) == Some(value)
            })
        };
        let value = if is_broadcast_of(b, a) {
            a
        } else if is_broadcast_of(a, b) {
            b
        } else {
            continue;
        };
        if !value.get_type().is_int_type()
            || value.into_int_value().get_type().get_bit_width() != 32
        {
            continue;
        }
        builder.position_before(&vote);
        let i32t = context.i32_type();
        let pair_type = context.struct_type(&[i32t.into(), context.bool_type().into()], false);
        let name = "llvm.nvvm.match.all.sync.i32p";
        let function = module.get_function(name).unwrap_or_else(|| {
            module.add_function(
                name,
                pair_type.fn_type(&[i32t.into(), i32t.into()], false),
                None,
            )
        });
        let args: [BasicMetadataValueEnum; 2] = [mask.into(), value.into()];
        let pair = builder
            .build_call(function, &args, "")
            .map_err(llvm_error)?
            .try_as_basic_value()
            .basic()
            .expect("a pair")
            .into_struct_value();
        let all_equal = builder
            .build_extract_value(pair, 1, "")
            .map_err(llvm_error)?;
        vote.replace_all_uses_with(&all_equal.as_instruction_value().expect("an instruction"));
        vote.erase_from_basic_block();
        // The comparison and the broadcast (with its lane computation) are
        // dead now; convergent intrinsics are not deleted by LLVM itself.
        let mut dead = vec![compare];
        while let Some(instruction) = dead.pop() {
            if instruction.get_first_use().is_some() {
                continue;
            }
            let operands: Vec<_> = (0..instruction.get_num_operands())
                .filter_map(|i| instruction.get_operand(i).and_then(|o| o.value()))
                .filter_map(as_instruction)
                .collect();
            instruction.erase_from_basic_block();
            dead.extend(operands.into_iter().filter(|o| {
                matches!(
                    o.get_opcode(),
                    InstructionOpcode::Call
                        | InstructionOpcode::ICmp
                        | InstructionOpcode::Sub
                        | InstructionOpcode::And
                ) && o.get_parent().is_some()
            }));
        }
        rewritten += 1;
    }
    Ok(rewritten)
}
