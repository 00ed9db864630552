//! `/d/:id/r/:n/search/open?…&candidate=K`: a candidate of a search opened in the planner. The
//! search is run again from the same question (it is deterministic), and the candidate's design
//! opens as the next revision of the design when this browser holds its edit key, else as a
//! new design.

use super::planner::Planner;
use crate::editor::Stored;
use crate::error::AppError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// A candidate's design, and the stored design it would be a revision of.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OpenedCandidate {
    pub spec: engine::DesignSpec,
    /// The design, its newest revision and title, when this browser may save revisions of it.
    pub editing: Option<(String, u32, String)>,
}

/// The design of candidate `candidate` of the search that `query` asks of revision `revision`.
#[server(prefix = "/fn", endpoint = "search_candidate")]
#[middleware(crate::costs::COMPUTES)]
pub async fn search_candidate(
    id: String,
    revision: u32,
    query: Vec<(String, String)>,
) -> Result<OpenedCandidate, AppError> {
    use crate::search::{searched, SearchForm};
    use crate::server::{fail, request_headers, store, stored};
    use crate::store::DesignId;
    let not_found = || {
        fail(AppError::NotFound(format!(
            "design {id:?} has no revision {revision}"
        )))
    };
    let design_id = DesignId::parse(&id).ok_or_else(not_found)?;
    let store = store()?;
    let found = stored(store.revision(&design_id, Some(revision)).await)?.ok_or_else(not_found)?;
    let form = SearchForm::from_query(&query.into_iter().collect());
    let candidate = form.candidate.ok_or_else(|| {
        fail(AppError::BadRequest(
            "the address names no candidate".into(),
        ))
    })?;
    let request = form
        .request(found.spec)
        .map_err(|errors| fail(AppError::BadRequest(errors.join("; "))))?;
    let run = tokio::task::spawn_blocking(move || searched(request, Some(candidate)))
        .await
        .map_err(|_| fail(AppError::Internal("the search could not be run".into())))?;
    let (_, spec) = run.map_err(|errors| fail(AppError::BadRequest(errors.join("; "))))?;
    let spec = spec.ok_or_else(|| {
        fail(AppError::NotFound(format!(
            "the search has no candidate {candidate}"
        )))
    })?;
    let head = stored(store.design(&design_id).await)?.ok_or_else(not_found)?;
    let editable = match crate::ownership::key_for(&request_headers(), &design_id) {
        Some(key) => stored(store.holds_key(&design_id, &key).await)?,
        None => false,
    };
    Ok(OpenedCandidate {
        spec,
        editing: editable.then(|| (id.clone(), head.latest_revision, head.title.clone())),
    })
}

#[component]
pub fn OpenCandidate() -> impl IntoView {
    let params = leptos_router::hooks::use_params_map();
    let query = leptos_router::hooks::use_query_map();
    let loaded = Resource::new(
        move || {
            let p = params.read();
            let pairs: Vec<(String, String)> = (&*query.read())
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            (
                p.get("id").unwrap_or_default(),
                p.get("n").and_then(|n| n.parse().ok()).unwrap_or(0),
                pairs,
            )
        },
        |(id, n, pairs)| search_candidate(id, n, pairs),
    );
    view! {
        <Suspense fallback=|| view! { <p class="note">"Running the search again to open the candidate…"</p> }>
            {move || Suspend::new(async move {
                match loaded.await {
                    Ok(OpenedCandidate { spec, editing }) => {
                        let editing = editing.map(|(id, revision, title)| Stored { id, revision, title });
                        view! { <Planner spec editing/> }.into_any()
                    }
                    Err(e) => super::edit::problem_panel("The candidate could not be opened", e),
                }
            })}
        </Suspense>
    }
}
