//! `/d/{id}/calibration`: the newest revision's calibration fitted to the design's baselines of
//! one fabric (`?fabric=`), with what it changes (`app::pages::calibration`), and, with the edit
//! key, the form that makes it the next revision. The fit reads every baseline of that fabric,
//! whichever revision it was measured against (with the counts it stated), and predicts with
//! the newest revision; applying it fits again on the server rather than trusting the form.

use crate::resources::records::today;
use crate::resources::respond::{html, Answer, PageError};
use app::costs::{COMPUTES, WRITES};
use app::pages::document::message;
use app::store::{check, Store, StoredBaseline};
use axum::extract::{Form, Path, Query, State};
use axum::handler::Handler;
use axum::http::HeaderMap;
use axum::routing::get;
use axum::Router;
use engine::DesignSpec;
use view::{calibration_page, Fitting};

mod view;

pub fn routes(store: Store) -> Router {
    Router::new()
        .route(
            "/d/{id}/calibration",
            get(show.layer(COMPUTES)).post(apply.layer(WRITES)),
        )
        .with_state(store)
}

#[derive(serde::Deserialize)]
struct Asked {
    fabric: Option<String>,
}

/// The fabrics of `spec` that have a baseline, in the spec's order.
fn fabrics_measured(spec: &DesignSpec, baselines: &[StoredBaseline]) -> Vec<String> {
    spec.fabrics
        .iter()
        .map(|f| f.name.clone())
        .filter(|name| baselines.iter().any(|b| b.fabric == *name))
        .collect()
}

/// The fit of `fabric` of `spec` to its `baselines`, with the design's report before and after.
pub(crate) fn fitting(spec: &DesignSpec, fabric: &str, baselines: &[StoredBaseline]) -> Fitting {
    // Oldest first: the drift reads them in the order they were measured.
    let mut mine: Vec<&StoredBaseline> = baselines.iter().filter(|b| b.fabric == fabric).collect();
    mine.sort_by(|a, b| (&a.measured_on, a.number).cmp(&(&b.measured_on, b.number)));
    let numbers: Vec<u32> = mine.iter().map(|b| b.number).collect();
    let measured: Vec<(u32, String, String)> = mine
        .iter()
        .map(|b| (b.number, b.measured_on.clone(), b.label.clone()))
        .collect();
    let before = engine::evaluate(spec).ok();
    let runs: Result<Vec<engine::nccl_tests::Run>, String> = mine
        .iter()
        .map(|b| {
            engine::nccl_tests::parse(b.output.as_bytes())
                .map_err(|e| format!("baseline #{}: nccl-tests output, {e}", b.number))
        })
        .collect();
    let (fit, drift) = match runs {
        Err(why) => (Err(why), None),
        Ok(runs) => {
            let read: Vec<engine::calibration_fit::Baseline> = runs
                .iter()
                .zip(&mine)
                .map(|(run, b)| engine::calibration_fit::Baseline {
                    run,
                    stated: b.stated,
                    algorithm: None,
                })
                .collect();
            (
                engine::calibration_fit::fit(spec, fabric, &read),
                Some(engine::calibration_fit::drift(spec, fabric, &read)),
            )
        }
    };
    let after = fit.as_ref().ok().and_then(|fit| {
        let applied = applied(spec, fit, &numbers);
        engine::evaluate(&applied).ok()
    });
    Fitting {
        fabric: fabric.to_string(),
        baselines: numbers,
        measured,
        drift,
        fit,
        before,
        after,
    }
}

/// `spec` with `fit` in place, fitted today to the baselines numbered `numbers`.
fn applied(spec: &DesignSpec, fit: &engine::calibration_fit::Fit, numbers: &[u32]) -> DesignSpec {
    let mut out = spec.clone();
    out.calibration = fit.applied_to(
        &spec.calibration,
        fit.provenance(numbers.to_vec(), &today()),
    );
    out
}

async fn show(
    State(store): State<Store>,
    Path(id): Path<String>,
    Query(asked): Query<Asked>,
    headers: HeaderMap,
) -> Answer {
    let (design_id, head, spec, editable) =
        crate::resources::revisions::newest_for(&store, &id, &headers).await?;
    let baselines = store.baselines(&design_id).await?;
    let fabrics = fabrics_measured(&spec, &baselines);
    let fabric = asked.fabric.filter(|f| fabrics.contains(f));
    let shown = match fabric {
        Some(fabric) => {
            let spec = spec.clone();
            Some(
                app::compute::run(move || fitting(&spec, &fabric, &baselines))
                    .await
                    .map_err(|_| unfitted())?,
            )
        }
        None => None,
    };
    Ok(html(&calibration_page(
        &head,
        &spec.calibration,
        &fabrics,
        shown.as_ref(),
        editable,
    )))
}

fn unfitted() -> PageError {
    PageError::Page(message(
        500,
        "No fit",
        "The calibration could not be fitted; nothing was changed.".into(),
    ))
}

#[derive(serde::Deserialize)]
struct ApplyForm {
    fabric: String,
}

/// Fits `fabric` again and saves the newest revision with the fit in place as the next one.
async fn apply(
    State(store): State<Store>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Form(form): Form<ApplyForm>,
) -> Answer {
    const TITLE: &str = "The calibration was not applied";
    let (design_id, _, spec, key) =
        crate::resources::revisions::newest_to_change(&store, &id, &headers, TITLE).await?;
    let refused = |status, reason| crate::resources::revisions::refused(TITLE, status, reason);
    let baselines = store.baselines(&design_id).await?;
    if !fabrics_measured(&spec, &baselines).contains(&form.fabric) {
        return Err(refused(
            422,
            format!(
                "fabric: the newest revision has no fabric {:?} with a baseline; nothing was stored.",
                form.fabric
            ),
        ));
    }
    let fabric = form.fabric.clone();
    let fitted = app::compute::run(move || {
        let f = fitting(&spec, &fabric, &baselines);
        f.fit.map(|fit| applied(&spec, &fit, &f.baselines))
    })
    .await
    .map_err(|_| unfitted())?;
    let next = fitted.map_err(|why| refused(422, format!("No fit: {why}; nothing was stored.")))?;
    let note = format!(
        "Calibration of fabric {} fitted to its baselines",
        form.fabric
    );
    let checked =
        check(Ok(next), &note).map_err(|e| refused(422, format!("{e}; nothing was stored.")))?;
    crate::resources::revisions::saved(
        store.save_next(&design_id, &key, &checked).await,
        TITLE,
        format!("/d/{}", design_id.as_str()),
    )
}
