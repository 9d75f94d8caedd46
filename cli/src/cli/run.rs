//! `wavekit run`: compose a compute shader and run it on a wgpu adapter or a
//! native back end (CUDA, HIP), with buffers read from and written to `.npy`
//! or raw little-endian files.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use wavekit::Error;
use wavekit::compose::Composer;
use wavekit::runner::{Binding, buffer_bindings};

use super::device_args::DeviceArgs;

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
}

/// Element types of output buffers and .npy files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Element {
    U32,
    I32,
    F32,
    U64,
    I64,
    F64,
}

impl Element {
    fn parse(text: &str) -> Option<Element> {
        Some(match text {
            "u32" | "<u4" => Element::U32,
            "i32" | "<i4" => Element::I32,
            "f32" | "<f4" => Element::F32,
            "u64" | "<u8" => Element::U64,
            "i64" | "<i8" => Element::I64,
            "f64" | "<f8" => Element::F64,
            _ => return None,
        })
    }

    fn size(self) -> usize {
        match self {
            Element::U32 | Element::I32 | Element::F32 => 4,
            _ => 8,
        }
    }
}

enum Source {
    Input(Vec<u8>),
    Output(Element, usize),
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
    let composed =
        Composer::new(gpu.target().clone()).compose(&text, &args.shader.display().to_string())?;
    let declared = buffer_bindings(&composed.module.module);
    let mut buffers: Vec<(u32, Source)> = Vec::new();
    for spec in &args.bindings {
        let (slot, what) = spec.split_once('=').ok_or_else(|| {
            usage(format!(
                "--bind `{spec}`: expected G:B=FILE or G:B=out:TYPE:COUNT"
            ))
        })?;
        let (group, binding) = slot
            .split_once(':')
            .and_then(|(g, b)| Some((g.parse::<u32>().ok()?, b.parse::<u32>().ok()?)))
            .ok_or_else(|| usage(format!("--bind `{spec}`: `{slot}` is not G:B")))?;
        if group != 0 {
            return Err(usage(format!("--bind `{spec}`: only group 0 is supported")));
        }
        let declared = declared
            .iter()
            .find(|d| d.group == group && d.binding == binding)
            .ok_or_else(|| {
                usage(format!(
                    "--bind `{spec}`: the shader has no buffer at {slot}"
                ))
            })?;
        let source = match what.split(':').collect::<Vec<_>>().as_slice() {
            ["out", ty, count] => {
                let element = Element::parse(ty).ok_or_else(|| {
                    usage(format!("--bind `{spec}`: unknown element type `{ty}`"))
                })?;
                let count: usize = count
                    .parse()
                    .map_err(|_| usage(format!("--bind `{spec}`: `{count}` is not a count")))?;
                if !declared.writable {
                    return Err(usage(format!(
                        "--bind `{spec}`: `{}` is read-only",
                        declared.name
                    )));
                }
                Source::Output(element, count)
            }
            _ => Source::Input(read_buffer(Path::new(what))?),
        };
        let bytes = match &source {
            Source::Input(data) => data.len() as u64,
            Source::Output(element, count) => (element.size() * count) as u64,
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
                    size: (element.size() * count) as u64,
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

fn parse_workgroups(text: &str) -> Option<[u32; 3]> {
    let parts: Vec<u32> = text
        .split(',')
        .map(|p| p.trim().parse().ok())
        .collect::<Option<_>>()?;
    match parts.as_slice() {
        [x] => Some([*x, 1, 1]),
        [x, y] => Some([*x, *y, 1]),
        [x, y, z] => Some([*x, *y, *z]),
        _ => None,
    }
}

fn is_npy(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "npy")
}

/// A buffer's bytes: the data of a 1-D little-endian `.npy`, or the raw file.
fn read_buffer(path: &Path) -> Result<Vec<u8>, Error> {
    let io = |e: std::io::Error| Error::Usage(format!("cannot read {}: {e}", path.display()));
    let bytes = std::fs::read(path).map_err(io)?;
    if !is_npy(path) {
        return Ok(bytes);
    }
    let file = npyz::NpyFile::new(&bytes[..]).map_err(io)?;
    let descr = file.dtype().descr().trim_matches('\'').to_string();
    let element = Element::parse(&descr).ok_or_else(|| {
        Error::Usage(format!(
            "{}: unsupported .npy dtype `{descr}`",
            path.display()
        ))
    })?;
    match element {
        Element::U32 => npy_data::<u32>(file),
        Element::I32 => npy_data::<i32>(file),
        Element::F32 => npy_data::<f32>(file),
        Element::U64 => npy_data::<u64>(file),
        Element::I64 => npy_data::<i64>(file),
        Element::F64 => npy_data::<f64>(file),
    }
    .map_err(io)
}

/// The elements of a `.npy` as bytes in host order, which is what wgpu
/// buffers hold (every wgpu platform is little-endian).
fn npy_data<T: npyz::Deserialize + bytemuck::Pod>(
    file: npyz::NpyFile<&[u8]>,
) -> std::io::Result<Vec<u8>> {
    Ok(bytemuck::cast_slice(&file.into_vec::<T>()?).to_vec())
}

/// Writes a buffer's bytes as a 1-D `.npy` of `T`.
fn npy_write<T: npyz::AutoSerialize + bytemuck::Pod>(
    path: &Path,
    data: &[u8],
) -> std::io::Result<()> {
    npyz::to_file_1d(path, bytemuck::pod_collect_to_vec::<u8, T>(data))
}

/// Writes an output as a 1-D `.npy` of its element type, or raw bytes.
fn write_buffer(path: &Path, data: &[u8], element: Element) -> Result<(), Error> {
    let io = |e: std::io::Error| Error::Usage(format!("cannot write {}: {e}", path.display()));
    if !is_npy(path) {
        return std::fs::write(path, data).map_err(io);
    }
    match element {
        Element::U32 => npy_write::<u32>(path, data),
        Element::I32 => npy_write::<i32>(path, data),
        Element::F32 => npy_write::<f32>(path, data),
        Element::U64 => npy_write::<u64>(path, data),
        Element::I64 => npy_write::<i64>(path, data),
        Element::F64 => npy_write::<f64>(path, data),
    }
    .map_err(io)
}
