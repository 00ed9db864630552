use engine::operations::{FabricOperations, Setting};
use leptos::prelude::*;

fn settings_table(caption: &'static str, first: &'static str, settings: Vec<Setting>) -> AnyView {
    if settings.is_empty() {
        return ().into_any();
    }
    let rows = settings
        .into_iter()
        .map(|s| {
            view! {
                <tr>
                    <th scope="row">{s.item.to_string()}</th>
                    <td>{s.value.to_string()}</td>
                    <td>{s.reason.to_string()}</td>
                    <td class="source">{s.source.to_string()}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="settings">
            <caption>{caption}</caption>
            <thead><tr><th scope="col">{first}</th><th scope="col">{if first == "Counter" { "Alert" } else { "Value" }}</th><th scope="col">"Why"</th><th scope="col">"Source"</th></tr></thead>
            <tbody>{rows}</tbody>
        </table>
    }
    .into_any()
}

/// Lossless Ethernet or its InfiniBand equivalent, NCCL settings and the monitoring plan of
/// one fabric.
#[component]
pub fn OperationsSection(ops: FabricOperations) -> AnyView {
    let id = format!(
        "operations-{}",
        ops.fabric
            .replace(|c: char| !c.is_ascii_alphanumeric(), "-")
    );
    let checklist_caption = if ops.technology.needs_lossless_ethernet() {
        "Lossless Ethernet: every switch and NIC in the path"
    } else {
        "InfiniBand fabric settings"
    };
    let headroom = (!ops.pfc_headroom.is_empty()).then(|| {
        let rows = ops
            .pfc_headroom
            .into_iter()
            .map(|h| {
                view! {
                    <tr>
                        <th scope="row">{h.tier.to_string()}</th>
                        <td class="num">{format!("{} m", h.length_m)}</td>
                        <td class="num pfc-headroom">{h.bytes.value.to_string()}</td>
                        <td class="source">{h.bytes.formula.to_string()} " [" {h.bytes.source.to_string()} "]"</td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <table class="settings">
                <caption>"PFC headroom per port and lossless priority"</caption>
                <thead><tr><th scope="col">"Cable run"</th><th scope="col" class="num">"Length"</th><th scope="col" class="num">"Headroom"</th><th scope="col">"How"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        }
    });
    let snippets = ops
        .snippets
        .into_iter()
        .map(|s| {
            view! {
                <figure class="snippet">
                    <figcaption>{s.platform.to_string()}</figcaption>
                    <pre><code>{s.text}</code></pre>
                </figure>
            }
        })
        .collect_view();
    let utilisation = ops
        .expected_utilisation
        .into_iter()
        .map(|u| {
            view! {
                <li>
                    {format!(
                        "{}: {:.1} % of line rate per port on average, about {:.0} % while its collectives run",
                        u.workload,
                        u.average.value.0 * 100.0,
                        u.during_bursts.0 * 100.0
                    )}
                    <span class="source">" — " {u.average.formula.to_string()}</span>
                </li>
            }
        })
        .collect_view();
    let baseline = ops.expected_allreduce_busbw.map(|b| {
        view! {
            <p class="baseline">
                "Baseline: all_reduce_perf -b 1M -e 8G -f 2 -g 1 with one rank per GPU on every node should show about "
                <strong class="expected-busbw">{b.value.to_string()}</strong>
                {format!(
                    " bus bandwidth at 1 GiB and above; below {:.0} % of it, look for a degraded link, a NIC at reduced speed or misconfigured PFC/ECN.",
                    engine::nccl_tests::HEALTHY_SHARE * 100.0
                )}
                <span class="source">" — " {b.formula.to_string()} " [" {b.source.to_string()} "]"</span>
            </p>
        }
    });
    let application = ops
        .application
        .into_iter()
        .map(|a| view! { <li>{a}</li> })
        .collect_view();
    view! {
        <article class="operations" id=id>
            <h3>{format!("{}: {}", ops.fabric, ops.technology.label())}</h3>
            {settings_table(checklist_caption, "Setting", ops.checklist)}
            {headroom}
            <div class="snippets">{snippets}</div>
            {settings_table("NCCL environment", "Variable", ops.nccl)}
            <h4>"Monitoring: link health"</h4>
            {settings_table("Counters to collect and alert on", "Counter", ops.link_counters)}
            <h4>"Monitoring: traffic visibility"</h4>
            <p>{ops.traffic_tool.to_string()} ". What the design's workloads should show, so that hot spots stand out:"</p>
            <ul>{utilisation}</ul>
            <h4>"Monitoring: application correlation"</h4>
            {baseline}
            <ul>{application}</ul>
        </article>
    }
    .into_any()
}
