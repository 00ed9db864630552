//! The pages that are finished documents without scripts (a design at its share link, its
//! revisions, my designs, compare, import) and the downloads of a revision. A revision never
//! changes, so its rendered page is kept in memory: the key names the revision and the newest
//! revision of its design, whose history the page lists.

use crate::cache::ByteCache;
use crate::routes::DOCUMENT_POLICY;
use app::ownership::{held_keys, key_cookie};
use app::pages::claim::claim_page;
use app::pages::compare::{compare_page, parse_reference, Side};
use app::pages::design_view::{design_page, DesignView};
use app::pages::document::{not_found, unavailable, Page};
use app::pages::import::{created_page, import_page};
use app::pages::my_designs::my_designs_page;
use app::store::{DesignHead, DesignId, EditKey, SaveError, Sort, Store, StoreError};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Form, Router};
use serde::Deserialize;
use std::sync::Arc;

/// Rendered revision pages kept, in bytes (a saved design's page is about 150 KB).
const CACHED_PAGE_BYTES: usize = 64 << 20;

type PageKey = (DesignId, u32, u32, DesignView);

#[derive(Clone)]
pub struct Pages {
    pub(crate) store: Store,
    cache: Arc<ByteCache<PageKey, Arc<Page>>>,
}

impl Pages {
    pub fn new(store: Store) -> Pages {
        Pages {
            store,
            cache: ByteCache::new(CACHED_PAGE_BYTES),
        }
    }
}

/// The routes of these pages.
pub fn routes(pages: Pages) -> Router {
    Router::new()
        .route("/d/{id}", get(latest))
        .route("/d/{id}/r/{n}", get(revision))
        .route("/d/{id}/r/{n}/spec.json", get(spec_download))
        .route("/d/{id}/r/{n}/report.json", get(report_download))
        .route("/d/{id}/r/{n}/bom.csv", get(crate::exports::bom_csv))
        .route(
            "/d/{id}/r/{n}/cabling.csv",
            get(crate::exports::cabling_csv),
        )
        .route("/d/{id}/r/{n}/handoff", get(crate::handoff::list))
        .route("/d/{id}/r/{n}/handoff.zip", get(crate::handoff::zip))
        .route("/d/{id}/r/{n}/handoff/{*file}", get(crate::handoff::file))
        .route("/d/{id}/claim", get(claim_form).post(claim))
        .route("/designs", get(my_designs))
        .route("/sources", get(sources))
        .route("/compare", get(compare))
        .route("/import", get(import_form).post(import))
        .with_state(pages)
}

pub(crate) fn html(page: &Page) -> Response {
    (
        StatusCode::from_u16(page.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
        [
            (header::CONTENT_SECURITY_POLICY, DOCUMENT_POLICY),
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
        ],
        page.html.clone(),
    )
        .into_response()
}

/// A store failure: logged, and a page that says nothing was changed.
pub(crate) fn failed(error: StoreError) -> Response {
    tracing::error!(%error, "the design store failed");
    html(&unavailable())
}

async fn latest(State(pages): State<Pages>, Path(id): Path<String>) -> Response {
    design(&pages, &id, None).await
}

async fn revision(State(pages): State<Pages>, Path((id, n)): Path<(String, String)>) -> Response {
    match n.parse::<u32>() {
        Ok(n) => design(&pages, &id, Some(n)).await,
        Err(_) => html(&not_found()),
    }
}

/// The design `id` and its newest revision, or revision `n` of it; `None` when it does not exist.
pub(crate) async fn head_and_number(
    store: &Store,
    id: &str,
    n: Option<u32>,
) -> Result<Option<(DesignHead, DesignId, u32)>, StoreError> {
    let Some(design_id) = DesignId::parse(id) else {
        return Ok(None);
    };
    let Some(head) = store.design(&design_id).await? else {
        return Ok(None);
    };
    let number = n.unwrap_or(head.latest_revision);
    if number == 0 || number > head.latest_revision {
        return Ok(None);
    }
    Ok(Some((head, design_id, number)))
}

async fn design(pages: &Pages, id: &str, n: Option<u32>) -> Response {
    let (head, design_id, number) = match head_and_number(&pages.store, id, n).await {
        Ok(Some(found)) => found,
        Ok(None) => return html(&not_found()),
        Err(e) => return failed(e),
    };
    let kind = if n.is_some() {
        DesignView::Revision
    } else {
        DesignView::Latest
    };
    let key = (design_id.clone(), number, head.latest_revision, kind);
    if let Some(page) = pages.cache.get(&key) {
        return html(&page);
    }
    let (stored, history) = match tokio::try_join!(
        pages.store.revision(&design_id, Some(number)),
        pages.store.revisions(&design_id)
    ) {
        Ok((Some(stored), history)) => (stored, history),
        Ok((None, _)) => return html(&not_found()),
        Err(e) => return failed(e),
    };
    // The page draws the whole dashboard: CPU work, kept off the async workers.
    let page = tokio::task::spawn_blocking(move || design_page(&head, &stored, &history, kind))
        .await
        .map(Arc::new);
    let Ok(page) = page else {
        return html(&app::pages::document::message(
            500,
            "Something went wrong",
            "The design's page could not be drawn.".into(),
        ));
    };
    pages.cache.put(key, page.clone());
    html(&page)
}

/// A file name from a title: letters and digits, the rest as dashes.
pub(crate) fn file_stem(title: &str) -> String {
    let stem: String = title
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let stem = stem
        .split('-')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    if stem.is_empty() {
        "design".into()
    } else {
        stem.chars().take(60).collect()
    }
}

fn download(json: String, file: String) -> Response {
    attachment("application/json", json, file)
}

/// `body` as a file to save, named `file`.
pub(crate) fn attachment(content_type: &str, body: String, file: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file}\""),
            ),
        ],
        body,
    )
        .into_response()
}

pub(crate) async fn stored_revision(
    pages: &Pages,
    id: &str,
    n: &str,
) -> Result<app::store::StoredRevision, Response> {
    let (Some(design_id), Ok(n)) = (DesignId::parse(id), n.parse::<u32>()) else {
        return Err(html(&not_found()));
    };
    match pages.store.revision(&design_id, Some(n)).await {
        Ok(Some(stored)) => Ok(stored),
        Ok(None) => Err(html(&not_found())),
        Err(e) => Err(failed(e)),
    }
}

async fn spec_download(
    State(pages): State<Pages>,
    Path((id, n)): Path<(String, String)>,
) -> Response {
    match stored_revision(&pages, &id, &n).await {
        Ok(stored) => download(
            stored.spec.to_json(),
            format!(
                "{}-r{}.spec.json",
                file_stem(&stored.spec.title),
                stored.number
            ),
        ),
        Err(response) => response,
    }
}

async fn report_download(
    State(pages): State<Pages>,
    Path((id, n)): Path<(String, String)>,
) -> Response {
    let stored = match stored_revision(&pages, &id, &n).await {
        Ok(stored) => stored,
        Err(response) => return response,
    };
    let report = crate::api::report_of(&stored);
    let json = match report {
        Ok(report) => serde_json::to_string_pretty(&report).unwrap_or_default(),
        Err(errors) => {
            return html(&app::pages::document::message(
                422,
                "No report",
                errors.to_string(),
            ))
        }
    };
    download(
        json,
        format!(
            "{}-r{}.report.json",
            file_stem(&stored.spec.title),
            stored.number
        ),
    )
}

#[derive(Deserialize)]
struct ClaimForm {
    key: Option<String>,
}

/// The design `id` and `key` when `key` is its edit key; otherwise the page to answer with.
async fn check_claim(
    pages: &Pages,
    id: &str,
    key: Option<&str>,
) -> Result<(DesignId, EditKey, DesignHead), Response> {
    let Some(design_id) = DesignId::parse(id) else {
        return Err(html(&not_found()));
    };
    let head = match pages.store.design(&design_id).await {
        Ok(Some(head)) => head,
        Ok(None) => return Err(html(&not_found())),
        Err(e) => return Err(failed(e)),
    };
    let key = key.and_then(EditKey::parse);
    let held = match &key {
        Some(key) => pages.store.holds_key(&design_id, key).await,
        None => Ok(false),
    };
    match (held, key) {
        (Ok(true), Some(key)) => Ok((design_id, key, head)),
        (Err(e), _) => Err(failed(e)),
        _ => Err(html(&app::pages::document::message(
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
    State(pages): State<Pages>,
    Path(id): Path<String>,
    Query(query): Query<ClaimForm>,
) -> Response {
    match check_claim(&pages, &id, query.key.as_deref()).await {
        Ok((design_id, key, head)) => html(&claim_page(&design_id, &key, &head.title)),
        Err(response) => response,
    }
}

/// Confirms the edit link: gives this browser the key and opens the design for editing.
async fn claim(
    State(pages): State<Pages>,
    Path(id): Path<String>,
    Form(form): Form<ClaimForm>,
) -> Response {
    match check_claim(&pages, &id, form.key.as_deref()).await {
        Ok((design_id, key, _)) => (
            StatusCode::SEE_OTHER,
            [
                (header::LOCATION, format!("/d/{}/edit", design_id.as_str())),
                (header::SET_COOKIE, key_cookie(&design_id, &key)),
            ],
        )
            .into_response(),
        Err(response) => response,
    }
}

#[derive(Deserialize)]
struct ListQuery {
    q: Option<String>,
    sort: Option<String>,
}

async fn sources() -> Response {
    html(&app::pages::sources::sources_page())
}

async fn my_designs(
    State(pages): State<Pages>,
    headers: HeaderMap,
    Query(query): Query<ListQuery>,
) -> Response {
    let keys = held_keys(&headers);
    let search = query.q.unwrap_or_default();
    let sort = Sort::parse(query.sort.as_deref().unwrap_or_default());
    match pages.store.owned_designs(&keys, &search, sort).await {
        Ok(listing) => html(&my_designs_page(&listing, &search, sort, keys.len())),
        Err(e) => failed(e),
    }
}

#[derive(Deserialize)]
struct CompareQuery {
    a: Option<String>,
    b: Option<String>,
}

async fn compare(State(pages): State<Pages>, Query(query): Query<CompareQuery>) -> Response {
    let inputs = [query.a.unwrap_or_default(), query.b.unwrap_or_default()];
    let mut errors = vec![];
    let mut sides = vec![];
    for (name, text) in ["A", "B"].iter().zip(&inputs) {
        if text.trim().is_empty() {
            sides.push(None);
            continue;
        }
        let found = match parse_reference(text) {
            Some((id, n)) => pages.store.revision(&id, n).await,
            None => Ok(None),
        };
        match found {
            Ok(Some(revision)) => {
                let report = engine::evaluate(&revision.spec);
                sides.push(Some(Side {
                    reference: text.clone(),
                    revision,
                    report,
                }));
            }
            Ok(None) => {
                errors.push(format!(
                    "Design {name}: no design or revision at “{}”.",
                    text.trim()
                ));
                sides.push(None);
            }
            Err(e) => return failed(e),
        }
    }
    html(&compare_page(
        sides[0].as_ref(),
        sides[1].as_ref(),
        [&inputs[0], &inputs[1]],
        &errors,
    ))
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
async fn import(State(pages): State<Pages>, Form(form): Form<ImportForm>) -> Response {
    let note = form.note.unwrap_or_default();
    let checked = match app::store::check(engine::DesignSpec::from_json(&form.spec), &note) {
        Ok(checked) => checked,
        Err(SaveError::Invalid(errors)) => return html(&import_page(&form.spec, &errors)),
        Err(other) => return failed_save(other),
    };
    match pages.store.save_new(&checked).await {
        Ok((id, key)) => {
            let mut response = html(&created_page(&id, &key, &checked.spec.title));
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
        SaveError::Store(e) => failed(e),
        other => {
            tracing::error!(%other, "an import could not be saved");
            html(&unavailable())
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn file_names_keep_letters_and_digits() {
        assert_eq!(
            super::file_stem("70B training / 1,024 GPUs"),
            "70b-training-1-024-gpus"
        );
        assert_eq!(super::file_stem("<script>"), "script");
        assert_eq!(super::file_stem("日本"), "design");
    }
}
