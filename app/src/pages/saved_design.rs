//! A saved design at its share link: a finished document rendered on the server from the
//! stored spec. Nothing on it needs JavaScript (the "How" details open natively), so it carries
//! no hydration script and no browser bundle: it loads at once for whoever the link was sent to.

use crate::components::{DesignSummary, NotFoundMessage, SiteHeader};
use crate::dashboard::{render::dashboard, Findings, Headline};
use crate::design::StoredDesign;
use crate::store::{DesignId, Store};
use leptos::prelude::*;
use leptos::tachys::view::RenderHtml;

/// The page for the share path's `id`, with its HTTP status.
pub async fn saved_design_page(store: &Store, id: &str) -> (u16, String) {
    let Some(design_id) = DesignId::parse(id) else {
        return (404, not_found());
    };
    match store.latest_revision(&design_id).await {
        Ok(Some(stored)) => (200, page(stored)),
        Ok(None) => (404, not_found()),
        Err(error) => {
            tracing::error!(%error, "loading a design failed");
            (
                500,
                document(
                    "Design unavailable",
                    view! {
                        <section class="panel">
                            <h1>"The design could not be read"</h1>
                            <p>"Try again in a moment."</p>
                        </section>
                    }
                    .to_html(),
                ),
            )
        }
    }
}

/// The page around `body`: the app's stylesheet and header, no scripts.
fn document(title: &str, body: String) -> String {
    let head = view! {
        <head>
            <meta charset="utf-8"/>
            <meta name="viewport" content="width=device-width, initial-scale=1"/>
            <link rel="stylesheet" href="/pkg/fabric-planner.css"/>
            <title>{format!("{title} · Fabric Planner")}</title>
        </head>
    }
    .to_html();
    let header = view! { <SiteHeader/> }.to_html();
    format!(
        "<!DOCTYPE html><html lang=\"en\">{head}<body>{header}<main>{body}</main></body></html>"
    )
}

fn not_found() -> String {
    document("Not found", view! { <NotFoundMessage/> }.to_html())
}

fn page(stored: StoredDesign) -> String {
    let spec = stored.spec;
    let title = spec.title.clone();
    let meta = format!(
        "Revision {} · saved by engine {}",
        stored.revision, stored.engine_version
    );
    let body = match engine::evaluate(&spec) {
        Ok(report) => {
            let top = view! {
                <div class="planner">
                    <section class="panel inputs" aria-labelledby="design-title">
                        <h1 id="design-title">{title.clone()}</h1>
                        <p class="meta">{meta}</p>
                        <DesignSummary spec=spec.clone()/>
                        <p><a href="/">"Start a new design"</a></p>
                    </section>
                    <aside class="panel results-panel" aria-labelledby="results-heading">
                        <h2 id="results-heading">"Results"</h2>
                        <Headline report=report.clone()/>
                        <h3>"Findings"</h3>
                        <Findings report=report.clone()/>
                    </aside>
                </div>
            }
            .to_html();
            top + &dashboard(spec, report)
        }
        Err(errors) => view! {
            <h1 id="design-title">{title.clone()}</h1>
            <p class="save-error">{errors.to_string()}</p>
        }
        .to_html(),
    };
    document(&title, body)
}
