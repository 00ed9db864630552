//! The compact record the search keeps of every candidate it visits.

use super::checks::Breach;
use serde::{Deserialize, Serialize};

/// What the search concluded about one candidate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "status")]
pub enum Status {
    /// Meets every check and no evaluated candidate beats it on every objective.
    Frontier,
    /// Meets every check, but candidate `by` is at least as good on every objective and
    /// better on one.
    Dominated { by: u64 },
    /// Breaks a check; the breach with the least slack.
    Infeasible { breach: Breach },
    /// A floor under its cost or power already breaks a constraint: not evaluated.
    Pruned { breach: Breach },
    /// The engine cannot build it (too many endpoints for the switch, ...).
    Invalid { reason: String },
}

/// One visited candidate: its id (decode it with [`Search::choice`](super::Search::choice)) and objectives.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Record {
    pub id: u64,
    /// Network cost, USD (as placed where `placed`); not a number (null in JSON) when the candidate was not evaluated.
    #[serde(with = "number_or_null")]
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub cost_usd: f64,
    #[serde(with = "number_or_null")]
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub power_w: f64,
    /// Worst training step-time slowdown, percent.
    #[serde(with = "number_or_null")]
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub slowdown_percent: f64,
    /// Worst network-added latency per token, ms.
    #[serde(with = "number_or_null")]
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub added_latency_ms: f64,
    /// Whether cost and power are the network as placed on the floor, each cable at its routed
    /// length: so for every candidate that meets every check that does not read cost or
    /// power, and so for every feasible one. Otherwise they are the fabrics' bills, each
    /// tier's cables at its nominal run.
    #[serde(default)]
    pub placed: bool,
    pub status: Status,
}

impl Record {
    fn objectives(&self) -> [f64; 4] {
        [
            self.cost_usd,
            self.power_w,
            self.slowdown_percent,
            self.added_latency_ms,
        ]
    }

    /// No worse on every objective and better on one.
    pub fn dominates(&self, other: &Record) -> bool {
        let (a, b) = (self.objectives(), other.objectives());
        a.iter().zip(&b).all(|(x, y)| x <= y) && a.iter().zip(&b).any(|(x, y)| x < y)
    }

    /// The same cost, power, slowdown and latency, to the bit.
    pub fn same_figures(&self, other: &Record) -> bool {
        self.objectives()
            .iter()
            .zip(other.objectives())
            .all(|(a, b)| a.to_bits() == b.to_bits())
    }

    /// What the record's cost is, for a sentence that states it.
    pub fn cost_basis(&self) -> &'static str {
        if self.placed {
            " as placed"
        } else {
            " in the fabrics' bills"
        }
    }

    pub fn feasible(&self) -> bool {
        matches!(self.status, Status::Frontier | Status::Dominated { .. })
    }
}

/// JSON has no NaN: a figure the search did not compute travels as null and reads back as NaN.
pub(crate) mod number_or_null {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        if v.is_finite() {
            s.serialize_f64(*v)
        } else {
            s.serialize_none()
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
    }
}
