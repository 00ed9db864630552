//! The JSON API under `/api/`, described by the OpenAPI document served at
//! `/api/openapi.json`, generated from the endpoint list below: evaluate a spec; search for
//! the cheapest fabrics; create a design; save a revision with the edit key; read a design, its
//! revisions and their reports. Errors have the shape of the server functions' errors:
//! `{"error": kind, "details": …}`, with 400 for unreadable JSON, 403 for a missing or wrong
//! edit key, 404 for an unknown design or revision, 413 for a body over 256 KiB and 422 with
//! every field error for an invalid spec. Nothing is written unless the answer is 201.
//!
//! A new endpoint is one entry of `endpoints()`: its handler, with the cost layer it spends,
//! and its operation for the document. Over 400 lines because each handler stands beside the
//! entry that routes and documents it.

mod bodies;
pub mod openapi;

use std::sync::LazyLock;

use app::costs::{COMPUTES, WRITES};
use app::error::AppError;
use app::store::{
    check_off_the_workers, DesignId, EditKey, SaveError, Store, StoreError, StoredRevision,
};
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::handler::Handler;
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{self, MethodRouter};
use axum::{Json, Router};
use bodies::{
    BillDifferenceRequest, CalibrationFit, Created, Design, Links, Revision, RevisionList,
    SaveRequest, Saved, SearchBody,
};
use engine::search::SearchResult;
use engine::{DesignSpec, Report, SpecErrors};
use openapi::{schema, Operation};

/// One route of the API: what serves it and what the document says of it.
pub struct Endpoint {
    pub operation: Operation,
    handler: MethodRouter<Store>,
}

/// The refusals of a body that is read, evaluated and may be too large.
const READS_A_SPEC: &[u16] = &[400, 413, 422, 429];
/// A search's refusals: those of a spec, and 503 when every search turn is taken.
const SEARCHES: &[u16] = &[400, 413, 422, 429, 503];
const UNKNOWN: &[u16] = &[404];

/// Every endpoint of the API, in the order the document lists them.
pub fn endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint {
            operation: Operation {
                method: Method::GET,
                path: "/api/openapi.json",
                id: "openapi",
                summary: "This document",
                description: "",
                request: None,
                answer: (200, "The OpenAPI document", schema::<serde_json::Value>),
                refusals: &[],
                edit_key: false,
            },
            handler: routing::get(openapi_document),
        },
        Endpoint {
            operation: Operation {
                method: Method::POST,
                path: "/api/evaluate",
                id: "evaluate",
                summary: "Evaluate a spec without storing it",
                description: "",
                request: Some(schema::<engine::AnySpecVersion>),
                answer: (
                    200,
                    "The engine's report, with what each failure costs, the goodput, the phases, \
                     the tenants and the floor it is placed on",
                    schema::<engine::PlacedReport>,
                ),
                refusals: READS_A_SPEC,
                edit_key: false,
            },
            handler: routing::post(evaluate.layer(COMPUTES)),
        },
        Endpoint {
            operation: Operation {
                method: Method::POST,
                path: "/api/bill-difference",
                id: "billDifference",
                summary: "What changes in the bill to order from one spec to another",
                description: "Each item of each fabric added, removed or changed in quantity or \
                    price, with the cost and power it adds or takes away, the dearest first; the \
                    bills are those the designs order as placed on their floors. A field error \
                    names the spec it is in (`before.` or `after.`).",
                request: Some(schema::<BillDifferenceRequest>),
                answer: (
                    200,
                    "The lines that differ and the totals",
                    schema::<engine::bill_diff::BillDiff>,
                ),
                refusals: READS_A_SPEC,
                edit_key: false,
            },
            handler: routing::post(bill_difference.layer(COMPUTES)),
        },
        Endpoint {
            operation: Operation {
                method: Method::POST,
                path: "/api/search",
                id: "search",
                summary: "Search for the cheapest fabrics that meet the design's targets",
                description: "At most 1,000,000 candidates through the API. The answer is the \
                    Pareto frontier of cost, power and slowdown, cheapest first, and the answer \
                    in words. A few searches run at once across the server; beyond them the \
                    answer is 503 with Retry-After. A search stops when its request ends.",
                request: Some(schema::<SearchBody>),
                answer: (
                    200,
                    "The frontier and the answer in words",
                    schema::<SearchResult>,
                ),
                refusals: SEARCHES,
                edit_key: false,
            },
            handler: routing::post(search.layer(COMPUTES)),
        },
        Endpoint {
            operation: Operation {
                method: Method::POST,
                path: "/api/designs",
                id: "createDesign",
                summary: "Create a design from a spec",
                description: "",
                request: Some(schema::<SaveRequest>),
                answer: (
                    201,
                    "Stored as revision 1; the edit key is returned this once",
                    schema::<Created>,
                ),
                refusals: READS_A_SPEC,
                edit_key: false,
            },
            handler: routing::post(create.layer(WRITES)),
        },
        Endpoint {
            operation: Operation {
                method: Method::GET,
                path: "/api/designs/{id}",
                id: "getDesign",
                summary: "A design: title, newest revision, dates",
                description: "",
                request: None,
                answer: (200, "The design", schema::<Design>),
                refusals: UNKNOWN,
                edit_key: false,
            },
            handler: routing::get(design),
        },
        Endpoint {
            operation: Operation {
                method: Method::GET,
                path: "/api/designs/{id}/revisions",
                id: "listRevisions",
                summary: "Every revision of a design, newest first",
                description: "",
                request: None,
                answer: (200, "The revisions", schema::<RevisionList>),
                refusals: UNKNOWN,
                edit_key: false,
            },
            handler: routing::get(revisions),
        },
        Endpoint {
            operation: Operation {
                method: Method::POST,
                path: "/api/designs/{id}/revisions",
                id: "saveRevision",
                summary: "Save a new revision (needs the edit key)",
                description: "",
                request: Some(schema::<SaveRequest>),
                answer: (201, "Stored as the next revision", schema::<Saved>),
                refusals: &[400, 403, 404, 413, 422, 429],
                edit_key: true,
            },
            handler: routing::post(save.layer(WRITES)),
        },
        Endpoint {
            operation: Operation {
                method: Method::GET,
                path: "/api/designs/{id}/revisions/{n}",
                id: "getRevision",
                summary: "One revision: its spec and when and by which engine it was saved",
                description: "",
                request: None,
                answer: (200, "The revision", schema::<Revision>),
                refusals: UNKNOWN,
                edit_key: false,
            },
            handler: routing::get(revision),
        },
        Endpoint {
            operation: Operation {
                method: Method::GET,
                path: "/api/designs/{id}/revisions/{n}/report",
                id: "getReport",
                summary: "The report saved with a revision (its engine_version says which \
                    engine computed it), with the floor it is placed on",
                description: "",
                request: None,
                answer: (200, "The report", schema::<engine::PlacedReport>),
                refusals: &[404, 429],
                edit_key: false,
            },
            handler: routing::get(report.layer(COMPUTES)),
        },
        Endpoint {
            operation: Operation {
                method: Method::GET,
                path: "/api/designs/{id}/calibration",
                id: "fitCalibration",
                summary: "The newest revision's calibration of a fabric (`?fabric=`) fitted to \
                    its nccl-tests baselines",
                description: "The transport's efficiency and the network-hop latency that make \
                    the design's predictions meet every baseline measured on the fabric, with \
                    the fit's error on the sizes it used and on what it held out, and each \
                    baseline fitted on its own, oldest first, with a departure when the newest \
                    differs from the ones before it by more than they spread. Nothing is stored: \
                    the design page's calibration form saves a fit as the next revision.",
                request: None,
                answer: (200, "The fit", schema::<CalibrationFit>),
                refusals: &[404, 422, 429],
                edit_key: false,
            },
            handler: routing::get(fit_calibration.layer(COMPUTES)),
        },
    ]
}

/// The OpenAPI document of `endpoints()`, generated once.
pub static OPENAPI: LazyLock<String> = LazyLock::new(|| {
    let endpoints = endpoints();
    openapi::document(endpoints.iter().map(|e| &e.operation)).to_string()
});

pub fn routes(store: Store) -> Router {
    endpoints()
        .into_iter()
        .fold(Router::new(), |router, endpoint| {
            router.route(endpoint.operation.path, endpoint.handler)
        })
        .route("/api/{*rest}", routing::any(unknown))
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

async fn openapi_document() -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        OPENAPI.as_str(),
    )
        .into_response()
}

async fn unknown() -> Failure {
    Failure(AppError::NotFound(
        "no such API endpoint; see /api/openapi.json".into(),
    ))
}

/// The spec of the body evaluated on the blocking pool: CPU work, kept off the async workers.
async fn evaluate(body: Bytes) -> Answer {
    let spec = json_body(&body)?;
    let answer = app::compute::run(move || {
        let spec = DesignSpec::from_value(spec)?;
        // A client evaluating variants of one design (its workloads) lays its floor once.
        let placed = engine::evaluate_placed_sharing(&spec, &app::compute::FLOORS)?;
        Ok::<_, Failure>(Json(placed.over_its_life(&spec)).into_response())
    })
    .await
    .map_err(|_| Failure(AppError::Internal("the evaluation could not be run".into())))?;
    answer
}

/// Both specs of the body evaluated, and what ordering the second instead of the first changes
/// in the bill; on the blocking pool, as an evaluation.
async fn bill_difference(body: Bytes) -> Answer {
    let BillDifferenceRequest { before, after } = json_body(&body)?;
    let answer = app::compute::run(move || {
        let side = |spec, name: &str| {
            evaluated(spec).map_err(|Failure(e)| match e {
                AppError::Invalid(fields) => Failure(AppError::Invalid(
                    fields
                        .into_iter()
                        .map(|mut f| {
                            f.path = format!("{name}.{}", f.path);
                            f
                        })
                        .collect(),
                )),
                other => Failure(other),
            })
        };
        let (_, before) = side(before, "before")?;
        let (_, after) = side(after, "after")?;
        Ok::<_, Failure>(Json(engine::bill_diff::bill_diff(&before, &after)).into_response())
    })
    .await
    .map_err(|_| Failure(AppError::Internal("the bills could not be compared".into())))?;
    answer
}

/// Candidates one API search may visit: about half a second of one core at 64 nodes, more
/// where many candidates meet their targets on large floors of their own (each distinct floor
/// is laid); the request's time limit stops it between slices.
const MAX_SEARCHED: u64 = 1_000_000;

/// The design search of the body (a search request, or a design spec with the default
/// question), run on the blocking pool in one of the searches' turns (503 when every turn is
/// taken), and stopped between slices once the request has ended: answered, timed out, or left
/// by its client.
async fn search(body: Bytes) -> Answer {
    let text = std::str::from_utf8(&body)
        .map_err(|_| Failure(AppError::BadRequest("the body is not UTF-8 text".into())))?;
    let request = crate::work::search::request(text)?;
    if request.max_candidates > MAX_SEARCHED {
        return Err(Failure(AppError::Invalid(vec![engine::FieldError::new(
            "max_candidates",
            format!("must be at most {MAX_SEARCHED} through the API"),
        )])));
    }
    let Some(turn) = crate::work::heavy::searches().take() else {
        return Ok(crate::work::heavy::busy_json("design searches"));
    };
    let (cancel, _cancel_on_drop) = crate::work::heavy::Cancel::new();
    let result = tokio::task::spawn_blocking(move || {
        let _turn = turn;
        crate::work::search::run_until(request, crate::work::search::SLICE, || cancel.cancelled())
    })
    .await
    .map_err(|_| Failure(AppError::Internal("the search could not be run".into())))??;
    match result {
        Some(result) => Ok(Json(result).into_response()),
        // Nobody is waiting for it any more.
        None => Err(Failure(AppError::Internal("the search was stopped".into()))),
    }
}

async fn create(State(store): State<Store>, body: Bytes) -> Answer {
    let body: SaveRequest = json_body(&body)?;
    let checked =
        check_off_the_workers(move || DesignSpec::from_value(body.spec), body.note).await?;
    let (id, key) = store.save_new(&checked).await?;
    let id = id.as_str();
    Ok((
        StatusCode::CREATED,
        [(header::LOCATION, format!("/api/designs/{id}"))],
        Json(Created {
            id: id.to_string(),
            revision: 1,
            edit_key: key.as_str().to_string(),
            edit_link: format!("/d/{id}/claim?key={}", key.as_str()),
            links: Links::of(id, 1),
        }),
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
    let body: SaveRequest = json_body(&body)?;
    let checked =
        check_off_the_workers(move || DesignSpec::from_value(body.spec), body.note).await?;
    let n = store.save_next(&design_id, &key, &checked).await?;
    Ok((
        StatusCode::CREATED,
        [(header::LOCATION, format!("/api/designs/{id}/revisions/{n}"))],
        Json(Saved {
            links: Links::of(&id, n),
            id,
            revision: n,
        }),
    )
        .into_response())
}

async fn design(State(store): State<Store>, Path(id): Path<String>) -> Answer {
    let head = store
        .design(&design_id(&id)?)
        .await?
        .ok_or_else(|| no_design(&id))?;
    Ok(Json(Design::from(head)).into_response())
}

async fn revisions(State(store): State<Store>, Path(id): Path<String>) -> Answer {
    let design_id = design_id(&id)?;
    let list = store.revisions(&design_id).await?;
    if list.is_empty() {
        return Err(no_design(&id));
    }
    let revisions = list.into_iter().map(Into::into).collect();
    Ok(Json(RevisionList { id, revisions }).into_response())
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
    Ok(Json(Revision::of(id, r)).into_response())
}

#[derive(serde::Deserialize)]
struct FabricQuery {
    fabric: Option<String>,
}

async fn fit_calibration(
    State(store): State<Store>,
    Path(id): Path<String>,
    Query(asked): Query<FabricQuery>,
) -> Answer {
    let design_id = design_id(&id)?;
    let latest = store
        .revision(&design_id, None)
        .await?
        .ok_or_else(|| no_design(&id))?;
    let fabric = asked.fabric.unwrap_or_default();
    if !latest.spec.fabrics.iter().any(|f| f.name == fabric) {
        return Err(Failure(AppError::Invalid(vec![engine::FieldError::new(
            "fabric",
            format!("the newest revision has no fabric named {fabric:?}"),
        )])));
    }
    let baselines = store.baselines(&design_id).await?;
    let spec = latest.spec;
    let fitting = app::compute::run(move || {
        crate::resources::calibration::fitting(&spec, &fabric, &baselines)
    })
    .await
    .map_err(|_| {
        Failure(AppError::Internal(
            "the fit failed; nothing was changed".into(),
        ))
    })?;
    let (fit, not_fitted) = match fitting.fit {
        Ok(fit) => (Some(fit), None),
        Err(why) => (None, Some(why)),
    };
    Ok(Json(CalibrationFit {
        fabric: fitting.fabric,
        baselines: fitting.baselines,
        fit,
        not_fitted,
        drift: fitting.drift,
    })
    .into_response())
}

async fn report(State(store): State<Store>, Path((id, n)): Path<(String, String)>) -> Answer {
    let r = stored(&store, &id, &n).await?;
    // Laying the floor is CPU work, kept off the async workers.
    let placed = app::compute::run(move || {
        r.report_or_today()
            .map(|report| report.placed_on_floor(&r.spec))
    })
    .await
    .map_err(|_| Failure(AppError::Internal("the report could not be written".into())))??;
    Ok(Json(placed).into_response())
}
