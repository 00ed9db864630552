//! A design's calibration fitted to its baselines (`engine::calibration_fit`): per fabric, the
//! fitted values against the design's, how well they predict the measurements (on the runs used
//! and on a run held out), what each workload's time becomes, and, for the browser holding the
//! edit key, the button that makes it the design's next revision.

use app::pages::document::{document, Page};
use app::store::DesignHead;
use engine::calibration_fit::{Drift, Fit};
use engine::Micros;
use engine::{Calibration, Report};
use leptos::prelude::*;
use leptos::tachys::view::RenderHtml;

/// A fit of one fabric of the design's newest revision.
pub struct Fitting {
    pub fabric: String,
    /// The baselines read, by number, oldest first.
    pub baselines: Vec<u32>,
    /// Each baseline's number, the day it was measured and its label, in the same order.
    pub measured: Vec<(u32, String, String)>,
    /// Each baseline fitted on its own, and whether the newest departs from the others.
    pub drift: Option<Drift>,
    /// The fit, or why the baselines cannot determine one.
    pub fit: Result<Fit, String>,
    /// The newest revision's report, and the same design with the fit applied.
    pub before: Option<Report>,
    pub after: Option<Report>,
}

/// The page of design `head` (its newest revision calibrated as `calibration`): a link per
/// fabric that has baselines, and the fit of the one asked for.
pub fn calibration_page(
    head: &DesignHead,
    calibration: &Calibration,
    fabrics: &[String],
    fitting: Option<&Fitting>,
    editable: bool,
) -> Page {
    let id = head.id.clone();
    let links = fabrics
        .iter()
        .map(|f| {
            let href = format!("/d/{id}/calibration?fabric={f}");
            view! { <li><a class="fit-fabric" href=href>{format!("Fit fabric {f}")}</a></li> }
        })
        .collect_view();
    let none = fabrics.is_empty().then(|| {
        view! { <p class="note" id="no-fit">"No fabric of this design has a baseline yet: add nccl-tests runs on the baselines page, over a range of message sizes and at two node counts or more, and fit them here."</p> }
    });
    let shown = fitting.map(|f| fitting_view(&id, head.latest_revision, f, editable));
    let body = view! {
        <section class="panel" aria-labelledby="calibration-heading">
            <h1 id="calibration-heading">{format!("Calibration of “{}”", head.title)}</h1>
            <p class="meta">
                <a href=format!("/d/{id}")>"Back to the design"</a>
                " · " <a href=format!("/d/{id}/baselines")>"Baselines"</a>
            </p>
            <p id="calibration-source">{format!("Revision {}'s calibration: {}.", head.latest_revision, app::labels::calibration_source(calibration))}</p>
            <p class="help">"The fit finds the fabric's achievable share of line rate and the network-hop latency of each protocol NCCL sends the runs' messages with (Simple, LL128, LL) that make the design's predictions meet the bus bandwidth each baseline measured, at every message size of every run across nodes; runs on one node give NVLink's and NVLS's own values; and where runs within one leaf stand beside runs across the spines (or within a pod beside runs across the core), what crossing that tier costs: a share of the rate and latency added to each network hop."</p>
            {none}
            <ul>{links}</ul>
        </section>
        {shown}
    }
    .to_html();
    Page::ok(document(&format!("Calibration of {}", head.title), body))
}

fn fitting_view(id: &str, latest: u32, f: &Fitting, editable: bool) -> AnyView {
    let heading = format!(
        "Fabric {} fitted to baselines {}",
        f.fabric,
        engine::numbered(&f.baselines)
    );
    let over_time = f.drift.as_ref().map(|d| drift_view(d, &f.measured));
    let fit = match &f.fit {
        Err(why) => {
            return view! {
                <section class="panel" aria-labelledby="fit-heading">
                    <h2 id="fit-heading">{heading}</h2>
                    <p class="save-error" id="fit-refused">{format!("No fit: {why}")}</p>
                    {over_time}
                </section>
            }
            .into_any()
        }
        Ok(fit) => fit,
    };
    let latency = match (fit.network_hop_latency_us, &fit.latency_not_fitted) {
        (Some(us), _) => format!("{:.1} µs", us.micros()),
        (None, Some(why)) => format!("not fitted: {why}"),
        (None, None) => "not fitted".into(),
    };
    // LL128's and LL's: fitted on the messages NCCL sends with them, else scaled as Simple's.
    let protocol = |name: &str, before: Micros, own: Option<Micros>| {
        let fitted = match (fit.protocol_latency_us(before, own), own) {
            (Some(us), Some(_)) => format!("{:.1} µs", us.micros()),
            (Some(us), None) => format!(
                "{:.1} µs, scaled as Simple's (no run shows {name}'s)",
                us.micros()
            ),
            (None, _) => "not fitted".into(),
        };
        view! { <tr><td>{format!("{name} network hop latency")}</td><td>{format!("{:.1} µs", before.micros())}</td><td>{fitted}</td></tr> }
    };
    let protocols = [
        protocol(
            "LL128",
            fit.ll128_network_hop_latency_before_us,
            fit.ll128_network_hop_latency_us,
        ),
        protocol(
            "LL",
            fit.ll_network_hop_latency_before_us,
            fit.ll_network_hop_latency_us,
        ),
    ];
    let tiers = fit.tiers.iter().map(tier_rows).collect_view();
    let node = node_rows(&fit.node);
    let q = &fit.quality;
    let quality = format!(
        "On the {} sizes used: mean error {:.1} %, bias {:+.1} %, worst {:+.1} % at {} on {} ranks.",
        fit.points,
        q.mape_percent,
        q.bias_percent,
        q.worst.error_percent,
        engine::nccl_tests::size_label(q.worst.bytes),
        q.worst.ranks
    );
    let held = if fit.held_out.is_none() {
        "Too few runs to hold one out and test the fit on it.".to_string()
    } else {
        fit.held_out
            .iter()
            .chain(&fit.held_out_smallest)
            .map(|h| {
                format!(
                    "Fitted without {}, it predicts it with a mean error of {:.1} % (bias {:+.1} %).",
                    h.held_out, h.quality.mape_percent, h.quality.bias_percent
                )
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let at_least = fit.efficiency_only_at_least.clone().map(|why| {
        view! { <p class="note">{format!("The efficiency is a lower bound: {why}")}</p> }
    });
    let rows = f
        .before
        .as_ref()
        .map(|before| headline_rows(before, f.after.as_ref()));
    let apply = editable.then(|| {
        view! {
            <form method="post" action=format!("/d/{id}/calibration") id="apply-fit">
                <input type="hidden" name="fabric" value=f.fabric.clone()/>
                <button type="submit" class="primary">{format!("Make it revision {}", latest + 1)}</button>
            </form>
        }
    });
    view! {
        <section class="panel" aria-labelledby="fit-heading">
            <h2 id="fit-heading">{heading}</h2>
            <table class="data" id="fit-values">
                <thead><tr><th>"Value"</th><th>"The design's"</th><th>"Fitted"</th></tr></thead>
                <tbody>
                    <tr><td>{label(&fit.efficiency_field)}</td><td>{format!("{:.3}", fit.efficiency_before)}</td><td>{format!("{:.3}", fit.efficiency)}</td></tr>
                    <tr><td>{label("network_hop_latency_us")}</td><td>{format!("{:.1} µs", fit.network_hop_latency_before_us.micros())}</td><td>{latency}</td></tr>
                    {protocols}
                    {tiers}
                    {node}
                </tbody>
            </table>
            {at_least}
            <p id="fit-quality">{quality}</p>
            <p id="fit-held-out">{held}</p>
            <table class="data" id="fit-headline">
                <caption>"Each workload's time with the design's calibration and with the fit"</caption>
                <thead><tr><th>"Workload"</th><th>"Time"</th><th>"Now"</th><th>"Fitted"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
            {apply}
            {over_time}
        </section>
    }
    .into_any()
}

/// Each baseline fitted on its own, oldest first, and the finding when the newest departs.
fn drift_view(d: &Drift, measured: &[(u32, String, String)]) -> impl IntoView {
    let rows = d
        .points
        .iter()
        .filter_map(|p| {
            let (number, on, label) = measured.get(p.index)?;
            let fitted = match (p.efficiency, &p.not_fitted) {
                (Some(e), _) => format!("{e:.3}"),
                (None, Some(why)) => format!("not fitted: {why}"),
                (None, None) => "–".into(),
            };
            let us = |v: Option<Micros>| {
                v.map_or_else(|| "–".to_string(), |us| format!("{:.1} µs", us.micros()))
            };
            Some(view! {
                <tr>
                    <td>{format!("#{number}")}</td><td>{on.clone()}</td><td>{label.clone()}</td><td>{engine::calibration_fit::TIER_WORDS[p.tier.min(3)]}</td><td>{fitted}</td>
                    <td>{us(p.network_hop_latency_us)}</td><td>{us(p.ll128_network_hop_latency_us)}</td><td>{us(p.ll_network_hop_latency_us)}</td>
                </tr>
            })
        })
        .collect_view();
    let finding = d.departure.as_ref().map(|x| {
        view! { <p class="verdict flagged" id="fit-drift" role="alert">{x.message.clone()}</p> }
    });
    view! {
        <h3>"Over time"</h3>
        {finding}
        <table class="data" id="fit-over-time">
            <caption>"Each baseline fitted on its own, oldest first; the newest is compared with the earlier runs of its tier"</caption>
            <thead><tr><th>"Baseline"</th><th>"Measured on"</th><th>"Label"</th><th>"Run"</th><th>"Efficiency"</th><th>"Network hop (Simple)"</th><th>"LL128"</th><th>"LL"</th></tr></thead>
            <tbody>{rows}</tbody>
        </table>
    }
}

/// A calibration field as the planner's form names it.
fn label(field: &str) -> String {
    engine::CALIBRATION_FIELDS
        .iter()
        .find(|f| f.field == field)
        .map_or_else(|| field.to_string(), |f| f.label.to_string())
}

/// The rows within one node: NVLink's and NVLS's efficiency and latency, as fitted to the runs
/// on one node, or why not.
fn node_rows(n: &engine::calibration_fit::NodeFit) -> impl IntoView {
    let fitted = |value: Option<f64>, unit: &str, digits: usize| match (value, &n.not_fitted) {
        (Some(v), _) => format!("{v:.digits$}{unit}"),
        (None, Some(why)) => format!("not fitted: {why}"),
        (None, None) => "not fitted".into(),
    };
    [
        ("NVLink efficiency (within one node)", n.scale_up_efficiency_before, n.scale_up_efficiency, "", 3),
        ("NVLink hop latency", n.scale_up_hop_latency_before_us.micros(), n.scale_up_hop_latency_us.map(Micros::micros), " µs", 1),
        ("NVLS efficiency", n.nvls_efficiency_before, n.nvls_efficiency, "", 3),
        ("NVLS latency", n.nvls_latency_before_us.micros(), n.nvls_latency_us.map(Micros::micros), " µs", 1),
    ]
    .into_iter()
    .map(|(name, before, value, unit, digits)| {
        view! { <tr class="node"><td>{name}</td><td>{format!("{before:.digits$}{unit}")}</td><td>{fitted(value, unit, digits)}</td></tr> }
    })
    .collect_view()
}

/// A locality tier's rows: the share of the rate kept across it and the latency it adds to each
/// network hop, as fitted, or why not.
fn tier_rows(t: &engine::calibration_fit::TierFit) -> impl IntoView {
    let fitted = |value: Option<String>| match (value, &t.not_fitted) {
        (Some(v), _) => v,
        (None, Some(why)) => format!("not fitted: {why}"),
        (None, None) => "not fitted".into(),
    };
    view! {
        <tr class="tier"><td>{format!("Share of the rate kept across the {}", t.tier)}</td><td>{format!("{:.3}", t.efficiency_share_before)}</td><td>{fitted(t.efficiency_share.map(|s| format!("{s:.3}")))}</td></tr>
        <tr class="tier"><td>{format!("Extra network hop latency across the {}", t.tier)}</td><td>{format!("{:.1} µs", t.hop_extra_latency_before_us.micros())}</td><td>{fitted(t.hop_extra_latency_us.map(|us| format!("{:.1} µs", us.micros())))}</td></tr>
    }
}

/// A row per workload: its headline time now and with the fit applied.
fn headline_rows(before: &Report, after: Option<&Report>) -> impl IntoView {
    before
        .workloads
        .iter()
        .filter_map(|w| {
            let (what, now) = w.headline_time()?;
            let fitted = after
                .and_then(|a| a.workloads.iter().find(|x| x.name() == w.name()))
                .and_then(|x| x.headline_time())
                .map_or_else(|| "–".to_string(), |(_, t)| t.to_string());
            Some(view! {
                <tr><td>{w.name().to_string()}</td><td>{what}</td><td>{now.to_string()}</td><td>{fitted}</td></tr>
            })
        })
        .collect_view()
}
