//! The checks a candidate must pass, built once per search from its targets and constraints,
//! and measured on each candidate's report.

use super::request::{Limits, SearchRequest};
use crate::report::{Report, WorkloadReport};
use crate::spec::Workload;
use crate::units::rounded as round;
use serde::{Deserialize, Serialize};

/// What a check measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "kind", content = "workload")]
pub enum Measure {
    /// Step-time slowdown of training workload `n` (index in the design), percent.
    Slowdown(usize),
    /// Network-added latency per token of inference workload `n`, ms.
    AddedLatency(usize),
    /// Checkpoint write time ÷ budget of storage workload `n`.
    Checkpoint(usize),
    /// Read headroom of storage workload `n`.
    ReadHeadroom(usize),
    /// Network cost of the design, USD.
    Cost,
    /// Network power of the design, W.
    Power,
    /// Most switch tiers of any fabric.
    Tiers,
    /// GPUs the worst single failure of any fabric cuts off.
    FailureGpus,
    /// GPUs the tenants' whole scalable units strand ([`crate::tenancy`]).
    StrandedGpus,
    /// Goodput, percent of time training, of a training job on `gpus` GPUs that checkpoints to
    /// storage workload `storage`, at that workload's checkpoint interval
    /// ([`crate::goodput`]): it moves with the storage fabric's write bandwidth.
    Goodput { storage: usize, gpus: u64 },
}

impl Measure {
    /// The workload a measure reads, if it reads one.
    pub fn workload(self) -> Option<usize> {
        match self {
            Measure::Slowdown(i)
            | Measure::AddedLatency(i)
            | Measure::Checkpoint(i)
            | Measure::ReadHeadroom(i)
            | Measure::Goodput { storage: i, .. } => Some(i),
            Measure::Cost
            | Measure::Power
            | Measure::Tiers
            | Measure::FailureGpus
            | Measure::StrandedGpus => None,
        }
    }

    /// Whether the measure reads the network's cost or power, which the floor moves.
    pub fn reads_cost_or_power(self) -> bool {
        matches!(self, Measure::Cost | Measure::Power)
    }

    /// The same measure on workload `i` (of a design holding a subset of the workloads).
    pub fn on(self, i: usize) -> Measure {
        match self {
            Measure::Slowdown(_) => Measure::Slowdown(i),
            Measure::AddedLatency(_) => Measure::AddedLatency(i),
            Measure::Checkpoint(_) => Measure::Checkpoint(i),
            Measure::ReadHeadroom(_) => Measure::ReadHeadroom(i),
            Measure::Goodput { gpus, .. } => Measure::Goodput { storage: i, gpus },
            other => other,
        }
    }
}

/// One target or constraint, with the request field it comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Check {
    /// The request field that sets the limit (`targets.every_workload.max_added_latency_ms`).
    pub path: String,
    /// For people: "added latency per token of “70B serving”".
    pub label: String,
    pub unit: String,
    pub measure: Measure,
    pub limit: f64,
    /// The value must be at least the limit (else at most).
    pub at_least: bool,
}

impl Check {
    /// Relative margin: positive when met, negative when broken, in fractions of the limit.
    pub fn slack(&self, value: f64) -> f64 {
        let scale = if self.limit.abs() > 1e-12 {
            self.limit.abs()
        } else {
            1.0
        };
        if self.at_least {
            (value - self.limit) / scale
        } else {
            (self.limit - value) / scale
        }
    }

    pub fn met(&self, value: f64) -> bool {
        if self.at_least {
            value >= self.limit
        } else {
            value <= self.limit
        }
    }

    /// The check as a sentence: "added latency per token of “x” at most 50 ms".
    pub fn describe(&self) -> String {
        let bound = if self.at_least { "at least" } else { "at most" };
        format!("{} {bound} {} {}", self.label, round(self.limit), self.unit)
            .trim_end()
            .to_string()
    }
}

/// A check that a candidate breaks: its index in the search's checks, the candidate's value
/// and the limit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Breach {
    pub check: usize,
    #[serde(with = "super::record::number_or_null")]
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub value: f64,
    pub limit: f64,
}

/// Every check the request implies, in a stable order: workload targets in the design's order,
/// then cost, power and tiers.
pub fn checks(request: &SearchRequest) -> Vec<Check> {
    let mut out = Vec::new();
    for (i, w) in request.base.workloads.iter().enumerate() {
        let (limits, index) = request.targets.for_workload(w.name());
        let at = match index {
            Some(n) => format!("targets.workloads[{n}].limits"),
            None => "targets.every_workload".to_string(),
        };
        workload_checks(&mut out, &request.base, &at, i, w, limits);
    }
    let c = &request.constraints;
    let constraint = |path: &str, label: &str, unit: &str, measure, limit| Check {
        path: path.into(),
        label: label.into(),
        unit: unit.into(),
        measure,
        limit,
        at_least: false,
    };
    if let Some(limit) = c.max_cost_usd {
        out.push(constraint(
            "constraints.max_cost_usd",
            "network cost",
            "USD",
            Measure::Cost,
            limit.dollars(),
        ));
    }
    if let Some(limit) = c.max_power_w {
        out.push(constraint(
            "constraints.max_power_w",
            "network power",
            "W",
            Measure::Power,
            limit.watts(),
        ));
    }
    if let Some(limit) = c.max_gpus_cut_off_by_one_failure {
        out.push(constraint(
            "constraints.max_gpus_cut_off_by_one_failure",
            "GPUs the worst single failure cuts off",
            "GPUs",
            Measure::FailureGpus,
            limit as f64,
        ));
    }
    if let Some(limit) = c.max_stranded_gpus {
        out.push(constraint(
            "constraints.max_stranded_gpus",
            "GPUs the tenants' isolation strands",
            "GPUs",
            Measure::StrandedGpus,
            limit as f64,
        ));
    }
    if let Some(limit) = c.max_tiers {
        out.push(constraint(
            "constraints.max_tiers",
            "switch tiers",
            "",
            Measure::Tiers,
            f64::from(limit),
        ));
    }
    out
}

fn workload_checks(
    out: &mut Vec<Check>,
    spec: &crate::spec::DesignSpec,
    at: &str,
    i: usize,
    w: &Workload,
    l: &Limits,
) {
    let name = w.name();
    let mut push = |field: &str, label: String, unit: &str, measure, limit, at_least| {
        out.push(Check {
            path: format!("{at}.{field}"),
            label,
            unit: unit.into(),
            measure,
            limit,
            at_least,
        })
    };
    match w {
        Workload::Training(t) => {
            if let Some(limit) = l.max_slowdown_percent {
                push(
                    "max_slowdown_percent",
                    format!("step-time slowdown of “{name}”"),
                    "%",
                    Measure::Slowdown(i),
                    limit,
                    false,
                );
            }
            // A job with no storage workload to checkpoint to has no goodput to hold: the
            // request's validation refuses the limit for it.
            let storage = crate::goodput::storage_index(spec, t);
            if let (Some(limit), Some(storage)) = (l.min_goodput_percent, storage) {
                let gpus = t.parallelism.gpus();
                push(
                    "min_goodput_percent",
                    format!("goodput of “{name}” at its checkpoint interval"),
                    "%",
                    Measure::Goodput { storage, gpus },
                    limit,
                    true,
                );
            }
        }
        Workload::Inference(_) => {
            if let Some(limit) = l.max_added_latency_ms {
                push(
                    "max_added_latency_ms",
                    format!("network-added latency per token of “{name}”"),
                    "ms",
                    Measure::AddedLatency(i),
                    limit.millis(),
                    false,
                );
            }
        }
        Workload::Storage(_) => {
            if l.checkpoint_within_budget {
                push(
                    "checkpoint_within_budget",
                    format!("checkpoint write time ÷ budget of “{name}”"),
                    "",
                    Measure::Checkpoint(i),
                    1.0,
                    false,
                );
            }
            if let Some(limit) = l.min_read_headroom {
                push(
                    "min_read_headroom",
                    format!("storage read headroom of “{name}”"),
                    "×",
                    Measure::ReadHeadroom(i),
                    limit,
                    true,
                );
            }
        }
        Workload::Rag(_) => {}
    }
}

/// The value `measure` takes in `report` of `spec`. A workload figure the report lacks (a
/// training job that needs no network) counts as perfect: it cannot break a target.
/// GPUs the tenants placed as `placed` strand.
pub fn stranded_gpus(
    spec: &crate::spec::DesignSpec,
    placed: &[crate::tenancy::TenantPlacement],
) -> u64 {
    placed
        .iter()
        .map(|t| u64::from(t.stranded_nodes) * u64::from(spec.cluster.gpus_per_node))
        .sum()
}

pub fn value(measure: Measure, spec: &crate::spec::DesignSpec, report: &Report) -> f64 {
    match measure {
        Measure::Slowdown(i) => match report.workloads.get(i) {
            Some(WorkloadReport::Training(t)) => t
                .slowdown
                .as_ref()
                .map_or(0.0, |s| (s.value.factor() - 1.0) * 100.0),
            _ => 0.0,
        },
        Measure::AddedLatency(i) => match report.workloads.get(i) {
            Some(WorkloadReport::Inference(r)) => r.network_added_per_token.value.seconds() * 1e3,
            _ => 0.0,
        },
        Measure::Checkpoint(i) => match report.workloads.get(i) {
            Some(WorkloadReport::Storage(s)) if s.write_budget.seconds() > 0.0 => {
                s.checkpoint_write_time.value.seconds() / s.write_budget.seconds()
            }
            _ => 0.0,
        },
        Measure::ReadHeadroom(i) => match report.workloads.get(i) {
            Some(WorkloadReport::Storage(s)) => s.read_headroom.value.get(),
            _ => f64::INFINITY,
        },
        Measure::Cost => report.network().cost_usd.dollars(),
        Measure::Power => report.network().power_w.watts(),
        Measure::Tiers => f64::from(
            report
                .fabrics
                .iter()
                .map(|f| f.plan.tiers)
                .max()
                .unwrap_or(0),
        ),
        Measure::FailureGpus => crate::failures::worst_cut_off(spec, report) as f64,
        Measure::StrandedGpus => stranded_gpus(spec, &report.tenants) as f64,
        Measure::Goodput { storage, gpus } => {
            match (spec.workloads.get(storage), report.workloads.get(storage)) {
                (Some(Workload::Storage(s)), Some(WorkloadReport::Storage(r))) => {
                    let c = &spec.calibration;
                    let m = crate::goodput::mean_time_between(c, gpus);
                    let write = r.checkpoint_write_time.value;
                    crate::goodput::goodput_checkpointing_to(c, s, write, m).fraction() * 100.0
                }
                _ => 0.0,
            }
        }
    }
}
