//! What the as-built check finds, stored with a revision: per cable, as planned or not and why,
//! links on no planned port, and counts by switch and by rail.

use super::ObservedLink;
use serde::{Deserialize, Serialize};

/// One end of a planned cable found cabled to something else.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Miscabled {
    /// The planned end (device, port) the link was found on.
    pub device: String,
    pub port: String,
    /// What that end was planned to reach.
    pub planned_peer_device: String,
    pub planned_peer_port: String,
    /// What it reaches.
    pub found_peer_device: String,
    pub found_peer_port: String,
    /// The cable the found peer belongs to, if it is a planned port.
    pub found_peer_cable: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Status {
    AsPlanned,
    Missing,
    Swapped {
        ends: Vec<Miscabled>,
    },
    /// Up at fewer lanes or a lower rate than planned.
    Degraded {
        planned_width: Option<u32>,
        planned_gbps: f64,
        found_width: Option<u32>,
        found_gbps: Option<f64>,
        found_rate: Option<String>,
    },
}

impl Status {
    /// What was found instead of the plan, in words: the swapped ends, or the rate a degraded
    /// link came up at; `None` for a cable as planned or missing.
    pub fn detail(&self) -> Option<String> {
        match self {
            Status::Swapped { ends } => Some(
                ends.iter()
                    .map(|e| {
                        format!(
                            "{}:{} reaches {}:{} instead of {}:{}",
                            e.device,
                            e.port,
                            e.found_peer_device,
                            e.found_peer_port,
                            e.planned_peer_device,
                            e.planned_peer_port
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("; "),
            ),
            Status::Degraded {
                planned_gbps,
                found_rate,
                found_gbps,
                ..
            } => Some(format!(
                "up at {} instead of {planned_gbps} Gb/s",
                found_rate
                    .clone()
                    .or_else(|| found_gbps.map(|g| format!("{g} Gb/s")))
                    .unwrap_or_default()
            )),
            Status::AsPlanned | Status::Missing => None,
        }
    }

    pub fn key(&self) -> &'static str {
        match self {
            Status::AsPlanned => "as planned",
            Status::Missing => "missing",
            Status::Swapped { .. } => "swapped",
            Status::Degraded { .. } => "degraded",
        }
    }
}

/// One planned cable and what was found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CableCheck {
    pub label: String,
    pub fabric: String,
    pub tier: String,
    pub a_device: String,
    pub a_port: String,
    pub z_device: String,
    pub z_port: String,
    /// The rail of a rail-optimized fabric the cable belongs to.
    pub rail: Option<u32>,
    #[serde(flatten)]
    pub status: Status,
}

/// Counts for a switch, a rail or the whole check.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Summary {
    pub name: String,
    pub as_planned: u32,
    pub missing: u32,
    pub swapped: u32,
    pub degraded: u32,
    pub extra: u32,
}

impl Summary {
    pub(crate) fn count(&mut self, status: &Status) {
        match status {
            Status::AsPlanned => self.as_planned += 1,
            Status::Missing => self.missing += 1,
            Status::Swapped { .. } => self.swapped += 1,
            Status::Degraded { .. } => self.degraded += 1,
        }
    }

    pub fn findings(&self) -> u32 {
        self.missing + self.swapped + self.degraded + self.extra
    }
}

/// The as-built fabric against the plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct AsBuiltCheck {
    /// Labels of the cables found as planned, in sheet order.
    pub as_planned: Vec<String>,
    /// Every other planned cable of the fabrics checked (missing, swapped, degraded), in sheet
    /// order.
    pub findings: Vec<CableCheck>,
    /// Links on no planned port.
    pub extra: Vec<ObservedLink>,
    pub total: Summary,
    pub by_switch: Vec<Summary>,
    pub by_rail: Vec<Summary>,
}

/// Cables not as planned and extra links a kept check lists, and a page shows, at most each;
/// the counts hold every one.
pub const MAX_LISTED: usize = 1_000;

impl AsBuiltCheck {
    /// Cables checked.
    pub fn cables(&self) -> usize {
        let t = &self.total;
        (t.as_planned + t.missing + t.swapped + t.degraded) as usize
    }

    /// What is kept of a check: its counts, whole, and the first [`MAX_LISTED`] cables not as
    /// planned and extra links; the labels of the cables as planned are not kept (their count
    /// is). A check of the largest fabric keeps a few hundred kilobytes, whatever the size of
    /// the output it read.
    pub fn kept(mut self) -> AsBuiltCheck {
        self.as_planned = Vec::new();
        self.findings.truncate(MAX_LISTED);
        self.extra.truncate(MAX_LISTED);
        self
    }

    /// The finding for the cable labelled `label`; `None` when it is as planned or unknown.
    pub fn finding(&self, label: &str) -> Option<&CableCheck> {
        self.findings.iter().find(|c| c.label == label)
    }
}

impl std::fmt::Display for CableCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}:{} - {}:{}: {}",
            self.label,
            self.a_device,
            self.a_port,
            self.z_device,
            self.z_port,
            self.status.key()
        )?;
        match (&self.status, self.status.detail()) {
            (Status::Swapped { .. }, Some(detail)) => write!(f, "; {detail}"),
            (Status::Degraded { .. }, Some(detail)) => write!(f, " ({detail})"),
            _ => Ok(()),
        }
    }
}
