//! Unroll hints for counted loops.
//!
//! WGSL's `for (var i = 0u; i < ITEMS; i++)` reaches naga as
//! `loop { if i < ITEMS {} else { break; } ... continuing { i++ } }`. When
//! such a loop walks a private array (`keys[i]`, `ranks[i]`), the array can
//! live in registers only if the loop is unrolled: LLVM's own threshold (a
//! few hundred instructions) leaves a rank loop with ballots rolled, so the
//! arrays went to a stack frame (`__local_depot` in PTX) or to compare and
//! select cascades in ptxas. A loop whose exit test compares against a
//! constant of at most [`MAX_UNROLLED_TRIPS`] gets `llvm.loop.unroll.full`
//! on its latch; LLVM still unrolls it only when it can prove the trip
//! count (a start, step and bound it can compute), and SROA then promotes
//! the arrays.

use inkwell::context::Context;
use inkwell::llvm_sys::core::{LLVMMDNodeInContext2, LLVMMDStringInContext2, LLVMMetadataAsValue};
use inkwell::llvm_sys::debuginfo::{LLVMMetadataReplaceAllUsesWith, LLVMTemporaryMDNode};
use inkwell::llvm_sys::prelude::LLVMMetadataRef;
use inkwell::values::{InstructionValue, MetadataValue};
use naga::{BinaryOperator, Expression, Literal, Statement};

use crate::error::NativeError;

/// The largest constant bound whose loop is marked for full unrolling.
pub const MAX_UNROLLED_TRIPS: u64 = 64;

/// Whether `body` (a naga loop body in `function`) starts with the exit
/// test of a `for` loop bounded by a constant of at most
/// [`MAX_UNROLLED_TRIPS`].
pub fn is_small_counted_loop(
    module: &naga::Module,
    function: &naga::Function,
    body: &naga::Block,
) -> bool {
    let Some(test) = body
        .iter()
        .find(|statement| !matches!(statement, Statement::Emit(_)))
    else {
        return false;
    };
    let Statement::If {
        condition,
        ref accept,
        ref reject,
    } = *test
    else {
        return false;
    };
    let exits = |block: &naga::Block| matches!(block.first(), Some(Statement::Break));
    if !(accept.is_empty() && exits(reject) || reject.is_empty() && exits(accept)) {
        return false;
    }
    let Expression::Binary { op, left, right } = function.expressions[condition] else {
        return false;
    };
    use BinaryOperator as B;
    if !matches!(
        op,
        B::Less | B::LessEqual | B::Greater | B::GreaterEqual | B::NotEqual
    ) {
        return false;
    }
    [left, right].into_iter().any(|side| {
        constant_value(module, &function.expressions, side)
            .is_some_and(|bound| bound <= MAX_UNROLLED_TRIPS)
    })
}

/// The value of an integer literal or module constant expression.
fn constant_value(
    module: &naga::Module,
    arena: &naga::Arena<Expression>,
    handle: naga::Handle<Expression>,
) -> Option<u64> {
    match arena[handle] {
        Expression::Literal(literal) => literal_value(literal),
        Expression::Constant(constant) => {
            let init = module.constants[constant].init;
            match module.global_expressions[init] {
                Expression::Literal(literal) => literal_value(literal),
                _ => None,
            }
        }
        _ => None,
    }
}

fn literal_value(literal: Literal) -> Option<u64> {
    match literal {
        Literal::U32(v) => Some(u64::from(v)),
        Literal::I32(v) => u64::try_from(v).ok(),
        Literal::U64(v) => Some(v),
        Literal::I64(v) | Literal::AbstractInt(v) => u64::try_from(v).ok(),
        _ => None,
    }
}

/// Puts `!llvm.loop !{self, !{"llvm.loop.unroll.full"}}` on `latch`, the
/// branch back to a loop's header.
pub fn mark_unroll_full<'ctx>(
    context: &'ctx Context,
    latch: InstructionValue<'ctx>,
) -> Result<(), NativeError> {
    let kind = context.get_kind_id("llvm.loop");
    // SAFETY: plain LLVM C API calls on metadata of `context`, which
    // outlives them; the temporary node is replaced (and so freed) before
    // return, as LLVM builds self-referencing loop IDs.
    let loop_id = unsafe {
        let raw = context.raw();
        let name = "llvm.loop.unroll.full";
        let string = LLVMMDStringInContext2(raw, name.as_ptr().cast(), name.len());
        let hint: LLVMMetadataRef = LLVMMDNodeInContext2(raw, [string].as_mut_ptr(), 1);
        let placeholder = LLVMTemporaryMDNode(raw, std::ptr::null_mut(), 0);
        let node = LLVMMDNodeInContext2(raw, [placeholder, hint].as_mut_ptr(), 2);
        LLVMMetadataReplaceAllUsesWith(placeholder, node);
        MetadataValue::new(LLVMMetadataAsValue(raw, node))
    };
    latch
        .set_metadata(loop_id, kind)
        .map_err(|e| NativeError::Llvm(format!("loop metadata: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_loop_is_marked(source: &str) -> bool {
        let module = naga::front::wgsl::parse_str(source).expect("valid WGSL");
        let function = &module.entry_points[0].function;
        let body = function
            .body
            .iter()
            .find_map(|s| match s {
                Statement::Loop { body, .. } => Some(body),
                _ => None,
            })
            .expect("a loop");
        is_small_counted_loop(&module, function, body)
    }

    #[test]
    fn counted_loops_with_small_constant_bounds_are_marked() {
        let wrap = |head: &str| {
            format!(
                "const ITEMS = 8u;\nconst MANY = 1024u;\n@group(0) @binding(0) var<storage, read_write> b: array<u32>;\n\
                 @compute @workgroup_size(1) fn main() {{ {head} {{ b[i] = i; }} }}"
            )
        };
        assert!(first_loop_is_marked(&wrap(
            "for (var i = 0u; i < ITEMS; i++)"
        )));
        assert!(first_loop_is_marked(&wrap("for (var i = 0u; i < 4u; i++)")));
        assert!(!first_loop_is_marked(&wrap(
            "for (var i = 0u; i < MANY; i++)"
        )));
        assert!(!first_loop_is_marked(&wrap(
            "for (var i = 0u; i < arrayLength(&b); i++)"
        )));
    }
}
