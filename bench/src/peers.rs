//! `peers.md`: wavekit against what a user of the same API would pick
//! instead (issue 33, step 3; bench/peers). Today one peer, wgpu_sort 0.1.0
//! ported to wgpu 30, against wavekit's Vulkan pair sort (`radix_sort
//! pairs`): per size both median times and their ratio.

use std::collections::BTreeSet;
use std::fmt::Write;

use crate::compare::at;
use crate::data::{Raw, Run, Side};

/// The page, or `None` where no peer ran.
pub fn page(raw: &Raw, gpu: &str, date: &str) -> Option<String> {
    let peers: Vec<&Run> = raw.runs.iter().filter(|r| r.side == Side::Peer).collect();
    if peers.is_empty() {
        return None;
    }
    let mut md = String::new();
    let _ = writeln!(md, "# wavekit against its peers — {gpu}, {date}\n");
    md += "What a user of the same API would pick instead of wavekit, on the same card, the same \
inputs (those of wavekit's demo, bit for bit) and the same timing: GPU timestamps around the \
call's passes, medians after warm-up runs, each result checked against a CPU reference \
(bench/peers/README.md). Ratio: the peer's time over wavekit's, so above 1 wavekit is faster.\n\n";
    // One table per peer algorithm and the demo variant it stands beside.
    let mut groups: Vec<(&str, &str, &str)> = Vec::new();
    for run in &peers {
        let key = (
            run.demo.as_str(),
            run.variant.as_str(),
            run.algorithm.as_str(),
        );
        if !groups.contains(&key) {
            groups.push(key);
        }
    }
    for (demo, variant, algorithm) in groups {
        let peer: Vec<&Run> = peers
            .iter()
            .copied()
            .filter(|r| r.demo == demo && r.variant == variant && r.algorithm == algorithm)
            .collect();
        let wavekit: Vec<&Run> = raw
            .runs
            .iter()
            .filter(|r| r.side == Side::Vulkan && r.demo == demo && r.variant == variant)
            .collect();
        let _ = writeln!(md, "## `{demo} {variant}`: {algorithm}\n");
        let devices = |runs: &[&Run]| -> Vec<String> {
            let mut names: Vec<String> = Vec::new();
            for r in runs.iter().filter(|r| !r.device.is_empty()) {
                if !names.contains(&r.device) {
                    names.push(r.device.clone());
                }
            }
            names
        };
        let (peer_cards, wavekit_cards) = (devices(&peer), devices(&wavekit));
        let _ = writeln!(
            md,
            "- Card: {} (peer), {} (wavekit Vulkan){}",
            list(&peer_cards),
            list(&wavekit_cards),
            if !wavekit_cards.is_empty() && peer_cards != wavekit_cards {
                " — **not the same adapter: the ratios compare different cards**"
            } else {
                ""
            }
        );
        if algorithm.contains("wgpu 30") {
            md += "- The peer is ported to wgpu 30, the wgpu wavekit uses (the release it \
needs, wgpu 0.19/0.20, is not in the local cargo registry): its shader verbatim, its host code \
with the API's renames only (bench/peers/README.md lists every change).\n";
        }
        let mut notes: Vec<String> = Vec::new();
        for r in &peer {
            let text = format!("`{}`: {}", r.implementation, r.note);
            if !r.note.is_empty() && !notes.contains(&text) {
                notes.push(text);
            }
        }
        for note in &notes {
            let _ = writeln!(md, "- Peer: {note}");
        }
        for algorithm in wavekit
            .iter()
            .map(|r| r.algorithm.as_str())
            .collect::<BTreeSet<_>>()
        {
            if !algorithm.is_empty() {
                let _ = writeln!(md, "- wavekit Vulkan: {algorithm}");
            }
        }
        md += "\n| n | wavekit Vulkan ms | peer ms | peer / wavekit | wavekit G items/s | peer G items/s |\n\
|---:|---:|---:|---:|---:|---:|\n";
        let sizes: BTreeSet<u64> = peer.iter().chain(&wavekit).map(|r| r.n).collect();
        for n in sizes {
            let (w, p) = (at(&wavekit, n), at(&peer, n));
            let ms = |r: Option<&Run>| r.map_or("—".into(), |r| format!("{:.4}", r.median_ms));
            let rate = |r: Option<&Run>| {
                r.map_or("—".into(), |r| format!("{:.3}", r.items_per_s() / 1e9))
            };
            let ratio = match (w, p) {
                (Some(w), Some(p)) if w.median_ms > 0.0 => {
                    format!("{:.2}", p.median_ms / w.median_ms)
                }
                _ => "—".into(),
            };
            let _ = writeln!(
                md,
                "| 2^{} | {} | {} | {ratio} | {} | {} |",
                n.max(1).ilog2(),
                ms(w),
                ms(p),
                rate(w),
                rate(p)
            );
        }
        md.push('\n');
    }
    md += "## Not measured\n\n- CubeCL (tracel-ai/cubecl: GPU kernels written in Rust, with wgpu \
and CUDA runtimes): not in the local cargo registry of the machine that builds the benchmark, \
so not built or measured.\n";
    Some(md)
}

fn list(names: &[String]) -> String {
    if names.is_empty() {
        "unknown".into()
    } else {
        names.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(side: Side, device: &str, n: u64, median_ms: f64) -> Run {
        Run {
            side,
            demo: "radix_sort".into(),
            variant: "pairs".into(),
            implementation: "wgpu_sort::GPUSorter::sort".into(),
            algorithm: match side {
                Side::Peer => "wgpu_sort 0.1.0 (ported to wgpu 30)".into(),
                _ => "OneSweep".into(),
            },
            device: device.into(),
            note: "subgroup size 32".into(),
            n,
            bytes: 68 * n,
            median_ms,
            from_log: false,
        }
    }

    #[test]
    fn the_ratio_is_the_peers_time_over_wavekits_per_size() {
        let h100 = "NVIDIA H100 80GB HBM3";
        let raw = Raw {
            runs: vec![
                run(Side::Vulkan, h100, 1 << 16, 0.05),
                run(Side::Vulkan, h100, 1 << 17, 0.08),
                run(Side::Peer, h100, 1 << 16, 0.10),
                run(Side::Peer, h100, 1 << 18, 0.30),
                run(Side::Cuda, h100, 1 << 16, 0.01),
            ],
            ..Raw::default()
        };
        let md = page(&raw, h100, "2026-11-26").expect("a peer ran");
        assert!(
            md.contains("| 2^16 | 0.0500 | 0.1000 | 2.00 | 1.311 | 0.655 |"),
            "{md}"
        );
        assert!(md.contains("| 2^17 | 0.0800 | — | — |"), "{md}");
        assert!(md.contains("| 2^18 | — | 0.3000 | — |"), "{md}");
        assert!(
            md.contains(&format!("- Card: {h100} (peer), {h100} (wavekit Vulkan)\n")),
            "{md}"
        );
        assert!(md.contains("ported to wgpu 30"), "{md}");
        assert!(md.contains("CubeCL"), "{md}");
        assert!(page(&Raw::default(), h100, "2026-11-26").is_none());
    }

    #[test]
    fn different_cards_are_called_out() {
        let raw = Raw {
            runs: vec![
                run(Side::Vulkan, "llvmpipe", 1 << 10, 1.0),
                run(Side::Peer, "NVIDIA H100", 1 << 10, 1.0),
            ],
            ..Raw::default()
        };
        assert!(
            page(&raw, "x", "y")
                .unwrap()
                .contains("not the same adapter")
        );
    }
}
