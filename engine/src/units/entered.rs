//! Quantities in the unit an architect types them and a datasheet or nccl-tests prints them:
//! microseconds of a hop's latency, milliseconds of a target, GB/s of a storage system or a
//! measured bus bandwidth, Gb/s of a port, GB of a checkpoint, minutes of an interval, TFLOP/s
//! of a GPU, events per second. Each keeps the number as it was entered, so that a spec's JSON
//! holds what was typed and reads back to the same bit, and meets the base units ([`Seconds`],
//! [`ByteRate`], [`BitRate`], [`Bytes`]) only through its conversion, named where it is written.

use super::{BitRate, ByteRate, Bytes, Seconds};
use borsh::{BorshDeserialize, BorshSerialize};
use serde::{Deserialize, Serialize};

/// A duration in microseconds (a switch hop, a collective's base latency).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(transparent)]
pub struct Micros(f64);

/// A duration in milliseconds (a latency target, an added latency).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(transparent)]
pub struct Millis(f64);

/// A data rate in GB/s, 10^9 bytes a second (a storage system, a measured bus bandwidth).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(transparent)]
pub struct GigabytesPerSecond(f64);

/// A data rate in Gb/s, 10^9 bits a second (a port, a cage, a link as sold).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(transparent)]
pub struct GigabitsPerSecond(f64);

/// An amount of data in GB, 10^9 bytes (a checkpoint, a GPU's memory).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(transparent)]
pub struct Gigabytes(f64);

/// A duration in minutes (a checkpoint interval, a restart).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(transparent)]
pub struct Minutes(f64);

/// Dense tensor throughput in TFLOP/s, 10^12 floating-point operations a second (a GPU's
/// datasheet figure).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(transparent)]
pub struct Teraflops(f64);

/// A rate of events: queries or training steps a second.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(transparent)]
pub struct PerSecond(f64);

impl Micros {
    /// The same duration in seconds (÷ 10^6).
    pub fn to_seconds(self) -> Seconds {
        Seconds::from_micros(self.0)
    }
}

impl Minutes {
    /// The same duration in seconds (× 60).
    pub fn to_seconds(self) -> Seconds {
        Seconds::new(self.0 * 60.0)
    }
}

impl Teraflops {
    /// The same rate in floating-point operations a second (× 10^12).
    pub fn flops_per_second(self) -> f64 {
        self.0 * 1e12
    }
}

impl Millis {
    /// The same duration in seconds (÷ 10^3).
    pub fn to_seconds(self) -> Seconds {
        Seconds::from_millis(self.0)
    }
}

impl GigabytesPerSecond {
    /// The same rate in bytes a second (× 10^9).
    pub fn to_byte_rate(self) -> ByteRate {
        ByteRate::gigabytes_per_second(self.0)
    }
}

impl GigabitsPerSecond {
    /// The same rate in bits a second (× 10^9).
    pub fn to_bit_rate(self) -> BitRate {
        BitRate::gbps(self.0)
    }
}

impl Gigabytes {
    /// The same amount in bytes (× 10^9).
    pub fn to_bytes(self) -> Bytes {
        Bytes::gigabytes(self.0)
    }
}

super::linear::linear_quantity!(
    Micros,
    Millis,
    GigabytesPerSecond,
    GigabitsPerSecond,
    Gigabytes,
    Minutes,
    Teraflops,
    PerSecond
);
super::linear::number_in! {
    Micros: micros, "microseconds";
    Millis: millis, "milliseconds";
    GigabytesPerSecond: gigabytes_per_second, "GB a second";
    GigabitsPerSecond: gbps, "Gb a second";
    Gigabytes: gigabytes, "GB";
    Minutes: minutes, "minutes";
    Teraflops: tflops, "TFLOP/s";
    PerSecond: per_second, "events a second";
}
