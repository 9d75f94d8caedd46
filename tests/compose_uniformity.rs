//! Primitives called under non-uniform control flow: a spanned warning in
//! the composition, an error when warnings are denied, and none where the
//! control flow is uniform.

use wavekit::compose::Composer;
use wavekit::{Backend, SubgroupSize, Target};

fn composer() -> Composer {
    Composer::new(Target::new(
        Backend::Vulkan,
        SubgroupSize::fixed(32).unwrap(),
    ))
}

const HEADER: &str = "#import wavekit::subgroup as sg
struct Params { n: u32 }
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@group(0) @binding(1) var<uniform> params: Params;
";

fn warnings(body: &str) -> Vec<String> {
    let source = format!("{HEADER}{body}");
    composer()
        .compose(&source, "user.wgsl")
        .unwrap_or_else(|e| panic!("{e}"))
        .warnings
}

#[test]
fn a_call_under_a_non_uniform_if_is_a_spanned_warning() {
    let body = "@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x < 3u) {
        data[id.x] = sg::reduce_all_add<u32>(data[id.x]);
    }
}
";
    let found = warnings(body);
    assert_eq!(found.len(), 1, "{found:?}");
    let text = &found[0];
    assert!(
        text.starts_with("warning: `sg::reduce_all_add<u32>` is called under control flow"),
        "{text}"
    );
    assert!(text.contains("`id.x < 3u` at 7:9"), "{text}");
    assert!(text.contains("user.wgsl:8:22"), "{text}");
}

#[test]
fn denied_warnings_are_errors() {
    let source = format!(
        "{HEADER}@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {{
    if (id.x < 3u) {{
        data[id.x] = sg::reduce_all_add<u32>(data[id.x]);
    }}
}}
"
    );
    let error = composer()
        .deny_warnings(true)
        .compose(&source, "user.wgsl")
        .expect_err("denied");
    let text = error.to_string();
    assert!(
        text.starts_with("error: `sg::reduce_all_add<u32>`"),
        "{text}"
    );
    assert!(text.contains("(a warning, denied)"), "{text}");
    assert!(text.contains("user.wgsl:8:22"), "{text}");
}

#[test]
fn uniform_control_flow_is_quiet() {
    let body = "@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(workgroup_id) group: vec3<u32>) {
    var x = data[id.x];
    x = sg::reduce_all_add<u32>(x);
    if (params.n > 3u) {
        x = sg::reduce_all_max<u32>(x);
    }
    if (group.x == 0u) {
        x = sg::reduce_all_min<u32>(x);
    }
    for (var i = 0u; i < 4u; i++) {
        x = sg::reduce_all_add<u32>(x + i);
    }
    data[id.x] = x;
}
";
    assert_eq!(warnings(body), Vec::<String>::new());
}

#[test]
fn an_early_non_uniform_return_makes_the_rest_non_uniform() {
    let body = "@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x >= arrayLength(&data)) {
        return;
    }
    data[id.x] = sg::reduce_all_add<u32>(data[id.x]);
}
";
    let found = warnings(body);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("user.wgsl:10:18"), "{}", found[0]);
}

#[test]
fn a_helper_called_under_a_non_uniform_condition_is_followed() {
    let body = "fn total(x: u32) -> u32 {
    return sg::reduce_all_add<u32>(x);
}
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    var x = data[id.x];
    switch (x % 3u) {
        case 0u: { x = total(x); }
        default: {}
    }
    data[id.x] = x;
}
";
    let found = warnings(body);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("user.wgsl:6:12"), "{}", found[0]);
    assert!(found[0].contains("`x % 3u`"), "{}", found[0]);
}

#[test]
fn a_non_uniform_break_makes_the_loop_non_uniform() {
    let body = "@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    var x = data[id.x];
    for (var i = 0u; i < 8u; i++) {
        x = sg::reduce_all_add<u32>(x);
        if (x > id.x) { break; }
    }
    data[id.x] = x;
}
";
    let found = warnings(body);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("user.wgsl:9:13"), "{}", found[0]);
}

#[test]
fn a_subgroup_uniform_condition_is_quiet_and_a_tainted_local_is_not() {
    let body = "@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    var x = data[id.x];
    if (sg::all_true(x > 1u)) {
        x = sg::reduce_all_add<u32>(x);
    }
    var limit = 4u;
    limit = limit + id.x;
    if (limit > 8u) {
        x = sg::reduce_all_max<u32>(x);
    }
    data[id.x] = x;
}
";
    let found = warnings(body);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("user.wgsl:14:13"), "{}", found[0]);
    assert!(found[0].contains("`limit > 8u`"), "{}", found[0]);
}

/// Shared subexpressions are classified once: a chain of `let`s that each
/// use the previous one twice stays linear.
#[test]
fn long_let_chains_are_quick() {
    let mut body = String::from(
        "@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let a0 = data[id.x];
",
    );
    for i in 1..64 {
        body.push_str(&format!(
            "    let a{i} = a{} ^ (a{} >> 1u);\n",
            i - 1,
            i - 1
        ));
    }
    body.push_str(
        "    if (a63 > 1u) {\n        data[id.x] = sg::reduce_all_add<u32>(a63);\n    }\n}\n",
    );
    let started = std::time::Instant::now();
    assert_eq!(warnings(&body).len(), 1);
    assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
}

#[test]
fn per_lane_values_need_no_uniform_control_flow() {
    let body = "@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x < 3u) {
        data[id.x] = sg::group_size() + sg::invocation_id() + u32(sg::elect());
    }
}
";
    assert_eq!(warnings(body), Vec::<String>::new());
}

/// A helper's result is as uniform as what it returns: a tile number that
/// thread 0 takes and every thread reads by `workgroupUniformLoad` is
/// uniform whatever argument the helper gets (the device shaders' form);
/// a value derived from a per-thread argument, or one returned under a
/// non-uniform condition, is not.
#[test]
fn a_helpers_result_is_as_uniform_as_what_it_returns() {
    let shared = "var<workgroup> shared_tile: u32;
fn next_tile(t: u32) -> u32 {
    if t == 0u {
        shared_tile = data[0] + 1u;
    }
    return workgroupUniformLoad(&shared_tile);
}
fn plus(t: u32) -> u32 {
    return t + params.n;
}
fn early(t: u32) -> u32 {
    if t == 0u {
        return 1u;
    }
    return 2u;
}
";
    let call = |helper: &str| {
        format!(
            "{shared}@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) t: u32) {{
    let tile = {helper}(t);
    if tile >= params.n {{
        return;
    }}
    data[t] = sg::reduce_all_add<u32>(data[t]);
}}
"
        )
    };
    assert_eq!(warnings(&call("next_tile")), Vec::<String>::new());
    for helper in ["plus", "early"] {
        let found = warnings(&call(helper));
        assert_eq!(found.len(), 1, "{helper}: {found:?}");
        assert!(
            found[0].contains("`tile >= params.n`"),
            "{helper}: {}",
            found[0]
        );
    }
}
