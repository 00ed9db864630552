//! What one failure of each element takes away ([`crate::failures::failures`]).

use crate::units::{Seconds, Share};
use serde::{Deserialize, Serialize};

/// The kind of element that fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Element {
    /// One NIC port of a node, or the cable from it.
    Port,
    Leaf,
    Spine,
    Core,
    /// Every node's NIC of one rail, with the leaves that serve it.
    Rail,
}

impl Element {
    pub fn label(self) -> &'static str {
        match self {
            Element::Port => "NIC port or its cable",
            Element::Leaf => "leaf switch",
            Element::Spine => "spine switch",
            Element::Core => "core switch",
            Element::Rail => "whole rail",
        }
    }
}

/// One failure, and what it takes away.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Failure {
    pub fabric: String,
    pub element: Element,
    /// How many elements of the fabric would do exactly this.
    pub alike: u32,
    /// Nodes every link of whose to the fabric ends on the element.
    pub nodes_cut_off: u32,
    /// Nodes left with some, not all, of their links to the fabric.
    pub nodes_degraded: u32,
    /// GPUs the workloads lose: cut off when they run on degraded, cut off or degraded when
    /// they restart without the affected nodes.
    pub gpus_cut_off: u64,
    pub gpus_affected: u64,
    /// Share of each tier's links the element takes: (tier, share).
    pub tiers: Vec<(String, Share)>,
    /// Each workload on the fabric that the failure reaches.
    pub workloads: Vec<WorkloadAfter>,
}

/// One workload after a failure, under each policy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WorkloadAfter {
    pub workload: String,
    /// What the time is: a training job's step, a service's communication per token.
    pub measure: String,
    pub before: Seconds,
    /// Running on with the bandwidth left; `None` where a node of it is cut off.
    pub degraded: Option<Seconds>,
    /// Restarted without the affected nodes (the same global batch on the replicas left);
    /// `None` where no replica is left.
    pub restarted: Option<Seconds>,
    /// GPUs it gives up when it restarts.
    pub gpus_given_up: u64,
}
