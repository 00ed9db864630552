//! What every page of a design is made of: headings, paragraphs, tables, charts, figures and
//! findings, each built once from the engine's report (`crate::report`) and rendered by one
//! renderer wherever it shows ([`html`]): the live planner's dashboard in the browser, a saved
//! design's page, the report page, and (from their JSON) the PDF.

mod answer;
pub mod html;

use serde::Serialize;

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

/// One figure with how it was worked out: its value, and on demand its formula, the formula
/// with this design's numbers, and its source.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FigureLine {
    /// A stable hook for tests and styling, on the value.
    pub id: String,
    /// What the figure means, in words.
    pub label: String,
    pub value: String,
    /// How sure the figure is ("−6 % / +9 %"), beside its value.
    pub interval: Option<String>,
    pub formula: String,
    pub worked: Option<String>,
    pub source: String,
}

/// One piece of a page or of the report, in reading order.
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
    /// A study's chart with its numbers in a table a reader can open; when the study's answer
    /// does not move over its range, the words that say so in place of the drawing.
    Study {
        id: String,
        caption: String,
        svg: String,
        flat: Option<String>,
        data: Table,
    },
    /// Facts about one thing: a class naming the value, what it is, its value.
    Facts {
        rows: Vec<(String, String, String)>,
    },
    /// Figures, each with its formula, inputs and source to open.
    Figures {
        rows: Vec<FigureLine>,
    },
    /// Blocks read together: an article stands on its own (a fabric, a workload), a division
    /// only groups (a row of charts, two columns side by side).
    Group {
        article: bool,
        id: Option<String>,
        class: String,
        blocks: Vec<Block>,
    },
}

impl Block {
    /// A division of `class` holding `blocks`.
    pub fn division(class: &str, blocks: Vec<Block>) -> Block {
        Block::Group {
            article: false,
            id: None,
            class: class.to_string(),
            blocks,
        }
    }
}
