//! Every catalog op, composed into a shader, emits SPIR-V that `spirv-val`
//! accepts and MSL, HLSL and GLSL that naga writes without error, at
//! subgroup sizes 8, 32 and 64.

use std::process::Command;

use wavekit::catalog::{Arg, Family, Namespace, Param, Primitive, Ret};
use wavekit::compose::Composer;
use wavekit::emit::{Emitted, Language, emit};
use wavekit::{Backend, Dtype, InstanceSpec, Library, SubgroupSize, Target, TemplateArg};

/// The op's largest configuration with 32-bit dtypes (every language has
/// them; MSL has no f64).
fn spec_for(library: &Library, primitive: &Primitive, size: u32) -> InstanceSpec {
    // Ops naming a user function or array: f32 (u32 values), `B = 2S`,
    // `L = min(3, log2(S))`, 3 items (4 where a row takes at least 4), and
    // the shader's own `user_op`, `user_differ`, `user_array` or
    // `user_vectors`.
    if primitive
        .params
        .iter()
        .any(|p| matches!(p, Param::Function | Param::Array | Param::VectorArray))
    {
        let args = primitive.params.iter().map(|p| match p {
            Param::Dtype => TemplateArg::Dtype(Dtype::F32),
            Param::ValueDtype => TemplateArg::Dtype(Dtype::U32),
            Param::Log2Size => TemplateArg::from(size.trailing_zeros().min(3)),
            Param::BlockDim => TemplateArg::from(2 * size),
            Param::Function
                if primitive
                    .function_signature()
                    .is_some_and(|f| f.ends_with("bool")) =>
            {
                TemplateArg::Name("user_differ".into())
            }
            Param::Function => TemplateArg::Name("user_op".into()),
            Param::Array if primitive.family == Family::BlockHistogram => {
                TemplateArg::Name("user_bins".into())
            }
            Param::Array => TemplateArg::Name("user_array".into()),
            Param::VectorArray => TemplateArg::Name("user_vectors".into()),
            // 3 items, or the fewest a vectorized row takes (4).
            Param::Const { min, .. } => TemplateArg::from(3u32.max(*min)),
            _ => TemplateArg::from(3u32),
        });
        return InstanceSpec::new(primitive.qualified_name(), args.collect::<Vec<_>>());
    }
    let narrow = |arg: &TemplateArg| match arg {
        TemplateArg::Dtype(d) => matches!(d, Dtype::F32 | Dtype::U32 | Dtype::I32),
        _ => true,
    };
    library
        .specs_of(primitive)
        .into_iter()
        .rfind(|s| s.args.iter().all(narrow))
        .expect("every op has a 32-bit spec")
}

/// A compute shader that calls `spec` once.
fn shader(spec: &InstanceSpec, primitive: &Primitive, library: &Library) -> String {
    let instance = library.resolve(spec).expect("valid spec");
    let t = instance.dtype.map_or("u32", |d| d.wgsl());
    let v = instance.value_dtype.map_or("u32", |d| d.wgsl());
    let args: Vec<String> = primitive
        .args
        .iter()
        .map(|a| match a {
            Arg::Value | Arg::Key | Arg::Identity | Arg::OobDefault => format!("{t}()"),
            Arg::PairValue => format!("{v}()"),
            Arg::Predicate => "true".into(),
            Arg::Delta | Arg::Mask | Arg::NonZero => "1u".into(),
            Arg::Items => "&items".into(),
            Arg::Ranks => "&ranks".into(),
            Arg::Keys => "&keys".into(),
            Arg::Samples => "&samples".into(),
            Arg::Values => "&values".into(),
            Arg::EndBit => "32u".into(),
            Arg::Flags | Arg::HeadFlags => "&flags".into(),
            Arg::TailFlags => "&tail_flags".into(),
            Arg::TilePredecessor | Arg::TileSuccessor => format!("{t}()"),
            Arg::HasTilePredecessor | Arg::HasTileSuccessor => "true".into(),
            Arg::Distance => "-1i".into(),
            _ => "0u".into(),
        })
        .collect();
    let alias = if primitive.namespace == Namespace::Block {
        "blk"
    } else {
        "sg"
    };
    let call = format!(
        "{alias}::{}<{}>({})",
        primitive.name,
        spec_args(spec),
        args.join(", ")
    );
    let call = call.replace("<>", "");
    let statement = if primitive.ret == Ret::Nothing {
        format!("{call};")
    } else {
        format!("_ = {call};")
    };
    let workgroup = instance.block_dim.unwrap_or(64);
    // Per-thread item arrays, for the ops that take them.
    let locals = if primitive.args.contains(&Arg::Items) {
        let n = instance.constant("items");
        format!(
            "var items: array<{t}, {n}>;\n    var ranks: array<u32, {n}>;\n    \
             var flags: array<u32, {n}>;\n    var tail_flags: array<u32, {n}>;\n    "
        )
    } else if primitive.args.contains(&Arg::Keys) {
        let n = instance.constant("items");
        format!("var keys: array<{t}, {n}>;\n    var values: array<{v}, {n}>;\n    ")
    } else if primitive.args.contains(&Arg::Samples) {
        let n = instance.constant("items");
        format!("var samples: array<u32, {n}>;\n    ")
    } else {
        String::new()
    };
    format!(
        "#import wavekit::subgroup as sg
#import wavekit::block as blk
@group(0) @binding(0) var<storage, read_write> user_array: array<f32>;
@group(0) @binding(1) var<storage, read_write> user_vectors: array<vec4<f32>>;
var<workgroup> user_bins: array<atomic<u32>, 3>;
fn user_op(a: f32, b: f32) -> f32 {{ return max(a, b); }}
fn user_differ(a: f32, b: f32) -> bool {{ return a < b; }}
@compute @workgroup_size({workgroup})
fn main() {{
    {locals}{statement}
}}
"
    )
}

fn spec_args(spec: &InstanceSpec) -> String {
    spec.args
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

#[test]
fn every_op_emits_in_every_language() {
    let scratch = std::env::temp_dir().join(format!("wavekit-emit-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let mut checked = 0;
    for size in [8u32, 32, 64] {
        let target = Target::new(Backend::Vulkan, SubgroupSize::fixed(size).unwrap());
        let library = Library::new(target.clone());
        let composer = Composer::new(target);
        for primitive in wavekit::catalog::primitives() {
            let spec = spec_for(&library, primitive, size);
            let source = shader(&spec, primitive, &library);
            let composed = composer
                .compose(&source, "op.wgsl")
                .unwrap_or_else(|e| panic!("{spec} at S = {size}: {e}\n{source}"));
            for language in Language::ALL {
                // naga 30's GLSL writer has no 64-bit integers: a clear error.
                if language == Language::Glsl && primitive.needs.is_some() {
                    let error = emit(&composed.module, language, None).unwrap_err();
                    assert!(error.to_string().contains("unsupported width"), "{error}");
                    continue;
                }
                let out = emit(&composed.module, language, None)
                    .unwrap_or_else(|e| panic!("{spec} at S = {size}: {e}"));
                if let Emitted::Binary(_) = out {
                    let path = scratch.join(format!("{}-{size}.spv", primitive.name));
                    std::fs::write(&path, out.to_bytes()).unwrap();
                    let val = Command::new("spirv-val")
                        .args(["--target-env", "vulkan1.1"])
                        .arg(&path)
                        .output()
                        .expect("spirv-val (Debian spirv-tools, installed by scripts/setup)");
                    assert!(
                        val.status.success(),
                        "{spec} at S = {size}: {}",
                        String::from_utf8_lossy(&val.stderr)
                    );
                }
            }
            checked += 1;
        }
    }
    std::fs::remove_dir_all(&scratch).ok();
    assert!(checked > 3 * 100, "only {checked} ops checked");
}
