use crate::precision::Precision;
use crate::units::{Bytes, Gigabytes, GigabytesPerSecond, Millis, Minutes, PerSecond, Seconds};
use borsh::{BorshDeserialize, BorshSerialize};
use serde::{Deserialize, Serialize};

/// One workload the cluster runs, mapped to the fabric that carries its traffic.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Workload {
    Training(Training),
    Inference(Inference),
    Rag(Rag),
    Storage(Storage),
}

impl Workload {
    pub fn name(&self) -> &str {
        match self {
            Workload::Training(w) => &w.name,
            Workload::Inference(w) => &w.name,
            Workload::Rag(w) => &w.name,
            Workload::Storage(w) => &w.name,
        }
    }

    /// Whether it runs on GPU nodes of its own: a training job or an inference service
    /// (retrieval and storage traffic comes from every node).
    pub fn takes_nodes(&self) -> bool {
        matches!(self, Workload::Training(_) | Workload::Inference(_))
    }

    pub fn name_mut(&mut self) -> &mut String {
        match self {
            Workload::Training(w) => &mut w.name,
            Workload::Inference(w) => &mut w.name,
            Workload::Rag(w) => &mut w.name,
            Workload::Storage(w) => &mut w.name,
        }
    }

    pub fn fabric_mut(&mut self) -> &mut String {
        match self {
            Workload::Training(w) => &mut w.fabric,
            Workload::Inference(w) => &mut w.fabric,
            Workload::Rag(w) => &mut w.fabric,
            Workload::Storage(w) => &mut w.fabric,
        }
    }

    pub fn fabric(&self) -> &str {
        match self {
            Workload::Training(w) => &w.fabric,
            Workload::Inference(w) => &w.fabric,
            Workload::Rag(w) => &w.fabric,
            Workload::Storage(w) => &w.fabric,
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Workload::Training(_) => "training",
            Workload::Inference(_) => "inference",
            Workload::Rag(_) => "rag",
            Workload::Storage(_) => "storage",
        }
    }
}

/// A transformer model's shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(deny_unknown_fields)]
pub struct Model {
    /// The catalog preset it came from, if any (a label).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    pub parameters: f64,
    /// Parameters active per token (mixture of experts); `parameters` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_parameters: Option<f64>,
    pub layers: u32,
    pub hidden: u32,
    pub sequence_length: u32,
    pub precision: Precision,
    /// Routed experts (0 for a dense model) and experts each token visits.
    #[serde(default)]
    pub experts: u32,
    #[serde(default)]
    pub experts_per_token: u32,
}

impl Model {
    pub fn active(&self) -> f64 {
        self.active_parameters.unwrap_or(self.parameters)
    }

    pub fn is_moe(&self) -> bool {
        self.experts > 1
    }
}

/// How gradients, optimizer state and parameters are sharded across data-parallel ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sharding {
    /// Plain data parallelism (DDP): AllReduce of the gradients.
    #[default]
    None,
    Zero1,
    Zero2,
    /// ZeRO-3 / FSDP FULL_SHARD: parameters gathered forward and backward, gradients reduce-scattered.
    Zero3,
    /// FSDP HYBRID_SHARD: full sharding inside the node, AllReduce across nodes.
    FsdpHybrid,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(deny_unknown_fields)]
pub struct Parallelism {
    pub dp: u32,
    pub tp: u32,
    pub pp: u32,
    /// Expert parallelism: ranks among which a MoE layer's experts are spread (within DP).
    #[serde(default = "one")]
    pub ep: u32,
    #[serde(default)]
    pub sharding: Sharding,
}

fn one() -> u32 {
    1
}

impl Parallelism {
    /// The GPUs the job runs on: data × tensor × pipeline parallel (expert parallelism is
    /// within data parallelism).
    pub fn gpus(&self) -> u64 {
        u64::from(self.dp) * u64::from(self.tp) * u64::from(self.pp)
    }
}

/// Where the compute time per step comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Compute {
    /// From the GPU's dense throughput at the model precision times a model FLOPs utilisation.
    Mfu(f64),
    /// Measured or assumed compute seconds per step.
    StepSeconds(f64),
}

/// Multi-node training.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(deny_unknown_fields)]
pub struct Training {
    /// One line of visible text, at most 200 characters (as a title).
    pub name: String,
    pub fabric: String,
    pub model: Model,
    pub parallelism: Parallelism,
    /// Sequences per optimizer step, across all replicas.
    pub global_batch: u32,
    /// Sequences per micro-batch.
    pub micro_batch: u32,
    pub compute: Compute,
    /// Fraction of the last micro-batch's backward pass behind which the data-parallel gradient
    /// traffic can hide (0..1): frameworks reduce gradients as the backward pass produces them,
    /// and with gradient accumulation only in the last micro-batch.
    #[serde(default = "default_overlap")]
    pub overlap: f64,
    /// Activation recomputation: what the backward pass recomputes instead of storing.
    #[serde(default)]
    pub recompute: Recompute,
    /// The node it starts on, from 1; when absent, the planner places it (`crate::allocation`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_node: Option<u32>,
}

/// Activation recomputation [Korthikanti et al., arXiv:2205.05198].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(rename_all = "snake_case")]
pub enum Recompute {
    /// Every activation is stored.
    #[default]
    None,
    /// Only the attention core (softmax, dropout, attention over V) is recomputed: a few percent
    /// more compute, no extra communication.
    Selective,
    /// Every layer's forward pass runs again in the backward pass, with its tensor-parallel
    /// collectives: a third more compute.
    Full,
}

impl Recompute {
    pub fn label(self) -> &'static str {
        match self {
            Recompute::None => "none",
            Recompute::Selective => "selective",
            Recompute::Full => "full",
        }
    }
}

pub fn default_overlap() -> f64 {
    // Half of the last micro-batch's backward pass: the last buckets reduced, and the
    // optimizer step after them, cannot hide [Li et al., PyTorch Distributed, VLDB 2020:
    // AllReduce overlapped with the backward pass bucket by bucket]. No public measurement
    // gives the share; the search and the summary say how a verdict moves without overlap.
    0.5
}

/// Tensor-parallel inference across nodes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(deny_unknown_fields)]
pub struct Inference {
    /// One line of visible text, at most 200 characters (as a title).
    pub name: String,
    pub fabric: String,
    pub model: Model,
    /// Nodes one tensor-parallel group spans (1: the model fits in one node).
    pub tp_nodes: u32,
    /// Tokens in flight per decode forward pass (the decode batch).
    pub decode_tokens: u32,
    /// Tokens of one prefill forward pass (prompt length × prompts batched).
    pub prefill_tokens: u32,
    /// The inter-token latency the service must meet, ms.
    pub target_inter_token_ms: Millis,
    /// Tensor-parallel groups serving the model; when absent, as many as the nodes the other
    /// workloads leave hold, at most the fabric's (`crate::allocation`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<u32>,
    /// The node it starts on, from 1; when absent, the planner places it (`crate::allocation`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_node: Option<u32>,
}

/// Retrieval-augmented generation against a vector database over the network.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(deny_unknown_fields)]
pub struct Rag {
    /// One line of visible text, at most 200 characters (as a title).
    pub name: String,
    pub fabric: String,
    pub queries_per_s: PerSecond,
    pub embedding_dim: u32,
    pub embedding_precision: Precision,
    pub top_k: u32,
    /// Bytes of one retrieved document chunk.
    pub chunk_bytes: Bytes,
    /// End-to-end retrieval latency budget, ms.
    pub latency_budget_ms: Millis,
}

/// Training-data streaming and checkpoints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(deny_unknown_fields)]
pub struct Storage {
    /// One line of visible text, at most 200 characters (as a title).
    pub name: String,
    pub fabric: String,
    /// Samples read per training step (the global batch).
    pub samples_per_step: f64,
    pub sample_bytes: Bytes,
    pub steps_per_s: PerSecond,
    /// Provision this many times the average read rate for I/O peaks (seed C13: 2-3x).
    #[serde(default = "default_read_headroom")]
    pub read_headroom: f64,
    pub checkpoint: Checkpoint,
    /// What the storage system itself can read and write, GB/s (aggregate); unlimited when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_read_gbytes_per_s: Option<GigabytesPerSecond>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_write_gbytes_per_s: Option<GigabytesPerSecond>,
}

pub fn default_read_headroom() -> f64 {
    2.5
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    /// Size of one checkpoint, GB; from `parameters × bytes_per_parameter` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size_gb: Option<Gigabytes>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<f64>,
    /// Bytes per parameter of a resumable checkpoint: bf16 weights + fp32 master, momentum,
    /// variance ≈ 14 (derived).
    #[serde(default = "default_checkpoint_bytes")]
    pub bytes_per_parameter: f64,
    pub interval_minutes: Minutes,
    /// Longest a checkpoint write may block training, seconds.
    pub write_budget_s: Seconds,
}

pub fn default_checkpoint_bytes() -> f64 {
    14.0
}
