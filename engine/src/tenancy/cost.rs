//! What a tenant's isolation costs against sharing everything: the GPUs of whole scalable units
//! it holds but does not use (no other tenant may) and the leaf ports cabled to them, and for a
//! fabric of its own the spines and cores (and their ports) that two fabrics, each sized for
//! its own nodes, need beyond the one shared fabric.

pub use crate::report::tenants::IsolationCost;
use crate::report::{FabricReport, Report};
use crate::spec::{DesignSpec, Isolation};
use crate::units::Usd;

/// What every tenant's isolation costs together.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct IsolationTotal {
    pub stranded_gpus: u64,
    pub stranded_ports: u64,
    pub extra_switches: u32,
    pub extra_ports: u64,
    pub extra_switch_cost: Usd,
}

/// The sum of `costs`, each tenant's.
pub fn isolation_total(costs: &[IsolationCost]) -> IsolationTotal {
    costs
        .iter()
        .fold(IsolationTotal::default(), |total, c| IsolationTotal {
            stranded_gpus: total.stranded_gpus + c.stranded_gpus,
            stranded_ports: total.stranded_ports + c.stranded_ports,
            extra_switches: total.extra_switches + c.extra_switches,
            extra_ports: total.extra_ports + c.extra_ports,
            extra_switch_cost: total.extra_switch_cost + c.extra_switch_cost,
        })
}

/// Each tenant's cost of isolation on the fabric its units are counted on.
pub fn isolation_cost(spec: &DesignSpec, report: &Report) -> Vec<IsolationCost> {
    let g = u64::from(spec.cluster.gpus_per_node);
    let fabric = report
        .fabrics
        .get(super::unit_fabric(report.fabrics.iter().map(|f| f.role)));
    report
        .tenants
        .iter()
        .map(|p| {
            let extra = match (p.isolation, fabric) {
                (Isolation::Fabric, Some(f)) => own_fabric_switches(spec, f, p.nodes),
                _ => 0,
            };
            let price = fabric
                .and_then(|f| crate::catalog::switch(&f.switch))
                .map_or(0.0, |s| s.price_usd.dollars());
            IsolationCost {
                tenant: p.tenant.clone(),
                isolation: p.isolation,
                stranded_gpus: u64::from(p.stranded_nodes) * g,
                stranded_ports: fabric.map_or(0, |f| {
                    u64::from(p.stranded_nodes) * u64::from(f.ports_per_node)
                }),
                extra_switches: extra,
                extra_ports: fabric.map_or(0, |f| u64::from(extra) * u64::from(f.plan.radix)),
                extra_switch_cost: Usd::new(f64::from(extra) * price),
            }
        })
        .collect()
}

/// Spines and cores that fabric `f` split in two, `nodes` for the tenant and the rest for the
/// others, needs beyond `f` itself.
fn own_fabric_switches(spec: &DesignSpec, f: &FabricReport, nodes: u32) -> u32 {
    let Some(fabric) = spec.fabric(&f.name) else {
        return 0;
    };
    // The switch the fabric was sized on: the planner's choice where the spec names none, as
    // the price above is.
    let Some(switch) = crate::catalog::switch(&f.switch) else {
        return 0;
    };
    let upper = |nodes: u32| {
        if nodes == 0 {
            return Some(0);
        }
        let mut part = spec.clone();
        part.cluster.nodes = nodes;
        part.cluster.growth_target_nodes = None;
        let mut fabric = fabric.clone();
        fabric.attached_nodes = None;
        let plan = crate::sizing::size_fabric(&part, &fabric, switch).ok()?;
        Some(plan.spines + plan.cores)
    };
    let rest = f.attached_nodes.saturating_sub(nodes);
    match (upper(nodes), upper(rest)) {
        (Some(own), Some(others)) => (own + others).saturating_sub(f.plan.spines + f.plan.cores),
        _ => 0,
    }
}
