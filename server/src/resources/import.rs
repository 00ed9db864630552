//! `/import`: a spec pasted as JSON, stored as a new design, or shown back with every error.

use crate::resources::respond::{html, PageError};
use app::costs::WRITES;
use app::ownership::key_cookie;
use app::pages::document::unavailable;
use app::pages::import::{created_page, import_page};
use app::store::{SaveError, Store};
use axum::extract::State;
use axum::handler::Handler;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Form, Router};
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
    let checked = match app::store::check(engine::DesignSpec::from_json(&form.spec), &note) {
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
