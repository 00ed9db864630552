//! The published measurements the engine is checked against, as a table of the report's
//! assumptions section: the reader sees how far to trust the figures, and where.

use super::blocks::{note, table};
use super::Block;

/// The validation table and how to read it.
pub fn validation_blocks() -> Vec<Block> {
    let rows = engine::validation::validation_rows();
    let mut t = table(
        "Published measurements the engine is checked against",
        &[
            ("Source", false),
            ("Setup", false),
            ("What", false),
            ("Measured", true),
            ("Predicted", true),
            ("Ratio", true),
            ("Chosen by the engine", false),
        ],
        rows.iter()
            .map(|r| {
                vec![
                    r.source.to_string(),
                    r.setup.clone(),
                    r.metric.clone(),
                    format!("{:.1}", r.measured),
                    format!("{:.1}", r.predicted),
                    format!("{:.2}", r.ratio),
                    r.model.clone(),
                ]
            })
            .collect(),
    );
    t.flagged = rows
        .iter()
        .map(|r| {
            r.tolerance
                .is_some_and(|t| r.ratio > t || r.ratio < 1.0 / t)
        })
        .collect();
    t.id = Some("validation".into());
    vec![
        Block::Chart {
            id: "validation-chart".into(),
            caption: "Bus bandwidth by message size for every published all_reduce_perf run of the table below: measured (open blue circles) and the engine's prediction for the same setup (orange), joined by a grey stroke.".into(),
            svg: crate::charts::validation::published_busbw(&rows),
        },
        Block::Table(t),
        note("Ratio is predicted ÷ measured. Rows whose source leaves out part of the setup are shown for reference and not held to a tolerance."),
    ]
}
