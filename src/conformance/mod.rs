//! The conformance suite: every instance of the catalog on a real adapter,
//! with seeded random inputs, checked lane by lane against reference models.
//!
//! Cases are batched into one kernel per (family, lowering), so a suite is a
//! dozen pipelines whatever the number of cases. Before any op runs, the
//! adapter check (`adapter_check.rs`) makes sure the adapter's subgroups are
//! as wide as it reports; if not, the suite reports a failed adapter and runs
//! no op (their failures would say nothing about the ops).

mod adapter_check;
mod arith;
mod case;
mod cases;
mod expected;
mod kernel;
mod layout;
mod report;
mod tile_sweep;
mod value;

pub use adapter_check::AdapterCheck;
pub use report::{InstanceResult, Report};

use std::collections::BTreeMap;

use crate::catalog::{self, Family};
use crate::error::Error;
use crate::expand::Library;
use crate::runner::Gpu;
use crate::target::{Backend, Lowering, Strategy};

use kernel::BatchResult;
use layout::Dispatch;

/// Cases per kernel, at most, for the native back ends (CUDA, HIP): LLVM
/// lowers a batch's kernels in one module and ptxas assembles each, so a
/// kernel's fixed cost dominates (`native_ptx` took 79 s at 48 cases a
/// kernel and 109 s at 8).
const MAX_CASES_PER_NATIVE_KERNEL: usize = 48;

/// Cases per kernel, at most, through wgpu: the driver compiles each
/// kernel on its own, and shader compilers (LLVM in lavapipe) take
/// superlinear time in the size of a function. The whole suite on lavapipe
/// at 8 lanes took 199 s at 48 cases a kernel, 139 s at 8 and 135 s at 4;
/// its block families alone 33 s at 48, 27 s at 8, 22 s at 4 and 25 s at 1
/// (2 cores, 2026-11-28).
const MAX_CASES_PER_KERNEL: usize = 4;

/// Cases per kernel with emulated subgroups through wgpu: every operation
/// is a `workgroupBarrier()`, which lavapipe compiles to a coroutine
/// suspend point, and LLVM's coroutine splitting grows faster than linearly
/// with their number in one function: one case a kernel. `make test`'s run
/// at 32 lanes on `u64` took 121 s at 12 cases a kernel, 85 s at 6, 71 s
/// at 3, 60 s at 2 and 49 s at 1 (2 cores, 2026-11-28).
const MAX_CASES_PER_EMULATED_KERNEL: usize = 1;

/// Cases per kernel with emulated subgroups on the native back ends, as
/// they were measured on the GPU (`wavekit check --backend cuda
/// --subgroups emulated`).
const MAX_CASES_PER_NATIVE_EMULATED_KERNEL: usize = 6;

/// Cases per kernel of the block radix sorts and histograms and of the
/// merge sorts: each call is a whole sort (rankings, scans and exchanges,
/// or merge rounds, in a loop of passes), whose inlined copies make one
/// kernel of many calls slow to compile.
const MAX_CASES_PER_SORT_KERNEL: usize = 4;

/// Cases a kernel of `family` holds at most on `target`.
fn cases_per_kernel(family: Family, target: &crate::Target) -> usize {
    let sort = matches!(
        family,
        Family::BlockRadixSort
            | Family::BlockHistogram
            | Family::MergeSort
            | Family::BlockMergeSort
    );
    let native = matches!(target.backend, Backend::Cuda | Backend::Hip);
    match (sort, native, target.is_emulated()) {
        (true, _, _) => MAX_CASES_PER_SORT_KERNEL,
        (false, true, false) => MAX_CASES_PER_NATIVE_KERNEL,
        (false, true, true) => MAX_CASES_PER_NATIVE_EMULATED_KERNEL,
        (false, false, true) => MAX_CASES_PER_EMULATED_KERNEL,
        (false, false, false) => MAX_CASES_PER_KERNEL,
    }
}

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Seed of every random input (each instance mixes in its own name).
    pub seed: u64,
    /// Lowerings to test; ops without a lowering run under their only one.
    pub lowerings: Vec<Lowering>,
    /// Run only ops whose name contains one of these (all when empty).
    pub ops: Vec<String>,
    /// Run only instances of these dtypes, and ops without one (all when empty).
    pub dtypes: Vec<crate::Dtype>,
    /// Leave out the ops of these families.
    pub skip_families: Vec<Family>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            seed: 0x5eed_2026,
            lowerings: Lowering::ALL.to_vec(),
            ops: Vec::new(),
            dtypes: Vec::new(),
            skip_families: Vec::new(),
        }
    }
}

/// One planned kernel of the suite.
struct PlannedBatch {
    lowering: Lowering,
    family: Family,
    dispatch: Dispatch,
    /// Report slot of each case.
    slots: Vec<usize>,
    cases: Vec<case::Case>,
}

/// The suite's kernels for `target`, as batches of cases. `add_instance`
/// gives each selected instance its report slot.
fn plan(
    target: &crate::Target,
    options: &Options,
    add_instance: &mut dyn FnMut(&crate::Instance) -> usize,
) -> Result<Vec<PlannedBatch>, Error> {
    let dispatch = Dispatch::for_sizes(target.subgroup_size);
    let mut planned = Vec::new();
    for &lowering in &options.lowerings {
        let library = Library::new(target.clone().with_strategy(Strategy::uniform(lowering)));
        // Keyed by family and workgroup size: block ops run in workgroups of
        // their own `B` threads.
        let mut batches: BTreeMap<(Family, u32), Vec<(usize, case::Case)>> = BTreeMap::new();
        for primitive in catalog::primitives() {
            let selected = (options.ops.is_empty()
                || options
                    .ops
                    .iter()
                    .any(|o| primitive.qualified_name().contains(o.as_str())))
                && !options.skip_families.contains(&primitive.family);
            // Each op runs under every requested lowering it offers, or once
            // (in the first pass) under its own when it offers none of them.
            let requested = primitive
                .lowerings
                .iter()
                .any(|l| options.lowerings.contains(l));
            let offers = if requested {
                primitive.lowerings.contains(&lowering)
            } else {
                lowering == options.lowerings[0]
            };
            if !selected || !offers {
                continue;
            }
            for instance in candidates(primitive, &library, target, options)? {
                let spec = instance.spec();
                let slot = add_instance(&instance);
                let mut inputs = cases::Inputs::new(
                    options.seed ^ fnv1a(&format!("{spec} {lowering}")),
                    dispatch_of(&instance, dispatch).invocations(),
                    target.subgroup_size.min(),
                );
                let key = (
                    primitive.family,
                    dispatch_of(&instance, dispatch).workgroup_size,
                );
                let batch = batches.entry(key).or_default();
                batch.extend(
                    cases::cases(&instance, &mut inputs)
                        .into_iter()
                        .map(|c| (slot, c)),
                );
            }
        }
        for ((family, workgroup_size), batch) in batches {
            let most = cases_per_kernel(family, target);
            let mut batch = batch.into_iter().peekable();
            while batch.peek().is_some() {
                let (slots, cases) = batch.by_ref().take(most).unzip();
                planned.push(PlannedBatch {
                    lowering,
                    family,
                    dispatch: Dispatch {
                        workgroup_size,
                        ..dispatch
                    },
                    slots,
                    cases,
                });
            }
        }
    }
    Ok(planned)
}

/// Runs the suite on `gpu`.
pub fn run(gpu: &Gpu, options: &Options) -> Result<Report, Error> {
    let target = gpu.target().clone();
    let dispatch = Dispatch::for_sizes(target.subgroup_size);
    let mut report = Report::new(gpu, options.seed);
    report.adapter_check = Some(adapter_check::check_adapter(gpu, dispatch)?);
    if !report.adapter_passed() {
        return Ok(report);
    }
    let batches = plan(&target, options, &mut |instance| {
        report.add_instance(instance)
    })?;
    for batch in batches {
        let PlannedBatch {
            lowering,
            family,
            dispatch,
            slots,
            cases,
        } = batch;
        let library = Library::new(target.clone().with_strategy(Strategy::uniform(lowering)));
        log::info!("{} [{lowering}]: {} cases", family.name(), cases.len());
        match kernel::run_batch(gpu, &library, &cases, dispatch) {
            Ok(BatchResult::Ran(outcomes)) => {
                for (slot, outcome) in slots.into_iter().zip(outcomes) {
                    report.record(slot, &outcome);
                }
            }
            Ok(BatchResult::BadLayout(problem)) => {
                report.adapter_problem(format!("{} kernel [{lowering}]: {problem}", family.name()));
                return Ok(report);
            }
            Err(error) => {
                let message = format!("{} kernel [{lowering}]: {error}", family.name());
                for slot in slots {
                    report.record_error(slot, &message);
                }
            }
        }
    }
    Ok(report)
}

/// A kernel of the suite, built but not run: for static checks of back
/// ends (the native back end compiles every one of them without a GPU).
pub struct SuiteKernel {
    /// `family [lowering] #n`.
    pub label: String,
    /// The instances its cases call.
    pub instances: Vec<String>,
    /// The validated module (entry point `wk_conf_main`).
    pub module: crate::ValidModule,
}

/// Every kernel the suite would run on a device offering `target`.
pub fn kernels(target: &crate::Target, options: &Options) -> Result<Vec<SuiteKernel>, Error> {
    let mut names = Vec::new();
    let batches = plan(target, options, &mut |instance| {
        names.push(instance.spec().to_string());
        names.len() - 1
    })?;
    let mut out = Vec::new();
    for (index, batch) in batches.into_iter().enumerate() {
        let library = Library::new(
            target
                .clone()
                .with_strategy(Strategy::uniform(batch.lowering)),
        );
        let built = kernel::build_batch(&library, &batch.cases, batch.dispatch)?;
        let mut instances: Vec<String> = batch.slots.iter().map(|s| names[*s].clone()).collect();
        instances.dedup();
        out.push(SuiteKernel {
            label: format!("{} [{}] #{index}", batch.family.name(), batch.lowering),
            instances,
            module: built.module,
        });
    }
    Ok(out)
}

/// A kernel calling one instance (its first conformance case); what it
/// compiles to minus what its baseline (the same kernel with no case)
/// compiles to is what the instance costs.
pub struct InstanceKernel {
    /// The instance, as the catalog spells it.
    pub instance: String,
    /// Its lowering.
    pub lowering: Lowering,
    /// The kernel with the case (entry point `wk_conf_main`).
    pub module: crate::ValidModule,
    /// Index in [`Representatives::baselines`] of the same kernel without it.
    pub baseline: usize,
}

/// [`representative_kernels`]' result: the instance kernels and the empty
/// kernels they are measured against (one per lowering and workgroup size).
pub struct Representatives {
    /// One kernel per representative instance and lowering.
    pub kernels: Vec<InstanceKernel>,
    /// The empty kernels.
    pub baselines: Vec<crate::ValidModule>,
}

/// Representative instances of every catalog op under every lowering it
/// offers: the widest tile with dtype f32 and, for ops that also take
/// integers, with u32 (else i32); block ops at B = 128 with the suite's
/// `add`.
pub fn representative_kernels(target: &crate::Target) -> Result<Representatives, Error> {
    let options = Options::default();
    let dispatch = Dispatch::for_sizes(target.subgroup_size);
    let mut baseline_index: BTreeMap<(String, u32), usize> = BTreeMap::new();
    let mut out = Representatives {
        kernels: Vec::new(),
        baselines: Vec::new(),
    };
    for primitive in catalog::primitives() {
        let lowerings = if primitive.lowerings.is_empty() {
            vec![options.lowerings[0]]
        } else {
            primitive.lowerings.to_vec()
        };
        for lowering in lowerings {
            let library = Library::new(target.clone().with_strategy(Strategy::uniform(lowering)));
            // Best instance per dtype class (float, integer, none).
            let mut best: BTreeMap<u8, (i64, crate::Instance)> = BTreeMap::new();
            for instance in candidates(primitive, &library, target, &options)? {
                let score = representative_score(&instance);
                let class = match instance.dtype {
                    Some(d) if d.is_float() => 0,
                    Some(_) => 1,
                    None => 2,
                };
                if best.get(&class).is_none_or(|(b, _)| score > *b) {
                    best.insert(class, (score, instance));
                }
            }
            for (_, instance) in best.into_values() {
                let dispatch = dispatch_of(&instance, dispatch);
                let mut inputs = cases::Inputs::new(
                    options.seed,
                    dispatch.invocations(),
                    target.subgroup_size.min(),
                );
                let Some(case) = cases::cases(&instance, &mut inputs).into_iter().next() else {
                    continue;
                };
                let module =
                    kernel::build_batch(&library, std::slice::from_ref(&case), dispatch)?.module;
                let key = (lowering.to_string(), dispatch.workgroup_size);
                let baseline = match baseline_index.get(&key) {
                    Some(index) => *index,
                    None => {
                        out.baselines
                            .push(kernel::build_batch(&library, &[], dispatch)?.module);
                        baseline_index.insert(key, out.baselines.len() - 1);
                        out.baselines.len() - 1
                    }
                };
                out.kernels.push(InstanceKernel {
                    instance: instance.spec().to_string(),
                    lowering,
                    module,
                    baseline,
                });
            }
        }
    }
    Ok(out)
}

fn representative_score(instance: &crate::Instance) -> i64 {
    use crate::Dtype;
    let dtype = match instance.dtype {
        Some(Dtype::F32 | Dtype::U32) | None => 40,
        Some(Dtype::I32) => 30,
        Some(_) => 0,
    };
    let value = match instance.value_dtype {
        Some(Dtype::U32) | None => 5,
        Some(_) => 0,
    };
    let log2 = instance.log2_size.map_or(0, i64::from);
    let block = instance
        .block_dim
        .map_or(0, |b| -(i64::from(b) - 128).abs() / 32);
    let function = match instance.function.as_deref() {
        Some(f) if f.contains("_add_") => 1,
        _ => 0,
    };
    dtype * 1000 + value * 100 + log2 * 10 + block + function
}

/// The instances of `primitive` the suite runs under `library`'s lowering.
fn candidates(
    primitive: &crate::catalog::Primitive,
    library: &Library,
    target: &crate::Target,
    options: &Options,
) -> Result<Vec<crate::Instance>, Error> {
    let mut out = Vec::new();
    let specs = library
        .specs_of(primitive)
        .into_iter()
        .chain(generic_specs(primitive, library));
    for spec in specs {
        let instance = library.resolve(&spec)?;
        if instance_selected(&instance, options)
            && !tile_sweep::skips(&instance, target)
            && !lowering_is_moot(&instance, target, options)?
        {
            out.push(instance);
        }
    }
    Ok(out)
}

/// Requests of an op naming a user function or array, which have no
/// stand-alone requests: each dtype, sample block size and sample constant,
/// with the suite's own functions (`max` and `add` for generic reductions
/// and scans, see [`user_functions`]; others from `cases::function_names`)
/// and arrays (`cases::array_name`, `cases::vector_array_name`), which the
/// kernels define.
fn generic_specs(
    primitive: &crate::catalog::Primitive,
    library: &Library,
) -> Vec<crate::InstanceSpec> {
    use crate::TemplateArg;
    use crate::catalog::Param;
    if !primitive
        .params
        .iter()
        .any(|p| matches!(p, Param::Function | Param::Array | Param::VectorArray))
    {
        return Vec::new();
    }
    let target = library.target();
    let mut specs: Vec<Vec<TemplateArg>> = vec![Vec::new()];
    for param in primitive.params {
        specs = specs
            .into_iter()
            .flat_map(|args| {
                // Block ops take T first and B second.
                let dtype = match args.first() {
                    Some(TemplateArg::Dtype(d)) => Some(*d),
                    _ => None,
                };
                let block_dim = match args.get(1) {
                    Some(TemplateArg::Int(b)) => Some(*b as u32),
                    _ => None,
                };
                let choices: Vec<TemplateArg> = match param {
                    Param::Dtype | Param::ValueDtype => primitive
                        .dtypes
                        .iter()
                        .filter(|d| target.scalars.supports(**d))
                        .map(|d| TemplateArg::Dtype(*d))
                        .collect(),
                    Param::Log2Size => (0..=target.subgroup_size.max_log2())
                        .map(TemplateArg::from)
                        .collect(),
                    Param::BlockDim => {
                        crate::catalog::sample_block_dims(target.subgroup_size.max())
                            .into_iter()
                            .map(TemplateArg::from)
                            .collect()
                    }
                    Param::Const { samples, .. } => {
                        samples.iter().copied().map(TemplateArg::from).collect()
                    }
                    Param::Function => {
                        let dtype = dtype.expect("generic ops take T first");
                        cases::function_names(primitive, dtype)
                            .into_iter()
                            .map(TemplateArg::Name)
                            .collect()
                    }
                    // Histograms count into a workgroup array of `bins`
                    // counters, the constant before `A`.
                    Param::Array if primitive.family == Family::BlockHistogram => {
                        let Some(TemplateArg::Int(bins)) = args.last() else {
                            panic!("histograms take bins before A")
                        };
                        vec![TemplateArg::Name(cases::histogram_array_name(*bins as u32))]
                    }
                    // Subgroup loads and stores: one array per dtype.
                    Param::Array if primitive.family == Family::Load => {
                        vec![TemplateArg::Name(cases::subgroup_array_name(
                            dtype.expect("subgroup loads take T first"),
                        ))]
                    }
                    Param::Array => vec![TemplateArg::Name(cases::array_name(
                        dtype.expect("block loads take T first"),
                        block_dim.expect("block loads take B second"),
                    ))],
                    Param::VectorArray => vec![TemplateArg::Name(cases::vector_array_name(
                        dtype.expect("vectorized loads take T first"),
                        block_dim.expect("vectorized loads take B second"),
                    ))],
                    other => panic!("generic ops take no {other:?}"),
                };
                choices.into_iter().map(move |arg| {
                    let mut args = args.clone();
                    args.push(arg);
                    args
                })
            })
            .collect();
    }
    specs
        .into_iter()
        .map(|args| crate::InstanceSpec::new(primitive.qualified_name(), args))
        .collect()
}

/// WGSL of the user functions generic instances name, for their kernels.
pub(crate) fn user_functions(function: &str) -> Option<(crate::catalog::Operator, String)> {
    use crate::catalog::Operator;
    let rest = function.strip_prefix("wk_conf_")?;
    let (operator, dtype) = rest.split_once('_')?;
    let operator = match operator {
        "max" => Operator::Max,
        "add" => Operator::Add,
        _ => return None,
    };
    let code = format!(
        "fn {function}(a: {dtype}, b: {dtype}) -> {dtype} {{\n    return {};\n}}\n",
        operator.combine("a", "b")
    );
    Some((operator, code))
}

/// The dispatch an instance's cases run in: workgroups of `B` threads for
/// block ops, the suite's default otherwise.
fn dispatch_of(instance: &crate::Instance, default: Dispatch) -> Dispatch {
    match instance.block_dim {
        Some(block_dim) => Dispatch {
            workgroup_size: block_dim,
            workgroups: 2,
        },
        None => default,
    }
}

/// Whether the options select `instance`. Key and value dtypes are handled
/// independently by the templates, so key/value ops run every key dtype
/// with `u32` values and every value dtype with `i32` keys, not all pairs.
fn instance_selected(instance: &crate::Instance, options: &Options) -> bool {
    let dtype_ok = instance
        .dtype
        .is_none_or(|d| options.dtypes.is_empty() || options.dtypes.contains(&d));
    let pair_ok = instance
        .value_dtype
        .is_none_or(|v| v == crate::Dtype::U32 || instance.dtype == Some(crate::Dtype::I32));
    dtype_ok && pair_ok
}

/// Whether testing `instance` under its builtin lowering would repeat the
/// shuffle lowering's test: tiles smaller than the subgroup have no WGSL
/// builtin, so both lowerings expand to the same code.
fn lowering_is_moot(
    instance: &crate::Instance,
    target: &crate::Target,
    options: &Options,
) -> Result<bool, Error> {
    if instance.lowering != Lowering::Builtin
        || !instance.primitive.lowerings.contains(&Lowering::Shuffle)
        || !options.lowerings.contains(&Lowering::Shuffle)
    {
        return Ok(false);
    }
    let expand = |lowering| {
        Library::new(target.clone().with_strategy(Strategy::uniform(lowering)))
            .expand(&[instance.spec()])
            .map(|e| e.wgsl())
    };
    Ok(expand(Lowering::Builtin)? == expand(Lowering::Shuffle)?)
}

/// FNV-1a, to derive a stable per-instance seed.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
