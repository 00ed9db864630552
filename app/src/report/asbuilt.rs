//! The as-built section of a revision's report: the checks kept with the revision after
//! installation, charted and listed as each was found on the day. The as-built page lists them
//! with the same columns.

use super::blocks::{heading, note, paragraph, table};
use super::Block;
use crate::charts::asbuilt::{history, CheckPoint};
use crate::store::{StoredCheck, Tool};
use crate::words::number;

/// The columns of the kept checks: title, numeric.
pub const KEPT_COLUMNS: [(&str, bool); 8] = [
    ("Check", false),
    ("Fabric", false),
    ("Output of", false),
    ("As planned", true),
    ("Missing", true),
    ("Swapped", true),
    ("Degraded", true),
    ("On no planned port", true),
];

/// A kept check's cells, in the order of [`KEPT_COLUMNS`].
pub fn kept_cells(c: &StoredCheck) -> Vec<String> {
    let f = &c.found;
    vec![
        format!("{} · {}", c.checked_on, c.label),
        c.fabric.clone(),
        match c.tool {
            Tool::Lldp => format!("LLDP of {}", c.device),
            Tool::Ibnetdiscover => "ibnetdiscover".into(),
        },
        f.as_planned.to_string(),
        f.missing.to_string(),
        f.swapped.to_string(),
        f.degraded.to_string(),
        f.extra.to_string(),
    ]
}

/// What the last kept check found, in one sentence.
pub fn last_verdict(c: &StoredCheck) -> String {
    let f = &c.found;
    let cables = f.as_planned + f.missing + f.swapped + f.degraded;
    if f.findings() == 0 {
        format!(
            "The last check, “{}” on {} ({}), found all {} cables as planned.",
            c.label,
            c.checked_on,
            c.fabric,
            number(cables)
        )
    } else {
        format!(
            "The last check, “{}” on {} ({}), found {} of {} cables as planned: {} missing, {} swapped, {} degraded, and {} links on no planned port.",
            c.label,
            c.checked_on,
            c.fabric,
            number(f.as_planned),
            number(cables),
            number(f.missing),
            number(f.swapped),
            number(f.degraded),
            number(f.extra)
        )
    }
}

/// The section: a note when nothing is kept yet, else the chart and the table.
pub fn asbuilt_section(kept: &[StoredCheck]) -> Vec<Block> {
    let mut blocks = vec![heading(1, "asbuilt", "As built")];
    let Some(last) = kept.last() else {
        blocks.push(note("No as-built check is kept with this revision yet. After installation, the design's as-built check compares ibnetdiscover output or each switch's LLDP table with the cabling sheet, cable by cable, and the key holder keeps each check here."));
        return blocks;
    };
    blocks.push(paragraph(last_verdict(last)));
    let points: Vec<CheckPoint> = kept
        .iter()
        .map(|c| CheckPoint {
            checked_on: &c.checked_on,
            found: &c.found,
        })
        .collect();
    blocks.push(Block::Chart {
        id: "asbuilt-history".into(),
        caption: "Cables not as planned, check by check".into(),
        svg: history(&points),
    });
    blocks.push(Block::Table(table(
        "As-built checks kept with this revision, each as found on the day",
        &KEPT_COLUMNS,
        kept.iter().map(kept_cells).collect(),
    )));
    blocks
}
