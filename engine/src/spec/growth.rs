//! How the cluster is bought and installed over time: its phases, earliest first, the last
//! being the design itself, and how the fabric grows between them.

use borsh::{BorshDeserialize, BorshSerialize};
use serde::{Deserialize, Serialize};

/// How a fabric is bought through the phases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(rename_all = "snake_case")]
pub enum GrowthPolicy {
    /// Spines and cores for the final size on the first day; each phase adds leaves and the
    /// cables to them, and no cable in service is moved [RA-11333-001: the 3-SU design is
    /// cabled with spines for 4 SU].
    #[default]
    ProvisionFinal,
    /// Each phase buys what its own nodes need; spines added later take a share of every
    /// leaf's uplinks, which are moved while the fabric runs.
    AsNeeded,
}

impl GrowthPolicy {
    pub fn label(self) -> &'static str {
        match self {
            GrowthPolicy::ProvisionFinal => "upper tiers for the final size on day one",
            GrowthPolicy::AsNeeded => "buy what each phase needs, re-cable later",
        }
    }
}

/// One phase: what the cluster has once it is installed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(deny_unknown_fields)]
pub struct Phase {
    /// One line of visible text ("Year 1").
    pub label: String,
    /// When the phase is installed: `YYYY-MM` or `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// The cluster's nodes at this phase; every fabric attaches its nodes among them.
    pub nodes: u32,
}

/// The phases of a design, earliest first; the last has the cluster's nodes.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(deny_unknown_fields)]
pub struct Growth {
    #[serde(default)]
    pub policy: GrowthPolicy,
    pub phases: Vec<Phase>,
}
