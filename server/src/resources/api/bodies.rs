//! The bodies the API reads and writes, as types: the handlers fill them and the OpenAPI
//! document describes them from the same definitions.

use app::store::{DesignHead, RevisionMeta, StoredRevision, MAX_NOTE_CHARS};
use engine::DesignSpec;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A spec to store, with what changed.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SaveRequest {
    /// A design spec as exported by Fabric Planner; older schema versions are upgraded.
    #[schemars(with = "engine::AnySpecVersion")]
    pub spec: serde_json::Value,
    /// What changed, in the saver's words.
    #[serde(default)]
    #[schemars(length(max = MAX_NOTE_CHARS))]
    pub note: String,
}

/// Two specs whose bills to order are compared: what ordering `after` instead of `before`
/// changes.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BillDifferenceRequest {
    #[schemars(with = "engine::AnySpecVersion")]
    pub before: serde_json::Value,
    #[schemars(with = "engine::AnySpecVersion")]
    pub after: serde_json::Value,
}

/// Where a revision is shown, exported and handed over.
#[derive(Serialize, JsonSchema)]
pub struct Links {
    /// The design's page, for sharing.
    share: String,
    revision: String,
    api: String,
    /// The revision's report, print-ready.
    report: String,
    report_pdf: String,
    bom_csv: String,
    cabling_csv: String,
    /// A design grown in phases: every cable each step between them adds, removes or
    /// re-terminates (422, with the reason, for a design built in one step).
    moves_csv: String,
    /// The hand-off files (cabling for UFM's Cable Validation Tool, ibnetdiscover topology,
    /// Cumulus NVUE or Arista AVD switch configuration, NetBox, Slurm, Kubernetes, Graphviz),
    /// listed with what each is for.
    handoff: String,
    /// Every hand-off file in one zip, with a README.
    handoff_zip: String,
    /// The check of what was built against this revision.
    asbuilt: String,
}

impl Links {
    pub fn of(id: &str, revision: u32) -> Links {
        let at = format!("/d/{id}/r/{revision}");
        Links {
            share: format!("/d/{id}"),
            revision: at.clone(),
            api: format!("/api/designs/{id}"),
            report: format!("{at}/report"),
            report_pdf: format!("{at}/report.pdf"),
            bom_csv: format!("{at}/bom.csv"),
            cabling_csv: format!("{at}/cabling.csv"),
            moves_csv: format!("{at}/moves.csv"),
            handoff: format!("{at}/handoff"),
            handoff_zip: format!("{at}/handoff.zip"),
            asbuilt: format!("{at}/asbuilt"),
        }
    }
}

/// A new design, stored as revision 1.
#[derive(Serialize, JsonSchema)]
pub struct Created {
    pub id: String,
    pub revision: u32,
    /// Keep it secret: it is stored only hashed and cannot be shown again.
    pub edit_key: String,
    /// Opening it in a browser gives that browser the edit key.
    pub edit_link: String,
    pub links: Links,
}

/// A revision just stored.
#[derive(Serialize, JsonSchema)]
pub struct Saved {
    pub id: String,
    pub revision: u32,
    pub links: Links,
}

/// A design: title, newest revision, dates.
#[derive(Serialize, JsonSchema)]
pub struct Design {
    id: String,
    title: String,
    latest_revision: u32,
    /// Milliseconds since the Unix epoch, UTC.
    created_at_ms: i64,
    /// Milliseconds since the Unix epoch, UTC.
    updated_at_ms: i64,
    links: Links,
}

impl From<DesignHead> for Design {
    fn from(head: DesignHead) -> Design {
        let links = Links::of(&head.id, head.latest_revision);
        Design {
            id: head.id,
            title: head.title,
            latest_revision: head.latest_revision,
            created_at_ms: head.created_at_ms,
            updated_at_ms: head.updated_at_ms,
            links,
        }
    }
}

/// One entry of a design's history.
#[derive(Serialize, JsonSchema)]
pub struct RevisionEntry {
    number: u32,
    title: String,
    note: String,
    /// The engine that computed the revision's saved report.
    engine_version: String,
    /// Milliseconds since the Unix epoch, UTC.
    saved_at_ms: i64,
}

impl From<RevisionMeta> for RevisionEntry {
    fn from(r: RevisionMeta) -> RevisionEntry {
        RevisionEntry {
            number: r.number,
            title: r.title,
            note: r.note,
            engine_version: r.engine_version,
            saved_at_ms: r.saved_at_ms,
        }
    }
}

/// Every revision of a design, newest first.
#[derive(Serialize, JsonSchema)]
pub struct RevisionList {
    pub id: String,
    pub revisions: Vec<RevisionEntry>,
}

/// One revision: its spec and when and by which engine it was saved.
#[derive(Serialize, JsonSchema)]
pub struct Revision {
    id: String,
    number: u32,
    note: String,
    engine_version: String,
    /// Milliseconds since the Unix epoch, UTC.
    saved_at_ms: i64,
    spec: DesignSpec,
}

impl Revision {
    pub fn of(id: String, r: StoredRevision) -> Revision {
        Revision {
            id,
            number: r.number,
            note: r.note,
            engine_version: r.engine_version,
            saved_at_ms: r.saved_at_ms,
            spec: r.spec,
        }
    }
}

/// The body of `POST /api/search`: a search request, or a bare design spec searched as the
/// search page searches it by default (the compared technologies, every switch model, the
/// page's default targets for every workload).
#[derive(JsonSchema)]
#[schemars(untagged)]
#[allow(dead_code)]
pub enum SearchBody {
    Request(Box<engine::search::SearchRequest>),
    Spec(engine::AnySpecVersion),
}

/// The newest revision's calibration of one fabric fitted to every baseline measured on it.
#[derive(Serialize, JsonSchema)]
pub struct CalibrationFit {
    pub fabric: String,
    /// The baselines read, by number, oldest first.
    pub baselines: Vec<u32>,
    /// The fit; absent where the baselines cannot determine one, with the reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fit: Option<engine::calibration_fit::Fit>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_fitted: Option<String>,
    /// Each baseline fitted on its own, and whether the newest departs from the ones before it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drift: Option<engine::calibration_fit::Drift>,
}
