//! The browser reads blocks from the dashboard's JSON answer as serde writes them: each reader
//! here is the mirror of its type's serde form (a block is an object tagged by its `kind`, a
//! table's members beside the tag), and the tests hold each to what serde writes.

use super::{Block, Column, FigureLine, Table};
use crate::wire::answer::{FromAnswer, Json};

impl FromAnswer for Column {
    fn from_answer(answer: &impl Json) -> Option<Column> {
        Some(Column {
            title: answer.get("title")?,
            numeric: answer.get("numeric")?,
        })
    }
}

impl FromAnswer for Table {
    fn from_answer(answer: &impl Json) -> Option<Table> {
        Some(Table {
            id: answer.get("id")?,
            caption: answer.get("caption")?,
            columns: answer.get("columns")?,
            rows: answer.get("rows")?,
            flagged: answer.get("flagged")?,
            footer: answer.get("footer")?,
        })
    }
}

impl FromAnswer for FigureLine {
    fn from_answer(answer: &impl Json) -> Option<FigureLine> {
        Some(FigureLine {
            id: answer.get("id")?,
            label: answer.get("label")?,
            value: answer.get("value")?,
            interval: answer.get("interval")?,
            formula: answer.get("formula")?,
            worked: answer.get("worked")?,
            source: answer.get("source")?,
        })
    }
}

impl FromAnswer for Block {
    fn from_answer(a: &impl Json) -> Option<Block> {
        Some(match a.text("kind")?.as_str() {
            "heading" => Block::Heading {
                level: a.get("level")?,
                id: a.get("id")?,
                text: a.get("text")?,
            },
            "paragraph" => Block::Paragraph {
                text: a.get("text")?,
            },
            "note" => Block::Note {
                text: a.get("text")?,
            },
            "metrics" => Block::Metrics {
                items: a.get("items")?,
            },
            "findings" => Block::Findings {
                items: a.get("items")?,
            },
            "table" => Block::Table(Table::from_answer(a)?),
            "chart" => Block::Chart {
                id: a.get("id")?,
                caption: a.get("caption")?,
                svg: a.get("svg")?,
            },
            "code" => Block::Code {
                caption: a.get("caption")?,
                text: a.get("text")?,
            },
            "study" => Block::Study {
                id: a.get("id")?,
                caption: a.get("caption")?,
                svg: a.get("svg")?,
                flat: a.get("flat")?,
                data: a.get("data")?,
            },
            "facts" => Block::Facts {
                rows: a.get("rows")?,
            },
            "figures" => Block::Figures {
                rows: a.get("rows")?,
            },
            "group" => Block::Group {
                article: a.get("article")?,
                id: a.get("id")?,
                class: a.get("class")?,
                blocks: a.get("blocks")?,
            },
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Table {
        Table {
            id: Some("bom-compute".into()),
            caption: "Bill of materials".into(),
            columns: vec![
                Column {
                    title: "Item".into(),
                    numeric: false,
                },
                Column {
                    title: "Qty".into(),
                    numeric: true,
                },
            ],
            rows: vec![vec!["Leaf switch".into(), "8".into()]],
            flagged: vec![true],
            footer: None,
        }
    }

    /// One block of every kind, with optional members both present and absent.
    fn every_kind() -> Vec<Block> {
        let three = |a: &str| (a.to_string(), "b <c>".to_string(), "d & e".to_string());
        vec![
            Block::Heading {
                level: 2,
                id: "fabrics".into(),
                text: "Fabrics".into(),
            },
            Block::Paragraph { text: "p".into() },
            Block::Note { text: "n".into() },
            Block::Metrics {
                items: vec![three("Step")],
            },
            Block::Findings {
                items: vec![three("Warning"), three("Info")],
            },
            Block::Table(table()),
            Block::Table(Table {
                id: None,
                footer: Some(vec!["Total".into(), "8".into()]),
                ..table()
            }),
            Block::Chart {
                id: "topology-compute".into(),
                caption: "Topology".into(),
                svg: "<svg></svg>".into(),
            },
            Block::Code {
                caption: "c".into(),
                text: "interface Ethernet1/1".into(),
            },
            Block::Study {
                id: "chart-scaling".into(),
                caption: "Scaling".into(),
                svg: String::new(),
                flat: Some("The same at every size.".into()),
                data: table(),
            },
            Block::Facts {
                rows: vec![three("fabric-tiers")],
            },
            Block::Figures {
                rows: vec![
                    FigureLine {
                        id: "w0-step".into(),
                        label: "Step time".into(),
                        value: "1.2 s".into(),
                        interval: Some("−6 % / +9 %".into()),
                        formula: "a + b".into(),
                        worked: Some("1 + 0.2 = 1.2 s".into()),
                        source: "NCCL".into(),
                    },
                    FigureLine {
                        id: "w0-bytes".into(),
                        label: "Bytes".into(),
                        value: "279 GB".into(),
                        interval: None,
                        formula: "2 × (n − 1)/n × S".into(),
                        worked: None,
                        source: "NCCL".into(),
                    },
                ],
            },
            Block::Group {
                article: true,
                id: Some("fabric-report-compute".into()),
                class: "fabric-report".into(),
                blocks: vec![Block::division(
                    "two-columns",
                    vec![Block::Note {
                        text: "inner".into(),
                    }],
                )],
            },
        ]
    }

    /// The browser's reader of blocks reads back what serde wrote, for every kind of block.
    #[test]
    fn the_browser_reads_every_kind_of_block_as_serde_wrote_it() {
        let blocks = every_kind();
        let answer = serde_json::to_value(&blocks).unwrap();
        assert_eq!(Vec::<Block>::from_answer(&answer), Some(blocks));
    }

    /// A block of a kind the reader does not know, or missing a member, is refused rather than
    /// read as something else.
    #[test]
    fn a_block_the_reader_does_not_know_is_refused() {
        let unknown = serde_json::json!([{"kind": "marquee", "text": "x"}]);
        assert_eq!(Vec::<Block>::from_answer(&unknown), None);
        let mut heading = serde_json::to_value(&every_kind()[0]).unwrap();
        heading.as_object_mut().unwrap().remove("id");
        assert_eq!(Block::from_answer(&heading), None);
        heading["id"] = "x".into();
        heading["level"] = 1.5.into();
        assert_eq!(
            Block::from_answer(&heading),
            None,
            "a level that is not whole"
        );
    }
}
