//! Bandwidth headroom per tier of a fabric: what its workloads need against what it has.

use crate::report::{InferenceReport, TierHeadroom, WorkloadReport};
use crate::topology::{Layout, Plan};
use crate::units::ByteRate;

/// Nodes whose tensor-parallel groups send a token's AllReduces: replicas × nodes per group,
/// at most the fabric's nodes (every one of them in reports from engines before replicas).
fn serving_nodes(i: &InferenceReport, attached_nodes: u32) -> u32 {
    if i.replicas == 0 {
        return attached_nodes;
    }
    i.replicas.saturating_mul(i.tp_nodes).min(attached_nodes)
}

/// Traffic the workloads mapped to a fabric inject into it, all nodes together, at the rate
/// they need: training moves a step's network bytes within the step's compute time (so that it
/// can hide behind it); inference a token's within the target inter-token latency, from every
/// replica; RAG and
/// storage their sustained rates.
pub fn demand(workloads: &[&WorkloadReport], attached_nodes: u32) -> ByteRate {
    let mut total = 0.0;
    for w in workloads {
        total += match w {
            WorkloadReport::Training(t) => {
                let window = if t.compute_time.value.seconds() > 0.0 {
                    t.compute_time.value
                } else {
                    t.step_time.value
                };
                if window.seconds() > 0.0 {
                    t.network_bytes_per_node_per_step.bytes() * f64::from(t.nodes)
                        / window.seconds()
                } else {
                    0.0
                }
            }
            WorkloadReport::Inference(i)
                if i.crosses_network && i.target_inter_token.seconds() > 0.0 =>
            {
                i.network_bytes_per_node_per_token.bytes()
                    * f64::from(serving_nodes(i, attached_nodes))
                    / i.target_inter_token.seconds()
            }
            WorkloadReport::Inference(_) => 0.0,
            WorkloadReport::Rag(r) => r.bandwidth.value.bytes_per_second(),
            WorkloadReport::Storage(s) => {
                let checkpoint = if s.write_budget.seconds() > 0.0 {
                    s.checkpoint_size.value.bytes() / s.write_budget.seconds()
                } else {
                    0.0
                };
                s.read_provisioned.value.bytes_per_second() + checkpoint
            }
        };
    }
    ByteRate::new(total)
}

/// Share of traffic that leaves a group of `local` of `nodes` nodes, peers chosen uniformly:
/// 1 − (local − 1)/(nodes − 1). Jobs are not always placed contiguously, and trees and
/// all-to-all reach far peers, so rings' mostly-local traffic is not assumed.
fn leaving(local: u32, nodes: u32) -> f64 {
    if nodes <= 1 {
        return 0.0;
    }
    let local = local.clamp(1, nodes);
    1.0 - f64::from(local - 1) / f64::from(nodes - 1)
}

/// Nodes that share one leaf (for a rail-optimized fabric, one port of each).
pub fn nodes_per_leaf(plan: &Plan, ports_per_node: u32) -> u32 {
    match plan.layout {
        // Every leaf of a rail serves one port of each of its nodes.
        Layout::RailOptimized | Layout::RailOptimizedThreeTier => plan.leaf_downlinks,
        _ => plan.leaf_downlinks / ports_per_node.max(1),
    }
    .max(1)
}

/// Nodes in one pod of a three-tier `plan` (a pod's leaf groups, each of
/// [`nodes_per_leaf`]), `u32::MAX` on a fabric without pods.
pub fn nodes_per_pod(plan: &Plan, ports_per_node: u32) -> u32 {
    if plan.layout.has_pods() {
        nodes_per_leaf(plan, ports_per_node).saturating_mul(plan.leaves_per_pod.max(1))
    } else {
        u32::MAX
    }
}

/// Share of uniformly spread traffic that leaves a node's leaf on this plan.
pub fn share_leaving_leaf(plan: &Plan, nodes: u32, ports_per_node: u32) -> f64 {
    if plan.leaf_spine_links == 0 {
        return 0.0;
    }
    leaving(nodes_per_leaf(plan, ports_per_node), nodes)
}

pub fn tiers(
    plan: &Plan,
    nodes: u32,
    ports_per_node: u32,
    port: ByteRate,
    demand: ByteRate,
    multipath_share: f64,
) -> Vec<TierHeadroom> {
    let nodes_per_leaf = nodes_per_leaf(plan, ports_per_node);
    let nodes_per_pod = nodes_per_leaf.saturating_mul(plan.leaves_per_pod.max(1));
    let tier = |name: &str, links: u32, share: f64, formula: &'static str| {
        // Switch-to-switch links are where ECMP hashes flows.
        let usable = if name == "node-leaf" {
            1.0
        } else {
            multipath_share
        };
        let available = port * (f64::from(links) * usable);
        let required = demand * share;
        TierHeadroom {
            tier: name.to_string(),
            available,
            required,
            headroom_percent: (required.bytes_per_second() > 0.0).then(|| {
                (available.bytes_per_second() - required.bytes_per_second())
                    / required.bytes_per_second()
                    * 100.0
            }),
            formula: formula.into(),
        }
    };
    let mut out = vec![tier(
        "node-leaf",
        plan.node_leaf_links,
        1.0,
        "available = links × achievable port rate; required = traffic all nodes inject",
    )];
    if plan.leaf_spine_links > 0 {
        out.push(tier(
            "leaf-spine",
            plan.leaf_spine_links,
            leaving(nodes_per_leaf, nodes),
            "available = links × achievable port rate × share left by ECMP hash collisions; required = injected traffic × share leaving the leaf, 1 − (nodes per leaf − 1)/(nodes − 1)",
        ));
    }
    if plan.spine_core_links > 0 {
        out.push(tier(
            "spine-core",
            plan.spine_core_links,
            leaving(nodes_per_pod, nodes),
            "available = links × achievable port rate × share left by ECMP hash collisions; required = injected traffic × share leaving the pod, 1 − (nodes per pod − 1)/(nodes − 1)",
        ));
    }
    out
}

/// Available ÷ required below which the tightest tier is called the bottleneck. ECMP hash
/// collisions with one flow per uplink leave 1/e ≈ 37 % of a leaf's uplinks idle (`ecmp.rs`), and
/// a link degraded to half speed slows every ring through it (seed C14): a tier with less than
/// half again the bandwidth it needs is one such event away from slowing the workloads. A tier
/// with more is not what limits them, and calling a tier with 10× to spare a bottleneck sends
/// the reader after a problem the design does not have.
pub const BOTTLENECK_BELOW: f64 = 1.5;

/// The tier with the least headroom, if that headroom is tight (below [`BOTTLENECK_BELOW`]).
pub fn bottleneck(tiers: &[TierHeadroom]) -> Option<String> {
    let tight_percent = (BOTTLENECK_BELOW - 1.0) * 100.0;
    tiers
        .iter()
        .filter_map(|t| t.headroom_percent.map(|h| (h, &t.tier)))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .filter(|(h, _)| *h < tight_percent)
        .map(|(_, name)| name.clone())
}

impl TierHeadroom {
    /// What the tier has for what its workloads need: available ÷ required; `None` when
    /// nothing is required of it.
    pub fn ratio(&self) -> Option<crate::units::Ratio> {
        let required = self.required.bytes_per_second();
        (required > 0.0)
            .then(|| crate::units::Ratio::new(self.available.bytes_per_second() / required))
    }
}

/// How the tightest tier of a design stands against its workloads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binding {
    /// It is its fabric's bottleneck and has less than its workloads need.
    Short,
    /// It is its fabric's bottleneck with enough: it binds first as the workloads grow.
    First,
    /// It is not its fabric's bottleneck: the network does not bind.
    Ample,
}

/// The tier of a design with the least available for what its workloads need.
#[derive(Debug, Clone, Copy)]
pub struct Tightest<'a> {
    pub fabric: &'a crate::report::FabricReport,
    pub tier: &'a TierHeadroom,
    /// Available ÷ required.
    pub ratio: crate::units::Ratio,
    pub binding: Binding,
}

impl crate::report::Report {
    /// The tier of any fabric with the lowest [`TierHeadroom::ratio`], and how it binds;
    /// `None` when no tier carries traffic.
    pub fn tightest_tier(&self) -> Option<Tightest<'_>> {
        let (fabric, tier, ratio) = self
            .fabrics
            .iter()
            .flat_map(|f| f.tiers.iter().map(move |t| (f, t)))
            .filter_map(|(f, t)| Some((f, t, t.ratio()?)))
            .min_by(|(_, _, a), (_, _, b)| a.get().total_cmp(&b.get()))?;
        let bottleneck = fabric.bottleneck.as_deref() == Some(tier.tier.as_str());
        let binding = match (bottleneck, ratio.get() < 1.0) {
            (true, true) => Binding::Short,
            (true, false) => Binding::First,
            (false, _) => Binding::Ample,
        };
        Some(Tightest {
            fabric,
            tier,
            ratio,
            binding,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tier(name: &str, available: f64, required: f64) -> TierHeadroom {
        TierHeadroom {
            tier: name.into(),
            available: ByteRate::new(available),
            required: ByteRate::new(required),
            headroom_percent: (required > 0.0).then(|| (available - required) / required * 100.0),
            formula: "".into(),
        }
    }

    #[test]
    fn a_tier_with_ten_times_the_bandwidth_it_needs_is_no_bottleneck() {
        let tiers = [
            tier("node-leaf", 100.0, 10.0),
            tier("leaf-spine", 50.0, 4.0),
        ];
        assert_eq!(bottleneck(&tiers), None);
    }

    #[test]
    fn the_tightest_tier_under_one_and_a_half_times_its_demand_is_the_bottleneck() {
        let tiers = [
            tier("node-leaf", 100.0, 10.0),
            tier("leaf-spine", 14.0, 10.0),
        ];
        assert_eq!(bottleneck(&tiers).as_deref(), Some("leaf-spine"));
    }

    #[test]
    fn a_tier_short_of_bandwidth_is_the_bottleneck() {
        let tiers = [tier("node-leaf", 5.0, 10.0), tier("leaf-spine", 14.0, 10.0)];
        assert_eq!(bottleneck(&tiers).as_deref(), Some("node-leaf"));
    }

    #[test]
    fn a_fabric_nothing_crosses_has_no_bottleneck() {
        assert_eq!(bottleneck(&[tier("node-leaf", 100.0, 0.0)]), None);
    }

    /// The summary's "what binds": the lowest ratio of available to required of any tier of
    /// any fabric, binding only where it is its fabric's bottleneck.
    #[test]
    fn the_tightest_tier_has_the_lowest_ratio_of_any_fabric_and_binds_as_its_bottleneck() {
        let spec = crate::DesignSpec::from_json(crate::examples::SUPERPOD_4SU).unwrap();
        let mut report = crate::evaluate(&spec).unwrap();
        let lowest = report
            .fabrics
            .iter()
            .flat_map(|f| &f.tiers)
            .filter_map(|t| t.ratio())
            .map(|r| r.get())
            .fold(f64::INFINITY, f64::min);
        let (fabric, tier) = {
            let t = report.tightest_tier().expect("tiers carry traffic");
            assert_eq!(t.ratio.get(), lowest);
            assert_eq!(
                t.ratio.get(),
                t.tier.available.bytes_per_second() / t.tier.required.bytes_per_second()
            );
            let fabric = report.fabrics.iter().position(|f| f.name == t.fabric.name);
            (fabric.unwrap(), t.tier.tier.clone())
        };
        report.fabrics[fabric].bottleneck = Some(tier);
        let binding = report.tightest_tier().unwrap().binding;
        let short = lowest < 1.0;
        assert_eq!(
            binding,
            if short {
                Binding::Short
            } else {
                Binding::First
            }
        );
        report.fabrics[fabric].bottleneck = None;
        assert_eq!(report.tightest_tier().unwrap().binding, Binding::Ample);
        for f in &mut report.fabrics {
            for t in &mut f.tiers {
                t.required = ByteRate::new(0.0);
            }
        }
        assert!(report.tightest_tier().is_none(), "no tier carries traffic");
    }
}
