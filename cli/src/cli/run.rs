//! `wavekit run`: compose a compute shader and run it on a wgpu adapter or a
//! native back end (CUDA, HIP), with buffers in any bind group (storage
//! inputs, outputs, read-write buffers initialised from a file and read
//! back, uniforms) read from and written to `.npy` or raw little-endian
//! files.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use wavekit::Error;
use wavekit::runner::{Binding, BufferBinding, KernelOptions, Slot, buffer_bindings};

use super::compose_args::ComposeArgs;
use super::device_args::DeviceArgs;
use super::run_inputs::{
    BindWhat, Element, Out, is_npy, parse_bind, parse_out, parse_workgroups, read_buffer,
    write_buffer,
};

/// Arguments of `wavekit run`.
#[derive(Args, Debug)]
#[command(after_help = "\
Buffers are matched to the shader's bindings by `@group` and `@binding` (any group), \
and every binding the shader declares needs one --bind. A file bound to a \
`var<uniform>` must hold exactly its type's size; one bound to a \
`var<storage, read_write>` is its initial contents and is read back after the \
dispatch, so a kernel that works in place (a sort) takes `--bind 1:0=keys.npy \
--out 1:0=sorted.npy`. Writable bindings without an --out are read back and dropped.

Example: wavekit run sort.wgsl --bind 1:0=keys.npy --bind 1:1=params.bin --out 1:0=sorted.npy")]
pub struct RunArgs {
    /// The WGSL shader (with `#import wavekit::...` lines if it wants).
    shader: PathBuf,
    /// The compute entry point.
    #[arg(long, default_value = "main")]
    entry: String,
    /// Workgroups to dispatch, `X[,Y[,Z]]`.
    #[arg(long, default_value = "1")]
    workgroups: String,
    /// A buffer at `@group(G) @binding(B)`: `G:B=FILE` (its contents from .npy or
    /// raw bytes: an input, a read-write buffer's initial contents, or a uniform)
    /// or `G:B=out:TYPE:COUNT` (a zero-filled output of COUNT elements of u32, i32,
    /// f32, u64, i64 or f64). Repeatable (not comma-separated: a file name may hold a
    /// comma).
    #[arg(long = "bind", value_name = "G:B=...")]
    bindings: Vec<String>,
    /// Where to write a buffer read back (`.npy`, else raw bytes): `G:B=FILE` for
    /// the writable binding at G:B (an `out:` one or a read-write one bound to a
    /// file), or a plain FILE for the next `out:` binding, in (group, binding)
    /// order, that no `G:B=FILE` names. A `.npy` of a buffer bound to a raw file
    /// takes its element type from the binding's declaration (`array<f32>`).
    /// Repeatable (not comma-separated: a file name may hold a comma).
    #[arg(long = "out", value_name = "[G:B=]FILE")]
    outputs: Vec<PathBuf>,
    /// Seconds to wait for the dispatch and its read-back before failing
    /// with an error naming the limit (0: wait for ever). The device keeps
    /// running a kernel that never ends until wavekit exits, which it then
    /// does.
    #[arg(long, default_value = "60", value_name = "SECS")]
    timeout: f64,
    /// Leave buffer and array indices unchecked (wgpu's bounds checks and
    /// the native back ends' clamping off): an out-of-bounds access is then
    /// undefined behaviour, which CUDA reports as an illegal address.
    #[arg(long)]
    unclamped: bool,
    #[command(flatten)]
    device: DeviceArgs,
    #[command(flatten)]
    compose: ComposeArgs,
}

/// Where a buffer's contents come from.
enum Source {
    /// A file's bytes, and its element type when it is a `.npy`; bound as
    /// the shader declares the binding (input, read-write or uniform).
    File(Vec<u8>, Option<Element>),
    /// A zero-filled output.
    Output(Element, u64),
}

/// One `--bind`, checked against the binding the shader declares there.
struct Bound<'a> {
    slot: Slot,
    declared: &'a BufferBinding,
    source: Source,
    /// The `--bind` as written, for errors.
    spec: &'a str,
}

impl Bound<'_> {
    /// The runner's binding: a file bound to a writable buffer is read back.
    fn binding(&self) -> Binding<'_> {
        match &self.source {
            Source::File(data, _) if self.declared.uniform => Binding::Uniform(data),
            Source::File(data, _) if self.declared.writable => Binding::ReadWrite(data),
            Source::File(data, _) => Binding::Input(data),
            Source::Output(element, count) => Binding::Output {
                size: element.bytes(*count),
            },
        }
    }

    /// The element type a `.npy` of it is written in, if known.
    fn element(&self) -> Option<Element> {
        match &self.source {
            Source::File(_, element) => *element,
            Source::Output(element, _) => Some(*element),
        }
    }
}

pub fn run(args: &RunArgs) -> Result<ExitCode, Error> {
    let usage = |m: String| Error::Usage(m);
    let workgroups = parse_workgroups(&args.workgroups).ok_or_else(|| {
        usage(format!(
            "--workgroups `{}`: expected X[,Y[,Z]]",
            args.workgroups
        ))
    })?;
    // The device flags are checked before the shader is read.
    args.device.checked()?;
    let limit = wait_limit(args.timeout)?;
    let text = std::fs::read_to_string(&args.shader)
        .map_err(|e| usage(format!("cannot read {}: {e}", args.shader.display())))?;
    let gpu = args.device.open()?;
    gpu.set_wait_limit(limit);
    let composed = args.compose.compose(
        gpu.target().clone(),
        &text,
        &args.shader.display().to_string(),
    )?;
    let declared = buffer_bindings(&composed.module.module);
    let mut buffers = bind_all(&args.bindings, &declared)?;
    buffers.sort_by_key(|b| b.slot);
    let outs = place_outputs(&args.outputs, &buffers, &composed.module.module)?;
    let bound: Vec<(Slot, Binding<'_>)> = buffers.iter().map(|b| (b.slot, b.binding())).collect();
    let options = if args.unclamped {
        // SAFETY: the caller asked for unchecked indices (`--unclamped`);
        // an access out of bounds is then theirs to answer for.
        unsafe { KernelOptions::default().without_bounds_checks() }
    } else {
        KernelOptions::default()
    };
    let kernel = gpu.kernel_with(&composed.module, &args.entry, options)?;
    let results = gpu.run_slots(&kernel, &bound, workgroups)?;
    // The results are the buffers read back, in the order of `bound`.
    let read_back = buffers.iter().filter(|b| b.binding().read_back());
    for (buffer, data) in read_back.zip(&results) {
        for (path, element, _) in outs.iter().filter(|(_, _, slot)| *slot == buffer.slot) {
            write_buffer(path, data, *element)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `--timeout SECS` as a wait limit: `None` for 0.
fn wait_limit(seconds: f64) -> Result<Option<Duration>, Error> {
    if seconds == 0.0 {
        return Ok(None);
    }
    Duration::try_from_secs_f64(seconds).map(Some).map_err(|_| {
        Error::Usage(format!(
            "--timeout {seconds}: expected seconds, a finite number of at least 0 (0: no limit)"
        ))
    })
}

/// Parses every `--bind`, reads its file, and checks it against the
/// binding the shader declares at its slot: declared, bound once, an
/// output only where the shader writes, the right size. Then every
/// declared binding must have one.
fn bind_all<'a>(
    specs: &'a [String],
    declared: &'a [BufferBinding],
) -> Result<Vec<Bound<'a>>, Error> {
    let usage = |m: String| Error::Usage(m);
    let mut buffers: Vec<Bound<'a>> = Vec::new();
    for spec in specs {
        let bind = parse_bind(spec)?;
        let slot = Slot::new(bind.group, bind.binding);
        let (group, binding) = (bind.group, bind.binding);
        let found = declared
            .iter()
            .find(|d| d.group == group && d.binding == binding)
            .ok_or_else(|| {
                usage(format!(
                    "--bind `{spec}`: the shader has no buffer at {group}:{binding}"
                ))
            })?;
        if let Some(earlier) = buffers.iter().find(|b| b.slot == slot) {
            return Err(usage(format!(
                "--bind `{spec}`: {group}:{binding} (`{}`) is already bound by --bind `{}`",
                found.name, earlier.spec
            )));
        }
        let source = match bind.what {
            BindWhat::Output(element, count) => {
                if !found.writable {
                    return Err(usage(format!(
                        "--bind `{spec}`: `{}` is read-only",
                        found.name
                    )));
                }
                Source::Output(element, count)
            }
            BindWhat::File(path) => {
                let (data, element) = read_buffer(Path::new(&path))?;
                Source::File(data, element)
            }
        };
        let bytes = match &source {
            Source::File(data, _) => data.len() as u64,
            Source::Output(element, count) => element.bytes(*count),
        };
        found
            .check(bytes)
            .map_err(|m| usage(format!("--bind `{spec}`: {m}")))?;
        buffers.push(Bound {
            slot,
            declared: found,
            source,
            spec,
        });
    }
    for d in declared {
        if !buffers
            .iter()
            .any(|b| b.slot == Slot::new(d.group, d.binding))
        {
            return Err(usage(format!(
                "the shader's binding {}:{} (`{}`) has no --bind",
                d.group, d.binding, d.name
            )));
        }
    }
    Ok(buffers)
}

/// Where each buffer read back is written: `--out G:B=FILE` at its slot
/// (which must be a writable binding, named once), the plain `--out FILE`s
/// in order to the `out:` bindings no `G:B=FILE` names, in (group,
/// binding) order; `buffers` are in that order. A `.npy` needs an element
/// type: a raw input file gives none, so it comes from the binding's
/// declaration in `module` (issue 37).
fn place_outputs<'a>(
    outputs: &'a [PathBuf],
    buffers: &[Bound<'_>],
    module: &naga::Module,
) -> Result<Vec<(&'a Path, Element, Slot)>, Error> {
    let usage = |m: String| Error::Usage(m);
    let mut named: Vec<(&'a Path, Slot, &'a Path)> = Vec::new();
    let mut plain: Vec<&'a Path> = Vec::new();
    for spec in outputs {
        match parse_out(spec)? {
            Out::Slot {
                group,
                binding,
                path,
            } => {
                let slot = Slot::new(group, binding);
                if named.iter().any(|(_, s, _)| *s == slot) {
                    return Err(usage(format!(
                        "--out `{}`: {group}:{binding} already has an --out",
                        spec.display()
                    )));
                }
                named.push((spec, slot, path));
            }
            Out::Next(path) => plain.push(path),
        }
    }
    let mut placed = Vec::new();
    for (spec, slot, path) in &named {
        let what = |m: String| usage(format!("--out `{}`: {m}", spec.display()));
        let (group, binding) = (slot.group, slot.binding);
        // Every binding the shader declares has a --bind by now.
        let buffer = buffers
            .iter()
            .find(|b| b.slot == *slot)
            .ok_or_else(|| what(format!("the shader has no buffer at {group}:{binding}")))?;
        let name = &buffer.declared.name;
        if !buffer.declared.writable {
            let kind = if buffer.declared.uniform {
                "a uniform"
            } else {
                "read-only in the shader"
            };
            return Err(what(format!(
                "binding {group}:{binding} (`{name}`) is {kind}: only a `var<storage, read_write>` \
                 binding is read back"
            )));
        }
        let element = match (buffer.element(), is_npy(path)) {
            (Some(element), _) => element,
            // Raw bytes: the element type is not used.
            (None, false) => Element::U32,
            (None, true) => declared_element(module, *slot).map_err(|why| {
                what(format!(
                    "binding {group}:{binding} (`{name}`) was read from a raw file, and its \
                     declaration gives no one element type for a .npy ({why}): bind a .npy, or \
                     write raw bytes (a name not ending in .npy)"
                ))
            })?,
        };
        placed.push((*path, element, *slot));
    }
    let unnamed: Vec<&Bound<'_>> = buffers
        .iter()
        .filter(|b| matches!(b.source, Source::Output(..)))
        .filter(|b| !named.iter().any(|(_, s, _)| *s == b.slot))
        .collect();
    if plain.len() > unnamed.len() {
        return Err(usage(format!(
            "{} plain --out files for {} output bindings (`G:B=out:TYPE:COUNT`) without a \
             `--out G:B=FILE`",
            plain.len(),
            unnamed.len()
        )));
    }
    for (path, buffer) in plain.into_iter().zip(unnamed) {
        if let Some(element) = buffer.element() {
            placed.push((path, element, buffer.slot));
        }
    }
    Ok(placed)
}

/// The element type of the buffer the shader declares at `slot`, for a
/// `.npy` of it: the scalar of `array<f32>`, `array<vec4<u32>>`,
/// `array<atomic<i32>>` or of a struct whose members all share one, the
/// layout's padding included. Else why there is none.
fn declared_element(module: &naga::Module, slot: Slot) -> Result<Element, String> {
    let var = module
        .global_variables
        .iter()
        .map(|(_, var)| var)
        .find(|var| {
            var.binding
                .as_ref()
                .is_some_and(|b| Slot::new(b.group, b.binding) == slot)
        })
        .ok_or_else(|| "the shader declares no variable there".to_string())?;
    let scalar = scalar_of(module, var.ty)?;
    let element = match (scalar.kind, scalar.width) {
        (naga::ScalarKind::Uint, 4) => Element::U32,
        (naga::ScalarKind::Sint, 4) => Element::I32,
        (naga::ScalarKind::Float, 4) => Element::F32,
        (naga::ScalarKind::Uint, 8) => Element::U64,
        (naga::ScalarKind::Sint, 8) => Element::I64,
        (naga::ScalarKind::Float, 8) => Element::F64,
        _ => {
            return Err(format!(
                "{} is not one of u32, i32, f32, u64, i64, f64",
                scalar_name(scalar)
            ));
        }
    };
    Ok(element)
}

/// The one scalar type `ty` is made of, or why there is none.
fn scalar_of(module: &naga::Module, ty: naga::Handle<naga::Type>) -> Result<naga::Scalar, String> {
    use naga::TypeInner;
    match &module.types[ty].inner {
        TypeInner::Scalar(scalar) | TypeInner::Atomic(scalar) => Ok(*scalar),
        TypeInner::Vector { scalar, .. } | TypeInner::Matrix { scalar, .. } => Ok(*scalar),
        TypeInner::Array { base, .. } => scalar_of(module, *base),
        TypeInner::Struct { members, .. } => {
            let struct_name = module.types[ty].name.as_deref().unwrap_or("a struct");
            let mut found: Option<naga::Scalar> = None;
            for member in members {
                let scalar = scalar_of(module, member.ty)?;
                match found {
                    Some(first) if first != scalar => {
                        return Err(format!(
                            "`{struct_name}` mixes {} and {}",
                            scalar_name(first),
                            scalar_name(scalar)
                        ));
                    }
                    _ => found = Some(scalar),
                }
            }
            found.ok_or_else(|| format!("`{struct_name}` has no members"))
        }
        _ => Err("it holds no numbers".to_string()),
    }
}

/// A scalar type's WGSL name (`f32`).
fn scalar_name(scalar: naga::Scalar) -> String {
    let prefix = match scalar.kind {
        naga::ScalarKind::Sint => "i",
        naga::ScalarKind::Uint => "u",
        naga::ScalarKind::Float => "f",
        naga::ScalarKind::Bool => return "bool".to_string(),
        _ => return format!("{:?}", scalar.kind),
    };
    format!("{prefix}{}", u32::from(scalar.width) * 8)
}
