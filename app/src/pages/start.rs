//! `/new/:from`: a new design that starts blank or from one of the shipped examples.

use super::planner::Planner;
use crate::error::AppError;
use leptos::prelude::*;

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
