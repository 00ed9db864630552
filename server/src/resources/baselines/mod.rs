//! `/d/{id}/baselines`: a design's nccl-tests baselines, each checked against the design, and
//! the form (multipart: pasted text or an uploaded log) that adds one with the edit key. A
//! refused submission gets its page back with every reason, and nothing is stored.

use crate::resources::records::{check_label_and_day, today};
use crate::resources::respond::{html, Answer, PageError};
use app::costs::WRITES;
use app::ownership::key_for;
use app::pages::document::message;
use app::store::{AddOutcome, DesignId, NewBaseline, Store, StoreError, StoredBaseline};
use axum::extract::{Multipart, Path, State};
use axum::handler::Handler;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use engine::DesignSpec;
use std::collections::HashMap;
use view::{baselines_page, BaselineForm, ShownBaseline};

mod view;

pub fn routes(store: Store) -> Router {
    Router::new()
        .route("/d/{id}/baselines", get(show).post(add.layer(WRITES)))
        .with_state(store)
}

/// Every baseline of the design, checked against the revision it was measured against.
async fn shown(store: &Store, id: &DesignId) -> Result<Vec<ShownBaseline>, StoreError> {
    let baselines = store.baselines(id).await?;
    let mut specs: HashMap<u32, Option<DesignSpec>> = HashMap::new();
    let mut shown = Vec::with_capacity(baselines.len());
    for stored in baselines {
        if let std::collections::hash_map::Entry::Vacant(entry) = specs.entry(stored.revision) {
            let spec = store.revision(id, Some(stored.revision)).await?;
            entry.insert(spec.map(|r| r.spec));
        }
        let check = match specs.get(&stored.revision).and_then(Option::as_ref) {
            Some(spec) => checked(spec, &stored),
            None => Err(format!("revision {} is missing", stored.revision)),
        };
        shown.push(ShownBaseline { stored, check });
    }
    Ok(shown)
}

fn checked(
    spec: &DesignSpec,
    baseline: &StoredBaseline,
) -> Result<engine::baseline::BaselineCheck, String> {
    let run = engine::nccl_tests::parse(baseline.output.as_bytes())
        .map_err(|e| format!("nccl-tests output, {e}"))?;
    engine::baseline::check(spec, &baseline.fabric, &run, baseline.stated)
        .map_err(|e| e.to_string())
}

fn fabric_names(spec: &DesignSpec) -> Vec<String> {
    spec.fabrics.iter().map(|f| f.name.clone()).collect()
}

async fn show(State(store): State<Store>, Path(id): Path<String>, headers: HeaderMap) -> Answer {
    let (design_id, head, spec, editable) =
        crate::resources::revisions::newest_for(&store, &id, &headers).await?;
    let baselines = shown(&store, &design_id).await?;
    let fabrics = fabric_names(&spec);
    let form = BaselineForm {
        measured_on: today(),
        revision: head.latest_revision,
        fabric: fabrics.first().cloned().unwrap_or_default(),
        ..BaselineForm::default()
    };
    Ok(html(&baselines_page(
        &head,
        &fabrics,
        &baselines,
        editable,
        &form,
        &[],
    )))
}

fn not_yours() -> PageError {
    PageError::Page(message(
        403,
        "Not your design",
        "Only a browser holding the design's edit key adds baselines; nothing was stored.".into(),
    ))
}

/// The submitted form: its fields, and the uploaded file's text when one was sent.
async fn read_form(multipart: Multipart) -> Result<(BaselineForm, Vec<String>), String> {
    let mut form = BaselineForm::default();
    let mut revision = String::new();
    let mut upload: Option<Vec<u8>> = None;
    for (name, bytes) in crate::resources::multipart::fields(multipart).await? {
        let text = || crate::resources::multipart::text(&bytes);
        match name.as_str() {
            "label" => form.label = text().trim().to_string(),
            "measured_on" => form.measured_on = text().trim().to_string(),
            "revision" => revision = text().trim().to_string(),
            "fabric" => form.fabric = text(),
            "output" => form.output = text(),
            "ranks" => form.ranks = text().trim().to_string(),
            "nodes" => form.nodes = text().trim().to_string(),
            "file" if !bytes.is_empty() => upload = Some(bytes),
            _ => {}
        }
    }
    let mut errors = Vec::new();
    if let Some(bytes) = upload {
        // An uploaded log replaces the pasted text; a binary one is refused by the parser,
        // which names the line, so keep its bytes as they are only when they are text.
        match String::from_utf8(bytes) {
            Ok(text) => form.output = text,
            Err(e) => {
                let line = e.as_bytes()[..e.utf8_error().valid_up_to()]
                    .iter()
                    .filter(|b| **b == b'\n')
                    .count()
                    + 1;
                errors.push(format!(
                    "uploaded file, line {line}: is not text (binary data or an unknown encoding)"
                ));
            }
        }
    }
    for (field, typed) in [("ranks", &form.ranks), ("nodes", &form.nodes)] {
        if let Err(reason) = stated_count(typed) {
            errors.push(format!("{field}: {reason}"));
        }
    }
    form.revision = revision.parse().unwrap_or(0);
    if form.revision == 0 {
        errors.push(format!("revision: {revision:?} is not a revision number"));
    }
    Ok((form, errors))
}

/// A count the form states: empty for none, else a whole number of at least 1.
fn stated_count(typed: &str) -> Result<Option<u32>, String> {
    if typed.is_empty() {
        return Ok(None);
    }
    match typed.parse::<u32>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(Some(n)),
        Err(_) => Err(format!(
            "{typed:?} is not a whole number (leave it empty to read it from the output)"
        )),
    }
}

fn stated(form: &BaselineForm) -> engine::baseline::Stated {
    engine::baseline::Stated {
        ranks: stated_count(&form.ranks).ok().flatten(),
        nodes: stated_count(&form.nodes).ok().flatten(),
    }
}

async fn add(
    State(store): State<Store>,
    Path(id): Path<String>,
    headers: HeaderMap,
    multipart: Multipart,
) -> Answer {
    let (design_id, head, spec, editable) =
        crate::resources::revisions::newest_for(&store, &id, &headers).await?;
    let key = key_for(&headers, &design_id)
        .filter(|_| editable)
        .ok_or_else(not_yours)?;
    let (mut form, mut errors) = read_form(multipart)
        .await
        .map_err(|reason| PageError::Page(message(400, "The form could not be read", reason)))?;
    check_label_and_day(
        &form.label,
        false,
        &mut form.measured_on,
        "measured on",
        &mut errors,
    );
    // The fabric and the check are against the revision the run was measured on.
    let against = if form.revision == head.latest_revision {
        Some(spec.clone())
    } else if form.revision >= 1 && form.revision < head.latest_revision {
        store
            .revision(&design_id, Some(form.revision))
            .await?
            .map(|r| r.spec)
    } else {
        None
    };
    match &against {
        None if form.revision != 0 => errors.push(format!(
            "revision: the design has revisions 1 to {}, not {}",
            head.latest_revision, form.revision
        )),
        None => {}
        Some(against) => {
            if !against.fabrics.iter().any(|f| f.name == form.fabric) {
                errors.push(format!(
                    "fabric: revision {} has no fabric named {:?}",
                    form.revision, form.fabric
                ));
            } else {
                match engine::nccl_tests::parse(form.output.as_bytes()) {
                    Err(e) => errors.push(format!("nccl-tests output, {e}")),
                    Ok(run) => {
                        if let Err(e) =
                            engine::baseline::check(against, &form.fabric, &run, stated(&form))
                        {
                            errors.push(format!("nccl-tests output: {e}"));
                        }
                    }
                }
            }
        }
    }
    let fabrics = fabric_names(&spec);
    if !errors.is_empty() {
        // A log too large to read is not shown back.
        if form.output.len() > engine::nccl_tests::MAX_INPUT_BYTES {
            form.output.clear();
        }
        let baselines = shown(&store, &design_id).await?;
        return Ok(html(&baselines_page(
            &head, &fabrics, &baselines, true, &form, &errors,
        )));
    }
    let baseline = NewBaseline {
        revision: form.revision,
        fabric: &form.fabric,
        label: &form.label,
        measured_on: &form.measured_on,
        output: &form.output,
        stated: stated(&form),
    };
    match store.add_baseline(&design_id, &key, &baseline).await? {
        AddOutcome::Added(number) => Ok((
            StatusCode::SEE_OTHER,
            [(
                header::LOCATION,
                format!("/d/{}/baselines#baseline-{number}", design_id.as_str()),
            )],
        )
            .into_response()),
        AddOutcome::WrongKey => Err(not_yours()),
        AddOutcome::NoSuchDesign => Err(PageError::NotFound),
        AddOutcome::Full => Err(crate::resources::records::full("baselines")),
        AddOutcome::NoSuchRevision => Err(PageError::Page(message(
            422,
            "No such revision",
            format!(
                "The design has no revision {}; nothing was stored.",
                form.revision
            ),
        ))),
    }
}
