// sort_short_two: segmented_sort.wgsl's short segments where subgroups
// have at least 32 lanes, appended to that file by the host
// (wavekit::device::SegmentedSort) only then: it calls
// `sg::bitonic_sort_kv_tiled<u32, u32, 5>`, which narrower subgroups do
// not have. It uses segmented_sort.wgsl's bindings and functions (bounds,
// workgroup_any, store_out, subgroup_sorts, note_length, SHORT_MIN) and sort_merge.wgsl's
// `less`.

/// One stage of a bitonic merge over each 32-lane tile: lanes l and l ^ d
/// compare their pairs, the lower lane keeping the smaller.
fn merge_stage(key: u32, value: u32, d: u32, lane: u32) -> vec2<u32> {
    let other_key = sg::shuffle_xor<u32>(key, d);
    let other_value = sg::shuffle_xor<u32>(value, d);
    let lower = (lane & d) == 0u;
    let other_first = less(other_key, other_value, key, value);
    if other_first == lower {
        return vec2<u32>(other_key, other_value);
    }
    return vec2<u32>(key, value);
}

/// `pair` sorted by `sg::bitonic_sort_kv_tiled` over 32-lane tiles; the
/// host gives, where subgroups are not emulated, segmented_sort_tiles.wgsl's
/// (the fewest lanes that hold `width`).
fn sorted_within(pair: vec2<u32>, width: u32) -> vec2<u32> { let sorted = sg::bitonic_sort_kv_tiled<u32, u32, 5>(pair.x, pair.y); return vec2<u32>(sorted.key, sorted.value); }

/// The pairs of a bitonic sequence over each 32-lane tile, sorted.
fn bitonic_merge(key: u32, value: u32, lane: u32) -> vec2<u32> {
    var pair = vec2<u32>(key, value);
    for (var d = 16u; d > 0u; d = d / 2u) {
        pair = merge_stage(pair.x, pair.y, d, lane);
    }
    return pair;
}

// sort_short where subgroups have at least 32 lanes (LOG2_TILE = 5): the
// segments of SHORT_MIN + 1 to 64 elements, one per 32 threads (thread
// (subgroup s, lane l): slots l and l + 32 of segment (s * S + l) / 32 of
// its workgroup), in registers only: each of the two 32-element halves
// sorted by `sg::bitonic_sort_kv_tiled`, the upper half reversed across the
// tile and compared with the lower (the smaller of each pair to the lower
// half: two bitonic sequences, every element of the lower at most every
// element of the upper), then each half bitonic-merged in 5 stages. A
// subgroup whose segments are at most 32 long skips the upper half, and
// one without a segment of the dispatch's everything (`subgroup_sorts`).
@compute @workgroup_size(BLOCK)
fn sort_short_two(@builtin(local_invocation_index) t: u32, @builtin(subgroup_id) subgroup: u32,
                  @builtin(subgroup_invocation_id) lane: u32, @builtin(subgroup_size) size: u32,
                  @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let first_segment = (wid.x + wid.y * nwg.x) * (BLOCK / 32u);
    let segments = segment_count();
    var mine = false;
    if t < BLOCK / 32u && first_segment + t < segments {
        let seg = bounds(first_segment + t);
        mine = seg.y - seg.x > SHORT_MIN && seg.y - seg.x <= 64u;
        note_length(seg.y - seg.x);
    }
    if !workgroup_any(t, mine) {
        return;
    }
    let p = subgroup * size + lane;
    let s = first_segment + p / 32u;
    let slot = p % 32u;
    var seg = vec2<u32>(0u, 0u);
    if s < segments {
        seg = bounds(s);
    }
    let length = seg.y - seg.x;
    let is_short = length > SHORT_MIN && length <= 64u;
    var low = vec2<u32>(0xffffffffu, 0xffffffffu);
    var high = low;
    if is_short && slot < length {
        low = vec2<u32>(encode_key(keys_in[seg.x + slot]), value_in(seg.x + slot));
    }
    if is_short && slot + 32u < length {
        high = vec2<u32>(encode_key(keys_in[seg.x + slot + 32u]), value_in(seg.x + slot + 32u));
    }
    // The longest segment of the subgroup: the tiles each half needs.
    let longest = subgroup_longest(select(0u, length, is_short));
    if subgroup_sorts(is_short) {
        low = sorted_within(low, min(longest, 32u));
    }
    if subgroup_sorts(is_short && length > 32u) {
        let upper = sorted_within(high, longest - min(longest, 32u));
        // The upper half reversed across the tile, then the smaller of each
        // lane's two pairs to the lower half.
        let reversed = vec2<u32>(sg::shuffle_xor<u32>(upper.x, 31u),
                                 sg::shuffle_xor<u32>(upper.y, 31u));
        let swap = less(reversed.x, reversed.y, low.x, low.y);
        high = select(reversed, low, swap);
        low = select(low, reversed, swap);
        low = bitonic_merge(low.x, low.y, lane);
        high = bitonic_merge(high.x, high.y, lane);
    }
    if is_short && slot < length {
        store_out(seg.x + slot, low.x, low.y);
    }
    if is_short && slot + 32u < length {
        store_out(seg.x + slot + 32u, high.x, high.y);
    }
}
