//! Whether a training job fits its GPUs' memory ([`crate::memory_fit`]).

use crate::figure::Figure;
use crate::spec::Recompute;
use crate::units::Bytes;
use serde::{Deserialize, Serialize};

/// The parallelism and recomputation a job could use instead, on the same GPUs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Degrees {
    pub tp: u32,
    pub pp: u32,
    pub dp: u32,
    pub recompute: Recompute,
}

/// What one GPU of a training job holds, against its memory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MemoryFit {
    pub weights: Figure<Bytes>,
    pub gradients: Figure<Bytes>,
    pub optimizer_states: Figure<Bytes>,
    pub activations: Figure<Bytes>,
    pub total: Figure<Bytes>,
    /// What the job can fill of the GPU's memory.
    pub usable: Figure<Bytes>,
    pub fits: bool,
    /// When it does not fit: the smallest pipeline depth at which it does (the tensor width
    /// kept), else the smallest tensor width, else the same with full recomputation, on the
    /// same GPUs and global batch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fits_with: Option<Degrees>,
}
