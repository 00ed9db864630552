//! The edit link: `/d/<id>/claim?key=…` checks the key and asks before giving it to this browser
//! (nothing changes on a GET, so a link preview or prefetch cannot claim it); the form's POST
//! gives the browser the key and opens the design for editing.

use crate::resources::respond::{html, Answer, PageError};
use app::costs::WRITES;
use app::ownership::key_cookie;
use app::pages::document::message;
use app::pages::document::{document, Page};
use app::store::{DesignHead, DesignId, EditKey, Store};
use axum::extract::{Path, Query, State};
use axum::handler::Handler;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Form, Router};
use leptos::prelude::*;
use leptos::tachys::view::RenderHtml;
use serde::Deserialize;

pub fn routes(store: Store) -> Router {
    Router::new()
        .route("/d/{id}/claim", get(claim_form).post(claim.layer(WRITES)))
        .with_state(store)
}

#[derive(Deserialize)]
struct ClaimForm {
    key: Option<String>,
}

/// The design `id` and `key` when `key` is its edit key; otherwise the page to answer with.
async fn check_claim(
    store: &Store,
    id: &str,
    key: Option<&str>,
) -> Result<(DesignId, EditKey, DesignHead), PageError> {
    let (design_id, head) = crate::resources::revisions::design_head(store, id)
        .await?
        .ok_or(PageError::NotFound)?;
    let key = key.and_then(EditKey::parse);
    let held = match &key {
        Some(key) => store.holds_key(&design_id, key).await?,
        None => false,
    };
    match key {
        Some(key) if held => Ok((design_id, key, head)),
        _ => Err(PageError::Page(message(
            403,
            "Not an edit link of this design",
            "This link does not carry the design's edit key, so this browser cannot edit it. \
             You can still view the design at its share link and duplicate it."
                .into(),
        ))),
    }
}

/// The edit link: checks the key and asks before giving it to this browser. Nothing changes
/// on a GET, so a link preview or prefetch cannot claim it.
async fn claim_form(
    State(store): State<Store>,
    Path(id): Path<String>,
    Query(query): Query<ClaimForm>,
) -> Answer {
    let (design_id, key, head) = check_claim(&store, &id, query.key.as_deref()).await?;
    Ok(html(&claim_page(&design_id, &key, &head.title)))
}

/// Confirms the edit link: gives this browser the key and opens the design for editing.
async fn claim(
    State(store): State<Store>,
    Path(id): Path<String>,
    Form(form): Form<ClaimForm>,
) -> Answer {
    let (design_id, key, _) = check_claim(&store, &id, form.key.as_deref()).await?;
    Ok((
        StatusCode::SEE_OTHER,
        [
            (header::LOCATION, format!("/d/{}/edit", design_id.as_str())),
            (header::SET_COOKIE, key_cookie(&design_id, &key)),
        ],
    )
        .into_response())
}

/// Asks whether to keep the edit key of design `id`, titled `title`, in this browser.
pub fn claim_page(id: &DesignId, key: &EditKey, title: &str) -> Page {
    let action = format!("/d/{}/claim", id.as_str());
    let share = format!("/d/{}", id.as_str());
    let heading = format!("Edit “{title}”");
    let body = view! {
        <section class="panel" aria-labelledby="claim-heading">
            <h1 id="claim-heading">{heading}</h1>
            <p>"This is the design's edit link. Keeping its key in this browser lets this browser save new revisions of the design; anyone else with the link can do the same."</p>
            <form method="post" action=action class="claim-form">
                <input type="hidden" name="key" value=key.as_str().to_string()/>
                <button type="submit" id="claim-confirm">"Edit in this browser"</button>
            </form>
            <p>"Only looking? The design's share link is " <a href=share.clone()>{share.clone()}</a> "."</p>
        </section>
    }
    .to_html();
    Page::ok(document("Edit a design", body))
}
