//! `/d/{id}/r/{n}/handoff` and `/d/{id}/r/{n}/handoff/{file}`: a revision's hand-off files
//! (`engine::handoff::bundle`), listed with what each is for, and each downloadable.
//!
//! A revision never changes, so its bundle is made once, by one job however many ask
//! (`crate::work::kept`), on the blocking pool, one bundle at a time, and kept as its zip: every
//! file is compressed into the zip as it is written, the largest a piece at a time, so the job
//! never holds the bundle, nor its largest files, as text. A file is sent by inflating its entry of the kept zip as it streams, so a
//! download holds a few kilobytes however large the file. A design of more cables than
//! [`MAX_HANDOFF_CABLES`] is refused, since every file names every cable or port.

use crate::resources::exports::MAX_HANDOFF_CABLES;
use crate::resources::respond::{
    attachment, disposition, file_stem, html, streamed, Answer, PageError,
};
use crate::resources::revisions::head_and_number;
use crate::work::cache::Weighed;
use crate::work::evaluations::Evaluations;
use crate::work::kept::{Jobs, Made};
use app::costs::COMPUTES;
use app::pages::document::message;
use app::store::{DesignId, Store};
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::handler::Handler;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use std::io::Write;
use std::sync::Arc;
use view::handoff_page;

mod view;

/// Bundles kept, in bytes of zip: a few thousand of the usual design's (25 to 130 KB), or one
/// of the largest whose files are written (some 45 MB for a million cables; 17 MB for 400,000).
const KEPT_BYTES: usize = 64 << 20;
/// Bundles made at once: the largest takes some 330 MB while it is made.
const MADE_AT_ONCE: usize = 1;
/// Distinct bundles waiting or being made; more at once get 503.
const QUEUED: usize = 8;

/// Bundles made by this process: for the tests that hold the server to making each once.
pub static BUNDLES_MADE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A revision's bundle: its title and number, the README, each file's name and size in the
/// bundle's order, and the zip that holds them.
#[derive(Clone)]
struct Bundle {
    title: Arc<str>,
    number: u32,
    readme: Arc<str>,
    files: Arc<Vec<(String, usize)>>,
    zip: Bytes,
}

impl Weighed for Bundle {
    fn bytes(&self) -> usize {
        self.zip.len() + self.readme.len()
    }
}

#[derive(Clone)]
struct Handoffs {
    store: Store,
    jobs: Arc<Jobs<(DesignId, u32), Bundle>>,
    evaluations: Evaluations,
}

pub fn routes(store: Store, evaluations: Evaluations) -> Router {
    Router::new()
        .route("/d/{id}/r/{n}/handoff", get(list.layer(COMPUTES)))
        .route("/d/{id}/r/{n}/handoff.zip", get(zip.layer(COMPUTES)))
        .route("/d/{id}/r/{n}/handoff/{*file}", get(file.layer(COMPUTES)))
        .with_state(Handoffs {
            store,
            jobs: Jobs::new("files", KEPT_BYTES, MADE_AT_ONCE, QUEUED),
            evaluations,
        })
}

/// The bundle of revision `n` of design `id`, kept or made now, or the page that says why there
/// is none.
async fn bundle(handoffs: &Handoffs, id: &str, n: &str) -> Result<Bundle, PageError> {
    let n = crate::resources::revisions::revision_number(n)?;
    let (_, design_id, number) = head_and_number(&handoffs.store, id, Some(n))
        .await?
        .ok_or(PageError::NotFound)?;
    let (store, evaluations) = (handoffs.store.clone(), handoffs.evaluations.clone());
    let key = (design_id.clone(), number);
    let made = handoffs
        .jobs
        .get(key, move || make(store, evaluations, design_id, number))
        .await;
    made.map_err(PageError::Page)
}

/// The job that makes a revision's bundle.
async fn make(store: Store, evaluations: Evaluations, id: DesignId, number: u32) -> Made<Bundle> {
    let unmade = || {
        message(
            500,
            "No hand-off files",
            "The files could not be written.".into(),
        )
    };
    let stored = match store.revision(&id, Some(number)).await {
        Ok(Some(stored)) => stored,
        Ok(None) => return Err(app::pages::document::not_found()),
        Err(error) => return Err(PageError::Store(error).page()),
    };
    let title: Arc<str> = stored.spec.title.as_str().into();
    let spec = stored.spec;
    // Today's engine, as the cabling sheet and the design's page: the files name its cables.
    let placed = evaluations.of(&id, number, spec.clone()).await?;
    // Writing is CPU work, kept off the async workers.
    let zipped = tokio::task::spawn_blocking(move || {
        let placed = placed.map_err(|why| message(422, "No report", why.to_string()))?;
        let report = &placed.report;
        let count = report.cable_count();
        if count > MAX_HANDOFF_CABLES {
            return Err(message(
                422,
                "No hand-off files",
                format!(
                    "This design has {} cables; hand-off files are written for at most {}.",
                    app::words::number(count),
                    app::words::number(MAX_HANDOFF_CABLES)
                ),
            ));
        }
        BUNDLES_MADE.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Ok(zipped_bundle(&spec, report))
    })
    .await;
    match zipped {
        Ok(Err(page)) => Err(page),
        Ok(Ok(Ok(Zipped {
            mut zip,
            readme,
            files,
        }))) => Ok(Bundle {
            title,
            number,
            readme: readme.into(),
            files: Arc::new(files),
            // Grown by doubling as it was written: kept at its length.
            zip: {
                zip.shrink_to_fit();
                Bytes::from(zip)
            },
        }),
        Ok(Ok(Err(error))) => {
            tracing::error!(%error, "a hand-off bundle could not be zipped");
            Err(unmade())
        }
        Err(panicked) => {
            tracing::error!(%panicked, "writing a hand-off bundle panicked");
            Err(unmade())
        }
    }
}

/// A bundle as a zip, with its README and each file's name and size, the README first.
pub(crate) struct Zipped {
    pub(crate) zip: Vec<u8>,
    readme: String,
    pub(crate) files: Vec<(String, usize)>,
}

/// The bundle as a zip, each file compressed a piece at a time as it is written.
pub(crate) fn zipped_bundle(
    spec: &engine::DesignSpec,
    report: &engine::Report,
) -> zip::result::ZipResult<Zipped> {
    let mut archive = Zip {
        writer: zip::ZipWriter::new(std::io::Cursor::new(Vec::new())),
        files: Vec::new(),
        failed: None,
    };
    let readme = engine::handoff::write_bundle(spec, report, &mut archive);
    engine::handoff::Files::begin(&mut archive, "README.txt");
    engine::handoff::Files::write(&mut archive, &readme);
    if let Some(error) = archive.failed {
        return Err(error);
    }
    let mut files = archive.files;
    files.rotate_right(1);
    Ok(Zipped {
        zip: archive.writer.finish()?.into_inner(),
        readme,
        files,
    })
}

/// A zip being written, its entries deflated, with each file's name and size; the first error
/// stops it.
struct Zip {
    writer: zip::ZipWriter<std::io::Cursor<Vec<u8>>>,
    files: Vec<(String, usize)>,
    failed: Option<zip::result::ZipError>,
}

impl engine::handoff::Files for Zip {
    /// Begins the entry `name`, which must be a safe entry name ([`safe_entry_name`]).
    fn begin(&mut self, name: &str) {
        if self.failed.is_some() {
            return;
        }
        if !safe_entry_name(name) {
            self.failed = Some(zip::result::ZipError::InvalidArchive(
                "a file name that is not a plain relative path".into(),
            ));
            return;
        }
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        self.failed = self.writer.start_file(name, options).err();
        self.files.push((name.to_string(), 0));
    }

    fn write(&mut self, text: &str) {
        if self.failed.is_some() {
            return;
        }
        if let Some((_, size)) = self.files.last_mut() {
            *size += text.len();
        }
        self.failed = self.writer.write_all(text.as_bytes()).err().map(Into::into);
    }
}

/// Whether `name` may name an entry of the zip: a relative path of at most two parts, each of
/// letters, digits, `.`, `_` and `-`, none empty or starting with a dot, so that no unzip tool
/// writes outside the folder it unpacks into.
pub fn safe_entry_name(name: &str) -> bool {
    let parts: Vec<&str> = name.split('/').collect();
    parts.len() <= 2
        && parts.iter().all(|part| {
            !part.is_empty()
                && !part.starts_with('.')
                && part
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
        })
}

async fn list(State(handoffs): State<Handoffs>, Path((id, n)): Path<(String, String)>) -> Answer {
    let b = bundle(&handoffs, &id, &n).await?;
    Ok(html(&handoff_page(
        &id, b.number, &b.title, &b.readme, &b.files,
    )))
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

/// One file, inflated from the kept zip as it is sent.
async fn file(
    State(handoffs): State<Handoffs>,
    Path((id, n, name)): Path<(String, String, String)>,
) -> Answer {
    let b = bundle(&handoffs, &id, &n).await?;
    if !b.files.iter().any(|(f, _)| *f == name) {
        return Err(PageError::NotFound);
    }
    let file = format!(
        "{}-r{}-{}",
        file_stem(&b.title),
        b.number,
        name.replace('/', "-")
    );
    let (zip, entry) = (b.zip.clone(), name.clone());
    let body = streamed(move |out| {
        let mut archive =
            zip::ZipArchive::new(std::io::Cursor::new(zip)).map_err(std::io::Error::other)?;
        let mut entry = archive.by_name(&entry).map_err(std::io::Error::other)?;
        std::io::copy(&mut entry, out).map(|_| ())
    });
    Ok(attachment(content_type(&name), body, &file))
}

/// `/d/{id}/r/{n}/handoff.zip`: the whole bundle as one download, the kept zip itself.
async fn zip(State(handoffs): State<Handoffs>, Path((id, n)): Path<(String, String)>) -> Answer {
    let b = bundle(&handoffs, &id, &n).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/zip".to_string()),
            (
                header::CONTENT_DISPOSITION,
                disposition(
                    "attachment",
                    &format!("{}-r{}-handoff.zip", file_stem(&b.title), b.number),
                ),
            ),
        ],
        b.zip,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::safe_entry_name;

    #[test]
    fn zip_entries_are_plain_relative_paths() {
        for good in [
            "README.txt",
            "cvt/compute-p2p.csv",
            "avd/fabric-inventory.yml",
        ] {
            assert!(safe_entry_name(good), "{good}");
        }
        for bad in [
            "../x",
            "a/../../x",
            "/etc/passwd",
            "a//b",
            ".hidden",
            "a/b/c",
            "a\\b",
            "c:x",
            "a\nb",
            "",
        ] {
            assert!(!safe_entry_name(bad), "{bad:?}");
        }
    }
}
