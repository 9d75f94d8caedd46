//! Rendering instances from the minijinja templates under `templates/`.

use std::cell::RefCell;
use std::sync::{Arc, Mutex, OnceLock};

use minijinja::value::Rest;
use minijinja::{Environment, Value};

use crate::catalog::Family;
use crate::dtype::Dtype;
use crate::error::Error;
use crate::target::Target;

use super::instance::{Instance, mangle_spec};
use super::spec::{InstanceSpec, TemplateArg};

/// The template files, embedded so the binary needs no data directory.
const TEMPLATES: &[(&str, &str)] = &[
    (
        "subgroup/prelude.wgsl.j2",
        include_str!("../../templates/subgroup/prelude.wgsl.j2"),
    ),
    (
        "subgroup/movement.wgsl.j2",
        include_str!("../../templates/subgroup/movement.wgsl.j2"),
    ),
    (
        "subgroup/identification.wgsl.j2",
        include_str!("../../templates/subgroup/identification.wgsl.j2"),
    ),
    (
        "subgroup/ballot.wgsl.j2",
        include_str!("../../templates/subgroup/ballot.wgsl.j2"),
    ),
    (
        "subgroup/vote.wgsl.j2",
        include_str!("../../templates/subgroup/vote.wgsl.j2"),
    ),
    (
        "subgroup/lanemask.wgsl.j2",
        include_str!("../../templates/subgroup/lanemask.wgsl.j2"),
    ),
    (
        "subgroup/reduction.wgsl.j2",
        include_str!("../../templates/subgroup/reduction.wgsl.j2"),
    ),
    (
        "subgroup/scan.wgsl.j2",
        include_str!("../../templates/subgroup/scan.wgsl.j2"),
    ),
    (
        "subgroup/segmented.wgsl.j2",
        include_str!("../../templates/subgroup/segmented.wgsl.j2"),
    ),
    (
        "subgroup/sort.wgsl.j2",
        include_str!("../../templates/subgroup/sort.wgsl.j2"),
    ),
    (
        "block/prelude.wgsl.j2",
        include_str!("../../templates/block/prelude.wgsl.j2"),
    ),
    (
        "block/sync.wgsl.j2",
        include_str!("../../templates/block/sync.wgsl.j2"),
    ),
    (
        "block/scan.wgsl.j2",
        include_str!("../../templates/block/scan.wgsl.j2"),
    ),
    (
        "block/radix.wgsl.j2",
        include_str!("../../templates/block/radix.wgsl.j2"),
    ),
    (
        "block/exchange.wgsl.j2",
        include_str!("../../templates/block/exchange.wgsl.j2"),
    ),
    (
        "block/load.wgsl.j2",
        include_str!("../../templates/block/load.wgsl.j2"),
    ),
    (
        "block/discontinuity.wgsl.j2",
        include_str!("../../templates/block/discontinuity.wgsl.j2"),
    ),
    (
        "block/shuffle.wgsl.j2",
        include_str!("../../templates/block/shuffle.wgsl.j2"),
    ),
    (
        "block/radix_sort.wgsl.j2",
        include_str!("../../templates/block/radix_sort.wgsl.j2"),
    ),
    (
        "block/histogram.wgsl.j2",
        include_str!("../../templates/block/histogram.wgsl.j2"),
    ),
    (
        "subgroup/merge_sort.wgsl.j2",
        include_str!("../../templates/subgroup/merge_sort.wgsl.j2"),
    ),
    (
        "block/merge_sort.wgsl.j2",
        include_str!("../../templates/block/merge_sort.wgsl.j2"),
    ),
    (
        "block/load_vectorized.wgsl.j2",
        include_str!("../../templates/block/load_vectorized.wgsl.j2"),
    ),
    (
        "block/warp_exchange.wgsl.j2",
        include_str!("../../templates/block/warp_exchange.wgsl.j2"),
    ),
    (
        "subgroup/exchange.wgsl.j2",
        include_str!("../../templates/subgroup/exchange.wgsl.j2"),
    ),
    (
        "subgroup/load.wgsl.j2",
        include_str!("../../templates/subgroup/load.wgsl.j2"),
    ),
    (
        "grid/sync.wgsl.j2",
        include_str!("../../templates/grid/sync.wgsl.j2"),
    ),
];

/// What a template sees of an instance (the `i` argument of every macro).
#[derive(serde::Serialize)]
struct Context<'a> {
    /// Mangled function name to define.
    name: String,
    /// Catalog op name.
    op: &'a str,
    /// WGSL spelling of `T`.
    #[serde(rename = "T")]
    t: Option<&'static str>,
    /// `L`: the tile's log2 size; `log2(S)` for a full-subgroup op on a fixed
    /// size; none for a full-subgroup op on a size range.
    #[serde(rename = "L")]
    l: Option<u32>,
    /// `N` of `ballot_first_n`.
    #[serde(rename = "N")]
    n: Option<u32>,
    /// `2^L`.
    tile: Option<u32>,
    /// Bits `0..tile` set, as a u32 (tiles up to 32 lanes).
    tile_mask: Option<u32>,
    /// The fixed subgroup size, if fixed.
    #[serde(rename = "S")]
    s: Option<u32>,
    /// `log2(S)` if fixed.
    #[serde(rename = "log2_S")]
    log2_s: Option<u32>,
    /// Whether the op spans the whole subgroup.
    full: bool,
    /// `builtin` or `shuffle`.
    lowering: &'static str,
    /// `signed`, `unsigned` or `float`.
    kind: Option<&'static str>,
    /// Width of `T` in bits.
    bits: Option<u32>,
    /// WGSL spelling of `V`, the value dtype of key/value ops.
    #[serde(rename = "V")]
    v: Option<&'static str>,
    /// The operator of a reduction or scan (`add`), or the user function
    /// of a generic one (`combine()` calls it).
    operator: Option<String>,
    /// Whether the operator is a user function.
    generic: bool,
    /// `A`, the array a block load or store names.
    #[serde(rename = "A")]
    a: Option<String>,
    /// Its WGSL builtin stem (`Add`).
    builtin_stem: Option<&'static str>,
    /// Whether WGSL has scan builtins for the operator.
    scan_builtin: bool,
    /// WGSL expression of the operator's identity for `T`.
    identity: Option<String>,
    /// `B`, threads per workgroup, of block ops.
    #[serde(rename = "B")]
    b: Option<u32>,
    /// Named constants (`radix_bits`).
    c: std::collections::BTreeMap<&'static str, u32>,
    /// Smallest and largest subgroup size.
    #[serde(rename = "S_min")]
    s_min: u32,
    #[serde(rename = "S_max")]
    s_max: u32,
    /// Subgroups per workgroup: a literal, or an expression on a size range.
    subgroups: Option<String>,
    /// The most subgroups a workgroup may have (`B / S_min`).
    subgroups_max: Option<u32>,
    /// The last lane of a subgroup: a literal or an expression.
    last_lane: String,
    /// Whether a workgroup is exactly one subgroup (fixed `S == B`).
    single_subgroup: bool,
    /// Whether subgroups are emulated in workgroup memory: every subgroup
    /// operation is then a workgroup barrier, so a loop around one must run
    /// the same number of times in every subgroup of the workgroup.
    emulated: bool,
}

impl<'a> Context<'a> {
    fn new(instance: &'a Instance, target: &Target) -> Self {
        let exact = target.subgroup_size.exact();
        let log2_exact = exact.map(u32::trailing_zeros);
        let tiled = instance.primitive.is_tiled();
        let l = if tiled {
            instance.log2_size
        } else {
            log2_exact
        };
        let full = !tiled || (log2_exact.is_some() && l == log2_exact);
        let tile = l.map(|l| 1u32 << l);
        Context {
            name: instance.mangled_name(),
            op: instance.primitive.name,
            t: instance.dtype.map(Dtype::wgsl),
            l,
            n: instance.count,
            tile,
            tile_mask: tile
                .filter(|t| *t <= 32)
                .map(|t| if t == 32 { u32::MAX } else { (1u32 << t) - 1 }),
            s: exact,
            log2_s: log2_exact,
            full,
            lowering: instance.lowering.name(),
            kind: instance.dtype.map(|d| match d.kind() {
                crate::dtype::Kind::Signed => "signed",
                crate::dtype::Kind::Unsigned => "unsigned",
                crate::dtype::Kind::Float => "float",
            }),
            bits: instance.dtype.map(Dtype::bits),
            b: instance.block_dim,
            c: instance.constants.iter().copied().collect(),
            s_min: target.subgroup_size.min(),
            s_max: target.subgroup_size.max(),
            subgroups: instance.block_dim.map(|b| match exact {
                Some(s) => format!("{}u", b / s),
                None => format!("({b}u / wk_sg_size)"),
            }),
            subgroups_max: instance.block_dim.map(|b| b / target.subgroup_size.min()),
            last_lane: match exact {
                Some(s) => format!("{}u", s - 1),
                None => "(wk_sg_size - 1u)".into(),
            },
            single_subgroup: exact.is_some() && instance.block_dim == exact,
            emulated: target.is_emulated(),
            v: instance.value_dtype.map(Dtype::wgsl),
            operator: instance
                .function
                .clone()
                .or_else(|| instance.primitive.operator.map(|o| o.name().to_string())),
            generic: instance.function.is_some(),
            a: instance.array.clone(),
            builtin_stem: instance.primitive.operator.map(|o| o.builtin_stem()),
            scan_builtin: instance
                .primitive
                .operator
                .is_some_and(|o| o.has_scan_builtin()),
            identity: instance
                .primitive
                .operator
                .zip(instance.dtype)
                .map(|(o, d)| o.identity_expr(d)),
        }
    }
}

/// What one expansion's templates ask for: the instances they use (`dep`)
/// and their module-scope declarations (`declare`).
#[derive(Default)]
struct Requests {
    queued: Mutex<Vec<InstanceSpec>>,
    declarations: Mutex<Vec<(String, String)>>,
}

thread_local! {
    /// The requests of the expansion rendering on this thread: `dep` and
    /// `declare` are the shared environment's, and write here.
    static REQUESTS: RefCell<Option<Arc<Requests>>> = const { RefCell::new(None) };
}

/// Sets [`REQUESTS`] for one render, and restores what was there when
/// dropped (also when a template function panics).
struct Rendering(Option<Arc<Requests>>);

impl Rendering {
    fn start(requests: &Arc<Requests>) -> Self {
        Rendering(REQUESTS.with(|r| r.replace(Some(Arc::clone(requests)))))
    }
}

impl Drop for Rendering {
    fn drop(&mut self) {
        let previous = self.0.take();
        REQUESTS.with(|r| *r.borrow_mut() = previous);
    }
}

/// The rendering expansion's requests, for `dep` and `declare`.
fn requests() -> Result<Arc<Requests>, minijinja::Error> {
    REQUESTS.with(|r| r.borrow().clone()).ok_or_else(|| {
        minijinja::Error::new(
            minijinja::ErrorKind::InvalidOperation,
            "dep() and declare() work only inside an expansion",
        )
    })
}

/// The templates, parsed once per process and shared by every expansion
/// (each expansion parsed all of them again before: 2-4 % of the native
/// tests' CPU samples were in the template lexer).
fn environment() -> &'static Environment<'static> {
    static ENVIRONMENT: OnceLock<Environment<'static>> = OnceLock::new();
    ENVIRONMENT.get_or_init(|| {
        let mut env = Environment::new();
        env.set_syntax(
            minijinja::syntax::SyntaxConfig::builder()
                .trim_blocks(true)
                .lstrip_blocks(true)
                .build()
                .expect("valid syntax config"),
        );
        env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
        for (name, source) in TEMPLATES {
            env.add_template(name, source)
                .unwrap_or_else(|e| panic!("embedded template {name} does not parse: {e:#}"));
        }
        env.add_function(
            "dep",
            |op: String, args: Rest<Value>| -> Result<String, minijinja::Error> {
                let args = args
                    .iter()
                    .map(template_arg)
                    .collect::<Result<Vec<_>, _>>()?;
                let spec = InstanceSpec::new(op, args);
                let name = mangle_spec(&spec);
                requests()?
                    .queued
                    .lock()
                    .expect("dependency queue")
                    .push(spec);
                Ok(name)
            },
        );
        env.add_filter("hex", |n: u64| format!("0x{n:08x}"));
        // `combine(op, a, b)`: WGSL for `a op b`.
        env.add_function(
            "combine",
            |op: String, a: String, b: String| -> Result<String, minijinja::Error> {
                // A built-in operator, or else a user function `op(a, b)`.
                Ok(crate::catalog::Operator::ALL
                    .into_iter()
                    .find(|o| o.name() == op)
                    .map_or_else(|| format!("{op}({a}, {b})"), |o| o.combine(&a, &b)))
            },
        );
        // `declare(name, text)`: a module-scope declaration (a struct, a
        // workgroup array) emitted once per expansion however many
        // instances declare it; returns `name`.
        env.add_function(
            "declare",
            |name: String, text: String| -> Result<String, minijinja::Error> {
                let requests = requests()?;
                let mut all = requests.declarations.lock().expect("declarations");
                match all.iter().find(|(n, _)| *n == name) {
                    Some((_, existing)) if *existing != text => Err(minijinja::Error::new(
                        minijinja::ErrorKind::InvalidOperation,
                        format!("declare(): `{name}` declared twice with different text"),
                    )),
                    Some(_) => Ok(name),
                    None => {
                        all.push((name.clone(), text));
                        Ok(name)
                    }
                }
            },
        );
        env
    })
}

/// One expansion's rendering: the shared template environment, and what
/// this expansion's templates asked for. Templates call `dep(op, args...)`
/// to use another instance; the request is queued and the mangled name
/// returned.
pub(super) struct Renderer {
    requests: Arc<Requests>,
}

impl Renderer {
    pub(super) fn new() -> Self {
        Renderer {
            requests: Arc::default(),
        }
    }

    /// The module-level lane state every subgroup instance relies on, and
    /// the thread state of block instances when there are any.
    /// With emulated subgroups the templates see `S`, and lanes come from
    /// `local_invocation_index`.
    pub(super) fn prelude(&self, block: bool, target: &Target) -> Result<String, Error> {
        let emulated_size = target.is_emulated().then(|| target.subgroup_size.min());
        let files: &[&str] = if block {
            &["subgroup/prelude.wgsl.j2", "block/prelude.wgsl.j2"]
        } else {
            &["subgroup/prelude.wgsl.j2"]
        };
        let mut out = String::new();
        for file in files {
            let _rendering = Rendering::start(&self.requests);
            let text = environment()
                .get_template(file)
                .and_then(|t| t.render(minijinja::context! { emulated_S => emulated_size }))
                .map_err(|e| template_error(file, &e))?;
            out.push_str(text.trim_end());
            out.push_str("\n\n");
        }
        Ok(out)
    }

    /// The module-scope declarations instances asked for, each once, in
    /// first-declared order.
    pub(super) fn declarations(&self) -> Vec<String> {
        let all = self.requests.declarations.lock().expect("declarations");
        all.iter().map(|(_, text)| text.clone()).collect()
    }

    /// Renders `instance`; returns its WGSL and the instances it asked for.
    pub(super) fn render(
        &self,
        instance: &Instance,
        target: &Target,
    ) -> Result<(String, Vec<InstanceSpec>), Error> {
        let family: Family = instance.primitive.family;
        let file = family.template();
        let source = format!(
            "{{% import \"{file}\" as t %}}{{{{ t.{}(i) }}}}",
            instance.primitive.template_macro
        );
        let context = Context::new(instance, target);
        let _rendering = Rendering::start(&self.requests);
        let text = environment()
            .render_str(
                &source,
                minijinja::context! { i => Value::from(minijinja::value::Serde(&context)) },
            )
            .map_err(|e| template_error(file, &e))?;
        let deps = std::mem::take(&mut *self.requests.queued.lock().expect("dependency queue"));
        Ok((text, deps))
    }
}

fn template_arg(value: &Value) -> Result<TemplateArg, minijinja::Error> {
    if let Some(text) = value.as_str() {
        return super::spec::parse_template_arg(text).ok_or_else(|| {
            minijinja::Error::new(
                minijinja::ErrorKind::InvalidOperation,
                format!("dep(): `{text}` is not a template argument"),
            )
        });
    }
    i64::try_from(value.clone())
        .map(TemplateArg::Int)
        .map_err(|_| {
            minijinja::Error::new(
                minijinja::ErrorKind::InvalidOperation,
                format!("dep(): `{value}` is not a template argument"),
            )
        })
}

fn template_error(file: &str, error: &minijinja::Error) -> Error {
    Error::Template {
        template: file.to_string(),
        message: format!("{error:#}"),
    }
}
