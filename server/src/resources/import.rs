//! `/import`: a spec pasted as JSON, stored as a new design, or shown back with every error.

use crate::resources::respond::{html, PageError};
use app::costs::WRITES;
use app::ownership::key_cookie;
use app::pages::document::unavailable;
use app::pages::document::{document, escape, Page};
use app::store::{DesignId, EditKey};
use app::store::{SaveError, Store};
use axum::extract::State;
use axum::handler::Handler;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Form, Router};
use engine::{FieldError, SPEC_VERSION};
use leptos::prelude::*;
use leptos::tachys::view::RenderHtml;
use serde::Deserialize;

pub fn routes(store: Store) -> Router {
    Router::new()
        .route("/import", get(import_form).post(import.layer(WRITES)))
        .with_state(store)
}

async fn import_form() -> Response {
    html(&import_page("", &[]))
}

#[derive(Deserialize)]
struct ImportForm {
    spec: String,
    note: Option<String>,
}

/// Stores the pasted spec as a new design, or shows it back with every error.
async fn import(State(store): State<Store>, Form(form): Form<ImportForm>) -> Response {
    let note = form.note.unwrap_or_default();
    let spec = form.spec.clone();
    let read = move || engine::DesignSpec::from_json(&spec);
    let checked = match app::store::check_off_the_workers(read, note).await {
        Ok(checked) => checked,
        Err(SaveError::Invalid(errors)) => return html(&import_page(&form.spec, &errors)),
        Err(other) => return failed_save(other),
    };
    match store.save_new(&checked).await {
        Ok((id, key)) => {
            let mut response = html(&created_page(&id, &key, &checked.spec().title));
            if let Ok(cookie) = key_cookie(&id, &key).parse() {
                response.headers_mut().append(header::SET_COOKIE, cookie);
            }
            response
        }
        Err(e) => failed_save(e),
    }
}

/// A save that failed other than by its input: the store's failure page.
fn failed_save(error: SaveError) -> Response {
    match error {
        SaveError::Store(e) => PageError::Store(e).into_response(),
        other => {
            tracing::error!(%other, "an import could not be saved");
            html(&unavailable())
        }
    }
}

/// The form, holding `text`; with the errors of its last submission (422) when there are any.
pub fn import_page(text: &str, errors: &[FieldError]) -> Page {
    let problems = (!errors.is_empty()).then(|| {
        let items = errors
            .iter()
            .map(|e| {
                let path = if e.path.is_empty() { "(the whole spec)".to_string() } else { e.path.clone() };
                view! { <li><code class="path">{path}</code> " " {e.reason.clone()}</li> }
            })
            .collect_view();
        view! {
            <div class="invalid-design" id="import-errors" role="alert">
                <p>{format!("The spec was not imported; nothing was stored. {} to fix:", count(errors.len()))}</p>
                <ul>{items}</ul>
            </div>
        }
    });
    let body = view! {
        <section class="panel" aria-labelledby="import-heading">
            <h1 id="import-heading">"Import a design spec"</h1>
            <p class="note">{format!("Paste a spec exported from Fabric Planner (schema version {SPEC_VERSION}, or an older one, which is upgraded). It is checked field by field before anything is stored.")}</p>
            {problems}
            <form method="post" action="/import" class="import-form">
                <label for="import-spec">"Spec (JSON)"</label>
                <textarea id="import-spec" name="spec" rows="20" cols="80" spellcheck="false" inner_html=escape(text)></textarea>
                <label for="import-note">"Note (optional)"</label>
                <input id="import-note" type="text" name="note" maxlength="500"/>
                <button type="submit" id="import-submit">"Import as a new design"</button>
            </form>
        </section>
    }
    .to_html();
    Page {
        status: if errors.is_empty() { 200 } else { 422 },
        html: document("Import a design", body),
    }
}

fn count(n: usize) -> String {
    if n == 1 {
        "1 error".into()
    } else {
        format!("{n} errors")
    }
}

/// The page after a design is stored: its share link and, this once, its edit link.
pub fn created_page(id: &DesignId, key: &EditKey, title: &str) -> Page {
    let share = format!("/d/{}", id.as_str());
    let edit = format!("/d/{}/claim?key={}", id.as_str(), key.as_str());
    let heading = format!("Imported “{title}”");
    let body = view! {
        <section class="panel" aria-labelledby="created-heading">
            <h1 id="created-heading">{heading}</h1>
            <p>"Share link (anyone with it can view and duplicate): " <a id="share-link" href=share.clone()>{share.clone()}</a></p>
            <p class="edit-link">"Edit link — keep it private; it is shown only this once and lets any browser change the design: "
                <a id="edit-link" href=edit.clone()>{edit.clone()}</a>
            </p>
            <p>"This browser can already edit the design: it is listed under " <a href="/designs">"My designs"</a> "."</p>
        </section>
    }
    .to_html();
    Page {
        status: 201,
        html: document("Design imported", body),
    }
}
