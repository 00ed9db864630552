//! The history of a revision's kept as-built checks, drawn with plotters as SVG: the cables
//! not as planned, by kind, check by check, so that a fabric being fixed shows its findings
//! falling to zero.

use super::charts::{
    axis_number, legend, svg, swatch, AVAILABLE, CAPTION, FONT, LABEL, REQUIRED, SHORT,
};
use engine::asbuilt::Summary;
use plotters::prelude::*;

const EXTRA: RGBColor = RGBColor(90, 90, 90);

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

/// Each kind of finding (missing, swapped, degraded, links on no planned port) over the kept
/// checks, in the order they were taken.
pub fn history(points: &[CheckPoint]) -> String {
    svg(|root| {
        let top = points
            .iter()
            .flat_map(|p| KINDS.iter().map(|(_, _, of)| of(p.found)))
            .max()
            .unwrap_or(0) as f64;
        let last = points.len().max(2) as f64;
        let mut chart = ChartBuilder::on(root)
            .caption("Cables not as planned, check by check", (FONT, CAPTION))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(0.5..last + 0.5, 0.0..(top * 1.15).max(1.0))
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("checked on")
            .y_desc("cables")
            .x_labels(points.len().clamp(2, 8))
            .x_label_formatter(&|v| {
                let at = v.round();
                if (v - at).abs() > 0.01 || at < 1.0 {
                    return String::new();
                }
                points
                    .get(at as usize - 1)
                    .map(|p| p.checked_on.to_string())
                    .unwrap_or_default()
            })
            .y_label_formatter(&|v| axis_number(*v))
            .label_style((FONT, LABEL))
            .axis_desc_style((FONT, LABEL))
            .draw()
            .map_err(|e| e.to_string())?;
        for (label, color, of) in KINDS {
            let series: Vec<(f64, f64)> = points
                .iter()
                .enumerate()
                .map(|(i, p)| ((i + 1) as f64, f64::from(of(p.found))))
                .collect();
            chart
                .draw_series(LineSeries::new(
                    series.iter().copied(),
                    color.stroke_width(2),
                ))
                .map_err(|e| e.to_string())?
                .label(label)
                .legend(swatch(color));
            chart
                .draw_series(series.iter().map(|p| Circle::new(*p, 4, color.filled())))
                .map_err(|e| e.to_string())?;
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight)
    })
}
