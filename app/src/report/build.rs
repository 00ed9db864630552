//! The report's content, from a stored revision: what each section holds.

use super::{Block, Column, ReportDocument, Table};
use crate::dashboard::fabric::headroom_text;
use crate::dashboard::studies::{self, Chart};
use crate::money::{usd, watts};
use engine::operations::{operations, FabricOperations, Setting};
use engine::{DesignSpec, FabricReport, Figure, Report, WorkloadReport};
use std::fmt::Display;

/// What the cover says about the revision, and what was kept with it after installation.
pub struct Revision {
    pub number: u32,
    pub latest: u32,
    pub saved: String,
    pub engine_version: String,
    /// The share link of this revision, absolute where the host is known.
    pub link: String,
    /// The as-built checks kept with the revision, in the order taken.
    pub asbuilt: Vec<crate::store::StoredCheck>,
}

pub(super) fn heading(level: u8, id: impl Into<String>, text: impl Into<String>) -> Block {
    Block::Heading {
        level,
        id: id.into(),
        text: text.into(),
    }
}

pub(super) fn paragraph(text: impl Into<String>) -> Block {
    Block::Paragraph { text: text.into() }
}

pub(super) fn note(text: impl Into<String>) -> Block {
    Block::Note { text: text.into() }
}

fn columns(spec: &[(&str, bool)]) -> Vec<Column> {
    spec.iter()
        .map(|(title, numeric)| Column {
            title: (*title).to_string(),
            numeric: *numeric,
        })
        .collect()
}

pub(super) fn table(
    caption: impl Into<String>,
    cols: &[(&str, bool)],
    rows: Vec<Vec<String>>,
) -> Table {
    let flagged = vec![false; rows.len()];
    Table {
        id: None,
        caption: caption.into(),
        columns: columns(cols),
        rows,
        flagged,
        footer: None,
    }
}

/// An id made of the name's letters and digits, for anchors.
fn slug(prefix: &str, name: &str) -> String {
    format!(
        "{prefix}-{}",
        name.replace(|c: char| !c.is_ascii_alphanumeric(), "-")
    )
}

fn chart(c: Chart) -> Block {
    Block::Chart {
        id: c.id,
        caption: c.label,
        svg: c.svg,
    }
}

/// A figure as a row: label, value, formula, source.
fn figure_row<T: Display>(label: &str, f: &Figure<T>) -> Vec<String> {
    let formula = match &f.worked {
        Some(worked) => format!("{}: {worked}", f.formula),
        None => f.formula.to_string(),
    };
    vec![
        label.to_string(),
        f.value.to_string(),
        formula,
        f.source.to_string(),
    ]
}

fn figures_table(caption: String, rows: Vec<Vec<String>>) -> Block {
    Block::Table(table(
        caption,
        &[
            ("Figure", false),
            ("Value", true),
            ("Formula", false),
            ("Source", false),
        ],
        rows,
    ))
}

/// The whole report of `spec` and its `report` at `revision`.
pub fn report_document(spec: &DesignSpec, report: &Report, revision: &Revision) -> ReportDocument {
    let mut blocks = Vec::new();
    // The studies are run once: the summary's alternatives and the what-if section read them.
    let charts = studies::charts(spec, report);
    // The floor is planned once: the summary's risks and the floor section read it.
    let floor = engine::floor::plan(spec, report);
    super::summary::summary(
        &mut blocks,
        spec,
        report,
        &floor.findings,
        charts.compared.as_ref(),
    );
    cluster(&mut blocks, spec, report);
    fabrics(&mut blocks, report);
    workloads(&mut blocks, report);
    headroom(&mut blocks, charts.clone());
    storage(&mut blocks, report, charts.whatifs);
    blocks.extend(super::floor::floor_section(&floor));
    operating(&mut blocks, operations(spec, report));
    blocks.extend(super::asbuilt::asbuilt_section(&revision.asbuilt));
    assumptions(&mut blocks, spec);
    blocks.extend(super::sources::sources_blocks(spec, report));
    ReportDocument {
        title: spec.title.clone(),
        cover: vec![
            (
                "Revision".into(),
                format!("{} of {}", revision.number, revision.latest),
            ),
            ("Saved".into(), revision.saved.clone()),
            (
                "Engine".into(),
                format!(
                    "{} (saved); figures computed by {}",
                    revision.engine_version, report.engine_version
                ),
            ),
            ("Share link".into(), revision.link.clone()),
        ],
        blocks,
    }
}

/// Findings as the report lists them: severity, subject, message.
pub(super) fn findings_block<'a>(findings: impl IntoIterator<Item = &'a engine::Finding>) -> Block {
    Block::Findings {
        items: findings
            .into_iter()
            .map(|f| {
                (
                    f.severity.label().to_string(),
                    f.subject.clone(),
                    f.message.clone(),
                )
            })
            .collect(),
    }
}

fn cluster(blocks: &mut Vec<Block>, spec: &DesignSpec, report: &Report) {
    blocks.push(heading(1, "cluster", "Cluster and workloads"));
    let c = &report.cluster;
    let growth = spec
        .cluster
        .growth_target_nodes
        .map(|n| format!("{n} nodes"))
        .unwrap_or_else(|| "none planned".into());
    blocks.push(Block::Table(table(
        "Cluster",
        &[("", false), ("", false)],
        vec![
            vec!["GPU".into(), c.gpu.clone()],
            vec!["Nodes".into(), c.nodes.to_string()],
            vec!["GPUs per node".into(), c.gpus_per_node.to_string()],
            vec!["GPUs".into(), c.gpus.to_string()],
            vec![
                "Compute NICs per node".into(),
                spec.cluster.nics_per_node.to_string(),
            ],
            vec![
                "Scale-up bandwidth per GPU (achievable)".into(),
                c.scale_up.to_string(),
            ],
            vec!["Growth target".into(), growth],
        ],
    )));
    let rows = spec
        .workloads
        .iter()
        .map(|w| {
            vec![
                w.name().to_string(),
                crate::components::workload_kind(w).to_string(),
                w.fabric().to_string(),
            ]
        })
        .collect();
    blocks.push(Block::Table(table(
        "Workloads",
        &[("Workload", false), ("Kind", false), ("Fabric", false)],
        rows,
    )));
}

fn fabrics(blocks: &mut Vec<Block>, report: &Report) {
    blocks.push(heading(1, "fabrics", "Fabrics"));
    for f in &report.fabrics {
        fabric(blocks, f);
    }
}

fn fabric(blocks: &mut Vec<Block>, f: &FabricReport) {
    let plan = &f.plan;
    blocks.push(heading(
        2,
        slug("fabric", &f.name),
        format!(
            "{}: {} ({} fabric)",
            f.name,
            f.technology.label(),
            f.role.label()
        ),
    ));
    blocks.push(paragraph(format!(
        "{}: {}.",
        plan.layout.label(),
        plan.reason
    )));
    let cables = f
        .cables
        .iter()
        .map(|c| {
            format!(
                "{}: {} × {} ({} m)",
                c.tier,
                c.count,
                c.reach.label(),
                c.length_m
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    blocks.push(Block::Table(table(
        format!("How fabric {} is built", f.name),
        &[("", false), ("", false)],
        vec![
            vec!["Switch".into(), f.switch_name.clone()],
            vec!["Tiers".into(), plan.tiers.to_string()],
            vec![
                "Leaf / spine / core switches".into(),
                format!("{} / {} / {}", plan.leaves, plan.spines, plan.cores),
            ],
            vec![
                "Endpoints".into(),
                format!(
                    "{} ({} nodes × {} ports)",
                    f.endpoints, f.attached_nodes, f.ports_per_node
                ),
            ],
            vec![
                "Switch ports used / free".into(),
                format!("{} / {}", f.ports_used, f.ports_free),
            ],
            vec![
                "Leaf oversubscription".into(),
                format!(
                    "{}:1 ({} down, {} up per leaf)",
                    f.oversubscription, plan.leaf_downlinks, plan.leaf_uplinks
                ),
            ],
            vec![
                "Bisection bandwidth".into(),
                format!("{} ({})", f.bisection.value, f.bisection.formula),
            ],
            vec![
                "Grows to, without new spines".into(),
                format!("{} nodes", f.max_nodes),
            ],
            vec!["Cables".into(), cables],
            vec!["Transceivers".into(), f.transceivers.to_string()],
            vec![
                "Cost / power".into(),
                format!("{} / {}", usd(f.cost_usd), watts(f.power_w)),
            ],
            vec!["Carries".into(), f.workloads.join(", ")],
        ],
    )));
    blocks.push(Block::Chart {
        id: slug("topology", &f.name),
        caption: format!("Topology of fabric {}: {}", f.name, plan.layout.label()),
        svg: crate::dashboard::render::topology_svg(f),
    });
    let mut tiers = table(
        format!(
            "Bandwidth headroom per tier of fabric {} (one direction)",
            f.name
        ),
        &[
            ("Tier", false),
            ("Available", true),
            ("Required", true),
            ("Headroom", true),
            ("How", false),
        ],
        f.tiers
            .iter()
            .map(|t| {
                vec![
                    t.tier.clone(),
                    t.available.to_string(),
                    t.required.to_string(),
                    headroom_text(t.headroom_percent),
                    t.formula.to_string(),
                ]
            })
            .collect(),
    );
    tiers.flagged = f
        .tiers
        .iter()
        .map(|t| t.headroom_percent.is_some_and(|h| h < 0.0))
        .collect();
    blocks.push(Block::Table(tiers));
    let total: f64 = f.bom.iter().map(|l| l.total_usd).sum();
    let power: f64 = f.bom.iter().map(|l| l.total_power_w).sum();
    let mut bom = table(
        format!("Bill of materials, fabric {}", f.name),
        &[
            ("Item", false),
            ("Qty", true),
            ("Unit price", true),
            ("Total", true),
            ("Power", true),
            ("Source", false),
        ],
        f.bom
            .iter()
            .map(|l| {
                vec![
                    crate::dashboard::bom::item_text(l),
                    l.quantity.to_string(),
                    usd(l.unit_price_usd),
                    usd(l.total_usd),
                    watts(l.total_power_w),
                    l.source_text(),
                ]
            })
            .collect(),
    );
    bom.id = Some(slug("bom", &f.name));
    bom.footer = Some(vec![
        "Total".into(),
        String::new(),
        String::new(),
        usd(total),
        watts(power),
        String::new(),
    ]);
    blocks.push(Block::Table(bom));
    if f.bom.iter().any(|l| l.basis() == engine::Basis::Estimate) {
        blocks.push(note(crate::dashboard::bom::ESTIMATE_NOTE));
    }
}

fn workloads(blocks: &mut Vec<Block>, report: &Report) {
    blocks.push(heading(1, "workloads", "Workload results"));
    let timed: Vec<_> = report
        .workloads
        .iter()
        .filter(|w| !matches!(w, WorkloadReport::Storage(_)))
        .collect();
    if timed.is_empty() {
        blocks.push(paragraph(
            "The design has no training, inference or RAG workload.",
        ));
    }
    for w in timed {
        workload(blocks, w);
    }
}

fn workload(blocks: &mut Vec<Block>, w: &WorkloadReport) {
    match w {
        WorkloadReport::Training(t) => {
            blocks.push(heading(
                2,
                slug("workload", &t.name),
                format!(
                    "{} (training on {}, {} GPUs over {} nodes)",
                    t.name, t.fabric, t.gpus, t.nodes
                ),
            ));
            let mut rows = vec![
                figure_row("Step time", &t.step_time),
                figure_row("Compute per step", &t.compute_time),
                figure_row("Communication per step", &t.communication_time),
                figure_row("Exposed communication", &t.exposed_communication),
                figure_row("Step on an ideal network", &t.ideal_step_time),
            ];
            if let Some(s) = &t.slowdown {
                rows.push(figure_row("Slowdown from the network", s));
            }
            rows.push(figure_row("Gradients per GPU", &t.gradient_bytes_per_gpu));
            rows.push(figure_row(
                "Data-parallel bytes each GPU sends per step",
                &t.bytes_per_gpu_per_step,
            ));
            blocks.push(figures_table(format!("{}: step time", t.name), rows));
            let collectives = t
                .collectives
                .iter()
                .filter(|c| c.time.0 > 0.0 || c.bytes_per_gpu.0 > 0.0)
                .map(|c| {
                    vec![
                        c.what.to_string(),
                        c.label(),
                        c.bytes_per_gpu.to_string(),
                        c.network_bytes_per_node.to_string(),
                        c.time.to_string(),
                    ]
                })
                .collect();
            blocks.push(Block::Table(table(
                format!("{}: collectives per step", t.name),
                &[
                    ("What", false),
                    ("Algorithm", false),
                    ("Per GPU", true),
                    ("Into the network per node", true),
                    ("Time", true),
                ],
                collectives,
            )));
        }
        WorkloadReport::Inference(i) => {
            blocks.push(heading(
                2,
                slug("workload", &i.name),
                crate::dashboard::inference_heading(i),
            ));
            let target = crate::dashboard::inter_token_figure(i);
            blocks.push(figures_table(
                format!("{}: latency", i.name),
                vec![
                    figure_row("AllReduce message", &i.allreduce_bytes),
                    figure_row("Communication per layer", &i.per_layer_time),
                    figure_row("Communication per token", &i.communication_per_token),
                    figure_row("Added by the network per token", &i.network_added_per_token),
                    figure_row("Communication per prefill pass", &i.prefill_communication),
                    figure_row(crate::dashboard::INTER_TOKEN_LABEL, &target),
                ],
            ));
        }
        WorkloadReport::Rag(r) => {
            blocks.push(heading(
                2,
                slug("workload", &r.name),
                format!("{} (RAG on {})", r.name, r.fabric),
            ));
            blocks.push(figures_table(
                format!("{}: retrieval", r.name),
                vec![
                    figure_row("Bytes per query", &r.bytes_per_query),
                    figure_row("Bandwidth", &r.bandwidth),
                    figure_row("Network time per query", &r.network_time_per_query),
                    figure_row("Share of the latency budget", &r.share_of_budget),
                    figure_row(
                        "Vector database port utilisation",
                        &r.vector_db_port_utilisation,
                    ),
                ],
            ));
        }
        WorkloadReport::Storage(s) => {
            blocks.push(heading(
                2,
                slug("workload", &s.name),
                format!("{} (storage on {})", s.name, s.fabric),
            ));
            blocks.push(figures_table(
                format!("{}: reads and checkpoints", s.name),
                vec![
                    figure_row("Read rate needed", &s.read_needed),
                    figure_row("Read rate provisioned", &s.read_provisioned),
                    figure_row("Read rate available", &s.read_available),
                    figure_row("Read headroom", &s.read_headroom),
                    figure_row("Checkpoint size", &s.checkpoint_size),
                    figure_row("Checkpoint write time", &s.checkpoint_write_time),
                    figure_row("Time spent checkpointing", &s.checkpoint_overhead),
                ],
            ));
        }
    }
}

fn headroom(blocks: &mut Vec<Block>, charts: studies::Charts) {
    blocks.push(heading(1, "headroom", "Bandwidth headroom and what-ifs"));
    for c in charts.headroom {
        blocks.push(chart(c));
    }
    for c in charts.comparison {
        blocks.push(chart(c));
    }
    if !charts.comparison_rows.is_empty() {
        blocks.push(Block::Table(table(
            charts.comparison_caption,
            &[("Technology", false), ("Communication", true)],
            charts
                .comparison_rows
                .into_iter()
                .map(|(t, c)| vec![t, c])
                .collect(),
        )));
    }
    for c in charts
        .whatifs
        .into_iter()
        .filter(|c| !c.id.starts_with("chart-checkpoints"))
    {
        blocks.push(chart(c));
    }
    if !charts.spine_losses.is_empty() {
        let mut losses = table(
            "Spine switches lost: each leaf loses its uplinks to them, ECMP spreads the traffic over the spines left",
            &[
                ("Fabric", false),
                ("Spines lost", true),
                ("Bisection after", true),
                ("Leaf-spine available", true),
                ("Required", true),
                ("Verdict", false),
            ],
            charts
                .spine_losses
                .iter()
                .map(|l| {
                    vec![
                        l.fabric.clone(),
                        format!("{} of {}", l.lost, l.spines),
                        l.bisection_after.to_string(),
                        l.leaf_spine_available.to_string(),
                        l.leaf_spine_required.to_string(),
                        if l.survives { "survives" } else { "short of bandwidth" }.to_string(),
                    ]
                })
                .collect(),
        );
        losses.flagged = charts.spine_losses.iter().map(|l| !l.survives).collect();
        blocks.push(Block::Table(losses));
    }
}

fn storage(blocks: &mut Vec<Block>, report: &Report, whatifs: Vec<Chart>) {
    blocks.push(heading(1, "storage", "Storage and checkpoints"));
    let stored: Vec<_> = report
        .workloads
        .iter()
        .filter(|w| matches!(w, WorkloadReport::Storage(_)))
        .collect();
    if stored.is_empty() {
        blocks.push(paragraph(
            "The design has no storage workload: training-data reads and checkpoints are not sized.",
        ));
    }
    for w in stored {
        workload(blocks, w);
    }
    for c in whatifs
        .into_iter()
        .filter(|c| c.id.starts_with("chart-checkpoints"))
    {
        blocks.push(chart(c));
    }
}

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
                            format!("{} m", h.length_m),
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
                            format!("{:.1} %", u.average.value.0 * 100.0),
                            format!("{:.0} %", u.during_bursts.0 * 100.0),
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

fn assumptions(blocks: &mut Vec<Block>, spec: &DesignSpec) {
    blocks.push(heading(1, "assumptions", "Assumptions and sources"));
    let list = engine::assumptions(spec);
    let mut t = table(
        "Every catalog figure and calibration value behind the results",
        &[("What", false), ("Figure", false), ("Source", false)],
        list.iter()
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
    blocks.push(Block::Table(t));
    blocks.extend(super::validation::validation_blocks());
}
