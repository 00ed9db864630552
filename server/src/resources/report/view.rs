//! The report as a finished HTML document: a cover, the contents, then every block. The print
//! stylesheet (`style/main.css`, `@media print`) gives it pages: the cover alone, headings kept
//! with what follows, table rows never split, page numbers in the margin.

use app::blocks::html::blocks_view;
use app::pages::document::{document, Page};
use app::report::ReportDocument;
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
    let body = blocks_view(&report.blocks);
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
