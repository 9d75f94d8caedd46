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
    #[command(flatten)]
    target: TargetArgs,
}

pub fn run(args: &ExpandArgs) -> Result<ExitCode, Error> {
    let library = Library::new(args.target.target()?);
    let spec = spec_of(args)?;
    let expansion = library.expand(&[spec])?;
    // Validating here means what is printed is known to compile.
    expansion.module()?;
    print!("{}", expansion.wgsl());
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
        suggestion: catalog::suggest(&args.op).map(str::to_string),
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
        };
        let flag = match param {
            catalog::Param::Dtype => "--dtype",
            catalog::Param::ValueDtype => "--value-dtype",
            catalog::Param::Log2Size => "--log2",
            catalog::Param::Count { .. } => "--count",
        };
        match arg {
            Some(arg) => template_args.push(arg?),
            None => {
                return Err(Error::Usage(format!(
                    "`{}` needs {flag} (signature `{}`)",
                    primitive.name,
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
    Ok(InstanceSpec::new(primitive.name, template_args))
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
