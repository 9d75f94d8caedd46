//! What a server takes: [`Op`]s — clears and dispatches over byte ranges
//! of the caller's memory — their compiled [`Pipeline`]s, and how those
//! are [`Checks`]ed.

use std::any::Any;

use super::memory::Range;

/// How a pipeline's array accesses are checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Checks {
    /// Every access checked: wgpu's bounds checks (without its loop
    /// bounding: every loop of wavekit's shaders terminates), the native
    /// lowering's clamped indices.
    Bounded,
    /// Native kernels without checks, for shaders that prove every access
    /// stays in bounds; wgpu keeps its checks (without them the OneSweep
    /// sort ran 1–4 % slower through Vulkan, H100,
    /// docs/benchmarks/2026-11-25j-h100-workgroup-zeroing).
    Proven,
}

/// One command of an algorithm.
pub(crate) enum Op<'a> {
    /// Zeroes a range: on wgpu a dispatch of `shaders/zero.wgsl` in the
    /// algorithm's compute pass, natively an asynchronous memset.
    Clear(Range<'a>),
    /// A dispatch with bindings 0, 1, ... of group 0.
    Dispatch(&'a Pipeline, Vec<Range<'a>>, [u32; 3]),
}

/// A compiled entry point of one API: what its server compiled, which the
/// same server takes back ([`Pipeline::of`]).
pub(crate) struct Pipeline {
    compiled: Box<dyn Any + Send + Sync>,
}

impl Pipeline {
    /// `compiled` as a pipeline.
    pub fn new(compiled: impl Any + Send + Sync) -> Self {
        Pipeline {
            compiled: Box::new(compiled),
        }
    }

    /// What a server of type `T`'s pipelines hold, if this is one.
    pub fn of<T: Any>(&self) -> Option<&T> {
        self.compiled.downcast_ref()
    }
}

/// Workgroups of a dispatch of at least `count` where a dimension holds at
/// most `max`: one-dimensional up to `max`, then spilling into y as
/// `y = ceil(count / max)` rows of `ceil(count / y)` (shaders take the
/// linear index `wid.x + wid.y * nwg.x` and return past `count`), so that
/// fewer than `y` workgroups return at once. Rows of `max` left up to
/// `max - 1` idle: 65534 of 131070 for 65536 segments of 1024, which cost
/// a SegmentedScan 15 % at 2^26 on an H200
/// (docs/benchmarks/2026-11-28u-h200-segmented-scan-quads).
pub(crate) fn grid(count: u32, max: u32) -> [u32; 3] {
    if count <= max {
        [count.max(1), 1, 1]
    } else {
        let rows = count.div_ceil(max);
        [count.div_ceil(rows), rows, 1]
    }
}

#[cfg(test)]
mod tests {
    use super::grid;

    #[test]
    fn grids_cover_the_count_with_fewer_idle_workgroups_than_rows() {
        for max in [1, 2, 7, 65535] {
            for count in (0..2000).chain([65535, 65536, 131_070, 131_071, 1 << 24, u32::MAX]) {
                let [x, y, z] = grid(count, max);
                assert!(
                    x <= max && y == count.max(1).div_ceil(max) && z == 1,
                    "{count}, {max}"
                );
                let total = u64::from(x) * u64::from(y);
                assert!(
                    total >= u64::from(count.max(1)),
                    "{count}, {max}: {x} x {y}"
                );
                assert!(
                    total - u64::from(count.max(1)) < u64::from(y),
                    "{count}, {max}: {x} x {y}"
                );
            }
        }
        assert_eq!(grid(65536, 65535), [32768, 2, 1]);
        assert_eq!(grid(100, 65535), [100, 1, 1]);
    }
}
