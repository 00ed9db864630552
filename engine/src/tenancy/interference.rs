//! How much one tenant's traffic slows another's. Tenants meet on the uplinks of the leaves they
//! share: a tenant's collectives that span leaves send through its leaves' uplinks, with every
//! other crossing workload on the same leaves. For one leaf with m uplinks and p ports sending
//! across it, each port gets min(1, m ÷ p) of its rate (the uplinks split fairly), times what
//! ECMP hashing leaves of it on a hashed fabric ([`crate::ecmp::delivered_share`] of p × QPs
//! flows on m uplinks); a collective runs at its slowest leaf. Three cases per tenant:
//!
//! - **alone**: only its own ports send across;
//! - **worst**: every crossing workload on its leaves sends at once;
//! - **expected**: the others send for the share of their time their network is busy (a
//!   training job's communication ÷ its step; a service's communication per token ÷ its
//!   inter-token target), their ports counted at that share.
//!
//! Every port of a crossing workload is taken to send across its leaf at once: the
//! conservative reading the engine's ECMP figure makes ([`crate::ecmp`]). A tenant under one
//! leaf (one scalable unit) sends nothing across and meets no one; whole-unit isolation keeps
//! every leaf a tenant has to itself.

use super::TenantPlacement;
use crate::allocation::Allocation;
use crate::figure::Figure;
use crate::links::Conditions;
use crate::report::{FabricReport, Report, WorkloadReport};
use crate::spec::DesignSpec;
use crate::units::{Seconds, Share};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

const SOURCE: &str = "fair share of a leaf's uplinks among the ports sending across it; ECMP collisions: balls-into-bins expectation (Mitzenmacher & Upfal 2005), Gangidi et al., SIGCOMM 2024; contention between jobs in production: Crux, SIGCOMM 2024";

/// One tenant's share of the uplinks it crosses on one fabric, and its workloads' times.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Interference {
    pub tenant: String,
    pub fabric: String,
    /// Leaves its nodes hang from, and those another tenant's crossing traffic uses too.
    pub leaves: u32,
    pub shared_leaves: u32,
    /// Whether its collectives span leaves (else it sends nothing to the spines).
    pub crosses_leaves: bool,
    /// Its share of the fabric's leaf-to-spine uplinks: each leaf's uplinks split by the ports
    /// crossing it, summed, over all the fabric's uplinks.
    pub spine_share: Share,
    /// Share of its crossing traffic the uplinks carry: alone, in the worst case, expected.
    pub alone: Figure<Share>,
    pub worst: Figure<Share>,
    pub expected: Figure<Share>,
    pub workloads: Vec<Contended>,
}

/// One workload's time alone and shared.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Contended {
    pub workload: String,
    /// What the times measure ("step time", "communication per token").
    pub measure: String,
    pub alone: Seconds,
    pub expected: Seconds,
    pub worst: Seconds,
    /// Its target, where it has one (an inference service's inter-token target).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Seconds>,
}

impl Contended {
    /// Whether it meets its target alone but not in the worst case.
    pub fn met_only_alone(&self) -> bool {
        self.target
            .is_some_and(|t| self.alone <= t && self.worst > t)
    }
}

/// A crossing workload on one leaf: its ports there, and its busy share.
struct Sender {
    tenant: Option<usize>,
    ports: f64,
    busy: f64,
}

/// Share of p ports' crossing demand m uplinks carry.
fn carried(ports: f64, uplinks: f64, qps: f64, hashed: bool) -> f64 {
    if ports <= 0.0 {
        return 1.0;
    }
    let fair = (uplinks / ports).min(1.0);
    let ecmp = if hashed {
        crate::ecmp::delivered_share(ports * qps, uplinks)
    } else {
        1.0
    };
    fair * ecmp
}

/// How busy a workload keeps its network: its communication over its step or token period.
fn busy(report: Option<&WorkloadReport>) -> f64 {
    let share = match report {
        Some(WorkloadReport::Training(t)) if t.step_time.value.0 > 0.0 => {
            t.communication_time.value.0 / t.step_time.value.0
        }
        Some(WorkloadReport::Inference(i)) if i.target_inter_token.0 > 0.0 => {
            i.communication_per_token.value.0 / i.target_inter_token.0
        }
        _ => 1.0,
    };
    if share.is_finite() {
        share.clamp(0.0, 1.0)
    } else {
        1.0
    }
}

/// Each tenant's interference on each fabric its workloads run on: one entry per tenant and
/// fabric, in the design's order.
pub fn interference(spec: &DesignSpec, report: &Report) -> Vec<Interference> {
    if report.tenants.is_empty() {
        return Vec::new();
    }
    let tenant_of = |workload: &str| {
        spec.tenants
            .iter()
            .position(|t| t.workloads.iter().any(|w| w == workload))
    };
    let mut evaluations = Evaluations {
        spec,
        by_share: BTreeMap::new(),
    };
    let mut out = Vec::new();
    for fabric in &report.fabrics {
        if !crate::ecmp::applies(fabric.role) || fabric.plan.leaves <= 1 {
            continue;
        }
        let on: Vec<(usize, &Allocation)> = report
            .allocations
            .iter()
            .filter(|a| a.fabric == fabric.name && a.nodes > 0)
            .filter_map(|a| {
                let i = spec.workloads.iter().position(|w| w.name() == a.workload)?;
                Some((i, a))
            })
            .collect();
        let leaves = Leaves::of(spec, fabric);
        let senders = leaves.senders(spec, &on, report, &tenant_of);
        for (t, placed) in report.tenants.iter().enumerate() {
            let mine: Vec<&(usize, &Allocation)> = on
                .iter()
                .filter(|(_, a)| tenant_of(&a.workload) == Some(t))
                .collect();
            if mine.is_empty() {
                continue;
            }
            out.push(leaves.of_tenant(t, placed, &mine, &senders, report, &mut evaluations));
        }
    }
    out
}

/// The leaves of one fabric as the interference model sees them.
struct Leaves<'a> {
    fabric: &'a FabricReport,
    nodes_per_leaf: u32,
    /// Ports one node has on one leaf: one in a rail-optimized fabric, all of them otherwise.
    ports_per_node: f64,
    uplinks: f64,
    qps: f64,
    hashed: bool,
}

impl<'a> Leaves<'a> {
    fn of(spec: &DesignSpec, fabric: &'a FabricReport) -> Leaves<'a> {
        let plan = &fabric.plan;
        let transport = fabric.technology.transport();
        Leaves {
            fabric,
            nodes_per_leaf: crate::headroom::nodes_per_leaf(plan, fabric.ports_per_node),
            ports_per_node: if plan.layout.by_rail() {
                1.0
            } else {
                f64::from(fabric.ports_per_node.max(1))
            },
            uplinks: f64::from(plan.leaf_uplinks.max(1)),
            qps: f64::from(spec.calibration.qps_per_connection.max(1)),
            hashed: crate::ecmp::hashes(transport, &spec.calibration),
        }
    }

    /// The leaf group (from 0) node `n` (from 1) hangs from, and how many nodes of `nodes` from
    /// `first` hang from each group.
    fn per_leaf(&self, first: u32, nodes: u32) -> Vec<(u32, u32)> {
        let base = self.fabric.first_node.max(1);
        let per = self.nodes_per_leaf.max(1);
        // Positions on the fabric, from 0: the first and one past the last.
        let (from, to) = (
            first.saturating_sub(base),
            first.saturating_sub(base).saturating_add(nodes),
        );
        (from / per..to.div_ceil(per))
            .map(|leaf| {
                let (lo, hi) = ((leaf * per).max(from), ((leaf + 1) * per).min(to));
                (leaf, hi.saturating_sub(lo))
            })
            .filter(|&(_, n)| n > 0)
            .collect()
    }

    /// Whether workload `i` (running as `a`) has collectives spanning leaves, as the engine
    /// counts them ([`crate::links::Links::group`]): a training job's data-parallel groups span
    /// its nodes; a service's span one replica's.
    fn crosses(&self, spec: &DesignSpec, i: usize, a: &Allocation) -> bool {
        let nodes = match spec.workloads.get(i) {
            Some(crate::spec::Workload::Inference(s)) => s.tp_nodes,
            _ => a.nodes,
        };
        nodes > self.nodes_per_leaf
    }

    /// Every crossing workload's ports on each leaf group.
    fn senders(
        &self,
        spec: &DesignSpec,
        on: &[(usize, &Allocation)],
        report: &Report,
        tenant_of: &dyn Fn(&str) -> Option<usize>,
    ) -> BTreeMap<u32, Vec<Sender>> {
        let mut by_leaf: BTreeMap<u32, Vec<Sender>> = BTreeMap::new();
        for (i, a) in on.iter().filter(|(i, a)| self.crosses(spec, *i, a)) {
            let busy = busy(report.workloads.get(*i));
            for (leaf, nodes) in self.per_leaf(a.first_node, a.nodes) {
                by_leaf.entry(leaf).or_default().push(Sender {
                    tenant: tenant_of(&a.workload),
                    ports: f64::from(nodes) * self.ports_per_node,
                    busy,
                });
            }
        }
        by_leaf
    }

    fn of_tenant(
        &self,
        t: usize,
        placed: &TenantPlacement,
        mine: &[&(usize, &Allocation)],
        senders: &BTreeMap<u32, Vec<Sender>>,
        report: &Report,
        evaluations: &mut Evaluations,
    ) -> Interference {
        let its_leaves = self.per_leaf(placed.first_node, placed.nodes);
        let crosses = mine
            .iter()
            .any(|(i, a)| self.crosses(evaluations.spec, *i, a));
        let (mut alone, mut worst, mut expected) = (1.0f64, 1.0f64, 1.0f64);
        let mut shared_leaves = 0;
        let mut uplinks_held = 0.0;
        let (mut own_ports, mut all_ports) = (0.0, 0.0);
        for (leaf, _) in &its_leaves {
            let Some(list) = senders.get(leaf) else {
                continue;
            };
            let own: f64 = list
                .iter()
                .filter(|s| s.tenant == Some(t))
                .map(|s| s.ports)
                .sum();
            let all: f64 = list.iter().map(|s| s.ports).sum();
            if own > 0.0 && all > own {
                shared_leaves += 1;
            }
            if own > 0.0 {
                uplinks_held += self.uplinks * own / all;
                if all > all_ports {
                    (own_ports, all_ports) = (own, all);
                }
            }
            if !crosses || own <= 0.0 {
                continue;
            }
            let others: f64 = list
                .iter()
                .filter(|s| s.tenant != Some(t))
                .map(|s| s.ports * s.busy)
                .sum();
            alone = alone.min(carried(own, self.uplinks, self.qps, self.hashed));
            worst = worst.min(carried(all, self.uplinks, self.qps, self.hashed));
            expected = expected.min(carried(own + others, self.uplinks, self.qps, self.hashed));
        }
        let plan = &self.fabric.plan;
        // In a rail-optimized fabric each leaf group is one leaf per rail, alike.
        let rails = if plan.layout.by_rail() {
            self.fabric.ports_per_node.max(1)
        } else {
            1
        };
        let fabric_uplinks = f64::from(plan.leaves) * f64::from(plan.leaf_uplinks);
        let formula = |ports: String| {
            let hash = if self.hashed {
                " × ECMP's m·(1 − (1 − 1/m)^n) ÷ min(n, m), n = p × QPs"
            } else {
                ""
            };
            format!(
                "min(1, m ÷ p){hash}, m = {:.0} uplinks, p = {ports} on its busiest leaf; the slowest leaf sets the collective's rate",
                self.uplinks
            )
        };
        let figure = |value: f64, ports: String| Figure::new(Share(value), formula(ports), SOURCE);
        let workloads = mine
            .iter()
            .filter_map(|(i, a)| {
                let (measure, base) = report.workloads.get(*i)?.headline_time()?;
                let mut at = |share: f64| {
                    if self.crosses(evaluations.spec, *i, a) {
                        evaluations.time(share, *i).unwrap_or(base)
                    } else {
                        base
                    }
                };
                let target = match report.workloads.get(*i) {
                    Some(WorkloadReport::Inference(r)) => Some(r.target_inter_token),
                    _ => None,
                };
                Some(Contended {
                    workload: a.workload.clone(),
                    measure: measure.to_string(),
                    alone: at(alone),
                    expected: at(expected),
                    worst: at(worst),
                    target,
                })
            })
            .collect();
        Interference {
            tenant: placed.tenant.clone(),
            fabric: self.fabric.name.clone(),
            leaves: its_leaves.len() as u32 * rails,
            shared_leaves: shared_leaves * rails,
            crosses_leaves: crosses,
            spine_share: Share(if fabric_uplinks > 0.0 {
                (uplinks_held * f64::from(rails) / fabric_uplinks).min(1.0)
            } else {
                0.0
            }),
            alone: figure(alone, format!("{own_ports:.0} of its own ports")),
            worst: figure(
                worst,
                format!("{all_ports:.0} ports of every crossing workload"),
            ),
            expected: figure(
                expected,
                "its ports and the others' at their busy share".into(),
            ),
            workloads,
        }
    }
}

/// The design evaluated with crossing traffic at a share of the uplinks, once per share.
struct Evaluations<'a> {
    spec: &'a DesignSpec,
    by_share: BTreeMap<u64, Option<Report>>,
}

impl Evaluations<'_> {
    fn time(&mut self, share: f64, workload: usize) -> Option<Seconds> {
        let spec = self.spec;
        let report = self.by_share.entry(share.to_bits()).or_insert_with(|| {
            let conditions = Conditions {
                crossing_share: Some(share),
                ..Conditions::NORMAL
            };
            crate::evaluate_unplaced(spec, conditions).ok()
        });
        report
            .as_ref()?
            .workloads
            .get(workload)?
            .headline_time()
            .map(|(_, t)| t)
    }
}
