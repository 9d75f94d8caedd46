//! The WGSL sources of the device algorithms, before the host's edits (each
//! file's header says which declarations a host may edit). They are
//! public so that other hosts (the demos' CUDA path, the browser page's
//! build script reads the files) use the same text.

/// Device-wide exclusive / inclusive prefix sum of u32 over vec4 tiles:
/// single-pass (decoupled look-back with decoupled fallback) or
/// reduce-then-scan entry points.
/// With `shaders/look_back.wgsl` and `shaders/look_back_words.wgsl`
/// appended.
pub const SCAN: &str = concat!(
    include_str!("shaders/scan.wgsl"),
    "\n",
    include_str!("shaders/look_back.wgsl"),
    "\n",
    include_str!("shaders/look_back_words.wgsl")
);
/// The scan of the last `n mod 4` elements, which the vec4 tiles leave.
pub const SCAN_TAIL: &str = include_str!("shaders/scan_tail.wgsl");
/// Per-workgroup partial reductions of vec4 elements (`partial_*`) and
/// the demos' final pass over the partials (`final_*`).
pub const REDUCE: &str = include_str!("shaders/reduce.wgsl");
/// The library's final reduction: the partials and the last `n mod 4`
/// elements, or the identity for no elements.
pub const REDUCE_FINAL: &str = include_str!("shaders/reduce_final.wgsl");
/// OneSweep radix sort: digit histograms, their offsets and one pass kernel.
pub const RADIX_ONESWEEP: &str = concat!(
    include_str!("shaders/radix_onesweep.wgsl"),
    "\n",
    include_str!("shaders/key_order.wgsl")
);
/// Reduce-then-scan radix sort pass: upsweep and downsweep.
pub const RADIX_SORT: &str = concat!(
    include_str!("shaders/radix_sort.wgsl"),
    "\n",
    include_str!("shaders/key_order.wgsl")
);
/// The key functions of 64-bit keys (pairs of u32 words) that a host puts
/// into [`RADIX_SORT`] and [`RADIX_ONESWEEP`] for a sort of u64, i64 or
/// f64 keys (see the file's header); not a shader on its own.
pub const RADIX_KEY64: &str = include_str!("shaders/radix_key64.wgsl");
/// Device-wide scan of a 32-bit type under an associative operator
/// (f32 sums, min, max, user WGSL functions): single pass (look-back with
/// fallback, one predecessor a round) or reduce-then-scan. With
/// `shaders/look_back.wgsl` and `shaders/look_back_words.wgsl` appended.
pub const SCAN_OP: &str = concat!(
    include_str!("shaders/scan_op.wgsl"),
    "\n",
    include_str!("shaders/look_back.wgsl"),
    "\n",
    include_str!("shaders/look_back_words.wgsl")
);
/// Segmented sort: short segments in registers, chunks in workgroup
/// memory, long segments by global merge passes.
/// With `shaders/key_order.wgsl` and `shaders/sort_merge.wgsl` appended.
pub const SEGMENTED_SORT: &str = concat!(
    include_str!("shaders/segmented_sort.wgsl"),
    "\n",
    include_str!("shaders/key_order.wgsl"),
    "\n",
    include_str!("shaders/sort_merge.wgsl")
);
/// The contact sort: fixed segments of `2^LOG2_SEG` (key, u32 value)
/// pairs sorted in registers ([`FixedSegmentedSort`](super::FixedSegmentedSort),
/// the demos' `contact_sort` and the browser page run it;
/// [`SegmentedSort`](super::SegmentedSort)'s short path is its
/// general-offset form). With `shaders/key_order.wgsl` and
/// `shaders/sort_merge.wgsl` appended.
pub const CONTACT_SORT: &str = concat!(
    include_str!("shaders/contact_sort.wgsl"),
    "\n",
    include_str!("shaders/key_order.wgsl"),
    "\n",
    include_str!("shaders/sort_merge.wgsl")
);
/// Stream compaction by a predicate (or of run starts): single pass with
/// look-back, or tile counts and scatter around the device scan.
/// With `shaders/look_back.wgsl` appended.
pub const COMPACT: &str = concat!(
    include_str!("shaders/compact.wgsl"),
    "\n",
    include_str!("shaders/look_back.wgsl")
);
/// Histogram by a bin function: workgroup histograms with
/// subgroup-aggregated atomics, or global atomics for many bins.
pub const HISTOGRAM: &str = include_str!("shaders/histogram.wgsl");
/// Run keys and lengths from the run starts the compaction wrote.
pub const RUN_LENGTH: &str = include_str!("shaders/run_length.wgsl");
/// Zeroes a binding (a count, a histogram, look-back state) in a compute
/// pass, without `COPY_DST`.
pub const ZERO: &str = include_str!("shaders/zero.wgsl");
