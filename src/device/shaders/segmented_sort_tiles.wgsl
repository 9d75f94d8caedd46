// sort_short_two's `sorted_within` where subgroups are not emulated
// (wavekit::device::SegmentedSort replaces segmented_sort_two.wgsl's
// one-line default with this): each half of a segment sorted in the fewest
// lanes that hold the subgroup's longest. Lanes past a segment hold the
// largest pair, so a tile of at least the segment's length sorts it, and
// the tiles past it hold only that pair. 6 or 10 shuffle stages instead of
// 15 for halves of at most 8 or 16 elements.

/// `pair` sorted by `sg::bitonic_sort_kv_tiled` over tiles of 8, 16 or 32
/// lanes, the fewest that hold `width` (uniform in the subgroup).
fn sorted_within(pair: vec2<u32>, width: u32) -> vec2<u32> {
    if width <= 8u {
        let sorted = sg::bitonic_sort_kv_tiled<u32, u32, 3>(pair.x, pair.y);
        return vec2<u32>(sorted.key, sorted.value);
    }
    if width <= 16u {
        let sorted = sg::bitonic_sort_kv_tiled<u32, u32, 4>(pair.x, pair.y);
        return vec2<u32>(sorted.key, sorted.value);
    }
    let sorted = sg::bitonic_sort_kv_tiled<u32, u32, 5>(pair.x, pair.y);
    return vec2<u32>(sorted.key, sorted.value);
}
