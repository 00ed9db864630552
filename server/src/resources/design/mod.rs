//! A saved design at its share link and each of its revisions, and a revision's spec and report
//! as JSON. A revision never changes, so its rendered page is kept in memory: the key names the
//! revision and the newest revision of its design, whose history the page lists.

use crate::resources::respond::{attachment, file_stem, html, Answer, PageError};
use crate::resources::revisions::{head_and_number, stored_revision};
use crate::work::cache::ByteCache;
use crate::work::evaluations::Evaluations;
use app::costs::COMPUTES;
use app::pages::document::{message, Page};
use app::store::{DesignId, Store};
use axum::extract::{Path, State};
use axum::handler::Handler;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use std::sync::Arc;
use view::{design_page, DesignView};

mod view;

/// Rendered revision pages kept, in bytes (a saved design's page is about 150 KB).
const CACHED_PAGE_BYTES: usize = 64 << 20;

type PageKey = (DesignId, u32, u32, DesignView);

#[derive(Clone)]
struct Pages {
    store: Store,
    cache: Arc<ByteCache<PageKey, Arc<Page>>>,
    evaluations: Evaluations,
}

impl Pages {
    fn new(store: Store, evaluations: Evaluations) -> Pages {
        Pages {
            store,
            cache: ByteCache::new(CACHED_PAGE_BYTES),
            evaluations,
        }
    }
}

/// A design at its share link, each revision, and a revision's spec and report.
pub fn routes(store: Store, evaluations: Evaluations) -> Router {
    Router::new()
        .route("/d/{id}", get(latest))
        .route("/d/{id}/r/{n}", get(revision))
        .route("/d/{id}/r/{n}/spec.json", get(spec_download))
        .route(
            "/d/{id}/r/{n}/report.json",
            get(report_download.layer(COMPUTES)),
        )
        .with_state(Pages::new(store, evaluations))
}

async fn latest(State(pages): State<Pages>, Path(id): Path<String>) -> Answer {
    design(&pages, &id, None).await
}

async fn revision(State(pages): State<Pages>, Path((id, n)): Path<(String, String)>) -> Answer {
    let n = crate::resources::revisions::revision_number(&n)?;
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
    let placed = pages
        .evaluations
        .of(&design_id, number, stored.spec.clone())
        .await
        .map_err(PageError::Page)?;
    // The page draws the whole dashboard: CPU work, kept off the async workers.
    let page = app::compute::run(move || {
        let placed = placed.as_deref().map_err(|why| &**why);
        design_page(&head, &stored, &history, kind, placed)
    })
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
    let name = format!(
        "{}-r{}.report.json",
        file_stem(&stored.spec.title),
        stored.number
    );
    // The revision's saved report (as the API answers it) on its floor: laying the floor and
    // writing the JSON are CPU work, kept off the async workers.
    let json = app::compute::run(move || {
        let report = stored.report_or_today()?.placed_on_floor(&stored.spec);
        Ok::<_, engine::SpecErrors>(serde_json::to_string_pretty(&report).unwrap_or_default())
    })
    .await
    .map_err(|_| {
        PageError::Page(message(
            500,
            "Something went wrong",
            "The report could not be written.".into(),
        ))
    })?
    .map_err(|errors| PageError::Page(message(422, "No report", errors.to_string())))?;
    Ok(download(json, name))
}
