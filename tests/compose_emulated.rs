//! Emulated subgroups in the composer: the emitted WGSL has no subgroup
//! feature, and the emulation's contract (whole-workgroup uniform calls, a
//! workgroup a multiple of S) is a spanned compile error where it is broken.

use wavekit::compose::Composer;
use wavekit::{Backend, SubgroupChoice, Target};

fn composer(size: u32) -> Composer {
    Composer::new(Target::emulated(Backend::Vulkan, size).unwrap())
}

fn shader(workgroup: &str, body: &str) -> String {
    format!(
        "#import wavekit::subgroup as sg
#import wavekit::block as blk
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@compute @workgroup_size({workgroup})
fn main(@builtin(global_invocation_id) id: vec3<u32>) {{
{body}
}}
"
    )
}

fn error(size: u32, source: &str) -> String {
    composer(size)
        .compose(source, "user.wgsl")
        .expect_err("the shader breaks the emulation's contract")
        .to_string()
}

#[test]
fn emulated_composition_uses_no_subgroup_feature() {
    let source = shader(
        "64",
        "    let lane = sg::invocation_id();
    let x = sg::reduce_all_add<f32>(f32(data[id.x]));
    let b = sg::ballot(lane < 3u);
    let s = sg::exclusive_add<u64>(u64(data[id.x]));
    let t = blk::reduce_add<u32, 64>(data[id.x]);
    data[id.x] = u32(x) + b.x + u32(s) + t + sg::shuffle_xor<u32>(lane, 1u);",
    );
    let composed = composer(32).compose(&source, "user.wgsl").unwrap();
    for word in [
        "enable subgroups",
        "subgroup_invocation_id",
        "subgroupShuffle",
        "subgroupBallot",
        "subgroupExclusiveAdd",
        "subgroupAdd",
    ] {
        assert!(
            !composed.wgsl.contains(word),
            "{word} left in:\n{}",
            composed.wgsl
        );
    }
    assert!(composed.wgsl.contains("workgroupBarrier()"));
    // The module validated without naga's subgroup capabilities.
    assert!(composed.module.target.is_emulated());
}

#[test]
fn workgroup_not_a_multiple_of_s_is_an_error_at_workgroup_size() {
    let text = error(
        32,
        &shader("48", "    data[id.x] = sg::reduce_add<u32>(data[id.x]);"),
    );
    assert!(
        text.contains("48 invocations are not a multiple of S = 32"),
        "{text}"
    );
    assert!(text.contains("user.wgsl:4:10"), "{text}");
}

#[test]
fn workgroup_larger_than_the_scratch_is_an_error() {
    let text = error(
        32,
        &shader("512", "    data[id.x] = sg::reduce_add<u32>(data[id.x]);"),
    );
    assert!(text.contains("more than 256"), "{text}");
    assert!(text.contains("user.wgsl:4:10"), "{text}");
}

#[test]
fn call_under_a_lane_condition_is_an_error_at_the_call() {
    let text = error(
        8,
        &shader(
            "64",
            "    let lane = sg::invocation_id();
    if (lane < 3u) {
        data[id.x] = sg::reduce_add<u32>(data[id.x]);
    }",
        ),
    );
    assert!(
        text.contains("non-uniform") || text.contains("whole workgroup"),
        "{text}"
    );
    assert!(text.contains("`lane < 3u`"), "{text}");
    assert!(text.contains("user.wgsl:8:22"), "{text}");
}

#[test]
fn call_in_uniform_control_flow_composes() {
    let source = shader(
        "64",
        "    var total = 0u;
    for (var i = 0u; i < 4u; i = i + 1u) {
        total = total + sg::reduce_add<u32>(data[id.x] + i);
    }
    data[id.x] = total;",
    );
    composer(16).compose(&source, "user.wgsl").unwrap();
}

#[test]
fn bad_emulated_sizes_are_clear_errors() {
    for bad in ["emulated:3", "emulated:256", "emulated:x", "emulate"] {
        let error = bad.parse::<SubgroupChoice>().unwrap_err().to_string();
        assert!(error.contains(bad), "{error}");
    }
    assert_eq!(
        "emulated".parse::<SubgroupChoice>().unwrap(),
        SubgroupChoice::Emulated(32)
    );
    assert!(Target::emulated(Backend::Vulkan, 12).is_err());
}

/// Only entry points that reach an emulated primitive need a workgroup of a
/// multiple of S: a one-invocation initialisation kernel beside them keeps
/// its size (the reduce demo's `identity_*` kernels).
#[test]
fn entry_points_without_primitives_keep_any_workgroup_size() {
    let source = format!(
        "{}
@compute @workgroup_size(1)
fn init() {{
    data[0] = 0u;
}}
",
        shader("64", "    data[id.x] = sg::reduce_add<u32>(data[id.x]);")
    );
    composer(32).compose(&source, "user.wgsl").unwrap();
    // The one that calls a primitive is still checked.
    let text = error(
        32,
        &format!(
            "{}
@compute @workgroup_size(1)
fn init() {{
    data[0] = sg::reduce_add<u32>(data[0]);
}}
",
            shader("64", "    data[id.x] = 1u;")
        ),
    );
    assert!(text.contains("`init`"), "{text}");
    assert!(
        text.contains("1 invocations are not a multiple of S = 32"),
        "{text}"
    );
}

/// An entry point that takes subgroup builtins itself composes on emulated
/// subgroups: its body moves to `wk_em_entry_main`, and the entry point
/// derives the builtins from `local_invocation_index` (the contact-sort
/// demo takes `subgroup_id`, `subgroup_invocation_id` and `subgroup_size`).
#[test]
fn subgroup_builtin_arguments_are_emulated() {
    let source = "#import wavekit::subgroup as sg
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(subgroup_id) subgroup: u32, @builtin(subgroup_invocation_id) lane: u32,
        @builtin(subgroup_size) size: u32, @builtin(num_subgroups) count: u32) {
    let p = subgroup * size + lane;
    data[p] = sg::reduce_add<u32>(data[p]) + count;
}
";
    let module = composer(16).compose(source, "user.wgsl").unwrap().module;
    let entry = &module.module.entry_points[0];
    assert_eq!(entry.name, "main");
    assert!(
        entry.function.arguments.iter().all(|a| !matches!(
            a.binding,
            Some(naga::Binding::BuiltIn(
                naga::BuiltIn::SubgroupId
                    | naga::BuiltIn::SubgroupInvocationId
                    | naga::BuiltIn::SubgroupSize
                    | naga::BuiltIn::NumSubgroups
            ))
        )),
        "{:?}",
        entry.function.arguments
    );
    assert!(
        module
            .module
            .functions
            .iter()
            .any(|(_, f)| f.name.as_deref() == Some("wk_em_entry_main"))
    );
}
