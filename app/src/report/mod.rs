//! A design's sections as blocks (server only), each from one evaluation of the design on its
//! floor: the design report of a saved revision, one document that the report page renders as
//! print-ready HTML and the server typesets as a PDF, and the dashboard of a design
//! ([`dashboard_blocks`]), which a saved design's page and the live planner render. Every
//! figure in them comes from the engine, already formatted with its unit.

mod asbuilt;
mod blocks;
mod build;
mod dashboard;
mod engine_version;
mod fabrics;
mod failures;
mod floor;
mod goodput;
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
pub use dashboard::dashboard_blocks;
pub use engine_version::{engine_line, stale_blocks, staleness, Staleness};
pub use fabrics::{
    bom_blocks, fabric_facts, fabric_heading, fabric_lede, headroom_text, item_text, tier_table,
    topology_chart, ESTIMATE_NOTE,
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

pub use crate::blocks::{Block, Column, FigureLine, Table};
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
