use super::bom::BomTable;
use super::topology::TopologyDiagram;
use crate::money::{usd, watts};
use engine::FabricReport;
use leptos::prelude::*;

/// A tier's headroom as the dashboard and the report print it.
pub(crate) fn headroom_text(h: Option<f64>) -> String {
    match h {
        None => "no traffic".into(),
        Some(h) if h > 1000.0 => "more than 10×".into(),
        Some(h) => format!("{h:.0} %"),
    }
}

/// One fabric: how it is built and why, its diagram, its headroom and its bill of materials.
#[component]
pub fn FabricSection(fabric: FabricReport) -> AnyView {
    let plan = fabric.plan.clone();
    let id = format!(
        "fabric-report-{}",
        fabric
            .name
            .replace(|c: char| !c.is_ascii_alphanumeric(), "-")
    );
    let cables = fabric
        .cables
        .iter()
        .map(|c| view! { <li>{format!("{}: {} × {} ({} m)", c.tier, c.count, c.reach.label(), c.length_m)}</li> })
        .collect_view();
    let tiers = fabric
        .tiers
        .iter()
        .map(|t| {
            let short = t.headroom_percent.is_some_and(|h| h < 0.0);
            view! {
                <tr class:short=short>
                    <th scope="row">{t.tier.clone()}</th>
                    <td class="num">{t.available.to_string()}</td>
                    <td class="num">{t.required.to_string()}</td>
                    <td class="num">{headroom_text(t.headroom_percent)}</td>
                    <td class="source">{t.formula.to_string()}</td>
                </tr>
            }
        })
        .collect_view();
    let workloads = if fabric.workloads.is_empty() {
        "none".to_string()
    } else {
        fabric.workloads.join(", ")
    };
    view! {
        <article class="fabric-report" id=id>
            <h3>{format!("{} — {} ({} fabric)", fabric.name, fabric.technology.label(), fabric.role.label())}</h3>
            <p class="lede">{format!("{}: {}", plan.layout.label(), plan.reason)}</p>
            <div class="two-columns">
                <table class="facts">
                    <tbody>
                        <tr><th scope="row">"Switch"</th><td>{fabric.switch_name.clone()}</td></tr>
                        <tr><th scope="row">"Tiers"</th><td class="fabric-tiers">{plan.tiers}</td></tr>
                        <tr><th scope="row">"Leaf / spine / core switches"</th><td class="fabric-switches">{format!("{} / {} / {}", plan.leaves, plan.spines, plan.cores)}</td></tr>
                        <tr><th scope="row">"Endpoints"</th><td>{format!("{} ({} nodes × {} ports)", fabric.endpoints, fabric.attached_nodes, fabric.ports_per_node)}</td></tr>
                        <tr><th scope="row">"Switch ports used / free"</th><td>{format!("{} / {}", fabric.ports_used, fabric.ports_free)}</td></tr>
                        <tr><th scope="row">"Leaf oversubscription"</th><td>{format!("{}:1 ({} down, {} up per leaf)", fabric.oversubscription, plan.leaf_downlinks, plan.leaf_uplinks)}</td></tr>
                        <tr><th scope="row">"Bisection bandwidth"</th><td>{fabric.bisection.value.to_string()}<span class="source">" — " {fabric.bisection.formula.to_string()}</span></td></tr>
                        <tr><th scope="row">"Grows to, without new spines"</th><td>{format!("{} nodes", fabric.max_nodes)}</td></tr>
                        <tr><th scope="row">"Cables"</th><td><ul class="plain">{cables}</ul></td></tr>
                        <tr><th scope="row">"Transceivers"</th><td>{fabric.transceivers}</td></tr>
                        <tr><th scope="row">"Cost / power"</th><td>{format!("{} / {}", usd(fabric.cost_usd), watts(fabric.power_w))}</td></tr>
                        <tr><th scope="row">"Carries"</th><td>{workloads}</td></tr>
                    </tbody>
                </table>
                <TopologyDiagram fabric=fabric.clone()/>
            </div>
            <table class="headroom">
                <caption>"Bandwidth headroom per tier (one direction)"</caption>
                <thead><tr><th scope="col">"Tier"</th><th scope="col" class="num">"Available"</th><th scope="col" class="num">"Required"</th><th scope="col" class="num">"Headroom"</th><th scope="col">"How"</th></tr></thead>
                <tbody>{tiers}</tbody>
            </table>
            <BomTable lines=fabric.bom.clone() fabric=fabric.name.clone()/>
        </article>
    }
    .into_any()
}
