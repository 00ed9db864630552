//! The planner's addresses: a new design, a new design from a starting point, a stored design
//! opened to save revisions of it or to copy it, and a search's candidate. Each handler decides
//! on the server what the planner opens, or answers with the page that says why there is
//! nothing to open (with its status), and renders the planner around that start. The page
//! carries the start to the browser, which hydrates from it without asking again. The start
//! pages, the same for every visitor, are rendered once and kept.

use crate::resources::respond::{Answer, PageError};
use app::costs::COMPUTES;
use app::editor::Stored;
use app::pages::document::message;
use app::pages::PlannerStart;
use app::store::{DesignId, Store, StoredRevision};
use app::templates::{blank_design, first_design};
use axum::body::Body;
use axum::extract::{Path, Query, Request, State};
use axum::handler::Handler;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use engine::DesignSpec;
use leptos::prelude::*;
use refusals::{no_candidate, no_design, no_starting_point, not_editable};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

mod refusals;

#[derive(Clone)]
struct Planners {
    store: Store,
    options: LeptosOptions,
    /// The start pages, by address, each rendered once.
    starts: Arc<Mutex<HashMap<String, Arc<Kept>>>>,
}

/// A start page (`/`, `/new/<example>`) as rendered once: every visitor of a build gets the
/// same page but for the nonce of its scripts, so it is kept with its body cut where the nonce
/// stood and sent with a fresh one each time.
struct Kept {
    status: StatusCode,
    headers: HeaderMap,
    pieces: Vec<String>,
}

impl Kept {
    /// `response` kept; `None` when it names no nonce or is not text.
    async fn of(response: Response) -> Option<Kept> {
        let (parts, body) = response.into_parts();
        let policy = parts
            .headers
            .get(header::CONTENT_SECURITY_POLICY)?
            .to_str()
            .ok()?;
        let nonce = policy
            .split("'nonce-")
            .nth(1)?
            .split('\'')
            .next()?
            .to_string();
        if nonce.len() < 16 {
            return None;
        }
        let body = axum::body::to_bytes(body, 16 << 20).await.ok()?;
        let text = String::from_utf8(body.to_vec()).ok()?;
        let mut headers = parts.headers;
        headers.remove(header::CONTENT_SECURITY_POLICY);
        headers.remove(header::CONTENT_LENGTH);
        Some(Kept {
            status: parts.status,
            headers,
            pieces: text.split(nonce.as_str()).map(str::to_string).collect(),
        })
    }

    /// The page with a fresh nonce in its scripts and its policy.
    fn response(&self) -> Response {
        let nonce = leptos::nonce::Nonce::new();
        let mut response = Response::new(Body::from(self.pieces.join(&nonce)));
        *response.status_mut() = self.status;
        *response.headers_mut() = self.headers.clone();
        if let Ok(value) = HeaderValue::from_str(&page_policy(&nonce)) {
            response
                .headers_mut()
                .insert(header::CONTENT_SECURITY_POLICY, value);
        }
        response
    }
}

pub fn routes(store: Store, options: LeptosOptions) -> Router {
    Router::new()
        .route("/", get(new_design))
        .route("/new/{from}", get(start_from))
        // A design's planner evaluates it (its dashboard too) as it renders: charged as the
        // computations they are.
        .route("/d/{id}/edit", get(edit.layer(COMPUTES)))
        .route("/d/{id}/duplicate", get(duplicate.layer(COMPUTES)))
        // The candidate's design comes from running the search again.
        .route("/d/{id}/r/{n}/search/open", get(candidate.layer(COMPUTES)))
        .with_state(Planners {
            store,
            options,
            starts: Arc::default(),
        })
}

impl Planners {
    /// The planner page on `start`, rendered for `request`.
    async fn render(&self, start: PlannerStart, request: Request<Body>) -> Response {
        let options = self.options.clone();
        // The design's floor is laid on the blocking pool, so that the planner's evaluation as
        // the page renders, on the async workers, costs the sizing alone.
        let spec = start.spec.clone();
        let laid = app::compute::run(move || app::editor::LaidFloor::of(&spec))
            .await
            .ok();
        let context = move || {
            provide_context(start.clone());
            if let Some(laid) = &laid {
                provide_context(laid.clone());
            }
            set_page_policy();
        };
        leptos_axum::render_app_to_stream_with_context(context, move || {
            app::shell(options.clone())
        })(request)
        .await
    }

    /// The start page at `address` on `start`: rendered the first time, then kept.
    async fn start_page(
        &self,
        address: &str,
        start: PlannerStart,
        request: Request<Body>,
    ) -> Response {
        let kept = self
            .starts
            .lock()
            .ok()
            .and_then(|s| s.get(address).cloned());
        if let Some(kept) = kept {
            return kept.response();
        }
        let rendered = self.render(start, request).await;
        if !rendered.status().is_success() {
            return rendered;
        }
        match Kept::of(rendered).await {
            Some(kept) => {
                let kept = Arc::new(kept);
                if let Ok(mut starts) = self.starts.lock() {
                    starts.insert(address.to_string(), kept.clone());
                }
                kept.response()
            }
            None => {
                tracing::error!(address, "a start page could not be kept");
                PageError::Page(message(
                    500,
                    "The page could not be shown",
                    "The server could not write this page. Nothing was changed.".into(),
                ))
                .into_response()
            }
        }
    }

    /// Revision `revision` (the newest when absent) of design `id`.
    async fn revision(
        &self,
        id: &str,
        revision: Option<u32>,
    ) -> Result<(DesignId, StoredRevision), PageError> {
        crate::resources::revisions::revision_at(&self.store, id, revision)
            .await?
            .ok_or_else(|| PageError::Page(no_design(id, revision)))
    }

    /// Whether the browser that sent `headers` holds the edit key of design `id`.
    async fn may_edit(&self, headers: &HeaderMap, id: &DesignId) -> Result<bool, PageError> {
        Ok(match app::ownership::key_for(headers, id) {
            Some(key) => self.store.holds_key(id, &key).await?,
            None => false,
        })
    }
}

/// The Content-Security-Policy of the planner, the one page with scripts: its own scripts only, the inline hydration and
/// resource scripts by the page's nonce, WebAssembly compilation, nothing framed, no plugins.
pub fn page_policy(nonce: &str) -> String {
    format!(
        "default-src 'self'; script-src 'self' 'nonce-{nonce}' 'wasm-unsafe-eval'; \
         style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; \
         base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )
}

/// Gives a page being rendered its Content-Security-Policy, naming the nonce Leptos put on
/// its scripts.
fn set_page_policy() {
    if let (Some(nonce), Some(response)) = (
        leptos::nonce::use_nonce(),
        use_context::<leptos_axum::ResponseOptions>(),
    ) {
        if let Ok(value) = HeaderValue::from_str(&page_policy(&nonce)) {
            response.insert_header(header::CONTENT_SECURITY_POLICY, value);
        }
    }
}

/// `/`: the first design of a new user.
async fn new_design(State(planners): State<Planners>, request: Request<Body>) -> Response {
    planners
        .start_page("/", PlannerStart::new_design(first_design()), request)
        .await
}

/// `/new/{from}`: a new design that starts blank or from one of the shipped examples.
async fn start_from(
    State(planners): State<Planners>,
    Path(from): Path<String>,
    request: Request<Body>,
) -> Answer {
    let start = PlannerStart::new_design(starting_point(&from)?);
    Ok(planners
        .start_page(&format!("/new/{from}"), start, request)
        .await)
}

/// The spec of the starting point named `from`.
fn starting_point(from: &str) -> Result<DesignSpec, PageError> {
    if from == "blank" {
        return Ok(blank_design());
    }
    let file = format!("{from}.json");
    let text = engine::examples::ALL
        .iter()
        .find(|(name, _)| *name == file)
        .map(|(_, text)| *text)
        .ok_or_else(|| PageError::Page(no_starting_point(from)))?;
    DesignSpec::from_json(text).map_err(|errors| {
        tracing::error!(%errors, example = from, "a shipped example does not read");
        PageError::Page(message(
            500,
            "The starting point could not be read",
            "The server could not read this example. Nothing was changed.".into(),
        ))
    })
}

/// `/d/{id}/edit`: the newest revision, saving new revisions of the design; only for the
/// browser that holds its edit key.
async fn edit(
    State(planners): State<Planners>,
    Path(id): Path<String>,
    request: Request<Body>,
) -> Answer {
    let (design_id, found) = planners.revision(&id, None).await?;
    if !planners.may_edit(request.headers(), &design_id).await? {
        return Err(PageError::Page(not_editable(&id)));
    }
    let editing = Stored {
        id,
        revision: found.number,
        title: found.spec.title.clone(),
    };
    let start = PlannerStart {
        spec: found.spec,
        editing: Some(editing),
    };
    Ok(planners.render(start, request).await)
}

/// `/d/{id}/duplicate?revision=N`: a copy of the revision (the newest without one), saved as
/// a new design; for anyone with the share link.
async fn duplicate(
    State(planners): State<Planners>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    request: Request<Body>,
) -> Answer {
    let revision = query.get("revision").and_then(|n| n.parse::<u32>().ok());
    let (_, found) = planners.revision(&id, revision).await?;
    let mut spec = found.spec;
    spec.title = format!("{} (copy)", spec.title);
    Ok(planners
        .render(PlannerStart::new_design(spec), request)
        .await)
}

/// `/d/{id}/r/{n}/search/open?…&candidate=K`: candidate K of the search the address asks of
/// revision n. The search runs again from the same question (it is deterministic); the
/// candidate opens as the next revision of the design when this browser holds its edit key,
/// else as a new design.
async fn candidate(
    State(planners): State<Planners>,
    Path((id, n)): Path<(String, String)>,
    Query(query): Query<HashMap<String, String>>,
    request: Request<Body>,
) -> Answer {
    use app::search::{Running, SearchForm};
    let refused = |status, reason: String| PageError::Page(no_candidate(status, reason));
    let n = n
        .parse::<u32>()
        .map_err(|_| PageError::Page(no_design(&id, None)))?;
    let (design_id, found) = planners.revision(&id, Some(n)).await?;
    let form = SearchForm::from_query(&query);
    let candidate = form
        .candidate
        .ok_or_else(|| refused(400, "The address names no candidate.".into()))?;
    let search = form
        .request(found.spec)
        .map_err(|errors| refused(400, errors.join("; ")))?;
    // One of the searches' turns (shared with the search page and the API), or 503 at once; the
    // search stops between slices once nobody waits for it.
    let Some(turn) = crate::work::heavy::searches().take() else {
        let busy = format!(
            "Every design search's turn is taken: try again in {} s.",
            crate::work::heavy::RETRY_AFTER_S
        );
        return Ok(crate::work::heavy::with_retry_after(
            crate::resources::respond::html(&no_candidate(503, busy)),
        ));
    };
    let (cancel, _cancel_on_drop) = crate::work::heavy::Cancel::new();
    let run = tokio::task::spawn_blocking(move || {
        let _turn = turn;
        let mut running = Running::start(search, Some(candidate))?;
        while !running.step(crate::work::search::SLICE).done {
            if cancel.cancelled() {
                return Ok(None);
            }
        }
        Ok(running.finish().1)
    })
    .await
    .map_err(|_| refused(500, "The search could not be run.".into()))?;
    let spec = run
        .map_err(|errors: Vec<String>| refused(400, errors.join("; ")))?
        .ok_or_else(|| refused(404, format!("The search has no candidate {candidate}.")))?;
    let editing = if planners.may_edit(request.headers(), &design_id).await? {
        let head = planners
            .store
            .design(&design_id)
            .await?
            .ok_or(PageError::NotFound)?;
        Some(Stored {
            id,
            revision: head.latest_revision,
            title: head.title,
        })
    } else {
        None
    };
    Ok(planners
        .render(PlannerStart { spec, editing }, request)
        .await)
}

/// The answer to an address no route takes: the page that says so.
pub(crate) async fn not_found() -> Response {
    PageError::NotFound.into_response()
}
