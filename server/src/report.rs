//! `/d/{id}/r/{n}/report` and `/d/{id}/r/{n}/report.pdf`: the design report of a revision as
//! a print-ready page and as a PDF typeset on the server. A revision never changes, so both are
//! kept once made; PDFs are typeset on the blocking pool, at most a few at once, so that the
//! rest of the server keeps answering and memory stays bounded.

use crate::pages::{failed, html};
use crate::pdf::{typeset, Paper};
use app::pages::document::{date, message, not_found, Page};
use app::report::html::{report_page, Downloads};
use app::report::{report_document, ReportDocument, Revision};
use app::store::{DesignId, Store};
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
type PdfCache = LruCache<(Key, Paper), Arc<Vec<u8>>>;

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

/// The stored revision a report is of, and the key it is kept under.
struct Found {
    key: Key,
    stored: app::store::StoredRevision,
}

/// Revision `n` of design `id` as `host` shows it, or the response saying why there is none.
async fn find(reports: &Reports, id: &str, n: &str, host: String) -> Result<Found, Response> {
    let (Some(design_id), Ok(n)) = (DesignId::parse(id), n.parse::<u32>()) else {
        return Err(html(&not_found()));
    };
    match tokio::try_join!(
        reports.store.design(&design_id),
        reports.store.revision(&design_id, Some(n))
    ) {
        Ok((Some(head), Some(stored))) => Ok(Found {
            key: (design_id, n, head.latest_revision, host),
            stored,
        }),
        Ok(_) => Err(html(&not_found())),
        Err(e) => Err(failed(e)),
    }
}

/// The report of a found revision, built from its stored spec and report; `Err` says why
/// today's engine cannot give one.
fn document(found: &Found) -> Result<ReportDocument, String> {
    let report = crate::api::report_of(&found.stored).map_err(|errors| errors.to_string())?;
    let (design_id, n, latest, host) = &found.key;
    let path = format!("/d/{}/r/{n}", design_id.as_str());
    let link = if host.is_empty() {
        path
    } else {
        format!("http://{host}{path}")
    };
    let revision = Revision {
        number: *n,
        latest: *latest,
        saved: date(found.stored.saved_at_ms),
        engine_version: &found.stored.engine_version,
        link,
    };
    Ok(report_document(&found.stored.spec, &report, &revision))
}

async fn page(
    State(reports): State<Reports>,
    Path((id, n)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let found = match find(&reports, &id, &n, host(&headers)).await {
        Ok(found) => found,
        Err(response) => return response,
    };
    let key = found.key.clone();
    if let Some(page) = reports
        .pages
        .lock()
        .ok()
        .and_then(|mut c| c.get(&key).cloned())
    {
        return html(&page);
    }
    let report = match document(&found) {
        Ok(report) => report,
        Err(reason) => return html(&message(422, "No report", reason)),
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
    let found = match find(&reports, &id, &n, host(&headers)).await {
        Ok(found) => found,
        Err(response) => return response,
    };
    let file = format!(
        "{}-r{}.pdf",
        crate::pages::file_stem(&found.stored.spec.title),
        found.key.1
    );
    let cache_key = (found.key.clone(), paper);
    let cached = reports
        .pdfs
        .lock()
        .ok()
        .and_then(|mut c| c.get(&cache_key).cloned());
    let bytes = match cached {
        Some(bytes) => bytes,
        None => {
            let report = match document(&found) {
                Ok(report) => report,
                Err(reason) => return html(&message(422, "No report", reason)),
            };
            let Ok(_permit) = reports.typesetting.acquire().await else {
                return html(&message(503, "Busy", "Try again in a moment.".into()));
            };
            match tokio::task::spawn_blocking(move || typeset(&report, paper)).await {
                Ok(Ok(bytes)) => {
                    let bytes = Arc::new(bytes);
                    if let Ok(mut cache) = reports.pdfs.lock() {
                        cache.put(cache_key, bytes.clone());
                    }
                    bytes
                }
                Ok(Err(error)) => {
                    tracing::error!(%error, "a report could not be typeset");
                    return html(&message(
                        500,
                        "The PDF could not be made",
                        "The report page prints to PDF from the browser meanwhile.".into(),
                    ));
                }
                Err(error) => {
                    tracing::error!(%error, "typesetting a report panicked");
                    return html(&message(
                        500,
                        "The PDF could not be made",
                        "The report page prints to PDF from the browser meanwhile.".into(),
                    ));
                }
            }
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
        bytes.as_ref().clone(),
    )
        .into_response()
}
