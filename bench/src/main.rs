//! `wavekit-bench`: turns the raw results of a device run
//! (bench/device-run.sh, unpacked from its `bench-raw.tar.gz`) into the
//! benchmark folder: a markdown table and a plot (PNG + SVG) per demo, the
//! micro-benchmark table, the peers' table (`peers.md`), and a README.
//!
//! ```text
//! cargo run --release --manifest-path bench/Cargo.toml -- \
//!     --raw /tmp/bench-raw [--out docs/benchmarks/2026-11-24-h100] [--font FILE] [--date YYYY-MM-DD]
//! ```

mod cliff;
mod compare;
mod data;
mod peers;
mod plot;
mod table;

use std::path::PathBuf;
use std::process::ExitCode;

use data::Raw;
use table::Context;

/// Debian's fonts-dejavu-core.
const FONT: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

struct Args {
    raw: PathBuf,
    out: Option<PathBuf>,
    font: PathBuf,
    date: Option<String>,
}

const USAGE: &str =
    "usage: wavekit-bench --raw DIR [--out DIR] [--font FILE.ttf] [--date YYYY-MM-DD]";

fn parse_args() -> Result<Args, String> {
    let mut args = std::env::args().skip(1);
    let (mut raw, mut out, mut font, mut date) = (None, None, PathBuf::from(FONT), None);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value\n{USAGE}"));
        match flag.as_str() {
            "--raw" => raw = Some(PathBuf::from(value()?)),
            "--out" => out = Some(PathBuf::from(value()?)),
            "--font" => font = PathBuf::from(value()?),
            "--date" => date = Some(value()?),
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument `{other}`\n{USAGE}")),
        }
    }
    let raw = raw.ok_or(USAGE)?;
    Ok(Args {
        raw,
        out,
        font,
        date,
    })
}

fn main() -> ExitCode {
    match parse_args().and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Args) -> Result<(), String> {
    let raw = Raw::load(&args.raw)?;
    for warning in &raw.warnings {
        eprintln!("warning: {warning}");
    }
    if raw.runs.is_empty() && raw.micro.is_empty() {
        return Err(format!("no results under {}", args.raw.display()));
    }
    let gpu = gpu_name(&raw);
    let date = args
        .date
        .or_else(|| raw.info.get("DATE").cloned())
        .unwrap_or_else(|| "undated".into());
    let out = args
        .out
        .unwrap_or_else(|| PathBuf::from(format!("docs/benchmarks/{date}-{}", slug(&gpu))));
    let out_name = out
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    plot::register_font(&args.font)?;
    let cx = Context {
        gpu: &gpu,
        date: &date,
        raw: &raw,
    };
    let demos = compare::demos(&raw);
    let write = |name: &str, text: String| {
        let path = out.join(name);
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote {}", path.display());
        Ok::<(), String>(())
    };
    for demo in &demos {
        write(&format!("{}.md", demo.name), table::demo_page(demo, &cx))?;
        let title = format!("{} — {gpu}, {date}", demo.name);
        plot::demo_figure(demo, &title, &out)?;
        println!(
            "wrote {0}/{1}.png and {0}/{1}.svg",
            out.display(),
            demo.name
        );
    }
    if !raw.micro.is_empty() {
        write("micro.md", table::micro_page(&raw.micro, &cx))?;
    }
    let peers = peers::page(&raw, &gpu, &date);
    if let Some(page) = &peers {
        write("peers.md", page.clone())?;
    }
    write(
        "README.md",
        table::readme(
            &demos,
            !raw.micro.is_empty(),
            peers.is_some(),
            &out_name,
            &cx,
        ),
    )?;
    if let Some(cliff) = cliff::check(&raw) {
        write("cliff.md", cliff.page)?;
        if !cliff.failures.is_empty() {
            return Err(format!(
                "{} size(s) differ by more than 10 % between the sweep and a process of their own (cliff.md):\n  {}",
                cliff.failures.len(),
                cliff.failures.join("\n  ")
            ));
        }
    }
    Ok(())
}

/// The GPU's name: the device script's record, else the CUDA runs' device.
fn gpu_name(raw: &Raw) -> String {
    raw.info
        .get("GPU")
        .filter(|name| !name.is_empty() && *name != "unknown")
        .cloned()
        .or_else(|| {
            let device = |side| {
                raw.runs
                    .iter()
                    .find(|r| r.side == side && !r.device.is_empty())
            };
            device(data::Side::Cuda)
                .or_else(|| device(data::Side::Vulkan))
                .map(|r| r.device.clone())
        })
        .unwrap_or_else(|| "unknown GPU".into())
}

/// A folder-name word for the GPU: `h100` for "NVIDIA H100 80GB HBM3".
fn slug(gpu: &str) -> String {
    let words: Vec<&str> = gpu
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let model = words.iter().find(|w| {
        w.chars().any(|c| c.is_ascii_digit()) && w.chars().any(|c| c.is_ascii_alphabetic())
    });
    model
        .or(words.first())
        .map_or("gpu".into(), |w| w.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    #[test]
    fn slugs() {
        assert_eq!(super::slug("NVIDIA H100 80GB HBM3"), "h100");
        assert_eq!(super::slug("llvmpipe (LLVM 15.0.6, 256 bits)"), "llvmpipe");
    }
}
