//! What the engine tells the user about a design. Every figure carries its unit (in its type)
//! and can say which formula and which source produced it.
//!
//! These types are the schema of every saved snapshot and of the API: the day-one evaluation
//! here, kept in one file so that a change to it is read whole, and what the analyses over the
//! design's life add (failures, goodput, growth, tenants, intervals, memory) in a file each
//! beside it. They hold answers only: the analyses that find them sit above and read the report.

pub(crate) mod failures;
pub(crate) mod goodput;
pub(crate) mod growth;
pub(crate) mod intervals;
pub(crate) mod memory;
pub(crate) mod tenants;

use crate::catalog::ReachClass;
use crate::collective::Algorithm;
use crate::collective::Protocol;
pub use crate::figure::{Figure, TargetVerdict};
use crate::spec::Role;
use crate::technology::Technology;
use crate::topology::Plan;
use crate::units::{BitRate, ByteRate, Bytes, Metres, Ratio, Seconds, Share, Slowdown, Usd, Watts};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// Version of this engine, stored with every saved revision so that a report computed by an
/// older engine can be recognised.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The evaluation of a design.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Report {
    /// Version of the engine that computed this report.
    pub engine_version: String,
    pub cluster: ClusterSummary,
    pub fabrics: Vec<FabricReport>,
    pub workloads: Vec<WorkloadReport>,
    pub findings: Vec<Finding>,
    /// The fabrics' bills of materials added up, every cable at its tier's nominal run.
    pub totals: Totals,
    /// The network as placed on the design's floor: the same bills with every cable at its
    /// routed length and the medium that length needs (absent in reports from engines before
    /// it). [`Report::network`] reads whichever the report has.
    #[serde(default)]
    pub placed: Option<Totals>,
    pub headline: Headline,
    /// The nodes each training job and inference service runs on, in the design's order
    /// (absent in reports from engines before it).
    #[serde(default)]
    pub allocations: Vec<crate::allocation::Allocation>,
    /// What one failure of each element of the fabrics takes away, ranked by the GPUs it takes
    /// ([`crate::failures::failures`]): in the answers of the JSON API and the command line,
    /// which [`Report::over_its_life`] completes; absent from the evaluation itself.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failures: Vec<failures::Failure>,
    /// Each training job's interruptions and goodput ([`crate::goodput::goodput`]), as
    /// `failures`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub goodput: Vec<goodput::Goodput>,
    /// What each growth phase buys, leaves unused and re-cables ([`crate::phases::phases`]),
    /// when the design lists phases; as `failures`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phases: Option<growth::PhasePlan>,
    /// Where each tenant landed, with its partition (absent for a design of one tenant).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tenants: Vec<tenants::TenantPlacement>,
    /// What each tenant's isolation costs against sharing everything, as `failures`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub isolation_costs: Vec<tenants::IsolationCost>,
    /// Each workload's headline time with its interval from the published measurements
    /// ([`crate::uncertainty::intervals`]), as `failures`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uncertainty: Vec<intervals::TimeInterval>,
    /// How much the other tenants' traffic slows each tenant ([`crate::interference::interference`]),
    /// as `failures`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub interference: Vec<tenants::Interference>,
}

fn first_node() -> u32 {
    1
}

impl FabricReport {
    /// Cables of every tier.
    pub fn cable_count(&self) -> u64 {
        self.cables.iter().map(|c| u64::from(c.count)).sum()
    }

    /// The cluster's nodes up to the fabric's last: its nodes are the last `attached_nodes` of
    /// them. Arrays over the fabric's nodes are indexed by the cluster's node (from 0).
    pub fn node_span(&self) -> u32 {
        self.first_node.max(1) - 1 + self.attached_nodes
    }
}

impl Report {
    /// Cables of every fabric: the rows of the design's cabling sheet.
    pub fn cable_count(&self) -> u64 {
        self.fabrics.iter().map(FabricReport::cable_count).sum()
    }

    /// What the network costs and draws: as placed on its floor, or, in a report from an engine
    /// before the floor was costed, from the fabrics' bills at each tier's nominal run.
    pub fn network(&self) -> &Totals {
        self.placed.as_ref().unwrap_or(&self.totals)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ClusterSummary {
    pub gpu: String,
    pub nodes: u32,
    pub gpus: u64,
    pub gpus_per_node: u32,
    /// Achievable scale-up bandwidth per GPU.
    pub scale_up: ByteRate,
}

/// The figures an architect looks at first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Headline {
    /// The largest training slowdown against an ideal network.
    pub worst_training_slowdown: Option<Slowdown>,
    /// The largest network-added latency per generated token.
    pub worst_added_latency_per_token: Option<Seconds>,
    /// The inference workload's communication per token that is furthest over (or least
    /// within) its inter-token target (absent in reports from engines before it).
    #[serde(default)]
    pub worst_inter_token: Option<TargetVerdict>,
    /// The smallest storage read headroom (available ÷ provisioned).
    pub storage_read_headroom: Option<Ratio>,
    /// The largest checkpoint write time ÷ budget.
    pub checkpoint_time_over_budget: Option<Share>,
    pub switches: u32,
    /// The network's cost per GPU as placed on its floor ([`Report::network`]).
    pub cost_per_gpu_usd: Usd,
    pub critical_findings: u32,
    pub warnings: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Totals {
    pub cost_usd: Usd,
    pub power_w: Watts,
    pub cost_per_gpu_usd: Usd,
    pub power_per_gpu_w: Watts,
}

impl Totals {
    /// `cost` and `power` of a network for `gpus` GPUs, and each per GPU (zero without GPUs).
    pub fn new(cost: Usd, power: Watts, gpus: u64) -> Totals {
        let gpus = gpus as f64;
        Totals {
            cost_usd: cost,
            power_w: power,
            cost_per_gpu_usd: if gpus > 0.0 {
                cost / gpus
            } else {
                Usd::new(0.0)
            },
            power_per_gpu_w: if gpus > 0.0 {
                power / gpus
            } else {
                Watts::new(0.0)
            },
        }
    }
}

/// One fabric, sized.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FabricReport {
    pub name: String,
    pub role: Role,
    pub technology: Technology,
    pub port_rate: BitRate,
    pub switch: String,
    pub switch_name: String,
    /// Why the planner chose the switch, when the spec names none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub switch_choice: Option<SwitchChoice>,
    pub attached_nodes: u32,
    /// The cluster's node (from 1) that is the fabric's first: a fabric of fewer nodes than the
    /// cluster attaches those its workloads run on, from the first of them (1 in reports from
    /// engines before it).
    #[serde(default = "first_node")]
    pub first_node: u32,
    pub ports_per_node: u32,
    pub endpoints: u32,
    pub plan: Plan,
    pub ports_used: u64,
    pub ports_free: u64,
    /// Nodes the fabric can hold without adding spines or cores.
    pub max_nodes: u32,
    pub bisection: Figure<BitRate>,
    pub oversubscription: f64,
    /// Cables by tier, each tier at its nominal run (the floor's plan gives each cable's own
    /// length and medium).
    pub cables: Vec<CableCount>,
    /// Transceivers of the bill: as placed on the floor when the report places it.
    pub transceivers: u32,
    pub bom: Vec<BomLine>,
    pub cost_usd: Usd,
    pub power_w: Watts,
    pub tiers: Vec<TierHeadroom>,
    /// The tier with the least headroom, when that headroom is tight (available under 1.5×
    /// required); `None` when no tier limits the workloads or no traffic crosses the fabric.
    pub bottleneck: Option<String>,
    pub workloads: Vec<String>,
}

/// Cables of one tier.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CableCount {
    pub tier: String,
    pub reach: ReachClass,
    pub length_m: Metres,
    pub count: u32,
}

/// One line of the bill of materials.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BomLine {
    /// Key used by price and power overrides (`switch:qm9700`).
    pub item: String,
    pub description: String,
    pub quantity: u32,
    pub unit_price_usd: Usd,
    pub total_usd: Usd,
    pub unit_power_w: Watts,
    pub total_power_w: Watts,
    /// The catalog's figure is an estimate.
    pub estimate: bool,
    /// The catalog figure's source.
    pub source: Cow<'static, str>,
    /// The design gives its own price or power for this item (a quote), replacing the
    /// catalog's.
    #[serde(default)]
    pub quoted: bool,
    /// The catalog's unit price and power, which a quote replaces.
    #[serde(default)]
    pub catalog_unit_price_usd: Usd,
    #[serde(default)]
    pub catalog_unit_power_w: Watts,
}

/// Where a bill-of-materials line's price and power come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Basis {
    /// The design's own quote, replacing the catalog's price, power or both.
    Quoted,
    /// A catalog estimate: no public figure was found.
    Estimate,
    /// A published catalog figure.
    Catalog,
}

impl Basis {
    /// The word the bill of materials and its spreadsheet use.
    pub fn label(self) -> &'static str {
        match self {
            Basis::Quoted => "quoted",
            Basis::Estimate => "estimate",
            Basis::Catalog => "catalog",
        }
    }
}

impl BomLine {
    /// Where the line's price and power come from.
    pub fn basis(&self) -> Basis {
        if self.quoted {
            Basis::Quoted
        } else if self.estimate {
            Basis::Estimate
        } else {
            Basis::Catalog
        }
    }

    /// The line's source as a reader should see it.
    pub fn source_text(&self) -> String {
        if self.quoted {
            format!("the design's quote (catalog: {})", self.source)
        } else {
            self.source.to_string()
        }
    }
}

/// Bandwidth a tier of a fabric has against what its workloads need.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TierHeadroom {
    pub tier: String,
    pub available: ByteRate,
    pub required: ByteRate,
    /// (available − required) ÷ required × 100; `None` when nothing is required.
    pub headroom_percent: Option<f64>,
    pub formula: Cow<'static, str>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WorkloadReport {
    Training(TrainingReport),
    Inference(InferenceReport),
    Rag(RagReport),
    Storage(StorageReport),
}

impl WorkloadReport {
    pub fn name(&self) -> &str {
        match self {
            WorkloadReport::Training(w) => &w.name,
            WorkloadReport::Inference(w) => &w.name,
            WorkloadReport::Rag(w) => &w.name,
            WorkloadReport::Storage(w) => &w.name,
        }
    }

    /// The time the network decides for this workload, with what it is: a training job's step,
    /// a service's communication per token, a checkpoint's write, a query's network time.
    pub fn headline_time(&self) -> Option<(&'static str, crate::units::Seconds)> {
        Some(match self {
            WorkloadReport::Training(t) => ("step time", t.step_time.value),
            WorkloadReport::Inference(i) => {
                ("communication per token", i.communication_per_token.value)
            }
            WorkloadReport::Storage(s) => ("checkpoint write", s.checkpoint_write_time.value),
            WorkloadReport::Rag(r) => ("network time per query", r.network_time_per_query.value),
        })
    }
}

/// One collective of a training step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CollectiveReport {
    pub what: Cow<'static, str>,
    pub algorithm: Algorithm,
    /// NCCL protocol the tuner chose (reports from engines before it read as Simple).
    #[serde(default)]
    pub protocol: Protocol,
    pub bytes_per_gpu: Bytes,
    pub network_bytes_per_node: Bytes,
    pub time: Seconds,
}

impl CollectiveReport {
    /// "ring / LL128": the algorithm and protocol, as NCCL_ALGO and NCCL_PROTO name them.
    pub fn label(&self) -> String {
        choice_label(self.algorithm, self.protocol)
    }
}

/// "ring / LL128"; a collective that does not run is "none".
pub fn choice_label(algorithm: Algorithm, protocol: Protocol) -> String {
    if algorithm == Algorithm::None {
        return algorithm.label().to_string();
    }
    format!("{} / {}", algorithm.label(), protocol.label())
}

/// The algorithm and protocol one collective runs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "CollectiveChoice"))]
pub struct Choice {
    pub algorithm: Algorithm,
    pub protocol: Protocol,
}

impl Choice {
    pub fn label(&self) -> String {
        choice_label(self.algorithm, self.protocol)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TrainingReport {
    pub name: String,
    pub fabric: String,
    pub gpus: u64,
    pub nodes: u32,
    pub tensor_parallel_crosses_nodes: bool,
    pub gradient_bytes_per_gpu: Figure<Bytes>,
    /// Data-parallel bytes each GPU sends per step.
    pub bytes_per_gpu_per_step: Figure<Bytes>,
    pub network_bytes_per_node_per_step: Bytes,
    pub collectives: Vec<CollectiveReport>,
    pub compute_time: Figure<Seconds>,
    pub communication_time: Figure<Seconds>,
    pub exposed_communication: Figure<Seconds>,
    pub step_time: Figure<Seconds>,
    pub ideal_step_time: Figure<Seconds>,
    /// `None` when the spec gives no compute time (communication only).
    pub slowdown: Option<Figure<Slowdown>>,
    /// What one GPU holds against its memory (absent in reports from engines before it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<Box<memory::MemoryFit>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct InferenceReport {
    pub name: String,
    pub fabric: String,
    pub tp_nodes: u32,
    pub tp_ranks: u32,
    pub crosses_network: bool,
    pub tokens_in_flight: u32,
    pub allreduce_bytes: Figure<Bytes>,
    pub per_layer_time: Figure<Seconds>,
    pub communication_per_token: Figure<Seconds>,
    pub network_added_per_token: Figure<Seconds>,
    pub prefill_communication: Figure<Seconds>,
    pub network_bytes_per_node_per_token: Bytes,
    /// The service's target inter-token latency.
    pub target_inter_token: Seconds,
    /// Communication per token within the target: see [`InferenceReport::inter_token_verdict`].
    pub meets_target: bool,
    /// What the decode AllReduces run with (older reports: none).
    #[serde(default)]
    pub decode_collective: Choice,
    /// What the prefill AllReduces run with (older reports: none).
    #[serde(default)]
    pub prefill_collective: Choice,
    /// Tensor-parallel groups serving the model (0 in reports from engines before it).
    #[serde(default)]
    pub replicas: u32,
}

impl InferenceReport {
    /// Communication per token against the target inter-token latency: the one comparison
    /// behind [`InferenceReport::meets_target`] and the `inter-token-latency` finding. Every
    /// AllReduce of a token sits on its critical path, over NVLink or the network alike, so
    /// all of it must fit in the time between tokens; the network-added share alone would
    /// pass designs whose tokens wait longer than the target even on an ideal network.
    pub fn inter_token_verdict(&self) -> TargetVerdict {
        TargetVerdict::new(self.communication_per_token.value, self.target_inter_token)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RagReport {
    pub name: String,
    pub fabric: String,
    pub bytes_per_query: Figure<Bytes>,
    pub bandwidth: Figure<ByteRate>,
    pub network_time_per_query: Figure<Seconds>,
    pub share_of_budget: Figure<Share>,
    pub vector_db_port_utilisation: Figure<Share>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StorageReport {
    pub name: String,
    pub fabric: String,
    pub read_needed: Figure<ByteRate>,
    pub read_provisioned: Figure<ByteRate>,
    pub read_available: Figure<ByteRate>,
    pub read_headroom: Figure<Ratio>,
    pub checkpoint_size: Figure<Bytes>,
    pub checkpoint_write_time: Figure<Seconds>,
    pub checkpoint_overhead: Figure<Share>,
    pub write_budget: Seconds,
    pub within_budget: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Info,
    Recommendation,
    Warning,
    Critical,
}

impl Severity {
    pub fn label(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Recommendation => "recommendation",
            Severity::Warning => "warning",
            Severity::Critical => "critical",
        }
    }
}

/// A warning or recommendation, traceable to the rule that raised it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Finding {
    pub severity: Severity,
    /// Stable rule id (`roce-lossless`).
    pub rule: Cow<'static, str>,
    /// The fabric or workload it is about.
    pub subject: String,
    pub message: String,
}

/// Why the planner chose a fabric's switch, for a fabric whose spec names none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SwitchChoice {
    /// One sentence: the switch, why, and the runner-up.
    pub reason: String,
    /// The fabric's nominal cost with the chosen switch.
    pub cost_usd: Usd,
    /// The next cheapest switch that builds the fabric (catalog key) and the cost with it.
    pub runner_up: Option<String>,
    pub runner_up_cost_usd: Option<Usd>,
}
