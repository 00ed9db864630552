//! `/d/{id}/r/{n}/search`: the search page of a saved revision. The question comes in the
//! address (a GET form, so that an answer can be linked and reloaded). The search runs in
//! slices on the blocking pool, bounded to `app::search::form::MAX_CANDIDATES` candidates, and
//! the page is sent as it runs: its form first, then a line of progress every
//! [`PROGRESS_EVERY`], then the answer. The browser shows each part as it comes, with no
//! script, and a browser that leaves stops the search. It runs in one of the searches' turns
//! (`crate::work::heavy`), shared with the API: when every turn is taken the answer is 503.

use crate::resources::respond::{html, Answer, PageError, DOCUMENT_POLICY, UNBUFFERED};
use crate::resources::revisions::stored_revision;
use app::costs::COMPUTES;
use app::pages::document::message;
use app::search::{
    outcome_html, progress_line, search_page, streamed_page, Outcome, Running, SearchForm, Searched,
};
use app::store::Store;
use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, State};
use axum::handler::Handler;
use axum::http::{header, HeaderValue};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use std::collections::HashMap;
use std::convert::Infallible;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// How often the page says how far the search is.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(100);
/// Candidates visited between two looks at the clock: a few milliseconds of work.
const SLICE: u64 = 64;
/// Parts of a page waiting to be sent, at most.
const QUEUED_PARTS: usize = 8;

pub fn routes(store: Store) -> Router {
    Router::new()
        .route("/d/{id}/r/{n}/search", get(page.layer(COMPUTES)))
        .with_state(store)
}

async fn page(
    State(store): State<Store>,
    Path((id, n)): Path<(String, String)>,
    Query(query): Query<HashMap<String, String>>,
) -> Answer {
    let (_, revision) = stored_revision(&store, &id, &n).await?;
    let n = revision.number;
    let form = SearchForm::from_query(&query);
    let at = Searched {
        id: &id,
        revision: n,
        title: &revision.spec.title,
        tenants: !revision.spec.tenants.is_empty(),
    };
    if !form.run {
        return Ok(html(&search_page(&at, &form, None)));
    }
    let refused = |errors| PageError::Page(search_page(&at, &form, Some(Err(errors))));
    let request = form.request(revision.spec.clone()).map_err(refused)?;
    // One of the searches' turns (shared with the API), or 503 at once.
    let Some(permit) = crate::work::heavy::searches().take() else {
        return Ok(crate::work::heavy::with_retry_after(html(&message(
            503,
            "Busy",
            format!(
                "Every design search's turn is taken: try again in {} s.",
                crate::work::heavy::RETRY_AFTER_S
            ),
        ))));
    };
    // A request the engine refuses is answered whole, with its status, before any is sent.
    let candidate = form.candidate;
    let running = tokio::task::spawn_blocking(move || Running::start(request, candidate))
        .await
        .unwrap_or_else(|_| Err(vec!["the search could not be run".into()]))
        .map_err(refused)?;
    let page = streamed_page(&at, &form);
    let (parts, received) = mpsc::channel::<Bytes>(QUEUED_PARTS);
    let (id, title) = (id.clone(), revision.spec.title.clone());
    let tenants = !revision.spec.tenants.is_empty();
    tokio::task::spawn_blocking(move || {
        // The search holds its turn until it ends, whether or not anyone still reads.
        let _permit = permit;
        let send = |text: String| parts.blocking_send(Bytes::from(text)).is_ok();
        if !send(page.head) {
            return;
        }
        let Some(outcome) = run(running, send) else {
            return;
        };
        let at = Searched {
            id: &id,
            revision: n,
            title: &title,
            tenants,
        };
        let _ = send(page.progress_end.to_string())
            && send(outcome_html(&at, &form, &outcome))
            && send(page.tail);
    });
    let body = futures_util::stream::unfold(received, |mut received| async move {
        received
            .recv()
            .await
            .map(|part| (Ok::<_, Infallible>(part), received))
    });
    let mut response = Body::from_stream(body).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(DOCUMENT_POLICY),
    );
    headers.insert(UNBUFFERED.0, HeaderValue::from_static(UNBUFFERED.1));
    Ok(response)
}

/// Runs the search to its end, handing `progress` a line every [`PROGRESS_EVERY`] and at the
/// end; `None` as soon as `progress` says nobody reads any more.
fn run(mut running: Running, progress: impl Fn(String) -> bool) -> Option<Outcome> {
    let started = Instant::now();
    let mut said = started;
    loop {
        let p = running.step(SLICE);
        if p.done || said.elapsed() >= PROGRESS_EVERY {
            said = Instant::now();
            if !progress(progress_line(&p, started.elapsed().as_secs_f64())) {
                return None;
            }
        }
        if p.done {
            return Some(running.finish().0);
        }
    }
}
