//! A design's baselines: nccl-tests runs measured on the built fabric, each against what the
//! design predicts for the same collective, ranks and sizes, with a verdict; their drift over
//! time; and, for the browser holding the edit key, the form that adds one.

use app::blocks::html::chart_view;
use app::charts::baselines::{drift, measured_against_predicted, DriftPoint};
use app::pages::document::{date, document, escape, Page};
use app::store::{DesignHead, StoredBaseline};
use engine::baseline::BaselineCheck;
use engine::nccl_tests::size_label;
use leptos::prelude::*;
use leptos::tachys::view::RenderHtml;

/// A stored baseline and what today's engine makes of it: its check against the design, or
/// why it cannot be checked.
pub struct ShownBaseline {
    pub stored: StoredBaseline,
    pub check: Result<BaselineCheck, String>,
}

/// The form's fields, as last submitted (or their defaults).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BaselineForm {
    pub label: String,
    pub measured_on: String,
    pub revision: u32,
    pub fabric: String,
    pub output: String,
    /// The run's ranks and nodes as typed; empty: read from the output.
    pub ranks: String,
    pub nodes: String,
}

/// The page of design `head`: `fabrics` are the fabric names of its newest revision,
/// `form` fills the form (with `errors` of its last submission, 422, when there are any).
pub fn baselines_page(
    head: &DesignHead,
    fabrics: &[String],
    baselines: &[ShownBaseline],
    editable: bool,
    form: &BaselineForm,
    errors: &[String],
) -> Page {
    let id = head.id.clone();
    let heading = format!("Baselines of “{}”", head.title);
    let shown = baselines.iter().rev().map(baseline_view).collect_view();
    let empty = baselines.is_empty().then(|| {
        view! { <p class="note" id="no-baselines">"No baselines yet. Run nccl-tests (for example all_reduce_perf -b 8 -e 8G -f 2 -g 1 on every GPU of the fabric) once the fabric is built, and keep its output here: it is what a slow training step is judged against later."</p> }
    });
    let body = view! {
        <section class="panel" aria-labelledby="baselines-heading">
            <h1 id="baselines-heading">{heading}</h1>
            <p class="meta">
                <a href=format!("/d/{id}")>"Back to the design"</a>
                {format!(" · revision {} is the newest", head.latest_revision)}
            </p>
            {drift_view(baselines)}
            {empty}
            {if editable {
                form_view(&id, head.latest_revision, fabrics, form, errors).into_any()
            } else {
                view! { <p class="note" id="baselines-read-only">"Only a browser holding the design's edit key adds baselines; open the edit link you were given when it was created."</p> }.into_any()
            }}
        </section>
        {shown}
    }
    .to_html();
    Page {
        status: if errors.is_empty() { 200 } else { 422 },
        html: document(&format!("Baselines of {}", head.title), body),
    }
}

fn form_view(
    id: &str,
    latest: u32,
    fabrics: &[String],
    form: &BaselineForm,
    errors: &[String],
) -> impl IntoView {
    let problems = (!errors.is_empty()).then(|| {
        view! {
            <div class="invalid-design" id="baseline-errors" role="alert">
                <p>"The baseline was not added; nothing was stored."</p>
                <ul>{errors.iter().map(|e| view! { <li>{e.clone()}</li> }).collect_view()}</ul>
            </div>
        }
    });
    let revisions = (1..=latest)
        .rev()
        .map(|n| {
            view! { <option value=n.to_string() selected=n == form.revision>{format!("revision {n}")}</option> }
        })
        .collect_view();
    let fabric_options = fabrics
        .iter()
        .map(|f| view! { <option value=f.clone() selected=*f == form.fabric>{f.clone()}</option> })
        .collect_view();
    view! {
        <h2 id="add-baseline">"Add a baseline"</h2>
        {problems}
        <form method="post" action=format!("/d/{id}/baselines") enctype="multipart/form-data" class="baseline-form">
            <label for="baseline-label">"Label"</label>
            <input id="baseline-label" type="text" name="label" maxlength="200" value=form.label.clone() placeholder="after cabling, all 16 nodes"/>
            <label for="baseline-date">"Measured on"</label>
            <input id="baseline-date" type="date" name="measured_on" value=form.measured_on.clone()/>
            <label for="baseline-revision">"Against"</label>
            <select id="baseline-revision" name="revision">{revisions}</select>
            <label for="baseline-fabric">"Fabric"</label>
            <select id="baseline-fabric" name="fabric">{fabric_options}</select>
            <label for="baseline-output">"nccl-tests output (paste it, with or without its header)"</label>
            <textarea id="baseline-output" name="output" rows="14" cols="100" spellcheck="false" inner_html=escape(&form.output)></textarea>
            <label for="baseline-file">"or upload the log file"</label>
            <input id="baseline-file" type="file" name="file" accept=".txt,.log,text/plain"/>
            <fieldset class="stated">
                <legend>"Where the output does not say (many launchers print only a few rank lines)"</legend>
                <label for="baseline-ranks">"Ranks"</label>
                <input id="baseline-ranks" type="text" inputmode="numeric" name="ranks" value=form.ranks.clone() placeholder="from the output"/>
                <label for="baseline-nodes">"Nodes"</label>
                <input id="baseline-nodes" type="text" inputmode="numeric" name="nodes" value=form.nodes.clone() placeholder="from the output"/>
            </fieldset>
            <button type="submit" id="baseline-submit">"Add the baseline"</button>
        </form>
    }
}

fn percent(ratio: f64) -> String {
    format!("{:.0} %", ratio * 100.0)
}

/// GB/s with the digits a reader needs: small messages across nodes reach a few MB/s.
fn gbps(value: f64) -> String {
    if value >= 10.0 {
        format!("{value:.1}")
    } else if value >= 1.0 {
        format!("{value:.2}")
    } else {
        format!("{value:.3}")
    }
}

fn baseline_view(shown: &ShownBaseline) -> impl IntoView {
    let b = &shown.stored;
    let anchor = format!("baseline-{}", b.number);
    let label = if b.label.is_empty() {
        format!("Baseline {}", b.number)
    } else {
        format!("Baseline {}: {}", b.number, b.label)
    };
    let meta = format!(
        "Measured on {} · fabric {} · against revision {} · added {}",
        b.measured_on,
        b.fabric,
        b.revision,
        date(b.saved_at_ms)
    );
    let content = match &shown.check {
        Err(reason) => view! { <p class="save-error">{format!("This baseline cannot be checked against the design: {reason}")}</p> }.into_any(),
        Ok(check) => check_view(&anchor, check).into_any(),
    };
    view! {
        <section class="panel baseline" id=anchor.clone() aria-labelledby=format!("{anchor}-heading")>
            <h2 id=format!("{anchor}-heading")>{label}</h2>
            <p class="meta">{meta}</p>
            {content}
        </section>
    }
}

fn check_view(anchor: &str, check: &BaselineCheck) -> impl IntoView {
    let verdict = match &check.verdict {
        Some(v) => {
            let class = if v.healthy { "verdict healthy" } else { "verdict flagged" };
            view! { <p class=class id=format!("{anchor}-verdict") role="status">{v.message.clone()}</p> }.into_any()
        }
        None => view! { <p class="verdict" id=format!("{anchor}-verdict")>{format!("{}: the design predicts AllReduce, AllGather and ReduceScatter; this run is shown as measured.", check.collective.label())}</p> }.into_any(),
    };
    let assumptions = (!check.assumptions.is_empty()).then(|| {
        view! { <ul class="assumptions">{check.assumptions.iter().map(|a| view! { <li>{a.clone()}</li> }).collect_view()}</ul> }
    });
    let rows = check
        .sizes
        .iter()
        .map(|s| {
            let predicted = s
                .predicted_busbw_gbytes_per_s
                .map(|rate| gbps(rate.gigabytes_per_second()))
                .unwrap_or_else(|| "–".into());
            let ratio = s.ratio().map(percent).unwrap_or_else(|| "–".into());
            let low = s
                .ratio()
                .is_some_and(|r| r < engine::nccl_tests::HEALTHY_SHARE);
            view! {
                <tr class:short=low>
                    <th scope="row" class="num">{size_label(s.bytes)}</th>
                    <td class="num">{gbps(s.measured_algbw_gbytes_per_s.gigabytes_per_second())}</td>
                    <td class="num">{gbps(s.measured_busbw_gbytes_per_s.gigabytes_per_second())}</td>
                    <td class="num">{predicted}</td>
                    <td class="num">{ratio}</td>
                </tr>
            }
        })
        .collect_view();
    let summary = format!(
        "{} over {} ranks on {} nodes",
        check.collective.label(),
        check.ranks,
        check.nodes
    );
    view! {
        {verdict}
        <p class="note">{summary}</p>
        {assumptions}
        {chart_view(Some(&format!("{anchor}-chart")), "Measured and predicted bus bandwidth by message size", measured_against_predicted(check))}
        <table class="baseline-sizes">
            <thead><tr><th scope="col" class="num">"Size"</th><th scope="col" class="num">"algbw, GB/s"</th><th scope="col" class="num">"busbw, GB/s"</th><th scope="col" class="num">"Predicted busbw"</th><th scope="col" class="num">"Of predicted"</th></tr></thead>
            <tbody>{rows}</tbody>
        </table>
    }
}

/// The drift of the baselines with a verdict, oldest first: a chart and its table.
fn drift_view(baselines: &[ShownBaseline]) -> Option<impl IntoView> {
    let judged: Vec<(&StoredBaseline, &engine::nccl_tests::Verdict)> = baselines
        .iter()
        .filter_map(|b| match &b.check {
            Ok(BaselineCheck {
                verdict: Some(v), ..
            }) => Some((&b.stored, v)),
            _ => None,
        })
        .collect();
    if judged.is_empty() {
        return None;
    }
    let points: Vec<DriftPoint> = judged
        .iter()
        .map(|(b, v)| DriftPoint {
            measured_on: b.measured_on.clone(),
            measured_busbw_gbytes_per_s: v.measured_busbw_gbytes_per_s,
            expected_busbw_gbytes_per_s: v.expected_busbw_gbytes_per_s,
        })
        .collect();
    let rows = judged
        .iter()
        .map(|(b, v)| {
            view! {
                <tr class:short=!v.healthy>
                    <td><a href=format!("#baseline-{}", b.number)>{b.measured_on.clone()}</a></td>
                    <td>{b.label.clone()}</td>
                    <td>{b.fabric.clone()}</td>
                    <td class="num">{size_label(v.bytes)}</td>
                    <td class="num">{gbps(v.measured_busbw_gbytes_per_s.gigabytes_per_second())}</td>
                    <td class="num">{gbps(v.expected_busbw_gbytes_per_s.gigabytes_per_second())}</td>
                    <td class="num">{percent(v.ratio)}</td>
                    <td>{if v.healthy { "as designed" } else { "flagged" }}</td>
                </tr>
            }
        })
        .collect_view();
    Some(view! {
        <h2 id="drift-heading">"Drift over time"</h2>
        {chart_view(Some("chart-drift"), "Measured bus bandwidth of each baseline against the expectation", drift(&points))}
        <table class="headroom" id="drift">
            <thead><tr><th scope="col">"Measured on"</th><th scope="col">"Label"</th><th scope="col">"Fabric"</th><th scope="col" class="num">"At"</th><th scope="col" class="num">"busbw, GB/s"</th><th scope="col" class="num">"Expected"</th><th scope="col" class="num">"Share"</th><th scope="col">"Verdict"</th></tr></thead>
            <tbody>{rows}</tbody>
        </table>
    })
}
