//! The interval of each time from the published measurements ([`crate::uncertainty::intervals`]).

use crate::units::{Bytes, Seconds};
use serde::{Deserialize, Serialize};

/// One workload's headline time with its interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TimeInterval {
    pub workload: String,
    /// What the time measures ("step time", "communication per token").
    pub measure: String,
    pub value: Seconds,
    pub low: Seconds,
    pub high: Seconds,
    /// The message that dominates its network time.
    pub message: Bytes,
    /// Where the interval comes from: the message's band and its published runs, or the fit of
    /// the fabric's calibration.
    pub band: String,
    /// Published runs in the band, or baselines of the fit.
    pub points: u32,
    /// Least and most measured ÷ predicted network time: what any of the workload's times
    /// moves by in its network's part ([`TimeInterval::around`]).
    #[serde(default)]
    pub network_low: f64,
    #[serde(default)]
    pub network_high: f64,
    /// Whether it comes from the fit of its fabric's calibration (the same for every message)
    /// rather than from a message band.
    #[serde(default)]
    pub fitted: bool,
}
