//! `/catalog`: every switch, GPU, cable and optic the planner sizes and prices with, each figure
//! with where it comes from, and the figures no public source confirms marked as estimates, so
//! that an architect sees what a design's defaults rest on before overriding them.

use crate::resources::respond::html;
use app::money::{usd, watts};
use app::pages::document::{document, Page};
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use engine::catalog::{Gpu, Media, Provenance, ReachClass, Switch, SwitchFamily, GPUS, SWITCHES};
use engine::Teraflops;
use leptos::prelude::*;
use leptos::tachys::view::RenderHtml;

pub fn routes() -> Router {
    Router::new().route("/catalog", get(catalog))
}

async fn catalog() -> Response {
    html(&catalog_page())
}

/// A source as the page shows it: marked when no public source confirms the figure (and the
/// source does not say so itself).
fn source(p: &Provenance) -> String {
    if p.estimate && !p.source.contains("estimate") {
        format!("{} (estimate)", p.source)
    } else {
        p.source.to_string()
    }
}

/// A switch's ports at each speed it runs: "64 × 400G, 128 × 200G".
fn port_modes(s: &Switch) -> String {
    let modes: Vec<String> = s
        .port_modes
        .iter()
        .map(|(speed, ports)| format!("{ports} × {speed}G"))
        .collect();
    modes.join(", ")
}

fn switch_row(s: &Switch) -> impl IntoView {
    let family = match s.family {
        SwitchFamily::InfiniBand => "InfiniBand",
        SwitchFamily::Ethernet => "Ethernet",
    };
    let estimate = s.ports.estimate || s.cost.estimate;
    view! {
        <tr id=format!("switch-{}", s.key) class:estimate=estimate>
            <th scope="row">{s.short_name()}<br/><code>{s.key}</code></th>
            <td>{family}</td>
            <td>{port_modes(s)}</td>
            <td class="num">{format!("{}G", s.cage_gbps.gbps())}</td>
            <td class="num">{s.rack_units}</td>
            <td>{if s.sharp { "yes" } else { "no" }}</td>
            <td class="num">{watts(s.power_w)}</td>
            <td class="num">{usd(s.price_usd)}</td>
            <td class="source">{format!("Ports: {}. Price and power: {}.", source(&s.ports), source(&s.cost))}</td>
        </tr>
    }
}

fn gpu_row(g: &Gpu) -> impl IntoView {
    let fp8 = if g.fp8_tflops > Teraflops::new(0.0) {
        format!("{}", g.fp8_tflops.tflops())
    } else {
        "–".into()
    };
    view! {
        <tr id=format!("gpu-{}", g.key) class:estimate=g.provenance.estimate>
            <th scope="row">{g.name}<br/><code>{g.key}</code></th>
            <td class="num">{format!("{}", g.bf16_tflops.tflops())}</td>
            <td class="num">{fp8}</td>
            <td class="num">{format!("{}", g.hbm_gb.gigabytes())}</td>
            <td class="num">{format!("{}", g.scale_up_gbytes_per_s.gigabytes_per_second())}</td>
            <td class="num">{format!("{}", g.scale_up_effective_gbytes_per_s.gigabytes_per_second())}</td>
            <td class="num">{g.scale_up_domain}</td>
            <td class="num">{watts(g.tdp_w)}</td>
            <td class="source">{source(&g.provenance)}</td>
        </tr>
    }
}

/// The media as the catalog prices them at 400G, with a twin-port cage on the switch side.
const MEDIA_SPEED_GBPS: f64 = 400.0;
const MEDIA_LINKS_PER_CAGE: u32 = 2;

/// Every medium, cheapest reach first.
const MEDIA: [ReachClass; 5] = [
    ReachClass::Dac,
    ReachClass::Acc,
    ReachClass::Multimode,
    ReachClass::SingleMode,
    ReachClass::LongReach,
];

fn media_row(class: ReachClass) -> impl IntoView {
    let m = Media::of(class, MEDIA_SPEED_GBPS, MEDIA_LINKS_PER_CAGE);
    // Its reach at a speed, where the engine's rule of media would choose it for some run.
    let reach = |speed: f64| {
        let metres = class.max_reach_m(speed);
        if ReachClass::cheapest(speed, metres, false) == Some(class) {
            format!("{metres} m")
        } else {
            "–".into()
        }
    };
    let estimate = m.power.estimate || m.cost.estimate;
    view! {
        <tr id=format!("media-{}", class.key()) class:estimate=estimate>
            <th scope="row">{class.label()}</th>
            <td class="num">{reach(MEDIA_SPEED_GBPS)}</td>
            <td class="num">{reach(800.0)}</td>
            <td class="num">{usd(m.cable_price_usd)}</td>
            <td class="num">{usd(m.host_transceiver_price_usd)}</td>
            <td class="num">{watts(m.host_transceiver_w)}</td>
            <td class="num">{usd(m.switch_transceiver_price_usd)}</td>
            <td class="num">{watts(m.switch_transceiver_w)}</td>
            <td class="source">{format!("Power: {}. Price: {}.", source(&m.power), source(&m.cost))}</td>
        </tr>
    }
}

pub fn catalog_page() -> Page {
    let switches = SWITCHES.iter().map(switch_row).collect_view();
    let gpus = GPUS.iter().map(gpu_row).collect_view();
    let media = MEDIA.into_iter().map(media_row).collect_view();
    let body = view! {
        <section class="panel" aria-labelledby="catalog-heading">
            <h1 id="catalog-heading">"Catalog"</h1>
            <p class="note">"The switches, GPUs, cables and optics the planner sizes and prices designs with. A design can override any price or power (its " <code>"overrides"</code> "); figures marked as estimates have no public source and are worth checking with the vendor. Sources cited in short are listed in full on " <a href="/sources">"Sources"</a> "."</p>
            <table class="assumptions" id="catalog-switches">
                <caption>"Switches: ports by speed, the line rate of one cage, height, in-network reduction (SHARP), maximum power with optics, list price"</caption>
                <thead><tr><th scope="col">"Switch"</th><th scope="col">"Family"</th><th scope="col">"Ports"</th><th scope="col" class="num">"Cage"</th><th scope="col" class="num">"U"</th><th scope="col">"SHARP"</th><th scope="col" class="num">"Power"</th><th scope="col" class="num">"List price"</th><th scope="col">"Source"</th></tr></thead>
                <tbody>{switches}</tbody>
            </table>
            <table class="assumptions" id="catalog-gpus">
                <caption>"GPUs: dense tensor throughput (TFLOP/s), memory (GB), scale-up bandwidth per GPU and direction at line rate and as a ring achieves it (GB/s), GPUs per scale-up domain, power"</caption>
                <thead><tr><th scope="col">"GPU"</th><th scope="col" class="num">"BF16"</th><th scope="col" class="num">"FP8"</th><th scope="col" class="num">"HBM"</th><th scope="col" class="num">"Scale-up"</th><th scope="col" class="num">"Achieved"</th><th scope="col" class="num">"Domain"</th><th scope="col" class="num">"TDP"</th><th scope="col">"Source"</th></tr></thead>
                <tbody>{gpus}</tbody>
            </table>
            <table class="assumptions" id="catalog-media">
                <caption>"Cables and optics at 400G, each link the cheapest that reaches its routed length (no passive copper or multimode at 800G, no active copper to a node): reach, the cable or fibre, the transceiver at the node and the twin-port one at the switch (two links a cage, its power within the switch's maximum and counted there); at other speeds the copper cables' and the transceivers' prices and power scale as (speed ÷ 400G)^0.8, the fibre's do not"</caption>
                <thead><tr><th scope="col">"Medium"</th><th scope="col" class="num">"Reach, 400G"</th><th scope="col" class="num">"800G"</th><th scope="col" class="num">"Cable"</th><th scope="col" class="num">"Node end"</th><th scope="col" class="num">"Power"</th><th scope="col" class="num">"Switch end"</th><th scope="col" class="num">"Power"</th><th scope="col">"Source"</th></tr></thead>
                <tbody>{media}</tbody>
            </table>
        </section>
    }
    .to_html();
    Page::ok(document("Catalog", body))
}
