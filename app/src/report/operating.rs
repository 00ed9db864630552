//! Operating the fabric, and the assumptions behind the results, as the dashboard and the
//! report show them.

use super::blocks::{heading, note, paragraph, slug, table};
use super::{Block, Table};
use engine::operations::{operations, FabricOperations, Setting};
use engine::{DesignSpec, Report};

fn settings(caption: &str, first: &str, second: &str, list: &[Setting]) -> Option<Block> {
    (!list.is_empty()).then(|| {
        Block::Table(table(
            caption,
            &[
                (first, false),
                (second, false),
                ("Why", false),
                ("Source", false),
            ],
            list.iter()
                .map(|s| {
                    vec![
                        s.item.to_string(),
                        s.value.to_string(),
                        s.reason.to_string(),
                        s.source.to_string(),
                    ]
                })
                .collect(),
        ))
    })
}

/// Operating guidance for every fabric of `spec`: lossless Ethernet or its InfiniBand
/// equivalent, NCCL settings and the monitoring plan.
pub fn operating_blocks(spec: &DesignSpec, report: &Report) -> Vec<Block> {
    let mut blocks = Vec::new();
    operating(&mut blocks, operations(spec, report));
    blocks
}

fn operating(blocks: &mut Vec<Block>, fabrics: Vec<FabricOperations>) {
    blocks.push(heading(1, "operations", "Operating the fabric"));
    blocks.push(note("Network faults show up as slow training, not outages: configure every fabric as below, keep a baseline, and watch these counters."));
    for ops in fabrics {
        blocks.push(heading(
            2,
            slug("operations", &ops.fabric),
            format!("{}: {}", ops.fabric, ops.technology.label()),
        ));
        let checklist = if ops.technology.needs_lossless_ethernet() {
            "Lossless Ethernet: every switch and NIC in the path"
        } else {
            "InfiniBand fabric settings"
        };
        blocks.extend(settings(checklist, "Setting", "Value", &ops.checklist));
        if !ops.pfc_headroom.is_empty() {
            blocks.push(Block::Table(table(
                "PFC headroom per port and lossless priority",
                &[
                    ("Cable run", false),
                    ("Length", true),
                    ("Headroom", true),
                    ("How", false),
                ],
                ops.pfc_headroom
                    .iter()
                    .map(|h| {
                        vec![
                            h.tier.to_string(),
                            format!("{} m", h.length_m.metres()),
                            h.bytes.value.to_string(),
                            format!("{} [{}]", h.bytes.formula, h.bytes.source),
                        ]
                    })
                    .collect(),
            )));
        }
        for s in &ops.snippets {
            blocks.push(Block::Code {
                caption: s.platform.to_string(),
                text: s.text.clone(),
            });
        }
        blocks.extend(settings("NCCL environment", "Variable", "Value", &ops.nccl));
        blocks.push(heading(
            3,
            slug("link-health", &ops.fabric),
            "Monitoring: link health",
        ));
        blocks.extend(settings(
            "Counters to collect and alert on",
            "Counter",
            "Alert",
            &ops.link_counters,
        ));
        blocks.push(heading(
            3,
            slug("traffic", &ops.fabric),
            "Monitoring: traffic visibility",
        ));
        blocks.push(paragraph(format!(
            "{}. What the design's workloads should show, so that hot spots stand out:",
            ops.traffic_tool
        )));
        if !ops.expected_utilisation.is_empty() {
            blocks.push(Block::Table(table(
                "Expected per-port utilisation",
                &[
                    ("Workload", false),
                    ("Average", true),
                    ("While its collectives run", true),
                    ("How", false),
                ],
                ops.expected_utilisation
                    .iter()
                    .map(|u| {
                        vec![
                            u.workload.clone(),
                            u.average.value.to_string(),
                            u.during_bursts.to_string(),
                            u.average.formula.to_string(),
                        ]
                    })
                    .collect(),
            )));
        }
        blocks.push(heading(
            3,
            slug("application", &ops.fabric),
            "Monitoring: application correlation",
        ));
        if let Some(b) = &ops.expected_allreduce_busbw {
            blocks.push(paragraph(format!(
                "Baseline: all_reduce_perf -b 1M -e 8G -f 2 -g 1 with one rank per GPU on every node should show about {} bus bandwidth at 1 GiB and above; below {:.0} % of it, look for a degraded link, a NIC at reduced speed or misconfigured PFC/ECN ({} [{}]).",
                b.value,
                engine::nccl_tests::HEALTHY_SHARE * 100.0,
                b.formula,
                b.source
            )));
        }
        for a in &ops.application {
            blocks.push(paragraph(a.clone()));
        }
    }
}

/// Every catalog figure, calibration value and floor default behind the results, with its source.
pub fn assumption_table(spec: &DesignSpec) -> Table {
    let mut t = table(
        "Every catalog figure, calibration value and floor default behind the results",
        &[("What", false), ("Figure", false), ("Source", false)],
        engine::assumptions(spec)
            .iter()
            .map(|a| {
                let source = if a.estimate {
                    format!("{} (estimate)", a.source)
                } else {
                    a.source.to_string()
                };
                vec![a.subject.clone(), a.value.clone(), source]
            })
            .collect(),
    );
    t.id = Some("assumptions".into());
    t
}

pub(super) fn assumptions(blocks: &mut Vec<Block>, spec: &DesignSpec) {
    blocks.push(heading(1, "assumptions", "Assumptions and sources"));
    blocks.push(Block::Table(assumption_table(spec)));
    blocks.extend(super::validation::validation_blocks());
}
