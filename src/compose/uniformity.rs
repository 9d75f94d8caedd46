//! Subgroup and block primitives need uniform control flow: every
//! invocation of the subgroup (for a block op, of the workgroup) must call
//! them together (all but the per-lane values, fences and `elect`, which
//! [`needs_uniform_control_flow`] leaves out of `primitives`). A call under
//! an `if`, `switch` or loop whose condition depends on a non-uniform
//! value — or after a `return`, `break` or `continue` taken under one —
//! gets a warning at the call, naming the condition's line.
//!
//! The analysis is the composer's own (naga's counts every function-local
//! variable as non-uniform, so every counted loop would be reported). A
//! value is non-uniform when it derives from a per-invocation built-in
//! (`local_invocation_id` / `_index`, `global_invocation_id`,
//! `subgroup_invocation_id`), a load from a `read_write` storage buffer or
//! a private variable, an atomic, a raw subgroup scan or shuffle, a
//! primitive whose result differs per lane (`Placement::PerLane`, `Tile`,
//! `FirstLane`, `FirstThread`), or a local variable that was ever assigned
//! one (or assigned under non-uniform control flow), to a fixed point.
//! Calls are followed from each entry point through the user's functions,
//! with each argument's uniformity.
//!
//! Limits:
//! - uniformity is per subgroup: a condition on `subgroup_id` or on a
//!   subgroup reduction counts as uniform, so a block op under one is not
//!   reported (it should be: a block op needs the whole workgroup);
//! - loads from workgroup memory and from read-only buffers at uniform
//!   indices count as uniform (another invocation may have written
//!   workgroup memory differently per subgroup);
//! - a user function's result is non-uniform when a value it returns is
//!   (given the call's arguments), or when it returns under non-uniform
//!   control flow; a library function's when any argument is;
//! - pointers passed to user functions count as non-uniform.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::ops::Range;

use naga::{
    AddressSpace, Binding, Block, BuiltIn, Expression, Function, Handle, LocalVariable, Module,
    Statement, StorageAccess,
};

use super::scan::SpanError;
use crate::catalog::{Family, Placement};
use crate::expand::Instance;

/// Whether `instance` exchanges data between lanes or threads, so that every
/// one of them must call it: not the per-lane values (lane and thread ids,
/// the subgroup size, lane masks), fences, `elect` (which elects among
/// the lanes that call it), or the direct and vectorized block loads and
/// stores and the direct subgroup ones (each thread touches only its own
/// indices). The composer passes [`check`] the names of the
/// instances for which this holds.
pub(super) fn needs_uniform_control_flow(instance: &Instance) -> bool {
    let primitive = instance.primitive;
    !matches!(
        primitive.family,
        Family::LaneMask | Family::BlockLoadVectorized
    ) && !matches!(
        primitive.name,
        "invocation_id"
            | "group_size"
            | "log2_group_size"
            | "elect"
            | "mem_fence"
            | "thread_idx"
            | "global_thread_idx"
            | "load_direct_blocked"
            | "load_direct_striped"
            | "store_direct_blocked"
            | "store_direct_striped"
            | "load_blocked"
            | "load_striped"
            | "store_blocked"
            | "store_striped"
            | "load_blocked_tiled"
            | "load_striped_tiled"
            | "store_blocked_tiled"
            | "store_striped_tiled"
    )
}

/// Whether every lane of the subgroup gets the same result from `instance`
/// (what [`check`]'s `primitives` maps its names to).
pub(super) fn uniform_result(instance: &Instance) -> bool {
    matches!(
        instance.primitive.placement,
        Placement::Subgroup | Placement::Block | Placement::Nothing
    )
}

/// The warnings for `module` (validated), whose first bytes are the user's
/// `source`. `primitives` maps the names the rewritten calls use (mangled
/// names and forwarders) to whether their result is the same on every lane
/// of the subgroup.
pub(super) fn check(
    module: &Module,
    source: &str,
    primitives: &HashMap<String, bool>,
) -> Vec<SpanError> {
    let walk = Walk {
        module,
        source,
        primitives,
        seen: RefCell::default(),
        reported: RefCell::default(),
        results: RefCell::default(),
    };
    for entry in &module.entry_points {
        walk.function(&entry.function, &[], None);
    }
    let mut warnings: Vec<SpanError> = walk.reported.into_inner().into_values().collect();
    warnings.sort_by_key(|w| w.span.start);
    warnings
}

/// A user function and its arguments' uniformity (true: non-uniform).
type Called = (Handle<Function>, Vec<bool>);

/// Each call's result expression, with the callee and the arguments.
type CallResults = HashMap<Handle<Expression>, (Handle<Function>, Vec<Handle<Expression>>)>;

struct Walk<'a> {
    module: &'a Module,
    source: &'a str,
    primitives: &'a HashMap<String, bool>,
    /// User functions walked: the function, its arguments' uniformity and
    /// whether its caller was non-uniform.
    seen: RefCell<HashSet<(Called, bool)>>,
    /// Warnings by the call's offset.
    reported: RefCell<HashMap<usize, SpanError>>,
    /// Whether a user function's result is non-uniform, by the function
    /// and its arguments' uniformity.
    results: RefCell<HashMap<Called, bool>>,
}

/// One function's analysis: which arguments and locals are non-uniform.
struct Frame<'f> {
    function: &'f Function,
    /// Whether each argument is non-uniform (entry points: from its
    /// built-in).
    arguments: Vec<bool>,
    /// Locals assigned a non-uniform value somewhere.
    tainted: HashSet<Handle<LocalVariable>>,
    /// The callee and arguments of each call's result expression.
    results: CallResults,
    /// Whether anything changed in this pass (fixed point).
    changed: bool,
    /// Whether a `return` gives a non-uniform value or runs under
    /// non-uniform control flow.
    returns_vary: bool,
    /// Expressions already classified since the last change: `let` chains
    /// share subexpressions, and without this a chain of `let`s that each
    /// use the previous one twice would take exponential time.
    memo: RefCell<HashMap<Handle<Expression>, bool>>,
}

/// How a block can end early under non-uniform control flow: the span of
/// the condition it depends on.
#[derive(Clone, Default)]
struct Exits {
    /// A `return` (the rest of the function is non-uniform).
    returns: Option<Range<usize>>,
    /// A `break` or `continue` (the rest of the loop is non-uniform).
    breaks: Option<Range<usize>>,
}

impl Exits {
    fn or(self, other: Exits) -> Exits {
        Exits {
            returns: self.returns.or(other.returns),
            breaks: self.breaks.or(other.breaks),
        }
    }
}

impl Walk<'_> {
    /// Analyses `function` (a user function's `arguments` uniformity given,
    /// an entry point's from its built-ins) to a fixed point, then reports.
    fn function(&self, function: &Function, arguments: &[bool], condition: Option<Range<usize>>) {
        let mut frame = self.settle(function, arguments, condition.clone());
        self.block(&function.body, &mut frame, condition, true);
    }

    /// `function`'s frame at the fixed point of its locals' uniformity,
    /// nothing reported.
    fn settle<'f>(
        &self,
        function: &'f Function,
        arguments: &[bool],
        condition: Option<Range<usize>>,
    ) -> Frame<'f> {
        let arguments = if arguments.len() == function.arguments.len() {
            arguments.to_vec()
        } else {
            function
                .arguments
                .iter()
                .map(|a| argument_varies(&a.binding))
                .collect()
        };
        let mut frame = Frame {
            function,
            arguments,
            tainted: HashSet::new(),
            results: HashMap::new(),
            changed: true,
            returns_vary: false,
            memo: RefCell::new(HashMap::new()),
        };
        collect_results(&function.body, &mut frame.results);
        // Each pass can only add tainted locals, so this ends.
        for _ in 0..=function.local_variables.len() {
            if !frame.changed {
                break;
            }
            frame.changed = false;
            self.block(&function.body, &mut frame, condition.clone(), false);
        }
        frame
    }

    /// Whether user function `callee`'s result is non-uniform when its
    /// arguments' uniformity is `arguments`.
    fn result_varies(&self, callee: Handle<Function>, arguments: Vec<bool>) -> bool {
        let key = (callee, arguments);
        if let Some(known) = self.results.borrow().get(&key) {
            return *known;
        }
        let frame = self.settle(&self.module.functions[callee], &key.1, None);
        let varies = frame.returns_vary;
        self.results.borrow_mut().insert(key, varies);
        varies
    }

    /// Walks `block` under `condition` (the span of the non-uniform
    /// condition it runs under, if any); `report` is false while the
    /// locals' uniformity is still being found and for a loop's dry run.
    fn block(
        &self,
        block: &Block,
        frame: &mut Frame<'_>,
        condition: Option<Range<usize>>,
        report: bool,
    ) -> Exits {
        let mut condition = condition;
        let mut exits = Exits::default();
        for (statement, span) in block.span_iter() {
            let here = match statement {
                Statement::Block(inner) => self.block(inner, frame, condition.clone(), report),
                Statement::If {
                    condition: test,
                    accept,
                    reject,
                } => {
                    let inner = condition.clone().or_else(|| self.varies_at(*test, frame));
                    let a = self.block(accept, frame, inner.clone(), report);
                    let r = self.block(reject, frame, inner, report);
                    a.or(r)
                }
                Statement::Switch { selector, cases } => {
                    let inner = condition
                        .clone()
                        .or_else(|| self.varies_at(*selector, frame));
                    let mut all = Exits::default();
                    for case in cases {
                        let e = self.block(&case.body, frame, inner.clone(), report);
                        // `break` leaves the switch, not a loop.
                        all = all.or(Exits {
                            returns: e.returns,
                            breaks: None,
                        });
                    }
                    all
                }
                Statement::Loop {
                    body,
                    continuing,
                    break_if,
                } => {
                    let early = self.block(body, frame, condition.clone(), false);
                    let inner = condition
                        .clone()
                        .or(early.breaks)
                        .or_else(|| break_if.and_then(|b| self.varies_at(b, frame)));
                    let e = self.block(body, frame, inner.clone(), report);
                    self.block(continuing, frame, inner, report);
                    Exits {
                        returns: e.returns,
                        breaks: None,
                    }
                }
                Statement::Return { value } => {
                    if condition.is_some() || value.is_some_and(|v| self.varies(v, frame)) {
                        frame.returns_vary = true;
                    }
                    Exits {
                        returns: condition.clone(),
                        breaks: None,
                    }
                }
                Statement::Kill => Exits {
                    returns: condition.clone(),
                    breaks: None,
                },
                Statement::Break | Statement::Continue => Exits {
                    returns: None,
                    breaks: condition.clone(),
                },
                Statement::Store { pointer, value } => {
                    if let Some(local) = local_root(*pointer, frame.function) {
                        let varies = condition.is_some()
                            || self.varies(*value, frame)
                            || self.varies(*pointer, frame);
                        if varies && frame.tainted.insert(local) {
                            frame.changed = true;
                            frame.memo.borrow_mut().clear();
                        }
                    }
                    Exits::default()
                }
                Statement::Call {
                    function: callee,
                    arguments,
                    ..
                } => {
                    if report {
                        let varying: Vec<bool> =
                            arguments.iter().map(|a| self.varies(*a, frame)).collect();
                        self.call(*callee, span.to_range(), condition.clone(), varying);
                    }
                    Exits::default()
                }
                _ => Exits::default(),
            };
            condition = condition.or(here.returns.clone()).or(here.breaks.clone());
            exits = exits.or(here);
        }
        exits
    }

    /// A call: a primitive under a non-uniform condition is reported; a
    /// user function is walked with the caller's condition.
    fn call(
        &self,
        callee: Handle<Function>,
        span: Option<Range<usize>>,
        condition: Option<Range<usize>>,
        arguments: Vec<bool>,
    ) {
        let called = &self.module.functions[callee];
        let name = called.name.as_deref().unwrap_or_default();
        // Only calls in the user's code: the library calls itself too.
        let Some(span) = span.filter(|s| s.end <= self.source.len()) else {
            return;
        };
        if self.primitives.contains_key(name) {
            if let Some(condition) = condition {
                self.reported
                    .borrow_mut()
                    .entry(span.start)
                    .or_insert_with(|| warning(self.source, span, condition));
            }
            return;
        }
        let first = self.is_user(callee)
            && self
                .seen
                .borrow_mut()
                .insert(((callee, arguments.clone()), condition.is_some()));
        if first {
            self.function(called, &arguments, condition);
        }
    }

    /// Whether `function` is the user's (its span lies in the user's source),
    /// not the library's.
    fn is_user(&self, function: Handle<Function>) -> bool {
        self.module
            .functions
            .get_span(function)
            .to_range()
            .is_some_and(|s| s.end <= self.source.len())
    }

    /// The span of `expression` if it is non-uniform.
    fn varies_at(&self, expression: Handle<Expression>, frame: &Frame<'_>) -> Option<Range<usize>> {
        if !self.varies(expression, frame) {
            return None;
        }
        Some(
            frame
                .function
                .expressions
                .get_span(expression)
                .to_range()
                .filter(|s| s.end <= self.source.len())
                .unwrap_or(0..0),
        )
    }

    /// Whether `expression` may differ between the invocations of a
    /// subgroup.
    fn varies(&self, expression: Handle<Expression>, frame: &Frame<'_>) -> bool {
        if let Some(known) = frame.memo.borrow().get(&expression) {
            return *known;
        }
        let varies = self.classify(expression, frame);
        frame.memo.borrow_mut().insert(expression, varies);
        varies
    }

    /// [`Walk::varies`] without the memo.
    fn classify(&self, expression: Handle<Expression>, frame: &Frame<'_>) -> bool {
        let expressions = &frame.function.expressions;
        let any = |handles: &[Handle<Expression>]| handles.iter().any(|h| self.varies(*h, frame));
        match expressions[expression] {
            Expression::Literal(_)
            | Expression::Constant(_)
            | Expression::Override(_)
            | Expression::ZeroValue(_)
            | Expression::ArrayLength(_)
            | Expression::SubgroupBallotResult
            | Expression::WorkGroupUniformLoadResult { .. } => false,
            Expression::FunctionArgument(i) => {
                frame.arguments.get(i as usize).copied().unwrap_or(true)
            }
            Expression::LocalVariable(local) => frame.tainted.contains(&local),
            Expression::GlobalVariable(global) => {
                match self.module.global_variables[global].space {
                    AddressSpace::Storage { access } => access.contains(StorageAccess::STORE),
                    AddressSpace::Uniform | AddressSpace::WorkGroup | AddressSpace::Handle => false,
                    _ => true,
                }
            }
            Expression::Load { pointer } => self.varies(pointer, frame),
            Expression::Access { base, index } => any(&[base, index]),
            Expression::AccessIndex { base, .. } => self.varies(base, frame),
            Expression::Splat { value, .. } => self.varies(value, frame),
            Expression::Swizzle { vector, .. } => self.varies(vector, frame),
            Expression::Compose { ref components, .. } => any(components),
            Expression::Unary { expr, .. } => self.varies(expr, frame),
            Expression::Binary { left, right, .. } => any(&[left, right]),
            Expression::Select {
                condition,
                accept,
                reject,
            } => any(&[condition, accept, reject]),
            Expression::Relational { argument, .. } => self.varies(argument, frame),
            Expression::Math {
                arg,
                arg1,
                arg2,
                arg3,
                ..
            } => {
                let mut all = vec![arg];
                all.extend([arg1, arg2, arg3].into_iter().flatten());
                any(&all)
            }
            Expression::As { expr, .. } => self.varies(expr, frame),
            Expression::CallResult(_) => match frame.results.get(&expression) {
                Some((callee, arguments)) => {
                    let name = self.module.functions[*callee]
                        .name
                        .as_deref()
                        .unwrap_or_default();
                    match self.primitives.get(name) {
                        Some(uniform) => !uniform,
                        None if self.is_user(*callee) => {
                            let varying =
                                arguments.iter().map(|a| self.varies(*a, frame)).collect();
                            self.result_varies(*callee, varying)
                        }
                        None => any(arguments),
                    }
                }
                None => true,
            },
            _ => true,
        }
    }
}

/// Whether an entry point argument differs between a subgroup's lanes.
fn argument_varies(binding: &Option<Binding>) -> bool {
    match binding {
        Some(Binding::BuiltIn(builtin)) => matches!(
            builtin,
            BuiltIn::LocalInvocationId
                | BuiltIn::LocalInvocationIndex
                | BuiltIn::GlobalInvocationId
                | BuiltIn::SubgroupInvocationId
        ),
        // A struct of built-ins, or anything else: assume it varies.
        _ => true,
    }
}

/// The local variable a pointer expression points into, if any.
fn local_root(pointer: Handle<Expression>, function: &Function) -> Option<Handle<LocalVariable>> {
    let mut current = pointer;
    loop {
        match function.expressions[current] {
            Expression::LocalVariable(local) => return Some(local),
            Expression::Access { base, .. } | Expression::AccessIndex { base, .. } => {
                current = base
            }
            _ => return None,
        }
    }
}

/// Each call's result expression, with its callee and arguments.
fn collect_results(block: &Block, out: &mut CallResults) {
    for statement in block.iter() {
        match statement {
            Statement::Call {
                function,
                arguments,
                result: Some(result),
            } => {
                out.insert(*result, (*function, arguments.clone()));
            }
            Statement::Block(inner) => collect_results(inner, out),
            Statement::If { accept, reject, .. } => {
                collect_results(accept, out);
                collect_results(reject, out);
            }
            Statement::Switch { cases, .. } => {
                for case in cases {
                    collect_results(&case.body, out);
                }
            }
            Statement::Loop {
                body, continuing, ..
            } => {
                collect_results(body, out);
                collect_results(continuing, out);
            }
            _ => {}
        }
    }
}

/// The warning at the call's name (`sg::reduce_all_add<f32>`, up to its
/// `(`), naming the condition's line and column.
fn warning(source: &str, call: Range<usize>, condition: Range<usize>) -> SpanError {
    let text = source.get(call.clone()).unwrap_or_default();
    let name = text.split('(').next().unwrap_or(text).trim_end();
    let (line, column) = line_column(source, condition.start);
    let condition_text = source
        .get(condition.clone())
        .filter(|c| !c.is_empty())
        .map(|c| format!(" `{}`", c.trim()))
        .unwrap_or_default();
    SpanError {
        span: call.start..call.start + name.len(),
        message: format!(
            "`{name}` is called under control flow that depends on a non-uniform value \
             (the condition{condition_text} at {line}:{column}): every invocation of the \
             subgroup (or, for a block op, the workgroup) must call it together"
        ),
        label: "called under non-uniform control flow".into(),
    }
}

fn line_column(source: &str, offset: usize) -> (usize, usize) {
    let Some(before) = source.get(..offset.min(source.len())) else {
        return (0, 0);
    };
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}
