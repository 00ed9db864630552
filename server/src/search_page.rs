//! `/d/{id}/r/{n}/search`: the search page of a saved revision. The question comes in the
//! address (a GET form, so that an answer can be linked and reloaded); the search runs on the
//! blocking pool, bounded to `app::search::form::MAX_CANDIDATES` candidates.

use crate::pages::{failed, html};
use app::pages::document::not_found;
use app::search::{search_page, searched, SearchForm, Searched};
use app::store::{DesignId, Store};
use axum::extract::{Path, Query, State};
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use std::collections::HashMap;

pub fn routes(store: Store) -> Router {
    Router::new()
        .route("/d/{id}/r/{n}/search", get(page))
        .with_state(store)
}

async fn page(
    State(store): State<Store>,
    Path((id, n)): Path<(String, u32)>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let Some(design_id) = DesignId::parse(&id) else {
        return html(&not_found());
    };
    let revision = match store.revision(&design_id, Some(n)).await {
        Ok(Some(revision)) => revision,
        Ok(None) => return html(&not_found()),
        Err(e) => return failed(e),
    };
    let form = SearchForm::from_query(&query);
    let at = Searched {
        id: &id,
        revision: n,
        title: &revision.spec.title,
    };
    if !form.run {
        return html(&search_page(&at, &form, None));
    }
    let outcome = match form.request(revision.spec.clone()) {
        Err(errors) => Err(errors),
        Ok(request) => {
            let candidate = form.candidate;
            match tokio::task::spawn_blocking(move || searched(request, candidate)).await {
                Ok(run) => run.map(|(outcome, _)| outcome),
                Err(_) => Err(vec!["the search could not be run".to_string()]),
            }
        }
    };
    html(&search_page(&at, &form, Some(outcome)))
}
