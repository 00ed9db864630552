//! The studies behind the dashboard's charts (the engine's numbers), drawn as SVG.

use crate::charts;
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
    /// What the study found, in words, when its answer does not change over its range: shown
    /// instead of a flat line.
    pub flat: Option<String>,
}

impl Chart {
    /// This chart, said in `words` instead of drawn when its rows show the same values in
    /// `columns` from the first to the last: a study whose answer does not move.
    fn in_words_if_flat(
        mut self,
        columns: std::ops::Range<usize>,
        words: impl FnOnce(&[Vec<String>]) -> String,
    ) -> Chart {
        let rows = &self.data.rows;
        let unchanged = rows.len() > 1
            && rows
                .windows(2)
                .all(|pair| columns.clone().all(|c| pair[0].get(c) == pair[1].get(c)));
        if unchanged {
            self.flat = Some(words(rows));
        }
        self
    }
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
            flat: None,
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
                flat: None,
                svg: charts::checkpoints(&sweep),
                data: ChartData::new(
                    vec!["Interval, minutes", "Write time", "Share of time"],
                    &sweep,
                    |p| {
                        vec![
                            crate::fields::show(p.interval_minutes.minutes()),
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
    let points = technology_comparison(spec, report, timed, &crate::compute::FLOORS);
    let mut comparison = vec![Chart {
        id: "chart-technologies".into(),
        label: format!(
            "Communication {per} of {name} on InfiniBand NDR, 400GbE RoCE, 100GbE and 25GbE"
        ),
        flat: None,
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
                flat: None,
                svg: charts::scaling(&scaling),
                data: ChartData::new(
                    vec!["Nodes", "Step time", "Communication share"],
                    &scaling,
                    |p| {
                        vec![
                            crate::words::number(p.nodes),
                            p.step_time.to_string(),
                            p.communication_share.to_string(),
                        ]
                    },
                ),
            }
            .in_words_if_flat(1..3, |rows| {
                format!(
                    "{name} keeps a step time of {} and a communication share of {} from {} to {} nodes (the batch per replica kept): the network does not slow it as the cluster grows.",
                    rows[0][1], rows[0][2], rows[0][0], rows[rows.len() - 1][0]
                )
            }));
        }
    }
    let degraded = degraded_link_curve(spec, timed);
    comparison.push(Chart {
        id: "chart-degraded".into(),
        label: format!("Slowdown of {name} with one degraded link"),
        flat: None,
        svg: charts::degraded(&degraded),
        data: ChartData::new(vec!["Link speed left", "Slowdown"], &degraded, |p| {
            vec![p.remaining.to_string(), p.slowdown.to_string()]
        }),
    }
    .in_words_if_flat(1..2, |rows| {
        format!(
            "One degraded link does not change the time of {name}: its slowdown stays at {} with the link at any speed from {} down to {}.",
            rows[0][1], rows[0][0], rows[rows.len() - 1][0]
        )
    }));
    let sweep = oversubscription_sweep(spec, timed);
    if !sweep.is_empty() {
        whatifs.insert(
            0,
            Chart {
                id: "chart-oversubscription".into(),
                label: format!(
                    "Slowdown of {name} as its leaves are oversubscribed from 1:1 to 4:1"
                ),
                flat: None,
                svg: charts::oversubscription(&sweep),
                data: ChartData::new(vec!["Oversubscription", "Slowdown"], &sweep, |p| {
                    vec![
                        format!("{}:1", crate::fields::show(p.oversubscription)),
                        p.slowdown.to_string(),
                    ]
                }),
            }
            .in_words_if_flat(1..2, |rows| {
                format!(
                    "Oversubscribing the leaves does not change the time of {name}: its slowdown stays at {} from {} to {}.",
                    rows[0][1], rows[0][0], rows[rows.len() - 1][0]
                )
            }),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn every_example() -> Vec<(DesignSpec, Report)> {
        engine::examples::ALL
            .iter()
            .map(|(_, text)| {
                let spec = DesignSpec::from_json(text).unwrap();
                let report = engine::evaluate(&spec).unwrap();
                (spec, report)
            })
            .collect()
    }

    /// The unit a shown value ends in: "%", "×", "s", "GB/s"…; `None` for a bare number.
    fn unit(value: &str) -> Option<&str> {
        let unit = value
            .trim_start_matches(|c: char| c.is_ascii_digit() || ",.−-< ".contains(c))
            .trim();
        (!unit.is_empty()).then_some(unit)
    }

    #[test]
    fn every_column_of_every_study_is_in_one_unit() {
        for (spec, report) in every_example() {
            let charts = charts(&spec, &report);
            for chart in charts.comparison.iter().chain(&charts.whatifs) {
                for (c, column) in chart.data.columns.iter().enumerate() {
                    let units: Vec<Option<&str>> =
                        chart.data.rows.iter().map(|r| unit(&r[c])).collect();
                    let percent_and_times =
                        units.contains(&Some("%")) && units.contains(&Some("×"));
                    assert!(
                        !percent_and_times,
                        "{} · {column}: {:?}",
                        spec.title,
                        chart.data.rows.iter().map(|r| &r[c]).collect::<Vec<_>>()
                    );
                }
            }
        }
    }

    #[test]
    fn a_study_whose_answer_does_not_move_says_so_in_words_instead_of_a_flat_line() {
        let mut said = 0;
        for (spec, report) in every_example() {
            let charts = charts(&spec, &report);
            for chart in charts.comparison.iter().chain(&charts.whatifs) {
                let rows = &chart.data.rows;
                let moves = rows.windows(2).any(|w| w[0][1..] != w[1][1..]);
                match &chart.flat {
                    Some(words) => {
                        said += 1;
                        assert!(!moves, "{}: {words}", chart.id);
                        assert!(words.contains(&rows[0][1]), "{words}");
                    }
                    None => assert!(moves || rows.len() < 2, "{} is flat", chart.id),
                }
            }
        }
        assert!(said > 0, "some example has a study that does not move");
    }

    #[test]
    fn a_study_that_moves_is_drawn() {
        let chart = Chart {
            id: "t".into(),
            label: "t".into(),
            svg: "<svg/>".into(),
            data: ChartData {
                columns: vec!["x", "y"],
                rows: vec![
                    vec!["1".into(), "0 %".into()],
                    vec!["2".into(), "5.0 %".into()],
                ],
            },
            flat: None,
        }
        .in_words_if_flat(1..2, |_| "flat".into());
        assert_eq!(chart.flat, None);
    }
}
