//! `wavekit expand`: the WGSL of one instance.

use std::process::ExitCode;

use clap::Args;

use wavekit::{Error, InstanceSpec, Library, TemplateArg, catalog};

use super::target_args::TargetArgs;

/// Arguments of `wavekit expand`.
#[derive(Args, Debug)]
pub struct ExpandArgs {
    /// The op (`all_true_tiled`), or a whole instance (`"all_equal_tiled<f32, 3>"`).
    op: String,
    /// The dtype `T` (the key dtype of a key/value op).
    #[arg(long)]
    dtype: Option<String>,
    /// The value dtype `V` of a key/value op (`bitonic_sort_kv`).
    #[arg(long)]
    value_dtype: Option<String>,
    /// `log2_size` `L` of a tiled op.
    #[arg(long = "log2")]
    log2_size: Option<i64>,
    /// Lane count `N` (`ballot_first_n`).
    #[arg(long)]
    count: Option<i64>,
    /// Threads per workgroup `B` of a block op.
    #[arg(long)]
    block_dim: Option<i64>,
    /// The user function `F` of a generic block operator.
    #[arg(long)]
    function: Option<String>,
    /// The array `A` a block load or store reads or writes.
    #[arg(long)]
    array: Option<String>,
    /// A named constant, `NAME=VALUE` (`radix_bits=8`; repeatable; also
    /// comma-separated).
    #[arg(long = "const", value_name = "NAME=VALUE", value_delimiter = ',')]
    constants: Vec<String>,
    #[command(flatten)]
    target: TargetArgs,
}

pub fn run(args: &ExpandArgs) -> Result<ExitCode, Error> {
    let library = Library::new(args.target.target()?);
    let spec = spec_of(args)?;
    let expansion = library.expand(&[spec])?;
    // Validating here means what is printed is known to compile; a generic
    // operator's function lives in the caller's code, so those instances
    // are validated when composed with it.
    let mut user_functions: Vec<String> = Vec::new();
    for instance in expansion.instances() {
        let t = instance.dtype.map_or("T", |d| d.wgsl());
        let needs = [
            instance
                .function
                .as_ref()
                .zip(instance.primitive.function_signature())
                .map(|(f, signature)| {
                    signature
                        .replace('T', t)
                        .replacen("fn", &format!("fn {f}"), 1)
                }),
            match instance.counter_array() {
                Some((a, bins)) => Some(format!("var<workgroup> {a}: array<atomic<u32>, {bins}>")),
                None => instance
                    .array
                    .as_ref()
                    .zip(instance.array_element())
                    .map(|(a, element)| format!("var<...> {a}: array<{element}, ...>")),
            },
        ];
        for need in needs.into_iter().flatten() {
            if !user_functions.contains(&need) {
                user_functions.push(need);
            }
        }
    }
    if user_functions.is_empty() {
        let module = expansion.module()?;
        print!("{}", expansion.wgsl());
        let bytes = module.workgroup_memory_bytes();
        if bytes > 0 {
            println!("\n// workgroup memory: {bytes} bytes");
        }
    } else {
        print!("{}", expansion.wgsl());
        println!(
            "\n// not validated alone: needs `{}` from your module",
            user_functions.join("`, `")
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The instance the arguments ask for: flags fill the template parameters
/// in the op's order.
fn spec_of(args: &ExpandArgs) -> Result<InstanceSpec, Error> {
    if args.op.contains('<') {
        return args.op.parse();
    }
    let primitive = catalog::find(&args.op).ok_or_else(|| Error::UnknownOp {
        name: args.op.clone(),
        suggestion: catalog::suggest(&args.op),
    })?;
    let mut template_args = Vec::new();
    for param in primitive.params {
        let arg = match param {
            catalog::Param::Dtype => args.dtype.as_deref().map(|d| dtype_arg("--dtype", d)),
            catalog::Param::ValueDtype => args
                .value_dtype
                .as_deref()
                .map(|d| dtype_arg("--value-dtype", d)),
            catalog::Param::Log2Size => args.log2_size.map(|l| Ok(TemplateArg::Int(l))),
            catalog::Param::Count { .. } => args.count.map(|n| Ok(TemplateArg::Int(n))),
            catalog::Param::BlockDim => args.block_dim.map(|b| Ok(TemplateArg::Int(b))),
            catalog::Param::Function => args.function.as_deref().map(|f| {
                wavekit::expand::parse_template_arg(f)
                    .filter(|a| matches!(a, TemplateArg::Name(_)))
                    .ok_or_else(|| {
                        Error::Usage(format!("--function `{f}` is not a WGSL function name"))
                    })
            }),
            catalog::Param::Array | catalog::Param::VectorArray => args.array.as_deref().map(|a| {
                wavekit::expand::parse_template_arg(a)
                    .filter(|a| matches!(a, TemplateArg::Name(_)))
                    .ok_or_else(|| Error::Usage(format!("--array `{a}` is not a WGSL identifier")))
            }),
            catalog::Param::Const { name, .. } => constant(&args.constants, name),
        };
        let flag = match param {
            catalog::Param::Dtype => "--dtype".to_string(),
            catalog::Param::ValueDtype => "--value-dtype".to_string(),
            catalog::Param::Log2Size => "--log2".to_string(),
            catalog::Param::Count { .. } => "--count".to_string(),
            catalog::Param::BlockDim => "--block-dim".to_string(),
            catalog::Param::Function => "--function".to_string(),
            catalog::Param::Array | catalog::Param::VectorArray => "--array".to_string(),
            catalog::Param::Const { name, .. } => format!("--const {name}=VALUE"),
        };
        match arg {
            Some(arg) => template_args.push(arg?),
            None => {
                return Err(Error::Usage(format!(
                    "`{}` needs {flag} (signature `{}`)",
                    primitive.qualified_name(),
                    primitive.signature()
                )));
            }
        }
    }
    let unused = [
        (
            args.dtype.is_some() && !primitive.params.contains(&catalog::Param::Dtype),
            "--dtype",
        ),
        (
            args.value_dtype.is_some() && !primitive.params.contains(&catalog::Param::ValueDtype),
            "--value-dtype",
        ),
        (args.log2_size.is_some() && !primitive.is_tiled(), "--log2"),
        (
            args.count.is_some()
                && !primitive
                    .params
                    .iter()
                    .any(|p| matches!(p, catalog::Param::Count { .. })),
            "--count",
        ),
    ];
    if let Some((_, flag)) = unused.iter().find(|(bad, _)| *bad) {
        return Err(Error::Usage(format!(
            "`{}` takes no {flag} (signature `{}`)",
            primitive.name,
            primitive.signature()
        )));
    }
    Ok(InstanceSpec::new(primitive.qualified_name(), template_args))
}

fn dtype_arg(flag: &str, text: &str) -> Result<TemplateArg, Error> {
    wavekit::expand::parse_template_arg(text)
        .filter(|a| matches!(a, TemplateArg::Dtype(_)))
        .ok_or_else(|| {
            Error::Usage(format!(
                "{flag} `{text}` is not a dtype (i32, u32, f32, f16, i64, u64, f64)"
            ))
        })
}

/// The value given for constant `name` by `--const name=VALUE`, if any.
fn constant(given: &[String], name: &str) -> Option<Result<TemplateArg, Error>> {
    given.iter().find_map(|text| {
        let (key, value) = text.split_once('=')?;
        (key.trim() == name).then(|| {
            value
                .trim()
                .parse::<i64>()
                .map(TemplateArg::Int)
                .map_err(|_| Error::Usage(format!("--const {text}: `{value}` is not an integer")))
        })
    })
}
