//! `wavekit run`: compose a compute shader and run it on a wgpu adapter or a
//! native back end (CUDA, HIP), with buffers read from and written to `.npy`
//! or raw little-endian files.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use wavekit::Error;
use wavekit::runner::{Binding, buffer_bindings};

use super::compose_args::ComposeArgs;
use super::device_args::DeviceArgs;
use super::run_inputs::{
    BindWhat, Element, parse_bind, parse_workgroups, read_buffer, write_buffer,
};

/// Arguments of `wavekit run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// The WGSL shader (with `#import wavekit::...` lines if it wants).
    shader: PathBuf,
    /// The compute entry point.
    #[arg(long, default_value = "main")]
    entry: String,
    /// Workgroups to dispatch, `X[,Y[,Z]]`.
    #[arg(long, default_value = "1")]
    workgroups: String,
    /// A buffer: `G:B=FILE` (input from .npy or raw bytes) or `G:B=out:TYPE:COUNT`
    /// (an output of COUNT elements of u32, i32, f32, u64, i64 or f64). Repeatable.
    #[arg(long = "bind", value_name = "G:B=...")]
    bindings: Vec<String>,
    /// Where to write the outputs, in binding order (`.npy`, else raw). Repeatable.
    #[arg(long = "out")]
    outputs: Vec<PathBuf>,
    #[command(flatten)]
    device: DeviceArgs,
    #[command(flatten)]
    compose: ComposeArgs,
}

/// Where a buffer's contents come from.
enum Source {
    Input(Vec<u8>),
    Output(Element, u64),
}

pub fn run(args: &RunArgs) -> Result<ExitCode, Error> {
    let usage = |m: String| Error::Usage(m);
    let workgroups = parse_workgroups(&args.workgroups).ok_or_else(|| {
        usage(format!(
            "--workgroups `{}`: expected X[,Y[,Z]]",
            args.workgroups
        ))
    })?;
    let text = std::fs::read_to_string(&args.shader)
        .map_err(|e| usage(format!("cannot read {}: {e}", args.shader.display())))?;
    let gpu = args.device.open()?;
    let composed = args.compose.compose(
        gpu.target().clone(),
        &text,
        &args.shader.display().to_string(),
    )?;
    let declared = buffer_bindings(&composed.module.module);
    let mut buffers: Vec<(u32, Source)> = Vec::new();
    for spec in &args.bindings {
        let bind = parse_bind(spec)?;
        let (group, binding) = (bind.group, bind.binding);
        let declared = declared
            .iter()
            .find(|d| d.group == group && d.binding == binding)
            .ok_or_else(|| {
                usage(format!(
                    "--bind `{spec}`: the shader has no buffer at {group}:{binding}"
                ))
            })?;
        let source = match bind.what {
            BindWhat::Output(element, count) => {
                if !declared.writable {
                    return Err(usage(format!(
                        "--bind `{spec}`: `{}` is read-only",
                        declared.name
                    )));
                }
                Source::Output(element, count)
            }
            BindWhat::File(path) => Source::Input(read_buffer(Path::new(&path))?),
        };
        let bytes = match &source {
            Source::Input(data) => data.len() as u64,
            Source::Output(element, count) => element.bytes(*count),
        };
        declared
            .check(bytes)
            .map_err(|m| usage(format!("--bind `{spec}`: {m}")))?;
        buffers.push((binding, source));
    }
    for declared in &declared {
        if !buffers.iter().any(|(b, _)| *b == declared.binding) {
            return Err(usage(format!(
                "the shader's binding {}:{} (`{}`) has no --bind",
                declared.group, declared.binding, declared.name
            )));
        }
    }
    buffers.sort_by_key(|(b, _)| *b);
    let numbered: Vec<(u32, Binding<'_>)> = buffers
        .iter()
        .map(|(b, source)| {
            let binding = match source {
                Source::Input(data) => Binding::Input(data),
                Source::Output(element, count) => Binding::Output {
                    size: element.bytes(*count),
                },
            };
            (*b, binding)
        })
        .collect();
    let kernel = gpu.kernel(&composed.module, &args.entry)?;
    let results = gpu.run_at(&kernel, &numbered, workgroups)?;
    let elements: Vec<Element> = buffers
        .iter()
        .filter_map(|(_, s)| match s {
            Source::Output(element, _) => Some(*element),
            Source::Input(_) => None,
        })
        .collect();
    if args.outputs.len() > results.len() {
        return Err(usage(format!(
            "{} --out files for {} output bindings",
            args.outputs.len(),
            results.len()
        )));
    }
    for ((path, data), element) in args.outputs.iter().zip(&results).zip(elements) {
        write_buffer(path, data, element)?;
    }
    Ok(ExitCode::SUCCESS)
}
