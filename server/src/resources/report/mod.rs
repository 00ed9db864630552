//! `/d/{id}/r/{n}/report` and `/d/{id}/r/{n}/report.pdf`: the design report of a revision as
//! a print-ready page and as a PDF typeset on the server. A revision never changes, so both are
//! kept once made (bounded by bytes). A PDF is made by one job per revision and paper however
//! many ask for it at once; the job holds one of a few typesetting permits until Typst is done,
//! even if every request waiting for it has timed out or gone, so that at most
//! [`TYPESETTING_AT_ONCE`] PDFs are ever typeset together and memory stays bounded.

mod view;

use crate::public_url::PublicUrl;
use crate::resources::pdf::{typeset, Paper};
use crate::resources::respond::{disposition, file_stem, html, Answer, PageError};
use crate::resources::revisions::head_and_number;
use crate::work::cache::{ByteCache, Weighed};
use crate::work::evaluations::Evaluations;
use app::costs::COMPUTES;
use app::pages::document::{date, message, Page};
use app::report::{report_document, ReportDocument, Revision};
use app::store::{DesignId, Store};
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::handler::Handler;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{watch, Semaphore};
use view::{report_page, Downloads};

/// Reports typeset at once: one per core keeps the CPU busy without queueing memory.
pub const TYPESETTING_AT_ONCE: usize = 2;
/// PDFs waiting for a permit or being typeset; more distinct PDFs asked for at once get 503.
const PDF_JOBS_QUEUED: usize = 16;
/// Report pages kept, in bytes.
const PAGES_KEPT_BYTES: usize = 32 << 20;
/// PDFs kept, in bytes.
const PDFS_KEPT_BYTES: usize = 64 << 20;

/// A revision's report: design, revision, newest revision (the cover says "n of latest"), and
/// the as-built checks kept with the revision (only ever added, so their count tells whether the
/// report is still whole).
type Key = (DesignId, u32, u32, usize);
type PdfKey = (Key, Paper);

/// A PDF made, and the name it is downloaded under; its bytes are shared, not copied, by
/// every response that sends it.
#[derive(Clone)]
struct Typeset {
    file: String,
    bytes: Bytes,
}

impl Weighed for Typeset {
    fn bytes(&self) -> usize {
        self.bytes.len()
    }
}

/// What a PDF job ends with: the PDF, or the page that explains why there is none.
type Made = Result<Typeset, Page>;

/// How many PDFs are being typeset now, the most ever at once, and how many were typeset: for
/// the tests that hold the server to its limits.
pub struct TypesettingCounters {
    now: AtomicUsize,
    most: AtomicUsize,
    done: AtomicUsize,
}

pub static TYPESETTING: TypesettingCounters = TypesettingCounters {
    now: AtomicUsize::new(0),
    most: AtomicUsize::new(0),
    done: AtomicUsize::new(0),
};

impl TypesettingCounters {
    /// The most PDFs ever typeset at once by this process.
    pub fn most_at_once(&self) -> usize {
        self.most.load(Ordering::SeqCst)
    }

    /// PDFs typeset by this process.
    pub fn typeset(&self) -> usize {
        self.done.load(Ordering::SeqCst)
    }

    fn begin(&self) {
        let now = self.now.fetch_add(1, Ordering::SeqCst) + 1;
        self.most.fetch_max(now, Ordering::SeqCst);
    }

    fn end(&self) {
        self.now.fetch_sub(1, Ordering::SeqCst);
        self.done.fetch_add(1, Ordering::SeqCst);
    }
}

#[derive(Clone)]
pub struct Reports {
    store: Store,
    public_url: Option<PublicUrl>,
    pages: Arc<ByteCache<Key, Arc<Page>>>,
    pdfs: Arc<ByteCache<PdfKey, Typeset>>,
    /// PDFs being made, each watched by the requests that wait for it.
    jobs: Arc<Mutex<HashMap<PdfKey, watch::Receiver<Option<Made>>>>>,
    typesetting: Arc<Semaphore>,
    evaluations: Evaluations,
}

impl Reports {
    pub fn new(store: Store, public_url: Option<PublicUrl>, evaluations: Evaluations) -> Reports {
        Reports {
            store,
            public_url,
            evaluations,
            pages: ByteCache::new(PAGES_KEPT_BYTES),
            pdfs: ByteCache::new(PDFS_KEPT_BYTES),
            jobs: Arc::new(Mutex::new(HashMap::new())),
            typesetting: Arc::new(Semaphore::new(TYPESETTING_AT_ONCE)),
        }
    }
}

pub fn routes(store: Store, public_url: Option<PublicUrl>, evaluations: Evaluations) -> Router {
    Router::new()
        .route("/d/{id}/r/{n}/report", get(page.layer(COMPUTES)))
        .route("/d/{id}/r/{n}/report.pdf", get(pdf.layer(COMPUTES)))
        .with_state(Reports::new(store, public_url, evaluations))
}

/// The revision `n` of design `id`: the key its report is kept under. Reads only the design's
/// head and the count of its kept checks, so that a kept report costs two indexed reads.
async fn locate(reports: &Reports, id: &str, n: &str) -> Result<Key, PageError> {
    let n = crate::resources::revisions::revision_number(n)?;
    let (head, design_id, number) = head_and_number(&reports.store, id, Some(n))
        .await?
        .ok_or(PageError::NotFound)?;
    let kept = reports.store.check_count(&design_id, number).await?;
    Ok((design_id, number, head.latest_revision, kept))
}

/// The report of the revision `key` names: its stored spec evaluated by today's engine, with the
/// saved figures beside today's where they differ.
async fn document(reports: &Reports, key: &Key) -> Result<ReportDocument, PageError> {
    let (design_id, n, latest, _) = key;
    let stored = reports
        .store
        .revision(design_id, Some(*n))
        .await?
        .ok_or(PageError::NotFound)?;
    let asbuilt = reports.store.checks(design_id, *n).await?;
    let path = format!("/d/{}/r/{n}", design_id.as_str());
    let link = match &reports.public_url {
        Some(url) => format!("{}{path}", url.as_str()),
        None => path,
    };
    // Every part of the document comes from today's engine, which evaluates the revision on its
    // floor (once, kept for its page, sheets and files); the saved figures are shown beside
    // today's where they differ.
    let placed = reports
        .evaluations
        .of(design_id, *n, stored.spec.clone())
        .await
        .map_err(PageError::Page)?;
    let (n, latest) = (*n, *latest);
    // Drawing every chart is CPU work, kept off the async workers.
    app::compute::run(move || {
        let placed =
            placed.map_err(|why| PageError::Page(message(422, "No report", why.to_string())))?;
        let revision = Revision {
            number: n,
            latest,
            saved: date(stored.saved_at_ms),
            staleness: app::report::staleness(&stored, &placed.report),
            engine_version: stored.engine_version.clone(),
            link,
            asbuilt,
        };
        Ok(report_document(&stored.spec, &placed, &revision))
    })
    .await
    .map_err(|_| {
        PageError::Page(message(
            500,
            "No report",
            "The report could not be built.".into(),
        ))
    })?
}

async fn page(State(reports): State<Reports>, Path((id, n)): Path<(String, String)>) -> Answer {
    let key = locate(&reports, &id, &n).await?;
    if let Some(page) = reports.pages.get(&key) {
        return Ok(html(&page));
    }
    let report = document(&reports, &key).await?;
    let base = format!("/d/{}/r/{}", key.0.as_str(), key.1);
    let page = Arc::new(report_page(
        &report,
        &Downloads {
            pdf: format!("{base}/report.pdf"),
            bom_csv: format!("{base}/bom.csv"),
            cabling_csv: format!("{base}/cabling.csv"),
            handoff: format!("{base}/handoff"),
            design: base.clone(),
        },
    ));
    reports.pages.put(key, page.clone());
    Ok(html(&page))
}

#[derive(Deserialize)]
struct PdfQuery {
    paper: Option<String>,
}

/// The job that makes the PDF `key`: reads the revision, waits for a typesetting permit,
/// typesets on the blocking pool, keeps the result and tells every waiting request.
async fn make_pdf(reports: Reports, key: PdfKey, done: watch::Sender<Option<Made>>) {
    let made = async {
        let report = document(&reports, &key.0).await.map_err(PageError::page)?;
        let file = format!("{}-r{}.pdf", file_stem(&report.title), key.0 .1);
        let busy = || message(503, "Busy", "Try again in a moment.".into());
        let permit = reports
            .typesetting
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| busy())?;
        let paper = key.1;
        let typeset = tokio::task::spawn_blocking(move || {
            // The permit is held by the typesetting itself, not by any request.
            let _permit = permit;
            TYPESETTING.begin();
            let made = typeset(&report, paper);
            TYPESETTING.end();
            made
        })
        .await;
        match typeset {
            Ok(Ok(mut bytes)) => Ok(Typeset {
                file,
                // Kept at its length, whatever the writer allocated as it grew.
                bytes: {
                    bytes.shrink_to_fit();
                    Bytes::from(bytes)
                },
            }),
            Ok(Err(error)) => {
                tracing::error!(%error, "a report could not be typeset");
                Err(unmade())
            }
            Err(panicked) => {
                tracing::error!(%panicked, "typesetting a report panicked");
                Err(unmade())
            }
        }
    }
    .await;
    if let Ok(typeset) = &made {
        reports.pdfs.put(key.clone(), typeset.clone());
    }
    if let Ok(mut jobs) = reports.jobs.lock() {
        jobs.remove(&key);
    }
    let _ = done.send(Some(made));
}

fn unmade() -> Page {
    message(
        500,
        "The PDF could not be made",
        "The report page prints to PDF from the browser meanwhile.".into(),
    )
}

/// The job making the PDF `key`: the one already running, or a new one.
fn job(reports: &Reports, key: PdfKey) -> Result<watch::Receiver<Option<Made>>, Page> {
    let mut jobs = reports
        .jobs
        .lock()
        .map_err(|_| message(500, "Busy", "Try again in a moment.".into()))?;
    if let Some(waiting) = jobs.get(&key) {
        return Ok(waiting.clone());
    }
    if jobs.len() >= PDF_JOBS_QUEUED {
        return Err(message(
            503,
            "Busy",
            "Many reports are being typeset: try again in a moment.".into(),
        ));
    }
    let (done, waiting) = watch::channel(None);
    jobs.insert(key.clone(), waiting.clone());
    tokio::spawn(make_pdf(reports.clone(), key, done));
    Ok(waiting)
}

async fn pdf(
    State(reports): State<Reports>,
    Path((id, n)): Path<(String, String)>,
    Query(query): Query<PdfQuery>,
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
    let key = match locate(&reports, &id, &n).await {
        Ok(key) => (key, paper),
        Err(error) => return error.into_response(),
    };
    let made = match reports.pdfs.get(&key) {
        Some(typeset) => Ok(typeset),
        None => match job(&reports, key) {
            Ok(mut waiting) => match waiting.wait_for(Option::is_some).await {
                Ok(made) => made.clone().unwrap_or_else(|| Err(unmade())),
                Err(_) => Err(unmade()),
            },
            Err(page) => Err(page),
        },
    };
    match made {
        Ok(Typeset { file, bytes }) => (
            StatusCode::OK,
            [
                (header::CONTENT_TYPE, "application/pdf".to_string()),
                (header::CONTENT_DISPOSITION, disposition("inline", &file)),
            ],
            bytes,
        )
            .into_response(),
        Err(page) => {
            let mut response = html(&page);
            if page.status == 503 {
                response.headers_mut().insert(
                    header::RETRY_AFTER,
                    axum::http::HeaderValue::from_static("5"),
                );
            }
            response
        }
    }
}
