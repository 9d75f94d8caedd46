//! Lines up wavekit's runs with the references: for each demo variant and
//! size, the throughput of wavekit on Vulkan and CUDA, the fastest CUB and
//! PyTorch call of the matching reference variant, and the copy ceiling (the
//! time a device-to-device copy takes to move the bytes the demo must move).

use std::collections::BTreeSet;

use crate::data::{Raw, Run, Side};

/// The demos in the order of the docs; others found in the data follow.
const ORDER: [&str; 6] = [
    "reduce",
    "scan",
    "compact",
    "histogram",
    "radix_sort",
    "contact_sort",
];

/// Throughputs (items/s) at one size.
#[derive(Clone, Debug, Default)]
pub struct Row {
    pub n: u64,
    pub vulkan: Option<f64>,
    pub cuda: Option<f64>,
    pub cub: Option<f64>,
    pub torch: Option<f64>,
    pub copy: Option<f64>,
    /// A wavekit figure came from a progress log, not a JSON report.
    pub from_log: bool,
}

/// One demo variant across sizes.
#[derive(Clone, Debug)]
pub struct Variant {
    pub name: String,
    /// The reference variants it is compared with, where they differ in name.
    pub cub_variant: Option<String>,
    pub torch_variant: Option<String>,
    pub rows: Vec<Row>,
    /// wavekit's algorithm strings (one per back end, deduplicated).
    pub algorithms: Vec<String>,
    /// The reference calls and their notes: "impl — note".
    pub references: Vec<String>,
}

/// One demo.
#[derive(Clone, Debug)]
pub struct Demo {
    pub name: String,
    pub variants: Vec<Variant>,
}

/// Every demo wavekit ran, lined up with its references.
pub fn demos(raw: &Raw) -> Vec<Demo> {
    let wavekit = |r: &&Run| matches!(r.side, Side::Vulkan | Side::Cuda);
    let mut names: Vec<String> = ORDER.iter().map(|s| s.to_string()).collect();
    for run in raw.runs.iter().filter(wavekit) {
        if !names.contains(&run.demo) {
            names.push(run.demo.clone());
        }
    }
    let ceiling = CopyCeiling::new(raw);
    names
        .into_iter()
        .filter_map(|name| {
            let mut variants: Vec<String> = Vec::new();
            for run in raw.runs.iter().filter(wavekit).filter(|r| r.demo == name) {
                if !variants.contains(&run.variant) {
                    variants.push(run.variant.clone());
                }
            }
            let variants: Vec<Variant> = variants
                .iter()
                .map(|v| variant(raw, &name, v, &ceiling))
                .collect();
            (!variants.is_empty()).then_some(Demo { name, variants })
        })
        .collect()
}

fn variant(raw: &Raw, demo: &str, name: &str, ceiling: &CopyCeiling) -> Variant {
    let of = |side: Side, variant: &str| -> Vec<&Run> {
        raw.runs
            .iter()
            .filter(|r| r.side == side && r.demo == demo && r.variant == variant)
            .collect()
    };
    let cub_variant = matching_variant(raw, Side::Cub, demo, name);
    let torch_variant = matching_variant(raw, Side::Torch, demo, name);
    let (vulkan, cuda) = (of(Side::Vulkan, name), of(Side::Cuda, name));
    let cub = cub_variant
        .as_deref()
        .map_or(Vec::new(), |v| of(Side::Cub, v));
    let torch = torch_variant
        .as_deref()
        .map_or(Vec::new(), |v| of(Side::Torch, v));
    let sizes: BTreeSet<u64> = vulkan.iter().chain(&cuda).map(|r| r.n).collect();
    let rows = sizes
        .into_iter()
        .map(|n| {
            let (vk, cu) = (at(&vulkan, n), at(&cuda, n));
            let (cub_best, torch_best) = (fastest(&cub, n), fastest(&torch, n));
            // The bytes the demo must move, from a JSON report where there is one.
            let bytes = [cu, vk]
                .into_iter()
                .flatten()
                .find(|r| !r.from_log)
                .or(cu.or(vk))
                .map(|r| r.bytes);
            Row {
                n,
                vulkan: vk.map(Run::items_per_s),
                cuda: cu.map(Run::items_per_s),
                cub: cub_best.map(Run::items_per_s),
                torch: torch_best.map(Run::items_per_s),
                copy: bytes
                    .and_then(|b| ceiling.ms(b))
                    .map(|ms| n as f64 / (ms / 1e3)),
                from_log: [vk, cu].into_iter().flatten().any(|r| r.from_log),
            }
        })
        .collect();
    let mut algorithms: Vec<String> = Vec::new();
    for run in vulkan.iter().chain(&cuda) {
        let text = format!("{}: {}", run.side.label(), run.algorithm);
        if !run.algorithm.is_empty() && !algorithms.contains(&text) {
            algorithms.push(text);
        }
    }
    let mut references: Vec<String> = Vec::new();
    for run in cub.iter().chain(&torch) {
        let mut text = format!(
            "{} `{}`: {}",
            run.side.label(),
            run.implementation,
            run.algorithm
        );
        if !run.note.is_empty() {
            text += &format!(" ({})", run.note);
        }
        if !references.contains(&text) {
            references.push(text);
        }
    }
    Variant {
        name: name.into(),
        cub_variant: cub_variant.filter(|v| v != name),
        torch_variant: torch_variant.filter(|v| v != name),
        rows,
        algorithms,
        references,
    }
}

/// The run of `runs` at size `n`.
pub fn at<'a>(runs: &[&'a Run], n: u64) -> Option<&'a Run> {
    runs.iter().find(|r| r.n == n).copied()
}

/// The fastest of `runs` at size `n`.
fn fastest<'a>(runs: &[&'a Run], n: u64) -> Option<&'a Run> {
    runs.iter()
        .filter(|r| r.n == n)
        .min_by(|a, b| a.median_ms.total_cmp(&b.median_ms))
        .copied()
}

/// The reference variant a wavekit variant is compared with: the same name;
/// else the demo's only reference variant that no wavekit variant of the
/// demo is named after (`scan`'s algorithms `auto`, `lookback` and
/// `reduce_then_scan` all compute CUB's `exclusive_u32`, while its
/// `inclusive_max_u32` has a wavekit variant of that name); else the one
/// sharing most `_`-separated words.
fn matching_variant(raw: &Raw, side: Side, demo: &str, variant: &str) -> Option<String> {
    let candidates: BTreeSet<&str> = raw
        .runs
        .iter()
        .filter(|r| r.side == side && r.demo == demo)
        .map(|r| r.variant.as_str())
        .collect();
    if candidates.contains(variant) {
        return Some(variant.into());
    }
    let named: BTreeSet<&str> = raw
        .runs
        .iter()
        .filter(|r| matches!(r.side, Side::Vulkan | Side::Cuda) && r.demo == demo)
        .map(|r| r.variant.as_str())
        .collect();
    let unclaimed: Vec<&str> = candidates.difference(&named).copied().collect();
    if let [only] = unclaimed[..] {
        return Some(only.into());
    }
    let words: BTreeSet<&str> = variant.split('_').collect();
    candidates
        .into_iter()
        .map(|c| (c.split('_').filter(|w| words.contains(w)).count(), c))
        .filter(|(shared, _)| *shared > 0)
        .max_by_key(|(shared, _)| *shared)
        .map(|(_, c)| c.to_string())
}

/// Copy times by bytes moved (read + written), interpolated log-log between
/// the measured sizes and extended linearly past the largest.
struct CopyCeiling {
    points: Vec<(f64, f64)>,
}

impl CopyCeiling {
    fn new(raw: &Raw) -> Self {
        let mut points: Vec<(f64, f64)> = raw
            .runs
            .iter()
            .filter(|r| r.side == Side::Copy && r.bytes > 0)
            .map(|r| (r.bytes as f64, r.median_ms))
            .collect();
        // Two copies of a size (PyTorch's and cudaMemcpyAsync): the faster.
        points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
        points.dedup_by(|a, b| a.0 == b.0);
        CopyCeiling { points }
    }

    /// Milliseconds to move `bytes`.
    fn ms(&self, bytes: u64) -> Option<f64> {
        let b = bytes as f64;
        let (first, last) = (self.points.first()?, self.points.last()?);
        if b <= first.0 {
            return Some(first.1);
        }
        if b >= last.0 {
            return Some(last.1 * b / last.0);
        }
        let i = self.points.iter().position(|p| p.0 >= b)?;
        let ((b0, t0), (b1, t1)) = (self.points[i - 1], self.points[i]);
        let f = (b.ln() - b0.ln()) / (b1.ln() - b0.ln());
        Some((t0.ln() + f * (t1.ln() - t0.ln())).exp())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(side: Side, demo: &str, variant: &str, n: u64, bytes: u64, ms: f64) -> Run {
        Run {
            side,
            demo: demo.into(),
            variant: variant.into(),
            implementation: format!("{side:?}"),
            algorithm: String::new(),
            device: String::new(),
            note: String::new(),
            n,
            bytes,
            median_ms: ms,
            from_log: false,
        }
    }

    fn raw_of(runs: Vec<Run>) -> Raw {
        Raw {
            runs,
            ..Raw::default()
        }
    }

    #[test]
    fn copy_ceiling_interpolates_and_extends() {
        let raw = raw_of(vec![
            run(Side::Copy, "copy", "d2d", 256, 2048, 1.0),
            run(Side::Copy, "copy", "d2d", 1024, 8192, 4.0),
        ]);
        let c = CopyCeiling::new(&raw);
        assert_eq!(c.ms(1024), Some(1.0));
        assert!((c.ms(4096).unwrap() - 2.0).abs() < 1e-9);
        assert!((c.ms(16384).unwrap() - 8.0).abs() < 1e-9);
    }

    #[test]
    fn variants_match_by_name_then_alone_then_by_words() {
        let raw = raw_of(vec![
            run(Side::Cub, "scan", "exclusive_u32", 1024, 8192, 1.0),
            run(Side::Cub, "reduce", "sum_f32", 1024, 4096, 1.0),
            run(Side::Cub, "reduce", "min_u32", 1024, 4096, 1.0),
        ]);
        let m = |demo, v| matching_variant(&raw, Side::Cub, demo, v);
        assert_eq!(m("scan", "lookback").as_deref(), Some("exclusive_u32"));
        assert_eq!(m("reduce", "sum_f32").as_deref(), Some("sum_f32"));
        assert_eq!(m("reduce", "min_i32").as_deref(), Some("min_u32"));
        assert_eq!(m("reduce", "other"), None);
    }

    /// A reference variant that a wavekit variant is named after is that
    /// variant's: the others take the one left (the scan demo since its
    /// `inclusive_max_u32` variant, whose CUB twin left `auto` with two
    /// candidates and no CUB column).
    #[test]
    fn a_claimed_reference_variant_leaves_the_other_to_the_rest() {
        let raw = raw_of(
            [
                (Side::Cub, "exclusive_u32"),
                (Side::Cub, "inclusive_max_u32"),
                (Side::Vulkan, "auto"),
                (Side::Cuda, "inclusive_max_u32"),
            ]
            .into_iter()
            .map(|(side, variant)| run(side, "scan", variant, 1024, 8192, 1.0))
            .collect(),
        );
        for (variant, reference) in [
            ("auto", "exclusive_u32"),
            ("reduce_then_scan", "exclusive_u32"),
            ("inclusive_max_u32", "inclusive_max_u32"),
        ] {
            let matched = matching_variant(&raw, Side::Cub, "scan", variant);
            assert_eq!(matched.as_deref(), Some(reference), "{variant}");
        }
    }
}
