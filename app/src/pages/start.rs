//! `/new/:from`: a new design that starts blank or from one of the shipped examples.

use super::planner::Planner;
use crate::error::AppError;
use leptos::prelude::*;

/// Where a new design can start, by the name in its address, with the label the planner shows.
pub const STARTING_POINTS: [(&str, &str); 7] = [
    ("blank", "Blank design"),
    ("seventy-b-training", "70B training on 16 nodes"),
    ("seventy-b-inference-25g", "70B served over 25GbE"),
    ("seventy-b-inference-400g", "70B served over 400GbE"),
    ("rag", "RAG service"),
    ("superpod-4su", "SuperPOD, 4 scalable units"),
    ("hybrid", "Hybrid InfiniBand and Ethernet"),
];

/// The spec a new design starts from: blank, or the example named `from`.
#[server(prefix = "/fn", endpoint = "starting_design")]
pub async fn starting_design(from: String) -> Result<engine::DesignSpec, AppError> {
    if from == "blank" {
        return Ok(crate::templates::blank_design());
    }
    let file = format!("{from}.json");
    let text = engine::examples::ALL
        .iter()
        .find(|(name, _)| *name == file)
        .map(|(_, text)| *text)
        .ok_or_else(|| {
            crate::server::fail(AppError::NotFound(format!(
                "there is no example called {from:?}"
            )))
        })?;
    engine::DesignSpec::from_json(text).map_err(|e| crate::server::fail(e.into()))
}

#[component]
pub fn StartFrom() -> impl IntoView {
    let params = leptos_router::hooks::use_params_map();
    let loaded = Resource::new(
        move || params.read().get("from").unwrap_or_default(),
        starting_design,
    );
    view! {
        <Suspense fallback=|| view! { <p class="note">"Opening the example…"</p> }>
            {move || Suspend::new(async move {
                match loaded.await {
                    Ok(spec) => view! { <Planner spec editing=None/> }.into_any(),
                    Err(e) => super::edit::problem_panel("No such starting point", e),
                }
            })}
        </Suspense>
    }
}

/// The links to every starting point, shown above a new design's wizard.
#[component]
pub fn StartingPoints() -> impl IntoView {
    let links = STARTING_POINTS
        .iter()
        .map(|(name, label)| {
            view! { <li><a id=format!("start-{name}") rel="external" href=format!("/new/{name}")>{*label}</a></li> }
        })
        .collect_view();
    view! {
        <nav class="starting-points" aria-label="Start from">
            <span>"Start from: "</span>
            <ul>{links}</ul>
        </nav>
    }
}
