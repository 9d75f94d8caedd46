//! Fuzz target (b): expansion on arbitrary requests — op, dtype, `log2`,
//! block size, lowering and target (back end, subgroup size or range,
//! scalar types). Each request resolves and expands to WGSL that naga
//! validates, or is refused with an error; a request that resolves but
//! expands to invalid WGSL is a finding, and so is a panic. The driver and
//! how to run it longer are in `fuzz/driver.rs`.

#[path = "fuzz/driver.rs"]
mod driver;

use wavekit::catalog;
use wavekit::{
    Backend, InstanceSpec, Library, Lowering, ScalarFeatures, Strategy, SubgroupSize, Target,
    TemplateArg,
};

const BACKENDS: [Backend; 7] = [
    Backend::Vulkan,
    Backend::Metal,
    Backend::Dx12,
    Backend::Gl,
    Backend::WebGpu,
    Backend::Cuda,
    Backend::Hip,
];

const DICTIONARY: &[&str] = &[
    "<",
    ">",
    ", ",
    "f32",
    "u32",
    "i32",
    "f16",
    "u64",
    "i64",
    "f64",
    "bool",
    "block::",
    "subgroup::",
    "_tiled",
    "0",
    "1",
    "5",
    "6",
    "64",
    "256",
    "1024",
    "4294967296",
    "-1",
];

/// A request line: `op<args>` from the catalog with arbitrary arguments.
fn generate(rng: &mut driver::Rng) -> Vec<u8> {
    let ops: Vec<&catalog::Primitive> = catalog::primitives().collect();
    let op = rng.pick(&ops);
    let prefix = match op.namespace {
        catalog::Namespace::Block => "block::",
        _ => "",
    };
    let dtypes = ["f32", "u32", "i32", "f16", "u64", "i64", "f64", "bool", "x"];
    let mut args = Vec::new();
    for _ in 0..rng.below(4) {
        args.push(if rng.one_in(2) {
            rng.pick(&dtypes).to_string()
        } else {
            rng.pick(&[
                0u64,
                1,
                2,
                3,
                4,
                5,
                6,
                7,
                8,
                31,
                32,
                64,
                100,
                256,
                512,
                1024,
                1 << 32,
            ])
            .to_string()
        });
    }
    let mut text = format!("{prefix}{}", op.name);
    if !args.is_empty() || rng.one_in(2) {
        text.push_str(&format!("<{}>", args.join(", ")));
    }
    text.into_bytes()
}

/// The target an input's hash picks: any back end, a fixed size or a range
/// (not always a valid one), some scalar types, one lowering or the other.
fn target(seed: u64) -> Option<Target> {
    let mut rng = driver::Rng::new(seed);
    let sizes = [0u32, 1, 3, 4, 8, 16, 32, 64, 128, 256];
    let size = if rng.one_in(3) {
        SubgroupSize::range(*rng.pick(&sizes), *rng.pick(&sizes)).ok()?
    } else {
        SubgroupSize::fixed(*rng.pick(&sizes)).ok()?
    };
    let scalars = ScalarFeatures {
        f16: rng.one_in(2),
        int64: rng.one_in(2),
        f64: rng.one_in(2),
    };
    let lowering = *rng.pick(&Lowering::ALL);
    Some(
        Target::new(*rng.pick(&BACKENDS), size)
            .with_scalars(scalars)
            .with_strategy(Strategy::uniform(lowering)),
    )
}

fn hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ *b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

#[test]
fn expansion_never_panics_and_never_emits_invalid_wgsl() {
    driver::fuzz(
        &driver::Target {
            name: "expand",
            corpus: concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fuzz/corpus/expand"),
            short_runs: 2000,
            dictionary: DICTIONARY,
            generate: Some(&generate),
        },
        |input| {
            let Some(target) = target(hash(input)) else {
                return Ok(());
            };
            let request = String::from_utf8_lossy(input);
            let request = request.trim();
            // A generic op's function argument names a user function that
            // only the composer's input defines.
            if let Ok(spec) = request.parse::<InstanceSpec>()
                && spec.args.iter().any(|a| matches!(a, TemplateArg::Name(_)))
            {
                return Ok(());
            }
            let expansion = match Library::new(target.clone()).expand_strs(&[request]) {
                Ok(expansion) => expansion,
                Err(error) => {
                    let _ = error.to_string();
                    return Ok(());
                }
            };
            match expansion.module() {
                Ok(_) => Ok(()),
                Err(error) => Err(format!(
                    "`{request}` resolved for {target:?} but its WGSL does not validate: {error}"
                )),
            }
        },
    );
}

/// Found by this target: `f64` shuffles move the value as `u64` halves, so
/// an `f64` instance on a target with `f64` but no 64-bit integers expanded
/// to WGSL that does not validate. It is refused now, naming the feature.
#[test]
fn f64_without_int64_is_refused() {
    let target = Target::new(Backend::Dx12, SubgroupSize::fixed(32).expect("32")).with_scalars(
        ScalarFeatures {
            f16: false,
            int64: false,
            f64: true,
        },
    );
    let Err(error) = Library::new(target).expand_strs(&["reduce_add<f64>"]) else {
        panic!("reduce_add<f64> should be refused without int64");
    };
    let message = error.to_string();
    assert!(message.contains("shader-int64"), "{message}");
}
