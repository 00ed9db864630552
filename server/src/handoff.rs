//! `/d/{id}/r/{n}/handoff` and `/d/{id}/r/{n}/handoff/{file}`: a revision's hand-off files
//! (`engine::handoff::bundle`), listed with what each is for, and each downloadable. Made on
//! the blocking pool; a design with more cables than a cabling sheet holds is refused, since
//! every file names every cable or port.

use crate::exports::{cables, MAX_CABLING_ROWS};
use crate::respond::{attachment, file_stem, html, Answer, PageError};
use crate::revisions::stored_revision;
use app::costs::COMPUTES;
use app::pages::document::message;
use app::pages::handoff::handoff_page;
use app::store::Store;
use axum::extract::{Path, State};
use axum::handler::Handler;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

pub fn routes(store: Store) -> Router {
    Router::new()
        .route("/d/{id}/r/{n}/handoff", get(list.layer(COMPUTES)))
        .route("/d/{id}/r/{n}/handoff.zip", get(zip.layer(COMPUTES)))
        .route("/d/{id}/r/{n}/handoff/{*file}", get(file.layer(COMPUTES)))
        .with_state(store)
}

/// The bundle of revision `n` of design `id`, or the page that says why there is none.
async fn bundle(
    store: &Store,
    id: &str,
    n: &str,
) -> Result<(String, u32, Vec<(String, String)>), PageError> {
    let (_, stored) = stored_revision(store, id, n).await?;
    let report = stored
        .report_or_today()
        .map_err(|errors| PageError::Page(message(422, "No report", errors.to_string())))?;
    let count = cables(&report);
    if count > MAX_CABLING_ROWS {
        return Err(PageError::Page(message(
            422,
            "No hand-off files",
            format!(
                "This design has {count} cables; hand-off files are written for at most {MAX_CABLING_ROWS}."
            ),
        )));
    }
    let (title, number, spec) = (stored.spec.title.clone(), stored.number, stored.spec);
    let files = tokio::task::spawn_blocking(move || engine::handoff::bundle(&spec, &report))
        .await
        .map_err(|_| {
            PageError::Page(message(
                500,
                "No hand-off files",
                "The files could not be written.".into(),
            ))
        })?;
    Ok((title, number, files))
}

async fn list(State(store): State<Store>, Path((id, n)): Path<(String, String)>) -> Answer {
    let (title, number, files) = bundle(&store, &id, &n).await?;
    Ok(html(&handoff_page(&id, number, &title, &files)))
}

/// The media type a consumer expects of `name`.
fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next() {
        Some("csv") => "text/csv; charset=utf-8",
        Some("yml" | "yaml") => "application/yaml; charset=utf-8",
        Some("dot") => "text/vnd.graphviz; charset=utf-8",
        _ => "text/plain; charset=utf-8",
    }
}

async fn file(
    State(store): State<Store>,
    Path((id, n, name)): Path<(String, String, String)>,
) -> Answer {
    let (title, number, files) = bundle(&store, &id, &n).await?;
    let (name, text) = files
        .into_iter()
        .find(|(f, _)| *f == name)
        .ok_or(PageError::NotFound)?;
    let file = format!("{}-r{number}-{}", file_stem(&title), name.replace('/', "-"));
    Ok(attachment(content_type(&name), text, file))
}

/// Every file of the bundle in one zip, each under the name the page lists it by, compressed.
pub fn zipped(files: &[(String, String)]) -> zip::result::ZipResult<Vec<u8>> {
    use std::io::Write;
    let mut archive = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, text) in files {
        archive.start_file(name.as_str(), options)?;
        archive.write_all(text.as_bytes())?;
    }
    Ok(archive.finish()?.into_inner())
}

/// `fabric-planner handoff SPEC.json --out bundle.zip`: the same zip as the design page's
/// download, without a server. Returns the process exit code (2 for a spec the engine refuses).
pub fn run(args: &crate::cli::HandoffArgs) -> i32 {
    let (spec, report) = match crate::evaluate::evaluated(&args.spec) {
        Ok(evaluated) => evaluated,
        Err(code) => return code,
    };
    let files = engine::handoff::bundle(&spec, &report);
    let written = zipped(&files)
        .map_err(|e| e.to_string())
        .and_then(|zip| std::fs::write(&args.out, zip).map_err(|e| e.to_string()));
    match written {
        Ok(()) => {
            println!("{} files written to {}", files.len(), args.out.display());
            0
        }
        Err(error) => {
            eprintln!("error: writing {}: {error}", args.out.display());
            1
        }
    }
}

/// `/d/{id}/r/{n}/handoff.zip`: the whole bundle as one download.
async fn zip(State(store): State<Store>, Path((id, n)): Path<(String, String)>) -> Answer {
    let (title, number, files) = bundle(&store, &id, &n).await?;
    let archive = tokio::task::spawn_blocking(move || zipped(&files)).await;
    Ok(match archive {
        Ok(Ok(bytes)) => (
            [
                (header::CONTENT_TYPE, "application/zip".to_string()),
                (
                    header::CONTENT_DISPOSITION,
                    format!(
                        "attachment; filename=\"{}-r{number}-handoff.zip\"",
                        file_stem(&title)
                    ),
                ),
            ],
            bytes,
        )
            .into_response(),
        _ => html(&message(
            500,
            "No hand-off files",
            "The zip could not be written.".into(),
        )),
    })
}
