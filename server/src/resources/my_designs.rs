//! `/designs`: the designs whose edit keys this browser holds, searched and sorted.

use crate::resources::respond::{html, Answer};
use app::ownership::held_keys;
use app::pages::my_designs::my_designs_page;
use app::store::{Sort, Store};
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::routing::get;
use axum::Router;
use serde::Deserialize;

pub fn routes(store: Store) -> Router {
    Router::new()
        .route("/designs", get(my_designs))
        .with_state(store)
}

#[derive(Deserialize)]
struct ListQuery {
    q: Option<String>,
    sort: Option<String>,
}

async fn my_designs(
    State(store): State<Store>,
    headers: HeaderMap,
    Query(query): Query<ListQuery>,
) -> Answer {
    let keys = held_keys(&headers);
    let search = query.q.unwrap_or_default();
    let sort = Sort::parse(query.sort.as_deref().unwrap_or_default());
    let listing = store.owned_designs(&keys, &search, sort).await?;
    Ok(html(&my_designs_page(&listing, &search, sort, keys.len())))
}
