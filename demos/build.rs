//! Composes the demo shaders with wavekit for any subgroup size from 4 to
//! 128 and generates their typed wgpu bindings.

use wavekit::{Backend, SubgroupSize, Target};

fn main() {
    let target = Target::new(
        Backend::Vulkan,
        SubgroupSize::range(4, 128).expect("valid range"),
    );
    if let Err(error) = wavekit::emit::build::shader("shaders/normalise.wgsl", &target) {
        panic!("{error}");
    }
}
