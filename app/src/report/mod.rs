//! The design report of a saved revision (server only): one document, built once from the
//! stored spec and its report, that the report page renders as print-ready HTML and the server
//! typesets as a PDF. Both show the same sections in the same order because both walk these
//! blocks; every figure in it comes from the engine, already formatted with its unit.

mod asbuilt;
mod blocks;
mod build;
mod engine_version;
mod fabrics;
mod failures;
mod floor;
mod goodput;
pub mod html;
mod operating;
mod phases;
mod sources;
mod summary;
mod tenants;
mod uncertainty;
mod validation;
mod whatifs;
mod workloads;

pub use asbuilt::{kept_cells, last_verdict, KEPT_COLUMNS};
pub use build::{report_document, Revision};
pub use engine_version::{engine_line, stale_blocks, staleness, Staleness};
pub use fabrics::{
    bom_blocks, fabric_facts, fabric_heading, fabric_lede, headroom_text, item_text, tier_table,
    ESTIMATE_NOTE,
};
pub use failures::failure_blocks;
pub use floor::floor_blocks;
pub use goodput::goodput_blocks;
pub use operating::{assumption_table, operating_blocks};
pub use phases::phase_blocks;
pub use tenants::tenant_blocks;
pub use uncertainty::interval_blocks;
pub use whatifs::{comparison_table, spine_loss_table};
pub use workloads::{
    collectives_table, inter_token_figure, workload_figures, workload_heading, Shown,
    INTER_TOKEN_LABEL,
};

use serde::Serialize;

/// The report: its cover and its body.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReportDocument {
    pub title: String,
    /// What the cover states: revision, date, engine version, share link.
    pub cover: Vec<(String, String)>,
    pub blocks: Vec<Block>,
}

impl ReportDocument {
    /// The headings of the first two levels, in order: the table of contents.
    pub fn contents(&self) -> Vec<(u8, &str, &str)> {
        self.blocks
            .iter()
            .filter_map(|b| match b {
                Block::Heading { level, id, text } if *level <= 2 => {
                    Some((*level, id.as_str(), text.as_str()))
                }
                _ => None,
            })
            .collect()
    }
}

/// A column of a table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Column {
    pub title: String,
    /// Figures, aligned right.
    pub numeric: bool,
}

/// A table: rows never split across pages.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table {
    pub id: Option<String>,
    pub caption: String,
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<String>>,
    /// Rows to read as a problem (a tier short of bandwidth, a failed check).
    pub flagged: Vec<bool>,
    pub footer: Option<Vec<String>>,
}

/// One piece of the report, in reading order.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Block {
    /// Level 1 is a section, 2 a fabric or workload within it, 3 a part of that.
    Heading {
        level: u8,
        id: String,
        text: String,
    },
    Paragraph {
        text: String,
    },
    /// Smaller text: how to read what precedes or follows.
    Note {
        text: String,
    },
    /// The headline figures: label, value, what it means.
    Metrics {
        items: Vec<(String, String, String)>,
    },
    /// Findings: severity, subject, message.
    Findings {
        items: Vec<(String, String, String)>,
    },
    Table(Table),
    /// A vector chart or diagram, as standalone SVG.
    Chart {
        id: String,
        caption: String,
        svg: String,
    },
    /// A configuration excerpt.
    Code {
        caption: String,
        text: String,
    },
}
