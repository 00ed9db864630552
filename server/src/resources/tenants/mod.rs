//! `/d/{id}/tenants`: the newest revision's tenants (`app::pages::tenants`), and, with the edit
//! key, the form whose save makes the tenants it lists the design's next revision. What the form
//! sends is checked as every save is (the spec's rules, then the evaluation, which places the
//! tenants); a refusal shows the form again with every error, and nothing is stored.

use crate::resources::respond::{html, Answer, PageError};
use app::costs::{COMPUTES, WRITES};
use app::pages::document::{message, Page};
use app::store::{check, DesignHead, SaveError, Store};
use axum::extract::{Form, Path, State};
use axum::handler::Handler;
use axum::http::HeaderMap;
use axum::routing::get;
use axum::Router;
use engine::{DesignSpec, FieldError, Tenant};
use view::{read_form, tenants_page};

mod view;

/// Fields one form may send: a row of six for each tenant a design may have, each with a
/// checkbox per workload.
const MAX_FIELDS: usize = (engine::MAX_TENANTS + 1) * (6 + engine::MAX_WORKLOADS);

pub fn routes(store: Store) -> Router {
    Router::new()
        .route(
            "/d/{id}/tenants",
            get(show.layer(COMPUTES)).post(save.layer(WRITES)),
        )
        .with_state(store)
}

/// The tenants page of design `head` (see [`tenants_page`]), its newest revision `spec`
/// evaluated on its floor with its tenants' interference and cost and the page drawn, off the
/// async workers.
async fn page(
    head: DesignHead,
    spec: DesignSpec,
    rows: Vec<Tenant>,
    errors: Vec<FieldError>,
    editable: bool,
) -> Result<Page, PageError> {
    app::compute::run(move || {
        // Only what the tenants section reads: the failures and phases of the design's life
        // are not worked out here. The floor the evaluation laid is the one drawn.
        let placed = engine::evaluate_placed(&spec).ok().map(|mut placed| {
            let r = &mut placed.report;
            r.interference = engine::interference::interference(&spec, r);
            r.isolation_costs = engine::tenancy::isolation_cost(&spec, r);
            placed
        });
        tenants_page(&head, &spec, placed.as_ref(), &rows, &errors, editable)
    })
    .await
    .map_err(|_| {
        PageError::Page(message(
            500,
            "No evaluation",
            "The design could not be evaluated.".into(),
        ))
    })
}

async fn show(State(store): State<Store>, Path(id): Path<String>, headers: HeaderMap) -> Answer {
    let (_, head, spec, editable) =
        crate::resources::revisions::newest_for(&store, &id, &headers).await?;
    let rows = spec.tenants.clone();
    Ok(html(&page(head, spec, rows, Vec::new(), editable).await?))
}

/// Saves the newest revision with the tenants the form lists as the next one.
async fn save(
    State(store): State<Store>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Form(fields): Form<Vec<(String, String)>>,
) -> Answer {
    const TITLE: &str = "The tenants were not saved";
    let (design_id, head, spec, key) =
        crate::resources::revisions::newest_to_change(&store, &id, &headers, TITLE).await?;
    let refused = |status, reason| crate::resources::revisions::refused(TITLE, status, reason);
    if fields.len() > MAX_FIELDS {
        return Err(refused(
            413,
            format!(
                "The form sent {} fields, more than a design's tenants need; nothing was stored.",
                fields.len()
            ),
        ));
    }
    let mut next = spec.clone();
    // The form's tenants in place of the newest revision's, checked as every save is.
    let errors: Vec<FieldError> = match read_form(&fields) {
        Ok(tenants) => {
            next.tenants = tenants;
            match app::compute::run(move || check(Ok(next), "Tenants changed")).await {
                Ok(Ok(checked)) => {
                    return crate::resources::revisions::saved(
                        store.save_next(&design_id, &key, &checked).await,
                        TITLE,
                        format!("/d/{}/tenants", design_id.as_str()),
                    );
                }
                Ok(Err(SaveError::Invalid(errors))) => errors,
                Ok(Err(e)) => return Err(refused(422, format!("{e}; nothing was stored."))),
                Err(_) => {
                    return Err(refused(
                        500,
                        "The design could not be evaluated; nothing was stored.".into(),
                    ))
                }
            }
        }
        Err(errors) => errors,
    };
    // Shown again as sent, with every error; the newest revision stays as it was.
    let rows = read_form(&fields).unwrap_or_else(|_| spec.tenants.clone());
    let mut page = page(head, spec, rows, errors, true).await?;
    page.status = 422;
    Ok(html(&page))
}
