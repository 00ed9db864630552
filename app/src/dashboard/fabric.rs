use crate::charts::topology::TopologyDiagram;
use crate::report::html::blocks_view;
use crate::report::{bom_blocks, fabric_facts, fabric_heading, fabric_lede, tier_table, Block};
use engine::FabricReport;
use leptos::prelude::*;

/// One fabric: how it is built and why, its diagram (with the `tenants`' nodes), its headroom and its bill of materials,
/// with the report's facts, tables and notes.
#[component]
pub fn FabricSection(
    fabric: FabricReport,
    tenants: Vec<engine::tenancy::TenantPlacement>,
) -> AnyView {
    let id = format!(
        "fabric-report-{}",
        fabric
            .name
            .replace(|c: char| !c.is_ascii_alphanumeric(), "-")
    );
    let facts = fabric_facts(&fabric)
        .into_iter()
        .map(|(key, what, value)| view! { <tr><th scope="row">{what}</th><td class=format!("fabric-{key}")>{value}</td></tr> })
        .collect_view();
    let mut tables = vec![Block::Table(tier_table(&fabric))];
    tables.extend(bom_blocks(&fabric));
    view! {
        <article class="fabric-report" id=id>
            <h3>{fabric_heading(&fabric)}</h3>
            <p class="lede">{fabric_lede(&fabric)}</p>
            <div class="two-columns">
                <table class="facts">
                    <tbody>{facts}</tbody>
                </table>
                <TopologyDiagram fabric=fabric.clone() tenants=tenants/>
            </div>
            <div>{blocks_view(&tables)}</div>
        </article>
    }
    .into_any()
}
