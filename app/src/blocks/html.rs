//! The one renderer of blocks as HTML, for the server's pages and for the live planner in the
//! browser alike. Each block is written as a tree of elements ([`Node`]) and every element is
//! rendered by one function: views typed element by element compile each kind of block into
//! the browser bundle on its own, which measured 36 KB gzip for the dashboard's blocks
//! (BENCHMARKS.md, "Browser bundle size").

use super::{Block, FigureLine, Table};
use leptos::prelude::*;
use leptos::tachys::html::attribute::custom::{custom_attribute, CustomAttr};
use leptos::tachys::html::element::{custom, inner_html, ElementChild};
use leptos::tachys::view::add_attr::AddAnyAttr;

/// Tables up to this many rows are never split across pages.
const KEEP_WHOLE_ROWS: usize = 14;

/// An element of a block's HTML, or its text.
enum Node {
    Element {
        tag: &'static str,
        attributes: Vec<(&'static str, String)>,
        children: Vec<Node>,
    },
    Text(String),
    /// An SVG drawing (a chart, a diagram) in an element of its own, placed as it was drawn.
    Drawing {
        tag: &'static str,
        attributes: Vec<(&'static str, String)>,
        svg: String,
    },
}

fn el(tag: &'static str, attributes: &[(&'static str, &str)], children: Vec<Node>) -> Node {
    let mut given = Vec::with_capacity(attributes.len());
    for (name, value) in attributes {
        given.push((*name, value.to_string()));
    }
    Node::Element {
        tag,
        attributes: given,
        children,
    }
}

fn text(text: impl Into<String>) -> Node {
    Node::Text(text.into())
}

/// The element `tag` holding only `words`.
fn says(tag: &'static str, attributes: &[(&'static str, &str)], words: impl Into<String>) -> Node {
    el(tag, attributes, vec![text(words)])
}

/// `attributes` with each that has a value.
fn given(attributes: Vec<(&'static str, Option<&str>)>) -> Vec<(&'static str, String)> {
    attributes
        .into_iter()
        .filter_map(|(name, value)| Some((name, value?.to_string())))
        .collect()
}

/// An attribute that may be absent.
type Maybe = CustomAttr<&'static str, Option<String>>;

/// Every element takes the same four attributes, each present or not: one type of element
/// for every block, where a list of attributes of any length would be erased element by element.
type Attributes = (Maybe, Maybe, Maybe, Maybe);

fn attributes(list: Vec<(&'static str, String)>) -> Attributes {
    debug_assert!(list.len() <= 4, "{list:?}");
    let mut given = list.into_iter();
    let mut next = || {
        let (name, value) = given.next().map_or(("", None), |(n, v)| (n, Some(v)));
        custom_attribute(name, value)
    };
    (next(), next(), next(), next())
}

fn render(node: Node) -> AnyView {
    match node {
        Node::Text(text) => text.into_any(),
        Node::Element {
            tag,
            attributes: list,
            children,
        } => {
            let element = custom(tag).add_any_attr(attributes(list));
            // Most elements hold only their words: as a text child they need no marker for
            // hydration, where a list of children ends with one.
            let children = match <[Node; 1]>::try_from(children) {
                Ok([Node::Text(words)]) => return element.child(words).into_any(),
                Ok([child]) => vec![child],
                Err(children) => children,
            };
            let mut views = Vec::with_capacity(children.len());
            for child in children {
                views.push(render(child));
            }
            element.child(views).into_any()
        }
        Node::Drawing {
            tag,
            attributes: list,
            svg,
        } => custom(tag)
            .add_any_attr((attributes(list), inner_html(svg)))
            .into_any(),
    }
}

/// A cell of column `i` of `t`: figures aligned right.
fn cell(t: &Table, tag: &'static str, i: usize, words: &str) -> Node {
    let numeric = t.columns.get(i).is_some_and(|c| c.numeric);
    Node::Element {
        tag,
        attributes: given(vec![
            ("scope", (tag == "th").then_some("col")),
            ("class", numeric.then_some("num")),
        ]),
        children: vec![text(words)],
    }
}

// The tables, lists and groups here are built in loops rather than by collecting mapped
// iterators: each closure collected instantiates the iterator's adapters again in the bundle.
fn table(t: &Table) -> Node {
    let mut children = vec![says("caption", &[], t.caption.clone())];
    if t.columns.iter().any(|c| !c.title.is_empty()) {
        let mut head = Vec::new();
        for (i, c) in t.columns.iter().enumerate() {
            head.push(cell(t, "th", i, &c.title));
        }
        children.push(el("thead", &[], vec![el("tr", &[], head)]));
    }
    let mut rows = Vec::new();
    for (r, row) in t.rows.iter().enumerate() {
        let mut cells = Vec::new();
        for (i, words) in row.iter().take(t.columns.len()).enumerate() {
            cells.push(if i == 0 {
                says("th", &[("scope", "row")], words.clone())
            } else {
                cell(t, "td", i, words)
            });
        }
        let flagged = t.flagged.get(r).copied().unwrap_or(false);
        rows.push(Node::Element {
            tag: "tr",
            attributes: given(vec![("class", flagged.then_some("short"))]),
            children: cells,
        });
    }
    children.push(el("tbody", &[], rows));
    if let Some(footer) = &t.footer {
        let mut cells = Vec::new();
        for (i, words) in footer.iter().take(t.columns.len()).enumerate() {
            cells.push(cell(t, "td", i, words));
        }
        children.push(el("tfoot", &[], vec![el("tr", &[], cells)]));
    }
    // A short table moves to the next page whole rather than leave its caption and header
    // behind; a long one breaks between rows, its header repeated.
    let class = if t.rows.len() <= KEEP_WHOLE_ROWS {
        "report-table keep"
    } else {
        "report-table"
    };
    Node::Element {
        tag: "table",
        attributes: given(vec![("class", Some(class)), ("id", t.id.as_deref())]),
        children,
    }
}

/// One result: its meaning, its value with unit, and (on demand) the formula and source behind it.
fn figure_row(f: &FigureLine) -> Node {
    let mut value = vec![says("span", &[("id", &f.id)], f.value.clone())];
    if let Some(interval) = &f.interval {
        value.push(text(" "));
        value.push(says(
            "span",
            &[("class", "interval")],
            format!("({interval})"),
        ));
    }
    let mut how = vec![
        // Twenty of these on a page: each is named for its figure.
        el(
            "summary",
            &[],
            vec![
                text("How"),
                says(
                    "span",
                    &[("class", "visually-hidden")],
                    format!(": {}", f.label),
                ),
            ],
        ),
        says("p", &[("class", "formula")], f.formula.clone()),
    ];
    if let Some(worked) = &f.worked {
        how.push(says("p", &[("class", "worked")], worked.clone()));
    }
    how.push(says(
        "p",
        &[("class", "source")],
        format!("Source: {}", f.source),
    ));
    el(
        "tr",
        &[],
        vec![
            says("th", &[("scope", "row")], f.label.clone()),
            el("td", &[("class", "figure")], value),
            el("td", &[("class", "work")], vec![el("details", &[], how)]),
        ],
    )
}

/// A study's chart (or what it found, in words, when its answer does not move) and its numbers
/// in a table a reader can open.
fn study(id: &str, caption: &str, svg: &str, flat: Option<&str>, data: &Table) -> Node {
    let drawing = match flat {
        Some(words) => says("p", &[("class", "chart-in-words"), ("id", id)], words),
        None => chart(Some(id), caption, svg.to_string()),
    };
    let summary = el(
        "summary",
        &[],
        vec![
            text("Data"),
            says(
                "span",
                &[("class", "visually-hidden")],
                format!(": {caption}"),
            ),
        ],
    );
    el(
        "figure",
        &[("class", "chart-with-data")],
        vec![
            drawing,
            el(
                "details",
                &[("class", "chart-data"), ("id", &format!("{id}-data"))],
                vec![summary, table(data)],
            ),
        ],
    )
}

fn block(block: &Block) -> Node {
    match block {
        Block::Heading { level, id, text } => {
            let tag = match level {
                1 => "h2",
                2 => "h3",
                _ => "h4",
            };
            says(tag, &[("id", id)], text.clone())
        }
        Block::Paragraph { text } => says("p", &[], text.clone()),
        Block::Note { text } => says("p", &[("class", "note")], text.clone()),
        Block::Metrics { items } => {
            let mut metrics = Vec::new();
            for (label, value, meaning) in items {
                let dd = el(
                    "dd",
                    &[],
                    vec![
                        says("span", &[("class", "value")], value.clone()),
                        says("span", &[("class", "meaning")], meaning.clone()),
                    ],
                );
                metrics.push(el(
                    "div",
                    &[("class", "metric")],
                    vec![says("dt", &[], label.clone()), dd],
                ));
            }
            el(
                "dl",
                &[("class", "metrics"), ("id", "report-headline")],
                metrics,
            )
        }
        Block::Findings { items } => {
            let mut findings = Vec::new();
            for (severity, subject, message) in items {
                let class = format!("finding {}", severity.to_ascii_lowercase());
                findings.push(el(
                    "li",
                    &[("class", &class)],
                    vec![
                        says("strong", &[], severity.clone()),
                        text(" "),
                        says("span", &[("class", "subject")], subject.clone()),
                        text(format!(": {message}")),
                    ],
                ));
            }
            el("ul", &[("class", "findings")], findings)
        }
        Block::Table(t) => table(t),
        Block::Chart { id, caption, svg } => el(
            "figure",
            &[("class", "report-chart"), ("id", id)],
            vec![
                Node::Drawing {
                    tag: "div",
                    attributes: given(vec![("role", Some("img")), ("aria-label", Some(caption))]),
                    svg: svg.clone(),
                },
                says("figcaption", &[], caption.clone()),
            ],
        ),
        Block::Code {
            caption,
            text: code,
        } => el(
            "figure",
            &[("class", "snippet")],
            vec![
                says("figcaption", &[], caption.clone()),
                el("pre", &[], vec![says("code", &[], code.clone())]),
            ],
        ),
        Block::Study {
            id,
            caption,
            svg,
            flat,
            data,
        } => study(id, caption, svg, flat.as_deref(), data),
        Block::Facts { rows } => {
            let mut facts = Vec::new();
            for (class, what, value) in rows {
                facts.push(el(
                    "tr",
                    &[],
                    vec![
                        says("th", &[("scope", "row")], what.clone()),
                        says("td", &[("class", class)], value.clone()),
                    ],
                ));
            }
            el(
                "table",
                &[("class", "facts")],
                vec![el("tbody", &[], facts)],
            )
        }
        Block::Figures { rows } => {
            let mut figures = Vec::new();
            for figure in rows {
                figures.push(figure_row(figure));
            }
            el(
                "table",
                &[("class", "results")],
                vec![el("tbody", &[], figures)],
            )
        }
        Block::Group {
            article,
            id,
            class,
            blocks,
        } => {
            let mut children = Vec::new();
            for b in blocks {
                children.push(self::block(b));
            }
            Node::Element {
                tag: if *article { "article" } else { "div" },
                attributes: given(vec![("class", Some(class)), ("id", id.as_deref())]),
                children,
            }
        }
    }
}

/// A chart drawn as SVG, described by `label` for whoever cannot see it.
fn chart(id: Option<&str>, label: &str, svg: String) -> Node {
    Node::Drawing {
        tag: "div",
        attributes: given(vec![
            ("class", Some("chart")),
            ("id", id),
            ("role", Some("img")),
            ("aria-label", Some(label)),
        ]),
        svg,
    }
}

/// A chart as the pages beside the report show one (a search's frontier, a baseline's
/// measurements): its SVG, described by `label`.
pub fn chart_view(id: Option<&str>, label: &str, svg: String) -> AnyView {
    render(chart(id, label, svg))
}

/// `blocks` as a view.
pub fn blocks_view(blocks: &[Block]) -> AnyView {
    let mut views = Vec::with_capacity(blocks.len());
    for b in blocks {
        views.push(render(block(b)));
    }
    views.into_any()
}
