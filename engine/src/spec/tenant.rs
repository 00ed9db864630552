//! Tenants: the teams or customers that share the cluster, each with its workloads, the nodes
//! it is given and how far its traffic is kept apart from the others'.

use borsh::{BorshDeserialize, BorshSerialize};
use serde::{Deserialize, Serialize};

/// How far a tenant is kept apart from the others, from least to most.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(rename_all = "snake_case")]
pub enum Isolation {
    /// Its own nodes, the fabric's default partition: nothing keeps its traffic from another's.
    Shared,
    /// Its own nodes in its own partition (an InfiniBand P_Key, an Ethernet VRF): leaves and
    /// spines shared [Juniper JVD, AI data centre EVPN multitenancy: per-server isolation].
    #[default]
    Node,
    /// Whole scalable units (no leaf shared with another tenant), in its own partition.
    ScalableUnit,
    /// Whole scalable units under spines of its own: a fabric of its own.
    Fabric,
}

impl Isolation {
    pub fn label(self) -> &'static str {
        match self {
            Isolation::Shared => "shared",
            Isolation::Node => "per node",
            Isolation::ScalableUnit => "per scalable unit",
            Isolation::Fabric => "a fabric of its own",
        }
    }

    /// Whether the tenant takes whole scalable units.
    pub fn whole_units(self) -> bool {
        matches!(self, Isolation::ScalableUnit | Isolation::Fabric)
    }

    /// Whether the tenant has a partition (P_Key, VRF) of its own.
    pub fn partitioned(self) -> bool {
        self != Isolation::Shared
    }
}

/// One tenant of the cluster.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(deny_unknown_fields)]
pub struct Tenant {
    /// Lower-case letters, digits and hyphens: it names the tenant's partition, VRF, Slurm
    /// partition and Kubernetes namespace.
    pub name: String,
    /// The names of the workloads it runs (each workload belongs to at most one tenant).
    #[serde(default)]
    pub workloads: Vec<String>,
    /// Nodes it is given; by default the nodes its training jobs and services take.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u32>,
    #[serde(default)]
    pub isolation: Isolation,
    /// The scalable unit (from 1) its nodes start in, when the design pins it there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_unit: Option<u32>,
}
