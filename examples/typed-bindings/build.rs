//! Composes the demos' `normalise.wgsl` (`demos/shaders/`, which the browser
//! demo runs too) with wavekit for any subgroup size from 4 to 128 and
//! generates its typed wgpu bindings.

use wavekit::{Backend, SubgroupSize, Target};

fn main() {
    let target = Target::new(
        Backend::Vulkan,
        SubgroupSize::range(4, 128).expect("valid range"),
    );
    if let Err(error) = wavekit::emit::build::shader("../../demos/shaders/normalise.wgsl", &target)
    {
        panic!("{error}");
    }
}
