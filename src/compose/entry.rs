//! Inserting the library's `wk_sg_init` / `wk_blk_init` calls at the top of
//! every compute entry point, in the naga module, so the user's text and its
//! spans stay untouched. Builtins the entry point already takes (as
//! arguments or struct members) are reused; missing ones are added.
//!
//! With emulated subgroups `wk_sg_init` takes one argument,
//! `local_invocation_index`, from which it derives lane and subgroup; the
//! `subgroup_id` argument of `wk_blk_init` is then `local_invocation_index`
//! too, so no subgroup builtin is asked for.

use naga::{
    Binding, BuiltIn, Expression, Function, Handle, Literal, Module, Scalar, ShaderStage, Span,
    Statement, Type, TypeInner, VectorSize,
};

/// Prepends the init calls to every compute entry point.
pub fn insert_init_calls(module: &mut Module) {
    let find = |module: &Module, name: &str| {
        module
            .functions
            .iter()
            .find(|(_, f)| f.name.as_deref() == Some(name))
            .map(|(h, _)| h)
    };
    let Some(sg_init) = find(module, "wk_sg_init") else {
        return;
    };
    let blk_init = find(module, "wk_blk_init");
    let emulated = module.functions[sg_init].arguments.len() == 1;
    let u32_ty = module.types.insert(
        Type {
            name: None,
            inner: TypeInner::Scalar(Scalar::U32),
        },
        Span::UNDEFINED,
    );
    let vec3_ty = module.types.insert(
        Type {
            name: None,
            inner: TypeInner::Vector {
                size: VectorSize::Tri,
                scalar: Scalar::U32,
            },
        },
        Span::UNDEFINED,
    );
    for entry in module.entry_points.iter_mut() {
        if entry.stage != ShaderStage::Compute {
            continue;
        }
        let threads: u32 = entry.workgroup_size.iter().product();
        let function = &mut entry.function;
        let mut prologue = naga::Block::new();
        let builtin = |function: &mut Function, prologue: &mut naga::Block, which, ty| {
            builtin_value(&module.types, function, prologue, which, ty)
        };
        let sg_arguments = if emulated {
            vec![builtin(
                function,
                &mut prologue,
                BuiltIn::LocalInvocationIndex,
                u32_ty,
            )]
        } else {
            let lane = builtin(
                function,
                &mut prologue,
                BuiltIn::SubgroupInvocationId,
                u32_ty,
            );
            let size = builtin(function, &mut prologue, BuiltIn::SubgroupSize, u32_ty);
            vec![lane, size]
        };
        let subgroup_id = if emulated {
            BuiltIn::LocalInvocationIndex
        } else {
            BuiltIn::SubgroupId
        };
        prologue.push(
            Statement::Call {
                function: sg_init,
                arguments: sg_arguments,
                result: None,
            },
            Span::UNDEFINED,
        );
        if let Some(blk_init) = blk_init {
            let arguments = vec![
                builtin(
                    function,
                    &mut prologue,
                    BuiltIn::LocalInvocationIndex,
                    u32_ty,
                ),
                builtin(function, &mut prologue, subgroup_id, u32_ty),
                builtin(function, &mut prologue, BuiltIn::WorkGroupId, vec3_ty),
                builtin(function, &mut prologue, BuiltIn::NumWorkGroups, vec3_ty),
                function
                    .expressions
                    .append(Expression::Literal(Literal::U32(threads)), Span::UNDEFINED),
            ];
            prologue.push(
                Statement::Call {
                    function: blk_init,
                    arguments,
                    result: None,
                },
                Span::UNDEFINED,
            );
        }
        prologue.extend_block(std::mem::take(&mut function.body));
        function.body = prologue;
    }
}

/// An expression reading `which`: the entry point's own argument or struct
/// member if it has one, else a new argument.
fn builtin_value(
    types: &naga::UniqueArena<Type>,
    function: &mut Function,
    prologue: &mut naga::Block,
    which: BuiltIn,
    ty: Handle<Type>,
) -> Handle<Expression> {
    let wanted = Some(Binding::BuiltIn(which));
    for (index, argument) in function.arguments.iter().enumerate() {
        if argument.binding == wanted {
            return function
                .expressions
                .append(Expression::FunctionArgument(index as u32), Span::UNDEFINED);
        }
        if let TypeInner::Struct { members, .. } = &types[argument.ty].inner
            && let Some(member) = members.iter().position(|m| m.binding == wanted)
        {
            let base = function
                .expressions
                .append(Expression::FunctionArgument(index as u32), Span::UNDEFINED);
            let access = function.expressions.append(
                Expression::AccessIndex {
                    base,
                    index: member as u32,
                },
                Span::UNDEFINED,
            );
            prologue.push(
                Statement::Emit(naga::Range::new_from_bounds(access, access)),
                Span::UNDEFINED,
            );
            return access;
        }
    }
    function.arguments.push(naga::FunctionArgument {
        name: Some(format!("wk_{which:?}").to_lowercase()),
        ty,
        binding: wanted,
    });
    let index = function.arguments.len() as u32 - 1;
    function
        .expressions
        .append(Expression::FunctionArgument(index), Span::UNDEFINED)
}
