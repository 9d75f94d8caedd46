//! Fuzz target (a): the composer on arbitrary text, with and without
//! `#import` lines and generic calls. Any input gets a composed, validated
//! module or an error that prints; never a panic. The driver and how to run
//! it longer are in `fuzz/driver.rs`.

#[path = "fuzz/driver.rs"]
mod driver;

use wavekit::catalog;
use wavekit::compose::Composer;
use wavekit::{Backend, SubgroupSize, Target};

const DICTIONARY: &[&str] = &[
    "#import wavekit::subgroup as sg\n",
    "#import wavekit::block as blk\n",
    "#import wavekit::subgroup\n",
    "#import wavekit::nothing as x\n",
    "sg::",
    "blk::",
    "subgroup::",
    "<f32>",
    "<u32, 3>",
    "<i32, 256>",
    "<f16>",
    "<u64, 5>",
    "<f32, u32, 4>",
    "<>",
    "<<",
    "(x)",
    "(x, li)",
    "(x, 1u)",
    "sg::reduce_all_add<f32>(x)",
    "blk::reduce_add<u32, 64>(v, li)",
    "@compute @workgroup_size(64)\nfn k() {}\n",
    "@workgroup_size(7)",
    "fn f() { }\n",
    "if (x > 1.0) {",
    "}",
    "// comment\n",
    "/* block */",
    "\"",
    "\u{00e9}",
    "enable f16;\n",
];

fn composers() -> Vec<Composer> {
    let fixed = |backend, size| Target::new(backend, SubgroupSize::fixed(size).expect("size"));
    vec![
        Composer::new(fixed(Backend::Vulkan, 32)),
        Composer::new(Target::new(
            Backend::Vulkan,
            SubgroupSize::range(4, 64).expect("range"),
        )),
        Composer::new(fixed(Backend::WebGpu, 4)),
        Composer::new(fixed(Backend::Cuda, 32)),
    ]
}

/// A shader from a few lines of a call grammar: imports, an entry point
/// and calls of catalog ops with arbitrary template arguments.
fn generate(rng: &mut driver::Rng) -> Vec<u8> {
    let ops: Vec<&catalog::Primitive> = catalog::primitives().collect();
    let dtypes = [
        "f32",
        "u32",
        "i32",
        "f16",
        "u64",
        "i64",
        "f64",
        "bool",
        "vec2<f32>",
    ];
    let mut text = String::new();
    if !rng.one_in(8) {
        text.push_str("#import wavekit::subgroup as sg\n");
    }
    if !rng.one_in(3) {
        text.push_str("#import wavekit::block as blk\n");
    }
    text.push_str("@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n");
    let size = *rng.pick(&[1u32, 4, 32, 64, 100, 256, 1024]);
    text.push_str(&format!(
        "@compute @workgroup_size({size})\nfn main(@builtin(global_invocation_id) id: vec3<u32>, \
         @builtin(local_invocation_index) li: u32) {{\n    let x = f32(data[id.x]);\n    let v = data[id.x];\n"
    ));
    for i in 0..1 + rng.below(4) {
        let op = rng.pick(&ops);
        let prefix = match op.namespace {
            catalog::Namespace::Block => "blk",
            _ => "sg",
        };
        let mut args = Vec::new();
        for _ in 0..rng.below(4) {
            args.push(if rng.one_in(2) {
                rng.pick(&dtypes).to_string()
            } else {
                rng.pick(&[0u32, 1, 3, 5, 6, 8, 64, 256, 4096, 99999])
                    .to_string()
            });
        }
        let call_args = *rng.pick(&["x", "v", "x, li", "v, li", "v, 1u", "", "x, x, x"]);
        text.push_str(&format!(
            "    let r{i} = {prefix}::{}<{}>({call_args});\n",
            op.name,
            args.join(", ")
        ));
    }
    text.push_str("}\n");
    text.into_bytes()
}

#[test]
fn the_composer_never_panics() {
    let composers = composers();
    driver::fuzz(
        &driver::Target {
            name: "compose",
            corpus: concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fuzz/corpus/compose"),
            short_runs: 1500,
            dictionary: DICTIONARY,
            generate: Some(&generate),
        },
        |input| {
            let text = String::from_utf8_lossy(input);
            let composer = &composers[input.len() % composers.len()];
            match composer.compose(&text, "fuzz.wgsl") {
                Ok(composed) => {
                    let _ = composed.wgsl.len();
                }
                Err(error) => {
                    let message = error.to_string();
                    if message.trim().is_empty() {
                        return Err("an empty error message".into());
                    }
                }
            }
            Ok(())
        },
    );
}
