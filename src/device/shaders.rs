//! The WGSL sources of the device algorithms, one file each in `shaders/`.
//!
//! Each file states, once:
//! - its parameters: module-scope `const` and `alias` declarations with
//!   their defaults (`const INCLUSIVE = false;`, `alias T = u32;`), and
//!   one-line default functions a caller replaces (`fn keep(x: T) -> bool
//!   { ... }`), each described in the file's header. The library sets them
//!   by name (`Shader`, `src/device/shader.rs`); the files stay valid WGSL
//!   with their defaults.
//! - the files appended to it, in its `// Append:` header
//!   (`// Append: key_order.wgsl (encode_key, decode_key).`): [`source`]
//!   reads it, and so does the browser page's build script (`web/build.sh`).
//!
//! They are public so that other hosts (the demos' CUDA path, the browser
//! page) use the same text.

use crate::error::Error;

/// Every shader file and its text, by file name.
pub const FILES: [(&str, &str); 36] = [
    (
        "adjacent_difference.wgsl",
        include_str!("shaders/adjacent_difference.wgsl"),
    ),
    ("arg_reduce.wgsl", include_str!("shaders/arg_reduce.wgsl")),
    ("compact.wgsl", include_str!("shaders/compact.wgsl")),
    (
        "contact_sort.wgsl",
        include_str!("shaders/contact_sort.wgsl"),
    ),
    ("histogram.wgsl", include_str!("shaders/histogram.wgsl")),
    ("key_order.wgsl", include_str!("shaders/key_order.wgsl")),
    ("look_back.wgsl", include_str!("shaders/look_back.wgsl")),
    (
        "look_back_words.wgsl",
        include_str!("shaders/look_back_words.wgsl"),
    ),
    (
        "look_back_words_scan.wgsl",
        include_str!("shaders/look_back_words_scan.wgsl"),
    ),
    ("radix_key64.wgsl", include_str!("shaders/radix_key64.wgsl")),
    (
        "radix_onesweep.wgsl",
        include_str!("shaders/radix_onesweep.wgsl"),
    ),
    ("radix_sort.wgsl", include_str!("shaders/radix_sort.wgsl")),
    ("radix_tile.wgsl", include_str!("shaders/radix_tile.wgsl")),
    ("reduce.wgsl", include_str!("shaders/reduce.wgsl")),
    (
        "reduce_final.wgsl",
        include_str!("shaders/reduce_final.wgsl"),
    ),
    ("reduce_op.wgsl", include_str!("shaders/reduce_op.wgsl")),
    ("run_length.wgsl", include_str!("shaders/run_length.wgsl")),
    ("scan.wgsl", include_str!("shaders/scan.wgsl")),
    ("scan_tail.wgsl", include_str!("shaders/scan_tail.wgsl")),
    ("search.wgsl", include_str!("shaders/search.wgsl")),
    (
        "segmented_sort.wgsl",
        include_str!("shaders/segmented_sort.wgsl"),
    ),
    ("sort_merge.wgsl", include_str!("shaders/sort_merge.wgsl")),
    (
        "sort_scratch.wgsl",
        include_str!("shaders/sort_scratch.wgsl"),
    ),
    ("zero.wgsl", include_str!("shaders/zero.wgsl")),
    ("by_key.wgsl", include_str!("shaders/by_key.wgsl")),
    ("by_key_few.wgsl", include_str!("shaders/by_key_few.wgsl")),
    (
        "adjacent_difference_few.wgsl",
        include_str!("shaders/adjacent_difference_few.wgsl"),
    ),
    ("segmented.wgsl", include_str!("shaders/segmented.wgsl")),
    (
        "segmented_reduce.wgsl",
        include_str!("shaders/segmented_reduce.wgsl"),
    ),
    (
        "segmented_few.wgsl",
        include_str!("shaders/segmented_few.wgsl"),
    ),
    (
        "histogram_multi.wgsl",
        include_str!("shaders/histogram_multi.wgsl"),
    ),
    ("merge_sort.wgsl", include_str!("shaders/merge_sort.wgsl")),
    ("top_k.wgsl", include_str!("shaders/top_k.wgsl")),
    ("arg_order.wgsl", include_str!("shaders/arg_order.wgsl")),
    (
        "segment_range.wgsl",
        include_str!("shaders/segment_range.wgsl"),
    ),
    (
        "segmented_arg.wgsl",
        include_str!("shaders/segmented_arg.wgsl"),
    ),
];

/// The text of shader file `name` (`scan.wgsl`) alone, without what its
/// header appends; `None` for a name not in [`FILES`].
pub fn file(name: &str) -> Option<&'static str> {
    FILES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

/// The files `text`'s `// Append:` header names, in order: the `.wgsl`
/// names of the comment lines from `// Append:` on (what `web/build.sh`
/// reads too).
pub fn appended(text: &str) -> Vec<&str> {
    let mut lines = text.lines().skip_while(|l| !l.starts_with("// Append:"));
    let mut names = Vec::new();
    if let Some(first) = lines.next() {
        let rest = lines.take_while(|l| l.starts_with("//"));
        for line in std::iter::once(first).chain(rest) {
            let mut depth = 0usize;
            for word in line.split(|c: char| c.is_whitespace() || c == ',') {
                // Parenthesised notes (`(encode_key, decode_key)`) name
                // functions, not files.
                depth += word.matches('(').count();
                let name = word.trim_end_matches(['.', ')']);
                if depth == 0 && name.ends_with(".wgsl") {
                    names.push(name);
                }
                depth = depth.saturating_sub(word.matches(')').count());
            }
        }
    }
    names
}

/// Shader file `name` with the files its `// Append:` header names
/// appended, each after a newline: the source a device algorithm composes.
pub fn source(name: &str) -> Result<String, Error> {
    let text = file(name).ok_or_else(|| unknown(name))?;
    let mut source = text.to_string();
    for appended in appended(text) {
        source.push('\n');
        source.push_str(file(appended).ok_or_else(|| unknown(appended))?);
    }
    Ok(source)
}

/// `source` with every read-only storage binding declared `read_write`:
/// wgpu refuses a buffer bound read-only and read-write in one dispatch,
/// so an algorithm whose inputs may share a buffer with its outputs or its
/// temp (the radix sort's ping-pong keys live in temp) declares them all
/// writable, as `wavekit::device` builds those shaders. The shader's code
/// is unchanged.
pub fn writable(source: &str) -> String {
    source.replace("var<storage, read> ", "var<storage, read_write> ")
}

/// Workgroup memory (bytes) of `radix_onesweep.wgsl`'s pass kernel built
/// with `BLOCK = block`, `ITEMS = items`, u16 counter rows for subgroups
/// of at least `min_subgroup` lanes (`SUBGROUPS = block / min_subgroup`)
/// `STAGE_IN_COUNTERS = stage_in_counters` and `STAGE_PARTS =
/// stage_parts`: the counter rows and the staged part of the tile
/// (apart, or the larger of the rows and the part with the fallback's row
/// after it, and the one word `staged` keeps), the
/// per-digit counts, first positions and bases, the block scan's partials,
/// the tile slot and the fallback's two words. Full-word counter rows
/// (`WIDE_COUNTERS`) take twice the rows' part.
pub fn onesweep_workgroup_bytes(
    block: u32,
    items: u32,
    min_subgroup: u32,
    stage_in_counters: bool,
    stage_parts: u32,
) -> u64 {
    const ROW: u64 = 128;
    const RADIX: u64 = 256;
    let subgroups = u64::from(block / min_subgroup.max(1));
    let rows = subgroups * ROW;
    let part = u64::from(block) * u64::from(items / stage_parts.max(1));
    let rows_and_tile = if stage_in_counters {
        rows.max(part + ROW) + 1
    } else {
        rows + part
    };
    4 * (rows_and_tile + 3 * RADIX + 2 * subgroups + 3)
}

/// The error for a file that is not one of the device shaders.
fn unknown(name: &str) -> Error {
    let names: Vec<&str> = FILES.iter().map(|(n, _)| *n).collect();
    Error::Usage(format!(
        "`{name}` is not a device shader (the files are {})",
        names.join(", ")
    ))
}

/// The straight-line WGSL of `contact_sort.wgsl`'s `sort_grains` that
/// [`FixedSegmentedSort`](super::FixedSegmentedSort) composes for segments
/// of `segment` elements held `grain` a thread: for tools that compile the
/// shader as the library does (`wavekit network`, the browser page). The
/// segment is 2, 4, 8, 16 or 32 and the grain a power of two from 2 to the
/// segment; others are an [`Error::Usage`] naming them.
pub fn grain_network(segment: u32, grain: u32) -> Result<String, Error> {
    if !segment.is_power_of_two() || !(2..=32).contains(&segment) {
        return Err(Error::Usage(format!(
            "a network for segments of {segment}: segments are 2, 4, 8, 16 or 32 elements"
        )));
    }
    if !grain.is_power_of_two() || !(2..=segment).contains(&grain) {
        return Err(Error::Usage(format!(
            "a network for grains of {grain}: a grain is a power of two from 2 to the segment \
             ({segment})"
        )));
    }
    Ok(super::sort_network::grains(segment.trailing_zeros(), grain))
}

/// The straight-line WGSL of `segmented_sort.wgsl`'s
/// `sort_segment_grains` that [`SegmentedSort`](super::SegmentedSort)
/// composes for its short segments (up to 64 elements) held `grain` pairs
/// a lane where that takes at most 8 lanes of a real subgroup (grains of 8
/// on subgroups of 8 lanes or more; elsewhere it keeps the shader's loop
/// form). `guarded`: each size of the network past the grain runs only in
/// subgroups whose widest group reaches it, as the library composes it.
/// For tools that compile the shader as the library does (`wavekit network
/// --segmented`). The grain is a power of two from 2 to 64; others are an
/// [`Error::Usage`] naming it.
pub fn segmented_network(grain: u32, guarded: bool) -> Result<String, Error> {
    let limit = super::sort_network::SHORT_LIMIT;
    if !grain.is_power_of_two() || !(2..=limit).contains(&grain) {
        return Err(Error::Usage(format!(
            "a segmented sort's network for grains of {grain}: a grain is a power of two from 2 \
             to {limit} (the longest short segment)"
        )));
    }
    Ok(super::sort_network::segment_grains(
        limit.trailing_zeros(),
        grain,
        guarded,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_append_what_their_headers_name() {
        assert_eq!(
            appended(file("scan.wgsl").unwrap()),
            [
                "look_back.wgsl",
                "look_back_words.wgsl",
                "look_back_words_scan.wgsl"
            ]
        );
        assert_eq!(
            appended(file("segmented_sort.wgsl").unwrap()),
            ["key_order.wgsl", "sort_merge.wgsl", "sort_scratch.wgsl"]
        );
        assert_eq!(appended(file("reduce.wgsl").unwrap()), ["reduce_op.wgsl"]);
        assert!(appended(file("radix_key64.wgsl").unwrap()).is_empty());
        let compact = source("compact.wgsl").unwrap();
        assert!(compact.starts_with(file("compact.wgsl").unwrap()));
        assert!(compact.ends_with(file("look_back.wgsl").unwrap()));
        // Every header names files that are there.
        for (name, _) in FILES {
            source(name).unwrap();
        }
        assert!(
            source("nope.wgsl")
                .unwrap_err()
                .to_string()
                .contains("scan.wgsl")
        );
    }
}
