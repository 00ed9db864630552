//! `/sources`: every public source the planner's figures and defaults cite.

use crate::resources::respond::html;
use app::pages::document::{document, Page};
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use engine::sources::SOURCES;
use leptos::prelude::*;
use leptos::tachys::view::RenderHtml;

pub fn routes() -> Router {
    Router::new().route("/sources", get(sources))
}

async fn sources() -> Response {
    html(&sources_page())
}

/// The anchor of a source on the page: its citation in lowercase letters and digits.
pub fn anchor(cite: &str) -> String {
    let mut out = String::from("source-");
    for c in cite.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

pub fn sources_page() -> Page {
    let rows = SOURCES
        .iter()
        .map(|s| {
            view! {
                <tr id=anchor(s.cite)>
                    <th scope="row">{s.cite}</th>
                    <td>{s.title}</td>
                    <td><a href=s.url rel="noreferrer">{s.url}</a></td>
                </tr>
            }
        })
        .collect_view();
    let body = view! {
        <section class="panel" aria-labelledby="sources-heading">
            <h1 id="sources-heading">"Sources"</h1>
            <p class="note">"Every figure, finding and catalog entry names where it comes from. Where a page or report cites a source in short, this is the source in full. The switches and GPUs the planner prices, with the source of each figure, are in the " <a href="/catalog">"catalog"</a> "."</p>
            <table class="sources" id="sources">
                <thead><tr><th scope="col">"Cited as"</th><th scope="col">"Source"</th><th scope="col">"Address"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </section>
    }
    .to_html();
    Page::ok(document("Sources", body))
}

#[cfg(test)]
mod tests {
    #[test]
    fn anchors_are_letters_digits_and_dashes() {
        assert_eq!(super::anchor("nccl-tests #290"), "source-nccl-tests-290");
        assert_eq!(super::anchor("arXiv:2104.04473"), "source-arxiv-2104-04473");
    }
}
