//! A saved design at its share link (its newest revision, with the history) and each of its
//! revisions at its own link: finished documents rendered on the server from the stored spec.
//! Nothing on them needs JavaScript (the "How" details open natively), so they carry no script:
//! they load at once for whoever the link was sent to, and a revision's page never changes.

use app::blocks::html::blocks_view;
use app::components::design_summary;
use app::components::{Findings, Headline};
use app::dashboard::dashboard_view;
use app::pages::document::{date, document, Page};
use app::report::{stale_blocks, staleness, Staleness};
use app::store::{DesignHead, RevisionMeta, StoredRevision};
use engine::Report;
use leptos::prelude::*;
use leptos::tachys::view::RenderHtml;

/// Which page of a design.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DesignView {
    /// The share link: the newest revision and the history.
    Latest,
    /// One revision at its own link.
    Revision,
}

/// The page of revision `stored` of design `head`, whose history is `history` (newest first), evaluated
/// by today's engine on its floor as `placed` (or why the engine refuses it).
pub fn design_page(
    head: &DesignHead,
    stored: &StoredRevision,
    history: &[RevisionMeta],
    view_kind: DesignView,
    placed: Result<&engine::PlacedReport, &str>,
) -> Page {
    let spec = stored.spec.clone();
    let title = spec.title.clone();
    let (id, n) = (head.id.clone(), stored.number);
    let meta = format!(
        "Revision {n} of {} · saved {} · engine {}",
        head.latest_revision,
        date(stored.saved_at_ms),
        stored.engine_version
    );
    let placed = match placed {
        Ok(placed) => placed,
        Err(errors) => {
            let body = view! {
                <section class="panel">
                    <h1 id="design-title">{title.clone()}</h1>
                    <p class="meta">{meta}</p>
                    <p class="save-error">"Today's engine refuses this revision: " {errors.to_string()}</p>
                </section>
            }
            .to_html();
            return Page::ok(document(&title, body));
        }
    };
    let report = &placed.report;
    let newer = (view_kind == DesignView::Revision && n < head.latest_revision).then(|| {
        view! {
            <p class="notice" id="newer-revision">
                "This is an earlier revision. " <a href=format!("/d/{id}")>{format!("See the latest (revision {})", head.latest_revision)}</a>
            </p>
        }
    });
    let stale = stale_notice(&staleness(stored, report), report, &stored.engine_version);
    let note = (!stored.note.is_empty())
        .then(|| view! { <p class="revision-note">{stored.note.clone()}</p> });
    let compare_previous = (n > 1).then(|| {
        view! { <a href=format!("/compare?a={id}/r/{}&b={id}/r/{n}", n - 1)>"Compare with the previous revision"</a> }
    });
    let top = view! {
        <div class="planner">
            <section class="panel inputs" aria-labelledby="design-title">
                <h1 id="design-title">{title.clone()}</h1>
                <p class="meta">{meta}</p>
                <p class="meta" id="calibration-source">{format!("Calibration: {}.", app::labels::calibration_source(&spec.calibration))}</p>
                {note}
                {newer}
                {stale}
                <ul class="design-actions">
                    <li><a id="edit-design" href=format!("/d/{id}/edit")>"Edit"</a></li>
                    <li><a id="duplicate-design" href=format!("/d/{id}/duplicate?revision={n}")>"Duplicate as a new design"</a></li>
                    <li>{compare_previous}</li>
                    <li><a id="design-search" href=format!("/d/{id}/r/{n}/search")>"Search for the cheapest fabric"</a></li>
                    <li><a id="design-baselines" href=format!("/d/{id}/baselines")>"Baselines (nccl-tests)"</a></li>
                    <li><a id="design-calibration" href=format!("/d/{id}/calibration")>"Fit the calibration to the baselines"</a></li>
                    <li><a id="design-tenants" href=format!("/d/{id}/tenants")>"Tenants: who shares the fabric"</a></li>
                    <li><a href=format!("/d/{id}/r/{n}/spec.json") download="">"Download the spec (JSON)"</a></li>
                    <li><a href=format!("/d/{id}/r/{n}/report.json") download="">"Download the report (JSON)"</a></li>
                    <li><a id="design-report" href=format!("/d/{id}/r/{n}/report")>"Report (print or PDF)"</a></li>
                    <li><a id="bom-csv" href=format!("/d/{id}/r/{n}/bom.csv") download="">"Bill of materials (CSV)"</a></li>
                    <li><a id="cabling-csv" href=format!("/d/{id}/r/{n}/cabling.csv") download="">"Cabling sheet (CSV)"</a></li>
                    {spec.growth.is_some().then(|| view! { <li><a id="moves-csv" href=format!("/d/{id}/r/{n}/moves.csv") download="">"Move list between the growth phases (CSV)"</a></li> })}
                    <li><a id="design-asbuilt" href=format!("/d/{id}/r/{n}/asbuilt")>"As-built check (ibnetdiscover, LLDP)"</a></li>
                    <li><a id="handoff-files" href=format!("/d/{id}/r/{n}/handoff")>"Hand-off files (UFM, NVUE, AVD, NetBox, Slurm, Kubernetes, DOT)"</a></li>
                </ul>
                <p class="share">
                    "Share link: " <a id="share-latest" href=format!("/d/{id}")>{format!("/d/{id}")}</a>
                    " · this revision: " <a id="share-revision" href=format!("/d/{id}/r/{n}")>{format!("/d/{id}/r/{n}")}</a>
                </p>
                {design_summary(&spec)}
            </section>
            <aside class="panel results-panel" aria-labelledby="results-heading">
                <h2 id="results-heading">"Results"</h2>
                <Headline report=std::sync::Arc::new(report.clone())/>
                <h3>"Findings"</h3>
                <Findings report=std::sync::Arc::new(report.clone())/>
            </aside>
        </div>
    }
    .to_html();
    let history = history_table(&id, n, history);
    Page::ok(document(
        &title,
        top + &history + &dashboard_view(&app::report::dashboard_blocks(&spec, placed)).to_html(),
    ))
}

/// The notice of a revision saved by another engine, as the report says it.
fn stale_notice(staleness: &Staleness, today: &Report, saved_by: &str) -> Option<AnyView> {
    let blocks = stale_blocks(staleness, today, saved_by);
    (!blocks.is_empty()).then(|| {
        view! { <div class="notice stale" id="stale-engine" role="note">{blocks_view(&blocks)}</div> }
            .into_any()
    })
}

fn history_table(id: &str, shown: u32, history: &[RevisionMeta]) -> String {
    let rows = history
        .iter()
        .map(|r| {
            let current = r.number == shown;
            let link = format!("/d/{id}/r/{}", r.number);
            let compare = (r.number > 1).then(|| {
                view! { <a href=format!("/compare?a={id}/r/{}&b={id}/r/{}", r.number - 1, r.number)>"changes"</a> }
            });
            view! {
                <tr class:current=current>
                    <td class="num"><a href=link>{r.number}</a></td>
                    <td>{r.title.clone()}</td>
                    <td>{r.note.clone()}</td>
                    <td>{date(r.saved_at_ms)}</td>
                    <td>{r.engine_version.clone()}</td>
                    <td>{compare}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section class="panel history" aria-labelledby="history-heading">
            <h2 id="history-heading">"Revision history"</h2>
            <table class="revisions" id="revisions">
                <thead><tr><th scope="col" class="num">"Revision"</th><th scope="col">"Title"</th><th scope="col">"Note"</th><th scope="col">"Saved"</th><th scope="col">"Engine"</th><th scope="col">"Compare"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </section>
    }
    .to_html()
}
