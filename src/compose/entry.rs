//! Inserting the library's `wk_sg_init` / `wk_blk_init` calls at the top of
//! every compute entry point, in the naga module, so the user's text and its
//! spans stay untouched. Builtins the entry point already takes (as
//! arguments or struct members) are reused; missing ones are added.
//!
//! With emulated subgroups `wk_sg_init` takes one argument,
//! `local_invocation_index`, from which it derives lane and subgroup; the
//! `subgroup_id` argument of `wk_blk_init` is then `local_invocation_index`
//! too, so no subgroup builtin is asked for. An entry point that takes
//! subgroup builtins itself (`@builtin(subgroup_invocation_id) lane: u32`)
//! becomes an ordinary function, `wk_em_entry_NAME`, called by a new entry
//! point of the same name that derives those arguments from
//! `local_invocation_index` as the emulation does (lane `l % S`, subgroup
//! `l / S`, size `S`, `threads / S` subgroups).

use naga::{
    Binding, BuiltIn, Expression, Function, Handle, Literal, Module, Scalar, ShaderStage, Span,
    Statement, Type, TypeInner, VectorSize,
};

/// Prepends the init calls to every compute entry point; with subgroups
/// `emulated` at that size, first wraps the entry points that take subgroup
/// builtins (see the module's doc).
pub fn insert_init_calls(module: &mut Module, emulated: Option<u32>) {
    if let Some(size) = emulated {
        for index in 0..module.entry_points.len() {
            wrap_subgroup_arguments(module, index, size);
        }
    }
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

/// What an emulated subgroup builtin argument is made of.
fn emulated_builtin(binding: &Option<Binding>) -> Option<BuiltIn> {
    match binding {
        Some(Binding::BuiltIn(
            which @ (BuiltIn::SubgroupInvocationId
            | BuiltIn::SubgroupSize
            | BuiltIn::SubgroupId
            | BuiltIn::NumSubgroups),
        )) => Some(*which),
        _ => None,
    }
}

/// Moves compute entry point `index`'s function into `wk_em_entry_NAME`
/// when it takes subgroup builtins as arguments, and gives the entry point
/// a body that calls it with them derived from `local_invocation_index`.
/// Builtins inside struct arguments are left alone (naga's validation then
/// names them).
fn wrap_subgroup_arguments(module: &mut Module, index: usize, size: u32) {
    let entry = &module.entry_points[index];
    if entry.stage != ShaderStage::Compute
        || !entry
            .function
            .arguments
            .iter()
            .any(|a| emulated_builtin(&a.binding).is_some())
    {
        return;
    }
    let threads: u32 = entry.workgroup_size.iter().product();
    let u32_ty = module.types.insert(
        Type {
            name: None,
            inner: TypeInner::Scalar(Scalar::U32),
        },
        Span::UNDEFINED,
    );
    let entry = &mut module.entry_points[index];
    let mut inner = std::mem::take(&mut entry.function);
    inner.name = Some(format!("wk_em_entry_{}", entry.name));
    let mut outer = Function {
        name: Some(entry.name.clone()),
        ..Function::default()
    };
    for argument in &inner.arguments {
        if emulated_builtin(&argument.binding).is_none() {
            outer.arguments.push(argument.clone());
        }
    }
    let mut body = naga::Block::new();
    let index_value = builtin_value(
        &module.types,
        &mut outer,
        &mut body,
        BuiltIn::LocalInvocationIndex,
        u32_ty,
    );
    let literal = |outer: &mut Function, value: u32| {
        outer
            .expressions
            .append(Expression::Literal(Literal::U32(value)), Span::UNDEFINED)
    };
    let lanes = literal(&mut outer, size);
    let subgroups = literal(&mut outer, threads / size);
    let mut kept = 0;
    let mut arguments = Vec::new();
    for argument in &mut inner.arguments {
        let value = match emulated_builtin(&argument.binding) {
            None => {
                kept += 1;
                outer
                    .expressions
                    .append(Expression::FunctionArgument(kept - 1), Span::UNDEFINED)
            }
            Some(BuiltIn::SubgroupSize) => lanes,
            Some(BuiltIn::NumSubgroups) => subgroups,
            Some(which) => {
                let op = if which == BuiltIn::SubgroupId {
                    naga::BinaryOperator::Divide
                } else {
                    naga::BinaryOperator::Modulo
                };
                let value = outer.expressions.append(
                    Expression::Binary {
                        op,
                        left: index_value,
                        right: lanes,
                    },
                    Span::UNDEFINED,
                );
                body.push(
                    Statement::Emit(naga::Range::new_from_bounds(value, value)),
                    Span::UNDEFINED,
                );
                value
            }
        };
        arguments.push(value);
        argument.binding = None;
    }
    // Only the entry point's own arguments keep their bindings.
    let inner = module.functions.append(inner, Span::UNDEFINED);
    body.push(
        Statement::Call {
            function: inner,
            arguments,
            result: None,
        },
        Span::UNDEFINED,
    );
    outer.body = body;
    module.entry_points[index].function = outer;
}
