//! With emulated subgroups, code that can never run is removed from the
//! composed module before it is validated and checked: an `if` on a
//! constant keeps only the branch it takes, statements after a `return`
//! go, and a function no entry point reaches keeps only a `return`.
//!
//! The module passed validation before (naga's compaction needs that); the
//! expressions only removed statements used (call results) are compacted
//! away after, and the caller validates it again.
//!
//! Why: every emulated primitive holds workgroup barriers, and a shader
//! compiler that checks uniformity (the browser's) rejects a barrier under
//! control flow it cannot prove uniform, even in code that never runs. A
//! shader whose host turns a path off with a constant (`look_back.wgsl`'s
//! `WINDOW`, whose window walk is one subgroup's and cannot be emulated)
//! would otherwise be refused as a whole. On hardware subgroups
//! the module is left as written.

use std::collections::HashSet;

use naga::{
    Arena, Block, Constant, Expression, Function, Handle, Literal, Module, Span, Statement,
    UnaryOperator,
};

/// Removes what never runs from `module` (see the module's doc).
pub fn dead_code(module: &mut Module) {
    let constants = &module.constants;
    let globals = &module.global_expressions;
    for (_, function) in module.functions.iter_mut() {
        fold_function(function, constants, globals);
    }
    for entry in module.entry_points.iter_mut() {
        fold_function(&mut entry.function, constants, globals);
    }
    let reached = reached_functions(module);
    for (handle, function) in module.functions.iter_mut() {
        if reached.contains(&handle) {
            continue;
        }
        function.expressions = Arena::new();
        function.named_expressions.clear();
        function.local_variables = Arena::new();
        let value = function.result.as_ref().map(|result| {
            function
                .expressions
                .append(Expression::ZeroValue(result.ty), Span::UNDEFINED)
        });
        function.body = Block::new();
        function
            .body
            .push(Statement::Return { value }, Span::UNDEFINED);
    }
    naga::compact::compact(module, naga::compact::KeepUnused::Yes);
}

/// Folds `function`'s constant `if`s, and forgets the names of the
/// expressions only removed statements evaluated (naga keeps named
/// expressions through compaction, and a call's result without its call is
/// invalid).
fn fold_function(
    function: &mut Function,
    constants: &Arena<Constant>,
    globals: &Arena<Expression>,
) {
    let expressions = &function.expressions;
    let value = |expression| constant_bool(expression, expressions, constants, globals);
    fold(&mut function.body, &value);
    let mut evaluated = HashSet::new();
    evaluated_by(&function.body, &mut evaluated);
    function
        .named_expressions
        .retain(|h, _| evaluated.contains(h) || expressions[*h].needs_pre_emit());
}

/// Adds the expressions the statements of `block` evaluate: emitted ones
/// and the results of calls, atomics, uniform loads and subgroup operations.
fn evaluated_by(block: &Block, out: &mut HashSet<Handle<Expression>>) {
    for statement in block.iter() {
        match statement {
            Statement::Emit(range) => out.extend(range.clone()),
            Statement::Call { result, .. } | Statement::Atomic { result, .. } => {
                out.extend(*result)
            }
            Statement::WorkGroupUniformLoad { result, .. }
            | Statement::SubgroupGather { result, .. }
            | Statement::SubgroupCollectiveOperation { result, .. }
            | Statement::SubgroupBallot { result, .. } => {
                out.insert(*result);
            }
            Statement::Block(inner) => evaluated_by(inner, out),
            Statement::If { accept, reject, .. } => {
                evaluated_by(accept, out);
                evaluated_by(reject, out);
            }
            Statement::Switch { cases, .. } => {
                for case in cases {
                    evaluated_by(&case.body, out);
                }
            }
            Statement::Loop {
                body, continuing, ..
            } => {
                evaluated_by(body, out);
                evaluated_by(continuing, out);
            }
            _ => {}
        }
    }
}

/// `expression`'s value if it is a constant `bool`.
fn constant_bool(
    expression: Handle<Expression>,
    expressions: &Arena<Expression>,
    constants: &Arena<Constant>,
    globals: &Arena<Expression>,
) -> Option<bool> {
    match &expressions[expression] {
        Expression::Literal(Literal::Bool(value)) => Some(*value),
        Expression::Constant(constant) => match globals[constants[*constant].init] {
            Expression::Literal(Literal::Bool(value)) => Some(value),
            _ => None,
        },
        Expression::Unary {
            op: UnaryOperator::LogicalNot,
            expr,
        } => constant_bool(*expr, expressions, constants, globals).map(|v| !v),
        _ => None,
    }
}

/// Folds the constant `if`s of `block` and drops what follows a statement
/// that always returns. Returns whether `block` always returns.
fn fold(block: &mut Block, value: &dyn Fn(Handle<Expression>) -> Option<bool>) -> bool {
    let mut kept = Block::with_capacity(block.len());
    let mut returns = false;
    for (statement, span) in std::mem::take(block).span_into_iter() {
        let statement = match statement {
            Statement::If {
                condition,
                mut accept,
                mut reject,
            } => match value(condition) {
                Some(taken) => {
                    let mut live = if taken { accept } else { reject };
                    returns = fold(&mut live, value);
                    Statement::Block(live)
                }
                None => {
                    let both = fold(&mut accept, value) & fold(&mut reject, value);
                    returns = both;
                    Statement::If {
                        condition,
                        accept,
                        reject,
                    }
                }
            },
            Statement::Block(mut inner) => {
                returns = fold(&mut inner, value);
                Statement::Block(inner)
            }
            Statement::Loop {
                mut body,
                mut continuing,
                break_if,
            } => {
                fold(&mut body, value);
                fold(&mut continuing, value);
                Statement::Loop {
                    body,
                    continuing,
                    break_if,
                }
            }
            Statement::Switch {
                selector,
                mut cases,
            } => {
                for case in &mut cases {
                    fold(&mut case.body, value);
                }
                Statement::Switch { selector, cases }
            }
            other => {
                returns = matches!(other, Statement::Return { .. } | Statement::Kill);
                other
            }
        };
        kept.push(statement, span);
        if returns {
            break;
        }
    }
    *block = kept;
    returns
}

/// The functions some entry point calls, through any depth of calls.
fn reached_functions(module: &Module) -> HashSet<Handle<Function>> {
    let mut reached = HashSet::new();
    let mut pending: Vec<&Block> = module
        .entry_points
        .iter()
        .map(|e| &e.function.body)
        .collect();
    while let Some(block) = pending.pop() {
        for statement in block.iter() {
            match statement {
                Statement::Call { function, .. } if reached.insert(*function) => {
                    pending.push(&module.functions[*function].body);
                }
                Statement::Block(inner) => pending.push(inner),
                Statement::If { accept, reject, .. } => {
                    pending.push(accept);
                    pending.push(reject);
                }
                Statement::Switch { cases, .. } => {
                    pending.extend(cases.iter().map(|c| &c.body));
                }
                Statement::Loop {
                    body, continuing, ..
                } => {
                    pending.push(body);
                    pending.push(continuing);
                }
                _ => {}
            }
        }
    }
    reached
}
