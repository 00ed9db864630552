//! The studies behind the dashboard's charts (the engine's numbers), drawn as SVG.

use crate::dashboard::charts;
use engine::studies::{
    checkpoint_sweep, degraded_link_curve, oversubscription_sweep, scaling_curve, spine_losses,
    technology_comparison, SpineLoss,
};
use engine::{DesignSpec, Report, Workload};

/// One chart: SVG text and what it shows, for screen readers.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    pub id: String,
    pub label: String,
    pub svg: String,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Charts {
    /// Bandwidth per tier, one chart per fabric, in fabric order.
    pub headroom: Vec<Chart>,
    pub comparison: Vec<Chart>,
    /// The technology comparison as rows (technology, communication), for a table beside it.
    pub comparison_rows: Vec<(String, String)>,
    pub comparison_caption: String,
    /// What-ifs: oversubscription, checkpoint interval.
    pub whatifs: Vec<Chart>,
    pub spine_losses: Vec<SpineLoss>,
}

pub fn charts(spec: &DesignSpec, report: &Report) -> Charts {
    let headroom = report
        .fabrics
        .iter()
        .map(|f| Chart {
            id: format!(
                "chart-headroom-{}",
                f.name.replace(|c: char| !c.is_ascii_alphanumeric(), "-")
            ),
            label: format!(
                "Bandwidth per tier of fabric {}, available against required",
                f.name
            ),
            svg: charts::headroom(&f.name, &f.tiers, f.bottleneck.as_deref()),
        })
        .collect();
    let training = spec
        .workloads
        .iter()
        .position(|w| matches!(w, Workload::Training(_)));
    let timed = training.or_else(|| {
        spec.workloads
            .iter()
            .position(|w| matches!(w, Workload::Inference(_)))
    });
    let mut whatifs: Vec<Chart> = spec
        .workloads
        .iter()
        .enumerate()
        .filter(|(_, w)| matches!(w, Workload::Storage(_)))
        .map(|(i, w)| Chart {
            id: format!("chart-checkpoints-{i}"),
            label: format!(
                "Share of time {} spends writing checkpoints, by interval",
                w.name()
            ),
            svg: charts::checkpoints(&checkpoint_sweep(spec, i)),
        })
        .collect();
    let spine_losses = spine_losses(report);
    let Some(timed) = timed else {
        return Charts {
            headroom,
            whatifs,
            spine_losses,
            ..Charts::default()
        };
    };
    let name = spec.workloads[timed].name().to_string();
    let per = if training == Some(timed) {
        "per step"
    } else {
        "per token"
    };
    let points = technology_comparison(spec, timed);
    let mut comparison = vec![Chart {
        id: "chart-technologies".into(),
        label: format!(
            "Communication {per} of {name} on InfiniBand NDR, 400GbE RoCE, 100GbE and 25GbE"
        ),
        svg: charts::technologies(&points, per),
    }];
    if let Some(t) = training {
        let scaling = scaling_curve(spec, t);
        if !scaling.is_empty() {
            comparison.push(Chart {
                id: "chart-scaling".into(),
                label: format!("Step time and communication share of {name} by cluster size"),
                svg: charts::scaling(&scaling),
            });
        }
    }
    comparison.push(Chart {
        id: "chart-degraded".into(),
        label: format!("Slowdown of {name} with one degraded link"),
        svg: charts::degraded(&degraded_link_curve(spec, timed)),
    });
    let sweep = oversubscription_sweep(spec, timed);
    if !sweep.is_empty() {
        whatifs.insert(
            0,
            Chart {
                id: "chart-oversubscription".into(),
                label: format!(
                    "Slowdown of {name} as its leaves are oversubscribed from 1:1 to 4:1"
                ),
                svg: charts::oversubscription(&sweep),
            },
        );
    }
    Charts {
        headroom,
        whatifs,
        spine_losses,
        comparison,
        comparison_rows: points
            .iter()
            .map(|p| {
                (
                    p.technology.label().to_string(),
                    p.communication.to_string(),
                )
            })
            .collect(),
        comparison_caption: format!("{name}: communication {per} by technology"),
    }
}
