//! The bitonic networks that sort segments held as grains (each lane of a
//! tile holds `grain` consecutive pairs of a segment), written out as
//! straight-line WGSL: `contact_sort.wgsl`'s `sort_grains` (one segment
//! length) and `segmented_sort.wgsl`'s `sort_segment_grains` (segments of
//! any length up to a limit, each in the fewest lanes that hold it). Every
//! stage and register is named, so no driver has to unroll loops or keep an
//! indexed array in registers (NVIDIA's Vulkan compiler did not, for the
//! loop form: `docs/benchmarks/2026-11-28e-h100-hold-and-grains/`).

use std::fmt::Write;

/// The longest segment [`SegmentedSort`](super::SegmentedSort) sorts in
/// registers (`SHORT_LIMIT` in `segmented_sort.wgsl`): the size of
/// `sort_segment_grains`' network. Longer ones go to its chunk sort and
/// merge passes.
pub(super) const SHORT_LIMIT: u32 = 64;

/// Which shader's network: its signature and its cross-lane mask.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    /// `sort_grains(q, g)`: every tile of `2^log2_segment / grain` lanes
    /// holds one segment.
    Fixed,
    /// `sort_segment_grains(q, lanes, widest, g)`: each segment in an aligned
    /// group of `lanes` lanes (a power of two), `q` the lane's place in it;
    /// `widest` the most lanes any group of the subgroup has (uniform in the
    /// subgroup); each size past the grain guarded by `widest` where
    /// `guarded`.
    Segmented { guarded: bool },
}

/// `fn sort_grains(q: u32, g: Grains) -> Grains`: sorts each segment of
/// `2^log2_segment` pairs held by aligned tiles of `2^log2_segment / grain`
/// lanes, `grain` consecutive pairs a lane (`q`: the lane's place in its
/// tile), ascending on (key, value) by the shader's `less`. Element e = q ·
/// grain + r is register r of lane q. Stages of stride below `grain`
/// compare two registers of one lane; the others exchange register r with
/// lane q ^ (stride / grain) by `sg::shuffle_xor`, the lower lane of an
/// ascending pair keeping the smaller. `grain` is a power of two from 2 to
/// the segment.
pub(crate) fn grains(log2_segment: u32, grain: u32) -> String {
    network(Form::Fixed, log2_segment, grain)
}

/// `fn sort_segment_grains(q: u32, lanes: u32, widest: u32, g: Grains) ->
/// Grains`: sorts each segment of at most `2^log2_limit` pairs held by an
/// aligned group of `lanes` lanes (1, 2, 4, … `2^log2_limit / grain`),
/// `grain` pairs a lane, the slots past the segment's end holding the
/// largest pair; `q` is the lane's place in its group. The network of
/// [`grains`] for the limit, with two changes that keep segments apart:
/// a stage across lanes of distance d exchanges only where d < `lanes`
/// (other lanes shuffle and keep their pairs), and a lane's run directions
/// come from `q`, so past its group's size every run of the lane is
/// ascending and the in-lane stages leave its sorted pairs as they are.
/// Where `guarded`, the stages of each size above the grain run only where
/// `widest` (the most lanes of any group of the subgroup, uniform in it)
/// reaches that size: a subgroup of short segments skips them (not where
/// subgroups are emulated: every invocation of the workgroup must run each
/// shuffle). `grain` is a power of two from 2 to the limit.
pub(crate) fn segment_grains(log2_limit: u32, grain: u32, guarded: bool) -> String {
    network(Form::Segmented { guarded }, log2_limit, grain)
}

fn network(form: Form, log2_segment: u32, grain: u32) -> String {
    debug_assert!(grain.is_power_of_two() && grain > 1 && grain <= 1 << log2_segment);
    let mut out = String::from(match form {
        Form::Fixed => "fn sort_grains(q: u32, g: Grains) -> Grains {\n",
        Form::Segmented { .. } => {
            "fn sort_segment_grains(q: u32, lanes: u32, widest: u32, g: Grains) -> Grains {\n"
        }
    });
    for r in 0..grain {
        let _ = writeln!(
            out,
            "    var k{r} = g.keys[{r}];\n    var v{r} = g.values[{r}];"
        );
    }
    for log2_size in 1..=log2_segment {
        let size = 1u32 << log2_size;
        // A size past the grain needs size / grain lanes.
        let guarded = form == Form::Segmented { guarded: true } && size > grain;
        if guarded {
            let _ = writeln!(out, "    if widest >= {}u {{", size / grain);
        }
        for log2_stride in (0..log2_size).rev() {
            let stride = 1u32 << log2_stride;
            if stride < grain {
                in_lane(&mut out, grain, size, stride);
            } else {
                across_lanes(&mut out, form, grain, size, stride);
            }
        }
        if guarded {
            out.push_str("    }\n");
        }
    }
    out.push_str("    var sorted: Grains;\n");
    for r in 0..grain {
        let _ = writeln!(
            out,
            "    sorted.keys[{r}] = k{r};\n    sorted.values[{r}] = v{r};"
        );
    }
    out.push_str("    return sorted;\n}");
    out
}
/// Whether element q · grain + r is in an ascending run of `size` (its bit
/// `size` is clear), as WGSL: a constant where `size` is below the grain
/// (the bit is r's), else the bit `size / grain` of q.
fn ascending(grain: u32, size: u32, r: u32) -> String {
    if size < grain {
        return (r & size == 0).to_string();
    }
    format!("(q & {}u) == 0u", size / grain)
}

/// A stage within each lane: registers r and r + `stride` (r's bit
/// `stride` clear) swap where they are out of order.
fn in_lane(out: &mut String, grain: u32, size: u32, stride: u32) {
    for r in (0..grain).filter(|r| r & stride == 0) {
        let o = r | stride;
        let up = ascending(grain, size, r);
        let _ = writeln!(
            out,
            "    {{\n        let swap = less(k{o}, v{o}, k{r}, v{r}) == ({up});\n        \
             let lk = k{r};\n        let lv = v{r};\n        \
             k{r} = select(k{r}, k{o}, swap);\n        v{r} = select(v{r}, v{o}, swap);\n        \
             k{o} = select(k{o}, lk, swap);\n        v{o} = select(v{o}, lv, swap);\n    }}"
        );
    }
}

/// A stage across lanes: each register r against register r of lane q ^
/// (stride / grain) (segmented: where the lane's group spans that far).
fn across_lanes(out: &mut String, form: Form, grain: u32, size: u32, stride: u32) {
    let d = stride / grain;
    // Segmented: lanes of groups of at most d lanes keep their pairs.
    let exchanges = match form {
        Form::Fixed => String::new(),
        Form::Segmented { .. } => format!(" && lanes > {d}u"),
    };
    let _ = writeln!(
        out,
        "    {{\n        let lower = (q & {d}u) == 0u;\n        let up = {};",
        ascending(grain, size, 0)
    );
    for r in 0..grain {
        let _ = writeln!(
            out,
            "        {{\n            let ok = sg::shuffle_xor<u32>(k{r}, {d}u);\n            \
             let ov = sg::shuffle_xor<u32>(v{r}, {d}u);\n            \
             let take = less(ok, ov, k{r}, v{r}) == (lower == up){exchanges};\n            \
             k{r} = select(k{r}, ok, take);\n            v{r} = select(v{r}, ov, take);\n        }}"
        );
    }
    out.push_str("    }\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_shuffles_only_for_strides_past_the_grain() {
        // Segments of 16 in grains of 4: three stages across lanes (strides
        // 4, 8 and 4), each two shuffles a register: 24 in the text.
        let text = grains(4, 4);
        assert_eq!(text.matches("sg::shuffle_xor").count(), 3 * 2 * 4);
        assert!(text.starts_with("fn sort_grains(q: u32, g: Grains) -> Grains {"));
        assert!(text.ends_with('}'));
        // In-lane stages: sizes 2 and 4 (3 stages) and strides 2, 1 of
        // sizes 8 and 16 (4 stages), grain / 2 pairs each.
        assert_eq!(text.matches("let swap").count(), 7 * 2);
        // Size 4 in grains of 4: each lane's run of 4 ascends or descends by
        // its lane's bit 0, not by a register's bit.
        assert!(grains(3, 4).contains("less(k1, v1, k0, v0) == ((q & 1u) == 0u)"));
        // A segment in one lane has no shuffle.
        assert!(!grains(2, 4).contains("shuffle"));
    }

    #[test]
    fn keeps_segments_apart_and_skips_sizes_past_the_widest() {
        // Up to 64 in grains of 8: stages across lanes at distances 1 (sizes
        // 16, 32, 64), 2 (32, 64) and 4 (64), each exchanging only where the
        // lane's group spans that distance; one guard per size past the grain.
        let text = segment_grains(6, 8, true);
        assert!(text.starts_with(
            "fn sort_segment_grains(q: u32, lanes: u32, widest: u32, g: Grains) -> Grains {"
        ));
        for (d, stages) in [(1, 3), (2, 2), (4, 1)] {
            assert_eq!(
                text.matches(&format!("&& lanes > {d}u;")).count(),
                stages * 8,
                "distance {d}"
            );
        }
        for lanes in [2, 4, 8] {
            assert_eq!(
                text.matches(&format!("if widest >= {lanes}u {{")).count(),
                1
            );
        }
        // The emulated form: the same network, no guard.
        let plain = segment_grains(6, 8, false);
        assert!(!plain.contains("widest >="));
        assert_eq!(
            plain.matches("sg::shuffle_xor").count(),
            text.matches("sg::shuffle_xor").count()
        );
        // FixedSegmentedSort's network has no mask.
        assert!(!grains(5, 4).contains("lanes >"));
    }
}
