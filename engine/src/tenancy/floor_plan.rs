//! The floor plan by tenant: each rack of nodes in the colour of the tenant holding most of
//! its nodes.

use super::TenantPlacement;
use crate::floor::svg::drawn;
use crate::floor::FloorReport;

/// Colours of the tenants on [`floor_plan_by_tenant`], in the design's order (repeating after
/// eight); racks of no tenant's node are pale, network racks grey.
pub const TENANT_COLOURS: [&str; 8] = [
    "#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#1f78b4",
];

/// The floor plan with each rack of nodes coloured by the tenant holding most of them, its
/// title naming every tenant in it with its nodes there.
pub fn floor_plan_by_tenant(floor: &FloorReport, tenants: &[TenantPlacement]) -> String {
    let colour = |t: usize| TENANT_COLOURS[t % TENANT_COLOURS.len()];
    let legend: Vec<(&str, &str)> = tenants
        .iter()
        .enumerate()
        .map(|(t, p)| (colour(t), p.tenant.as_str()))
        .collect();
    drawn(
        floor,
        |_, rack| {
            if rack.network {
                return ("#d9d9d9", format!("{}: network", rack.name));
            }
            let mut held = vec![0u32; tenants.len()];
            for n in rack
                .devices
                .iter()
                .filter_map(crate::floor::Device::node_number)
            {
                if let Some(t) = tenants.iter().position(|p| p.holds(n)) {
                    held[t] += 1;
                }
            }
            let most = (0..tenants.len())
                .filter(|&t| held[t] > 0)
                .max_by_key(|&t| held[t]);
            let who: Vec<String> = (0..tenants.len())
                .filter(|&t| held[t] > 0)
                .map(|t| format!("{} ({} nodes)", tenants[t].tenant, held[t]))
                .collect();
            match most {
                Some(t) => (colour(t), format!("{}: {}", rack.name, who.join(", "))),
                None => ("#f7f7f7", format!("{}: no tenant", rack.name)),
            }
        },
        false,
        &legend,
    )
}
