//! One figure per demo, PNG and SVG from the same drawing code: a panel per
//! variant, throughput (G items/s, log scale) against log2 of the size, a
//! line per side (wavekit Vulkan, wavekit CUDA, CUB, PyTorch) and the copy
//! ceiling dashed.

use std::error::Error;
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::compare::{Demo, Row, Variant};

/// Pixels of one panel.
const PANEL: (u32, u32) = (620, 440);

/// The font every text is set in, registered once from a file.
pub fn register_font(path: &Path) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("font {}: {e}", path.display()))?;
    // plotters keeps fonts for the life of the program.
    let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
    plotters::style::register_font("sans-serif", FontStyle::Normal, bytes)
        .map_err(|_| format!("font {}: not a font plotters can read", path.display()))
}

/// Writes `<dir>/<demo>.png` and `<dir>/<demo>.svg`.
pub fn demo_figure(demo: &Demo, title: &str, dir: &Path) -> Result<(), String> {
    let (cols, rows) = grid(demo.variants.len());
    let size = (PANEL.0 * cols, PANEL.1 * rows + 40);
    let png = dir.join(format!("{}.png", demo.name));
    let svg = dir.join(format!("{}.svg", demo.name));
    let fail = |path: &Path, e: Box<dyn Error>| format!("{}: {e}", path.display());
    draw(
        BitMapBackend::new(&png, size).into_drawing_area(),
        demo,
        title,
        cols,
        rows,
    )
    .map_err(|e| fail(&png, e))?;
    draw(
        SVGBackend::new(&svg, size).into_drawing_area(),
        demo,
        title,
        cols,
        rows,
    )
    .map_err(|e| fail(&svg, e))
}

/// Columns and rows for `panels` panels: up to three a row.
fn grid(panels: usize) -> (u32, u32) {
    let cols = panels.clamp(1, 3) as u32;
    (cols, (panels.max(1) as u32).div_ceil(cols))
}

/// The sides drawn: colour, dashed, and the row's value.
type Pick = fn(&Row) -> Option<f64>;
const SERIES: [(&str, RGBColor, bool, Pick); 5] = [
    ("wavekit Vulkan", RGBColor(31, 119, 180), false, |r| {
        r.vulkan
    }),
    ("wavekit CUDA", RGBColor(214, 39, 40), false, |r| r.cuda),
    ("CUB", RGBColor(20, 20, 20), false, |r| r.cub),
    ("PyTorch", RGBColor(150, 150, 150), false, |r| r.torch),
    ("copy ceiling", RGBColor(44, 160, 44), true, |r| r.copy),
];

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    demo: &Demo,
    title: &str,
    cols: u32,
    rows: u32,
) -> Result<(), Box<dyn Error>>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let root = root.titled(title, ("sans-serif", 26))?;
    let panels = root.split_evenly((rows as usize, cols as usize));
    for (area, variant) in panels.iter().zip(&demo.variants) {
        panel(area, variant)?;
    }
    root.present()?;
    Ok(())
}

fn panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    variant: &Variant,
) -> Result<(), Box<dyn Error>>
where
    DB::ErrorType: 'static,
{
    let log2 = |n: u64| f64::from(n.trailing_zeros());
    let (x0, x1) = match (variant.rows.first(), variant.rows.last()) {
        (Some(a), Some(b)) => (log2(a.n), log2(b.n).max(log2(a.n) + 1.0)),
        _ => return Ok(()),
    };
    let values: Vec<f64> = variant
        .rows
        .iter()
        .flat_map(|r| SERIES.iter().filter_map(move |s| (s.3)(r)))
        .map(|v| v / 1e9)
        .filter(|v| *v > 0.0)
        .collect();
    if values.is_empty() {
        return Ok(());
    }
    let mut lo = values.iter().copied().fold(f64::INFINITY, f64::min) / 1.5;
    let mut hi = values.iter().copied().fold(0.0, f64::max) * 3.0; // room for the legend
    if hi / lo < 100.0 {
        // At least two decades, so that the axis has labelled ticks.
        let middle = (lo * hi).sqrt();
        (lo, hi) = (middle / 10.0, middle * 10.0);
    }
    let mut chart = ChartBuilder::on(area)
        .caption(&variant.name, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(64)
        .build_cartesian_2d(x0 - 0.3..x1 + 0.3, (lo..hi).log_scale())?;
    chart
        .configure_mesh()
        .x_desc("log2 n (input elements)")
        .y_desc("G items/s")
        .x_labels((x1 - x0) as usize + 1)
        .x_label_formatter(&|x| format!("{}", x.round() as i64))
        .y_labels(5)
        .y_label_formatter(&|y| tick(*y))
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 15))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    for (label, color, dashed, pick) in SERIES {
        let points: Vec<(f64, f64)> = variant
            .rows
            .iter()
            .filter_map(|r| pick(r).map(|v| (log2(r.n), v / 1e9)))
            .filter(|p| p.1 > 0.0)
            .collect();
        if points.is_empty() {
            continue;
        }
        let style = color.stroke_width(2);
        let legend = move |(x, y): (i32, i32)| PathElement::new(vec![(x, y), (x + 22, y)], style);
        if dashed {
            chart
                .draw_series(DashedLineSeries::new(points, 8, 5, style))?
                .label(label)
                .legend(legend);
        } else {
            chart
                .draw_series(LineSeries::new(points.clone(), style))?
                .label(label)
                .legend(legend);
            chart.draw_series(
                points
                    .into_iter()
                    .map(|p| Circle::new(p, 3, color.filled())),
            )?;
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font(("sans-serif", 14))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .draw()?;
    Ok(())
}

/// A log-axis tick: whole numbers from 1 up, one significant digit below.
fn tick(y: f64) -> String {
    let decimals = (-y.log10().floor()).max(0.0) as usize;
    format!("{y:.decimals$}")
}
