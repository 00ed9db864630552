//! Two designs, or two revisions of one, side by side: the inputs that differ highlighted,
//! the key outputs and the headroom charts of both.

use super::inputs;

use app::blocks::html::chart_view;
use app::charts::fabric_headroom as headroom_chart;
use app::components::headline_figures;
use app::pages::document::{document, Page};
use app::store::{DesignId, StoredRevision};
use app::words::number;
use engine::Report;
use leptos::prelude::*;
use leptos::tachys::view::RenderHtml;

/// A design named by its share link, a revision link, `ID` or `ID/r/N`.
pub fn parse_reference(text: &str) -> Option<(DesignId, Option<u32>)> {
    let text = text.trim();
    let text = text.rsplit_once("/d/").map_or(text, |(_, rest)| rest);
    let mut parts = text.trim_end_matches('/').split('/');
    let id = DesignId::parse(parts.next()?)?;
    match (parts.next(), parts.next(), parts.next()) {
        (None, _, _) => Some((id, None)),
        (Some("r"), Some(n), None) => Some((id, Some(n.parse().ok().filter(|n| *n >= 1)?))),
        _ => None,
    }
}

/// One side of a comparison: a stored revision and today's report of it.
pub struct Side {
    /// What the user typed, to show it back in the form.
    pub reference: String,
    pub revision: StoredRevision,
    pub report: Result<Report, engine::SpecErrors>,
}

fn label(side: &Side) -> String {
    format!(
        "{} (revision {})",
        side.revision.spec.title, side.revision.number
    )
}

/// The compare page: the form, and the comparison once both sides are known. `errors` says
/// what was wrong with each reference given.
pub fn compare_page(
    a: Option<&Side>,
    b: Option<&Side>,
    inputs: [&str; 2],
    errors: &[String],
) -> Page {
    let form = view! {
        <form class="compare-form" method="get" action="/compare">
            <label>"Design A " <input type="text" name="a" size="48" value=inputs[0].to_string() placeholder="share link, or ID/r/N"/></label>
            <label>"Design B " <input type="text" name="b" size="48" value=inputs[1].to_string() placeholder="share link, or ID/r/N"/></label>
            <button type="submit">"Compare"</button>
        </form>
    };
    let problems = (!errors.is_empty()).then(|| {
        let items = errors
            .iter()
            .map(|e| view! { <li>{e.clone()}</li> })
            .collect_view();
        view! { <ul class="save-error" id="compare-errors" role="alert">{items}</ul> }
    });
    let comparison = match (a, b) {
        (Some(a), Some(b)) => comparison(a, b),
        _ => String::new(),
    };
    let body = view! {
        <section class="panel" aria-labelledby="compare-heading">
            <h1 id="compare-heading">"Compare designs"</h1>
            <p class="note">"Paste two share links (or revision links) to see what differs between them."</p>
            {form}
            {problems}
        </section>
    }
    .to_html();
    let status = if errors.is_empty() { 200 } else { 404 };
    Page {
        status,
        html: document("Compare designs", body + &comparison),
    }
}

fn comparison(a: &Side, b: &Side) -> String {
    let (la, lb) = (label(a), label(b));
    let rows = inputs::input_rows(&a.revision.spec, &b.revision.spec);
    let differing = rows.iter().filter(|r| r.differs()).count();
    let same = rows.len() - differing;
    let row_view = |r: &inputs::InputRow| {
        let absent = || "—".to_string();
        view! {
            <tr class:differs=r.differs()>
                <th scope="row">{r.name.clone()}</th>
                <td>{r.a.clone().unwrap_or_else(absent)}</td>
                <td>{r.b.clone().unwrap_or_else(absent)}</td>
            </tr>
        }
    };
    let head = || {
        view! { <thead><tr><th scope="col">"Input"</th><th scope="col">{la.clone()}</th><th scope="col">{lb.clone()}</th></tr></thead> }
    };
    let differ_table = (differing > 0).then(|| {
        view! {
            <table class="compare-inputs" id="compare-inputs">
                {head()}
                <tbody>{rows[..differing].iter().map(row_view).collect_view()}</tbody>
            </table>
        }
    });
    let same_table = (same > 0).then(|| {
        view! {
            <details class="compare-same" id="compare-same">
                <summary>{format!("{same} inputs the same in both")}</summary>
                <table class="compare-inputs">
                    {head()}
                    <tbody>{rows[differing..].iter().map(row_view).collect_view()}</tbody>
                </table>
            </details>
        }
    });
    let summary = match differing {
        0 => "The two designs have the same inputs.".to_string(),
        1 => "1 input differs:".to_string(),
        n => format!("{n} inputs differ:"),
    };
    let outputs = outputs_table(a, b, &la, &lb);
    let bill = match (&a.report, &b.report) {
        (Ok(x), Ok(y)) => bill_section(&engine::bill_diff::bill_diff(x, y), a, b).into_any(),
        _ => ().into_any(),
    };
    let charts = |side: &Side| {
        match &side.report {
        Ok(report) => report
            .fabrics
            .iter()
            .map(|f| {
                view! {
                    <figure class="chart">
                        {chart_view(None, &format!("Bandwidth per tier of fabric {}", f.name), headroom_chart(f))}
                        <figcaption>{format!("Fabric {}", f.name)}</figcaption>
                    </figure>
                }
            })
            .collect_view()
            .into_any(),
        Err(e) => view! { <p class="save-error">{e.to_string()}</p> }.into_any(),
    }
    };
    view! {
        <section class="panel" aria-labelledby="inputs-heading">
            <h2 id="inputs-heading">"Inputs"</h2>
            <p id="differing-inputs">{summary}</p>
            {differ_table}
            {same_table}
        </section>
        <section class="panel" aria-labelledby="outputs-heading">
            <h2 id="outputs-heading">"Key outputs"</h2>
            {outputs}
        </section>
        {bill}
        <section class="panel" aria-labelledby="headroom-heading">
            <h2 id="headroom-heading">"Bandwidth headroom per tier"</h2>
            <div class="side-by-side">
                <div><h3>{la.clone()}</h3>{charts(a)}</div>
                <div><h3>{lb.clone()}</h3>{charts(b)}</div>
            </div>
        </section>
    }
    .to_html()
}

/// The address of the bill difference of `a` and `b` as a spreadsheet.
pub fn bill_csv_link(a: &str, b: &str) -> String {
    let query = serde_urlencoded::to_string([("a", a), ("b", b)]).unwrap_or_default();
    format!("/compare/bill.csv?{query}")
}

/// What ordering B instead of A changes in the bill: each item added, removed or changed,
/// the dearest first, with the spreadsheet of it.
fn bill_section(diff: &engine::bill_diff::BillDiff, a: &Side, b: &Side) -> impl IntoView {
    let more = if diff.cost_delta.dollars() >= 0.0 {
        "more"
    } else {
        "less"
    };
    let summary = if diff.items.is_empty() {
        "Both bills to order are the same.".to_string()
    } else {
        format!(
            "Ordering B instead of A costs {} {more} ({} against {}) and draws {} {}: {} lines differ.",
            app::money::usd(engine::Usd::new(diff.cost_delta.dollars().abs())),
            app::money::usd(diff.cost_after),
            app::money::usd(diff.cost_before),
            app::money::watts(engine::Watts::new(diff.power_delta.watts().abs())),
            if diff.power_delta.watts() >= 0.0 { "more" } else { "less" },
            diff.items.len()
        )
    };
    let signed = |v: f64, text: String| {
        if v > 0.0 {
            format!("+{text}")
        } else if v < 0.0 {
            format!("−{text}")
        } else {
            text
        }
    };
    let rows = diff
        .items
        .iter()
        .map(|i| {
            view! {
                <tr>
                    <td>{i.fabric.clone()}</td>
                    <td>{i.description.clone()}</td>
                    <td>{i.change.label()}</td>
                    <td class="num">{format!("{} → {}", number(i.quantity_before), number(i.quantity_after))}</td>
                    <td class="num">{signed(i.cost_delta.dollars(), app::money::usd(engine::Usd::new(i.cost_delta.dollars().abs())))}</td>
                    <td class="num">{signed(i.power_delta.watts(), app::money::watts(engine::Watts::new(i.power_delta.watts().abs())))}</td>
                </tr>
            }
        })
        .collect_view();
    let table = (!diff.items.is_empty()).then(|| {
        view! {
            <table class="compare-bill" id="compare-bill">
                <caption>"Bill to order, A to B: each line that differs, the dearest first"</caption>
                <thead><tr>
                    <th scope="col">"Fabric"</th><th scope="col">"Item"</th><th scope="col">"Change"</th>
                    <th scope="col">"Quantity"</th><th scope="col">"Cost"</th><th scope="col">"Power"</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        }
    });
    view! {
        <section class="panel" aria-labelledby="bill-heading">
            <h2 id="bill-heading">"Bill of materials"</h2>
            <p id="bill-difference">{summary}</p>
            {table}
            <p><a id="compare-bill-csv" href=bill_csv_link(&a.reference, &b.reference)>"The difference as a spreadsheet (CSV)"</a></p>
        </section>
    }
}

/// The tenants of `report` and what their isolation costs, as rows of the outputs table.
fn tenancy_rows(spec: &engine::DesignSpec, report: &Report) -> Vec<(String, String)> {
    let costs = engine::tenancy::isolation_cost(spec, report);
    let placed = report
        .tenants
        .iter()
        .map(|t| format!("{} ({}, {})", t.tenant, t.isolation.label(), t.unit_range()))
        .collect::<Vec<_>>()
        .join("; ");
    let engine::tenancy::IsolationTotal {
        stranded_gpus: gpus,
        stranded_ports: idle,
        extra_switches: switches,
        extra_ports: ports,
        extra_switch_cost: cost,
    } = engine::tenancy::isolation_total(&costs);
    vec![
        ("Tenants".into(), placed),
        (
            "Isolation: stranded GPUs (idle leaf ports)".into(),
            format!("{gpus} ({idle})"),
        ),
        (
            "Isolation: switches (ports) fabrics of their own add".into(),
            format!("{switches} ({ports}), {}", app::money::usd(cost)),
        ),
    ]
}

/// Headline figures, totals and per-fabric size of both sides, row by row.
fn outputs_table(a: &Side, b: &Side, la: &str, lb: &str) -> AnyView {
    let figures = |side: &Side| -> Vec<(String, String)> {
        let Ok(r) = &side.report else {
            return vec![];
        };
        let mut rows: Vec<(String, String)> = headline_figures(&r.headline)
            .into_iter()
            .map(|(_, label, value, _)| (label.to_string(), value))
            .collect();
        rows.push((
            "Network cost as placed".into(),
            app::money::usd(r.network().cost_usd),
        ));
        rows.push((
            "Network power as placed".into(),
            app::money::watts(r.network().power_w),
        ));
        if !r.tenants.is_empty() {
            rows.extend(tenancy_rows(&side.revision.spec, r));
        }
        for f in &r.fabrics {
            rows.push((
                format!("Fabric {}: leaf / spine / core switches", f.name),
                format!(
                    "{} / {} / {}",
                    number(f.plan.leaves),
                    number(f.plan.spines),
                    number(f.plan.cores)
                ),
            ));
            rows.push((
                format!("Fabric {}: oversubscription", f.name),
                format!("{}:1", f.oversubscription),
            ));
        }
        rows
    };
    let (fa, fb) = (figures(a), figures(b));
    let mut labels: Vec<String> = fa.iter().map(|(l, _)| l.clone()).collect();
    for (l, _) in &fb {
        if !labels.contains(l) {
            labels.push(l.clone());
        }
    }
    let find = |rows: &[(String, String)], label: &str| {
        rows.iter()
            .find(|(l, _)| l == label)
            .map_or_else(|| "—".to_string(), |(_, v)| v.clone())
    };
    let rows = labels
        .iter()
        .map(|label| {
            let (va, vb) = (find(&fa, label), find(&fb, label));
            let differs = va != vb;
            view! {
                <tr class:differs=differs>
                    <th scope="row">{label.clone()}</th>
                    <td class="num">{va}</td>
                    <td class="num">{vb}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="compare-figures" id="compare-outputs">
            <thead><tr><th scope="col">"Figure"</th><th scope="col" class="num">{la.to_string()}</th><th scope="col" class="num">{lb.to_string()}</th></tr></thead>
            <tbody>{rows}</tbody>
        </table>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SuperPOD example with its job on 5 nodes (no growth phases) and `tenants`.
    fn five_node_job_with(tenants: serde_json::Value) -> engine::DesignSpec {
        let mut spec: serde_json::Value =
            serde_json::from_str(engine::examples::SUPERPOD_4SU).unwrap();
        spec.as_object_mut().unwrap().remove("growth");
        spec["workloads"][0]["parallelism"]["pp"] = 1.into();
        spec["workloads"][0]["parallelism"]["dp"] = 5.into();
        spec["workloads"][0]["global_batch"] = 20.into();
        spec["tenants"] = tenants;
        engine::DesignSpec::from_value(spec).unwrap()
    }

    #[test]
    fn references_are_share_links_revision_links_or_bare_ids() {
        let id = DesignId::random();
        let i = id.as_str();
        assert_eq!(parse_reference(i), Some((id.clone(), None)));
        assert_eq!(
            parse_reference(&format!("http://host:3000/d/{i}/r/3")),
            Some((id.clone(), Some(3)))
        );
        assert_eq!(
            parse_reference(&format!("/d/{i}/")),
            Some((id.clone(), None))
        );
        assert_eq!(parse_reference(&format!("{i}/r/0")), None);
        assert_eq!(parse_reference(&format!("{i}/edit")), None);
        assert_eq!(parse_reference("' OR 1=1"), None);
    }

    /// A revision that gives a team whole scalable units says what that strands: 5 nodes of a
    /// 32-node unit leave 27 idle, 216 GPUs.
    #[test]
    fn the_outputs_say_where_tenants_run_and_what_their_isolation_strands() {
        let spec = five_node_job_with(serde_json::json!([
            {"name": "research", "workloads": ["Llama 3.1 405B pre-training"], "isolation": "scalable_unit"}
        ]));
        let report = engine::evaluate(&spec).unwrap();
        let rows = tenancy_rows(&spec, &report);
        assert_eq!(
            rows[0],
            (
                "Tenants".into(),
                "research (per scalable unit, unit 1)".into()
            )
        );
        assert_eq!(
            rows[1].1, "216 (216)",
            "27 idle nodes: their GPUs and leaf ports"
        );
        assert_eq!(rows[2].1, "0 (0), $0");
        assert_eq!(
            app::labels::field_name(&spec, "tenants[0].isolation"),
            "Tenant “research” · Isolation"
        );
    }
}
