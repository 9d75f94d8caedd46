// What the segmented sorts share (segmented_sort.wgsl, contact_sort.wgsl;
// `wavekit::device::shaders` appends this file to each, after
// key_order.wgsl, as web/build.sh does for the browser page): the
// (key, value) order, the merge of sorted register tiles through
// workgroup memory, and the places of a pairwise merge of aligned runs
// (segmented_sort.wgsl's and merge_sort.wgsl's merges).
//
// The shader declares LOG2_TILE and LOG2_SEG, and the workgroup arrays
// merge_keys and merge_values (at least one element per thread).

// The lexicographic order the sorts use.
fn less(a_key: u32, a_value: u32, b_key: u32, b_value: u32) -> bool {
    return a_key < b_key || (a_key == b_key && a_value < b_value);
}

// Merges the sorted tiles of 2^LOG2_TILE threads of aligned 2^LOG2_SEG-thread
// groups pairwise through workgroup memory, LOG2_SEG - LOG2_TILE levels:
// thread `p`'s pair finds its place in the other run by binary search
// (log2(run) + 1 reads), strictly-less from the lower run and
// less-or-equal from the upper, and is written there; 2 barriers and a
// third per level. Every thread of the workgroup calls it (uniform control
// flow); returns the thread's pair after the merges.
fn merge_tiles(p: u32, key_in: u32, value_in: u32) -> vec2<u32> {
    var key = key_in;
    var value = value_in;
    for (var level = LOG2_TILE; level < LOG2_SEG; level++) {
        merge_keys[p] = key;
        merge_values[p] = value;
        workgroupBarrier();
        let run = 1u << level;
        let pair = p & ~(2u * run - 1u);
        let upper = (p & run) != 0u;
        let other = pair + select(run, 0u, upper);
        // How many of the other run's pairs go before this one.
        var lo = 0u;
        var hi = run;
        while lo < hi {
            let mid = (lo + hi) / 2u;
            let k = merge_keys[other + mid];
            let v = merge_values[other + mid];
            if select(less(k, v, key, value), !less(key, value, k, v), upper) {
                lo = mid + 1u;
            } else {
                hi = mid;
            }
        }
        workgroupBarrier();
        let at = pair + (p & (run - 1u)) + lo;
        merge_keys[at] = key;
        merge_values[at] = value;
        workgroupBarrier();
        key = merge_keys[p];
        value = merge_values[p];
    }
    return vec2<u32>(key, value);
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
