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
//!
//! On a three-tier fabric the same holds one tier up: a workload whose nodes span pods sends
//! through its pods' spine-to-core uplinks (a pod's share of them; in a rail-optimized fabric
//! each rail's pod has its own), with every other workload spanning pods there. Its collective
//! runs at the slower of the two tiers.

use crate::allocation::Allocation;
use crate::figure::Figure;
use crate::links::Conditions;
use crate::report::tenants::{Contended, Interference, TenantPlacement};
use crate::report::{FabricReport, Report, WorkloadReport};
use crate::spec::DesignSpec;
use crate::units::{Seconds, Share};
use std::collections::BTreeMap;

impl Contended {
    /// Whether it meets its target alone but not in the worst case.
    pub fn met_only_alone(&self) -> bool {
        self.target
            .is_some_and(|t| self.alone <= t && self.worst > t)
    }
}

const SOURCE: &str = "fair share of a leaf's uplinks among the ports sending across it; ECMP collisions: balls-into-bins expectation (Mitzenmacher & Upfal 2005), Gangidi et al., SIGCOMM 2024; contention between jobs in production: Crux, SIGCOMM 2024";

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
        Some(WorkloadReport::Training(t)) if t.step_time.value.seconds() > 0.0 => {
            t.communication_time.value.seconds() / t.step_time.value.seconds()
        }
        Some(WorkloadReport::Inference(i)) if i.target_inter_token.seconds() > 0.0 => {
            i.communication_per_token.value.seconds() / i.target_inter_token.seconds()
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
    /// Leaf groups (as [`Leaves::per_leaf`] numbers them) in one pod, and the spine-to-core
    /// uplinks of one pod; no pods on a fabric of two tiers.
    leaves_per_pod: u32,
    pod_uplinks: f64,
    qps: f64,
    hashed: bool,
}

/// The crossing senders of one tier: per leaf group, or per pod.
type Senders = BTreeMap<u32, Vec<Sender>>;

/// What one tenant meets on one tier: the share of its crossing traffic the tier's uplinks
/// carry alone, in the worst case and expected, with the ports behind them.
struct Tier {
    alone: f64,
    worst: f64,
    expected: f64,
    shared: u32,
    /// Uplinks its ports hold (each group's uplinks split by the ports crossing it), summed.
    held: f64,
    own_ports: f64,
    all_ports: f64,
}

impl Tier {
    /// Tenant `t` on `groups` (its leaf groups or pods) of a tier of `uplinks` per group;
    /// `crosses`: whether its traffic crosses this tier at all.
    fn of(
        t: usize,
        groups: &[(u32, u32)],
        senders: &Senders,
        uplinks: f64,
        crosses: bool,
        leaves: &Leaves,
    ) -> Tier {
        let mut tier = Tier {
            alone: 1.0,
            worst: 1.0,
            expected: 1.0,
            shared: 0,
            held: 0.0,
            own_ports: 0.0,
            all_ports: 0.0,
        };
        let carried = |ports| carried(ports, uplinks, leaves.qps, leaves.hashed);
        for (group, _) in groups {
            let Some(list) = senders.get(group) else {
                continue;
            };
            let own: f64 = list
                .iter()
                .filter(|s| s.tenant == Some(t))
                .map(|s| s.ports)
                .sum();
            let all: f64 = list.iter().map(|s| s.ports).sum();
            if own > 0.0 && all > own {
                tier.shared += 1;
            }
            if own > 0.0 {
                tier.held += uplinks * own / all;
                if all > tier.all_ports {
                    (tier.own_ports, tier.all_ports) = (own, all);
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
            tier.alone = tier.alone.min(carried(own));
            tier.worst = tier.worst.min(carried(all));
            tier.expected = tier.expected.min(carried(own + others));
        }
        tier
    }
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
            leaves_per_pod: if plan.layout.has_pods() {
                plan.leaves_per_pod.max(1)
            } else {
                0
            },
            pod_uplinks: f64::from(plan.spine_core_links) / f64::from(plan.pods.max(1)),
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

    /// The pods (from 0) of `first`'s `nodes` and how many of them each holds; none on a fabric
    /// of two tiers.
    fn per_pod(&self, first: u32, nodes: u32) -> Vec<(u32, u32)> {
        if self.leaves_per_pod == 0 {
            return Vec::new();
        }
        let mut pods: Vec<(u32, u32)> = Vec::new();
        for (leaf, n) in self.per_leaf(first, nodes) {
            let pod = leaf / self.leaves_per_pod;
            match pods.last_mut() {
                Some((p, m)) if *p == pod => *m += n,
                _ => pods.push((pod, n)),
            }
        }
        pods
    }

    /// Whether workload `i` (running as `a`) has collectives spanning leaves, as the engine
    /// counts them ([`crate::links::Links::group`]): a training job's data-parallel groups span
    /// its nodes; a service's span one replica's.
    fn crosses(&self, spec: &DesignSpec, i: usize, a: &Allocation) -> bool {
        self.group_nodes(spec, i, a) > self.nodes_per_leaf
    }

    /// Whether its collectives span pods: a job's nodes lie in more than one; a service's
    /// replica is larger than a pod.
    fn crosses_pods(&self, spec: &DesignSpec, i: usize, a: &Allocation) -> bool {
        match spec.workloads.get(i) {
            Some(crate::spec::Workload::Inference(_)) => {
                self.leaves_per_pod > 0
                    && self.group_nodes(spec, i, a) > self.nodes_per_leaf * self.leaves_per_pod
            }
            _ => self.per_pod(a.first_node, a.nodes).len() > 1,
        }
    }

    /// Nodes one of its collective groups spans.
    fn group_nodes(&self, spec: &DesignSpec, i: usize, a: &Allocation) -> u32 {
        match spec.workloads.get(i) {
            Some(crate::spec::Workload::Inference(s)) => s.tp_nodes,
            _ => a.nodes,
        }
    }

    /// Every crossing workload's ports on each leaf group, and on each pod for those crossing
    /// pods.
    fn senders(
        &self,
        spec: &DesignSpec,
        on: &[(usize, &Allocation)],
        report: &Report,
        tenant_of: &dyn Fn(&str) -> Option<usize>,
    ) -> (Senders, Senders) {
        let (mut by_leaf, mut by_pod) = (Senders::new(), Senders::new());
        for (i, a) in on.iter().filter(|(i, a)| self.crosses(spec, *i, a)) {
            let busy = busy(report.workloads.get(*i));
            let tenant = tenant_of(&a.workload);
            let sender = |nodes: u32| Sender {
                tenant,
                ports: f64::from(nodes) * self.ports_per_node,
                busy,
            };
            for (leaf, nodes) in self.per_leaf(a.first_node, a.nodes) {
                by_leaf.entry(leaf).or_default().push(sender(nodes));
            }
            if self.crosses_pods(spec, *i, a) {
                for (pod, nodes) in self.per_pod(a.first_node, a.nodes) {
                    by_pod.entry(pod).or_default().push(sender(nodes));
                }
            }
        }
        (by_leaf, by_pod)
    }

    fn of_tenant(
        &self,
        t: usize,
        placed: &TenantPlacement,
        mine: &[&(usize, &Allocation)],
        (by_leaf, by_pod): &(Senders, Senders),
        report: &Report,
        evaluations: &mut Evaluations,
    ) -> Interference {
        let spec = evaluations.spec;
        let its_leaves = self.per_leaf(placed.first_node, placed.nodes);
        let its_pods = self.per_pod(placed.first_node, placed.nodes);
        let crosses = mine.iter().any(|(i, a)| self.crosses(spec, *i, a));
        let crosses_pods = mine.iter().any(|(i, a)| self.crosses_pods(spec, *i, a));
        let leaf = Tier::of(t, &its_leaves, by_leaf, self.uplinks, crosses, self);
        let pod = Tier::of(t, &its_pods, by_pod, self.pod_uplinks, crosses_pods, self);
        let plan = &self.fabric.plan;
        // In a rail-optimized fabric each leaf group is one leaf per rail, alike, and each pod
        // one pod per rail.
        let rails = if plan.layout.by_rail() {
            self.fabric.ports_per_node.max(1)
        } else {
            1
        };
        let share_of = |held: f64, links: u32| {
            Share::new(if links > 0 {
                (held * f64::from(rails) / f64::from(links)).min(1.0)
            } else {
                0.0
            })
        };
        // Each case's figure: the slower tier's share, with its formula.
        let figure = |leaf_value: f64, pod_value: f64, ports: &dyn Fn(&Tier) -> String| {
            let hash = if self.hashed {
                " × ECMP's m·(1 − (1 − 1/m)^n) ÷ min(n, m), n = p × QPs"
            } else {
                ""
            };
            let (value, formula) = if pod_value < leaf_value {
                (
                    pod_value,
                    format!(
                        "min(1, m ÷ p){hash}, m = {:.0} spine-to-core uplinks of a pod, p = {} \
                         crossing pods on its busiest pod; the slowest tier sets the collective's rate",
                        self.pod_uplinks,
                        ports(&pod)
                    ),
                )
            } else {
                (
                    leaf_value,
                    format!(
                        "min(1, m ÷ p){hash}, m = {:.0} uplinks, p = {} on its busiest leaf; the \
                         slowest leaf sets the collective's rate",
                        self.uplinks,
                        ports(&leaf)
                    ),
                )
            };
            Figure::new(Share::new(value), formula, SOURCE)
        };
        let alone = figure(leaf.alone, pod.alone, &|t| {
            format!("{:.0} of its own ports", t.own_ports)
        });
        let worst = figure(leaf.worst, pod.worst, &|t| {
            format!("{:.0} ports of every crossing workload", t.all_ports)
        });
        let expected = figure(leaf.expected, pod.expected, &|_| {
            "its ports and the others' at their busy share".into()
        });
        let workloads = mine
            .iter()
            .filter_map(|(i, a)| {
                let (measure, base) = report.workloads.get(*i)?.headline_time()?;
                // A job that stays in one pod meets only its leaves' share.
                let in_pod = !self.crosses_pods(spec, *i, a);
                let mut at = |figure: &Figure<Share>, leaf_value: f64| {
                    let share = if in_pod {
                        leaf_value
                    } else {
                        figure.value.fraction()
                    };
                    if self.crosses(spec, *i, a) {
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
                    alone: at(&alone, leaf.alone),
                    expected: at(&expected, leaf.expected),
                    worst: at(&worst, leaf.worst),
                    target,
                })
            })
            .collect();
        Interference {
            tenant: placed.tenant.clone(),
            fabric: self.fabric.name.clone(),
            leaves: its_leaves.len() as u32 * rails,
            shared_leaves: leaf.shared * rails,
            crosses_leaves: crosses,
            spine_share: share_of(leaf.held, plan.leaves * plan.leaf_uplinks),
            pods: its_pods.len() as u32 * rails,
            shared_pods: pod.shared * rails,
            crosses_pods,
            core_share: share_of(pod.held, plan.spine_core_links),
            core_binds: pod.worst < leaf.worst,
            alone,
            worst,
            expected,
            workloads,
        }
    }
}

/// The design evaluated with crossing traffic at a share of the uplinks, once per share.
struct Evaluations<'a> {
    spec: &'a DesignSpec,
    by_share: BTreeMap<u64, Option<Vec<WorkloadReport>>>,
}

impl Evaluations<'_> {
    fn time(&mut self, share: f64, workload: usize) -> Option<Seconds> {
        let spec = self.spec;
        let workloads = self.by_share.entry(share.to_bits()).or_insert_with(|| {
            let conditions = Conditions {
                crossing_share: Some(share),
                ..Conditions::NORMAL
            };
            crate::evaluate::evaluate_workloads(spec, conditions).ok()
        });
        workloads
            .as_ref()?
            .get(workload)?
            .headline_time()
            .map(|(_, t)| t)
    }
}
