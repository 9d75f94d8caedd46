//! `wavekit network`: prints the bitonic network that
//! `wavekit::device::FixedSegmentedSort` writes for segments held in grains
//! (`contact_sort.wgsl`'s `sort_grains`), or with `--segmented` the one
//! `wavekit::device::SegmentedSort` writes for its short segments
//! (`segmented_sort.wgsl`'s `sort_segment_grains`), for tools that compile
//! the shaders as the library does (web/build.sh, for the former).

use std::process::ExitCode;

use clap::Args;
use wavekit::Error;

/// Which network: FixedSegmentedSort's (a segment and grain) or
/// SegmentedSort's (a grain, and whether its stages are guarded).
#[derive(Args, Debug)]
pub struct NetworkArgs {
    /// Elements per segment (FixedSegmentedSort's network): 2, 4, 8, 16 or 32.
    #[arg(long, required_unless_present = "segmented")]
    pub segment: Option<u32>,
    /// Elements of a segment per thread: a power of two from 2 to the segment
    /// (default 4; with --segmented, 8).
    #[arg(long)]
    pub grain: Option<u32>,
    /// SegmentedSort's network for its segments of up to 64 elements, each in
    /// the fewest lanes that hold it.
    #[arg(long, conflicts_with = "segment")]
    pub segmented: bool,
    /// With --segmented: without the guards that let a subgroup skip the sizes
    /// past its widest segment, so every subgroup runs every stage (the
    /// library composes the guarded form, and on emulated subgroups the
    /// shader's loops instead).
    #[arg(long, requires = "segmented")]
    pub emulated: bool,
}

/// Prints the network's WGSL, or the error naming a bad segment or grain.
pub fn run(args: &NetworkArgs) -> Result<ExitCode, Error> {
    let text = match args.segment {
        Some(segment) => wavekit::device::shaders::grain_network(segment, args.grain.unwrap_or(4))?,
        None => {
            wavekit::device::shaders::segmented_network(args.grain.unwrap_or(8), !args.emulated)?
        }
    };
    println!("{text}");
    Ok(ExitCode::SUCCESS)
}
