//! The pages that are finished documents without scripts (a design at its share link, its
//! revisions, my designs, compare, import) and the downloads of a revision. A revision never
//! changes, so its rendered page is kept in memory: the key names the revision and the newest
//! revision of its design, whose history the page lists.

use crate::resources::respond::{attachment, file_stem, html, Answer, PageError};
use crate::resources::revisions::{head_and_number, stored_revision};
use crate::work::cache::ByteCache;
use app::costs::{COMPUTES, WRITES};
use app::ownership::{held_keys, key_cookie};
use app::pages::claim::claim_page;
use app::pages::compare::{compare_page, parse_reference, Side};
use app::pages::design_view::{design_page, DesignView};
use app::pages::document::{message, unavailable, Page};
use app::pages::import::{created_page, import_page};
use app::pages::my_designs::my_designs_page;
use app::store::{DesignHead, DesignId, EditKey, SaveError, Sort, Store, StoredRevision};
use axum::extract::{Path, Query, State};
use axum::handler::Handler;
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
    store: Store,
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
        .route("/d/{id}/claim", get(claim_form).post(claim.layer(WRITES)))
        .route("/designs", get(my_designs))
        .route("/sources", get(sources))
        .route("/compare", get(compare.layer(COMPUTES)))
        .route("/compare/bill.csv", get(compare_bill.layer(COMPUTES)))
        .route("/import", get(import_form).post(import.layer(WRITES)))
        .with_state(pages)
}

async fn latest(State(pages): State<Pages>, Path(id): Path<String>) -> Answer {
    design(&pages, &id, None).await
}

async fn revision(State(pages): State<Pages>, Path((id, n)): Path<(String, String)>) -> Answer {
    let n = n.parse::<u32>().map_err(|_| PageError::NotFound)?;
    design(&pages, &id, Some(n)).await
}

async fn design(pages: &Pages, id: &str, n: Option<u32>) -> Answer {
    let (head, design_id, number) = head_and_number(&pages.store, id, n)
        .await?
        .ok_or(PageError::NotFound)?;
    let kind = if n.is_some() {
        DesignView::Revision
    } else {
        DesignView::Latest
    };
    let key = (design_id.clone(), number, head.latest_revision, kind);
    if let Some(page) = pages.cache.get(&key) {
        return Ok(html(&page));
    }
    let (stored, history) = tokio::try_join!(
        pages.store.revision(&design_id, Some(number)),
        pages.store.revisions(&design_id)
    )?;
    let stored = stored.ok_or(PageError::NotFound)?;
    // The page draws the whole dashboard: CPU work, kept off the async workers.
    let page = tokio::task::spawn_blocking(move || design_page(&head, &stored, &history, kind))
        .await
        .map(Arc::new);
    let Ok(page) = page else {
        return Err(PageError::Page(message(
            500,
            "Something went wrong",
            "The design's page could not be drawn.".into(),
        )));
    };
    pages.cache.put(key, page.clone());
    Ok(html(&page))
}

fn download(json: String, file: String) -> Response {
    attachment("application/json", json, &file)
}

async fn spec_download(
    State(pages): State<Pages>,
    Path((id, n)): Path<(String, String)>,
) -> Answer {
    let (_, stored) = stored_revision(&pages.store, &id, &n).await?;
    Ok(download(
        stored.spec.to_json(),
        format!(
            "{}-r{}.spec.json",
            file_stem(&stored.spec.title),
            stored.number
        ),
    ))
}

async fn report_download(
    State(pages): State<Pages>,
    Path((id, n)): Path<(String, String)>,
) -> Answer {
    let (_, stored) = stored_revision(&pages.store, &id, &n).await?;
    let report = stored
        .report_or_today()
        .map_err(|errors| PageError::Page(message(422, "No report", errors.to_string())))?
        .placed_on_floor(&stored.spec);
    Ok(download(
        serde_json::to_string_pretty(&report).unwrap_or_default(),
        format!(
            "{}-r{}.report.json",
            file_stem(&stored.spec.title),
            stored.number
        ),
    ))
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
) -> Result<(DesignId, EditKey, DesignHead), PageError> {
    let (design_id, head) = crate::resources::revisions::design_head(&pages.store, id)
        .await?
        .ok_or(PageError::NotFound)?;
    let key = key.and_then(EditKey::parse);
    let held = match &key {
        Some(key) => pages.store.holds_key(&design_id, key).await?,
        None => false,
    };
    match key {
        Some(key) if held => Ok((design_id, key, head)),
        _ => Err(PageError::Page(message(
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
) -> Answer {
    let (design_id, key, head) = check_claim(&pages, &id, query.key.as_deref()).await?;
    Ok(html(&claim_page(&design_id, &key, &head.title)))
}

/// Confirms the edit link: gives this browser the key and opens the design for editing.
async fn claim(
    State(pages): State<Pages>,
    Path(id): Path<String>,
    Form(form): Form<ClaimForm>,
) -> Answer {
    let (design_id, key, _) = check_claim(&pages, &id, form.key.as_deref()).await?;
    Ok((
        StatusCode::SEE_OTHER,
        [
            (header::LOCATION, format!("/d/{}/edit", design_id.as_str())),
            (header::SET_COOKIE, key_cookie(&design_id, &key)),
        ],
    )
        .into_response())
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
) -> Answer {
    let keys = held_keys(&headers);
    let search = query.q.unwrap_or_default();
    let sort = Sort::parse(query.sort.as_deref().unwrap_or_default());
    let listing = pages.store.owned_designs(&keys, &search, sort).await?;
    Ok(html(&my_designs_page(&listing, &search, sort, keys.len())))
}

#[derive(Deserialize)]
struct CompareQuery {
    a: Option<String>,
    b: Option<String>,
}

/// Two designs or revisions side by side. Both are evaluated and the page drawn on the
/// blocking pool: CPU work, kept off the async workers.
/// The revisions the compare form's references name, each with its reference, and what was
/// wrong with each that names none.
type Found = (Vec<Option<(String, StoredRevision)>>, Vec<String>);

async fn look_up(pages: &Pages, inputs: &[String; 2]) -> Result<Found, PageError> {
    let mut errors = vec![];
    let mut found = vec![];
    for (name, text) in ["A", "B"].iter().zip(inputs) {
        if text.trim().is_empty() {
            found.push(None);
            continue;
        }
        let revision = match parse_reference(text) {
            Some((id, n)) => pages.store.revision(&id, n).await?,
            None => None,
        };
        if revision.is_none() {
            errors.push(format!(
                "Design {name}: no design or revision at “{}”.",
                text.trim()
            ));
        }
        found.push(revision.map(|r| (text.clone(), r)));
    }
    Ok((found, errors))
}

/// What changes in the bill to order from design A to design B, as a spreadsheet.
async fn compare_bill(State(pages): State<Pages>, Query(query): Query<CompareQuery>) -> Answer {
    let inputs = [query.a.unwrap_or_default(), query.b.unwrap_or_default()];
    let (found, errors) = look_up(&pages, &inputs).await?;
    let [Some((_, a)), Some((_, b))] = <[_; 2]>::try_from(found).unwrap_or([None, None]) else {
        let why = if errors.is_empty() {
            "Name two designs or revisions, as the compare page does (a=…&b=…).".to_string()
        } else {
            errors.join(" ")
        };
        return Err(PageError::Page(message(404, "Nothing to compare", why)));
    };
    let made = tokio::task::spawn_blocking(move || {
        let before = engine::evaluate(&a.spec).map_err(|e| format!("Design A: {e}"))?;
        let after = engine::evaluate(&b.spec).map_err(|e| format!("Design B: {e}"))?;
        Ok::<_, String>(crate::resources::exports::bill_difference(
            &engine::bill_diff::bill_diff(&before, &after),
        ))
    });
    Ok(match made.await {
        Ok(Ok(csv)) => crate::resources::exports::csv_response(csv, "compare-bill.csv".into()),
        Ok(Err(reason)) => html(&message(422, "No bill to compare", reason)),
        Err(_) => html(&message(
            500,
            "Something went wrong",
            "The bills could not be compared.".into(),
        )),
    })
}

async fn compare(State(pages): State<Pages>, Query(query): Query<CompareQuery>) -> Answer {
    let inputs = [query.a.unwrap_or_default(), query.b.unwrap_or_default()];
    let (found, errors) = look_up(&pages, &inputs).await?;
    let page = tokio::task::spawn_blocking(move || {
        let sides: Vec<Option<Side>> = found
            .into_iter()
            .map(|side| {
                side.map(|(reference, revision)| Side {
                    report: engine::evaluate(&revision.spec),
                    reference,
                    revision,
                })
            })
            .collect();
        compare_page(
            sides[0].as_ref(),
            sides[1].as_ref(),
            [&inputs[0], &inputs[1]],
            &errors,
        )
    })
    .await
    .map_err(|_| {
        PageError::Page(message(
            500,
            "Something went wrong",
            "The comparison could not be drawn.".into(),
        ))
    })?;
    Ok(html(&page))
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
