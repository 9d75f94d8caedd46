//! Emulated subgroups ([`SubgroupMode::Emulated`](crate::target::SubgroupMode)):
//! lowering every WGSL subgroup builtin of an expansion to a wavekit helper
//! that works through workgroup memory and `workgroupBarrier()`.
//!
//! # Mechanism, and why
//!
//! The templates are written once, against WGSL's subgroup builtins
//! (`subgroupShuffle`, `subgroupBallot`, `subgroupAdd`, ...), at about forty
//! call sites. Rather than a template-level switch at each of them, the
//! expanded library text is rewritten after rendering:
//!
//! 1. the text is parsed and validated by naga *with* the subgroup
//!    capabilities, so every subgroup operation is a typed IR statement
//!    (`SubgroupGather`, `SubgroupCollectiveOperation`, `SubgroupBallot`,
//!    a `SUB_GROUP` barrier) carrying the span of its call;
//! 2. the builtin's name at that span is replaced by the name of a helper
//!    for that operation and argument type (`subgroupShuffleXor(v, 1u)` on
//!    `f64` becomes `wk_em_shuffle_xor_f64(v, 1u)`), arguments untouched;
//! 3. the helpers used are appended, each once.
//!
//! The types come from naga's own type resolution, not from the text, so
//! the rewrite cannot mistake a type, and the result is validated again
//! *without* the subgroup capabilities: a builtin left behind is an error,
//! never a silently wrong module. The templates stay readable and keep
//! their hardware path unchanged.
//!
//! # Lowering
//!
//! Lane `l` of emulated subgroup `g` is invocation `g * S + l` of the
//! workgroup (`wk_sg_init` takes `local_invocation_index`). One scratch
//! array of `u32` words in workgroup memory carries every exchange: each
//! lane *publishes* its value (writes its words to its own slots, then one
//! `workgroupBarrier()`), then reads the slots it needs. The scratch has two
//! regions used alternately, so one barrier per operation suffices (a
//! region is written again only after the next operation's barrier, which
//! every reader of it has passed). 64-bit values take two words, `f16` the
//! bits of its exact `f32`, `bool` `0u`/`1u`, vectors one slot per component.
//!
//! - data movement (`shuffle*`, `broadcast*`, quad ops): publish, read the
//!   source lane's slots;
//! - reductions, inclusive and exclusive scans: publish, then fold the
//!   subgroup's slots in lane order (`0..S`, `0..=lane`, `0..lane`): one
//!   barrier instead of the `log2(S)` barriers of a tree, and every lane
//!   folds in the same order, so a float reduction agrees in every lane. A
//!   first version used `log2(S)`-step trees (two barriers per step): on
//!   lavapipe, whose compile time grows with the number of barriers, a
//!   conformance batch of block scans took minutes. The loops run to
//!   `wk_sg_size` (a private variable holding S), not a literal, so shader
//!   compilers keep them rolled;
//! - ballots: publish the predicate, gather the subgroup's bits;
//! - `subgroupBarrier()` becomes `workgroupBarrier()`.
//!
//! # Contract and limits
//!
//! Every helper contains workgroup barriers: an emulated primitive must be
//! reached by every invocation of the workgroup, in uniform control flow.
//! The workgroup size must be a multiple of `S` and at most
//! [`EMULATED_MAX_THREADS`] (the scratch is sized for it). The composer
//! checks what it can see of this contract.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use naga::{
    Block, CollectiveOperation, Direction, GatherMode, Scalar, ScalarKind, Statement,
    SubgroupOperation, TypeInner,
};

use crate::error::Error;
use crate::target::{EMULATED_MAX_THREADS, SubgroupMode, Target};

/// Rewrites the subgroup builtins of `source[from..]` into emulation
/// helpers and appends the helpers. `stubs` is extra WGSL (declarations of
/// user functions the library calls) that makes `source` parse on its own;
/// it is not part of the result. Returns `source` rewritten, helpers last.
pub(super) fn lower(source: &str, stubs: &str, target: &Target) -> Result<String, Error> {
    let size = target
        .subgroup_size
        .exact()
        .expect("emulated targets have a fixed subgroup size");
    let hardware = Target {
        subgroups: SubgroupMode::Hardware,
        ..target.clone()
    };
    let parsed = format!("{source}\n{stubs}");
    let valid = super::validate_wgsl(&parsed, "wavekit-expansion.wgsl", &hardware)?;
    let mut lowering = Lowering {
        source: &parsed,
        limit: source.len(),
        edits: Vec::new(),
        helpers: BTreeMap::new(),
        size,
        words: 0,
    };
    let module = &valid.module;
    for (handle, function) in module.functions.iter() {
        lowering.block(&function.body, module, &valid.info[handle])?;
    }
    for (index, entry) in module.entry_points.iter().enumerate() {
        lowering.block(
            &entry.function.body,
            module,
            valid.info.get_entry_point(index),
        )?;
    }
    let mut out = source.to_string();
    let mut edits = lowering.edits.clone();
    edits.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
    for (range, name) in edits {
        out.replace_range(range, &name);
    }
    if !lowering.helpers.is_empty() {
        out.push_str(&lowering.common());
        for helper in lowering.helpers.values() {
            out.push('\n');
            out.push_str(helper);
        }
    }
    Ok(out)
}

/// What the walk collects.
struct Lowering<'a> {
    source: &'a str,
    /// Edits stop here (the stubs follow).
    limit: usize,
    edits: Vec<(std::ops::Range<usize>, String)>,
    /// Helper text by helper name.
    helpers: BTreeMap<String, String>,
    size: u32,
    /// Most u32 words a published value takes.
    words: u32,
}

impl Lowering<'_> {
    fn block(
        &mut self,
        block: &Block,
        module: &naga::Module,
        info: &naga::valid::FunctionInfo,
    ) -> Result<(), Error> {
        for (statement, span) in block.span_iter() {
            let range = span.to_range().unwrap_or(0..0);
            match statement {
                Statement::Block(inner) => self.block(inner, module, info)?,
                Statement::If { accept, reject, .. } => {
                    self.block(accept, module, info)?;
                    self.block(reject, module, info)?;
                }
                Statement::Switch { cases, .. } => {
                    for case in cases {
                        self.block(&case.body, module, info)?;
                    }
                }
                Statement::Loop {
                    body, continuing, ..
                } => {
                    self.block(body, module, info)?;
                    self.block(continuing, module, info)?;
                }
                Statement::ControlBarrier(b) | Statement::MemoryBarrier(b)
                    if b.contains(naga::Barrier::SUB_GROUP) =>
                {
                    self.edit(range, "workgroupBarrier".into())?;
                }
                Statement::SubgroupBallot { predicate, .. } => {
                    if predicate.is_none() {
                        return Err(self.unsupported(range, "subgroupBallot() without a predicate"));
                    }
                    let name = self.ballot();
                    self.edit(range, name)?;
                }
                Statement::SubgroupGather { mode, argument, .. } => {
                    let ty = self.value_type(range.clone(), module, info, *argument)?;
                    let (stem, params, source_lane) = gather_source(mode);
                    let name = format!("wk_em_{stem}_{}", ty.suffix());
                    let gather = self.gather(&ty);
                    let text = format!(
                        "fn {name}(value: {t}{params}) -> {t} {{\n    return {gather}(value, {source_lane});\n}}\n",
                        t = ty.wgsl()
                    );
                    self.helpers.insert(name.clone(), text);
                    self.edit(range, name)?;
                }
                Statement::SubgroupCollectiveOperation {
                    op,
                    collective_op,
                    argument,
                    ..
                } => {
                    let ty = self.value_type(range.clone(), module, info, *argument)?;
                    let name = self.collective(&ty, *op, *collective_op);
                    self.edit(range, name)?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Replaces the builtin's name, the first identifier of `range`.
    fn edit(&mut self, range: std::ops::Range<usize>, name: String) -> Result<(), Error> {
        if range.end > self.limit {
            return Ok(());
        }
        let text = &self.source[range.clone()];
        let start = text
            .find(|c: char| c.is_ascii_alphabetic())
            .filter(|&at| text[at..].starts_with("subgroup") || text[at..].starts_with("quad"))
            .ok_or_else(|| {
                self.unsupported(range.clone(), "a subgroup operation not spelled as a call")
            })?;
        let len = text[start..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(text.len() - start);
        let at = range.start + start;
        self.edits.push((at..at + len, name));
        Ok(())
    }

    fn unsupported(&self, range: std::ops::Range<usize>, what: &str) -> Error {
        let line = self.source[..range.start.min(self.source.len())]
            .matches('\n')
            .count()
            + 1;
        Error::EmulationUnsupported {
            what: what.to_string(),
            context: format!(
                "line {line} of the expansion: `{}`",
                self.source
                    .get(range)
                    .unwrap_or("")
                    .lines()
                    .next()
                    .unwrap_or("")
            ),
        }
    }

    fn value_type(
        &self,
        range: std::ops::Range<usize>,
        module: &naga::Module,
        info: &naga::valid::FunctionInfo,
        argument: naga::Handle<naga::Expression>,
    ) -> Result<ValueType, Error> {
        let inner = info[argument].ty.inner_with(&module.types);
        let scalar = |s: &Scalar| {
            Word::of(*s).ok_or_else(|| {
                self.unsupported(range.clone(), &format!("values of type `{inner:?}`"))
            })
        };
        match inner {
            TypeInner::Scalar(s) => Ok(ValueType {
                scalar: scalar(s)?,
                lanes: 1,
            }),
            TypeInner::Vector { size, scalar: s } => Ok(ValueType {
                scalar: scalar(s)?,
                lanes: *size as u32,
            }),
            other => Err(self.unsupported(range, &format!("values of type `{other:?}`"))),
        }
    }

    /// The helpers that publish a value of `ty` to the scratch and read a
    /// lane's value back; their names (`wk_em_put_T`, `wk_em_get_T`).
    fn put_get(&mut self, ty: &ValueType) -> (String, String) {
        let put = format!("wk_em_put_{}", ty.suffix());
        let get = format!("wk_em_get_{}", ty.suffix());
        if self.helpers.contains_key(&put) {
            return (put, get);
        }
        let t = ty.wgsl();
        let threads = EMULATED_MAX_THREADS;
        let component = |c: u32| {
            if ty.lanes == 1 {
                "value".to_string()
            } else {
                format!("value[{c}]")
            }
        };
        let mut writes = String::new();
        let mut reads = String::new();
        let mut parts = Vec::new();
        let mut word = 0u32;
        for c in 0..ty.lanes {
            let mut names = Vec::new();
            for expr in ty.scalar.to_words(&component(c)) {
                let _ = writeln!(
                    writes,
                    "    wk_em_words[region + {}u + wk_em_thread()] = {expr};",
                    word * threads
                );
                let _ = writeln!(
                    reads,
                    "    let w{word} = wk_em_words[region + {}u + wk_em_subgroup * {s}u + (lane & {mask}u)];",
                    word * threads,
                    s = self.size,
                    mask = self.size - 1
                );
                names.push(format!("w{word}"));
                word += 1;
            }
            parts.push(ty.scalar.join_words(&names));
        }
        self.words = self.words.max(word);
        let result = if ty.lanes == 1 {
            parts.remove(0)
        } else {
            format!("{t}({})", parts.join(", "))
        };
        self.helpers.insert(
            put.clone(),
            format!(
                "/// Publishes this lane's `value` to the emulation scratch (one barrier);\n\
                 /// returns the region to read it back from with `{get}`.\n\
                 fn {put}(value: {t}) -> u32 {{\n    \
                 let region = wk_em_region();\n{writes}    workgroupBarrier();\n    return region;\n}}\n"
            ),
        );
        self.helpers.insert(
            get.clone(),
            format!(
                "/// The value lane `lane` (modulo S) of this emulated subgroup published in `region`.\n\
                 fn {get}(region: u32, lane: u32) -> {t} {{\n{reads}    return {result};\n}}\n"
            ),
        );
        (put, get)
    }

    /// The helper moving a value of `ty` from a source lane; its name.
    fn gather(&mut self, ty: &ValueType) -> String {
        let name = format!("wk_em_gather_{}", ty.suffix());
        let (put, get) = self.put_get(ty);
        let t = ty.wgsl();
        self.helpers.insert(
            name.clone(),
            format!(
                "/// `value` of lane `source_lane` (modulo S) of this emulated subgroup.\n\
                 fn {name}(value: {t}, source_lane: u32) -> {t} {{\n    \
                 return {get}({put}(value), source_lane);\n}}\n"
            ),
        );
        name
    }

    /// The helper for a reduction or scan; its name.
    fn collective(
        &mut self,
        ty: &ValueType,
        op: SubgroupOperation,
        collective: CollectiveOperation,
    ) -> String {
        let (op_name, combine): (&str, fn(&str, &str) -> String) = match op {
            SubgroupOperation::All => ("all", |a, b| format!("({a} && {b})")),
            SubgroupOperation::Any => ("any", |a, b| format!("({a} || {b})")),
            SubgroupOperation::Add => ("add", |a, b| format!("({a} + {b})")),
            SubgroupOperation::Mul => ("mul", |a, b| format!("({a} * {b})")),
            SubgroupOperation::Min => ("min", |a, b| format!("min({a}, {b})")),
            SubgroupOperation::Max => ("max", |a, b| format!("max({a}, {b})")),
            SubgroupOperation::And => ("and", |a, b| format!("({a} & {b})")),
            SubgroupOperation::Or => ("or", |a, b| format!("({a} | {b})")),
            SubgroupOperation::Xor => ("xor", |a, b| format!("({a} ^ {b})")),
        };
        let kind = match collective {
            CollectiveOperation::Reduce => "reduce",
            CollectiveOperation::InclusiveScan => "inclusive",
            CollectiveOperation::ExclusiveScan => "exclusive",
        };
        let name = format!("wk_em_{kind}_{op_name}_{}", ty.suffix());
        let (put, get) = self.put_get(ty);
        let t = ty.wgsl();
        let step = combine("v", &format!("{get}(region, k)"));
        let body = match collective {
            CollectiveOperation::Reduce => format!(
                "    var v = {get}(region, 0u);\n    \
                 for (var k = 1u; k < wk_sg_size; k = k + 1u) {{\n        v = {step};\n    }}\n"
            ),
            CollectiveOperation::InclusiveScan => format!(
                "    var v = {get}(region, 0u);\n    \
                 for (var k = 1u; k <= wk_sg_lane; k = k + 1u) {{\n        v = {step};\n    }}\n"
            ),
            CollectiveOperation::ExclusiveScan => {
                let identity = if op == SubgroupOperation::Mul {
                    format!("{t}(1)")
                } else {
                    format!("{t}()")
                };
                format!(
                    "    var v = {identity};\n    \
                     for (var k = 0u; k < wk_sg_lane; k = k + 1u) {{\n        v = {step};\n    }}\n"
                )
            }
        };
        let text = format!(
            "/// subgroup {kind} ({op_name}) over the emulated subgroup: one barrier, then a\n\
             /// fold in lane order (the same order in every lane).\n\
             fn {name}(value: {t}) -> {t} {{\n    let region = {put}(value);\n{body}    return v;\n}}\n"
        );
        self.helpers.insert(name.clone(), text);
        name
    }

    /// The ballot helper; its name.
    fn ballot(&mut self) -> String {
        let u32_ty = ValueType {
            scalar: Word::U32,
            lanes: 1,
        };
        let (put, get) = self.put_get(&u32_ty);
        let text = format!(
            "/// The ballot of the emulated subgroup: one barrier, then a read of every lane.\n\
             fn wk_em_ballot(predicate: bool) -> vec4<u32> {{\n    \
             let region = {put}(select(0u, 1u, predicate));\n    \
             var bits = vec4<u32>();\n    \
             for (var k = 0u; k < wk_sg_size; k = k + 1u) {{\n        \
             if {get}(region, k) != 0u {{\n            \
             bits[k >> 5u] = bits[k >> 5u] | (1u << (k & 31u));\n        }}\n    }}\n    \
             return bits;\n}}\n"
        );
        self.helpers.insert("wk_em_ballot".into(), text);
        "wk_em_ballot".into()
    }

    /// The scratch and its region toggle.
    fn common(&self) -> String {
        let s = self.size;
        let threads = EMULATED_MAX_THREADS;
        format!(
            "\n// Emulated subgroups of {s} lanes: two regions of {words} u32 words per\n\
             // invocation of a workgroup of at most {threads} invocations, used\n\
             // alternately, so each exchange needs one barrier: an invocation writes a\n\
             // region again only after the next exchange's barrier, which every reader\n\
             // of the previous one has passed.\n\
             var<workgroup> wk_em_words: array<u32, {total}>;\n\
             var<private> wk_em_parity: u32;\n\
             \n\
             /// This invocation's slot: subgroup * S + lane.\n\
             fn wk_em_thread() -> u32 {{\n    return wk_em_subgroup * {s}u + wk_sg_lane;\n}}\n\
             \n\
             /// The region of the next exchange (whole-workgroup uniform control flow only).\n\
             fn wk_em_region() -> u32 {{\n    \
             let parity = wk_em_parity;\n    \
             wk_em_parity = 1u - parity;\n    \
             return parity * {region}u;\n}}\n",
            words = self.words,
            total = 2 * self.words * threads,
            region = self.words * threads,
        )
    }
}

/// The helper stem, its extra parameters and its source lane expression.
fn gather_source(mode: &GatherMode) -> (&'static str, &'static str, &'static str) {
    match mode {
        GatherMode::BroadcastFirst => ("broadcast_first", "", "0u"),
        GatherMode::Broadcast(_) => ("broadcast", ", id: u32", "id"),
        GatherMode::Shuffle(_) => ("shuffle", ", id: u32", "id"),
        GatherMode::ShuffleDown(_) => ("shuffle_down", ", delta: u32", "wk_sg_lane + delta"),
        GatherMode::ShuffleUp(_) => ("shuffle_up", ", delta: u32", "wk_sg_lane - delta"),
        GatherMode::ShuffleXor(_) => ("shuffle_xor", ", mask: u32", "wk_sg_lane ^ mask"),
        GatherMode::QuadBroadcast(_) => (
            "quad_broadcast",
            ", id: u32",
            "(wk_sg_lane & 0xfffffffcu) | id",
        ),
        GatherMode::QuadSwap(Direction::X) => ("quad_swap_x", "", "wk_sg_lane ^ 1u"),
        GatherMode::QuadSwap(Direction::Y) => ("quad_swap_y", "", "wk_sg_lane ^ 2u"),
        GatherMode::QuadSwap(Direction::Diagonal) => ("quad_swap_diagonal", "", "wk_sg_lane ^ 3u"),
    }
}

/// A scalar or vector argument of a subgroup builtin.
struct ValueType {
    scalar: Word,
    lanes: u32,
}

impl ValueType {
    fn wgsl(&self) -> String {
        if self.lanes == 1 {
            self.scalar.wgsl().into()
        } else {
            format!("vec{}<{}>", self.lanes, self.scalar.wgsl())
        }
    }

    fn suffix(&self) -> String {
        if self.lanes == 1 {
            self.scalar.wgsl().into()
        } else {
            format!("vec{}{}", self.lanes, self.scalar.wgsl())
        }
    }
}

/// The scalar types the emulation moves, and how they become `u32` words.
#[derive(Clone, Copy)]
enum Word {
    Bool,
    U32,
    I32,
    F32,
    F16,
    U64,
    I64,
    F64,
}

impl Word {
    fn of(scalar: Scalar) -> Option<Word> {
        Some(match (scalar.kind, scalar.width) {
            (ScalarKind::Bool, _) => Word::Bool,
            (ScalarKind::Uint, 4) => Word::U32,
            (ScalarKind::Sint, 4) => Word::I32,
            (ScalarKind::Float, 4) => Word::F32,
            (ScalarKind::Float, 2) => Word::F16,
            (ScalarKind::Uint, 8) => Word::U64,
            (ScalarKind::Sint, 8) => Word::I64,
            (ScalarKind::Float, 8) => Word::F64,
            _ => return None,
        })
    }

    fn wgsl(self) -> &'static str {
        match self {
            Word::Bool => "bool",
            Word::U32 => "u32",
            Word::I32 => "i32",
            Word::F32 => "f32",
            Word::F16 => "f16",
            Word::U64 => "u64",
            Word::I64 => "i64",
            Word::F64 => "f64",
        }
    }

    /// The words of `value` (an expression), low word first.
    fn to_words(self, value: &str) -> Vec<String> {
        let bits64 = |v: String| {
            vec![
                format!("u32({v} & 0xfffffffflu)"),
                format!("u32({v} >> 32u)"),
            ]
        };
        match self {
            Word::Bool => vec![format!("select(0u, 1u, {value})")],
            Word::U32 => vec![value.to_string()],
            Word::I32 | Word::F32 => vec![format!("bitcast<u32>({value})")],
            // naga cannot bitcast a 16-bit scalar; f32 holds every f16 exactly.
            Word::F16 => vec![format!("bitcast<u32>(f32({value}))")],
            Word::U64 => bits64(value.to_string()),
            Word::I64 | Word::F64 => bits64(format!("bitcast<u64>({value})")),
        }
    }

    /// The value of `words` (names), as [`Word::to_words`] split it.
    fn join_words(self, words: &[String]) -> String {
        let joined = || format!("(u64({}) | (u64({}) << 32u))", words[0], words[1]);
        match self {
            Word::Bool => format!("({} != 0u)", words[0]),
            Word::U32 => words[0].clone(),
            Word::I32 | Word::F32 => format!("bitcast<{}>({})", self.wgsl(), words[0]),
            Word::F16 => format!("f16(bitcast<f32>({}))", words[0]),
            Word::U64 => joined(),
            Word::I64 | Word::F64 => format!("bitcast<{}>{}", self.wgsl(), joined()),
        }
    }
}
