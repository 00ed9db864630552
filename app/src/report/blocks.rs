//! The pieces every section of the report is made of: headings, paragraphs, notes, tables,
//! charts and findings, built the same way wherever they appear.

use super::{Block, Column, Table};
use crate::charts::studies::Chart;

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

/// A chart, or what it found in words when its answer does not move over its range.
pub(super) fn chart(c: Chart) -> Block {
    match c.flat {
        Some(words) => paragraph(words),
        None => Block::Chart {
            id: c.id,
            caption: c.label,
            svg: c.svg,
        },
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
