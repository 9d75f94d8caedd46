// A segment of an array, in the manner of CUB's segmented algorithms:
// segment s is elements [begin, end) of `input`, from offsets
// (begin_offsets[s], end_offsets[s]) or of one fixed size (s * size,
// (s + 1) * size). Shared by segmented.wgsl, segmented_reduce.wgsl,
// segmented_few.wgsl and segmented_arg.wgsl (appended), which bind
// `input` (array<T>), `begin_offsets` and `end_offsets` (array<u32>).
//
// The segment count is the length of the end_offsets binding (the host
// binds exactly one word per segment); the fixed-size entry points read no
// offsets: the host binds 4 bytes of the input as begin_offsets and the
// first `segments` words of the input as end_offsets, and the size is
// `arrayLength(&input) / segments` (the input is `segments * size`
// elements). Offsets past n read as n, and a begin past its end as an
// empty segment.

fn segment_count() -> u32 {
    return arrayLength(&end_offsets);
}

/// Segment `s`'s [begin, end), read by every thread (a uniform value: no
/// thread's reads differ, so no barrier shares them).
fn segment(s: u32, fixed: bool) -> vec2<u32> {
    let n = arrayLength(&input);
    if fixed {
        let size = n / segment_count();
        return vec2<u32>(s * size, s * size + size);
    }
    let end = min(end_offsets[s], n);
    return vec2<u32>(min(begin_offsets[s], end), end);
}
