//! What the engine tells the user about a design.

use crate::units::{BitRate, Bytes, Seconds};
use serde::{Deserialize, Serialize};

/// A figure with the formula and source that produced it, so that any number shown can
/// "show its work".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Figure<T> {
    pub value: T,
    /// The formula with the design's inputs substituted.
    pub formula: String,
    /// Where the model or constant comes from.
    pub source: String,
}

impl<T> Figure<T> {
    pub fn new(value: T, formula: impl Into<String>, source: impl Into<String>) -> Self {
        Figure {
            value,
            formula: formula.into(),
            source: source.into(),
        }
    }
}

/// The evaluation of a design.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Version of the engine that computed this report.
    pub engine_version: String,
    pub training: DataParallelReport,
}

/// Communication of a data-parallel training job, per step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DataParallelReport {
    pub nodes: u32,
    /// Size of the gradients: parameters x bytes per element.
    pub gradient_bytes: Figure<Bytes>,
    /// Bytes each GPU sends per step in a ring AllReduce of the gradients.
    pub bytes_per_gpu_per_step: Figure<Bytes>,
    pub link_rate: BitRate,
    /// False when every GPU sits in one node: the AllReduce then never touches the network.
    pub crosses_network: bool,
    /// The bandwidth term of the AllReduce on the network link.
    pub bandwidth_time: Figure<Seconds>,
    /// The latency term (NCCL-like alpha).
    pub latency_time: Figure<Seconds>,
    /// Bandwidth plus latency: the AllReduce time per step on this link.
    pub allreduce_time: Figure<Seconds>,
}
