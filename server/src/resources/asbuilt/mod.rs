//! `/d/{id}/r/{n}/asbuilt`: the as-built check of a revision. The form (multipart: pasted text
//! or an uploaded file) names the fabric and the tool; the output is parsed and matched with the
//! revision's cabling plan on the blocking pool. Anyone with the share link may check; the
//! holder of the edit key may keep a check with the revision (what it found, not the output it
//! read), and `/asbuilt/{check}` shows a kept one. A dump too large for the form is uploaded
//! gzip-compressed (a 100,000-GPU compute fabric's ibnetdiscover: 63 MB, 6 MB gzipped), and
//! checks of outputs larger than the form take their turn one at a time.

use crate::resources::records::{check_label_and_day, today};
use crate::resources::respond::{html, Answer, PageError};
use crate::resources::revisions::stored_revision;
use app::costs::{COMPUTES, WRITES};
use app::ownership::key_for;
use app::pages::document::message;
use app::store::{AddOutcome, DesignId, KeptFindings, NewCheck, Store, StoredRevision, Tool};
use axum::extract::{DefaultBodyLimit, Multipart, Path, State};
use axum::handler::Handler;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use engine::asbuilt::AsBuiltCheck;
use tower_http::limit::RequestBodyLimitLayer;
use view::{asbuilt_page, AsBuiltForm, AsBuiltPage};

mod view;

/// Largest form: `ibnetdiscover` of a 1,024-node, 8-rail fabric with room to spare, or the
/// gzip-compressed dump of a fabric of 500,000 cables.
pub const MAX_ASBUILT_BODY_BYTES: usize = 16 * 1024 * 1024;
/// Most cables of a fabric a check is made against: the check reads the whole dump (about 200
/// bytes a cable) and matches it cable by cable in memory.
pub const MAX_CHECKED_CABLES: u64 = 500_000;
/// Largest output an uploaded gzip file may decompress to: the ibnetdiscover of a fabric of
/// [`MAX_CHECKED_CABLES`] cables is about 100 MB.
pub const MAX_ASBUILT_OUTPUT_BYTES: usize = 128 * 1024 * 1024;
/// Checks of an output larger than the form, run one at a time: each holds some 300 MB while
/// it reads and matches the dump of a 100,000-GPU fabric.
static LARGE_CHECKS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(1);
/// Outputs larger than this are not shown back in the form.
const SHOWN_BACK_BYTES: usize = 256 * 1024;

pub fn routes(store: Store) -> Router {
    Router::new()
        .route("/d/{id}/r/{n}/asbuilt", get(form).post(check.layer(WRITES)))
        .route("/d/{id}/r/{n}/asbuilt/{check}", get(kept.layer(COMPUTES)))
        .with_state(store)
        // An uploaded dump may be larger than other forms, so that the parser can say what is
        // wrong with it rather than the server refusing it unread.
        .layer(DefaultBodyLimit::max(MAX_ASBUILT_BODY_BYTES))
        .layer(RequestBodyLimitLayer::new(MAX_ASBUILT_BODY_BYTES))
}

fn fabrics(spec: &engine::DesignSpec) -> Vec<String> {
    spec.fabrics.iter().map(|f| f.name.clone()).collect()
}

/// Whether this browser holds the key of design `id`.
async fn editable(store: &Store, id: &DesignId, headers: &HeaderMap) -> Result<bool, PageError> {
    Ok(match key_for(headers, id) {
        Some(key) => store.holds_key(id, &key).await?,
        None => false,
    })
}

/// The page of `stored` with its kept checks.
async fn page(
    store: &Store,
    (id, stored): &(DesignId, StoredRevision),
    headers: &HeaderMap,
    form: &AsBuiltForm,
    outcome: Option<Result<AsBuiltCheck, Vec<String>>>,
    showing: Option<u32>,
) -> Answer {
    let editable = editable(store, id, headers).await?;
    let kept = store.checks(id, stored.number).await?;
    let names = fabrics(&stored.spec);
    Ok(html(&asbuilt_page(
        &AsBuiltPage {
            id: id.as_str(),
            revision: stored.number,
            title: &stored.spec.title,
            fabrics: &names,
            editable,
            kept: &kept,
            showing: showing.and_then(|n| kept.iter().find(|c| c.number == n)),
        },
        form,
        outcome,
    )))
}

async fn form(
    State(store): State<Store>,
    Path((id, n)): Path<(String, String)>,
    headers: HeaderMap,
) -> Answer {
    let revision = stored_revision(&store, &id, &n).await?;
    let (_, stored) = &revision;
    let form = AsBuiltForm {
        fabric: stored
            .spec
            .fabrics
            .first()
            .map(|f| f.name.clone())
            .unwrap_or_default(),
        tool: Tool::Ibnetdiscover.key().into(),
        checked_on: today(),
        ..AsBuiltForm::default()
    };
    page(&store, &revision, &headers, &form, None, None).await
}

async fn read(multipart: Multipart) -> Result<AsBuiltForm, String> {
    let mut form = AsBuiltForm::default();
    let mut upload = None;
    for (name, bytes) in crate::resources::multipart::fields(multipart).await? {
        let text = || crate::resources::multipart::text(&bytes);
        match name.as_str() {
            "fabric" => form.fabric = text(),
            "tool" => form.tool = text(),
            "device" => form.device = text().trim().to_string(),
            "output" => form.output = text(),
            "keep" => form.keep = text() == "on",
            "label" => form.label = text().trim().to_string(),
            "checked_on" => form.checked_on = text().trim().to_string(),
            "file" if !bytes.is_empty() => upload = Some(bytes),
            _ => {}
        }
    }
    if let Some(bytes) = upload {
        // Decompressing is CPU work, kept off the async workers.
        let text = app::compute::run(move || decompressed(bytes))
            .await
            .map_err(|_| "uploaded file: could not be read".to_string())??;
        form.output = String::from_utf8(text).map_err(|_| {
            "uploaded file: is not text (binary data or an unknown encoding)".to_string()
        })?;
    }
    Ok(form)
}

/// An uploaded file's bytes, decompressed when they are gzip (RFC 1952: they start 1f 8b, which
/// no text does) up to [`MAX_ASBUILT_OUTPUT_BYTES`]; `Err` names the file and the reason.
fn decompressed(bytes: Vec<u8>) -> Result<Vec<u8>, String> {
    use std::io::Read;
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return Ok(bytes);
    }
    let most = MAX_ASBUILT_OUTPUT_BYTES as u64;
    let mut text = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes.as_slice())
        .take(most + 1)
        .read_to_end(&mut text)
        .map_err(|e| {
            format!("uploaded file: is gzip-compressed but could not be decompressed ({e})")
        })?;
    if text.len() as u64 > most {
        return Err(format!(
            "uploaded file: decompresses to more than {} MiB, more than the dump of a fabric of {} \
             cables, the most a check is made against",
            most >> 20,
            app::words::number(MAX_CHECKED_CABLES)
        ));
    }
    Ok(text)
}

/// Checks `output` of `tool` against fabric `fabric` of the revision, on the blocking pool.
async fn run(
    stored: &StoredRevision,
    fabric: &str,
    tool: Tool,
    device: &str,
    output: String,
) -> Result<AsBuiltCheck, Vec<String>> {
    if !stored.spec.fabrics.iter().any(|f| f.name == fabric) {
        return Err(vec![format!(
            "fabric: this revision has no fabric named {fabric:?}"
        )]);
    }
    if tool == Tool::Lldp && device.is_empty() {
        return Err(vec![
            "switch of the LLDP table: name the switch the table is from".into(),
        ]);
    }
    let report = stored.report_or_today();
    let output_len = output.len();
    // Hosts may name their adapters themselves (a DGX's `node-001 mlx5_0`).
    let adapters = engine::catalog::adapters_of(&stored.spec, fabric);
    let (fabric, device) = (fabric.to_string(), device.to_string());
    let job = move || -> Result<AsBuiltCheck, Vec<String>> {
        let report = report.map_err(|e| vec![e.to_string()])?;
        // The check holds every planned cable of the fabric and every link of the dump.
        let count: u64 = report
            .fabrics
            .iter()
            .filter(|f| f.name == fabric)
            .map(engine::FabricReport::cable_count)
            .sum();
        if count > MAX_CHECKED_CABLES {
            return Err(vec![format!(
                "fabric: {fabric} has {} cables; a check is made against a fabric of at most {}",
                app::words::number(count),
                app::words::number(MAX_CHECKED_CABLES)
            )]);
        }
        let mut links = match tool {
            Tool::Lldp => engine::asbuilt::lldp::parse(output.as_bytes(), &device),
            Tool::Ibnetdiscover => engine::asbuilt::ibnetdiscover::parse(output.as_bytes()),
        }
        .map_err(|e| vec![format!("the output, {e}")])?;
        engine::asbuilt::on_sheet(&mut links, &fabric, adapters);
        Ok(engine::asbuilt::check(&report, Some(&fabric), &links))
    };
    // Never closed, so a turn always comes.
    let _turn = if output_len > MAX_ASBUILT_BODY_BYTES {
        LARGE_CHECKS.acquire().await.ok()
    } else {
        None
    };
    app::compute::run(job)
        .await
        .unwrap_or_else(|_| Err(vec!["the check could not be run".into()]))
}

/// The reasons the check of `form` may not be kept, beyond the check itself.
fn keep_errors(form: &mut AsBuiltForm) -> Vec<String> {
    let mut errors = Vec::new();
    check_label_and_day(
        &form.label,
        true,
        &mut form.checked_on,
        "output taken on",
        &mut errors,
    );
    errors
}

fn not_yours() -> PageError {
    PageError::Page(message(
        403,
        "Not your design",
        "Only a browser holding the design's edit key keeps as-built checks; nothing was stored."
            .into(),
    ))
}

async fn check(
    State(store): State<Store>,
    Path((id, n)): Path<(String, String)>,
    headers: HeaderMap,
    multipart: Multipart,
) -> Answer {
    let revision = stored_revision(&store, &id, &n).await?;
    let (design_id, stored) = &revision;
    let mut form = match read(multipart).await {
        Ok(form) => form,
        Err(reason) => {
            return page(
                &store,
                &revision,
                &headers,
                &AsBuiltForm::default(),
                Some(Err(vec![reason])),
                None,
            )
            .await
        }
    };
    let key = key_for(&headers, design_id);
    if form.keep && key.is_none() {
        return Err(not_yours());
    }
    let mut errors = if form.keep {
        keep_errors(&mut form)
    } else {
        Vec::new()
    };
    let tool = Tool::from_key(&form.tool).unwrap_or(Tool::Ibnetdiscover);
    // The output is read once; a large one is not shown back.
    let output = std::mem::take(&mut form.output);
    if output.len() <= SHOWN_BACK_BYTES {
        form.output.clone_from(&output);
    }
    let outcome = match run(stored, &form.fabric, tool, &form.device, output).await {
        Ok(_) if !errors.is_empty() => Err(std::mem::take(&mut errors)),
        Err(mut reasons) => {
            reasons.append(&mut errors);
            Err(reasons)
        }
        Ok(check) => Ok(check),
    };
    if let (true, Some(key), Ok(found)) = (form.keep, &key, &outcome) {
        let new = NewCheck {
            revision: stored.number,
            fabric: &form.fabric,
            tool,
            device: if tool == Tool::Lldp { &form.device } else { "" },
            label: &form.label,
            checked_on: &form.checked_on,
            found: &found.clone().kept(),
        };
        return match store.add_check(design_id, key, &new).await? {
            AddOutcome::Added(number) => Ok((
                StatusCode::SEE_OTHER,
                [(
                    header::LOCATION,
                    format!(
                        "/d/{}/r/{}/asbuilt/{number}",
                        design_id.as_str(),
                        stored.number
                    ),
                )],
            )
                .into_response()),
            AddOutcome::WrongKey => Err(not_yours()),
            AddOutcome::NoSuchDesign | AddOutcome::NoSuchRevision => Err(PageError::NotFound),
            AddOutcome::Full => Err(crate::resources::records::full("as-built checks")),
        };
    }
    page(&store, &revision, &headers, &form, Some(outcome), None).await
}

/// A kept check: what it found, or for a check kept with its output, run again from it.
async fn kept(
    State(store): State<Store>,
    Path((id, n, number)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> Answer {
    let revision = stored_revision(&store, &id, &n).await?;
    let (design_id, stored) = &revision;
    let number = crate::resources::revisions::revision_number(&number)?;
    let found = store
        .checks(design_id, stored.number)
        .await?
        .into_iter()
        .find(|c| c.number == number)
        .ok_or(PageError::NotFound)?;
    let outcome = match store
        .kept_findings(design_id, number)
        .await?
        .ok_or(PageError::NotFound)?
    {
        KeptFindings::Found(found) => Ok(*found),
        KeptFindings::Output(output) => {
            run(stored, &found.fabric, found.tool, &found.device, output).await
        }
    };
    let form = AsBuiltForm {
        fabric: found.fabric.clone(),
        tool: found.tool.key().into(),
        device: found.device.clone(),
        checked_on: today(),
        ..AsBuiltForm::default()
    };
    page(
        &store,
        &revision,
        &headers,
        &form,
        Some(outcome),
        Some(number),
    )
    .await
}
