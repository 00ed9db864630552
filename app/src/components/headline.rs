use engine::{Report, Severity};
use leptos::prelude::*;
use std::sync::Arc;

fn or_dash<T: std::fmt::Display>(value: Option<T>) -> String {
    value.map(|v| v.to_string()).unwrap_or_else(|| "—".into())
}

/// A headroom ratio; beyond 100× the exact figure means nothing to the reader.
fn headroom(value: Option<engine::Ratio>) -> String {
    match value {
        Some(r) if r.get() > 100.0 => "over 100×".into(),
        other => or_dash(other),
    }
}

/// The figures an architect reads first: element id, label, value, what it means.
pub fn headline_figures(
    h: &engine::Headline,
) -> [(&'static str, &'static str, String, &'static str); 6] {
    [
        (
            "headline-slowdown",
            "Training step slowdown",
            or_dash(h.worst_training_slowdown),
            "against an ideal network",
        ),
        (
            "headline-latency",
            "Communication per token",
            or_dash(h.worst_inter_token.map(|v| v.value)),
            match h.worst_inter_token {
                Some(v) if v.meets => "within the target inter-token latency",
                Some(_) => "over the target inter-token latency",
                None => "tensor-parallel inference",
            },
        ),
        (
            "headline-storage",
            "Storage read headroom",
            headroom(h.storage_read_headroom),
            "available ÷ provisioned",
        ),
        (
            "headline-checkpoint",
            "Checkpoint write ÷ budget",
            or_dash(h.checkpoint_time_over_budget),
            "under 100 % fits the budget",
        ),
        (
            "headline-switches",
            "Switches",
            crate::words::number(h.switches),
            "all fabrics",
        ),
        (
            "headline-cost",
            "Network cost per GPU",
            crate::money::usd(h.cost_per_gpu_usd),
            "switches, cables and optics as placed",
        ),
    ]
}

/// The headline figures as tiles.
#[component]
pub fn Headline(report: Arc<Report>) -> AnyView {
    let tiles = headline_figures(&report.headline)
        .into_iter()
        .map(|(id, label, value, note)| {
            view! {
                <div class="tile">
                    <span class="tile-label">{label}</span>
                    <span class="tile-value" id=id>{value}</span>
                    <span class="tile-note">{note}</span>
                </div>
            }
        })
        .collect_view();
    view! { <div class="tiles">{tiles}</div> }.into_any()
}

/// The figures that decide a design, in one line: kept in sight on a narrow screen while the
/// inputs above are typed into.
#[component]
pub fn SummaryBar(report: Arc<Report>) -> AnyView {
    let figures = headline_figures(&report.headline)
        .into_iter()
        .filter(|(_, _, value, _)| value != "—")
        .take(4)
        .map(|(_, label, value, _)| view! { <span><span class="bar-label">{label}</span> " " <strong>{value}</strong></span> })
        .collect_view();
    let critical = report
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Critical)
        .count();
    view! {
        <div class="summary-bar" id="summary-bar" aria-hidden="true">
            {figures}
            {(critical > 0).then(|| view! { <span class="bar-critical">{format!("{critical} critical")}</span> })}
        </div>
    }
    .into_any()
}

/// Warnings and recommendations, most severe first, each with the rule that raised it.
#[component]
pub fn Findings(report: Arc<Report>) -> AnyView {
    if report.findings.is_empty() {
        return view! { <p class="note" id="findings">"No findings: nothing in this design breaks a rule."</p> }.into_any();
    }
    let items = report
        .findings
        .iter()
        .map(|f| {
            let class = match f.severity {
                Severity::Critical => "finding critical",
                Severity::Warning => "finding warning",
                Severity::Recommendation => "finding recommendation",
                Severity::Info => "finding info",
            };
            view! {
                <li class=class data-rule=f.rule.to_string()>
                    <span class="severity">{f.severity.label()}</span>
                    <span class="subject">{f.subject.clone()}</span>
                    " "
                    {f.message.clone()}
                </li>
            }
        })
        .collect_view();
    view! { <ul class="findings" id="findings">{items}</ul> }.into_any()
}
