//! `/designs`: the designs whose edit keys this browser holds, searched and sorted.

use crate::resources::respond::{html, Answer};
use app::ownership::held_keys;
use app::pages::document::{date, document, Page};
use app::store::{Listing, Sort, Store};
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::routing::get;
use axum::Router;
use leptos::prelude::*;
use leptos::tachys::view::RenderHtml;
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

pub fn my_designs_page(listing: &Listing, search: &str, sort: Sort, keys_held: usize) -> Page {
    let sorts = [
        (Sort::NewestFirst, "Newest first"),
        (Sort::OldestFirst, "Oldest first"),
        (Sort::Title, "Title"),
    ]
    .into_iter()
    .map(|(s, label)| view! { <option value=s.as_str() selected=s == sort>{label}</option> })
    .collect_view();
    let rows = listing
        .designs
        .iter()
        .map(|d| {
            view! {
                <tr>
                    <td><a href=format!("/d/{}", d.id)>{d.title.clone()}</a></td>
                    <td class="num">{d.latest_revision}</td>
                    <td>{date(d.updated_at_ms)}</td>
                    <td>{date(d.created_at_ms)}</td>
                    <td><a href=format!("/d/{}/edit", d.id)>"Edit"</a></td>
                </tr>
            }
        })
        .collect_view();
    let results = if listing.designs.is_empty() {
        let text = if keys_held == 0 {
            "This browser holds no edit keys yet. Designs you save here appear in this list; opening an edit link you kept puts its design back.".to_string()
        } else if search.trim().is_empty() {
            "None of the edit keys this browser holds belongs to a stored design.".to_string()
        } else {
            format!("No design of yours has “{}” in its title.", search.trim())
        };
        view! { <p class="note" id="no-designs">{text}</p> }.into_any()
    } else {
        view! {
            <table class="designs" id="my-designs">
                <thead><tr><th scope="col">"Title"</th><th scope="col" class="num">"Revisions"</th><th scope="col">"Last saved"</th><th scope="col">"Created"</th><th scope="col"></th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        }
        .into_any()
    };
    let body = view! {
        <section class="panel" aria-labelledby="my-designs-heading">
            <h1 id="my-designs-heading">"My designs"</h1>
            <p class="note">"The designs this browser can edit. Anyone with a share link can view a design and duplicate it."</p>
            <form class="search" method="get" action="/designs">
                <label>"Title contains " <input type="search" name="q" value=search.to_string()/></label>
                <label>"Sort " <select name="sort">{sorts}</select></label>
                <button type="submit">"Show"</button>
            </form>
            {results}
            <p><a href="/">"Start a new design"</a> " · " <a href="/import">"Import a spec"</a> " · " <a href="/compare">"Compare designs"</a></p>
        </section>
    }
    .to_html();
    Page::ok(document("My designs", body))
}
