use crate::technology::Technology;
use crate::units::GigabitsPerSecond;
use crate::units::Metres;
use borsh::{BorshDeserialize, BorshSerialize};
use serde::{Deserialize, Serialize};

/// What a fabric is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The GPU-to-GPU (east-west) fabric.
    Compute,
    /// The fabric of the inference serving fleet.
    Inference,
    Storage,
    /// Front-end / in-band management and user traffic.
    FrontEnd,
}

impl Role {
    pub fn label(self) -> &'static str {
        match self {
            Role::Compute => "compute",
            Role::Inference => "inference",
            Role::Storage => "storage",
            Role::FrontEnd => "front-end",
        }
    }
}

/// How the switches are arranged.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(rename_all = "snake_case")]
pub enum Topology {
    /// Two tiers while they suffice, else three (seed C4).
    #[default]
    Auto,
    TwoTier,
    ThreeTier,
    /// NIC i of every node goes to leaf i of its scalable unit [Al-Fares, Loukissas & Vahdat, SIGCOMM 2008; RA-11333-001].
    RailOptimized,
}

/// Downlink : uplink bandwidth at each switch tier (1.0 is non-blocking).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(deny_unknown_fields)]
pub struct Oversubscription {
    pub leaf: f64,
    /// At the spine of a 3-tier fabric (aggregation to core).
    #[serde(default = "non_blocking")]
    pub spine: f64,
}

fn non_blocking() -> f64 {
    1.0
}

impl Default for Oversubscription {
    fn default() -> Self {
        Oversubscription {
            leaf: 1.0,
            spine: 1.0,
        }
    }
}

/// Cable runs, which set the reach class of every link.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(deny_unknown_fields)]
pub struct CableRuns {
    pub node_leaf_m: Metres,
    pub leaf_spine_m: Metres,
    #[serde(default = "default_spine_core_m")]
    pub spine_core_m: Metres,
}

fn default_spine_core_m() -> Metres {
    Metres::new(100.0)
}

impl Default for CableRuns {
    /// Leaves in a network rack beside the compute racks, spines a row away.
    fn default() -> Self {
        CableRuns {
            node_leaf_m: Metres::new(10.0),
            leaf_spine_m: Metres::new(30.0),
            spine_core_m: Metres::new(100.0),
        }
    }
}

/// One fabric of the design.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(deny_unknown_fields)]
pub struct Fabric {
    /// Unique within the design; workloads refer to it. It names the fabric's switches and
    /// ports in the hand-off files (`compute-leaf-01`): lower-case letters, digits and hyphens,
    /// starting with a letter, at most 32 characters ([`super::names`]).
    #[cfg_attr(
        feature = "schema",
        schemars(pattern(super::names::FABRIC_NAME_PATTERN), length(min = 1, max = 32))
    )]
    pub name: String,
    pub role: Role,
    pub technology: Technology,
    /// Port speed, Gb/s, when it differs from the technology's (a 200G port on a 400G switch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port_gbps: Option<GigabitsPerSecond>,
    /// Switch model, a catalog key; the technology's default when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub switch: Option<String>,
    #[serde(default)]
    pub topology: Topology,
    #[serde(default)]
    pub oversubscription: Oversubscription,
    /// Cluster nodes attached to this fabric; all of them when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attached_nodes: Option<u32>,
    /// Ports per attached node; the cluster's NICs per node for a compute fabric, else 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ports_per_node: Option<u32>,
    /// Other endpoints on the fabric: storage servers, the subnet manager (UFM), gateways.
    #[serde(default)]
    pub extra_endpoints: u32,
    #[serde(default)]
    pub cable_runs: CableRuns,
}

impl Fabric {
    pub fn port_gbps(&self) -> f64 {
        self.port_gbps
            .map_or_else(|| self.technology.port_gbps(), GigabitsPerSecond::gbps)
    }

    pub fn switch_key(&self) -> &str {
        self.switch
            .as_deref()
            .unwrap_or_else(|| self.technology.default_switch())
    }
}
