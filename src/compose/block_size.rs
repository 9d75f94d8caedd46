//! A block op's `B` is the number of threads in the workgroup that calls
//! it: `blk::reduce_add<f32, 256>` in an entry point with
//! `@workgroup_size(64)` would read partials no thread wrote. Each compute
//! entry point's calls are followed through the user's functions, and a
//! block call reached from an entry point whose workgroup is not `B` threads
//! is an error at the call, naming both numbers.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use naga::{Block, Function, Handle, Module, ShaderStage, Statement};

use super::scan::SpanError;

/// Checks every block call in the user's code, `source` (the composed
/// module's first bytes, at the same offsets), against every compute entry
/// point that reaches it. `block_dims` maps the names the calls use
/// (mangled names and forwarders) to their `B`.
pub(super) fn check(
    module: &Module,
    source: &str,
    block_dims: &HashMap<String, u32>,
) -> Result<(), SpanError> {
    if block_dims.is_empty() {
        return Ok(());
    }
    for entry in &module.entry_points {
        // A size from pipeline overrides is only known when the pipeline is made.
        if entry.stage != ShaderStage::Compute || entry.workgroup_size_overrides.is_some() {
            continue;
        }
        let threads: u32 = entry.workgroup_size.iter().product();
        let mut visited = HashSet::new();
        let mut path = Vec::new();
        walk(
            module,
            &entry.function,
            &mut path,
            &mut visited,
            &mut |name, span, path| {
                let Some(&b) = block_dims.get(name) else {
                    return Ok(());
                };
                match source.get(span.clone()) {
                    Some(call) if b != threads => {
                        Err(mismatch(call, span.start, b, threads, entry, path))
                    }
                    // Library code calling itself, or a matching size.
                    _ => Ok(()),
                }
            },
        )?;
    }
    Ok(())
}

/// Calls `at` for every call in `function` and the functions it reaches,
/// each function once, with the chain of functions from the entry point.
fn walk(
    module: &Module,
    function: &Function,
    path: &mut Vec<String>,
    visited: &mut HashSet<Handle<Function>>,
    at: &mut impl FnMut(&str, Range<usize>, &[String]) -> Result<(), SpanError>,
) -> Result<(), SpanError> {
    let mut calls = Vec::new();
    calls_in(&function.body, &mut calls);
    for (callee, span) in calls {
        let called = &module.functions[callee];
        let name = called.name.as_deref().unwrap_or_default();
        if let Some(span) = span {
            at(name, span, path)?;
        }
        if visited.insert(callee) {
            path.push(name.to_string());
            walk(module, called, path, visited, at)?;
            path.pop();
        }
    }
    Ok(())
}

/// Every call statement in `block`, nested blocks included, with its span.
fn calls_in(block: &Block, out: &mut Vec<(Handle<Function>, Option<Range<usize>>)>) {
    for (statement, span) in block.span_iter() {
        match statement {
            Statement::Call { function, .. } => out.push((*function, span.to_range())),
            Statement::Block(inner) => calls_in(inner, out),
            Statement::If { accept, reject, .. } => {
                calls_in(accept, out);
                calls_in(reject, out);
            }
            Statement::Switch { cases, .. } => {
                for case in cases {
                    calls_in(&case.body, out);
                }
            }
            Statement::Loop {
                body, continuing, ..
            } => {
                calls_in(body, out);
                calls_in(continuing, out);
            }
            _ => {}
        }
    }
}

/// The error at the call's name (`blk::reduce_add<f32, 256>`, up to its `(`).
fn mismatch(
    call: &str,
    start: usize,
    b: u32,
    threads: u32,
    entry: &naga::EntryPoint,
    path: &[String],
) -> SpanError {
    let name = call.split('(').next().unwrap_or(call).trim_end();
    let [x, y, z] = entry.workgroup_size;
    let size = match (y, z) {
        (1, 1) => format!("{x}"),
        (_, 1) => format!("{x}, {y}"),
        _ => format!("{x}, {y}, {z}"),
    };
    let through = if path.is_empty() {
        String::new()
    } else {
        format!(" (through `{}`)", path.join("` → `"))
    };
    SpanError {
        span: start..start + name.len(),
        message: format!(
            "`{name}` is for a workgroup of B = {b} threads, but entry point `{}` \
             with @workgroup_size({size}) has {threads} threads and calls it{through}",
            entry.name
        ),
        label: format!("B = {b}, but `{}` has {threads} threads", entry.name),
    }
}
