//! Which engine a revision's figures come from. A revision keeps the report the engine of its
//! day computed; its pages and documents are computed by today's engine, every part from that
//! one evaluation, and say so where the saved figures differ, with both beside each other.

use super::blocks::{paragraph, table};
use super::Block;
use crate::components::headline_figures;
use crate::store::StoredRevision;
use engine::{Report, ENGINE_VERSION};

/// What today's engine says about a revision computed by an older one.
#[derive(Debug, Clone, PartialEq)]
pub enum Staleness {
    /// Same engine, or the same numbers.
    Current,
    /// An older engine, and today's numbers differ from the saved snapshot.
    Changed { saved: Box<Report> },
    /// An older engine whose snapshot today's engine cannot read.
    Unreadable,
}

/// Compares the saved snapshot of `stored` with `today`'s report of the same spec.
pub fn staleness(stored: &StoredRevision, today: &Report) -> Staleness {
    if stored.engine_version == ENGINE_VERSION {
        return Staleness::Current;
    }
    match &stored.report {
        None => Staleness::Unreadable,
        Some(saved) => {
            let mut same_engine = saved.clone();
            same_engine.engine_version = today.engine_version.clone();
            if &same_engine == today {
                Staleness::Current
            } else {
                Staleness::Changed {
                    saved: Box::new(saved.clone()),
                }
            }
        }
    }
}

/// What the cover says of the engine: today's, which computed every figure, and the one that
/// saved the revision where that was another.
pub fn engine_line(saved_by: &str) -> String {
    if saved_by == ENGINE_VERSION {
        format!("{ENGINE_VERSION}, which saved this revision and computed every figure")
    } else {
        format!("{ENGINE_VERSION} computed every figure; engine {saved_by} saved this revision")
    }
}

/// The notice of a revision saved by another engine: nothing when the numbers are the same;
/// otherwise what happened and, where the saved report can be read, its headline figures
/// beside today's, the differing ones flagged.
pub fn stale_blocks(staleness: &Staleness, today: &Report, saved_by: &str) -> Vec<Block> {
    match staleness {
        Staleness::Current => Vec::new(),
        Staleness::Unreadable => vec![paragraph(format!(
            "This revision was computed by engine {saved_by}, whose saved report today's engine ({ENGINE_VERSION}) cannot read. Every figure shown is today's."
        ))],
        Staleness::Changed { saved } => {
            let pairs: Vec<(String, String, String)> = headline_figures(&saved.headline)
                .into_iter()
                .zip(headline_figures(&today.headline))
                .map(|((_, label, then, _), (_, _, now, _))| (label.to_string(), then, now))
                .collect();
            let saved_column = format!("Saved (engine {saved_by})");
            let today_column = format!("Today (engine {ENGINE_VERSION})");
            let mut figures = table(
                "Headline figures as saved and as computed today",
                &[
                    ("Figure", false),
                    (&saved_column, true),
                    (&today_column, true),
                ],
                pairs
                    .iter()
                    .map(|(label, then, now)| vec![label.clone(), then.clone(), now.clone()])
                    .collect(),
            );
            figures.flagged = pairs.iter().map(|(_, then, now)| then != now).collect();
            figures.id = Some("stale-figures".into());
            vec![
                paragraph(format!(
                    "This revision was computed by engine {saved_by}; today's engine ({ENGINE_VERSION}) gives different numbers. Every figure shown is today's; the saved ones are beside them."
                )),
                Block::Table(figures),
            ]
        }
    }
}
