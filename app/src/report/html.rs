//! The report as a finished HTML document: a cover, the contents, then every block. The print
//! stylesheet (`style/main.css`, `@media print`) gives it pages: the cover alone, headings kept
//! with what follows, table rows never split, page numbers in the margin.

use super::{Block, ReportDocument, Table};
use crate::pages::document::{document, Page};
use leptos::prelude::*;
use leptos::tachys::view::RenderHtml;

/// Links shown on screen only: the PDF and the spreadsheets of the same revision.
pub struct Downloads {
    pub pdf: String,
    pub bom_csv: String,
    pub cabling_csv: String,
    pub handoff: String,
    pub design: String,
}

/// Tables up to this many rows are never split across pages.
pub const KEEP_WHOLE_ROWS: usize = 14;

fn table_view(t: &Table) -> AnyView {
    let head = t
        .columns
        .iter()
        .map(|c| view! { <th scope="col" class:num=c.numeric>{c.title.clone()}</th> })
        .collect_view();
    let has_head = t.columns.iter().any(|c| !c.title.is_empty());
    let rows = t
        .rows
        .iter()
        .zip(t.flagged.iter().chain(std::iter::repeat(&false)))
        .map(|(row, flagged)| {
            let cells = row
                .iter()
                .zip(&t.columns)
                .enumerate()
                .map(|(i, (cell, column))| {
                    if i == 0 {
                        view! { <th scope="row">{cell.clone()}</th> }.into_any()
                    } else {
                        view! { <td class:num=column.numeric>{cell.clone()}</td> }.into_any()
                    }
                })
                .collect_view();
            view! { <tr class:short=*flagged>{cells}</tr> }
        })
        .collect_view();
    let footer = t.footer.as_ref().map(|cells| {
        let cells = cells
            .iter()
            .zip(&t.columns)
            .map(|(cell, column)| view! { <td class:num=column.numeric>{cell.clone()}</td> })
            .collect_view();
        view! { <tfoot><tr>{cells}</tr></tfoot> }
    });
    // A short table moves to the next page whole rather than leave its caption and header
    // behind; a long one breaks between rows, its header repeated.
    let keep = t.rows.len() <= KEEP_WHOLE_ROWS;
    view! {
        <table class="report-table" class:keep=keep id=t.id.clone()>
            <caption>{t.caption.clone()}</caption>
            {has_head.then(|| view! { <thead><tr>{head}</tr></thead> })}
            <tbody>{rows}</tbody>
            {footer}
        </table>
    }
    .into_any()
}

fn block_view(block: &Block) -> AnyView {
    match block {
        Block::Heading { level, id, text } => match level {
            1 => view! { <h2 id=id.clone()>{text.clone()}</h2> }.into_any(),
            2 => view! { <h3 id=id.clone()>{text.clone()}</h3> }.into_any(),
            _ => view! { <h4 id=id.clone()>{text.clone()}</h4> }.into_any(),
        },
        Block::Paragraph { text } => view! { <p>{text.clone()}</p> }.into_any(),
        Block::Note { text } => view! { <p class="note">{text.clone()}</p> }.into_any(),
        Block::Metrics { items } => {
            let items = items
                .iter()
                .map(|(label, value, meaning)| {
                    view! {
                        <div class="metric">
                            <dt>{label.clone()}</dt>
                            <dd><span class="value">{value.clone()}</span><span class="meaning">{meaning.clone()}</span></dd>
                        </div>
                    }
                })
                .collect_view();
            view! { <dl class="metrics" id="report-headline">{items}</dl> }.into_any()
        }
        Block::Findings { items } => {
            let items = items
                .iter()
                .map(|(severity, subject, message)| {
                    view! { <li class=format!("finding {}", severity.to_lowercase())><strong>{severity.clone()}</strong> " " <span class="subject">{subject.clone()}</span> ": " {message.clone()}</li> }
                })
                .collect_view();
            view! { <ul class="findings">{items}</ul> }.into_any()
        }
        Block::Table(t) => table_view(t),
        Block::Chart { id, caption, svg } => view! {
            <figure class="report-chart" id=id.clone()>
                <div role="img" aria-label=caption.clone() inner_html=svg.clone()></div>
                <figcaption>{caption.clone()}</figcaption>
            </figure>
        }
        .into_any(),
        Block::Code { caption, text } => view! {
            <figure class="snippet">
                <figcaption>{caption.clone()}</figcaption>
                <pre><code>{text.clone()}</code></pre>
            </figure>
        }
        .into_any(),
    }
}

/// `blocks` as a view, for the pages that show a part of the report (the dashboard's floor).
pub fn blocks_view(blocks: &[Block]) -> AnyView {
    blocks.iter().map(block_view).collect_view().into_any()
}

/// The report page of `report`.
pub fn report_page(report: &ReportDocument, downloads: &Downloads) -> Page {
    let cover = report
        .cover
        .iter()
        .map(|(k, v)| view! { <tr><th scope="row">{k.clone()}</th><td>{v.clone()}</td></tr> })
        .collect_view();
    let contents = report
        .contents()
        .into_iter()
        .map(|(level, id, text)| {
            view! { <li class=format!("toc-{level}")><a href=format!("#{id}")>{text.to_string()}</a></li> }
        })
        .collect_view();
    let body = report.blocks.iter().map(block_view).collect_view();
    let html = view! {
        <article class="report" aria-labelledby="report-title">
            <nav class="report-downloads" aria-label="Downloads">
                <a id="report-pdf" href=downloads.pdf.clone()>"Download as PDF"</a>
                " · " <a href=downloads.bom_csv.clone()>"Bill of materials (CSV)"</a>
                " · " <a href=downloads.cabling_csv.clone()>"Cabling sheet (CSV)"</a>
                " · " <a href=downloads.handoff.clone()>"Hand-off files"</a>
                " · " <a href=downloads.design.clone()>"Back to the design"</a>
            </nav>
            <section class="cover">
                <p class="kicker">"Fabric Planner · network design report"</p>
                <h1 id="report-title">{report.title.clone()}</h1>
                <table class="cover-facts"><tbody>{cover}</tbody></table>
            </section>
            <nav class="contents" aria-labelledby="contents-heading">
                <h2 id="contents-heading">"Contents"</h2>
                <ol>{contents}</ol>
            </nav>
            {body}
        </article>
    }
    .to_html();
    Page::ok(document(&format!("Report: {}", report.title), html))
}
