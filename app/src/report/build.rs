//! The report's content, from a stored revision: what each section holds.

use super::fabrics::{cluster, fabrics};
use super::operating::{assumptions, operating_blocks};
use super::workloads::{storage, workloads};
use super::ReportDocument;
use crate::charts::studies;
use engine::{DesignSpec, PlacedReport};

/// What the cover says about the revision, and what was kept with it after installation.
pub struct Revision {
    pub number: u32,
    pub latest: u32,
    pub saved: String,
    pub engine_version: String,
    /// The share link of this revision, absolute where the host is known.
    pub link: String,
    /// The as-built checks kept with the revision, in the order taken.
    pub asbuilt: Vec<crate::store::StoredCheck>,
    /// How the saved figures compare with today's engine, which computed the document.
    pub staleness: super::engine_version::Staleness,
}

/// The whole report of `spec` at `revision`: every part of it from `placed`, today's engine's
/// evaluation of `spec` on its floor (which the summary's risks and the floor section read).
pub fn report_document(
    spec: &DesignSpec,
    placed: &PlacedReport,
    revision: &Revision,
) -> ReportDocument {
    let (report, floor) = (&placed.report, &placed.floor);
    let mut blocks =
        super::engine_version::stale_blocks(&revision.staleness, report, &revision.engine_version);
    // The studies are run once: the summary's alternatives and the what-if section read them.
    let charts = studies::charts(spec, report);
    // What each element's failure takes, each job's goodput and the growth phases: the summary
    // names the worst failure, the goodput and the phases' cost, their sections list them.
    let report = &report.clone().over_its_life_on(spec, floor);
    super::summary::summary(&mut blocks, spec, report, floor, charts.compared.as_ref());
    cluster(&mut blocks, spec, report);
    fabrics(&mut blocks, report);
    workloads(&mut blocks, report);
    blocks.extend(super::uncertainty::interval_blocks(&report.uncertainty));
    super::whatifs::headroom(&mut blocks, charts.clone());
    storage(&mut blocks, report, charts.whatifs);
    blocks.extend(super::floor::floor_blocks(spec, report, floor));
    blocks.extend(super::failures::failure_blocks(
        spec,
        report,
        &report.failures,
    ));
    blocks.extend(super::tenants::tenant_blocks(
        spec,
        report,
        &report.interference,
        floor,
    ));
    blocks.extend(super::goodput::goodput_blocks(&report.goodput));
    blocks.extend(super::phases::phase_blocks(
        report.phases.as_ref(),
        report,
        floor,
    ));
    if let Some(plan) = &report.phases {
        blocks.extend(super::phases::move_blocks(
            plan,
            engine::phases::move_list(spec, report, super::phases::MOVES_IN_REPORT),
            &format!("{}/moves.csv", revision.link),
        ));
    }
    blocks.extend(operating_blocks(spec, report));
    blocks.extend(super::asbuilt::asbuilt_section(&revision.asbuilt));
    assumptions(&mut blocks, spec);
    blocks.extend(super::sources::sources_blocks(spec, report));
    ReportDocument {
        title: spec.title.clone(),
        cover: vec![
            (
                "Revision".into(),
                format!("{} of {}", revision.number, revision.latest),
            ),
            ("Saved".into(), revision.saved.clone()),
            (
                "Engine".into(),
                super::engine_version::engine_line(&revision.engine_version),
            ),
            ("Share link".into(), revision.link.clone()),
        ],
        blocks,
    }
}
