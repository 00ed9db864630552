//! The cluster over its growth phases: what each phase buys, what it installs and leaves unused,
//! the racks and power kept for later phases, and the cables added, removed or moved from the
//! phase before.
//!
//! Each phase is the design at that phase's nodes, sized on the design's switches under the
//! growth policy: provisioning the final size sizes the spines and cores of every phase for
//! the final nodes [RA-11333-001: the 3-SU design is cabled with spines for 4 SU]; buying as
//! needed sizes each phase for its own nodes. Bills are at each tier's nominal cable run, so
//! that each phase's cost is what its own switches and cables cost wherever they stand; the
//! racks kept for later are those of the final floor that hold none of a phase's nodes.
//!
//! A cable is moved when one of its ends stays (a node's port, a leaf's, a spine's) and the
//! other changes: between two phases, each end keeps as many of its links to each switch as
//! both phases give it, and the rest are added, removed or, where one is removed and another
//! added at the same end, re-terminated. So the count is the fewest cables touched: a leaf of U
//! uplinks spread over S spines that are then spread over S' moves U·(1 − S/S') of them.

use crate::bill_diff::fabrics_diff;
use crate::cabling::{leaf_position, Role};
use crate::error::SpecErrors;
use crate::figure::Figure;
use crate::links::Conditions;
pub use crate::report::growth::{PhaseFabric, PhasePlan, PhaseReport, TierMoves};
use crate::report::{FabricReport, Report};
use crate::spec::{DesignSpec, GrowthPolicy};
use crate::units::{Kilowatts, Usd, Watts};

impl PhaseReport {
    /// Cables in service that must be unplugged and plugged elsewhere to reach this phase.
    pub fn re_terminated(&self) -> u64 {
        self.moves.iter().map(|m| m.re_terminated).sum()
    }

    pub fn added(&self) -> u64 {
        self.moves.iter().map(|m| m.added).sum()
    }

    pub fn removed(&self) -> u64 {
        self.moves.iter().map(|m| m.removed).sum()
    }
}

const STRANDED_FORMULA: &str =
    "Σ fabrics: (switches × ports − ports cabled) × switch price ÷ ports";
const RESERVED_FORMULA: &str =
    "(final nodes − nodes) × node power + (final network power − network power)";
const PHASE_SOURCE: &str = "the design at each phase's nodes, sized on its switches";

/// The phase plan of `spec`, whose evaluation is `report`; `None` when the design lists no
/// phases.
pub fn phases(spec: &DesignSpec, report: &Report) -> Option<Result<PhasePlan, SpecErrors>> {
    spec.growth.as_ref()?;
    phases_on(spec, &crate::floor::plan(spec, report))
}

/// [`phases`] with the design's final `floor` already planned.
pub fn phases_on(
    spec: &DesignSpec,
    floor: &crate::floor::FloorReport,
) -> Option<Result<PhasePlan, SpecErrors>> {
    let growth = spec.growth.as_ref()?;
    Some(plan(spec, growth, floor))
}

fn plan(
    spec: &DesignSpec,
    growth: &crate::spec::Growth,
    floor: &crate::floor::FloorReport,
) -> Result<PhasePlan, SpecErrors> {
    let policy = growth.policy;
    let evaluated = phase_reports(spec, growth)?;
    let growth = &growth.phases;
    let node_kw = floor.node_power_kw.value.kilowatts();
    let first_nodes = first_nodes(floor);
    let last = evaluated
        .last()
        .map(|r| r.totals.power_w.watts())
        .unwrap_or(0.0);
    let phases = growth
        .iter()
        .zip(&evaluated)
        .enumerate()
        .map(|(i, (phase, at))| {
            let before = i.checked_sub(1).map(|b| &evaluated[b]);
            let stranded_ports: u64 = at
                .fabrics
                .iter()
                .map(|f| f.plan.ports_total().saturating_sub(f.plan.ports_used()))
                .sum();
            let stranded_usd: f64 = at.fabrics.iter().map(stranded_capital).sum();
            let nodes_later = f64::from(spec.cluster.nodes - phase.nodes.min(spec.cluster.nodes));
            let reserved_kw = nodes_later * node_kw
                + Watts::new(last - at.totals.power_w.watts())
                    .to_kilowatts()
                    .kilowatts();
            let racks_in_use = first_nodes
                .iter()
                .filter(|n| n.is_some_and(|n| n <= phase.nodes))
                .count() as u32;
            let compute_racks = first_nodes.iter().flatten().count() as u32;
            PhaseReport {
                label: phase.label.clone(),
                date: phase.date.clone(),
                nodes: phase.nodes,
                gpus: u64::from(phase.nodes) * u64::from(spec.cluster.gpus_per_node),
                fabrics: at.fabrics.iter().map(phase_fabric).collect(),
                network_cost: at.totals.cost_usd,
                network_power: at.totals.power_w,
                bought: fabrics_diff(before.map_or(&[][..], |b| &b.fabrics[..]), &at.fabrics),
                stranded_ports,
                stranded_capital: Figure::new(
                    Usd::new(stranded_usd),
                    STRANDED_FORMULA,
                    PHASE_SOURCE,
                ),
                racks_in_use,
                racks_reserved: compute_racks.saturating_sub(racks_in_use),
                power_reserved: Figure::new(
                    Kilowatts::new(reserved_kw),
                    RESERVED_FORMULA,
                    PHASE_SOURCE,
                ),
                moves: before
                    .filter(|b| moves::counted(b, at))
                    .map(|b| moves::moves(b, at))
                    .unwrap_or_default(),
                moves_not_counted: before
                    .filter(|b| !moves::counted(b, at))
                    .map(|b| not_counted(b, at)),
            }
        })
        .collect();
    Ok(PhasePlan { policy, phases })
}

/// The phase (an index into `plan.phases`) that first uses each rack of `floor`, the final
/// floor of the design evaluated as `report`: a compute rack's is the first phase holding one
/// of its nodes, a network rack's the first phase that has one of its switches.
pub fn rack_phases(
    plan: &PhasePlan,
    report: &Report,
    floor: &crate::floor::FloorReport,
) -> Vec<usize> {
    floor
        .racks
        .iter()
        .map(|rack| {
            rack.devices
                .iter()
                .map(|d| device_phase(plan, report, &d.label))
                .min()
                .unwrap_or(0)
        })
        .collect()
}

/// The phase (an index into `plan.phases`) a cable of the final design's cabling sheet is
/// first laid in: the later of the phases its two ends stand from.
pub fn cable_phase(plan: &PhasePlan, report: &Report, cable: &crate::cabling::Cable) -> usize {
    device_phase(plan, report, &cable.a_device).max(device_phase(plan, report, &cable.z_device))
}

/// The phase the device the final design names `device` stands from: a node from the first
/// phase that has it, a switch from the first that has it (the same place in its fabric), any
/// other endpoint (a UFM server, a storage server) from the first.
pub fn device_phase(plan: &PhasePlan, report: &Report, device: &str) -> usize {
    let last = plan.phases.len().saturating_sub(1);
    let first_with =
        |has: &dyn Fn(&PhaseReport) -> bool| plan.phases.iter().position(has).unwrap_or(last);
    if let Some(n) = crate::floor::node_number(device) {
        return first_with(&|p| p.nodes >= n);
    }
    [Role::Leaf, Role::Spine, Role::Core]
        .into_iter()
        .find_map(|role| switch_of(report, role, device))
        .map_or(0, |(fabric, role, index)| {
            first_with(&|p| has_switch(p, fabric, role, index))
        })
}

/// The final fabric and index of the switch of `role` the final design names `label`
/// (`compute-leaf-05`).
fn switch_of<'r>(
    report: &'r Report,
    role: Role,
    label: &str,
) -> Option<(&'r FabricReport, Role, u32)> {
    report.fabrics.iter().find_map(|f| {
        let number = label
            .strip_prefix(f.name.as_str())?
            .strip_prefix('-')?
            .strip_prefix(role.label())?
            .strip_prefix('-')?
            .parse::<u32>()
            .ok()?;
        Some((f, role, number.checked_sub(1)?))
    })
}

/// Whether phase `p` has switch `index` of `role` of final fabric `fabric`: the leaf at the
/// same place (its block of nodes and rail, on a rail-optimised fabric), the spine or core of
/// the same number.
fn has_switch(p: &PhaseReport, fabric: &FabricReport, role: Role, index: u32) -> bool {
    let Some(at) = p.fabrics.iter().find(|f| f.name == fabric.name) else {
        return false;
    };
    match role {
        Role::Leaf if at.layout.by_rail() && fabric.plan.layout.by_rail() => {
            let per_rail = (at.leaves / fabric.ports_per_node.max(1)).max(1);
            leaf_position(fabric, index).0 < per_rail
        }
        Role::Leaf => index < at.leaves,
        Role::Spine => index < at.spines,
        Role::Core => index < at.cores,
    }
}

/// `chosen` (the design with its switches chosen) at `nodes` under `policy`: its fabrics only,
/// since a phase is what is bought and cabled; the design's workloads run on the final one.
fn phase_spec(chosen: &DesignSpec, nodes: u32, policy: GrowthPolicy) -> DesignSpec {
    let final_nodes = chosen.cluster.nodes;
    let mut at = DesignSpec {
        workloads: Vec::new(),
        growth: None,
        tenants: Vec::new(),
        ..chosen.clone()
    };
    at.cluster.nodes = nodes;
    if nodes < final_nodes {
        at.cluster.growth_target_nodes = match policy {
            GrowthPolicy::ProvisionFinal => Some(
                chosen
                    .cluster
                    .growth_target_nodes
                    .unwrap_or(final_nodes)
                    .max(final_nodes),
            ),
            GrowthPolicy::AsNeeded => None,
        };
    }
    for f in &mut at.fabrics {
        f.attached_nodes = f.attached_nodes.map(|a| a.min(nodes));
    }
    at
}

fn phase_fabric(f: &FabricReport) -> PhaseFabric {
    PhaseFabric {
        name: f.name.clone(),
        layout: f.plan.layout,
        tiers: f.plan.tiers,
        leaves: f.plan.leaves,
        spines: f.plan.spines,
        cores: f.plan.cores,
        ports_installed: f.plan.ports_total(),
        ports_used: f.plan.ports_used(),
    }
}

/// The price of `fabric`'s switch ports that hold no cable.
fn stranded_capital(fabric: &FabricReport) -> f64 {
    let plan = &fabric.plan;
    let unit = fabric
        .bom
        .iter()
        .find(|l| l.item == format!("switch:{}", fabric.switch))
        .map_or(0.0, |l| l.unit_price_usd.dollars());
    let stranded = plan.ports_total().saturating_sub(plan.ports_used());
    stranded as f64 * unit / f64::from(plan.radix.max(1))
}

/// The design at each of its phases, sized on its switches under the growth policy.
fn phase_reports(
    spec: &DesignSpec,
    growth: &crate::spec::Growth,
) -> Result<Vec<Report>, SpecErrors> {
    let (chosen, _) = crate::switch_choice::choose_all(spec);
    growth
        .phases
        .iter()
        .enumerate()
        .map(|(i, phase)| {
            let at_phase = phase_spec(&chosen, phase.nodes, growth.policy);
            crate::evaluate::evaluate_unplaced(&at_phase, Conditions::NORMAL).map_err(|e| {
                SpecErrors::single(
                    format!("growth.phases[{i}]"),
                    format!(
                        "the design at {} nodes does not size: {}",
                        phase.nodes,
                        e.0.first().map_or("", |f| f.reason.as_str())
                    ),
                )
            })
        })
        .collect()
}

/// The lowest node each rack of `floor` holds: `None` for a network rack.
fn first_nodes(floor: &crate::floor::FloorReport) -> Vec<Option<u32>> {
    floor
        .racks
        .iter()
        .map(|rack| {
            let nodes = rack.devices.iter().filter_map(|d| d.node_number());
            nodes.min().filter(|_| !rack.network)
        })
        .collect()
}

/// The most cables of the two phases of a step whose moves are counted: each is sorted and
/// compared, 65-85 ns a cable (a 2,048-node, 8-rail design has about 50,000; 100,000 GPUs on
/// three fabrics grown from half of them about 660,000, counted in 43-55 ms), so that a design
/// of the most phases costs about a second of counting at most.
pub const MAX_COUNTED_CABLES: u64 = 800_000;

/// Why the step from `before` to `after` is not matched cable by cable.
fn not_counted(before: &Report, after: &Report) -> String {
    format!(
        "{} cables in the two phases, more than the {} whose moves are counted",
        crate::units::thousands((moves::cables(before) + moves::cables(after)) as f64),
        crate::units::thousands(MAX_COUNTED_CABLES as f64)
    )
}

/// The move list of `spec` (evaluated as `report`), grown in phases: every cable each step
/// adds, removes or re-terminates, named by the final design's devices and racks, with the
/// orderable length of each run; `None` when the design lists no phases, `Err` with the reason
/// when a phase does not size or the list has more than `most` rows.
pub fn move_list(
    spec: &DesignSpec,
    report: &Report,
    most: usize,
) -> Option<Result<MoveList, String>> {
    let growth = spec.growth.as_ref()?;
    Some(
        phase_reports(spec, growth)
            .map_err(|e| e.to_string())
            .and_then(|phases| {
                move_list::move_list(spec, report, &phases, most).map_err(|_| {
                    format!(
                        "The steps between this design's phases touch more than {} cables, the most a move list holds.",
                        crate::units::thousands(most as f64)
                    )
                })
            }),
    )
}

mod move_list;
mod moves;
pub use move_list::{CableMove, MoveAction, MoveGroup, MoveList, UpperEnd};
#[cfg(test)]
mod tests;
