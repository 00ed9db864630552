//! The public sources a report cites, with titles and addresses, as the last table of its
//! assumptions section: every short citation in the document leads here.

use super::blocks::{note, table};
use super::Block;
use engine::sources::citations;
use engine::{DesignSpec, Report};

/// The sources the report of `spec` cites (its figures, findings, assumptions and the
/// validation table), in the order of the list of sources.
pub fn cited_sources(spec: &DesignSpec, report: &Report) -> Vec<&'static engine::sources::Source> {
    let mut text = serde_json::to_string(report).unwrap_or_default();
    text.push_str(&serde_json::to_string(&engine::assumptions(spec)).unwrap_or_default());
    text.push_str(
        &serde_json::to_string(&engine::validation::validation_rows()).unwrap_or_default(),
    );
    let cited = citations(&text);
    engine::sources::SOURCES
        .iter()
        .filter(|s| cited.iter().any(|c| c == s.cite))
        .collect()
}

/// The table of cited sources.
pub fn sources_blocks(spec: &DesignSpec, report: &Report) -> Vec<Block> {
    let mut t = table(
        "Sources cited in this report",
        &[("Cited as", false), ("Source", false), ("Address", false)],
        cited_sources(spec, report)
            .into_iter()
            .map(|s| vec![s.cite.to_string(), s.title.to_string(), s.url.to_string()])
            .collect(),
    );
    t.id = Some("sources".into());
    vec![
        Block::Table(t),
        note("Every source Fabric Planner cites is listed at /sources."),
    ]
}
