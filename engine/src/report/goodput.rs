//! Each training job's interruptions and goodput ([`crate::goodput::goodput`]).

use crate::figure::Figure;
use crate::units::{Seconds, Share};
use serde::{Deserialize, Serialize};

/// One training job's interruptions and goodput.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Goodput {
    pub workload: String,
    pub gpus: u64,
    /// Expected interruptions a day.
    pub interruptions_per_day: f64,
    /// M: the mean time between interruptions.
    pub mean_time_between: Figure<Seconds>,
    pub restart: Seconds,
    /// The storage workload whose checkpoint the job writes, and δ, its write time; absent
    /// when the design has none.
    pub checkpoint: Option<Checkpointing>,
}

/// A job's checkpointing: its write time, the intervals, and the goodput they give.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Checkpointing {
    pub storage: String,
    /// δ.
    pub write_time: Seconds,
    /// Young's interval √(2δM) and Daly's.
    pub young: Figure<Seconds>,
    pub daly: Figure<Seconds>,
    /// The interval the design checkpoints at, and its goodput.
    pub interval: Seconds,
    pub goodput: Figure<Share>,
    /// The goodput at Daly's interval.
    pub best_goodput: Figure<Share>,
    /// The GPU-hours a day the job does not train at the design's interval.
    #[serde(default)]
    pub lost_gpu_hours_per_day: f64,
    /// At each of [`WRITE_BANDWIDTH_MULTIPLES`] of the design's write bandwidth: δ, Daly's
    /// interval and the goodput there.
    pub by_write_bandwidth: Vec<BandwidthPoint>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BandwidthPoint {
    pub multiple: f64,
    pub write_time: Seconds,
    pub interval: Seconds,
    pub goodput: Share,
    /// The GPU-hours a day the job does not train there.
    #[serde(default)]
    pub lost_gpu_hours_per_day: f64,
}
