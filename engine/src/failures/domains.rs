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
struct Reach<'n> {
    /// Nodes (0-based, ascending) that lose every link, and that lose some.
    cut_off: &'n [u32],
    degraded: &'n [u32],
    /// Links taken at each level.
    links: [u32; 3],
}

/// Counts one more NIC of `node` in `nodes`, whose first `counted` entries hold (node, NICs)
/// by node: the NICs come node by node, so a node's are counted together at the end. `nodes`
/// has room for every NIC.
fn count_in(nodes: &mut [(u32, u32)], counted: &mut usize, node: u32) {
    match counted.checked_sub(1).and_then(|last| nodes.get_mut(last)) {
        Some((last, n)) if *last == node => *n += 1,
        _ => {
            if let Some(entry) = nodes.get_mut(*counted) {
                *entry = (node, 1);
                *counted += 1;
            }
        }
    }
}

/// Every element's reach on one fabric, handed to `each` with how many elements it stands for.
fn reaches(
    fabric: &crate::report::FabricReport,
    w: &Walked,
    mut each: impl FnMut(Element, Reach, u32),
) {
    // Losing the links of `lost` nodes' NICs: each node with all its links among them is cut
    // off (into `cut`), the rest with one among them degraded (into `fewer`).
    let (mut cut, mut fewer) = (Vec::new(), Vec::new());
    let of_ports = |lost: &[(u32, u32)], cut: &mut Vec<u32>, fewer: &mut Vec<u32>| {
        cut.clear();
        fewer.clear();
        for (node, n) in lost {
            if *n >= w.node_links[*node as usize] {
                cut.push(*node);
            } else {
                fewer.push(*node);
            }
        }
    };
    // One port of each node (its ports are alike): the node is degraded, or cut off when it
    // has one link.
    for (node, links_of_node) in w.node_links.iter().enumerate().filter(|(_, n)| **n > 0) {
        let node = [node as u32];
        let (cut_off, degraded): (&[u32], &[u32]) = if *links_of_node > 1 {
            (&[], &node)
        } else {
            (&node, &[])
        };
        let links = [1, 0, 0];
        let reach = Reach {
            cut_off,
            degraded,
            links,
        };
        each(Element::Port, reach, *links_of_node);
    }
    // Each leaf: the nodes whose NICs it serves, by node, with how many NICs each; one list for
    // all the leaves, each leaf's NICs at its own place in it.
    let leaves = w.switch_links[0].len();
    let on_leaves = || {
        w.nics_on_leaves()
            .filter(|(_, _, leaf)| (*leaf as usize) < leaves)
    };
    let mut first = vec![0usize; leaves + 1];
    for (_, _, leaf) in on_leaves() {
        first[leaf as usize + 1] += 1;
    }
    for l in 0..leaves {
        first[l + 1] += first[l];
    }
    let mut served = vec![(0u32, 0u32); first[leaves]];
    let mut counted = vec![0usize; leaves];
    for (node, _, leaf) in on_leaves() {
        let l = leaf as usize;
        count_in(&mut served[first[l]..first[l + 1]], &mut counted[l], node);
    }
    for (leaf, links) in w.switch_links[0].iter().enumerate() {
        of_ports(
            &served[first[leaf]..first[leaf] + counted[leaf]],
            &mut cut,
            &mut fewer,
        );
        let reach = Reach {
            cut_off: &cut,
            degraded: &fewer,
            links: *links,
        };
        each(Element::Leaf, reach, 1);
    }
    for (element, r) in [(Element::Spine, 1), (Element::Core, 2)] {
        for links in &w.switch_links[r] {
            let reach = Reach {
                cut_off: &[],
                degraded: &[],
                links: *links,
            };
            each(element, reach, 1);
        }
    }
    // A rail: NIC r of every node, and the leaves those NICs reach, on a fabric whose leaves
    // each serve one rail.
    let rails = fabric.ports_per_node;
    if fabric.plan.layout.by_rail() && rails > 1 {
        for rail in 0..rails {
            let nodes = w.leaf_of.len() / w.nics as usize;
            let (mut lost, mut counted) = (vec![(0u32, 0u32); nodes], 0);
            let mut reached = vec![false; leaves];
            let mut reached_leaves: Vec<u32> = Vec::new();
            let of_rail = (0..nodes as u32).filter_map(|node| {
                let leaf = *w.leaf_of.get((node * w.nics + rail) as usize)?;
                (leaf != NO_LEAF).then_some((node, leaf))
            });
            for (node, leaf) in of_rail {
                count_in(&mut lost, &mut counted, node);
                if let Some(seen) = reached.get_mut(leaf as usize).filter(|s| !**s) {
                    *seen = true;
                    reached_leaves.push(leaf);
                }
            }
            of_ports(&lost[..counted], &mut cut, &mut fewer);
            let mut links = [0; 3];
            for leaf in &reached_leaves {
                for (l, n) in links.iter_mut().zip(w.switch_links[0][*leaf as usize]) {
                    *l += n;
                }
            }
            let reach = Reach {
                cut_off: &cut,
                degraded: &fewer,
                links,
            };
            each(Element::Rail, reach, 1);
        }
    }
}

/// The nodes among `nodes` (0-based, ascending) that `a` holds: one stretch of them, found
/// without looking at the others (a failure's reach is looked at for every element).
fn hit<'n>(a: &Allocation, nodes: &'n [u32]) -> &'n [u32] {
    let run = a.run();
    if run.nodes == 0 {
        return &[];
    }
    // `a` holds nodes `first..=last` counted from 1.
    let from = nodes.partition_point(|&n| n + 1 < run.first);
    let to = nodes.partition_point(|&n| n < run.last());
    &nodes[from..to.max(from)]
}

/// The nodes of two ascending lists, counted from 1, in ascending order: the nodes of a
/// workload a failure cuts off and those it leaves with fewer links, together.
fn merged<'n>(a: &'n [u32], b: &'n [u32]) -> impl Iterator<Item = u32> + 'n {
    let (mut a, mut b) = (a.iter().peekable(), b.iter().peekable());
    std::iter::from_fn(move || {
        let next = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) if x <= y => a.next(),
            (Some(_), Some(_)) | (None, Some(_)) => b.next(),
            (Some(_), None) => a.next(),
            (None, None) => None,
        }?;
        Some(next + 1)
    })
}

/// Data-parallel replicas of training job `t` (running as `a`) that hold one of `lost`
/// (nodes from 1, ascending), and the GPUs they hold.
fn replicas_lost(
    t: &crate::spec::Training,
    a: &Allocation,
    lost: impl Iterator<Item = u32>,
    gpus_per_node: u32,
) -> (u32, u64) {
    let p = &t.parallelism;
    let per_replica = u64::from(p.tp) * u64::from(p.pp);
    let g = u64::from(gpus_per_node.max(1));
    // A node's GPUs hold a run of replicas (GPU ÷ GPUs per replica); the nodes in order, each
    // run counted from the first replica the runs before it did not reach (a rail's loss
    // reaches every node of the fabric).
    let (mut replicas, mut next) = (0u64, 0u64);
    for n in lost {
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
#[derive(Clone, PartialEq)]
struct Takes {
    element: Element,
    cut_off: usize,
    degraded: usize,
    /// The share of each tier's links (as in [`TIERS`]) it takes, where it takes any.
    tiers: [Option<Share>; 3],
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
    let cut = hit(a, reach.cut_off);
    let fewer = hit(a, reach.degraded);
    let lost = || merged(cut, fewer);
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
    // With no node to drop, a restart runs on what the failure left, as degraded.
    let (restarted, gpus_given_up) = if cut.is_empty() && fewer.is_empty() {
        (degraded, 0)
    } else {
        match (report.workloads.get(i), spec.workloads.get(i)) {
            (Some(WorkloadReport::Training(_)), Some(Workload::Training(t))) => {
                let (replicas, given_up) = replicas_lost(t, a, lost(), spec.cluster.gpus_per_node);
                let left = t.parallelism.dp.saturating_sub(replicas);
                (evaluations.restarted(i, left), given_up)
            }
            (Some(WorkloadReport::Inference(r)), _) => {
                let per_replica = u64::from(r.tp_nodes.max(1));
                // The nodes in order hold the replicas in order: each new one is counted once.
                let mut replicas = 0u64;
                let mut last = None;
                for n in lost() {
                    let replica = u64::from(n - a.first_node) / per_replica;
                    if last != Some(replica) {
                        replicas += 1;
                        last = Some(replica);
                    }
                }
                let left = u64::from(r.replicas).saturating_sub(replicas);
                ((left > 0).then_some(before), replicas * per_replica * g)
            }
            // Storage and retrieval traffic carries on from the nodes left.
            _ => (Some(before), (cut.len() + fewer.len()) as u64 * g),
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
    let mut worst = 0;
    for fabric in &report.fabrics {
        reaches(fabric, &walk(fabric), |_, reach, _| {
            worst = worst.max(reach.cut_off.len() as u64 * g);
        });
    }
    worst
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
        // Each element's take is worked out here, and kept only when no row takes the same:
        // most elements (a node's port, a leaf of a rail) do what others of their kind do.
        let mut takes = Takes {
            element: Element::Port,
            cut_off: 0,
            degraded: 0,
            tiers: [None; 3],
            workloads: Vec::with_capacity(workloads.len()),
        };
        reaches(fabric, &w, |element, reach, alike| {
            takes.element = element;
            takes.cut_off = reach.cut_off.len();
            takes.degraded = reach.degraded.len();
            takes.tiers = std::array::from_fn(|t| {
                (reach.links[t] > 0 && w.level_links[t] > 0)
                    .then(|| Share::new(f64::from(reach.links[t]) / f64::from(w.level_links[t])))
            });
            takes.workloads.clear();
            takes
                .workloads
                .extend(workloads.iter().filter_map(|(i, a)| {
                    after(
                        &mut evaluations,
                        report,
                        fabric,
                        &w,
                        element,
                        &reach,
                        (*i, a),
                    )
                }));
            if let Some((_, row)) = rows.iter().find(|(row, _)| *row == takes) {
                out[*row].alike += alike;
                return;
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
                tiers: TIERS
                    .iter()
                    .zip(takes.tiers)
                    .filter_map(|(tier, share)| Some((tier.to_string(), share?)))
                    .collect(),
                workloads: takes.workloads.iter().filter_map(named).collect(),
            });
            rows.push((takes.clone(), out.len() - 1));
        });
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
