//! Tenants on one fabric: where each is placed, what isolating it costs and how the others'
//! traffic slows it ([`crate::tenancy`]).

use crate::figure::Figure;
use crate::spec::Isolation;
use crate::units::{Seconds, Share, Usd};
use serde::{Deserialize, Serialize};

/// Where one tenant landed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TenantPlacement {
    pub tenant: String,
    pub isolation: Isolation,
    /// Its nodes: `nodes` from `first_node` (from 1).
    pub first_node: u32,
    pub nodes: u32,
    /// Nodes its training jobs and services take; the rest of `nodes` is its to use.
    pub nodes_used: u32,
    /// The scalable units its nodes are in, from 1, and how many.
    pub first_unit: u32,
    pub units: u32,
    /// Nodes of the whole units it holds that it was not given: idle, and no other tenant's.
    pub stranded_nodes: u32,
    /// Whether the design pinned it to its first unit.
    pub pinned: bool,
    /// Its partition, VRF and VLAN; `None` for a shared tenant (the default partition).
    pub partition: Option<Partition>,
}

/// One tenant's identifiers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Partition {
    /// InfiniBand partition key (15 bits, written as UFM and OpenSM read it, `0x1001`).
    pub pkey: u16,
    /// Ethernet VRF: the tenant's name.
    pub vrf: String,
    pub l3_vni: u32,
    /// Route target of the VRF, `<l3_vni>:<l3_vni>`.
    pub route_target: String,
    pub vlan: u16,
    pub l2_vni: u32,
}

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
    /// Pods its nodes are in on a three-tier fabric, and those another tenant's traffic across
    /// pods uses too; whether its collectives span pods.
    #[serde(default)]
    pub pods: u32,
    #[serde(default)]
    pub shared_pods: u32,
    #[serde(default)]
    pub crosses_pods: bool,
    /// Its share of the fabric's spine-to-core uplinks, counted as `spine_share` is.
    #[serde(default)]
    pub core_share: Share,
    /// Whether its pods' core uplinks, not its leaves', set its worst case.
    #[serde(default)]
    pub core_binds: bool,
    /// Share of its crossing traffic the uplinks carry: alone, in the worst case, expected (the
    /// slower tier where it also crosses pods).
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

/// One tenant's cost of isolation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct IsolationCost {
    pub tenant: String,
    pub isolation: Isolation,
    /// GPUs of the nodes it holds but was not given.
    pub stranded_gpus: u64,
    /// Leaf ports of the units' fabric cabled to those nodes: idle too.
    #[serde(default)]
    pub stranded_ports: u64,
    /// Switches a fabric of its own adds on the units' fabric, their ports, and what they cost.
    pub extra_switches: u32,
    #[serde(default)]
    pub extra_ports: u64,
    pub extra_switch_cost: Usd,
}
