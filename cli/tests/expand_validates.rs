//! Every catalog op, at every dtype, log2_size and lowering, expands to WGSL
//! that naga validates, for every subgroup size wavekit supports.

use wavekit::catalog::{Family, Param};
use wavekit::{
    Backend, Dtype, InstanceSpec, Library, Lowering, Strategy, SubgroupSize, Target, TemplateArg,
};

#[test]
fn every_instance_validates_for_every_subgroup_size() {
    for size in [4u32, 8, 16, 32, 64, 128] {
        for lowering in Lowering::ALL {
            let target = Target::new(Backend::Vulkan, SubgroupSize::fixed(size).unwrap())
                .with_strategy(Strategy::uniform(lowering));
            let library = Library::new(target);
            let specs = library.all_specs();
            assert!(specs.len() > 100, "catalog too small: {}", specs.len());
            let expansion = library.expand(&specs).unwrap();
            assert_eq!(
                expansion
                    .instances()
                    .iter()
                    .filter(|i| specs.contains(&i.spec()))
                    .count(),
                specs.len()
            );
            if let Err(e) = expansion.module() {
                panic!("S = {size}, {lowering}: {e}");
            }
        }
    }
}

#[test]
fn size_range_targets_validate() {
    for (min, max) in [(4u32, 128u32), (8, 32), (32, 64)] {
        for lowering in Lowering::ALL {
            let target = Target::new(Backend::Vulkan, SubgroupSize::range(min, max).unwrap())
                .with_strategy(Strategy::uniform(lowering));
            let library = Library::new(target);
            let expansion = library.expand(&library.all_specs()).unwrap();
            let wgsl = expansion.wgsl();
            if let Err(e) = expansion.module() {
                panic!("S = {min}..={max}, {lowering}: {e}");
            }
            // Full-subgroup ops on a size range may not hard-code a size.
            assert!(wgsl.contains("return wk_sg_size;"));
        }
    }
}

/// What `wavekit expand` prints, for every op under every lowering at two
/// of the six sizes (op `i` at sizes `i % 3` and `i % 3 + 3` of the list:
/// every size prints a third of the ops), parses and validates in naga (the
/// command validates too; this checks the printed text itself). Every
/// instance at every size is validated in process above; each `wavekit`
/// process costs about 35 ms of loading (libLLVM's relocations), so the
/// command runs 720 times, not 2160 (`make test` on 2 cores).
#[test]
fn cli_expand_output_validates() {
    use std::process::Command;
    for (s, size) in [4u32, 8, 16, 32, 64, 128].into_iter().enumerate() {
        for lowering in Lowering::ALL {
            let target = Target::new(Backend::Vulkan, SubgroupSize::fixed(size).unwrap())
                .with_strategy(Strategy::uniform(lowering));
            let library = Library::new(target.clone());
            for (i, primitive) in wavekit::catalog::primitives().enumerate() {
                if i % 3 != s % 3 {
                    continue;
                }
                // The last spec has the largest log2_size / count and the widest
                // dtype; a generic operator gets a function of ours, appended
                // to the printed WGSL before validation; a block load or store an
                // array of ours, likewise.
                let generic = primitive.params.contains(&Param::Function);
                let vectors = primitive.params.contains(&Param::VectorArray);
                let array = vectors || primitive.params.contains(&Param::Array);
                let spec = if generic || array {
                    let args = primitive.params.iter().map(|p| match p {
                        Param::Dtype => TemplateArg::Dtype(Dtype::F32),
                        Param::ValueDtype => TemplateArg::Dtype(Dtype::U32),
                        // A tiled subgroup load's widest tile; a merge
                        // sort's at most 8 lanes (its tiles' register limit).
                        Param::Log2Size if primitive.name.contains("merge_sort") => {
                            TemplateArg::from(size.trailing_zeros().min(3))
                        }
                        Param::Log2Size => TemplateArg::from(size.trailing_zeros()),
                        Param::BlockDim => TemplateArg::from(2 * size),
                        Param::Function => TemplateArg::Name("user_op".into()),
                        Param::Array | Param::VectorArray => TemplateArg::Name("user_array".into()),
                        // 3 items, or the fewest a vectorized row takes (4).
                        Param::Const { min, .. } => TemplateArg::from(3u32.max(*min)),
                        _ => TemplateArg::from(3u32),
                    });
                    InstanceSpec::new(primitive.qualified_name(), args.collect::<Vec<_>>())
                } else {
                    library
                        .specs_of(primitive)
                        .pop()
                        .expect("every op has a spec")
                };
                let out = Command::new(env!("CARGO_BIN_EXE_wavekit"))
                    .args([
                        "expand",
                        &spec.to_string(),
                        "--subgroup-size",
                        &size.to_string(),
                    ])
                    .args(["--lowering", lowering.name()])
                    .output()
                    .expect("wavekit runs");
                let stderr = String::from_utf8_lossy(&out.stderr);
                assert!(out.status.success(), "{spec} at S = {size}: {stderr}");
                let mut wgsl = String::from_utf8(out.stdout).expect("utf-8");
                if let Some(signature) = primitive.function_signature() {
                    assert!(wgsl.contains("not validated alone"), "{spec}: {wgsl}");
                    let body = if signature.ends_with("bool") {
                        "fn user_op(a: f32, b: f32) -> bool { return a < b; }\n"
                    } else {
                        "fn user_op(a: f32, b: f32) -> f32 { return max(a, b); }\n"
                    };
                    wgsl.push_str(body);
                }
                if array {
                    assert!(wgsl.contains("not validated alone"), "{spec}: {wgsl}");
                    // A histogram's counters (3 bins), or a load's buffer
                    // (of vectors for a vectorized one).
                    wgsl.push_str(if primitive.family == Family::BlockHistogram {
                        "var<workgroup> user_array: array<atomic<u32>, 3>;\n"
                    } else if vectors {
                        "@group(0) @binding(0) var<storage, read_write> user_array: \
                         array<vec4<f32>>;\n"
                    } else {
                        "@group(0) @binding(0) var<storage, read_write> user_array: array<f32>;\n"
                    });
                }
                if let Err(e) = wavekit::expand::validate_wgsl(&wgsl, "expand.wgsl", &target) {
                    panic!("{spec} at S = {size}, {lowering}: {e}");
                }
            }
        }
    }
}
