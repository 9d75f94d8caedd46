//! Bad shaders give one clear diagnostic that points at the user's line and
//! column, never a panic.

use wavekit::compose::Composer;
use wavekit::{Backend, ScalarFeatures, SubgroupSize, Target};

fn composer() -> Composer {
    Composer::new(Target::new(
        Backend::Vulkan,
        SubgroupSize::fixed(32).unwrap(),
    ))
}

const HEADER: &str = "#import wavekit::subgroup as sg
#import wavekit::block as blk
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
";

/// Composes HEADER + `body` + `}` and checks the error's headline and
/// `file:line:column`.
fn assert_error(composer: &Composer, body: &str, headline: &str, location: &str) {
    let source = format!("{HEADER}{body}\n}}\n");
    let error = composer
        .compose(&source, "user.wgsl")
        .expect_err("the shader is bad");
    let text = error.to_string();
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.contains(headline),
        "headline {first:?} lacks {headline:?}:\n{text}"
    );
    assert!(text.contains(location), "{text}\nlacks location {location}");
}

#[test]
fn unknown_op_points_at_its_name() {
    assert_error(
        &composer(),
        "    data[id.x] = sg::reduce_ad<u32>(data[id.x]);",
        "unknown op `reduce_ad` (did you mean `reduce_add`?)",
        "user.wgsl:6:22",
    );
}

#[test]
fn missing_import() {
    assert_error(
        &composer(),
        "    data[id.x] = warp::ballot(true).x;",
        "`warp::` names no import",
        "user.wgsl:6:18",
    );
}

#[test]
fn wrong_template_arity() {
    assert_error(
        &composer(),
        "    data[id.x] = sg::reduce_add<u32, 3>(data[id.x]);",
        "`reduce_add` takes 1 template argument(s), got 2",
        "user.wgsl:6:18",
    );
}

#[test]
fn non_constant_log2_size() {
    assert_error(
        &composer(),
        "    let n = 3u;\n    data[id.x] = sg::reduce_add_tiled<u32, n>(data[id.x]);",
        "template argument 2 must be an integer log2_size, got `n`",
        "user.wgsl:7:18",
    );
}

#[test]
fn log2_size_beyond_the_subgroup() {
    assert_error(
        &composer(),
        "    data[id.x] = sg::inclusive_add_tiled<u32, 6>(data[id.x]);",
        "log2_size 6 is out of range 0..=5",
        "user.wgsl:6:18",
    );
}

#[test]
fn dtype_missing_on_target() {
    let target = Target::new(Backend::Vulkan, SubgroupSize::fixed(32).unwrap()).with_scalars(
        ScalarFeatures {
            f16: false,
            int64: true,
            f64: true,
        },
    );
    assert_error(
        &Composer::new(target),
        "    let x = sg::shuffle<f16>(1.0h, 0u);",
        "`shuffle<f16>` needs shader-f16",
        "user.wgsl:6:13",
    );
}

#[test]
fn dtype_not_allowed_for_op() {
    assert_error(
        &composer(),
        "    let x = sg::reduce_xor<f32>(1.0);",
        "`reduce_xor` is not defined for f32",
        "user.wgsl:6:13",
    );
}

#[test]
fn malformed_template_argument() {
    assert_error(
        &composer(),
        "    data[id.x] = sg::reduce_add_tiled<u32, 2.5>(data[id.x]);",
        "`2.5` is not a template argument",
        "user.wgsl:6:44",
    );
}

#[test]
fn op_that_is_not_called() {
    assert_error(
        &composer(),
        "    let f = sg::ballot;",
        "`sg::ballot` must be called",
        "user.wgsl:6:13",
    );
}

#[test]
fn unclosed_template_list() {
    assert_error(
        &composer(),
        "    let x = sg::shuffle<u32(1u, 0u);",
        "unclosed template argument list",
        "user.wgsl:6:13",
    );
}

#[test]
fn block_dim_not_a_multiple_of_the_subgroup() {
    assert_error(
        &composer(),
        "    data[id.x] = blk::reduce_add<u32, 48>(data[id.x]);",
        "block_dim 48 is not a multiple of the subgroup size 32",
        "user.wgsl:6:18",
    );
}

#[test]
fn block_exchange_tile_over_16_kib() {
    assert_error(
        &composer(),
        "    var items: array<u32, 64>;\n    blk::blocked_to_striped<u32, 128, 64>(&items);",
        "needs 32768 bytes of workgroup memory, over the 16384 every WebGPU device offers",
        "user.wgsl:7:5",
    );
}

#[test]
fn unknown_module_import() {
    let source = "#import wavekit::warp as g\n@compute @workgroup_size(1)\nfn main() {}\n";
    let text = composer()
        .compose(source, "user.wgsl")
        .unwrap_err()
        .to_string();
    assert!(
        text.starts_with("error: unknown module `wavekit::warp`"),
        "{text}"
    );
    assert!(text.contains("user.wgsl:1:1"), "{text}");
}

#[test]
fn malformed_import() {
    let source = "#import wavekit::subgroup sg\n@compute @workgroup_size(1)\nfn main() {}\n";
    let text = composer()
        .compose(source, "user.wgsl")
        .unwrap_err()
        .to_string();
    assert!(text.starts_with("error: malformed import"), "{text}");
    assert!(text.contains("user.wgsl:1:1"), "{text}");
}

/// naga's own errors on user code keep the user's line and column, before
/// and after an import and a rewritten call on the same line.
#[test]
fn syntax_error_before_an_import() {
    let source = "fn broken( {\n#import wavekit::subgroup as sg\n";
    let text = composer()
        .compose(source, "user.wgsl")
        .unwrap_err()
        .to_string();
    assert!(text.contains("user.wgsl:1:"), "{text}");
    assert!(
        text.contains("fn broken( {"),
        "the user's own line is shown: {text}"
    );
}

#[test]
fn syntax_error_after_a_call_on_the_same_line() {
    assert_error(
        &composer(),
        "    let x = sg::reduce_all_add<u32>(data[id.x]) + ;",
        "expected expression",
        "user.wgsl:6:51",
    );
}

#[test]
fn type_error_in_user_code_after_an_import() {
    let source = format!("{HEADER}    let x: f32 = sg::reduce_all_add<u32>(data[id.x]);\n}}\n");
    let text = composer()
        .compose(&source, "user.wgsl")
        .unwrap_err()
        .to_string();
    // naga reports it against the user's own line, which shows the call as written.
    assert!(
        text.contains("sg::reduce_all_add<u32>(data[id.x])"),
        "{text}"
    );
}

/// A block op's `B` must be the workgroup's thread count: an error at the
/// call that names both numbers (issue 23).
#[test]
fn block_dim_differs_from_the_workgroup_size() {
    let source = format!("{HEADER}    data[id.x] = blk::reduce_add<u32, 256>(data[id.x]);\n}}\n");
    let text = composer()
        .compose(&source, "user.wgsl")
        .unwrap_err()
        .to_string();
    assert_eq!(
        text,
        "error: `blk::reduce_add<u32, 256>` is for a workgroup of B = 256 threads, but entry \
         point `main` with @workgroup_size(64) has 64 threads and calls it\n  \
         ┌─ user.wgsl:6:18\n  │\n6 │     data[id.x] = blk::reduce_add<u32, 256>(data[id.x]);\n  \
         │                  ^^^^^^^^^^^^^^^^^^^^^^^^^ B = 256, but `main` has 64 threads\n"
    );
}

const THROUGH_HELPERS: &str = "#import wavekit::block as blk
@group(0) @binding(0) var<storage, read_write> data: array<f32>;
fn total(x: f32) -> f32 {
    return blk::reduce_add<f32, 256>(x);
}
fn twice(x: f32) -> f32 {
    return total(x) * 2.0;
}
@compute @workgroup_size(256)
fn wide(@builtin(global_invocation_id) id: vec3<u32>) {
    data[id.x] = twice(data[id.x]);
}
@compute @workgroup_size(WORKGROUP)
fn other(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x < 4u) {
        data[id.x] = twice(data[id.x]);
    }
}
";

/// Every entry point that reaches a block call through helper functions is
/// checked; the error names the one whose size differs and the chain of calls.
#[test]
fn block_dim_is_checked_through_helpers_for_every_entry_point() {
    let ok = THROUGH_HELPERS.replace("WORKGROUP", "256");
    composer()
        .compose(&ok, "user.wgsl")
        .expect("256 threads in both entry points");
    let bad = THROUGH_HELPERS.replace("WORKGROUP", "64");
    let text = composer()
        .compose(&bad, "user.wgsl")
        .unwrap_err()
        .to_string();
    let first = text.lines().next().unwrap();
    assert_eq!(
        first,
        "error: `blk::reduce_add<f32, 256>` is for a workgroup of B = 256 threads, but entry \
         point `other` with @workgroup_size(64) has 64 threads and calls it (through `twice` \
         → `total`)"
    );
    assert!(text.contains("user.wgsl:4:12"), "{text}");
    assert!(
        text.contains(&format!(
            "4 │     return blk::reduce_add<f32, 256>(x);\n  │            {} B = 256, but `other` has 64 threads",
            "^".repeat("blk::reduce_add<f32, 256>".len())
        )),
        "{text}"
    );
}

/// A mangled name called directly is checked the same way.
#[test]
fn block_dim_of_a_mangled_call_differs_from_the_workgroup_size() {
    assert_error(
        &composer(),
        "    data[id.x] = wk_blk_reduce_add__u32__128(data[id.x]);",
        "`wk_blk_reduce_add__u32__128` is for a workgroup of B = 128 threads, but entry point \
         `main` with @workgroup_size(64) has 64 threads",
        "user.wgsl:6:18",
    );
}

/// Found by `fuzz_compose`: a non-ASCII character in code made the scan for
/// mangled names slice inside it (a panic). WGSL allows such identifiers.
#[test]
fn non_ascii_identifiers_compose() {
    let source = "#import wavekit::subgroup as sg
@group(0) @binding(0) var<storage, read_write> data: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let café = data[id.x];
    data[id.x] = sg::reduce_all_add<f32>(café);
}
";
    composer()
        .compose(source, "user.wgsl")
        .unwrap_or_else(|e| panic!("{e}"));
}

/// A user function `F` (here a merge sort's comparator) that the shader
/// declares with other types, or not at all: an error at the call naming
/// the signature the op calls it by and the one declared, not naga's at a
/// line of the library.
#[test]
fn user_function_of_another_signature_is_an_error_at_the_call() {
    let sort = |f: &str| {
        format!(
            "    var keys = array<f32, 2>(1.0, 2.0);\n    \
             blk::merge_sort_keys<f32, 64, 2, {f}>(&keys, 128u, 0.0);\n}}\n\
             fn before(a: u32, b: u32) -> u32 {{\n    return a - b;"
        )
    };
    assert_error(
        &composer(),
        &sort("before"),
        "`block::merge_sort_keys` calls `before` as `fn before(a: f32, b: f32) -> bool` (T = \
         f32), but the shader declares `fn before(a: u32, b: u32) -> u32`",
        "user.wgsl:7:5",
    );
    assert_error(
        &composer(),
        &sort("nowhere"),
        "calls `nowhere` as `fn nowhere(a: f32, b: f32) -> bool` (T = f32), but the shader \
         declares no such function",
        "user.wgsl:7:5",
    );
}
