//! What-ifs: the same design under worse conditions, against its baseline.

use crate::error::{FieldError, SpecErrors};
use crate::evaluate::evaluate_with;
use crate::links::Conditions;
use crate::report::{Report, WorkloadReport};
use crate::spec::DesignSpec;
use crate::units::Slowdown;

/// A design evaluated normally and under a what-if.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    pub baseline: Report,
    pub what_if: Report,
}

impl Comparison {
    /// How much longer each step (training) or token (inference) of `workload` takes.
    pub fn slowdown(&self, workload: &str) -> Option<Slowdown> {
        let time = |report: &Report| {
            report
                .workloads
                .iter()
                .find(|w| w.name() == workload)
                .and_then(|w| match w {
                    WorkloadReport::Training(t) => Some(t.step_time.value.seconds()),
                    WorkloadReport::Inference(i) => Some(i.communication_per_token.value.seconds()),
                    _ => None,
                })
        };
        match (time(&self.baseline), time(&self.what_if)) {
            (Some(before), Some(after)) if before > 0.0 => Some(Slowdown::new(after / before)),
            _ => None,
        }
    }
}

fn compare(spec: &DesignSpec, network_share: f64, field: &str) -> Result<Comparison, SpecErrors> {
    if !(network_share.is_finite() && network_share > 0.0 && network_share <= 1.0) {
        return Err(SpecErrors(vec![FieldError::new(
            field,
            "must be a fraction in (0, 1]",
        )]));
    }
    Ok(Comparison {
        baseline: evaluate_with(spec, Conditions::NORMAL)?,
        what_if: evaluate_with(
            spec,
            Conditions {
                network_share,
                ..Conditions::NORMAL
            },
        )?,
    })
}

/// One link of every ring degraded to `remaining` of its speed: a ring runs at its slowest
/// link, so every GPU in it waits (seed C14).
pub fn degraded_link(spec: &DesignSpec, remaining: f64) -> Result<Comparison, SpecErrors> {
    compare(spec, remaining, "degraded_link")
}

/// Congestion behind an overloaded switch: flows get `share` of their bandwidth (seed C2).
pub fn congestion(spec: &DesignSpec, share: f64) -> Result<Comparison, SpecErrors> {
    compare(spec, share, "congestion")
}
