//! The history of a revision's kept as-built checks, drawn with plotters as SVG: the cables
//! not as planned, by kind, check by check, so that a fabric being fixed shows its findings
//! falling to zero.

use super::{
    axis_number, legend, record_day, svg, swatch, AVAILABLE, CAPTION, FONT, LABEL, REQUIRED, SHORT,
};
use engine::asbuilt::Summary;
use plotters::prelude::*;

const EXTRA: RGBColor = RGBColor(90, 90, 90);
/// The least top of the count axis, so that a clean history is drawn on a few whole counts.
const MIN_TOP: f64 = 4.0;
/// Half the width of a check's bar, in checks.
const BAR: f64 = 0.3;

/// A kind of finding: its name in the legend, its colour, and its count in a check.
type Kind = (&'static str, RGBColor, fn(&Summary) -> u32);

const KINDS: [Kind; 4] = [
    ("missing", SHORT, |s| s.missing),
    ("swapped", REQUIRED, |s| s.swapped),
    ("degraded", AVAILABLE, |s| s.degraded),
    ("on no planned port", EXTRA, |s| s.extra),
];

/// One kept check: the day its output was taken, and what it found.
pub struct CheckPoint<'a> {
    pub checked_on: &'a str,
    pub found: &'a Summary,
}

/// The findings of each kept check, in the order they were taken, as one bar stacked by kind
/// (missing, swapped, degraded, links on no planned port).
pub fn history(points: &[CheckPoint]) -> String {
    svg(|root| {
        let top = points.iter().map(|p| p.found.findings()).max().unwrap_or(0) as f64;
        let last = points.len().max(2) as f64;
        let days: Vec<&str> = points.iter().map(|p| p.checked_on).collect();
        let mut chart = ChartBuilder::on(root)
            .caption("Cables not as planned, check by check", (FONT, CAPTION))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(0.5..last + 0.5, 0.0..(top * 1.15).max(MIN_TOP))
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("checked on")
            .y_desc("cables")
            .x_labels(points.len().clamp(2, 8))
            .x_label_formatter(&|v| record_day(&days, *v))
            // Cables are counted whole: no tick between two counts.
            .y_labels((top.max(MIN_TOP) as usize + 1).clamp(2, 8))
            .y_label_formatter(&|v| {
                if (v - v.round()).abs() < 1e-6 {
                    axis_number(*v)
                } else {
                    String::new()
                }
            })
            .label_style((FONT, LABEL))
            .axis_desc_style((FONT, LABEL))
            .draw()
            .map_err(|e| e.to_string())?;
        // Stacked per check, so that no kind hides another.
        let mut base = vec![0.0; points.len()];
        for (label, color, of) in KINDS {
            let bars: Vec<Rectangle<(f64, f64)>> = points
                .iter()
                .zip(base.iter_mut())
                .enumerate()
                .filter(|(_, (p, _))| of(p.found) > 0)
                .map(|(i, (p, below))| {
                    let x = (i + 1) as f64;
                    let top = *below + f64::from(of(p.found));
                    let bar = Rectangle::new([(x - BAR, *below), (x + BAR, top)], color.filled());
                    *below = top;
                    bar
                })
                .collect();
            chart
                .draw_series(bars)
                .map_err(|e| e.to_string())?
                .label(label)
                .legend(swatch(color));
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight)
    })
}
