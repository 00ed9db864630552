//! Every chart and diagram, drawn with plotters (or a view) as SVG text. Every number comes from the engine;
//! these functions only draw. Text that plotters writes is escaped by it.
//!
//! Over 400 lines because every chart shares the axes, units and styles set at the top.

pub mod asbuilt;
pub mod baselines;
pub mod phases;
pub mod search;
pub mod studies;
pub mod topology;
pub mod validation;

use engine::studies::{
    CheckpointPoint, DegradedPoint, OversubscriptionPoint, ScalingPoint, TechnologyPoint,
};
use engine::TierHeadroom;
use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;

const WIDTH: u32 = 560;
const HEIGHT: u32 = 300;
pub(super) const AVAILABLE: RGBColor = RGBColor(11, 92, 173);
pub(super) const REQUIRED: RGBColor = RGBColor(214, 120, 0);
pub(super) const SHORT: RGBColor = RGBColor(164, 22, 26);
pub(super) const FONT: &str = "sans-serif";
pub(super) const CAPTION: u32 = 17;
pub(super) const LABEL: u32 = 14;

/// An axis number with at most three significant digits and no trailing zeros, its whole part
/// in thousands ("10,000,000" on a log axis of bandwidth).
pub(super) fn axis_number(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return "0".into();
    }
    let digits = (2 - v.abs().log10().floor() as i32).clamp(0, 6) as usize;
    let text = engine::grouped(v, digits);
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// The unit that keeps the labels of a rate axis short from `lowest` (bytes per second) up, a
/// large fabric's petabytes a second not written in gigabytes: (divisor, unit).
fn rate_unit(lowest: f64) -> (f64, &'static str) {
    [(1e15, "PB/s"), (1e12, "TB/s")]
        .into_iter()
        .find(|(per_unit, _)| lowest >= *per_unit)
        .unwrap_or((1e9, "GB/s"))
}

/// The unit that keeps the largest of `seconds` readable: (divisor, unit).
fn time_unit(largest_s: f64) -> (f64, &'static str) {
    if largest_s >= 10.0 {
        (1.0, "s")
    } else if largest_s >= 0.01 {
        (1e-3, "ms")
    } else {
        (1e-6, "µs")
    }
}

/// A short name for an axis label.
fn short_label(t: engine::Technology) -> &'static str {
    use engine::Technology::*;
    match t {
        IbNdr => "IB NDR 400G",
        IbXdr => "IB XDR 800G",
        Roce100 => "RoCE 100G",
        Roce200 => "RoCE 200G",
        Roce400 => "RoCE 400G",
        Roce800 => "RoCE 800G",
        Tcp25 => "25GbE TCP",
        Tcp100 => "100GbE TCP",
    }
}

/// The chart's series labels, in one style for every chart.
pub(super) fn legend<'a, DB, CT>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
) -> Drawn
where
    DB: DrawingBackend + 'a,
    CT: CoordTranslate,
{
    chart
        .configure_series_labels()
        .position(position)
        .label_font((FONT, LABEL))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.3))
        .draw()
        .map_err(|e| e.to_string())
}

/// The label at `v` of an axis of records one after another (baselines, as-built checks), the
/// first at 1: the day of the record there, and nothing between two.
pub(super) fn record_day(days: &[&str], v: f64) -> String {
    let at = v.round();
    if (v - at).abs() > 0.01 || at < 1.0 {
        return String::new();
    }
    days.get(at as usize - 1)
        .map(|d| d.to_string())
        .unwrap_or_default()
}

/// A filled square for a legend entry.
pub(super) fn swatch(color: RGBColor) -> impl Fn((i32, i32)) -> Rectangle<(i32, i32)> {
    move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled())
}

/// Draws into an SVG string; a drawing error leaves a chart that says so rather than a panic.
pub(super) type Drawn = Result<(), String>;

pub(super) fn svg(
    draw: impl FnOnce(&DrawingArea<SVGBackend, plotters::coord::Shift>) -> Drawn,
) -> String {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, HEIGHT)).into_drawing_area();
        let drawn = root
            .fill(&WHITE)
            .map_err(|e| e.to_string())
            .and_then(|_| draw(&root));
        if drawn.is_err() {
            let _ = root.draw(&Text::new("chart unavailable", (20, 20), (FONT, 14)));
        }
        let _ = root.present();
    }
    out
}

/// `n` category slots: a segmented range over 0..=n−1 (plotters counts both ends), so that no
/// empty slot follows the last bar.
fn slots(
    n: u32,
) -> plotters::coord::ranged1d::SegmentedCoord<plotters::coord::types::RangedCoordu32> {
    // A single slot would be a range of zero width, which plotters cannot scale.
    (0..n.saturating_sub(1).max(1)).into_segmented()
}

/// The headroom chart of `fabric`'s tiers.
pub fn fabric_headroom(fabric: &engine::FabricReport) -> String {
    headroom(&fabric.name, &fabric.tiers, fabric.bottleneck.as_deref())
}

/// Bandwidth each tier has against what its workloads need (log scale: they differ by orders
/// of magnitude). The tier with the least headroom is marked.
pub fn headroom(fabric: &str, tiers: &[TierHeadroom], bottleneck: Option<&str>) -> String {
    svg(|root| {
        let n = tiers.len() as u32;
        let values = tiers
            .iter()
            .flat_map(|t| {
                [
                    t.available.bytes_per_second(),
                    t.required.bytes_per_second(),
                ]
            })
            .filter(|v| *v > 0.0);
        let (low, high) = values.fold((f64::MAX, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let (low, high) = if high > 0.0 {
            (low / 10.0, high * 3.0)
        } else {
            (1e6, 1e12)
        };
        let (per_unit, unit) = rate_unit(low);
        let mut chart = ChartBuilder::on(root)
            .caption(
                format!("Fabric {fabric}: bandwidth per tier, one direction"),
                (FONT, CAPTION),
            )
            .margin(12)
            .x_label_area_size(34)
            .y_label_area_size(64)
            .build_cartesian_2d(slots(n), (low..high).log_scale())
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => tiers
                    .get(*i as usize)
                    .map(|t| {
                        if Some(t.tier.as_str()) == bottleneck {
                            format!("{} (bottleneck)", t.tier)
                        } else {
                            t.tier.clone()
                        }
                    })
                    .unwrap_or_default(),
                _ => String::new(),
            })
            .y_label_formatter(&|v| axis_number(v / per_unit))
            .y_desc(format!("{unit} (log scale)"))
            .label_style((FONT, LABEL))
            .axis_desc_style((FONT, LABEL))
            .draw()
            .map_err(|e| e.to_string())?;
        let at = |i: usize| i as u32;
        chart
            .draw_series(tiers.iter().enumerate().map(|(i, t)| {
                Rectangle::new(
                    [
                        (SegmentValue::Exact(at(i)), low),
                        (
                            SegmentValue::CenterOf(at(i)),
                            t.available.bytes_per_second().max(low),
                        ),
                    ],
                    AVAILABLE.filled(),
                )
            }))
            .map_err(|e| e.to_string())?
            .label("available")
            .legend(swatch(AVAILABLE));
        chart
            .draw_series(tiers.iter().enumerate().map(|(i, t)| {
                let short = t.required.bytes_per_second() > t.available.bytes_per_second();
                Rectangle::new(
                    [
                        (SegmentValue::CenterOf(at(i)), low),
                        (
                            SegmentValue::Exact(at(i) + 1),
                            t.required.bytes_per_second().max(low),
                        ),
                    ],
                    if short {
                        SHORT.filled()
                    } else {
                        REQUIRED.filled()
                    },
                )
            }))
            .map_err(|e| e.to_string())?
            .label("required (red: short)")
            .legend(swatch(REQUIRED));
        legend(&mut chart, SeriesLabelPosition::UpperRight)?;
        Ok(())
    })
}

/// Communication of one workload on each compared technology.
pub fn technologies(points: &[TechnologyPoint], per: &str) -> String {
    svg(|root| {
        let n = points.len() as u32;
        let largest = points
            .iter()
            .map(|p| p.communication.seconds())
            .fold(0.0, f64::max);
        let (scale, unit) = time_unit(largest);
        let value = |p: &TechnologyPoint| p.communication.seconds() / scale;
        let high = largest / scale * 1.15;
        let mut chart = ChartBuilder::on(root)
            .caption(
                format!("Communication {per} by fabric technology"),
                (FONT, CAPTION),
            )
            .margin(12)
            .x_label_area_size(34)
            .y_label_area_size(64)
            .build_cartesian_2d(slots(n), 0.0..high.max(1e-3))
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => points
                    .get(*i as usize)
                    .map(|p| short_label(p.technology).to_string())
                    .unwrap_or_default(),
                _ => String::new(),
            })
            .y_label_formatter(&|v| axis_number(*v))
            .y_desc(unit)
            .label_style((FONT, LABEL))
            .axis_desc_style((FONT, LABEL))
            .draw()
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(points.iter().enumerate().map(|(i, p)| {
                let i = i as u32;
                let mut bar = Rectangle::new(
                    [
                        (SegmentValue::Exact(i), 0.0),
                        (SegmentValue::Exact(i + 1), value(p)),
                    ],
                    AVAILABLE.mix(if i == 0 { 1.0 } else { 0.75 }).filled(),
                );
                bar.set_margin(0, 0, 8, 8);
                bar
            }))
            .map_err(|e| e.to_string())?;
        Ok(())
    })
}

/// Step time and communication share as the cluster grows.
pub fn scaling(points: &[ScalingPoint]) -> String {
    svg(|root| {
        let max_nodes = points.iter().map(|p| p.nodes).max().unwrap_or(1).max(2);
        let min_nodes = points.iter().map(|p| p.nodes).min().unwrap_or(1).max(1);
        // Room above the step-time line for the legend, so that it covers neither line.
        let high = points
            .iter()
            .map(|p| p.step_time.seconds())
            .fold(0.0, f64::max)
            * 1.6;
        let mut chart = ChartBuilder::on(root)
            .caption(
                "Step time and communication share by cluster size",
                (FONT, CAPTION),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .right_y_label_area_size(56)
            .build_cartesian_2d(
                (f64::from(min_nodes)..f64::from(max_nodes)).log_scale(),
                0.0..high.max(1e-3),
            )
            .map_err(|e| e.to_string())?
            .set_secondary_coord(
                (f64::from(min_nodes)..f64::from(max_nodes)).log_scale(),
                0.0..100.0,
            );
        chart
            .configure_mesh()
            .x_desc("nodes (log scale)")
            .y_desc("step time, s")
            .x_labels(6)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&|v| axis_number(*v))
            .label_style((FONT, LABEL))
            .axis_desc_style((FONT, LABEL))
            .draw()
            .map_err(|e| e.to_string())?;
        chart
            .configure_secondary_axes()
            .y_desc("communication share, %")
            .y_label_formatter(&|v| axis_number(*v))
            .label_style((FONT, LABEL))
            .axis_desc_style((FONT, LABEL))
            .draw()
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(LineSeries::new(
                points
                    .iter()
                    .map(|p| (f64::from(p.nodes), p.step_time.seconds())),
                AVAILABLE.stroke_width(2),
            ))
            .map_err(|e| e.to_string())?
            .label("step time")
            .legend(swatch(AVAILABLE));
        chart
            .draw_series(points.iter().map(|p| {
                Circle::new(
                    (f64::from(p.nodes), p.step_time.seconds()),
                    3,
                    AVAILABLE.filled(),
                )
            }))
            .map_err(|e| e.to_string())?;
        chart
            .draw_secondary_series(LineSeries::new(
                points
                    .iter()
                    .map(|p| (f64::from(p.nodes), p.communication_share.percent())),
                REQUIRED.stroke_width(2),
            ))
            .map_err(|e| e.to_string())?
            .label("communication share")
            .legend(swatch(REQUIRED));
        legend(&mut chart, SeriesLabelPosition::UpperRight)?;
        Ok(())
    })
}

/// Slowdown as one link of the ring loses speed.
pub fn degraded(points: &[DegradedPoint]) -> String {
    let xy: Vec<(f64, f64)> = points
        .iter()
        .map(|p| (p.remaining.percent(), p.slowdown.percent()))
        .collect();
    line_chart(
        "One degraded link: slowdown",
        "speed left on the link, %",
        "slowdown, % of the healthy time",
        0.0..100.0,
        up_to_the_highest(&xy),
        &xy,
        SHORT,
    )
}

/// A y axis from zero to a little above the highest point: scaled to the data, and never a
/// range of nothing.
fn up_to_the_highest(points: &[(f64, f64)]) -> std::ops::Range<f64> {
    let high = points.iter().map(|p| p.1).fold(0.0, f64::max);
    0.0..if high > 0.0 { high * 1.15 } else { 1.0 }
}

/// A line with its points marked, on a chart from `x` to `y`.
fn line_chart(
    caption: &str,
    x_desc: &str,
    y_desc: &str,
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
    points: &[(f64, f64)],
    color: RGBColor,
) -> String {
    svg(|root| {
        let mut chart = ChartBuilder::on(root)
            .caption(caption, (FONT, CAPTION))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(x, y)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc(y_desc)
            .x_label_formatter(&|v| axis_number(*v))
            .y_label_formatter(&|v| axis_number(*v))
            .label_style((FONT, LABEL))
            .axis_desc_style((FONT, LABEL))
            .draw()
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                color.stroke_width(2),
            ))
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(points.iter().map(|p| Circle::new(*p, 3, color.filled())))
            .map_err(|e| e.to_string())?;
        Ok(())
    })
}

/// Slowdown as the leaves of the workload's fabric are oversubscribed.
pub fn oversubscription(points: &[OversubscriptionPoint]) -> String {
    let xy: Vec<(f64, f64)> = points
        .iter()
        .map(|p| (p.oversubscription, p.slowdown.percent()))
        .collect();
    line_chart(
        "Leaf oversubscription: slowdown",
        "oversubscription (downlinks ÷ uplinks)",
        "slowdown, % of the non-blocking time",
        1.0..4.0,
        up_to_the_highest(&xy),
        &xy,
        REQUIRED,
    )
}

/// Share of the time spent writing checkpoints, by interval.
pub fn checkpoints(points: &[CheckpointPoint]) -> String {
    let xy: Vec<(f64, f64)> = points
        .iter()
        .map(|p| (p.interval_minutes.minutes(), p.overhead.percent()))
        .collect();
    let last = points
        .iter()
        .map(|p| p.interval_minutes.minutes())
        .fold(1.0, f64::max);
    line_chart(
        "Checkpoint interval: time spent writing",
        "minutes between checkpoints",
        "% of the time writing",
        0.0..last,
        up_to_the_highest(&xy),
        &xy,
        AVAILABLE,
    )
}

#[cfg(test)]
mod tests;
