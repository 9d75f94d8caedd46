//! The contract of emulated subgroups, checked on the composed module where
//! the composer can see it (see `crate::expand`'s `emulate` module):
//!
//! - every compute entry point's workgroup is a multiple of the emulated
//!   size `S` and at most [`EMULATED_MAX_THREADS`] invocations: an error at
//!   its `@workgroup_size`;
//! - a wavekit call (anything reaching a `workgroupBarrier()`) made by the
//!   user's code under an `if` or `switch` whose condition naga's uniformity
//!   analysis finds non-uniform is an error at the call, labelled with the
//!   condition. Every invocation of the workgroup must reach an emulated
//!   primitive; naga itself does not reject barriers in non-uniform control
//!   flow, so without this check such a call would hang or read garbage.
//!
//! naga's analysis is conservative: entry-point arguments, private and
//! function variables count as non-uniform, so a condition on
//! `workgroup_id` is reported too (hoist the call out of the branch). Loops
//! are not checked: a loop whose trip count differs between invocations is
//! beyond what the composer sees.

use std::collections::HashSet;
use std::ops::Range;

use naga::valid::{FunctionInfo, ModuleInfo};
use naga::{Block, Expression, Function, Handle, Module, ShaderStage, Statement};

use super::scan::SpanError;
use crate::target::EMULATED_MAX_THREADS;

/// Checks the composed `module` (user code in `source[..user_len]`) for
/// emulated subgroups of `size` lanes.
pub(super) fn check(
    module: &Module,
    info: &ModuleInfo,
    source: &str,
    user_len: usize,
    size: u32,
) -> Result<(), SpanError> {
    // Entry points that reach no emulated primitive (a one-invocation
    // initialisation kernel beside the others) keep any workgroup size.
    let emulated = functions_reaching(
        module,
        |f| f.name.as_deref().is_some_and(|n| n.starts_with("wk_em_")),
        |_| false,
    );
    for entry in &module.entry_points {
        if entry.stage != ShaderStage::Compute
            || entry.workgroup_size_overrides.is_some()
            || !reaches(&entry.function.body, &|s| calls_into(s, &emulated))
        {
            continue;
        }
        let threads: u32 = entry.workgroup_size.iter().product();
        if !threads.is_multiple_of(size) || threads > EMULATED_MAX_THREADS {
            let why = if !threads.is_multiple_of(size) {
                format!("{threads} invocations are not a multiple of S = {size}")
            } else {
                format!("{threads} invocations are more than {EMULATED_MAX_THREADS}")
            };
            return Err(SpanError {
                span: workgroup_size_span(source, user_len, &entry.name),
                message: format!(
                    "entry point `{}` cannot use emulated subgroups of {size} lanes: {why} \
                     (the workgroup must be a multiple of S and at most {EMULATED_MAX_THREADS})",
                    entry.name
                ),
                label: why,
            });
        }
    }
    let barriers = barrier_functions(module);
    let user = |range: &Range<usize>| range.end <= user_len;
    let text = |range: Range<usize>| source.get(range).map(str::to_string);
    for (handle, function) in module.functions.iter() {
        non_uniform_calls(
            &function.body,
            function,
            &info[handle],
            &barriers,
            None,
            &Spans {
                user: &user,
                text: &text,
            },
        )?;
    }
    for (index, entry) in module.entry_points.iter().enumerate() {
        non_uniform_calls(
            &entry.function.body,
            &entry.function,
            info.get_entry_point(index),
            &barriers,
            None,
            &Spans {
                user: &user,
                text: &text,
            },
        )?;
    }
    Ok(())
}

/// The `@workgroup_size(...)` of entry point `name` in the user's text, or
/// the function's name if it cannot be found.
fn workgroup_size_span(source: &str, user_len: usize, name: &str) -> Range<usize> {
    let text = &source[..user_len.min(source.len())];
    let Some(fn_at) = find_fn(text, name) else {
        return 0..0;
    };
    match text[..fn_at].rfind("@workgroup_size") {
        Some(at) => {
            let end = text[at..fn_at].find(')').map_or(fn_at, |e| at + e + 1);
            at..end
        }
        None => fn_at..fn_at + 3 + name.len(),
    }
}

fn find_fn(text: &str, name: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = text[from..].find("fn ") {
        let at = from + at;
        let rest = text[at + 3..].trim_start();
        if rest.starts_with(name)
            && !rest[name.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
        {
            return Some(at);
        }
        from = at + 3;
    }
    None
}

/// Functions that execute a barrier, directly or through calls.
fn barrier_functions(module: &Module) -> HashSet<Handle<Function>> {
    functions_reaching(
        module,
        |_| false,
        |statement| {
            matches!(
                statement,
                Statement::ControlBarrier(_) | Statement::WorkGroupUniformLoad { .. }
            )
        },
    )
}

/// The functions that are `seed`s, or whose bodies hold a `direct`
/// statement or call such a function, through any depth of calls.
fn functions_reaching(
    module: &Module,
    seed: impl Fn(&Function) -> bool,
    direct: impl Fn(&Statement) -> bool,
) -> HashSet<Handle<Function>> {
    let mut set = HashSet::new();
    loop {
        let before = set.len();
        for (handle, function) in module.functions.iter() {
            if !set.contains(&handle)
                && (seed(function)
                    || reaches(&function.body, &|s| direct(s) || calls_into(s, &set)))
            {
                set.insert(handle);
            }
        }
        if set.len() == before {
            return set;
        }
    }
}

/// Whether `statement` calls a function of `set`.
fn calls_into(statement: &Statement, set: &HashSet<Handle<Function>>) -> bool {
    matches!(statement, Statement::Call { function, .. } if set.contains(function))
}

/// Whether `block` holds a statement that is a `hit`, at any depth.
fn reaches(block: &Block, hit: &dyn Fn(&Statement) -> bool) -> bool {
    block.iter().any(|statement| {
        hit(statement)
            || match statement {
                Statement::Block(inner) => reaches(inner, hit),
                Statement::If { accept, reject, .. } => {
                    reaches(accept, hit) || reaches(reject, hit)
                }
                Statement::Switch { cases, .. } => cases.iter().any(|c| reaches(&c.body, hit)),
                Statement::Loop {
                    body, continuing, ..
                } => reaches(body, hit) || reaches(continuing, hit),
                _ => false,
            }
    })
}

/// Which spans are the user's, and their text.
struct Spans<'a> {
    user: &'a dyn Fn(&Range<usize>) -> bool,
    text: &'a dyn Fn(Range<usize>) -> Option<String>,
}

/// Errors at the first call into `barriers` from user code under a
/// non-uniform condition (`condition`, the innermost one).
fn non_uniform_calls(
    block: &Block,
    function: &Function,
    info: &FunctionInfo,
    barriers: &HashSet<Handle<Function>>,
    condition: Option<Handle<Expression>>,
    spans: &Spans<'_>,
) -> Result<(), SpanError> {
    let non_uniform = |expr: Handle<Expression>| {
        info[expr]
            .uniformity
            .non_uniform_result
            .is_some()
            .then_some(expr)
    };
    for (statement, span) in block.span_iter() {
        match statement {
            Statement::Call {
                function: callee, ..
            } if barriers.contains(callee) => {
                if let (Some(cond), Some(range)) = (condition, span.to_range())
                    && (spans.user)(&range)
                {
                    let at = function
                        .expressions
                        .get_span(cond)
                        .to_range()
                        .filter(|r| (spans.user)(r))
                        .and_then(|r| (spans.text)(r))
                        .map(|t| format!(" (`{t}`)"))
                        .unwrap_or_default();
                    return Err(SpanError {
                        span: range,
                        message: format!(
                            "with emulated subgroups a wavekit call must be reached by the whole \
                             workgroup, but this one is under a condition that differs between \
                             invocations{at}: move it out of the branch"
                        ),
                        label: "called in non-uniform control flow".into(),
                    });
                }
            }
            Statement::Block(inner) => {
                non_uniform_calls(inner, function, info, barriers, condition, spans)?
            }
            Statement::If {
                condition: c,
                accept,
                reject,
            } => {
                let inner = non_uniform(*c).or(condition);
                non_uniform_calls(accept, function, info, barriers, inner, spans)?;
                non_uniform_calls(reject, function, info, barriers, inner, spans)?;
            }
            Statement::Switch { selector, cases } => {
                let inner = non_uniform(*selector).or(condition);
                for case in cases {
                    non_uniform_calls(&case.body, function, info, barriers, inner, spans)?;
                }
            }
            Statement::Loop {
                body, continuing, ..
            } => {
                non_uniform_calls(body, function, info, barriers, condition, spans)?;
                non_uniform_calls(continuing, function, info, barriers, condition, spans)?;
            }
            _ => {}
        }
    }
    Ok(())
}
