//! The JSON API under `/api/`, documented in `openapi.json` (served at `/api/openapi.json`):
//! evaluate a spec; create a design; save a revision with the edit key; read a design, its
//! revisions and their reports. Errors have the shape of the server functions' errors:
//! `{"error": kind, "details": …}`, with 400 for unreadable JSON, 403 for a missing or wrong
//! edit key, 404 for an unknown design or revision, 413 for a body over 256 KiB and 422 with
//! every field error for an invalid spec. Nothing is written unless the answer is 201.

use app::costs::{COMPUTES, WRITES};
use app::error::AppError;
use app::store::{check, DesignId, EditKey, SaveError, Store, StoreError, StoredRevision};
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::handler::Handler;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use engine::{DesignSpec, Report, SpecErrors};
use serde::Deserialize;
use serde_json::json;

/// The OpenAPI 3.1 description of this API.
pub const OPENAPI: &str = include_str!("openapi.json");

pub fn routes(store: Store) -> Router {
    Router::new()
        .route("/api/openapi.json", get(openapi))
        .route("/api/evaluate", post(evaluate.layer(COMPUTES)))
        .route("/api/search", post(search.layer(COMPUTES)))
        .route("/api/designs", post(create.layer(WRITES)))
        .route("/api/designs/{id}", get(design))
        .route(
            "/api/designs/{id}/revisions",
            get(revisions).post(save.layer(WRITES)),
        )
        .route("/api/designs/{id}/revisions/{n}", get(revision))
        .route(
            "/api/designs/{id}/revisions/{n}/report",
            get(report.layer(COMPUTES)),
        )
        .route("/api/{*rest}", axum::routing::any(unknown))
        .with_state(store)
}

/// An error as JSON with its status.
struct Failure(AppError);

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        let status =
            StatusCode::from_u16(self.0.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, Json(self.0)).into_response()
    }
}

impl From<StoreError> for Failure {
    fn from(error: StoreError) -> Self {
        tracing::error!(%error, "the design store failed");
        Failure(AppError::Internal(
            "the design store failed; nothing was changed".into(),
        ))
    }
}

impl From<SaveError> for Failure {
    fn from(error: SaveError) -> Self {
        Failure(error.into())
    }
}

impl From<SpecErrors> for Failure {
    fn from(errors: SpecErrors) -> Self {
        Failure(errors.into())
    }
}

type Answer = Result<Response, Failure>;

fn no_design(id: &str) -> Failure {
    Failure(AppError::NotFound(format!("no design has the id {id:?}")))
}

fn design_id(id: &str) -> Result<DesignId, Failure> {
    DesignId::parse(id).ok_or_else(|| no_design(id))
}

fn revision_number(id: &str, n: &str) -> Result<u32, Failure> {
    n.parse::<u32>().ok().filter(|n| *n >= 1).ok_or_else(|| {
        Failure(AppError::NotFound(format!(
            "design {id:?} has no revision {n:?}"
        )))
    })
}

/// The body as JSON: 400 when it is not.
fn json_body<T: serde::de::DeserializeOwned>(body: &Bytes) -> Result<T, Failure> {
    serde_json::from_slice(body).map_err(|e| {
        Failure(AppError::BadRequest(format!(
            "the body is not the JSON expected: {e}"
        )))
    })
}

/// A spec validated and evaluated by the engine: 422 with every field error otherwise.
fn evaluated(spec: serde_json::Value) -> Result<(DesignSpec, Report), Failure> {
    let spec = DesignSpec::from_value(spec)?;
    let report = engine::evaluate(&spec)?;
    Ok((spec, report))
}

async fn openapi() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], OPENAPI).into_response()
}

async fn unknown() -> Failure {
    Failure(AppError::NotFound(
        "no such API endpoint; see /api/openapi.json".into(),
    ))
}

async fn evaluate(body: Bytes) -> Answer {
    let (_, report) = evaluated(json_body(&body)?)?;
    Ok(Json(report).into_response())
}

/// Candidates one API search may visit: about 0.3 s of one core.
const MAX_SEARCHED: u64 = 1_000_000;

/// The design search of the body (a search request, or a design spec with the default
/// question), run on the blocking pool.
async fn search(body: Bytes) -> Answer {
    let text = std::str::from_utf8(&body)
        .map_err(|_| Failure(AppError::BadRequest("the body is not UTF-8 text".into())))?;
    let request = crate::search::request(text)?;
    if request.max_candidates > MAX_SEARCHED {
        return Err(Failure(AppError::Invalid(vec![engine::FieldError::new(
            "max_candidates",
            format!("must be at most {MAX_SEARCHED} through the API"),
        )])));
    }
    let result = tokio::task::spawn_blocking(move || engine::search::search(request))
        .await
        .map_err(|_| Failure(AppError::Internal("the search could not be run".into())))??;
    Ok(Json(result).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SaveBody {
    spec: serde_json::Value,
    #[serde(default)]
    note: String,
}

/// Where a revision is shown, exported and handed over.
fn links(id: &str, revision: u32) -> serde_json::Value {
    let at = format!("/d/{id}/r/{revision}");
    json!({
        "share": format!("/d/{id}"),
        "revision": at,
        "api": format!("/api/designs/{id}"),
        "report": format!("{at}/report"),
        "report_pdf": format!("{at}/report.pdf"),
        "bom_csv": format!("{at}/bom.csv"),
        "cabling_csv": format!("{at}/cabling.csv"),
        "handoff": format!("{at}/handoff"),
        "handoff_zip": format!("{at}/handoff.zip"),
        "asbuilt": format!("{at}/asbuilt"),
    })
}

async fn create(State(store): State<Store>, body: Bytes) -> Answer {
    let body: SaveBody = json_body(&body)?;
    let checked = check(DesignSpec::from_value(body.spec), &body.note)?;
    let (id, key) = store.save_new(&checked).await?;
    let id = id.as_str();
    Ok((
        StatusCode::CREATED,
        [(header::LOCATION, format!("/api/designs/{id}"))],
        Json(json!({
            "id": id,
            "revision": 1,
            "edit_key": key.as_str(),
            "edit_link": format!("/d/{id}/claim?key={}", key.as_str()),
            "links": links(id, 1),
        })),
    )
        .into_response())
}

/// The edit key of a request: `Authorization: Bearer KEY` or `X-Edit-Key: KEY`.
fn edit_key(headers: &HeaderMap) -> Option<EditKey> {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    let named = headers.get("x-edit-key").and_then(|v| v.to_str().ok());
    EditKey::parse(bearer.or(named)?.trim())
}

async fn save(
    State(store): State<Store>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Answer {
    let design_id = design_id(&id)?;
    if store.design(&design_id).await?.is_none() {
        return Err(no_design(&id));
    }
    let forbidden = |why: &str| Failure(AppError::Forbidden(why.to_string()));
    let key = edit_key(&headers).ok_or_else(|| {
        forbidden("saving a revision needs the design's edit key (Authorization: Bearer KEY)")
    })?;
    let body: SaveBody = json_body(&body)?;
    let checked = check(DesignSpec::from_value(body.spec), &body.note)?;
    let n = store.save_next(&design_id, &key, &checked).await?;
    Ok((
        StatusCode::CREATED,
        [(header::LOCATION, format!("/api/designs/{id}/revisions/{n}"))],
        Json(json!({ "id": id, "revision": n, "links": links(&id, n) })),
    )
        .into_response())
}

async fn design(State(store): State<Store>, Path(id): Path<String>) -> Answer {
    let head = store
        .design(&design_id(&id)?)
        .await?
        .ok_or_else(|| no_design(&id))?;
    Ok(Json(json!({
        "id": head.id,
        "title": head.title,
        "latest_revision": head.latest_revision,
        "created_at_ms": head.created_at_ms,
        "updated_at_ms": head.updated_at_ms,
        "links": links(&id, head.latest_revision),
    }))
    .into_response())
}

async fn revisions(State(store): State<Store>, Path(id): Path<String>) -> Answer {
    let design_id = design_id(&id)?;
    let list = store.revisions(&design_id).await?;
    if list.is_empty() {
        return Err(no_design(&id));
    }
    let list: Vec<_> = list
        .into_iter()
        .map(|r| {
            json!({
                "number": r.number,
                "title": r.title,
                "note": r.note,
                "engine_version": r.engine_version,
                "saved_at_ms": r.saved_at_ms,
            })
        })
        .collect();
    Ok(Json(json!({ "id": id, "revisions": list })).into_response())
}

async fn stored(store: &Store, id: &str, n: &str) -> Result<StoredRevision, Failure> {
    let (design_id, number) = (design_id(id)?, revision_number(id, n)?);
    store
        .revision(&design_id, Some(number))
        .await?
        .ok_or_else(|| {
            Failure(AppError::NotFound(format!(
                "design {id:?} has no revision {number}"
            )))
        })
}

async fn revision(State(store): State<Store>, Path((id, n)): Path<(String, String)>) -> Answer {
    let r = stored(&store, &id, &n).await?;
    Ok(Json(json!({
        "id": id,
        "number": r.number,
        "note": r.note,
        "engine_version": r.engine_version,
        "saved_at_ms": r.saved_at_ms,
        "spec": r.spec,
    }))
    .into_response())
}

async fn report(State(store): State<Store>, Path((id, n)): Path<(String, String)>) -> Answer {
    let r = stored(&store, &id, &n).await?;
    Ok(Json(r.report_or_today()?).into_response())
}
