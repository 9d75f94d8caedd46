// What the segmented sorts share (segmented_sort.wgsl, contact_sort.wgsl;
// `wavekit::device::shaders` appends this file to each, after
// key_order.wgsl, as web/build.sh does for the browser page): the
// (key, value) order, the padded index of the exchanges through workgroup
// memory, and the places of a pairwise merge of aligned runs
// (segmented_sort.wgsl's chunk sort).

// The lexicographic order the sorts use.
fn less(a_key: u32, a_value: u32, b_key: u32, b_value: u32) -> bool {
    return a_key < b_key || (a_key == b_key && a_value < b_value);
}

/// Word x of a workgroup array with one padding word every 32 (the
/// segmented sorts' exchanges between rows and grains: neither side has
/// bank conflicts).
fn padded(x: u32) -> u32 {
    return x + x / 32u;
}

/// Whether a segment of bounds `seg` lies inside one aligned run of `w`.
fn inside_run(seg: vec2<u32>, w: u32) -> bool {
    return seg.x / w == (seg.y - 1u) / w;
}

/// Where the element at `p` of segment `seg` goes when the runs of width
/// `w` (aligned, cut at the segment's ends) merge pairwise: `rank` is how
/// many of the partner run's elements go before it, counted by the caller
/// over `partner` (returned first: [start, end) of the partner run) — see
/// merge_target.
fn partner_run(p: u32, seg: vec2<u32>, w: u32) -> vec2<u32> {
    let r = p / w;
    let q = r ^ 1u;
    let start = clamp(q * w, seg.x, seg.y);
    let end = clamp(q * w + w, seg.x, seg.y);
    return vec2<u32>(start, end);
}

/// The position of the element at `p` after the merge, `rank` the count of
/// the partner run's elements before it.
fn merge_target(p: u32, seg: vec2<u32>, w: u32, rank: u32) -> u32 {
    let r = p / w;
    let own_start = max(r * w, seg.x);
    let merged_start = max((r & ~1u) * w, seg.x);
    return merged_start + (p - own_start) + rank;
}
