//! The published nccl-tests measurements the engine is checked against, drawn: bus bandwidth by
//! message size, measured against predicted, one line per published setup.

use super::baselines::size_mesh;
use super::{legend, svg, swatch, AVAILABLE, CAPTION, FONT, REQUIRED};
use engine::validation::ValidationRow;
use plotters::prelude::*;

/// One published size: log2 of its bytes, measured and predicted bus bandwidth (GB/s).
type Point = (f64, f64, f64);

/// The bus bandwidth rows grouped by setup, in the table's order.
fn setups(rows: &[ValidationRow]) -> Vec<Vec<Point>> {
    let mut groups: Vec<(&str, &str, Vec<Point>)> = Vec::new();
    for r in rows {
        let Some(bytes) = r.busbw_message_bytes else {
            continue;
        };
        let point = (bytes.bytes().max(1.0).log2(), r.measured, r.predicted);
        match groups
            .iter_mut()
            .find(|(source, setup, _)| *source == r.source && *setup == r.setup)
        {
            Some((_, _, points)) => points.push(point),
            None => groups.push((&r.source, &r.setup, vec![point])),
        }
    }
    groups.into_iter().map(|(_, _, points)| points).collect()
}

/// Measured and predicted bus bandwidth by message size for every published all_reduce_perf
/// run of the validation table; a grey stroke joins each measurement to its prediction.
pub fn published_busbw(rows: &[ValidationRow]) -> String {
    let setups = setups(rows);
    svg(|root| {
        let points = || setups.iter().flatten();
        let low = points().map(|p| p.0).fold(f64::INFINITY, f64::min).floor() - 1.0;
        let high = points()
            .map(|p| p.0)
            .fold(f64::NEG_INFINITY, f64::max)
            .ceil()
            + 1.0;
        let (low, high) = if low.is_finite() && high > low {
            (low, high)
        } else {
            (20.0, 34.0)
        };
        let top = points().map(|p| p.1.max(p.2)).fold(0.0, f64::max) * 1.15;
        let mut chart = ChartBuilder::on(root)
            .caption(
                "Published all_reduce_perf runs: measured and predicted",
                (FONT, CAPTION),
            )
            .margin(12)
            // Room for the last size label, centred on the right edge.
            .margin_right(28)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(low..high, 0.0..top.max(1.0))
            .map_err(|e| e.to_string())?;
        size_mesh(&mut chart, low..high, 8)?;
        chart
            .draw_series(points().map(|&(x, measured, predicted)| {
                PathElement::new([(x, measured), (x, predicted)], BLACK.mix(0.35))
            }))
            .map_err(|e| e.to_string())?;
        for (i, setup) in setups.iter().enumerate() {
            let measured = chart
                .draw_series(LineSeries::new(
                    setup.iter().map(|p| (p.0, p.1)),
                    AVAILABLE.stroke_width(2),
                ))
                .map_err(|e| e.to_string())?;
            if i == 0 {
                measured.label("measured").legend(swatch(AVAILABLE));
            }
            let predicted = chart
                .draw_series(LineSeries::new(
                    setup.iter().map(|p| (p.0, p.2)),
                    REQUIRED.stroke_width(2),
                ))
                .map_err(|e| e.to_string())?;
            if i == 0 {
                predicted
                    .label("predicted by the engine")
                    .legend(swatch(REQUIRED));
            }
        }
        chart
            .draw_series(points().map(|p| Circle::new((p.0, p.1), 4, AVAILABLE.stroke_width(2))))
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(points().map(|p| Circle::new((p.0, p.2), 3, REQUIRED.filled())))
            .map_err(|e| e.to_string())?;
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_published_bus_bandwidth_run_is_drawn_and_nothing_else() {
        let rows = engine::validation::validation_rows();
        let busbw = rows
            .iter()
            .filter(|r| r.busbw_message_bytes.is_some())
            .count();
        let drawn: usize = setups(&rows).iter().map(Vec::len).sum();
        assert_eq!(drawn, busbw);
        // The two-node RoCE sweep is one line of five sizes.
        assert!(setups(&rows).iter().any(|s| s.len() == 5));
        let svg = published_busbw(&rows);

        assert!(svg.contains("measured") && svg.contains("predicted by the engine"));
        assert!(svg.contains("1 GiB") && !svg.contains("chart unavailable"));
    }
}
