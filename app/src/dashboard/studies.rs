//! The studies behind the dashboard's charts (the engine's numbers), drawn as SVG.

use crate::dashboard::charts;
use engine::studies::{
    checkpoint_sweep, degraded_link_curve, oversubscription_sweep, scaling_curve, spine_losses,
    technology_comparison, SpineLoss,
};
use engine::{DesignSpec, Report, Workload};

/// One chart: SVG text, what it shows, and its numbers as a table (the text alternative for
/// screen readers, and for anyone who wants the values).
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    pub id: String,
    pub label: String,
    pub svg: String,
    pub data: ChartData,
}

/// A chart's numbers: column headings, then one row per point, formatted by the engine's units.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ChartData {
    pub columns: Vec<&'static str>,
    pub rows: Vec<Vec<String>>,
}

impl ChartData {
    fn new<P>(
        columns: Vec<&'static str>,
        points: &[P],
        row: impl Fn(&P) -> Vec<String>,
    ) -> ChartData {
        ChartData {
            columns,
            rows: points.iter().map(row).collect(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Charts {
    /// Bandwidth per tier, one chart per fabric, in fabric order.
    pub headroom: Vec<Chart>,
    pub comparison: Vec<Chart>,
    /// The technology comparison as rows (technology, communication), for a table beside it.
    pub comparison_rows: Vec<(String, String)>,
    pub comparison_caption: String,
    /// The workload compared (training first, else inference) and its communication on each
    /// technology, with the network's cost: the report's alternatives read these too.
    pub compared: Option<(usize, Vec<engine::studies::TechnologyPoint>)>,
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
            data: ChartData::new(vec!["Tier", "Available", "Required"], &f.tiers, |t| {
                vec![
                    t.tier.clone(),
                    t.available.to_string(),
                    t.required.to_string(),
                ]
            }),
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
        .map(|(i, w)| {
            let sweep = checkpoint_sweep(spec, i);
            Chart {
                id: format!("chart-checkpoints-{i}"),
                label: format!(
                    "Share of time {} spends writing checkpoints, by interval",
                    w.name()
                ),
                svg: charts::checkpoints(&sweep),
                data: ChartData::new(
                    vec!["Interval, minutes", "Write time", "Share of time"],
                    &sweep,
                    |p| {
                        vec![
                            crate::fields::show(p.interval_minutes),
                            p.write_time.to_string(),
                            p.overhead.to_string(),
                        ]
                    },
                ),
            }
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
        data: ChartData::new(vec!["Technology", "Communication"], &points, |p| {
            vec![
                p.technology.label().to_string(),
                p.communication.to_string(),
            ]
        }),
    }];
    if let Some(t) = training {
        let scaling = scaling_curve(spec, t);
        if !scaling.is_empty() {
            comparison.push(Chart {
                id: "chart-scaling".into(),
                label: format!("Step time and communication share of {name} by cluster size"),
                svg: charts::scaling(&scaling),
                data: ChartData::new(
                    vec!["Nodes", "Step time", "Communication share"],
                    &scaling,
                    |p| {
                        vec![
                            p.nodes.to_string(),
                            p.step_time.to_string(),
                            p.communication_share.to_string(),
                        ]
                    },
                ),
            });
        }
    }
    let degraded = degraded_link_curve(spec, timed);
    comparison.push(Chart {
        id: "chart-degraded".into(),
        label: format!("Slowdown of {name} with one degraded link"),
        svg: charts::degraded(&degraded),
        data: ChartData::new(vec!["Link speed left", "Slowdown"], &degraded, |p| {
            vec![p.remaining.to_string(), p.slowdown.to_string()]
        }),
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
                data: ChartData::new(vec!["Oversubscription", "Slowdown"], &sweep, |p| {
                    vec![
                        format!("{}:1", crate::fields::show(p.oversubscription)),
                        p.slowdown.to_string(),
                    ]
                }),
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
        compared: Some((timed, points)),
    }
}
