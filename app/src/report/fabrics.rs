//! The cluster and its fabrics as every view shows them: how each fabric is built, its
//! headroom per tier and its bill of materials. The dashboard draws the same facts, tables and
//! notes as the report.

use super::blocks::{heading, note, paragraph, slug, table};
use super::{Block, Table};
use crate::money::{usd, watts};
use crate::words::{counted, number};
use engine::{BomLine, DesignSpec, FabricReport, Report};

/// What a marked line means, under every bill of materials.
pub const ESTIMATE_NOTE: &str = "* Catalog estimate: no public price or power figure was found. Enter your quote in the Prices and calibration step.";

/// A line's item as the tables show it: estimates marked with *, quotes said to be quoted.
pub fn item_text(line: &BomLine) -> String {
    match line.basis() {
        engine::Basis::Estimate => format!("{} *", line.description),
        engine::Basis::Quoted => format!("{} (quoted)", line.description),
        engine::Basis::Catalog => line.description.clone(),
    }
}

/// A tier's headroom in words: none without traffic, and beyond 10× the exact figure means
/// nothing to the reader.
pub fn headroom_text(h: Option<f64>) -> String {
    match h {
        None => "no traffic".into(),
        Some(h) if h > 1000.0 => "more than 10×".into(),
        Some(h) => format!("{h:.0} %"),
    }
}

/// The heading of a fabric: its name, technology and role.
pub fn fabric_heading(f: &FabricReport) -> String {
    format!(
        "{}: {} ({} fabric)",
        f.name,
        f.technology.label(),
        f.role.label()
    )
}

/// Why the fabric has the shape it has, in one sentence.
pub fn fabric_lede(f: &FabricReport) -> String {
    format!("{}: {}.", f.plan.layout.label(), f.plan.reason)
}

/// How a fabric is built, fact by fact: a key (the dashboard's hook for the value), what,
/// and its value with unit.
pub fn fabric_facts(f: &FabricReport) -> Vec<(&'static str, &'static str, String)> {
    let plan = &f.plan;
    let cables = f
        .cables
        .iter()
        .map(|c| {
            format!(
                "{}: {} × {} ({} m)",
                c.tier,
                number(c.count),
                c.reach.label(),
                c.length_m.metres()
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    let carries = if f.workloads.is_empty() {
        "none".to_string()
    } else {
        f.workloads.join(", ")
    };
    let mut facts = vec![
        ("switch", "Switch", f.switch_name.clone()),
        ("tiers", "Tiers", plan.tiers.to_string()),
        (
            "switches",
            "Leaf / spine / core switches",
            format!(
                "{} / {} / {}",
                number(plan.leaves),
                number(plan.spines),
                number(plan.cores)
            ),
        ),
        (
            "endpoints",
            "Endpoints",
            format!(
                "{} ({} × {})",
                number(f.endpoints),
                crate::words::counted(f.attached_nodes, "node", "nodes"),
                crate::words::counted(f.ports_per_node, "port", "ports")
            ),
        ),
        (
            "ports",
            "Switch ports used / free",
            format!("{} / {}", number(f.ports_used), number(f.ports_free)),
        ),
        (
            "oversubscription",
            "Leaf oversubscription",
            if plan.leaf_ports_in_use() < plan.leaf_downlinks {
                format!(
                    "{}:1 ({} of {} ports down in use, {} up per leaf)",
                    f.oversubscription,
                    plan.leaf_ports_in_use(),
                    plan.leaf_downlinks,
                    plan.leaf_uplinks
                )
            } else {
                format!(
                    "{}:1 ({} down, {} up per leaf)",
                    f.oversubscription, plan.leaf_downlinks, plan.leaf_uplinks
                )
            },
        ),
        (
            "bisection",
            "Bisection bandwidth",
            format!("{} ({})", f.bisection.value, f.bisection.formula),
        ),
        (
            "grows-to",
            "Grows to, without new spines",
            counted(f.max_nodes, "node", "nodes"),
        ),
        ("cables", "Cables by tier (nominal run)", cables),
        ("transceivers", "Transceivers", number(f.transceivers)),
        (
            "cost",
            "Cost / power",
            format!("{} / {}", usd(f.cost_usd), watts(f.power_w)),
        ),
        ("carries", "Carries", carries),
    ];
    if let Some(choice) = &f.switch_choice {
        facts.insert(
            1,
            ("switch-choice", "Why this switch", choice.reason.clone()),
        );
    }
    facts
}

/// The fabric's bandwidth headroom per tier, the tiers short of bandwidth flagged.
pub fn tier_table(f: &FabricReport) -> Table {
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
    tiers.id = Some(slug("headroom", &f.name));
    tiers.flagged = f
        .tiers
        .iter()
        .map(|t| t.headroom_percent.is_some_and(|h| h < 0.0))
        .collect();
    tiers
}

/// The fabric's bill of materials with its totals, and what a marked line means when one is.
pub fn bom_blocks(f: &FabricReport) -> Vec<Block> {
    let (total, power) = (f.cost_usd, f.power_w);
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
                    item_text(l),
                    number(l.quantity),
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
    let mut blocks = vec![Block::Table(bom)];
    if f.bom.iter().any(|l| l.basis() == engine::Basis::Estimate) {
        blocks.push(note(ESTIMATE_NOTE));
    }
    blocks
}

pub(super) fn cluster(blocks: &mut Vec<Block>, spec: &DesignSpec, report: &Report) {
    blocks.push(heading(1, "cluster", "Cluster and workloads"));
    let c = &report.cluster;
    let growth = spec
        .cluster
        .growth_target_nodes
        .map(|n| counted(n, "node", "nodes"))
        .unwrap_or_else(|| "none planned".into());
    blocks.push(Block::Table(table(
        "Cluster",
        &[("", false), ("", false)],
        vec![
            vec!["GPU".into(), c.gpu.clone()],
            vec!["Nodes".into(), number(c.nodes)],
            vec!["GPUs per node".into(), c.gpus_per_node.to_string()],
            vec!["GPUs".into(), number(c.gpus)],
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

/// The topology diagram of fabric `f`, with the `tenants`' nodes.
pub fn topology_chart(f: &FabricReport, tenants: &[engine::tenancy::TenantPlacement]) -> Block {
    Block::Chart {
        id: slug("topology", &f.name),
        caption: format!("Topology of fabric {}: {}", f.name, f.plan.layout.label()),
        svg: crate::charts::topology::svg(f, tenants),
    }
}

pub(super) fn fabrics(blocks: &mut Vec<Block>, report: &Report) {
    blocks.push(heading(1, "fabrics", "Fabrics"));
    for f in &report.fabrics {
        blocks.push(heading(2, slug("fabric", &f.name), fabric_heading(f)));
        blocks.push(paragraph(fabric_lede(f)));
        blocks.push(Block::Table(table(
            format!("How fabric {} is built", f.name),
            &[("", false), ("", false)],
            fabric_facts(f)
                .into_iter()
                .map(|(_, what, value)| vec![what.to_string(), value])
                .collect(),
        )));
        blocks.push(topology_chart(f, &report.tenants));
        blocks.push(Block::Table(tier_table(f)));
        blocks.extend(bom_blocks(f));
    }
}
