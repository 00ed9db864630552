//! The report's content, from a stored revision: what each section holds.

use super::fabrics::{cluster, fabrics};
use super::operating::{assumptions, operating_blocks};
use super::workloads::{storage, workloads};
use super::{Block, Column, ReportDocument, Table};
use crate::dashboard::studies::{self, Chart};
use engine::{DesignSpec, Report};

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
    /// How the saved figures compare with today's engine, which computed the document.
    pub staleness: super::Staleness,
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
pub(super) fn slug(prefix: &str, name: &str) -> String {
    format!(
        "{prefix}-{}",
        name.replace(|c: char| !c.is_ascii_alphanumeric(), "-")
    )
}

pub(super) fn chart(c: Chart) -> Block {
    Block::Chart {
        id: c.id,
        caption: c.label,
        svg: c.svg,
    }
}

/// The whole report of `spec` and its `report` at `revision`: every part of it from `report`,
/// today's engine's evaluation of `spec`.
pub fn report_document(spec: &DesignSpec, report: &Report, revision: &Revision) -> ReportDocument {
    let mut blocks = super::stale_blocks(&revision.staleness, report, &revision.engine_version);
    // The studies are run once: the summary's alternatives and the what-if section read them.
    let charts = studies::charts(spec, report);
    // The floor is planned once: the summary's risks and the floor section read it.
    let floor = engine::floor::plan(spec, report);
    super::summary::summary(&mut blocks, spec, report, &floor, charts.compared.as_ref());
    cluster(&mut blocks, spec, report);
    fabrics(&mut blocks, report);
    workloads(&mut blocks, report);
    super::whatifs::headroom(&mut blocks, charts.clone());
    storage(&mut blocks, report, charts.whatifs);
    blocks.extend(super::floor::floor_section(&floor));
    blocks.extend(operating_blocks(spec, report));
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
                super::engine_line(&revision.engine_version),
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
