//! A module remembers the target it was expanded for: a device that runs
//! other subgroup sizes refuses it with an error naming both (on lavapipe,
//! a module for twice the adapter's subgroup size; the same module composed
//! for the adapter's own target builds).

use wavekit::compose::Composer;
use wavekit::runner::{AdapterChoice, Gpu};
use wavekit::{Error, SubgroupSize, Target};

const SHADER: &str = r#"
#import wavekit::subgroup as sg
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    data[id.x] = sg::reduce_add<u32>(data[id.x]);
}
"#;

#[test]
fn a_module_for_another_subgroup_size_is_refused() {
    let gpu = Gpu::open(&AdapterChoice::named("llvmpipe")).expect("lavapipe");
    let device = gpu.target().subgroup_size;
    let size = device.exact().expect("lavapipe runs one subgroup size");
    let other = SubgroupSize::fixed(if size < SubgroupSize::MAX {
        2 * size
    } else {
        size / 2
    })
    .expect("a valid size");
    let mut target: Target = gpu.target().clone();
    target.subgroup_size = other;
    let foreign = Composer::new(target)
        .compose(SHADER, "shader.wgsl")
        .expect("composes for the other size");
    assert_eq!(foreign.module.target.subgroup_size, other);
    let error = match gpu.kernel(&foreign.module, "main") {
        Ok(_) => panic!("a module for {other} lanes built on a {size}-lane adapter"),
        Err(e) => e,
    };
    assert!(
        matches!(&error, Error::SubgroupSizeMismatch { module, device: d } if *module == other.to_string() && *d == device.to_string()),
        "{error}"
    );
    let message = error.to_string();
    assert!(
        message.contains(&format!("subgroup size {other}"))
            && message.contains(&format!("subgroups of {size}")),
        "{message}"
    );
    let own = Composer::new(gpu.target().clone())
        .compose(SHADER, "shader.wgsl")
        .expect("composes for the adapter");
    gpu.kernel(&own.module, "main")
        .expect("the adapter's own module builds");
}
