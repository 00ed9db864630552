//! What one failed element of a fabric takes away: a NIC port or its cable, a leaf, a spine, a
//! core switch, or (on a rail-optimised fabric) a whole rail. Read off the fabric's links (the
//! cabling walk, no sheet laid out): the nodes it cuts off (every link of theirs to the fabric
//! ends on it), the nodes it leaves with fewer links, the share of each tier's links it takes,
//! and each workload on the fabric re-evaluated by the engine under two policies:
//!
//! - **runs on degraded**: the job keeps its nodes and runs at its slowest member's bandwidth (a
//!   ring runs at its slowest link): 7 of 8 rails for a node that lost one; impossible where a
//!   node of the job is cut off;
//! - **restarts without the affected nodes**: the training job drops every data-parallel replica
//!   that holds one, the rest doing the work each did, so the global batch takes longer; a
//!   service drops the replicas.
//!
//! Elements that do the same (the leaves of one rail, one spine of many) are one row, counted.

use crate::allocation::Allocation;
use crate::cabling::{links, End, Link, Role};
use crate::links::Conditions;
pub use crate::report::failures::{Element, Failure, WorkloadAfter};
use crate::report::{Report, WorkloadReport};
use crate::spec::{DesignSpec, Workload};
use crate::units::{Seconds, Share};
use std::collections::BTreeMap;

/// What one fabric's links look like from each element.
struct Walked {
    /// Per node (0-based): its links to the fabric, and the leaf of each NIC (node × NICs + NIC),
    /// [`NO_LEAF`] where it has none.
    node_links: Vec<u32>,
    leaf_of: Vec<u32>,
    /// NICs a node has on the fabric, at least one.
    nics: u32,
    /// Per leaf, spine and core: links at each level (node-leaf, leaf-spine, spine-core).
    switch_links: [Vec<[u32; 3]>; 3],
    /// Links at each level.
    level_links: [u32; 3],
}

/// A NIC without a leaf in [`Walked::leaf_of`].
const NO_LEAF: u32 = u32::MAX;

impl Walked {
    /// (node, NIC, leaf) of every NIC with a leaf, by node then NIC.
    fn nics_on_leaves(&self) -> impl Iterator<Item = (u32, u32, u32)> + '_ {
        let nics = self.nics;
        (0u32..)
            .zip(&self.leaf_of)
            .filter(|(_, leaf)| **leaf != NO_LEAF)
            .map(move |(at, leaf)| (at / nics, at % nics, *leaf))
    }
}

fn walk(fabric: &crate::report::FabricReport) -> Walked {
    let plan = &fabric.plan;
    let nics = fabric.ports_per_node.max(1);
    let mut w = Walked {
        node_links: vec![0; fabric.node_span() as usize],
        leaf_of: vec![NO_LEAF; fabric.node_span() as usize * nics as usize],
        nics,
        switch_links: [
            vec![[0; 3]; plan.leaves as usize],
            vec![[0; 3]; plan.spines as usize],
            vec![[0; 3]; plan.cores as usize],
        ],
        level_links: [0; 3],
    };
    // A fabric that does not fit gets no links: it has nothing to lose.
    let _ = links(fabric, &mut |link: Link| {
        let level = link.level.min(2);
        w.level_links[level] += 1;
        for end in [link.a, link.z] {
            match end {
                End::Node { node, nic } => {
                    if let Some(n) = w.node_links.get_mut(node as usize) {
                        *n += 1;
                    }
                    if let End::Switch {
                        role: Role::Leaf,
                        index,
                        ..
                    } = link.z
                    {
                        let at = node as usize * nics as usize + nic as usize;
                        if let Some(leaf) = w.leaf_of.get_mut(at).filter(|_| nic < nics) {
                            *leaf = index;
                        }
                    }
                }
                End::Switch { role, index, .. } => {
                    let r = match role {
                        Role::Leaf => 0,
                        Role::Spine => 1,
                        Role::Core => 2,
                    };
                    if let Some(s) = w.switch_links[r].get_mut(index as usize) {
                        s[level] += 1;
                    }
                }
                End::Endpoint(_) => {}
            }
        }
    });
    w
}

const TIERS: [&str; 3] = ["node-leaf", "leaf-spine", "spine-core"];

/// What one element takes, before the workloads are re-evaluated.
struct Reach {
    /// Nodes (0-based) that lose every link, and that lose some.
    cut_off: Vec<u32>,
    degraded: Vec<u32>,
    /// Links taken at each level.
    links: [u32; 3],
}

/// Counts one more NIC of `node` in `nodes`, which holds (node, NICs) by node: the NICs come
/// node by node, so a node's are counted together at the end.
fn count_in(nodes: &mut Vec<(u32, u32)>, node: u32) {
    match nodes.last_mut() {
        Some((last, n)) if *last == node => *n += 1,
        _ => nodes.push((node, 1)),
    }
}

/// Every element's reach on one fabric, with how many elements each stands for.
fn reaches(fabric: &crate::report::FabricReport, w: &Walked) -> Vec<(Element, Reach, u32)> {
    let mut out: Vec<(Element, Reach, u32)> = Vec::new();
    // Losing the links of `lost` nodes' NICs: each node with all its links among them is cut
    // off, the rest with one among them degraded.
    let of_ports = |lost: &[(u32, u32)]| -> (Vec<u32>, Vec<u32>) {
        let mut cut = Vec::new();
        let mut fewer = Vec::new();
        for (node, n) in lost {
            if *n >= w.node_links[*node as usize] {
                cut.push(*node);
            } else {
                fewer.push(*node);
            }
        }
        (cut, fewer)
    };
    // One port of each node (its ports are alike): the node is degraded, or cut off when it
    // has one link.
    for (node, links_of_node) in w.node_links.iter().enumerate().filter(|(_, n)| **n > 0) {
        let node = vec![node as u32];
        let (cut_off, degraded) = if *links_of_node > 1 {
            (vec![], node)
        } else {
            (node, vec![])
        };
        out.push((
            Element::Port,
            Reach {
                cut_off,
                degraded,
                links: [1, 0, 0],
            },
            *links_of_node,
        ));
    }
    // Each leaf: the nodes whose NICs it serves, by node, with how many NICs each.
    let mut served: Vec<Vec<(u32, u32)>> = vec![Vec::new(); w.switch_links[0].len()];
    for (node, _, leaf) in w.nics_on_leaves() {
        if let Some(s) = served.get_mut(leaf as usize) {
            count_in(s, node);
        }
    }
    for (leaf, nodes) in served.iter().enumerate() {
        let (cut_off, degraded) = of_ports(nodes);
        out.push((
            Element::Leaf,
            Reach {
                cut_off,
                degraded,
                links: w.switch_links[0][leaf],
            },
            1,
        ));
    }
    for (element, r) in [(Element::Spine, 1), (Element::Core, 2)] {
        for links in &w.switch_links[r] {
            out.push((
                element,
                Reach {
                    cut_off: vec![],
                    degraded: vec![],
                    links: *links,
                },
                1,
            ));
        }
    }
    // A rail: NIC r of every node, and the leaves those NICs reach, on a fabric whose leaves
    // each serve one rail.
    let rails = fabric.ports_per_node;
    if fabric.plan.layout.by_rail() && rails > 1 {
        for rail in 0..rails {
            let mut lost: Vec<(u32, u32)> = Vec::new();
            let mut reached = vec![false; w.switch_links[0].len()];
            let mut leaves: Vec<u32> = Vec::new();
            let nodes = w.leaf_of.len() / w.nics as usize;
            let of_rail = (0..nodes as u32).filter_map(|node| {
                let leaf = *w.leaf_of.get((node * w.nics + rail) as usize)?;
                (leaf != NO_LEAF).then_some((node, leaf))
            });
            for (node, leaf) in of_rail {
                count_in(&mut lost, node);
                if let Some(seen) = reached.get_mut(leaf as usize).filter(|s| !**s) {
                    *seen = true;
                    leaves.push(leaf);
                }
            }
            let (cut_off, degraded) = of_ports(&lost);
            let mut links = [0; 3];
            for leaf in &leaves {
                for (l, n) in links.iter_mut().zip(w.switch_links[0][*leaf as usize]) {
                    *l += n;
                }
            }
            out.push((
                Element::Rail,
                Reach {
                    cut_off,
                    degraded,
                    links,
                },
                1,
            ));
        }
    }
    out
}

/// The affected nodes of `a` (0-based fabric nodes among `nodes`).
fn hit(a: &Allocation, nodes: &[u32]) -> Vec<u32> {
    nodes
        .iter()
        .map(|n| n + 1)
        .filter(|n| a.holds(*n))
        .collect()
}

/// Data-parallel replicas of training job `t` (running as `a`) that hold one of `lost`
/// (nodes from 1), and the GPUs they hold.
fn replicas_lost(
    t: &crate::spec::Training,
    a: &Allocation,
    lost: &[u32],
    gpus_per_node: u32,
) -> (u32, u64) {
    let p = &t.parallelism;
    let per_replica = u64::from(p.tp) * u64::from(p.pp);
    let g = u64::from(gpus_per_node.max(1));
    // A node's GPUs hold a run of replicas (GPU ÷ GPUs per replica); the nodes in order, each
    // run counted from the first replica the runs before it did not reach (a rail's loss
    // reaches every node of the fabric).
    let mut nodes = lost.to_vec();
    nodes.sort_unstable();
    let (mut replicas, mut next) = (0u64, 0u64);
    for n in nodes {
        let first_gpu = u64::from(n - a.first_node) * g;
        let from = (first_gpu / per_replica.max(1)).max(next);
        let to = ((first_gpu + g - 1) / per_replica.max(1) + 1).min(u64::from(p.dp));
        if to > from {
            replicas += to - from;
            next = to;
        }
    }
    (replicas as u32, replicas * per_replica)
}

/// The time training job `i` of `spec` takes for its global batch once restarted on `left` of
/// its data-parallel replicas, each doing the work it did (its micro-batches): the step of the
/// smaller batch, scaled to the whole batch. `None` when no replica is left.
fn restarted_step(spec: &DesignSpec, i: usize, left: u32) -> Option<Seconds> {
    let Some(Workload::Training(t)) = spec.workloads.get(i) else {
        return None;
    };
    if left == 0 {
        return None;
    }
    let p = &t.parallelism;
    let per_replica = t.global_batch / p.dp.max(1);
    let batch = per_replica.checked_mul(left)?;
    let mut variant = spec.clone();
    if let Some(Workload::Training(v)) = variant.workloads.get_mut(i) {
        v.parallelism.dp = left;
        v.global_batch = batch;
    }
    let workloads = crate::evaluate::evaluate_workloads(&variant, Conditions::NORMAL).ok()?;
    let (_, step) = workloads.get(i)?.headline_time()?;
    Some(Seconds::new(
        step.seconds() * f64::from(t.global_batch) / f64::from(batch),
    ))
}

/// What one element's failure takes away, as its row of [`Failure`] says it but for names:
/// elements that take the same are one row.
#[derive(PartialEq)]
struct Takes {
    element: Element,
    cut_off: usize,
    degraded: usize,
    /// Tiers (as in [`TIERS`]) that lose links, with the share they lose.
    tiers: Vec<(usize, Share)>,
    workloads: Vec<After>,
}

/// The design's evaluations a failure asks for, each made once: with the network at a share
/// of its bandwidth, and with a training job on fewer replicas.
struct Evaluations<'a> {
    spec: &'a DesignSpec,
    degraded: Vec<(f64, Option<Vec<WorkloadReport>>)>,
    restarted: BTreeMap<(usize, u32), Option<Seconds>>,
}

impl Evaluations<'_> {
    /// Workload `workload`'s time with the network at `share` of its bandwidth.
    fn degraded(&mut self, share: f64, workload: usize) -> Option<Seconds> {
        let at = match self.degraded.iter().position(|(s, _)| *s == share) {
            Some(i) => i,
            None => {
                let conditions = Conditions {
                    network_share: share,
                    ideal_network: false,
                    crossing_share: None,
                };
                let workloads = crate::evaluate::evaluate_workloads(self.spec, conditions).ok();
                self.degraded.push((share, workloads));
                self.degraded.len() - 1
            }
        };
        self.degraded[at]
            .1
            .as_ref()?
            .get(workload)?
            .headline_time()
            .map(|(_, t)| t)
    }

    /// [`restarted_step`], once per job and replicas left.
    fn restarted(&mut self, workload: usize, left: u32) -> Option<Seconds> {
        let spec = self.spec;
        *self
            .restarted
            .entry((workload, left))
            .or_insert_with(|| restarted_step(spec, workload, left))
    }
}

/// The share of its bandwidth a workload on `fabric` (running as `a`, with nodes on fewer links
/// or not) keeps when `element` fails with `reach`: on a node left with fewer links, (links − 1)
/// of its links, since a ring runs at its slowest member; across a tier of switches, what ECMP
/// spreads over the switches left against what the tier's traffic needs, for a workload that
/// crosses it.
fn share_kept(
    fabric: &crate::report::FabricReport,
    w: &Walked,
    (element, reach): (Element, &Reach),
    a: &Allocation,
    on_fewer_links: bool,
) -> f64 {
    let level = match element {
        Element::Spine => 1,
        Element::Core => 2,
        _ if on_fewer_links => {
            let links = fabric.ports_per_node.max(1);
            return f64::from(links - 1) / f64::from(links);
        }
        _ => return 1.0,
    };
    let crosses = a.nodes > crate::headroom::nodes_per_leaf(&fabric.plan, fabric.ports_per_node);
    let Some(t) = fabric.tiers.iter().find(|t| t.tier == TIERS[level]) else {
        return 1.0;
    };
    if !crosses || t.required.bytes_per_second() <= 0.0 {
        return 1.0;
    }
    let lost = f64::from(reach.links[level]) / f64::from(w.level_links[level].max(1));
    (t.available.bytes_per_second() * (1.0 - lost) / t.required.bytes_per_second()).min(1.0)
}

/// A workload after a failure ([`WorkloadAfter`]), by its number in the design: compared
/// without writing any name, since most elements do what another of their kind does.
#[derive(Debug, Clone, Copy, PartialEq)]
struct After {
    workload: usize,
    measure: &'static str,
    before: Seconds,
    degraded: Option<Seconds>,
    restarted: Option<Seconds>,
    gpus_given_up: u64,
}

impl After {
    fn named(self, a: &Allocation) -> WorkloadAfter {
        WorkloadAfter {
            workload: a.workload.clone(),
            measure: self.measure.to_string(),
            before: self.before,
            degraded: self.degraded,
            restarted: self.restarted,
            gpus_given_up: self.gpus_given_up,
        }
    }
}

/// Workload `i` of the design (running as `a`) after `element` fails with `reach`, under both
/// policies; `None` when the failure does not reach it.
fn after(
    evaluations: &mut Evaluations,
    report: &Report,
    fabric: &crate::report::FabricReport,
    w: &Walked,
    element: Element,
    reach: &Reach,
    (i, a): (usize, &Allocation),
) -> Option<After> {
    let (measure, before) = report.workloads.get(i)?.headline_time()?;
    let spec = evaluations.spec;
    let g = u64::from(spec.cluster.gpus_per_node);
    let cut = hit(a, &reach.cut_off);
    let fewer = hit(a, &reach.degraded);
    let share = share_kept(fabric, w, (element, reach), a, !fewer.is_empty());
    if cut.is_empty() && fewer.is_empty() && share >= 1.0 {
        return None;
    }
    let degraded = if !cut.is_empty() {
        None
    } else if share >= 1.0 {
        Some(before)
    } else {
        evaluations.degraded(share, i)
    };
    let lost: Vec<u32> = cut.iter().chain(&fewer).copied().collect();
    // With no node to drop, a restart runs on what the failure left, as degraded.
    let (restarted, gpus_given_up) = if lost.is_empty() {
        (degraded, 0)
    } else {
        match (report.workloads.get(i), spec.workloads.get(i)) {
            (Some(WorkloadReport::Training(_)), Some(Workload::Training(t))) => {
                let (replicas, given_up) = replicas_lost(t, a, &lost, spec.cluster.gpus_per_node);
                let left = t.parallelism.dp.saturating_sub(replicas);
                (evaluations.restarted(i, left), given_up)
            }
            (Some(WorkloadReport::Inference(r)), _) => {
                let per_replica = u64::from(r.tp_nodes.max(1));
                let replicas: std::collections::BTreeSet<u64> = lost
                    .iter()
                    .map(|n| u64::from(n - a.first_node) / per_replica)
                    .collect();
                let left = u64::from(r.replicas).saturating_sub(replicas.len() as u64);
                (
                    (left > 0).then_some(before),
                    replicas.len() as u64 * per_replica * g,
                )
            }
            // Storage and retrieval traffic carries on from the nodes left.
            _ => (Some(before), lost.len() as u64 * g),
        }
    };
    Some(After {
        workload: i,
        measure,
        before,
        degraded,
        restarted,
        gpus_given_up,
    })
}

/// Each workload on `fabric`, where it runs: a training job or a service on its own nodes;
/// storage traffic and retrieval from every node of the fabric.
fn on_fabric(
    spec: &DesignSpec,
    report: &Report,
    fabric: &crate::report::FabricReport,
) -> Vec<(usize, Allocation)> {
    let g = u64::from(spec.cluster.gpus_per_node);
    spec.workloads
        .iter()
        .enumerate()
        .filter(|(_, w)| w.fabric() == fabric.name)
        .map(|(i, w)| {
            let own = report.allocations.iter().find(|a| a.workload == w.name());
            let everywhere = || Allocation {
                workload: w.name().to_string(),
                fabric: fabric.name.clone(),
                first_node: fabric.first_node,
                nodes: fabric.attached_nodes,
                gpus: u64::from(fabric.attached_nodes) * g,
                replicas: 0,
                stated: false,
            };
            (i, own.cloned().unwrap_or_else(everywhere))
        })
        .collect()
}

/// GPUs the worst single failure of any fabric of `report` cuts off: the reach of every element,
/// without re-evaluating any workload (the search asks this of every candidate's fabrics).
pub fn worst_cut_off(spec: &DesignSpec, report: &Report) -> u64 {
    let g = u64::from(spec.cluster.gpus_per_node);
    report
        .fabrics
        .iter()
        .flat_map(|fabric| reaches(fabric, &walk(fabric)))
        .map(|(_, reach, _)| reach.cut_off.len() as u64 * g)
        .max()
        .unwrap_or(0)
}

/// Every element's failure on every fabric of `spec` evaluated as `report`, those that take
/// the most GPUs away first (cut off, then affected), then by fabric and element.
pub fn failures(spec: &DesignSpec, report: &Report) -> Vec<Failure> {
    let g = u64::from(spec.cluster.gpus_per_node);
    let mut evaluations = Evaluations {
        spec,
        degraded: Vec::new(),
        restarted: BTreeMap::new(),
    };
    let mut out: Vec<Failure> = Vec::new();
    for fabric in &report.fabrics {
        let w = walk(fabric);
        let workloads = on_fabric(spec, report, fabric);
        // This fabric's rows so far, each with what it takes: elements that do the same are one
        // row, counted.
        let mut rows: Vec<(Takes, usize)> = Vec::new();
        for (element, reach, alike) in reaches(fabric, &w) {
            let takes = Takes {
                element,
                cut_off: reach.cut_off.len(),
                degraded: reach.degraded.len(),
                tiers: (0..TIERS.len())
                    .filter(|&t| reach.links[t] > 0 && w.level_links[t] > 0)
                    .map(|t| {
                        let share = f64::from(reach.links[t]) / f64::from(w.level_links[t]);
                        (t, Share::new(share))
                    })
                    .collect(),
                workloads: workloads
                    .iter()
                    .filter_map(|(i, a)| {
                        after(
                            &mut evaluations,
                            report,
                            fabric,
                            &w,
                            element,
                            &reach,
                            (*i, a),
                        )
                    })
                    .collect(),
            };
            if let Some((_, row)) = rows.iter().find(|(row, _)| *row == takes) {
                out[*row].alike += alike;
                continue;
            }
            let named = |after: &After| {
                let (_, a) = workloads.iter().find(|(i, _)| *i == after.workload)?;
                Some(after.named(a))
            };
            out.push(Failure {
                fabric: fabric.name.clone(),
                element,
                alike,
                nodes_cut_off: takes.cut_off as u32,
                nodes_degraded: takes.degraded as u32,
                gpus_cut_off: takes.cut_off as u64 * g,
                gpus_affected: (takes.cut_off + takes.degraded) as u64 * g,
                tiers: takes
                    .tiers
                    .iter()
                    .map(|(t, share)| (TIERS[*t].to_string(), *share))
                    .collect(),
                workloads: takes.workloads.iter().filter_map(named).collect(),
            });
            rows.push((takes, out.len() - 1));
        }
    }
    out.sort_by(|a, b| {
        (b.gpus_cut_off, b.gpus_affected)
            .cmp(&(a.gpus_cut_off, a.gpus_affected))
            .then_with(|| a.fabric.cmp(&b.fabric))
            .then(a.element.cmp(&b.element))
    });
    out
}

/// A finding for each fabric one element of which cuts more than half of its nodes off: a
/// fabric of one switch, or nodes whose every link ends on one leaf. Running on is then
/// impossible for every job on those nodes; splitting each node's links over two switches
/// keeps them on the fabric at part of their bandwidth.
pub fn findings(report: &Report, failures: &[Failure]) -> Vec<crate::report::Finding> {
    let mut out = Vec::new();
    for fabric in &report.fabrics {
        let worst = failures
            .iter()
            .filter(|f| f.fabric == fabric.name)
            .max_by_key(|f| f.nodes_cut_off);
        let Some(f) = worst.filter(|f| f.nodes_cut_off * 2 > fabric.attached_nodes) else {
            continue;
        };
        let what = if fabric.plan.leaves <= 1 && fabric.plan.spines == 0 {
            "its one switch"
        } else {
            "one of its leaves"
        };
        let stopped: Vec<String> = f
            .workloads
            .iter()
            .filter(|w| w.degraded.is_none())
            .map(|w| format!("“{}”", w.workload))
            .collect();
        let stops = if stopped.is_empty() {
            String::new()
        } else {
            format!(" and stops {}", stopped.join(", "))
        };
        out.push(crate::report::Finding {
            severity: crate::report::Severity::Warning,
            rule: "one-failure-cuts-off-fabric".into(),
            subject: fabric.name.clone(),
            message: format!(
                "Losing {what} cuts {} of the {} nodes of fabric {} off{stops}: every link of theirs ends on it. Splitting each node's links over two switches keeps them on the fabric at part of their bandwidth.",
                f.nodes_cut_off, fabric.attached_nodes, fabric.name
            ),
        });
    }
    out
}

#[cfg(test)]
mod tests;
