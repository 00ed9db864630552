//! What each growth phase buys, leaves unused and re-cables ([`crate::phases::phases`]), and
//! the difference between two bills ([`crate::bill_diff`]).

use crate::figure::Figure;
use crate::spec::GrowthPolicy;
use crate::topology::Layout;
use crate::units::{Kilowatts, Usd, Watts};
use serde::{Deserialize, Serialize};

/// The phase plan of a design.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PhasePlan {
    pub policy: GrowthPolicy,
    /// Earliest first; the last is the design.
    pub phases: Vec<PhaseReport>,
}

/// One phase, once installed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PhaseReport {
    pub label: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    pub nodes: u32,
    pub gpus: u64,
    pub fabrics: Vec<PhaseFabric>,
    /// The network installed by this phase, every cable at its tier's nominal run.
    pub network_cost: Usd,
    pub network_power: Watts,
    /// What the phase buys: the bill's changes from the phase before (from nothing, for the
    /// first).
    pub bought: BillDiff,
    /// Switch ports installed and not cabled, of every fabric.
    pub stranded_ports: u64,
    /// Their share of the switches' price.
    pub stranded_capital: Figure<Usd>,
    /// Compute racks of the final floor holding a node of this phase, and those kept empty for
    /// later phases.
    pub racks_in_use: u32,
    pub racks_reserved: u32,
    /// The power the later phases add: their nodes and network.
    pub power_reserved: Figure<Kilowatts>,
    /// The cables from the phase before, per fabric and tier (none for the first).
    pub moves: Vec<TierMoves>,
    /// Why the cables of this step are not counted, where they are not: a step of more cables
    /// than [`MAX_COUNTED_CABLES`] would cost a request seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves_not_counted: Option<String>,
}

/// One fabric at one phase.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PhaseFabric {
    pub name: String,
    pub layout: Layout,
    pub tiers: u32,
    pub leaves: u32,
    pub spines: u32,
    pub cores: u32,
    pub ports_installed: u64,
    pub ports_used: u64,
}

/// The cables of one tier of one fabric from one phase to the next.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TierMoves {
    pub fabric: String,
    /// `node-leaf`, `leaf-spine` or `spine-core`.
    pub tier: String,
    /// In service before and untouched.
    pub kept: u64,
    pub added: u64,
    pub removed: u64,
    /// In service before, unplugged at one end and plugged into another switch.
    pub re_terminated: u64,
}
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Change {
    Added,
    Removed,
    /// In quantity, unit price or unit power.
    Changed,
}

/// One item of one fabric whose line differs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ItemChange {
    pub fabric: String,
    /// The bill-of-materials key ("switch:qm9700").
    pub item: String,
    pub description: String,
    pub change: Change,
    pub quantity_before: u32,
    pub quantity_after: u32,
    pub cost_delta: Usd,
    pub power_delta: Watts,
}

/// The bill's changes, the dearest first, and their totals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BillDiff {
    pub items: Vec<ItemChange>,
    pub cost_before: Usd,
    pub cost_after: Usd,
    pub cost_delta: Usd,
    pub power_delta: Watts,
}
