//! The raw results of a device run (bench/device-run.sh): every `.json`
//! (wavekit-demos' report arrays), `.jsonl` (references and micro-benchmarks,
//! one object a line) and wavekit-demos `.log` under one folder, read into
//! runs and micro measurements; plus the run's `info/summary.env`.

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;

/// Who produced a run: the column it goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    /// wavekit through wgpu (Vulkan on the device machine).
    Vulkan,
    /// wavekit through its native CUDA back end.
    Cuda,
    /// CUB called directly (bench/ref/cub_ref.cu).
    Cub,
    /// A PyTorch (or CuPy) call (bench/ref/torch_ref.py).
    Torch,
    /// The device-to-device copy.
    Copy,
    /// What a user of the same API would pick instead of wavekit
    /// (bench/peers: `wk-peers`, lines with `"side": "peer"`).
    Peer,
}

impl Side {
    fn of(backend: &str) -> Option<Side> {
        Some(match backend {
            "wgpu" | "vulkan" => Side::Vulkan,
            "cuda" => Side::Cuda,
            "cub" => Side::Cub,
            "torch" | "cupy" => Side::Torch,
            "copy" => Side::Copy,
            _ => return None,
        })
    }

    /// Column heading.
    pub fn label(self) -> &'static str {
        match self {
            Side::Vulkan => "wavekit Vulkan",
            Side::Cuda => "wavekit CUDA",
            Side::Cub => "CUB",
            Side::Torch => "PyTorch",
            Side::Copy => "copy ceiling",
            Side::Peer => "peer",
        }
    }
}

/// One timed run of a demo or reference at one size.
#[derive(Clone, Debug)]
pub struct Run {
    pub side: Side,
    pub demo: String,
    pub variant: String,
    /// What ran, for references (`cub::DeviceReduce::Sum`); empty for wavekit.
    pub implementation: String,
    pub algorithm: String,
    pub device: String,
    pub note: String,
    pub n: u64,
    pub bytes: u64,
    pub median_ms: f64,
    /// Read from a log line, where the JSON report was lost (a run cut short).
    pub from_log: bool,
}

impl Run {
    /// Items per second (median).
    pub fn items_per_s(&self) -> f64 {
        self.n as f64 / (self.median_ms / 1e3)
    }
}

/// One micro-benchmark line (demos/src/bin/micro.rs, bench/micro/warp_ops.cu).
#[derive(Clone, Debug, Deserialize)]
pub struct Micro {
    pub side: String,
    pub backend: String,
    pub op: String,
    pub dtype: String,
    #[serde(rename = "impl", default)]
    pub implementation: String,
    pub ns: f64,
    pub ops_per_s_per_sm: f64,
}

/// Everything read from a raw folder.
#[derive(Default)]
pub struct Raw {
    pub runs: Vec<Run>,
    pub micro: Vec<Micro>,
    /// `info/summary.env`: KEY=value lines written by the device script.
    pub info: BTreeMap<String, String>,
    /// `steps.tsv`: step, exit status, seconds, note.
    pub steps: Vec<Vec<String>>,
    /// Files that could not be read, with why.
    pub warnings: Vec<String>,
    /// Runs from files under a folder named `alone`: one size of one
    /// variant in a process of its own, for the cliff check (`cliff.rs`);
    /// never in the tables.
    pub alone: Vec<Run>,
}

#[derive(Deserialize)]
struct RunJson {
    /// `peer` for bench/peers' lines, whatever their `backend`.
    #[serde(default)]
    side: String,
    demo: String,
    variant: String,
    backend: String,
    #[serde(default)]
    device: String,
    #[serde(default)]
    algorithm: String,
    #[serde(rename = "impl", default)]
    implementation: String,
    #[serde(default)]
    note: String,
    n: u64,
    bytes: u64,
    timing: Option<TimingJson>,
}

#[derive(Deserialize)]
struct TimingJson {
    median_ms: f64,
}

impl Raw {
    /// Reads every result file under `dir`.
    pub fn load(dir: &Path) -> Result<Raw, String> {
        let mut files = Vec::new();
        walk(dir, &mut files).map_err(|e| format!("{}: {e}", dir.display()))?;
        files.sort();
        let mut raw = Raw::default();
        let mut logs = Vec::new();
        for file in &files {
            let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let alone = file.components().any(|c| c.as_os_str() == "alone");
            let before = raw.runs.len();
            let text = match fs::read_to_string(file) {
                Ok(text) => text,
                Err(e) => {
                    raw.warnings.push(format!("{}: {e}", file.display()));
                    continue;
                }
            };
            if name.ends_with(".jsonl") {
                for (i, line) in text
                    .lines()
                    .enumerate()
                    .filter(|(_, l)| !l.trim().is_empty())
                {
                    match serde_json::from_str::<Value>(line) {
                        Ok(value) => raw.add(value, file),
                        Err(e) => raw
                            .warnings
                            .push(format!("{}:{}: {e}", file.display(), i + 1)),
                    }
                }
            } else if name.ends_with(".json") {
                match serde_json::from_str::<Value>(&text) {
                    Ok(Value::Array(items)) => items.into_iter().for_each(|v| raw.add(v, file)),
                    Ok(value) => raw.add(value, file),
                    Err(e) => raw.warnings.push(format!("{}: {e}", file.display())),
                }
            } else if name == "summary.env" {
                for line in text.lines() {
                    if let Some((key, value)) = line.split_once('=') {
                        raw.info.insert(key.trim().into(), value.trim().into());
                    }
                }
            } else if name == "steps.tsv" {
                raw.steps = text
                    .lines()
                    .map(|l| l.split('\t').map(str::to_string).collect())
                    .collect();
            } else if name.ends_with(".log") && name.starts_with("wavekit-") && !alone {
                logs.push(text);
            }
            if alone {
                let runs = raw.runs.split_off(before);
                raw.alone.extend(runs);
            }
        }
        // Log lines stand in only for sizes whose JSON report is missing.
        let have: HashSet<_> = raw.runs.iter().map(key).collect();
        for text in logs {
            for run in text.lines().filter_map(parse_log_line) {
                if !have.contains(&key(&run)) {
                    raw.runs.push(run);
                }
            }
        }
        dedup(&mut raw.runs);
        Ok(raw)
    }

    fn add(&mut self, value: Value, file: &Path) {
        if value.get("ops_per_s_per_sm").is_some() {
            match serde_json::from_value::<Micro>(value) {
                Ok(m) => self.micro.push(m),
                Err(e) => self.warnings.push(format!("{}: {e}", file.display())),
            }
            return;
        }
        let run = match serde_json::from_value::<RunJson>(value) {
            Ok(run) => run,
            Err(e) => {
                self.warnings.push(format!("{}: {e}", file.display()));
                return;
            }
        };
        let side = match run.side.as_str() {
            "peer" => Some(Side::Peer),
            _ => Side::of(&run.backend),
        };
        let (Some(side), Some(timing)) = (side, run.timing) else {
            return; // untimed (a correctness-only run) or an unknown back end
        };
        self.runs.push(Run {
            side,
            demo: run.demo,
            variant: run.variant,
            implementation: run.implementation,
            algorithm: run.algorithm,
            device: run.device,
            note: run.note,
            n: run.n,
            bytes: run.bytes,
            median_ms: timing.median_ms,
            from_log: false,
        });
    }
}

type Key = (Side, String, String, String, u64);

fn key(run: &Run) -> Key {
    (
        run.side,
        run.demo.clone(),
        run.variant.clone(),
        run.implementation.clone(),
        run.n,
    )
}

/// Keeps the first of runs with the same key (JSON before log lines).
fn dedup(runs: &mut Vec<Run>) {
    let mut seen = HashSet::new();
    runs.retain(|run| seen.insert(key(run)));
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, files)?;
        } else {
            files.push(path);
        }
    }
    Ok(())
}

/// A wavekit-demos progress line:
/// `ok  cuda  reduce        sum_f32        2^20     0.0123 ms    341.0 GB/s    85.250 G items/s`.
/// Bytes come back from the rounded GB/s: good enough to find the copy
/// ceiling, and only used where the JSON report is missing.
fn parse_log_line(line: &str) -> Option<Run> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() < 9 || words[0] != "ok" || words[6] != "ms" || words[8] != "GB/s" {
        return None;
    }
    let side = Side::of(words[1]).filter(|s| matches!(s, Side::Vulkan | Side::Cuda))?;
    let log2: u32 = words[4].strip_prefix("2^")?.parse().ok()?;
    let median_ms: f64 = words[5].parse().ok()?;
    let gb_per_s: f64 = words[7].parse().ok()?;
    Some(Run {
        side,
        demo: words[2].into(),
        variant: words[3].into(),
        implementation: String::new(),
        algorithm: String::new(),
        device: String::new(),
        note: "from the progress log (JSON report missing)".into(),
        n: 1u64 << log2,
        bytes: (gb_per_s * 1e9 * median_ms / 1e3).round() as u64,
        median_ms,
        from_log: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_progress_line() {
        let run = parse_log_line(
            "ok  cuda  reduce        sum_f32        2^20     0.0123 ms    341.0 GB/s    85.250 G items/s",
        )
        .expect("parses");
        assert_eq!(run.side, Side::Cuda);
        assert_eq!(
            (run.demo.as_str(), run.variant.as_str()),
            ("reduce", "sum_f32")
        );
        assert_eq!(run.n, 1 << 20);
        assert!((run.median_ms - 0.0123).abs() < 1e-12);
        assert!(parse_log_line("FAIL cuda reduce sum_f32 2^20: wrong").is_none());
    }

    #[test]
    fn a_peer_line_is_a_peer_not_wavekit_vulkan() {
        // The shape bench/peers' wk-peers writes.
        let line = r#"{"demo":"radix_sort","variant":"pairs","backend":"vulkan","side":"peer",
            "device":"llvmpipe","algorithm":"wgpu_sort 0.1.0 (ported to wgpu 30)",
            "impl":"wgpu_sort::GPUSorter::sort","note":"","n":1024,"bytes":69632,
            "timing":{"median_ms":2.5,"min_ms":2.0,"runs":2,"batches":1,"settled":true}}"#;
        let mut raw = Raw::default();
        raw.add(
            serde_json::from_str(line).expect("JSON"),
            Path::new("peers.jsonl"),
        );
        raw.add(
            serde_json::from_str(&line.replace(r#""side":"peer","#, "")).expect("JSON"),
            Path::new("wavekit.json"),
        );
        assert!(raw.warnings.is_empty(), "{:?}", raw.warnings);
        let sides: Vec<Side> = raw.runs.iter().map(|r| r.side).collect();
        assert_eq!(sides, [Side::Peer, Side::Vulkan]);
        assert_eq!(raw.runs[0].median_ms, 2.5);
    }
}
