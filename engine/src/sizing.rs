//! A fabric of a design sized on a switch: the endpoints the design attaches to it, now and at
//! its growth target, and the plan of switches and links that carries them.

use crate::catalog::Switch;
use crate::links::ports_per_node;
use crate::spec::{DesignSpec, Fabric, Role};
use crate::topology::{self, Demand, Layout, Plan};

/// The nodes `fabric` attaches: the number it states, or every node of the cluster.
pub(crate) fn attached_nodes(spec: &DesignSpec, fabric: &Fabric) -> u32 {
    fabric.attached_nodes.unwrap_or(spec.cluster.nodes)
}

/// `fabric` sized on `switch`.
pub(crate) fn size_fabric(
    spec: &DesignSpec,
    fabric: &Fabric,
    switch: &Switch,
) -> Result<Plan, String> {
    let (_, radix) = switch
        .port_mode_for(fabric.port_gbps())
        .ok_or("the switch has no ports fast enough")?;
    let ppn = ports_per_node(&spec.cluster, fabric);
    let nodes = attached_nodes(spec, fabric);
    let endpoints = u64::from(nodes) * u64::from(ppn) + u64::from(fabric.extra_endpoints);
    let growth_nodes = spec.cluster.growth_target_nodes.unwrap_or(nodes).max(nodes);
    let growth = if fabric.attached_nodes.is_some() {
        endpoints
    } else {
        u64::from(growth_nodes) * u64::from(ppn) + u64::from(fabric.extra_endpoints)
    };
    let endpoints = u32::try_from(endpoints).map_err(|_| "too many endpoints".to_string())?;
    let growth =
        u32::try_from(growth).map_err(|_| "too many endpoints at the growth target".to_string())?;
    // One node alone on a compute fabric needs no GPU fabric at all (seed C1).
    if fabric.role == Role::Compute
        && nodes == 1
        && fabric.extra_endpoints == 0
        && growth_nodes == 1
    {
        return Ok(Plan {
            layout: Layout::SingleSwitch,
            tiers: 0,
            reason: "one node: GPU traffic stays on the scale-up domain, no GPU fabric is needed"
                .into(),
            radix,
            leaves: 0,
            spines: 0,
            cores: 0,
            leaf_downlinks: 0,
            leaf_uplinks: 0,
            leaves_per_pod: 0,
            pods: 0,
            node_leaf_links: 0,
            leaf_spine_links: 0,
            spine_core_links: 0,
            capacity_endpoints: 0,
            layout_max_endpoints: 0,
            two_tier_exceeded: false,
            beyond_three_tiers: false,
        });
    }
    let plan = topology::size(&Demand {
        endpoints,
        growth_endpoints: growth,
        ports_per_node: ppn,
        radix,
        leaf_oversubscription: fabric.oversubscription.leaf,
        spine_oversubscription: fabric.oversubscription.spine,
        topology: fabric.topology,
    });
    if plan.beyond_three_tiers {
        return Err(format!(
            "{} endpoints exceed what 3 tiers of {radix}-port {} switches reach ({}): choose a switch with more ports",
            crate::units::thousands(endpoints as f64),
            switch.key,
            crate::units::thousands(plan.layout_max_endpoints as f64)
        ));
    }
    Ok(plan)
}
