use crate::units::GigabytesPerSecond;
use borsh::{BorshDeserialize, BorshSerialize};
use serde::{Deserialize, Serialize};

/// The GPU nodes of the design.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(deny_unknown_fields)]
pub struct Cluster {
    /// The node type from the catalog this cluster was built from, if any (a label: the fields
    /// below are what the engine reads).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_preset: Option<String>,
    /// GPU model, a catalog key (`h100-sxm`).
    pub gpu: String,
    pub gpus_per_node: u32,
    /// Scale-up (NVLink) bandwidth per GPU, one direction, GB/s; the GPU's figure when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale_up_gbytes_per_s: Option<GigabytesPerSecond>,
    /// NICs per node on the compute fabric (one per rail).
    pub nics_per_node: u32,
    pub nodes: u32,
    /// The size the fabric must grow to without re-cabling; spines are provisioned for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub growth_target_nodes: Option<u32>,
}

impl Cluster {
    pub fn gpus(&self) -> u64 {
        u64::from(self.nodes) * u64::from(self.gpus_per_node)
    }
}
