//! `wavekit network`: prints the bitonic network that
//! `wavekit::device::FixedSegmentedSort` writes for segments held in grains
//! (`contact_sort.wgsl`'s `sort_grains`), for tools that compile the shader
//! as the library does (web/build.sh).

use std::process::ExitCode;

use clap::Args;
use wavekit::Error;

/// The network's segment and grain.
#[derive(Args, Debug)]
pub struct NetworkArgs {
    /// Elements per segment: 2, 4, 8, 16 or 32.
    #[arg(long)]
    pub segment: u32,
    /// Elements of a segment per thread: a power of two from 2 to the segment.
    #[arg(long, default_value_t = 4)]
    pub grain: u32,
}

/// Prints the network's WGSL, or the error naming a bad segment or grain.
pub fn run(args: &NetworkArgs) -> Result<ExitCode, Error> {
    println!(
        "{}",
        wavekit::device::shaders::grain_network(args.segment, args.grain)?
    );
    Ok(ExitCode::SUCCESS)
}
