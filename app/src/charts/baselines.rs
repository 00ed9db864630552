//! Charts of measured baselines against the design's prediction, drawn with plotters as SVG.

use super::{
    axis_number, legend, record_day, svg, swatch, Drawn, AVAILABLE, CAPTION, FONT, LABEL, REQUIRED,
    SHORT,
};
use engine::baseline::BaselineCheck;
use engine::nccl_tests::{size_label, HEALTHY_SHARE};
use engine::GigabytesPerSecond;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Axes of bus bandwidth (GB/s) against message size on a log-2 axis over `log2_sizes`, with at
/// most `most_labels` sizes labelled: one per power of two at most, and none between them, so
/// that no size is labelled twice.
pub(super) fn size_mesh(
    chart: &mut Chart,
    log2_sizes: std::ops::Range<f64>,
    most_labels: usize,
) -> Drawn {
    chart
        .configure_mesh()
        .x_desc("message size")
        .y_desc("bus bandwidth, GB/s")
        .x_labels(((log2_sizes.end - log2_sizes.start).round() as usize + 1).clamp(2, most_labels))
        .x_label_formatter(&|v| {
            if (v - v.round()).abs() < 0.01 {
                size_label(2f64.powf(v.round()) as u64)
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|v| axis_number(*v))
        .label_style((FONT, LABEL))
        .axis_desc_style((FONT, LABEL))
        .draw()
        .map_err(|e| e.to_string())
}

/// The measured series of both charts: a line with its points marked, in the legend.
fn draw_measured(chart: &mut Chart, points: &[(f64, f64)], radius: i32) -> Drawn {
    chart
        .draw_series(LineSeries::new(
            points.iter().copied(),
            AVAILABLE.stroke_width(2),
        ))
        .map_err(|e| e.to_string())?
        .label("measured")
        .legend(swatch(AVAILABLE));
    chart
        .draw_series(
            points
                .iter()
                .map(|p| Circle::new(*p, radius, AVAILABLE.filled())),
        )
        .map_err(|e| e.to_string())?;
    Ok(())
}

/// Bus bandwidth per message size: measured (both placements' better) and predicted, on a
/// log-2 axis of sizes.
pub fn measured_against_predicted(check: &BaselineCheck) -> String {
    svg(|root| {
        let log2 = |bytes: u64| (bytes.max(1) as f64).log2();
        let low = check
            .sizes
            .iter()
            .map(|s| log2(s.bytes))
            .fold(f64::INFINITY, f64::min);
        let high = check
            .sizes
            .iter()
            .map(|s| log2(s.bytes))
            .fold(f64::NEG_INFINITY, f64::max);
        let (low, high) = if low.is_finite() && high > low {
            (low, high)
        } else {
            (0.0, 1.0)
        };
        let top = check
            .sizes
            .iter()
            .flat_map(|s| {
                [
                    Some(s.measured_busbw_gbytes_per_s),
                    s.predicted_busbw_gbytes_per_s,
                ]
                .map(|rate| rate.map(GigabytesPerSecond::gigabytes_per_second))
            })
            .flatten()
            .fold(0.0, f64::max)
            * 1.15;
        let mut chart = ChartBuilder::on(root)
            .caption(
                format!(
                    "{}: bus bandwidth by message size",
                    check.collective.label()
                ),
                (FONT, CAPTION),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(low..high, 0.0..top.max(1.0))
            .map_err(|e| e.to_string())?;
        size_mesh(&mut chart, low..high, 10)?;
        let predicted: Vec<(f64, f64)> = check
            .sizes
            .iter()
            .filter_map(|s| {
                s.predicted_busbw_gbytes_per_s
                    .map(|p| (log2(s.bytes), p.gigabytes_per_second()))
            })
            .collect();
        if !predicted.is_empty() {
            chart
                .draw_series(LineSeries::new(predicted, REQUIRED.stroke_width(2)))
                .map_err(|e| e.to_string())?
                .label("predicted by the design")
                .legend(swatch(REQUIRED));
        }
        let measured: Vec<(f64, f64)> = check
            .sizes
            .iter()
            .map(|s| {
                (
                    log2(s.bytes),
                    s.measured_busbw_gbytes_per_s.gigabytes_per_second(),
                )
            })
            .collect();
        draw_measured(&mut chart, &measured, 3)?;
        legend(&mut chart, SeriesLabelPosition::LowerRight)
    })
}

/// One baseline's figure at 1 GiB, for the drift chart.
pub struct DriftPoint {
    pub measured_on: String,
    pub measured_busbw_gbytes_per_s: GigabytesPerSecond,
    pub expected_busbw_gbytes_per_s: GigabytesPerSecond,
}

/// Measured bus bandwidth at 1 GiB of each baseline in the order measured, against the
/// expectation and the share below which a run is flagged.
pub fn drift(points: &[DriftPoint]) -> String {
    svg(|root| {
        let top = points
            .iter()
            .flat_map(|p| [p.measured_busbw_gbytes_per_s, p.expected_busbw_gbytes_per_s])
            .map(GigabytesPerSecond::gigabytes_per_second)
            .fold(0.0, f64::max)
            * 1.15;
        let last = points.len().max(2) as f64;
        let mut chart = ChartBuilder::on(root)
            .caption(
                "Drift: bus bandwidth at 1 GiB, baseline by baseline",
                (FONT, CAPTION),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(0.5..last + 0.5, 0.0..top.max(1.0))
            .map_err(|e| e.to_string())?;
        let days: Vec<&str> = points.iter().map(|p| p.measured_on.as_str()).collect();
        chart
            .configure_mesh()
            .x_desc("measured on")
            .y_desc("bus bandwidth, GB/s")
            .x_labels(points.len().clamp(2, 8))
            .x_label_formatter(&|v| record_day(&days, *v))
            .y_label_formatter(&|v| axis_number(*v))
            .label_style((FONT, LABEL))
            .axis_desc_style((FONT, LABEL))
            .draw()
            .map_err(|e| e.to_string())?;
        let xs = || (1..=points.len()).map(|i| i as f64);
        chart
            .draw_series(LineSeries::new(
                xs().zip(
                    points
                        .iter()
                        .map(|p| p.expected_busbw_gbytes_per_s.gigabytes_per_second()),
                ),
                REQUIRED.stroke_width(2),
            ))
            .map_err(|e| e.to_string())?
            .label("expected")
            .legend(swatch(REQUIRED));
        chart
            .draw_series(LineSeries::new(
                xs().zip(
                    points.iter().map(|p| {
                        p.expected_busbw_gbytes_per_s.gigabytes_per_second() * HEALTHY_SHARE
                    }),
                ),
                SHORT.stroke_width(1),
            ))
            .map_err(|e| e.to_string())?
            .label(format!("flagged below {:.0} %", HEALTHY_SHARE * 100.0))
            .legend(swatch(SHORT));
        let measured: Vec<(f64, f64)> = xs()
            .zip(
                points
                    .iter()
                    .map(|p| p.measured_busbw_gbytes_per_s.gigabytes_per_second()),
            )
            .collect();
        draw_measured(&mut chart, &measured, 4)?;
        legend(&mut chart, SeriesLabelPosition::LowerLeft)
    })
}
