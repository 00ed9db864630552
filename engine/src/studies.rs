//! Families of evaluations behind the dashboard's charts: the same workload on other
//! technologies, at other cluster sizes, and with a degraded link. Numbers only; drawing is the
//! app's business.

use crate::evaluate::{evaluate, evaluate_with};
use crate::links::Conditions;
use crate::report::{Report, WorkloadReport};
use crate::spec::{DesignSpec, Workload};
use crate::technology::Technology;
use crate::units::{Ratio, Seconds};
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TechnologyPoint {
    pub technology: Technology,
    pub communication: Seconds,
}

/// Workload `workload` with its fabric switched to each of [`COMPARED`] (the technology's
/// default switch and port speed). Technologies under which the design cannot be built (too
/// few ports for the cluster) are left out.
pub fn technology_comparison(spec: &DesignSpec, workload: usize) -> Vec<TechnologyPoint> {
    let Some(fabric_name) = spec.workloads.get(workload).map(|w| w.fabric().to_string()) else {
        return Vec::new();
    };
    COMPARED
        .iter()
        .filter_map(|&technology| {
            let mut variant = spec.clone();
            let fabric = variant.fabrics.iter_mut().find(|f| f.name == fabric_name)?;
            fabric.technology = technology;
            fabric.switch = None;
            fabric.port_gbps = None;
            let report = evaluate(&variant).ok()?;
            Some(TechnologyPoint {
                technology,
                communication: communication(&report, workload)?,
            })
        })
        .collect()
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScalingPoint {
    pub nodes: u32,
    pub step_time: Seconds,
    /// Exposed communication ÷ step time.
    pub communication_share: Ratio,
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
            let report = evaluate(&variant).ok()?;
            let WorkloadReport::Training(r) = &report.workloads[0] else {
                return None;
            };
            let step = r.step_time.value;
            Some(ScalingPoint {
                nodes: n,
                step_time: step,
                communication_share: Ratio(if step.0 > 0.0 {
                    r.exposed_communication.value.0 / step.0
                } else {
                    0.0
                }),
            })
        })
        .collect()
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DegradedPoint {
    /// Speed left on the degraded link.
    pub remaining: Ratio,
    /// Step (or token) time against the healthy fabric.
    pub slowdown: Ratio,
}

/// Workload `workload` with one link of its ring degraded to each of `remaining` (a ring runs
/// at its slowest link, seed C14).
pub fn degraded_link_curve(spec: &DesignSpec, workload: usize) -> Vec<DegradedPoint> {
    let time = |report: &Report| match report.workloads.get(workload) {
        Some(WorkloadReport::Training(t)) => Some(t.step_time.value),
        Some(WorkloadReport::Inference(i)) => Some(i.communication_per_token.value),
        _ => None,
    };
    let Some(healthy) = evaluate(spec).ok().as_ref().and_then(time) else {
        return Vec::new();
    };
    [1.0, 0.9, 0.75, 0.5, 0.25, 0.1]
        .into_iter()
        .filter_map(|remaining| {
            let report = evaluate_with(
                spec,
                Conditions {
                    network_share: remaining,
                    ideal_network: false,
                },
            )
            .ok()?;
            let t = time(&report)?;
            Some(DegradedPoint {
                remaining: Ratio(remaining),
                slowdown: Ratio(if healthy.0 > 0.0 {
                    t.0 / healthy.0
                } else {
                    1.0
                }),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::examples;

    fn spec(text: &str) -> DesignSpec {
        DesignSpec::from_json(text).unwrap()
    }

    #[test]
    fn slower_technologies_take_longer_for_the_same_training() {
        let points = technology_comparison(&spec(examples::SEVENTY_B_TRAINING), 0);
        assert_eq!(points.len(), 4);
        for pair in points.windows(2) {
            assert!(pair[0].communication <= pair[1].communication, "{pair:?}");
        }
    }

    #[test]
    fn the_scaling_curve_includes_the_designed_size() {
        let points = scaling_curve(&spec(examples::SEVENTY_B_TRAINING), 0);
        assert!(points.iter().any(|p| p.nodes == 16));
        assert!(points.len() >= 4);
    }

    #[test]
    fn a_healthy_link_is_no_slowdown_and_a_worse_link_never_speeds_up() {
        let points = degraded_link_curve(&spec(examples::SEVENTY_B_INFERENCE_400G), 0);
        assert_eq!(points[0].slowdown, Ratio(1.0));
        for pair in points.windows(2) {
            assert!(pair[1].slowdown >= pair[0].slowdown);
        }
    }
}
