//! The dashboard of a design, as blocks: the same for a design being edited (the browser draws
//! them from the server's answer) and for a saved design's page. It shows the report's own
//! sections, with each fabric's facts beside its diagram, each workload's figures with their
//! "How" to open, and each study's chart with its numbers.

use super::blocks::{heading, note, paragraph, slug, table};
use super::{
    assumption_table, bom_blocks, collectives_table, comparison_table, fabric_facts,
    fabric_heading, fabric_lede, failure_blocks, floor_blocks, goodput_blocks, interval_blocks,
    operating_blocks, phase_blocks, spine_loss_table, tenant_blocks, tier_table, topology_chart,
    workload_figures, workload_heading, Block, FigureLine,
};
use crate::charts::studies::{self, Chart, Charts};
use engine::tenancy::TenantPlacement;
use engine::uncertainty::TimeInterval;
use engine::{DesignSpec, FabricReport, PlacedReport, WorkloadReport};

/// The dashboard of `spec`, evaluated on its floor as `placed`: its sections from that one
/// evaluation over the design's life, as the report's are.
pub fn dashboard_blocks(spec: &DesignSpec, placed: &PlacedReport) -> Vec<Block> {
    let floor = &placed.floor;
    let charts = studies::charts(spec, &placed.report);
    let report = &placed.report.clone().over_its_life_on(spec, floor);
    let totals = report.network();
    let summary = format!(
        "Network for {} GPUs as placed on its floor: {} ({} per GPU), {} ({} per GPU). Engine {}.",
        crate::words::number(report.cluster.gpus),
        crate::money::usd(totals.cost_usd),
        crate::money::usd(totals.cost_per_gpu_usd),
        crate::money::watts(totals.power_w),
        crate::money::watts(totals.power_per_gpu_w),
        report.engine_version
    );
    let mut blocks = vec![
        Block::Group {
            article: false,
            id: Some("totals".into()),
            class: "totals".into(),
            blocks: vec![paragraph(summary)],
        },
        heading(1, "fabrics", "Fabrics"),
    ];
    for fabric in &report.fabrics {
        blocks.push(fabric_block(fabric, &report.tenants));
    }
    blocks.push(heading(
        1,
        "studies",
        "What the network costs the workloads",
    ));
    blocks.extend(study_blocks(charts));
    blocks.push(heading(1, "workloads", "Workloads, figure by figure"));
    blocks.push(note(
        "Open “How” beside a figure for its formula, inputs and source.",
    ));
    for (index, w) in report.workloads.iter().enumerate() {
        let interval = report.uncertainty.iter().find(|i| i.workload == w.name());
        blocks.push(workload_block(w, index, interval));
    }
    for (class, part) in [
        ("intervals", interval_blocks(&report.uncertainty)),
        ("floor", floor_blocks(spec, report, floor)),
        ("failures", failure_blocks(spec, report, &report.failures)),
        (
            "tenants",
            tenant_blocks(spec, report, &report.interference, floor),
        ),
        ("goodput", goodput_blocks(&report.goodput)),
        (
            "phases",
            phase_blocks(report.phases.as_ref(), report, floor),
        ),
        ("operating", operating_blocks(spec, report)),
    ] {
        blocks.push(Block::division(class, part));
    }
    blocks.push(heading(1, "sources", "Assumptions and sources"));
    blocks.push(Block::Table(assumption_table(spec)));
    blocks
}

/// One fabric: how it is built and why, its facts beside its diagram (with the `tenants`'
/// nodes), its headroom per tier and its bill of materials.
fn fabric_block(fabric: &FabricReport, tenants: &[TenantPlacement]) -> Block {
    let facts = Block::Facts {
        rows: fabric_facts(fabric)
            .into_iter()
            .map(|(key, what, value)| (format!("fabric-{key}"), what.to_string(), value))
            .collect(),
    };
    let mut blocks = vec![
        heading(2, slug("fabric", &fabric.name), fabric_heading(fabric)),
        paragraph(fabric_lede(fabric)),
        Block::division("two-columns", vec![facts, topology_chart(fabric, tenants)]),
        Block::Table(tier_table(fabric)),
    ];
    blocks.extend(bom_blocks(fabric));
    Block::Group {
        article: true,
        id: Some(slug("fabric-report", &fabric.name)),
        class: "fabric-report".into(),
        blocks,
    }
}

/// Every figure of one workload with its formula and source ("show your work"), each with its
/// "How" to open, and a training job's collectives.
fn workload_block(w: &WorkloadReport, index: usize, interval: Option<&TimeInterval>) -> Block {
    let over = matches!(w, WorkloadReport::Inference(i) if !i.inter_token_verdict().meets);
    let rows = workload_figures(w, interval)
        .into_iter()
        .map(|s| FigureLine {
            id: format!("w{index}-{}", s.key),
            label: s.label.to_string(),
            value: s.figure.value,
            interval: s.interval,
            formula: s.figure.formula.into_owned(),
            worked: s.figure.worked.map(|w| w.into_owned()),
            source: s.figure.source.into_owned(),
        })
        .collect();
    let mut blocks = vec![
        heading(2, slug("workload", w.name()), workload_heading(w)),
        Block::Figures { rows },
    ];
    if let WorkloadReport::Training(t) = w {
        blocks.push(collectives_table(t, interval));
    }
    Block::Group {
        article: true,
        id: Some(format!("workload-report-{index}")),
        class: if over {
            "workload-report over-target".into()
        } else {
            "workload-report".into()
        },
        blocks,
    }
}

/// A study's chart with its numbers: the first column names each point, the others are figures.
fn study(c: Chart) -> Block {
    let columns: Vec<(&str, bool)> = c
        .data
        .columns
        .iter()
        .enumerate()
        .map(|(i, title)| (*title, i > 0))
        .collect();
    Block::Study {
        data: table(c.label.clone(), &columns, c.data.rows),
        id: c.id,
        caption: c.label,
        svg: c.svg,
        flat: c.flat,
    }
}

/// The studies: the technologies compared, the headroom per tier and the what-ifs, each chart
/// with its numbers.
fn study_blocks(charts: Charts) -> Vec<Block> {
    let comparison = comparison_table(&charts).map(Block::Table);
    let spine_losses = (!charts.spine_losses.is_empty())
        .then(|| Block::Table(spine_loss_table(&charts.spine_losses)));
    let row =
        |charts: Vec<Chart>| Block::division("charts", charts.into_iter().map(study).collect());
    let mut blocks = vec![row(charts.comparison)];
    blocks.extend(comparison);
    blocks.push(heading(2, "headroom", "Bandwidth headroom per tier"));
    blocks.push(row(charts.headroom));
    blocks.push(heading(2, "what-if", "What if"));
    blocks.push(row(charts.whatifs));
    blocks.extend(spine_losses);
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::answer::FromAnswer;
    use leptos::tachys::view::RenderHtml;

    /// The dashboard of `json` as the planner's server function assembles it.
    fn dashboard_of(json: &str) -> Vec<Block> {
        let spec = DesignSpec::from_json(json).unwrap();
        let placed = engine::evaluate_placed(&spec).unwrap();
        dashboard_blocks(&spec, &placed)
    }

    /// Every example's dashboard reaches the browser whole: its reader of the server's answer
    /// gives back every block serde wrote, and the blocks render to the same HTML there as on
    /// a saved design's page.
    #[test]
    fn every_examples_dashboard_reads_back_in_the_browser_as_the_server_assembled_it() {
        for (name, json) in engine::examples::ALL {
            let blocks = dashboard_of(json);
            let answer = serde_json::to_value(&blocks).unwrap();
            let read = Vec::<Block>::from_answer(&answer);
            assert!(read.as_ref() == Some(&blocks), "{name}");
            let html = |b: &[Block]| crate::blocks::html::blocks_view(b).to_html();
            assert_eq!(html(&read.unwrap()), html(&blocks), "{name}");
        }
    }

    /// What a reader finds on the dashboard, in order: the network as placed, each fabric with
    /// its facts beside its diagram, the studies with their numbers, each workload's figures with
    /// how each was worked out, then the floor and the design's life.
    #[test]
    fn the_dashboard_shows_the_fabrics_studies_and_workloads_with_their_workings() {
        let blocks = dashboard_of(engine::examples::SEVENTY_B_TRAINING);
        let html = crate::blocks::html::blocks_view(&blocks).to_html();
        let at = |needle: &str| {
            html.find(needle)
                .unwrap_or_else(|| panic!("the dashboard has {needle}"))
        };
        let order = [
            r#"id="totals""#,
            r#"<article class="fabric-report" id="fabric-report-compute""#,
            r#"<table class="facts">"#,
            r#"class="fabric-tiers""#,
            r#"id="topology-compute""#,
            r#"<figure class="chart-with-data">"#,
            r#"id="chart-scaling-data""#,
            r#"<article class="workload-report" id="workload-report-0""#,
            r#"<span id="w0-bytes-per-step">"#,
            r#"<div class="floor">"#,
            r#"<div class="failures">"#,
            r#"id="assumptions""#,
        ];
        for pair in order.windows(2) {
            assert!(at(pair[0]) < at(pair[1]), "{} before {}", pair[0], pair[1]);
        }
        assert!(
            html.contains(r#"<td class="work"><details><summary>How"#)
                && html.contains(r#"<p class="worked">"#),
            "each figure's workings to open"
        );
        assert!(
            !html.contains("over-target"),
            "training has no latency target"
        );
    }
}
