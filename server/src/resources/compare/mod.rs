//! `/compare`: two designs or revisions side by side, and `/compare/bill.csv`, what changes in
//! the bill to order from the one to the other.

use crate::resources::respond::{html, Answer, PageError};
use app::costs::COMPUTES;
use app::pages::document::message;
use app::store::{Store, StoredRevision};
use axum::extract::{Query, State};
use axum::handler::Handler;
use axum::routing::get;
use axum::Router;
use serde::Deserialize;
use view::{compare_page, parse_reference, Side};

mod inputs;
mod view;

pub fn routes(store: Store) -> Router {
    Router::new()
        .route("/compare", get(compare.layer(COMPUTES)))
        .route("/compare/bill.csv", get(compare_bill.layer(COMPUTES)))
        .with_state(store)
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

async fn look_up(store: &Store, inputs: &[String; 2]) -> Result<Found, PageError> {
    let mut errors = vec![];
    let mut found = vec![];
    for (name, text) in ["A", "B"].iter().zip(inputs) {
        if text.trim().is_empty() {
            found.push(None);
            continue;
        }
        let revision = match parse_reference(text) {
            Some((id, n)) => store.revision(&id, n).await?,
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
async fn compare_bill(State(store): State<Store>, Query(query): Query<CompareQuery>) -> Answer {
    let inputs = [query.a.unwrap_or_default(), query.b.unwrap_or_default()];
    let (found, errors) = look_up(&store, &inputs).await?;
    let [Some((_, a)), Some((_, b))] = <[_; 2]>::try_from(found).unwrap_or([None, None]) else {
        let why = if errors.is_empty() {
            "Name two designs or revisions, as the compare page does (a=…&b=…).".to_string()
        } else {
            errors.join(" ")
        };
        return Err(PageError::Page(message(404, "Nothing to compare", why)));
    };
    let made = app::compute::run(move || {
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

async fn compare(State(store): State<Store>, Query(query): Query<CompareQuery>) -> Answer {
    let inputs = [query.a.unwrap_or_default(), query.b.unwrap_or_default()];
    let (found, errors) = look_up(&store, &inputs).await?;
    let page = app::compute::run(move || {
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
