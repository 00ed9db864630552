//! The cluster's growth phases, drawn with plotters as SVG: per phase, the network installed
//! (what earlier phases bought, what this one buys, and the share of it on ports no cable uses
//! yet), and the GPUs it connects on the axis.

use super::{axis_number, legend, svg, swatch, AVAILABLE, CAPTION, FONT, LABEL, SHORT};
use engine::phases::PhasePlan;
use plotters::prelude::*;

/// Half the width of a phase's bar, in phases.
const BAR: f64 = 0.3;
const EARLIER: RGBColor = RGBColor(150, 170, 190);

/// Per phase, a bar of the network installed by then: bought by earlier phases, bought by this
/// one, and stranded (on ports no cable uses) drawn over them.
pub fn timeline(plan: &PhasePlan) -> String {
    svg(|root| {
        let phases = &plan.phases;
        let top = phases
            .iter()
            .map(|p| p.network_cost.dollars())
            .fold(0.0, f64::max)
            .max(1.0);
        let labels: Vec<String> = phases
            .iter()
            .map(|p| format!("{} · {} GPUs", p.label, engine::thousands(p.gpus as f64)))
            .collect();
        let mut chart = ChartBuilder::on(root)
            .caption("Network installed per phase", (FONT, CAPTION))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(64)
            .build_cartesian_2d(0.5..phases.len().max(1) as f64 + 0.5, 0.0..top * 1.2 / 1e6)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc("phase · GPUs")
            .y_desc("US$ million")
            .x_labels(phases.len().clamp(1, 12))
            .x_label_formatter(&|v| {
                let at = v.round();
                if (v - at).abs() > 0.01 || at < 1.0 {
                    return String::new();
                }
                labels.get(at as usize - 1).cloned().unwrap_or_default()
            })
            .y_label_formatter(&|v| axis_number(*v))
            .label_style((FONT, LABEL))
            .axis_desc_style((FONT, LABEL))
            .draw()
            .map_err(|e| e.to_string())?;
        let bar = |i: usize, from: f64, to: f64, color: RGBColor| {
            let x = (i + 1) as f64;
            Rectangle::new([(x - BAR, from / 1e6), (x + BAR, to / 1e6)], color.filled())
        };
        let earlier = phases.iter().enumerate().map(|(i, p)| {
            let before = p.network_cost.dollars() - p.bought.cost_delta.dollars();
            bar(i, 0.0, before.max(0.0), EARLIER)
        });
        chart
            .draw_series(earlier)
            .map_err(|e| e.to_string())?
            .label("bought earlier")
            .legend(swatch(EARLIER));
        let bought = phases.iter().enumerate().map(|(i, p)| {
            let before = (p.network_cost.dollars() - p.bought.cost_delta.dollars()).max(0.0);
            bar(i, before, p.network_cost.dollars(), AVAILABLE)
        });
        chart
            .draw_series(bought)
            .map_err(|e| e.to_string())?
            .label("bought in the phase")
            .legend(swatch(AVAILABLE));
        // Stranded capital, as a band at the top of each bar: ports paid for and not yet used.
        let stranded = phases.iter().enumerate().map(|(i, p)| {
            let top = p.network_cost.dollars();
            let x = (i + 1) as f64;
            Rectangle::new(
                [
                    (
                        x - BAR / 2.0,
                        (top - p.stranded_capital.value.dollars()).max(0.0) / 1e6,
                    ),
                    (x + BAR / 2.0, top / 1e6),
                ],
                SHORT.mix(0.8).filled(),
            )
        });
        chart
            .draw_series(stranded)
            .map_err(|e| e.to_string())?
            .label("on ports no cable uses yet")
            .legend(swatch(SHORT));
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    })
}
