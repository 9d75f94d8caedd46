//! The composer rewrites any number of calls: each call site becomes a name
//! of its own length, and the short forwarding names it makes for long
//! mangled names never collide (issue 23: from about 100 calls of one op,
//! `wk1xxxx…`-style names were defined twice).

use naga::{Block, Statement};
use wavekit::compose::Composer;
use wavekit::{Backend, SubgroupSize, Target};

fn composer() -> Composer {
    Composer::new(Target::new(
        Backend::Vulkan,
        SubgroupSize::fixed(32).unwrap(),
    ))
}

/// A shader that calls each of `calls` `repeat` times in a row in `main`.
fn shader(calls: &[&str], repeat: usize) -> String {
    let mut source = String::from(
        "#import wavekit::subgroup as sg
@group(0) @binding(0) var<storage, read_write> data: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    var x = data[id.x];
",
    );
    for _ in 0..repeat {
        for call in calls {
            source.push_str("    x = ");
            source.push_str(call);
            source.push_str("(x);\n");
        }
    }
    source.push_str("    data[id.x] = x;\n}\n");
    source
}

/// The names of the functions `block` calls, in order, nested blocks included.
fn callees(module: &naga::Module, block: &Block, out: &mut Vec<String>) {
    for statement in block.iter() {
        match statement {
            Statement::Call { function, .. } => {
                out.push(module.functions[*function].name.clone().unwrap_or_default());
            }
            Statement::Block(inner) => callees(module, inner, out),
            _ => {}
        }
    }
}

/// 10,000 calls of one op whose mangled name is longer than the call: all
/// compose, and all go through the one forwarder of that instance.
#[test]
fn ten_thousand_calls_of_one_op_compose() {
    let started = std::time::Instant::now();
    let composed = composer()
        .compose(&shader(&["sg::reduce_all_add<f32>"], 10_000), "many.wgsl")
        .expect("10,000 calls compose");
    eprintln!("10,000 calls composed in {:?}", started.elapsed());
    let module = &composed.module.module;
    let main = &module.entry_points[0].function;
    let mut called = Vec::new();
    callees(module, &main.body, &mut called);
    // The init call, then the 10,000 calls.
    assert_eq!(called.len(), 10_001, "{:?}", &called[..4]);
    assert_eq!(called[0], "wk_sg_init");
    let forwarder = &called[1];
    assert!(
        called[1..].iter().all(|name| name == forwarder),
        "every call goes through one forwarder"
    );
    assert_eq!(forwarder, "wk0");
    assert!(
        composed
            .wgsl
            .contains("fn wk0(value: f32) -> f32 {\n    return wk_sg_reduce_all_add__f32(value);"),
        "the forwarder calls the instance"
    );
    // Each call keeps its byte offset: the rewritten line is as long as the
    // user's line.
    let line = composed.wgsl.lines().nth(5).unwrap();
    assert_eq!(line, format!("    x = {:23}(x);", "wk0"));
}

/// Many distinct long instances, each called many times, get one forwarder
/// each, with distinct names.
#[test]
fn forwarders_of_distinct_instances_have_distinct_names() {
    let calls = [
        "sg::reduce_all_add<f32>",
        "sg::reduce_all_max<f32>",
        "sg::reduce_all_min<f32>",
        "sg::inclusive_add<f32>",
        "sg::exclusive_add<f32>",
        "sg::reduce_add_tiled<f32, 1>",
        "sg::reduce_add_tiled<f32, 2>",
        "sg::reduce_add_tiled<f32, 3>",
    ];
    let composed = composer()
        .compose(&shader(&calls, 200), "many.wgsl")
        .expect("1,600 calls of 8 instances compose");
    let module = &composed.module.module;
    let mut called = Vec::new();
    callees(module, &module.entry_points[0].function.body, &mut called);
    assert_eq!(called.len(), 1 + 8 * 200);
    let mut distinct: Vec<&String> = called[1..].iter().collect();
    distinct.sort();
    distinct.dedup();
    let forwarders = distinct.iter().filter(|n| !n.starts_with("wk_")).count();
    assert_eq!(distinct.len(), 8, "one callee per instance: {distinct:?}");
    assert!(forwarders >= 1, "{distinct:?}");
    for (n, call) in calls.iter().enumerate() {
        // The n-th call of the first round calls its own instance.
        assert_eq!(called[1 + n], called[1 + n + 8 * 199], "{call}");
    }
}
