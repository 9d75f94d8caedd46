//! Batches of cases as one conformance kernel: WGSL assembly, dispatch and
//! comparison with the reference models.

use std::collections::BTreeSet;
use std::fmt::Write;

use crate::error::Error;
use crate::expand::{InstanceSpec, Library};
use crate::runner::{Binding, Gpu};

use super::case::{Call, CallArg, Case, Lanes};
use super::layout::{self, Dispatch, META_WORDS};
use super::value::{Value, ValueType};

/// Mismatches reported per case, at most.
const MAX_REPORTED: usize = 3;

/// What running one case showed.
#[derive(Clone, Debug, Default)]
pub struct CaseOutcome {
    /// Lanes whose result the contract defines and that were compared.
    pub compared: u32,
    /// Lanes that differed from the model.
    pub mismatches: u32,
    /// Descriptions of the first mismatches.
    pub details: Vec<String>,
}

/// The result of a batch: per-case outcomes, or a failure that stopped it.
pub enum BatchResult {
    /// The kernel ran; one outcome per case, in order.
    Ran(Vec<CaseOutcome>),
    /// The adapter grouped invocations into subgroups inconsistently.
    BadLayout(String),
}

/// A batch's kernel, built.
pub struct BuiltBatch {
    /// The validated module.
    pub module: crate::ValidModule,
    /// The input buffer's words.
    pub input: Vec<u32>,
    /// Words of the output buffer.
    pub out_words: u32,
}

/// Expands and validates `cases` as one kernel.
pub fn build_batch(
    library: &Library,
    cases: &[Case],
    dispatch: Dispatch,
) -> Result<BuiltBatch, Error> {
    let n = dispatch.invocations();
    let specs: Vec<InstanceSpec> = dedup(cases.iter().map(|c| c.spec.clone()));
    let expansion = library.expand(&specs)?;
    let mut input = Vec::new();
    let mut out_words = META_WORDS * n;
    let mut body = String::new();
    let mut types = BTreeSet::new();
    for (index, case) in cases.iter().enumerate() {
        let operands: Vec<String> = case
            .operands
            .iter()
            .map(|op| {
                let at = input.len();
                op.values.iter().for_each(|v| v.encode(&mut input));
                types.insert(op.ty);
                types.extend(op.ty.parts());
                format!(
                    "wk_conf_load_{}({at}u + g * {}u)",
                    op.ty.helper_suffix(),
                    op.ty.words()
                )
            })
            .collect();
        let function = crate::expand::mangle_spec(&case.spec);
        let statements = match &case.call {
            Call::Function(args) => {
                let args: Vec<&str> = args
                    .iter()
                    .map(|a| match a {
                        CallArg::Operand(i) => operands[*i].as_str(),
                        CallArg::Literal(text) => text.as_str(),
                    })
                    .collect();
                format!("let r = {function}({});", args.join(", "))
            }
            Call::Custom(text) => {
                let mut text = text.replace("$f", &function);
                for (i, op) in operands.iter().enumerate().rev() {
                    text = text.replace(&format!("${i}"), op);
                }
                text
            }
        };
        types.insert(case.ret);
        types.extend(case.ret.parts());
        let (words, results) = (case.ret.words(), case.results);
        let store = if results == 1 {
            format!(
                "wk_conf_store_{}({out_words}u + g * {words}u, r);",
                case.ret.helper_suffix()
            )
        } else {
            (0..results)
                .map(|k| {
                    format!(
                        "wk_conf_store_{}({out_words}u + (g * {results}u + {k}u) * {words}u, r[{k}]);",
                        case.ret.helper_suffix()
                    )
                })
                .collect::<Vec<_>>()
                .join("\n        ")
        };
        let _ = write!(
            body,
            "    {{ // case {index}: {} [{}] {}\n        {}\n        {store}\n    }}\n",
            case.spec,
            case.lowering,
            case.label,
            statements.replace('\n', "\n        "),
        );
        out_words += words * results * n;
    }
    // A batch of cases without operands (`invocation_id`, `elect`, ...)
    // still binds `wk_conf_in`, which needs one element.
    if input.is_empty() {
        input.push(0);
    }
    let block = expansion
        .instances()
        .iter()
        .any(|i| i.primitive.namespace == crate::catalog::Namespace::Block);
    let support: BTreeSet<&str> = cases.iter().filter_map(|c| c.support.as_deref()).collect();
    let user_code = format!(
        "{}\n{}",
        support.into_iter().collect::<String>(),
        kernel_source(&types, &body, dispatch, block, library.target())
    );
    let source = expansion.wgsl_with(&user_code);
    let module =
        crate::expand::validate_wgsl(&source, "wavekit-conformance.wgsl", library.target())?;
    Ok(BuiltBatch {
        module,
        input,
        out_words,
    })
}

/// Expands, builds, dispatches and checks `cases` as one kernel.
pub fn run_batch(
    gpu: &Gpu,
    library: &Library,
    cases: &[Case],
    dispatch: Dispatch,
) -> Result<BatchResult, Error> {
    let n = dispatch.invocations();
    let BuiltBatch {
        module,
        input,
        out_words,
    } = build_batch(library, cases, dispatch)?;
    let kernel = gpu.kernel(&module, "wk_conf_main")?;
    let outputs = gpu.run(
        &kernel,
        &[
            Binding::Input(bytemuck::cast_slice(&input)),
            Binding::Output {
                size: u64::from(out_words) * 4,
            },
        ],
        [dispatch.workgroups, 1, 1],
    )?;
    let out = crate::runner::words(&outputs[0]);
    let subgroups = match layout::subgroups(&out[..(META_WORDS * n) as usize], dispatch) {
        Ok(s) => s,
        Err(e) => return Ok(BatchResult::BadLayout(e)),
    };
    // Block cases see whole workgroups in local index order.
    let workgroups: Vec<layout::Subgroup> = (0..dispatch.workgroups)
        .map(|w| layout::Subgroup {
            size: dispatch.workgroup_size,
            invocations: (0..dispatch.workgroup_size)
                .map(|t| w * dispatch.workgroup_size + t)
                .collect(),
        })
        .collect();
    let subgroup_size = subgroups.first().map_or(0, |s| s.size);
    let mut at = (META_WORDS * n) as usize;
    let outcomes = cases
        .iter()
        .map(|case| {
            let region = &out[at..at + (case.ret.words() * case.results * n) as usize];
            at += region.len();
            let groups = if case.block_dim.is_some() {
                &workgroups
            } else {
                &subgroups
            };
            check_case(case, region, groups, subgroup_size)
        })
        .collect();
    Ok(BatchResult::Ran(outcomes))
}

/// Compares `case`'s results in `region` with its model, group by group;
/// `subgroup_size` is the size the dispatch's subgroups read.
fn check_case(
    case: &Case,
    region: &[u32],
    subgroups: &[layout::Subgroup],
    subgroup_size: u32,
) -> CaseOutcome {
    let words = case.ret.words() as usize;
    let mut outcome = CaseOutcome::default();
    for sg in subgroups {
        let lanes = Lanes {
            size: sg.size,
            subgroup_size: if case.block_dim.is_some() {
                subgroup_size
            } else {
                sg.size
            },
            operands: case
                .operands
                .iter()
                .map(|op| {
                    sg.invocations
                        .iter()
                        .map(|&g| &op.values[g as usize])
                        .collect()
                })
                .collect(),
        };
        let expected = (case.model)(&lanes);
        let results = case.results as usize;
        for (slot, want) in expected.iter().enumerate() {
            let Some(want) = want else { continue };
            let (lane, item) = (slot / results, slot % results);
            let g = sg.invocations[lane];
            let at = (g as usize * results + item) * words;
            let got = Value::decode(case.ret, &region[at..][..words]);
            outcome.compared += 1;
            if !want.accepts(got) {
                outcome.mismatches += 1;
                if outcome.details.len() < MAX_REPORTED {
                    let inputs: Vec<String> = lanes
                        .operands
                        .iter()
                        .map(|values| values[lane].to_string())
                        .collect();
                    let item = if results > 1 {
                        format!(" result {item}")
                    } else {
                        String::new()
                    };
                    outcome.details.push(format!(
                        "{}: invocation {g} (lane {lane} of {}){item}, inputs ({}): \
                         expected {want}, got {got}",
                        case.label,
                        sg.size,
                        inputs.join(", ")
                    ));
                }
            }
        }
    }
    outcome
}

fn kernel_source(
    types: &BTreeSet<ValueType>,
    body: &str,
    dispatch: Dispatch,
    block: bool,
    target: &crate::Target,
) -> String {
    let mut source = String::from(
        "@group(0) @binding(0) var<storage, read> wk_conf_in: array<u32>;\n\
         @group(0) @binding(1) var<storage, read_write> wk_conf_out: array<u32>;\n",
    );
    let w = dispatch.workgroup_size;
    let _ = writeln!(source, "var<workgroup> wk_conf_scratch: array<u32, {w}>;\n");
    for ty in types {
        source.push_str(&ty.load_helper());
        source.push_str(&ty.store_helper());
    }
    // With emulated subgroups no subgroup builtin may appear: lane and
    // subgroup come from local_invocation_index.
    let (lane_builtins, lane_init) = if target.is_emulated() {
        let size = target.subgroup_size.min();
        (
            String::new(),
            format!(
                "let lane = thread % {size}u;\n    let lane_count = {size}u;\n    \
                 let subgroup = thread / {size}u;\n    wk_sg_init(thread);\n"
            ),
        )
    } else {
        (
            "@builtin(subgroup_invocation_id) lane: u32,\n    \
             @builtin(subgroup_size) lane_count: u32,\n    \
             @builtin(subgroup_id) subgroup: u32,\n    "
                .to_string(),
            "wk_sg_init(lane, lane_count);\n".to_string(),
        )
    };
    let _ = write!(
        source,
        "\n@compute @workgroup_size({w})\n\
         fn wk_conf_main(\n    @builtin(global_invocation_id) gid: vec3<u32>,\n    \
         {lane_builtins}\
         @builtin(local_invocation_index) thread: u32,\n    \
         @builtin(workgroup_id) workgroup: vec3<u32>,\n    \
         @builtin(num_workgroups) workgroups: vec3<u32>,\n) {{\n    \
         {lane_init}{init}    let g = gid.x;\n    let threads = {w}u;\n    \
         wk_conf_out[{m}u * g] = lane;\n    wk_conf_out[{m}u * g + 1u] = lane_count;\n    \
         wk_conf_out[{m}u * g + 2u] = subgroup;\n{body}}}\n",
        m = META_WORDS,
        init = if block {
            // Emulated: wk_blk_init derives the subgroup from the thread.
            let subgroup = if target.is_emulated() {
                "thread"
            } else {
                "subgroup"
            };
            format!("    wk_blk_init(thread, {subgroup}, workgroup, workgroups, {w}u);\n")
        } else {
            String::new()
        },
    );
    source
}

fn dedup(specs: impl Iterator<Item = InstanceSpec>) -> Vec<InstanceSpec> {
    let mut seen = BTreeSet::new();
    specs.filter(|s| seen.insert(s.to_string())).collect()
}
