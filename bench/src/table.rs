//! The markdown: one page per demo (a table per variant), the
//! micro-benchmark page, and the README of a benchmark folder.

use std::fmt::Write;

use crate::compare::{Demo, Row};
use crate::data::{Micro, Raw};

/// What every page's heading and the README say about the run.
pub struct Context<'a> {
    pub gpu: &'a str,
    pub date: &'a str,
    pub raw: &'a Raw,
}

const UNITS: &str = "Throughput in G items/s: 10^9 input elements per second at the median \
time of the timed runs (CUDA events or Vulkan timestamps around each run, after warm-up runs). \
Ratios divide throughputs: above 1, wavekit is faster. The copy ceiling is the throughput a \
device-to-device copy would give if it moved the bytes the demo must move (its input read once, \
its output written once); `CUDA/copy` is the share of that ceiling wavekit reaches. `Vulkan/CUDA` \
divides wavekit's two paths where one run (one set of raw results) has both.";

/// A demo's page.
pub fn demo_page(demo: &Demo, cx: &Context<'_>) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# {} — {}, {}\n", demo.name, cx.gpu, cx.date);
    let _ = writeln!(md, "{UNITS}\n");
    let _ = writeln!(md, "![{0}]({0}.png) ([SVG]({0}.svg))\n", demo.name);
    let mut from_log = false;
    for v in &demo.variants {
        let _ = writeln!(md, "## {}\n", v.name);
        for text in &v.algorithms {
            let _ = writeln!(md, "- {text}");
        }
        for (side, other) in [("CUB", &v.cub_variant), ("PyTorch", &v.torch_variant)] {
            if let Some(other) = other {
                let _ = writeln!(md, "- {side} reference: its variant `{other}`");
            }
        }
        for text in &v.references {
            let _ = writeln!(md, "- {text}");
        }
        let _ = writeln!(
            md,
            "\n| n | wavekit Vulkan | wavekit CUDA | CUB | PyTorch | copy ceiling | Vulkan/CUB | CUDA/CUB | Vulkan/CUDA | Vulkan/copy | CUDA/copy |"
        );
        let _ = writeln!(
            md,
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
        );
        for row in &v.rows {
            from_log |= row.from_log;
            let _ = writeln!(md, "{}", table_row(row));
        }
        md.push('\n');
    }
    if from_log {
        md += "\\* read from the progress log: the run's JSON report was lost (the run was cut short).\n";
    }
    md
}

fn table_row(row: &Row) -> String {
    format!("| {} |", cells(row).join(" | "))
}

/// n, the five throughputs, then Vulkan/CUB, CUDA/CUB, Vulkan/CUDA (issue
/// 35's measure of the Vulkan path, where one run has both), Vulkan/copy,
/// CUDA/copy.
fn cells(row: &Row) -> [String; 11] {
    let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.2}", a / b),
        _ => "—".into(),
    };
    [
        format!(
            "2^{}{}",
            row.n.trailing_zeros(),
            if row.from_log { "\\*" } else { "" }
        ),
        g(row.vulkan),
        g(row.cuda),
        g(row.cub),
        g(row.torch),
        g(row.copy),
        ratio(row.vulkan, row.cub),
        ratio(row.cuda, row.cub),
        ratio(row.vulkan, row.cuda),
        ratio(row.vulkan, row.copy),
        ratio(row.cuda, row.copy),
    ]
}

/// G items/s with three significant digits.
fn g(items_per_s: Option<f64>) -> String {
    items_per_s.map_or("—".into(), |x| sig3(x / 1e9))
}

/// Three significant digits, no exponent: 123, 12.3, 1.23, 0.0123.
fn sig3(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let decimals = (2 - x.abs().log10().floor() as i32).max(0) as usize;
    format!("{x:.decimals$}")
}

/// The micro-benchmark page: wavekit against the best CUDA C++ call per op.
pub fn micro_page(micro: &[Micro], cx: &Context<'_>) -> String {
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# Micro-benchmarks of single subgroup ops — {}, {}\n",
        cx.gpu, cx.date
    );
    md += "Each op runs in a dependent chain per thread (`x = op(x) * s + k`, 8 steps per loop \
trip, s and k loaded from memory so nothing folds or hoists, one store per thread at the end): \
`demos/shaders/micro.wgsl` through wavekit, `bench/micro/warp_ops.cu` in CUDA C++ (CUB, \
`__shfl_*_sync`, `__reduce_*_sync`), the same grid. Rates are subgroup (warp) operations per \
second per SM, in G ops/s/SM, at the median time; `CUDA/C++` divides wavekit CUDA's rate by the \
fastest CUDA C++ call's (above 1: wavekit faster).\n\n";
    // (op, dtype) in the order first measured: the shader's order.
    let mut ops: Vec<((String, String), Vec<&Micro>)> = Vec::new();
    for m in micro {
        let key = (m.op.clone(), m.dtype.clone());
        match ops.iter_mut().find(|(k, _)| *k == key) {
            Some((_, ms)) => ms.push(m),
            None => ops.push((key, vec![m])),
        }
    }
    let rate = |m: &Micro| m.ops_per_s_per_sm / 1e9;
    // The fastest call of a side; for wavekit, of one lowering where that
    // ran (else of any): the full list has every call.
    let best =
        |ms: &[&Micro], side: &str, backend: &str, lowering: &str| -> Option<(f64, String)> {
            let of_side: Vec<&&Micro> = ms
                .iter()
                .filter(|m| m.side == side && api(&m.backend) == backend)
                .collect();
            let lowered: Vec<&&Micro> = of_side
                .iter()
                .copied()
                .filter(|m| m.implementation.contains(lowering))
                .collect();
            let pool = if side == "wavekit" && !lowered.is_empty() {
                lowered
            } else {
                of_side
            };
            pool.into_iter()
                .map(|m| (rate(m), m.implementation.clone()))
                .max_by(|a, b| a.0.total_cmp(&b.0))
        };
    md += "| op | dtype | wavekit CUDA (builtin) | wavekit Vulkan (builtin) | wavekit Vulkan (shuffle) | CUDA C++ (fastest) | fastest CUDA C++ call | CUDA/C++ |\n";
    md += "|---|---|---:|---:|---:|---:|---|---:|\n";
    for ((op, dtype), ms) in &ops {
        let cuda = best(ms, "wavekit", "cuda", "builtin");
        let vulkan = best(ms, "wavekit", "vulkan", "builtin");
        let vulkan_shuffle = ms
            .iter()
            .any(|m| {
                m.side == "wavekit"
                    && api(&m.backend) == "vulkan"
                    && m.implementation.contains("shuffle")
            })
            .then(|| best(ms, "wavekit", "vulkan", "shuffle"))
            .flatten();
        let cpp = best(ms, "cuda-cpp", "cuda", "");
        let f = |x: &Option<(f64, String)>| x.as_ref().map_or("—".into(), |(r, _)| sig3(*r));
        let ratio = match (&cuda, &cpp) {
            (Some((a, _)), Some((b, _))) if *b > 0.0 => format!("{:.2}", a / b),
            _ => "—".into(),
        };
        let call = cpp.as_ref().map_or("—".into(), |(_, i)| format!("`{i}`"));
        let _ = writeln!(
            md,
            "| {op} | {dtype} | {} | {} | {} | {} | {call} | {ratio} |",
            f(&cuda),
            f(&vulkan),
            f(&vulkan_shuffle),
            f(&cpp)
        );
    }
    md += "\n## Every measurement\n\n| op | dtype | side | call | G ops/s/SM | median time (µs) |\n|---|---|---|---|---:|---:|\n";
    for ((op, dtype), ms) in &ops {
        for m in ms {
            let side = match (m.side.as_str(), m.backend.as_str()) {
                ("wavekit", "cuda") => "wavekit CUDA",
                ("wavekit", _) => "wavekit Vulkan",
                _ => "CUDA C++",
            };
            let _ = writeln!(
                md,
                "| {op} | {dtype} | {side} | `{}` | {} | {} |",
                m.implementation,
                sig3(rate(m)),
                sig3(m.ns / 1e3)
            );
        }
    }
    md
}

/// The benchmark folder's README: where it ran, how to reproduce, a summary
/// at the largest size of each variant, and what is missing.
pub fn readme(
    demos: &[Demo],
    has_micro: bool,
    has_peers: bool,
    out_name: &str,
    cx: &Context<'_>,
) -> String {
    let info = |k: &str| {
        cx.raw
            .info
            .get(k)
            .map(String::as_str)
            .filter(|v| !v.is_empty())
            .unwrap_or("unknown")
    };
    let mut md = String::new();
    let _ = writeln!(md, "# wavekit benchmarks — {}, {}\n", cx.gpu, cx.date);
    let _ = writeln!(md, "- Date (UTC): {}", cx.date);
    let _ = writeln!(md, "- GPU: {} ({} SMs)", cx.gpu, info("SMS"));
    let _ = writeln!(
        md,
        "- Driver: {} (CUDA {}); nvcc {}; CUB {}; PyTorch {}",
        info("DRIVER"),
        info("CUDA_DRIVER"),
        info("NVCC"),
        info("CUB"),
        info("TORCH")
    );
    let _ = writeln!(md, "- wavekit commit: {}", info("COMMIT"));
    let _ = writeln!(
        md,
        "- Plan: {} timed runs after {} warm-up runs and {} ms of warm-up; sizes {}\n",
        info("RUNS"),
        info("WARMUP"),
        info("WARMUP_MS"),
        info("PLAN")
    );
    md += "Reproduce: on the device machine, from the repository root with the carried \
binaries and libraries (bench/README.md):\n\n```sh\n";
    let _ = writeln!(md, "{}", info("COMMAND"));
    md += "```\n\nthen here, from the fetched `bench-raw.tar.gz`:\n\n```sh\n";
    let _ = writeln!(
        md,
        "mkdir -p /tmp/bench-raw && tar -xzf bench-raw.tar.gz -C /tmp/bench-raw\n\
         cargo run --release --manifest-path bench/Cargo.toml -- --raw /tmp/bench-raw --out docs/benchmarks/{out_name}"
    );
    md += "```\n\n";
    md += "## At the largest size\n\n| demo | variant | n | wavekit Vulkan | wavekit CUDA | CUB | PyTorch | copy ceiling | Vulkan/CUB | CUDA/CUB | Vulkan/CUDA | CUDA/copy |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    for demo in demos {
        for v in &demo.variants {
            let Some(row) = v.rows.last() else { continue };
            let c = cells(row);
            let _ = writeln!(
                md,
                "| [{0}]({0}.md) | {1} | {2} | {3} | {4} | {5} | {6} | {7} | {8} | {9} | {10} | {11} |",
                demo.name, v.name, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[10]
            );
        }
    }
    md += "\n## Pages\n\n";
    for demo in demos {
        let _ = writeln!(md, "- [{0}]({0}.md): ![{0}]({0}.png)", demo.name);
    }
    if has_micro {
        md += "- [micro.md](micro.md): single subgroup ops against CUDA C++ (CUB, intrinsics)\n";
    }
    if has_peers {
        md +=
            "- [peers.md](peers.md): wavekit's Vulkan sort against wgpu_sort (ported to wgpu 30)\n";
    }
    let failed: Vec<&Vec<String>> = cx
        .raw
        .steps
        .iter()
        .skip(1) // the header
        .filter(|s| s.get(1).is_some_and(|rc| rc != "0"))
        .collect();
    if !failed.is_empty() || !cx.raw.warnings.is_empty() {
        md += "\n## Incomplete\n\nSteps of the device run that did not finish cleanly (exit status; 124: \
stopped at its time limit, `skip`: no time left), and files that could not be read:\n\n";
        for step in failed {
            let _ = writeln!(md, "- {}", step.join(" — "));
        }
        for warning in &cx.raw.warnings {
            let _ = writeln!(md, "- {warning}");
        }
    }
    md
}

/// The API a run's `backend` field names: runs before 2026-11-25 wrote
/// `wgpu` for what is now `vulkan` (the wgpu adapter's API).
fn api(backend: &str) -> &str {
    if backend == "wgpu" { "vulkan" } else { backend }
}

#[cfg(test)]
mod tests {
    use super::cells;
    use crate::compare::Row;

    #[test]
    fn vulkan_over_cuda_where_a_run_has_both() {
        let both = Row {
            n: 1 << 20,
            vulkan: Some(80e9),
            cuda: Some(100e9),
            cub: Some(50e9),
            ..Row::default()
        };
        let c = cells(&both);
        assert_eq!(c[0], "2^20");
        assert_eq!((c[6].as_str(), c[7].as_str()), ("1.60", "2.00"));
        assert_eq!(c[8], "0.80");
        let vulkan_alone = Row { cuda: None, ..both };
        assert_eq!(cells(&vulkan_alone)[8], "—");
    }
}
