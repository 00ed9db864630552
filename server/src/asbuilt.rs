//! `/d/{id}/r/{n}/asbuilt`: the as-built check of a revision. The form (multipart: pasted text
//! or an uploaded file) names the fabric and the tool; the output is parsed and matched with the
//! revision's cabling plan on the blocking pool. Nothing is stored, so anyone with the share
//! link may check.

use crate::pages::{html, stored_revision, Pages};
use app::pages::asbuilt::{asbuilt_page, AsBuiltForm};
use axum::extract::{Multipart, Path, State};
use axum::response::Response;

/// Largest form: `ibnetdiscover` of a 1,024-node, 8-rail fabric with room to spare.
pub const MAX_ASBUILT_BODY_BYTES: usize = 16 * 1024 * 1024;

fn fabrics(spec: &engine::DesignSpec) -> Vec<String> {
    spec.fabrics.iter().map(|f| f.name.clone()).collect()
}

pub async fn form(State(pages): State<Pages>, Path((id, n)): Path<(String, String)>) -> Response {
    let stored = match stored_revision(&pages, &id, &n).await {
        Ok(stored) => stored,
        Err(response) => return response,
    };
    let names = fabrics(&stored.spec);
    let form = AsBuiltForm {
        fabric: names.first().cloned().unwrap_or_default(),
        tool: "ibnetdiscover".into(),
        ..AsBuiltForm::default()
    };
    html(&asbuilt_page(
        &id,
        stored.number,
        &stored.spec.title,
        &names,
        &form,
        None,
    ))
}

async fn read(multipart: Multipart) -> Result<AsBuiltForm, String> {
    let mut form = AsBuiltForm::default();
    let mut upload = None;
    for (name, bytes) in crate::multipart::fields(multipart).await? {
        let text = || crate::multipart::text(&bytes);
        match name.as_str() {
            "fabric" => form.fabric = text(),
            "tool" => form.tool = text(),
            "device" => form.device = text().trim().to_string(),
            "output" => form.output = text(),
            "file" if !bytes.is_empty() => upload = Some(bytes),
            _ => {}
        }
    }
    if let Some(bytes) = upload {
        form.output = String::from_utf8(bytes).map_err(|_| {
            "uploaded file: is not text (binary data or an unknown encoding)".to_string()
        })?;
    }
    Ok(form)
}

pub async fn check(
    State(pages): State<Pages>,
    Path((id, n)): Path<(String, String)>,
    multipart: Multipart,
) -> Response {
    let stored = match stored_revision(&pages, &id, &n).await {
        Ok(stored) => stored,
        Err(response) => return response,
    };
    let names = fabrics(&stored.spec);
    let (form, outcome) = match read(multipart).await {
        Err(reason) => (AsBuiltForm::default(), Err(vec![reason])),
        Ok(form) => {
            let report = crate::api::report_of(&stored);
            let job = {
                let form = form.clone();
                let names = names.clone();
                move || -> Result<engine::asbuilt::AsBuiltCheck, Vec<String>> {
                    let report = report.map_err(|e| vec![e.to_string()])?;
                    if !names.contains(&form.fabric) {
                        return Err(vec![format!(
                            "fabric: this revision has no fabric named {:?}",
                            form.fabric
                        )]);
                    }
                    let links = match form.tool.as_str() {
                        "lldp" if form.device.is_empty() => {
                            return Err(vec![
                                "switch of the LLDP table: name the switch the table is from"
                                    .into(),
                            ])
                        }
                        "lldp" => {
                            engine::asbuilt::lldp::parse(form.output.as_bytes(), &form.device)
                        }
                        _ => engine::asbuilt::ibnetdiscover::parse(form.output.as_bytes()),
                    }
                    .map_err(|e| vec![format!("the output, {e}")])?;
                    Ok(engine::asbuilt::check(&report, Some(&form.fabric), &links))
                }
            };
            let outcome = tokio::task::spawn_blocking(job)
                .await
                .unwrap_or_else(|_| Err(vec!["the check could not be run".into()]));
            (form, outcome)
        }
    };
    // A large output is not shown back.
    let mut shown = form;
    if shown.output.len() > 256 * 1024 {
        shown.output.clear();
    }
    html(&asbuilt_page(
        &id,
        stored.number,
        &stored.spec.title,
        &names,
        &shown,
        Some(outcome),
    ))
}
