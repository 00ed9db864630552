//! Which nodes each workload runs on. A training job takes the nodes its GPUs fill (dp × tp ×
//! pp ÷ GPUs per node, rounded up); an inference service its replicas' (replicas × nodes per
//! replica). A workload may say where it starts (`first_node`); the planner places the others
//! in the order the design lists them, each on the first free run of nodes long enough: the
//! training jobs and the services of a stated size first, then each service of no stated size
//! on as many replicas as the nodes left hold (at most its fabric's nodes). Retrieval and
//! storage workloads take no GPU node of their own.
//!
//! Nodes are numbered from 1, as the hand-off files name them (`node-001`).

use crate::spec::{DesignSpec, Workload};
use serde::{Deserialize, Serialize};

/// The nodes one workload runs on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Allocation {
    pub workload: String,
    /// The fabric it runs on (absent in reports from engines before it).
    #[serde(default)]
    pub fabric: String,
    /// First node, from 1.
    pub first_node: u32,
    pub nodes: u32,
    pub gpus: u64,
    /// Replicas of an inference service (0 for a training job).
    #[serde(default)]
    pub replicas: u32,
    /// Whether the design states where it starts; otherwise the planner placed it.
    pub stated: bool,
}

/// A run of consecutive nodes, numbered from 1: what a workload is allocated and a tenant is
/// placed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeRun {
    pub first: u32,
    pub nodes: u32,
}

impl NodeRun {
    /// Last node, from 1 (the first when it takes none).
    pub fn last(self) -> u32 {
        self.first + self.nodes.max(1) - 1
    }

    /// Whether node `n` (from 1) is one of its nodes.
    pub fn holds(self, n: u32) -> bool {
        self.nodes > 0 && (self.first..=self.last()).contains(&n)
    }

    /// "nodes 1–32", "node 5".
    pub fn words(self) -> String {
        if self.nodes == 1 {
            format!("node {}", self.first)
        } else {
            format!("nodes {}–{}", self.first, self.last())
        }
    }
}

impl Allocation {
    /// The nodes it runs on.
    pub fn run(&self) -> NodeRun {
        NodeRun {
            first: self.first_node,
            nodes: self.nodes,
        }
    }

    /// Last node, from 1 (the first when it takes none).
    pub fn last_node(&self) -> u32 {
        self.run().last()
    }

    /// Whether it runs on node `n`.
    pub fn holds(&self, n: u32) -> bool {
        self.run().holds(n)
    }

    /// "nodes 1–32", "node 5".
    pub fn range(&self) -> String {
        self.run().words()
    }
}

/// What a workload asks of the nodes before it is placed.
struct Ask {
    index: usize,
    /// Nodes it takes; `None` for a service that takes what is left.
    nodes: Option<u32>,
    /// Nodes of one replica, for a service.
    per_replica: u32,
    /// Most nodes a service of no stated size takes: its fabric's.
    at_most: u32,
    first_node: Option<u32>,
}

/// What workload `index` of `spec` asks of the nodes: `None` for one that takes no GPU node.
fn ask(spec: &DesignSpec, index: usize) -> Option<Ask> {
    let gpus_per_node = u64::from(spec.cluster.gpus_per_node.max(1));
    match spec.workloads.get(index)? {
        Workload::Training(t) => {
            let gpus = t.parallelism.gpus();
            Some(Ask {
                index,
                nodes: Some(u32::try_from(gpus.div_ceil(gpus_per_node)).unwrap_or(u32::MAX)),
                per_replica: 0,
                at_most: 0,
                first_node: t.first_node,
            })
        }
        Workload::Inference(i) => {
            let per_replica = i.tp_nodes.max(1);
            let fabric_nodes = spec
                .fabric(&i.fabric)
                .and_then(|f| f.attached_nodes)
                .unwrap_or(spec.cluster.nodes);
            Some(Ask {
                index,
                nodes: i.replicas.map(|r| r.max(1).saturating_mul(per_replica)),
                per_replica,
                at_most: fabric_nodes,
                first_node: i.first_node,
            })
        }
        Workload::Rag(_) | Workload::Storage(_) => None,
    }
}

/// Nodes workload `index` of `spec` takes when its size is stated: a training job's, a service's
/// of stated replicas. `None` for a service that takes what is left, or a workload that takes
/// no GPU node.
pub fn nodes_asked(spec: &DesignSpec, index: usize) -> Option<u32> {
    ask(spec, index)?.nodes
}

/// A run of nodes set aside for some workloads (a tenant's): they are placed within it, and no
/// other workload is placed on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    /// First node, from 1.
    pub first_node: u32,
    pub nodes: u32,
    /// Indices of the workloads placed within it.
    pub workloads: Vec<usize>,
}

/// The nodes of every workload of `spec`, by workload index: `None` for a workload that takes
/// no GPU node (retrieval, storage). Placed even where the cluster is too small: a workload
/// that does not fit runs past its last node, which [`beyond`] and [`shared`] report.
pub fn allocate(spec: &DesignSpec) -> Vec<Option<Allocation>> {
    allocate_within(spec, &[])
}

/// [`allocate`] with some workloads placed within `windows` (the tenants' nodes), and the others
/// on the nodes no window holds.
pub fn allocate_within(spec: &DesignSpec, windows: &[Window]) -> Vec<Option<Allocation>> {
    let gpus_per_node = u64::from(spec.cluster.gpus_per_node.max(1));
    let asks: Vec<Ask> = (0..spec.workloads.len())
        .filter_map(|i| ask(spec, i))
        .collect();
    let mut taken: Vec<(u32, u32)> = Vec::new();
    let mut out: Vec<Option<Allocation>> = vec![None; spec.workloads.len()];
    let mut place = |ask: &Ask, first: u32, nodes: u32, stated: bool, taken: &mut Vec<_>| {
        taken.push((first, nodes));
        let w = &spec.workloads[ask.index];
        out[ask.index] = Some(Allocation {
            workload: w.name().to_string(),
            fabric: w.fabric().to_string(),
            first_node: first,
            nodes,
            gpus: u64::from(nodes) * gpus_per_node,
            replicas: nodes.checked_div(ask.per_replica).unwrap_or(0),
            stated,
        });
    };
    // Where the design says, first: the planner works around it.
    for ask in asks.iter().filter(|a| a.first_node.is_some()) {
        let nodes = ask.nodes.unwrap_or_else(|| {
            let room = spec
                .cluster
                .nodes
                .saturating_sub(ask.first_node.unwrap_or(1) - 1);
            fill(room.min(ask.at_most), ask.per_replica)
        });
        place(ask, ask.first_node.unwrap_or(1), nodes, true, &mut taken);
    }
    // Each window's workloads within it, then the others on what no window holds: in each,
    // what has a size, then the services that take what is left.
    let windowed = |i: usize| windows.iter().any(|w| w.workloads.contains(&i));
    let groups = windows
        .iter()
        .map(|w| {
            let end = w.first_node.saturating_add(w.nodes);
            // What lies outside it, up to the cluster's last node: a workload that does not
            // fit runs past the cluster, as [`beyond`] reports.
            let after = (spec.cluster.nodes + 1).saturating_sub(end);
            let outside = vec![(1, w.first_node.saturating_sub(1)), (end, after)];
            (end.saturating_sub(1), outside, Some(&w.workloads))
        })
        .chain(std::iter::once((
            spec.cluster.nodes,
            windows.iter().map(|w| (w.first_node, w.nodes)).collect(),
            None,
        )));
    for (last, outside, members) in groups {
        let mine = |a: &&Ask| match members {
            Some(m) => m.contains(&a.index),
            None => !windowed(a.index),
        };
        let unstated: Vec<&Ask> = asks
            .iter()
            .filter(|a| a.first_node.is_none())
            .filter(mine)
            .collect();
        let mut view: Vec<(u32, u32)> = taken.iter().chain(&outside).copied().collect();
        for ask in unstated.iter().filter(|a| a.nodes.is_some()) {
            let nodes = ask.nodes.unwrap_or(0);
            let first = first_free(&view, nodes, last);
            view.push((first, nodes));
            place(ask, first, nodes, false, &mut taken);
        }
        for ask in unstated.iter().filter(|a| a.nodes.is_none()) {
            let (first, room) = longest_free(&view, last);
            let nodes = fill(room.min(ask.at_most), ask.per_replica);
            let first = if room >= nodes {
                first
            } else {
                first_free(&view, nodes, last)
            };
            view.push((first, nodes));
            place(ask, first, nodes, false, &mut taken);
        }
    }
    out
}

/// Nodes of as many whole replicas as `room` holds, at least one replica.
fn fill(room: u32, per_replica: u32) -> u32 {
    (room / per_replica).max(1) * per_replica
}

/// The run of `taken` that nodes `first..first + nodes` meet first, if any.
fn meets(taken: &[(u32, u32)], first: u32, nodes: u32) -> Option<(u32, u32)> {
    let end = first.saturating_add(nodes.max(1));
    taken
        .iter()
        .copied()
        .filter(|&(f, n)| n > 0 && first < f.saturating_add(n) && f < end)
        .min_by_key(|&(f, _)| f)
}

/// The first node of the first free run of `nodes` nodes within `cluster` nodes, or, when none
/// is long enough, the node after everything taken: what runs past the cluster's last node then
/// needs as few nodes more as it can. Each step jumps past one taken run: no sort, no walk over
/// the nodes.
fn first_free(taken: &[(u32, u32)], nodes: u32, cluster: u32) -> u32 {
    let mut at = 1u32;
    while at.saturating_add(nodes).saturating_sub(1) <= cluster {
        match meets(taken, at, nodes) {
            Some((f, n)) => at = f.saturating_add(n),
            None => return at,
        }
    }
    taken
        .iter()
        .map(|&(f, n)| f.saturating_add(n))
        .max()
        .unwrap_or(1)
}

/// The longest free run of nodes within `cluster` nodes: its first node and length (the first
/// such run when two are as long).
fn longest_free(taken: &[(u32, u32)], cluster: u32) -> (u32, u32) {
    let mut best = (1, 0);
    let mut at = 1u32;
    while at <= cluster {
        if let Some((f, n)) = meets(taken, at, 1) {
            at = f.saturating_add(n);
            continue;
        }
        // Free from `at` to the next taken run's first node, or the cluster's end.
        let next = taken
            .iter()
            .filter(|&&(f, n)| n > 0 && f > at)
            .map(|&(f, _)| f)
            .min()
            .unwrap_or(u32::MAX);
        let end = next.min(cluster.saturating_add(1));
        if end - at > best.1 {
            best = (at, end - at);
        }
        at = end;
    }
    best
}

/// Nodes past the cluster's last that some workload runs on: (workload, its range) for each.
pub fn beyond(allocations: &[Option<Allocation>], cluster: u32) -> Vec<&Allocation> {
    allocations
        .iter()
        .flatten()
        .filter(|a| a.nodes > 0 && a.last_node() > cluster)
        .collect()
}

/// Pairs of workloads that run on a node in common, with the nodes they share.
pub fn shared(allocations: &[Option<Allocation>]) -> Vec<(&Allocation, &Allocation, u32, u32)> {
    let all: Vec<&Allocation> = allocations
        .iter()
        .flatten()
        .filter(|a| a.nodes > 0)
        .collect();
    let mut out = Vec::new();
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            let first = a.first_node.max(b.first_node);
            let last = a.last_node().min(b.last_node());
            if first <= last {
                out.push((*a, *b, first, last));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
