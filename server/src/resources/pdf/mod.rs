//! The report as a PDF, typeset on the server by Typst used as a library: real text (selectable,
//! searchable, fonts embedded), vector charts, page numbers, a table of contents and bookmarks
//! from the headings. Typesetting is CPU work, so it runs on the blocking pool, a few at a time.

mod world;

pub use world::Paper;

use app::report::{Block, ReportDocument};
use typst::diag::Warned;
use typst_layout::PagedDocument;
use world::ReportWorld;

/// The topology diagrams are styled by the page's stylesheet on screen; in a PDF they carry
/// the same rules themselves (mirroring `svg.topology` in style/main.css).
const TOPOLOGY_STYLE: &str = "<style>\
.switch{stroke:#1b2430;stroke-width:1}\
.leaf{fill:#cfe3f7}.spine{fill:#9cc3ea}.core{fill:#5f9bd6}\
.nodes{fill:#e3e7ec;stroke:#4a5668}\
.link{stroke:#8894a5;stroke-width:0.6}\
.tier-label{font-size:9px;fill:#1b2430}.link-label{font-size:8px;fill:#4a5668}\
</style>";

/// SVG that Typst can read on its own: with its namespace, the diagram's styles inside, and
/// without the empty markers (`<!>`) that Leptos leaves in HTML for hydration.
fn standalone(svg: &str, topology: bool) -> String {
    let mut svg = svg.replace("<!>", "");
    if !svg.contains("xmlns=") {
        svg = svg.replacen("<svg ", "<svg xmlns=\"http://www.w3.org/2000/svg\" ", 1);
    }
    if topology {
        if let Some(end) = svg.find('>') {
            svg.insert_str(end + 1, TOPOLOGY_STYLE);
        }
    }
    svg
}

/// Why a report could not be typeset (a defect, logged; the reader gets a 500 page).
#[derive(Debug, thiserror::Error)]
#[error("typesetting the report failed: {0}")]
pub struct TypesetError(pub String);

fn failure(errors: typst::ecow::EcoVec<typst::diag::SourceDiagnostic>) -> TypesetError {
    TypesetError(
        errors
            .iter()
            .map(|e| e.message.to_string())
            .collect::<Vec<_>>()
            .join("; "),
    )
}

/// The PDF of `report` on `paper`.
pub fn typeset(report: &ReportDocument, paper: Paper) -> Result<Vec<u8>, TypesetError> {
    let mut report = report.clone();
    for block in &mut report.blocks {
        if let Block::Chart { id, svg, .. } = block {
            *svg = standalone(svg, id.starts_with("topology-"));
        }
    }
    let data = serde_json::to_vec(&report).map_err(|e| TypesetError(e.to_string()))?;
    let world = ReportWorld::new(data, paper);
    let Warned { output, .. } = typst::compile::<PagedDocument>(&world);
    let document = output.map_err(failure)?;
    let pdf = typst_pdf::pdf(&document, &typst_pdf::PdfOptions::default()).map_err(failure);
    // Typst memoises layout across compilations; without eviction its caches grow with every
    // report typeset.
    typst::comemo::evict(2);
    pdf
}
