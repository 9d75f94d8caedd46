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
/// most `max`: one-dimensional up to `max`, then spilling into y (shaders
/// take the linear index `wid.x + wid.y * nwg.x` and return past `count`).
pub(crate) fn grid(count: u32, max: u32) -> [u32; 3] {
    if count <= max {
        [count.max(1), 1, 1]
    } else {
        [max, count.div_ceil(max), 1]
    }
}
