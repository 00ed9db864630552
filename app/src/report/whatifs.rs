//! Bandwidth headroom and what-ifs: the studies' charts, the technology comparison and what
//! losing spines does, as the dashboard and the report show them.

use super::blocks::{chart, heading, table};
use super::{Block, Table};
use crate::charts::studies::Charts;
use crate::words::number;
use engine::studies::SpineLoss;

/// Bisection and leaf-spine headroom after one and two spine failures, the fabrics left short
/// flagged.
pub fn spine_loss_table(losses: &[SpineLoss]) -> Table {
    let mut t = table(
        "Spine switches lost: each leaf loses its uplinks to them, ECMP spreads the traffic over the spines left",
        &[
            ("Fabric", false),
            ("Spines lost", true),
            ("Bisection after", true),
            ("Leaf-spine available", true),
            ("Required", true),
            ("Verdict", false),
        ],
        losses
            .iter()
            .map(|l| {
                vec![
                    l.fabric.clone(),
                    format!("{} of {}", number(l.lost), number(l.spines)),
                    l.bisection_after.to_string(),
                    l.leaf_spine_available.to_string(),
                    l.leaf_spine_required.to_string(),
                    if l.survives { "survives" } else { "short of bandwidth" }.to_string(),
                ]
            })
            .collect(),
    );
    t.id = Some("spine-losses".into());
    t.flagged = losses.iter().map(|l| !l.survives).collect();
    t
}

/// The technology comparison's numbers, under its chart.
pub fn comparison_table(charts: &Charts) -> Option<Table> {
    (!charts.comparison_rows.is_empty()).then(|| {
        table(
            charts.comparison_caption.clone(),
            &[("Technology", false), ("Communication", true)],
            charts
                .comparison_rows
                .iter()
                .map(|(t, c)| vec![t.clone(), c.clone()])
                .collect(),
        )
    })
}

pub(super) fn headroom(blocks: &mut Vec<Block>, charts: Charts) {
    blocks.push(heading(1, "headroom", "Bandwidth headroom and what-ifs"));
    let comparison = comparison_table(&charts);
    for c in charts.headroom {
        blocks.push(chart(c));
    }
    for c in charts.comparison {
        blocks.push(chart(c));
    }
    blocks.extend(comparison.map(Block::Table));
    for c in charts
        .whatifs
        .into_iter()
        .filter(|c| !c.id.starts_with("chart-checkpoints"))
    {
        blocks.push(chart(c));
    }
    if !charts.spine_losses.is_empty() {
        blocks.push(Block::Table(spine_loss_table(&charts.spine_losses)));
    }
}
