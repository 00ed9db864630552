//! Families of evaluations behind the dashboard's charts: the same workload on other
//! technologies, at other cluster sizes, and with a degraded link. Numbers only; drawing is the
//! app's business.

use crate::evaluate::{evaluate_sharing, evaluate_workloads};
use crate::floor::SharedFloors;
use crate::links::Conditions;
use crate::report::{Report, WorkloadReport};
use crate::spec::{DesignSpec, Workload};
use crate::technology::Technology;
use crate::units::Minutes;
use crate::units::{Seconds, Share, Slowdown};
use serde::{Deserialize, Serialize};

/// The technologies the comparison chart sets side by side.
pub const COMPARED: [Technology; 4] = [
    Technology::IbNdr,
    Technology::Roce400,
    Technology::Tcp100,
    Technology::Tcp25,
];

/// The figure a study follows for one workload: communication per step (training) or per
/// token (inference).
fn communication(report: &Report, workload: usize) -> Option<Seconds> {
    match report.workloads.get(workload)? {
        WorkloadReport::Training(t) => Some(t.communication_time.value),
        WorkloadReport::Inference(i) => Some(i.communication_per_token.value),
        _ => None,
    }
}

/// The time a what-if compares: step time (training) or communication per token (inference).
fn timed(workloads: &[WorkloadReport], workload: usize) -> Option<Seconds> {
    match workloads.get(workload)? {
        WorkloadReport::Training(t) => Some(t.step_time.value),
        WorkloadReport::Inference(i) => Some(i.communication_per_token.value),
        _ => None,
    }
}

/// `points` as slowdowns against the first one (the healthy or non-blocking case).
fn against_first(points: Vec<(f64, Seconds)>) -> Vec<(f64, Slowdown)> {
    let Some(base) = points
        .first()
        .map(|(_, t)| t.seconds())
        .filter(|t| *t > 0.0)
    else {
        return Vec::new();
    };
    points
        .into_iter()
        .map(|(x, t)| (x, Slowdown::new(t.seconds() / base)))
        .collect()
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TechnologyPoint {
    pub technology: Technology,
    /// The switch the workload's fabric runs on (catalog key): the design's own on its own
    /// technology, the planner's least-cost choice on the others.
    #[serde(default)]
    pub switch: String,
    /// Why the planner chose that switch, when it chose it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub switch_reason: Option<String>,
    pub communication: Seconds,
    /// The whole network's cost with this technology on the workload's fabric.
    #[serde(default)]
    pub network_cost_usd: crate::units::Usd,
    /// Critical findings the design would have with it.
    #[serde(default)]
    pub critical_findings: u32,
}

impl TechnologyPoint {
    /// What the network would cost more (or, negative, less) with this technology than the
    /// design `report` costs as it is.
    pub fn against(&self, report: &Report) -> crate::units::Usd {
        self.network_cost_usd - report.network().cost_usd
    }
}

/// Workload `workload` with its fabric switched to each of [`COMPARED`], like for like: at the
/// technology's port speed on the switch the planner chooses for it at least cost (the design
/// itself on its own technology). Technologies under which the design cannot be built (too few
/// ports for the cluster) are left out. `report` is the design's own evaluation: where it was
/// placed on its floor ([`crate::evaluate`]'s), the design's own technology is read from it instead
/// of being evaluated and laid again. The other technologies' floors are taken from `floors`
/// where they were laid lately (an earlier comparison of the design before an edit that moves
/// no cable), else laid and kept there.
pub fn technology_comparison(
    spec: &DesignSpec,
    report: &Report,
    workload: usize,
    floors: &SharedFloors,
) -> Vec<TechnologyPoint> {
    let Some(fabric_name) = spec.workloads.get(workload).map(|w| w.fabric().to_string()) else {
        return Vec::new();
    };
    let Some(own) = spec.fabrics.iter().find(|f| f.name == fabric_name) else {
        return Vec::new();
    };
    COMPARED
        .iter()
        .filter_map(|&technology| {
            let evaluated;
            let report = if technology == own.technology && report.placed.is_some() {
                report
            } else {
                let mut variant = spec.clone();
                let fabric = variant.fabrics.iter_mut().find(|f| f.name == fabric_name)?;
                if fabric.technology != technology {
                    fabric.technology = technology;
                    fabric.switch = None;
                    fabric.port_gbps = None;
                }
                evaluated = evaluate_sharing(&variant, floors).ok()?;
                &evaluated
            };
            let sized = report.fabrics.iter().find(|f| f.name == fabric_name)?;
            Some(TechnologyPoint {
                technology,
                switch: sized.switch.clone(),
                switch_reason: sized.switch_choice.as_ref().map(|c| c.reason.clone()),
                communication: communication(report, workload)?,
                network_cost_usd: report.network().cost_usd,
                critical_findings: report.headline.critical_findings,
            })
        })
        .collect()
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ScalingPoint {
    pub nodes: u32,
    pub step_time: Seconds,
    /// Exposed communication ÷ step time.
    pub communication_share: Share,
}

/// Training workload `workload` at other cluster sizes, scaling data parallelism with the
/// nodes and keeping the batch per replica (weak scaling).
pub fn scaling_curve(spec: &DesignSpec, workload: usize) -> Vec<ScalingPoint> {
    let Some(Workload::Training(base)) = spec.workloads.get(workload) else {
        return Vec::new();
    };
    let nodes = spec.cluster.nodes.max(1);
    let mut sizes: Vec<u32> = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]
        .into_iter()
        .filter(|&n| n >= nodes / 8 && n <= nodes.saturating_mul(8))
        .collect();
    if !sizes.contains(&nodes) {
        sizes.push(nodes);
        sizes.sort_unstable();
    }
    sizes
        .into_iter()
        .filter_map(|n| {
            let mut variant = spec.clone();
            variant.cluster.nodes = n;
            variant.cluster.growth_target_nodes = None;
            for f in &mut variant.fabrics {
                f.attached_nodes = f.attached_nodes.map(|a| a.min(n));
            }
            let Workload::Training(t) = &mut variant.workloads[workload] else {
                return None;
            };
            let dp = (u64::from(base.parallelism.dp) * u64::from(n) / u64::from(nodes)).max(1);
            let dp = u32::try_from(dp).ok()?;
            t.parallelism.dp = dp;
            t.parallelism.ep = t.parallelism.ep.min(dp).max(1);
            if t.parallelism.ep > 1 && !dp.is_multiple_of(t.parallelism.ep) {
                t.parallelism.ep = 1;
            }
            let per_replica = (base.global_batch / base.parallelism.dp.max(1)).max(t.micro_batch);
            t.global_batch = per_replica.checked_mul(dp)?;
            // Keep only the workload being studied: the others may not fit a smaller cluster.
            let kept = variant.workloads[workload].clone();
            variant.workloads = vec![kept];
            let workloads = evaluate_workloads(&variant, Conditions::NORMAL).ok()?;
            let WorkloadReport::Training(r) = workloads.first()? else {
                return None;
            };
            let step = r.step_time.value;
            Some(ScalingPoint {
                nodes: n,
                step_time: step,
                communication_share: Share::new(if step.seconds() > 0.0 {
                    r.exposed_communication.value.seconds() / step.seconds()
                } else {
                    0.0
                }),
            })
        })
        .collect()
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DegradedPoint {
    /// Speed left on the degraded link.
    pub remaining: Share,
    /// Step (or token) time against the healthy fabric.
    pub slowdown: Slowdown,
}

/// Workload `workload` with one link of its ring degraded to each of `remaining` (a ring runs
/// at its slowest link, seed C14).
pub fn degraded_link_curve(spec: &DesignSpec, workload: usize) -> Vec<DegradedPoint> {
    // The first share is the healthy fabric (evaluate_with at 1.0 is evaluate).
    let times = [1.0, 0.9, 0.75, 0.5, 0.25, 0.1]
        .into_iter()
        .map_while(|remaining| {
            let conditions = Conditions {
                network_share: remaining,
                ideal_network: false,
                crossing_share: None,
            };
            let workloads = evaluate_workloads(spec, conditions).ok()?;
            Some((remaining, timed(&workloads, workload)?))
        })
        .collect();
    against_first(times)
        .into_iter()
        .map(|(remaining, slowdown)| DegradedPoint {
            remaining: Share::new(remaining),
            slowdown,
        })
        .collect()
}

/// Leaf oversubscriptions the sweep compares (seed C2: congestion turns 4 h into 12 h).
pub const OVERSUBSCRIPTIONS: [f64; 5] = [1.0, 1.5, 2.0, 3.0, 4.0];

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OversubscriptionPoint {
    /// Leaf oversubscription (downlinks ÷ uplinks).
    pub oversubscription: f64,
    /// Step (or token) time against the non-blocking fabric.
    pub slowdown: Slowdown,
}

/// Workload `workload` with the leaves of its fabric oversubscribed from 1:1 to 4:1.
pub fn oversubscription_sweep(spec: &DesignSpec, workload: usize) -> Vec<OversubscriptionPoint> {
    let Some(fabric_name) = spec.workloads.get(workload).map(|w| w.fabric().to_string()) else {
        return Vec::new();
    };
    // The first ratio is 1:1, the non-blocking fabric the others are compared with.
    let times = OVERSUBSCRIPTIONS
        .into_iter()
        .map_while(|ratio| {
            let mut variant = spec.clone();
            let fabric = variant.fabrics.iter_mut().find(|f| f.name == fabric_name)?;
            fabric.oversubscription.leaf = ratio;
            Some((
                ratio,
                timed(
                    &evaluate_workloads(&variant, Conditions::NORMAL).ok()?,
                    workload,
                )?,
            ))
        })
        .collect();
    against_first(times)
        .into_iter()
        .map(|(oversubscription, slowdown)| OversubscriptionPoint {
            oversubscription,
            slowdown,
        })
        .collect()
}

/// The leaf-spine tier of one fabric after losing spine switches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SpineLoss {
    pub fabric: String,
    pub spines: u32,
    /// Spines lost: 1, then 2 (a double failure).
    pub lost: u32,
    pub bisection_after: crate::units::BitRate,
    pub leaf_spine_available: crate::units::ByteRate,
    pub leaf_spine_required: crate::units::ByteRate,
    /// The workloads still get the leaf-spine bandwidth they need.
    pub survives: bool,
}

/// One and two spines lost in every fabric that has spines: each leaf loses its uplinks to a
/// lost spine, so leaf-spine capacity and bisection fall by lost ÷ spines (ECMP spreads the
/// traffic over the spines left).
pub fn spine_losses(report: &Report) -> Vec<SpineLoss> {
    let mut out = Vec::new();
    for f in &report.fabrics {
        let spines = f.plan.spines;
        if spines == 0 {
            continue;
        }
        let Some(tier) = f.tiers.iter().find(|t| t.tier == "leaf-spine") else {
            continue;
        };
        for lost in 1..=2.min(spines) {
            let left = f64::from(spines - lost) / f64::from(spines);
            let available = crate::units::ByteRate::new(tier.available.bytes_per_second() * left);
            out.push(SpineLoss {
                fabric: f.name.clone(),
                spines,
                lost,
                bisection_after: crate::units::BitRate::new(
                    f.bisection.value.bits_per_second() * left,
                ),
                leaf_spine_available: available,
                leaf_spine_required: tier.required,
                survives: available.bytes_per_second() >= tier.required.bytes_per_second()
                    && lost < spines,
            });
        }
    }
    out
}

/// Checkpoint intervals the sweep compares, minutes.
pub const CHECKPOINT_INTERVALS_MIN: [f64; 6] = [5.0, 10.0, 15.0, 30.0, 60.0, 120.0];

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CheckpointPoint {
    pub interval_minutes: Minutes,
    /// Share of the time spent writing checkpoints.
    pub overhead: Share,
    pub write_time: Seconds,
}

/// Storage workload `workload` checkpointing at each of [`CHECKPOINT_INTERVALS_MIN`]: the
/// write time stays (bandwidth-bound), the share of time spent writing falls with the interval.
pub fn checkpoint_sweep(spec: &DesignSpec, workload: usize) -> Vec<CheckpointPoint> {
    if !matches!(spec.workloads.get(workload), Some(Workload::Storage(_))) {
        return Vec::new();
    }
    CHECKPOINT_INTERVALS_MIN
        .iter()
        .filter_map(|&minutes| {
            let mut variant = spec.clone();
            if let Some(Workload::Storage(s)) = variant.workloads.get_mut(workload) {
                s.checkpoint.interval_minutes = Minutes::new(minutes);
            }
            let workloads = evaluate_workloads(&variant, Conditions::NORMAL).ok()?;
            match workloads.get(workload)? {
                WorkloadReport::Storage(s) => Some(CheckpointPoint {
                    interval_minutes: Minutes::new(minutes),
                    overhead: s.checkpoint_overhead.value,
                    write_time: s.checkpoint_write_time.value,
                }),
                _ => None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
