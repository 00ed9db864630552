//! `/d/{id}/r/{n}/report` and `/d/{id}/r/{n}/report.pdf`: the design report of a revision as
//! a print-ready page and as a PDF typeset on the server. A revision never changes, so both are
//! kept once made; PDFs are typeset on the blocking pool, at most a few at once, so that the
//! rest of the server keeps answering and memory stays bounded.

use crate::pages::{failed, head_and_number, html};
use crate::pdf::{typeset, Paper};
use app::pages::document::{date, message, not_found, Page};
use app::report::html::{report_page, Downloads};
use app::report::{report_document, ReportDocument, Revision};
use app::store::{DesignId, Store};
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use lru::LruCache;
use serde::Deserialize;
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};
use tokio::sync::Semaphore;

/// Reports typeset at once: one per core keeps the CPU busy without queueing memory.
const TYPESETTING_AT_ONCE: usize = 2;
/// Report pages (about 200 KB each) and PDFs (about 300 KB each) kept.
const KEPT: usize = 64;

/// A revision's report as one reader sees it: design, revision, newest revision, host.
type Key = (DesignId, u32, u32, String);
type PageCache = LruCache<Key, Arc<Page>>;
type PdfCache = LruCache<(Key, Paper), Typeset>;

/// A PDF made, and the name it is downloaded under; its bytes are shared, not copied, by
/// every response that sends it.
#[derive(Clone)]
struct Typeset {
    file: String,
    bytes: Bytes,
}

#[derive(Clone)]
pub struct Reports {
    store: Store,
    pages: Arc<Mutex<PageCache>>,
    pdfs: Arc<Mutex<PdfCache>>,
    typesetting: Arc<Semaphore>,
}

impl Reports {
    pub fn new(store: Store) -> Reports {
        let kept = NonZeroUsize::new(KEPT).unwrap_or(NonZeroUsize::MIN);
        Reports {
            store,
            pages: Arc::new(Mutex::new(LruCache::new(kept))),
            pdfs: Arc::new(Mutex::new(LruCache::new(kept))),
            typesetting: Arc::new(Semaphore::new(TYPESETTING_AT_ONCE)),
        }
    }
}

pub fn routes(store: Store) -> Router {
    Router::new()
        .route("/d/{id}/r/{n}/report", get(page))
        .route("/d/{id}/r/{n}/report.pdf", get(pdf))
        .with_state(Reports::new(store))
}

/// The host the reader used, for the absolute share link on the cover.
fn host(headers: &HeaderMap) -> String {
    headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| {
            h.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'))
        })
        .unwrap_or("")
        .to_string()
}

/// The revision `n` of design `id` as `host` shows it: the key its report is kept under.
/// Reads only the design's head, so that a kept report costs one indexed read.
async fn locate(reports: &Reports, id: &str, n: &str, host: String) -> Result<Key, Response> {
    let Ok(n) = n.parse::<u32>() else {
        return Err(html(&not_found()));
    };
    match head_and_number(&reports.store, id, Some(n)).await {
        Ok(Some((head, design_id, number))) => Ok((design_id, number, head.latest_revision, host)),
        Ok(None) => Err(html(&not_found())),
        Err(e) => Err(failed(e)),
    }
}

/// The report of the revision `key` names, built from its stored spec and report.
async fn document(reports: &Reports, key: &Key) -> Result<ReportDocument, Response> {
    let (design_id, n, latest, host) = key;
    let stored = match reports.store.revision(design_id, Some(*n)).await {
        Ok(Some(stored)) => stored,
        Ok(None) => return Err(html(&not_found())),
        Err(e) => return Err(failed(e)),
    };
    let report = crate::api::report_of(&stored)
        .map_err(|errors| html(&message(422, "No report", errors.to_string())))?;
    let path = format!("/d/{}/r/{n}", design_id.as_str());
    let link = if host.is_empty() {
        path
    } else {
        format!("http://{host}{path}")
    };
    let revision = Revision {
        number: *n,
        latest: *latest,
        saved: date(stored.saved_at_ms),
        engine_version: &stored.engine_version,
        link,
    };
    Ok(report_document(&stored.spec, &report, &revision))
}

async fn page(
    State(reports): State<Reports>,
    Path((id, n)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let key = match locate(&reports, &id, &n, host(&headers)).await {
        Ok(key) => key,
        Err(response) => return response,
    };
    if let Some(page) = reports
        .pages
        .lock()
        .ok()
        .and_then(|mut c| c.get(&key).cloned())
    {
        return html(&page);
    }
    let report = match document(&reports, &key).await {
        Ok(report) => report,
        Err(response) => return response,
    };
    let base = format!("/d/{}/r/{}", key.0.as_str(), key.1);
    let page = Arc::new(report_page(
        &report,
        &Downloads {
            pdf: format!("{base}/report.pdf"),
            bom_csv: format!("{base}/bom.csv"),
            cabling_csv: format!("{base}/cabling.csv"),
            design: base.clone(),
        },
    ));
    if let Ok(mut cache) = reports.pages.lock() {
        cache.put(key, page.clone());
    }
    html(&page)
}

#[derive(Deserialize)]
struct PdfQuery {
    paper: Option<String>,
}

async fn pdf(
    State(reports): State<Reports>,
    Path((id, n)): Path<(String, String)>,
    Query(query): Query<PdfQuery>,
    headers: HeaderMap,
) -> Response {
    let paper = match query.paper.as_deref().map(Paper::parse) {
        None => Paper::A4,
        Some(Some(paper)) => paper,
        Some(None) => {
            return html(&message(
                400,
                "Unknown paper",
                "paper: give a4 or letter.".into(),
            ))
        }
    };
    let key = match locate(&reports, &id, &n, host(&headers)).await {
        Ok(key) => (key, paper),
        Err(response) => return response,
    };
    let cached = reports
        .pdfs
        .lock()
        .ok()
        .and_then(|mut c| c.get(&key).cloned());
    let Typeset { file, bytes } = match cached {
        Some(typeset) => typeset,
        None => {
            let report = match document(&reports, &key.0).await {
                Ok(report) => report,
                Err(response) => return response,
            };
            let file = format!(
                "{}-r{}.pdf",
                crate::pages::file_stem(&report.title),
                key.0 .1
            );
            let Ok(_permit) = reports.typesetting.acquire().await else {
                return html(&message(503, "Busy", "Try again in a moment.".into()));
            };
            let made = match tokio::task::spawn_blocking(move || typeset(&report, paper)).await {
                Ok(made) => made.map_err(|error| error.to_string()),
                Err(panicked) => Err(panicked.to_string()),
            };
            let bytes = match made {
                Ok(bytes) => Bytes::from(bytes),
                Err(error) => {
                    tracing::error!(%error, "a report could not be typeset");
                    return html(&message(
                        500,
                        "The PDF could not be made",
                        "The report page prints to PDF from the browser meanwhile.".into(),
                    ));
                }
            };
            let typeset = Typeset { file, bytes };
            if let Ok(mut cache) = reports.pdfs.lock() {
                cache.put(key, typeset.clone());
            }
            typeset
        }
    };
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "application/pdf".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("inline; filename=\"{file}\""),
            ),
        ],
        bytes,
    )
        .into_response()
}
