//! The search's frontier drawn: network cost against the worst training slowdown (or the
//! worst added latency per token when nothing trains), a point per frontier candidate coloured
//! by the technology of its first fabric, and the design searched from marked.

use super::{axis_number, legend, svg, swatch, CAPTION, FONT, LABEL};
use engine::search::Candidate;
use engine::Technology;
use plotters::prelude::*;

/// A colour per technology, distinguishable in print.
fn colour(t: Technology) -> RGBColor {
    match t {
        Technology::IbNdr | Technology::IbXdr => RGBColor(11, 92, 173),
        Technology::Roce400 | Technology::Roce800 | Technology::Roce200 => RGBColor(0, 128, 96),
        Technology::Roce100 => RGBColor(96, 160, 64),
        Technology::Tcp100 | Technology::Tcp25 => RGBColor(179, 92, 0),
    }
}

/// Where a design stands: network cost, USD, and the figure of the y axis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub cost_usd: engine::Usd,
    pub performance: f64,
}

/// `frontier` against `base`, with the `target` every workload is held to as a dashed line;
/// `per_token` when the y axis is the added latency per token.
pub fn frontier_chart(
    frontier: &[Candidate],
    base: Option<Point>,
    per_token: bool,
    target: Option<f64>,
) -> String {
    let y = |c: &Candidate| {
        if per_token {
            c.record.added_latency_ms
        } else {
            c.record.slowdown_percent
        }
    };
    let points: Vec<(f64, f64, Technology)> = frontier
        .iter()
        .filter_map(|c| {
            let t = c.choice.fabrics.first()?.technology;
            Some((c.network().0.dollars() / 1e3, y(c), t))
        })
        .filter(|(x, y, _)| x.is_finite() && y.is_finite())
        .collect();
    let all_x = points
        .iter()
        .map(|p| p.0)
        .chain(base.map(|b| b.cost_usd.dollars() / 1e3));
    let all_y = points
        .iter()
        .map(|p| p.1)
        .chain(base.map(|b| b.performance));
    let (x_low, x_high) = all_x.fold((f64::MAX, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    // The axis spans the points and the target: a frontier far below its target shows as
    // such, not stretched to fill the chart (or, all at zero, over a range of nothing).
    let y_high = all_y.chain(target).fold(0.0f64, f64::max);
    let y_high = if y_high > 0.0 { y_high * 1.25 } else { 1.0 };
    let (x_low, x_high) = if x_high > 0.0 {
        ((x_low * 0.9).max(0.0), x_high * 1.1)
    } else {
        (0.0, 1.0)
    };
    svg(|root| {
        let mut chart = ChartBuilder::on(root)
            .caption(
                if per_token {
                    "Frontier: network cost against added latency per token"
                } else {
                    "Frontier: network cost against training slowdown"
                },
                (FONT, CAPTION),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(x_low..x_high, 0.0..y_high)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("network cost, thousand USD")
            .y_desc(if per_token {
                "added latency per token, ms"
            } else {
                "slowdown, %"
            })
            .x_label_formatter(&|v| axis_number(*v))
            .y_label_formatter(&|v| axis_number(*v))
            .label_style((FONT, LABEL))
            .axis_desc_style((FONT, LABEL))
            .draw()
            .map_err(|e| e.to_string())?;
        let mut technologies: Vec<Technology> = points.iter().map(|p| p.2).collect();
        technologies.dedup();
        technologies.sort_by_key(|t| Technology::ALL.iter().position(|a| a == t));
        technologies.dedup();
        for t in technologies {
            let c = colour(t);
            chart
                .draw_series(
                    points
                        .iter()
                        .filter(|p| p.2 == t)
                        .map(|p| Circle::new((p.0, p.1), 4, c.filled())),
                )
                .map_err(|e| e.to_string())?
                .label(t.label())
                .legend(swatch(c));
        }
        if let Some(t) = target.filter(|t| t.is_finite()) {
            chart
                .draw_series(DashedLineSeries::new(
                    [(x_low, t), (x_high, t)],
                    6,
                    4,
                    RGBColor(160, 0, 0).stroke_width(1),
                ))
                .map_err(|e| e.to_string())?
                .label("target")
                .legend(swatch(RGBColor(160, 0, 0)));
        }
        if let Some(b) = base {
            let at = (b.cost_usd.dollars() / 1e3, b.performance);
            chart
                .draw_series(std::iter::once(Cross::new(at, 6, BLACK.stroke_width(2))))
                .map_err(|e| e.to_string())?
                .label("this design")
                .legend(swatch(BLACK));
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight)
    })
}
