//! The topology diagram of a fabric: its tiers of switches and the links between them.

use engine::tenancy::TenantPlacement;
use engine::tenancy::TENANT_COLOURS;
use engine::FabricReport;
use leptos::prelude::*;
use leptos::tachys::view::RenderHtml;

/// The topology diagram of `fabric` shared by `tenants`, as SVG.
pub fn svg(fabric: &FabricReport, tenants: &[TenantPlacement]) -> String {
    view! { <TopologyDiagram fabric=fabric.clone() tenants=tenants.to_vec()/> }.to_html()
}

/// The tenants' nodes on the endpoints bar (from `x0`, `width` wide, at `y`), each a segment of
/// its colour on the floor plan by tenant over the share of the fabric's nodes it holds, in node
/// order (the leaves' order): where each tenant sits under the leaves.
fn tenant_segments(
    fabric: &FabricReport,
    tenants: &[TenantPlacement],
    (x0, width, y): (f64, f64, f64),
) -> AnyView {
    let first = fabric.first_node.max(1);
    let nodes = f64::from(fabric.attached_nodes.max(1));
    tenants
        .iter()
        .enumerate()
        .filter_map(|(i, t)| {
            let from = t.first_node.max(first);
            let to = t.last_node().min(first + fabric.attached_nodes - 1);
            (from <= to).then(|| {
                let x = x0 + width * f64::from(from - first) / nodes;
                let w = width * f64::from(to - from + 1) / nodes;
                let colour = TENANT_COLOURS[i % TENANT_COLOURS.len()];
                let title = format!("tenant {}: {}", t.tenant, t.range());
                view! { <rect x=x y=y width=w height="18" fill=colour fill-opacity="0.5" class="tenant"><title>{title}</title></rect> }
            })
        })
        .collect_view()
        .into_any()
}

const WIDTH: f64 = 560.0;
const BOX_W: f64 = 46.0;
const BOX_H: f64 = 22.0;
/// Switches drawn per tier before the rest is summarised.
const DRAWN: u32 = 8;

/// A tier of the diagram: its switches as boxes, and the count.
fn tier_row(label: &str, count: u32, y: f64, class: &'static str) -> (AnyView, Vec<f64>) {
    let drawn = count.min(DRAWN);
    let step = if drawn > 0 {
        (WIDTH - 140.0) / f64::from(drawn)
    } else {
        0.0
    };
    let xs: Vec<f64> = (0..drawn)
        .map(|i| 120.0 + step * (f64::from(i) + 0.5) - BOX_W / 2.0)
        .collect();
    let boxes = xs
        .iter()
        .map(|x| view! { <rect x=*x y=y width=BOX_W height=BOX_H rx="3" class=class/> })
        .collect_view();
    // The count, what is counted and how many are drawn each take a line, so that the label
    // ends before the boxes however large the count.
    let label = if count == 1 {
        label.replace("switches", "switch")
    } else {
        label.to_string()
    };
    let lines: Vec<String> = [crate::words::number(count), label]
        .into_iter()
        .chain((count > drawn).then(|| format!("({drawn} drawn)")))
        .collect();
    let first = y + BOX_H / 2.0 + 4.0 - 5.0 * (lines.len() - 1) as f64;
    let labels = lines
        .into_iter()
        .enumerate()
        .map(|(i, line)| view! { <text x="8" y=first + 10.0 * i as f64 class="tier-label">{line}</text> })
        .collect_view();
    let view = view! {
        {labels}
        {boxes}
    }
    .into_any();
    (view, xs.iter().map(|x| x + BOX_W / 2.0).collect())
}

fn links(from: &[f64], y_from: f64, to: &[f64], y_to: f64) -> AnyView {
    from.iter()
        .flat_map(|a| to.iter().map(move |b| (*a, *b)))
        .map(|(a, b)| view! { <line x1=a y1=y_from x2=b y2=y_to class="link"/> })
        .collect_view()
        .into_any()
}

/// The fabric's tiers with their switch counts, link counts and speed, and the tenants' nodes
/// under them, as SVG.
#[component]
pub fn TopologyDiagram(fabric: FabricReport, tenants: Vec<TenantPlacement>) -> AnyView {
    let plan = &fabric.plan;
    if plan.switches() == 0 {
        return view! { <p class="note">"No switches: " {plan.reason.clone()}</p> }.into_any();
    }
    let tiers = plan.tiers.max(1);
    let height = 70.0 + 60.0 * f64::from(tiers);
    let mut y = 16.0;
    let mut rows: Vec<AnyView> = Vec::new();
    let mut link_labels: Vec<AnyView> = Vec::new();
    // The x positions and y of the tier drawn last, to link the next one to it.
    let mut last: Option<(Vec<f64>, f64)> = None;
    let speed = fabric.port_rate.to_string();
    for (label, count, links_count, class) in [
        (
            "core switches",
            plan.cores,
            plan.spine_core_links,
            "switch core",
        ),
        (
            "spine switches",
            plan.spines,
            plan.leaf_spine_links,
            "switch spine",
        ),
        (
            "leaf switches",
            plan.leaves,
            plan.node_leaf_links,
            "switch leaf",
        ),
    ] {
        if count == 0 {
            continue;
        }
        let (row, xs) = tier_row(label, count, y, class);
        if let Some((above, y_above)) = &last {
            rows.push(links(above, *y_above + BOX_H, &xs, y));
        }
        rows.push(row);
        // In the left column, below the tier's label, where no link runs.
        link_labels.push(view! {
            <text x="8" y=y + 40.0 class="link-label">{format!("{} links", crate::words::number(links_count))}</text>
            <text x="8" y=y + 50.0 class="link-label">{format!("of {speed} below")}</text>
        }.into_any());
        last = Some((xs, y));
        y += 60.0;
    }
    let others = fabric
        .endpoints
        .saturating_sub(fabric.attached_nodes * fabric.ports_per_node);
    let mut nodes = format!(
        "{} × {}",
        crate::words::counted(fabric.attached_nodes, "node", "nodes"),
        crate::words::counted(fabric.ports_per_node, "port", "ports")
    );
    if others > 0 {
        nodes.push_str(&format!(
            " + {} other endpoints",
            crate::words::number(others)
        ));
    }
    let label = format!(
        "Topology of fabric {}: {}",
        fabric.name,
        plan.layout.label()
    );
    view! {
        <svg class="topology" viewBox=format!("0 0 {WIDTH} {height}") role="img" aria-label=label>
            {rows}
            {link_labels}
            <rect x="120" y=y width=WIDTH - 140.0 height="18" rx="3" class="nodes"/>
            {tenant_segments(&fabric, &tenants, (120.0, WIDTH - 140.0, y))}
            <text x="8" y=y + 13.0 class="tier-label">"endpoints"</text>
            <text x="128" y=y + 13.0 class="tier-label">{nodes}</text>
        </svg>
    }
    .into_any()
}
