//! A design's report over its life, and placed on its floor: what one failure of each element
//! takes away, each training job's interruptions and goodput, its growth phases, its tenants'
//! interference and the intervals of its times, each worked out from the report of day one.
//! Above the report and the analyses that read it, so that the report holds their answers
//! without depending on how they are found.

use crate::floor::{FloorReport, LastFloor, Planned, SharedFloors};
use crate::report::{Finding, Report, Severity};
use crate::spec::DesignSpec;
use serde::{Deserialize, Serialize};

impl Report {
    /// This report of `spec` with what one failure of each element takes away, each training
    /// job's interruptions and goodput, its growth phases, its tenants' interference and the
    /// intervals of its times.
    pub fn over_its_life(self, spec: &DesignSpec) -> Report {
        let floor = crate::floor::plan(spec, &self);
        self.over_its_life_on(spec, &floor)
    }

    /// This report with the floor it is placed on.
    pub fn placed_on_floor(self, spec: &DesignSpec) -> PlacedReport {
        let floor = crate::floor::plan(spec, &self);
        PlacedReport {
            report: self,
            floor,
        }
    }

    /// [`Self::over_its_life`] with the design's `floor` already planned, which the report
    /// then does not keep (the caller has it).
    pub fn over_its_life_on(mut self, spec: &DesignSpec, floor: &FloorReport) -> Report {
        self.failures = crate::failures::failures(spec, &self);
        self.goodput = crate::goodput::goodput(spec, &self);
        self.interference = crate::interference::interference(spec, &self);
        self.isolation_costs = crate::tenancy::isolation_cost(spec, &self);
        self.uncertainty = crate::uncertainty::intervals(spec, &self);
        match crate::phases::phases_on(spec, floor) {
            Some(Ok(plan)) => self.phases = Some(plan),
            Some(Err(errors)) => self.findings.extend(errors.iter().map(|e| Finding {
                severity: Severity::Warning,
                rule: "phase-plan".into(),
                subject: phase_named(spec, &e.path),
                message: format!("no phase plan: {}", e.reason),
            })),
            None => {}
        }
        self
    }
}

impl PlacedReport {
    /// This report over the design's life ([`Report::over_its_life`]) on the floor it holds:
    /// what the JSON API and the command line answer.
    pub fn over_its_life(self, spec: &DesignSpec) -> PlacedReport {
        PlacedReport {
            report: self.report.over_its_life_on(spec, &self.floor),
            floor: self.floor,
        }
    }
}

/// `spec` evaluated with the floor its bill is placed on, the floor laid once for both: what
/// [`crate::evaluate`] and [`crate::floor::plan`] give, in about the time of the first.
pub fn evaluate_placed(spec: &DesignSpec) -> Result<PlacedReport, crate::error::SpecErrors> {
    evaluate_placed_keeping(spec, &mut LastFloor::default())
}

/// [`evaluate_placed`], keeping in `last` the floor it lays, so that an evaluation of the same
/// design through it ([`crate::evaluate_reusing`], the planner's) lays none.
pub fn evaluate_placed_keeping(
    spec: &DesignSpec,
    last: &mut LastFloor,
) -> Result<PlacedReport, crate::error::SpecErrors> {
    let (report, laid) = crate::evaluate::evaluate_laid(spec, last)?;
    let floor = crate::floor::plan_on(spec, &report, laid);
    Ok(PlacedReport { report, floor })
}

/// [`evaluate_placed`], the floor and its plan taken from `floors` where a design laid alike
/// was evaluated lately (the same cluster, floor, overrides and what the floor reads of each
/// fabric: an edit of a workload), else laid and kept there: the dashboard of a design being
/// edited, asked for after every edit. The same answer as [`evaluate_placed`], to the bit.
pub fn evaluate_placed_sharing(
    spec: &DesignSpec,
    floors: &SharedFloors,
) -> Result<PlacedReport, crate::error::SpecErrors> {
    let (report, planned) = crate::evaluate::evaluate_planned(spec, floors)?;
    let floor = match planned {
        Planned::Kept(plan) => {
            let mut floor = FloorReport::clone(&plan);
            crate::floor::price(&mut floor, &report, spec.cluster.gpus());
            floor
        }
        Planned::Laid(laid, bills) => {
            let floor = crate::floor::plan_on(spec, &report, *laid);
            if let Some(bills) = bills {
                floors.keep_plan(bills, std::sync::Arc::new(floor.clone()));
            }
            floor
        }
    };
    Ok(PlacedReport { report, floor })
}

/// The growth phase at `path` (`growth.phases[2]`) as a finding names it, by its label.
fn phase_named(spec: &DesignSpec, path: &str) -> String {
    let index = path
        .strip_prefix("growth.phases[")
        .and_then(|rest| rest.split(']').next())
        .and_then(|i| i.parse::<usize>().ok());
    index
        .and_then(|i| spec.growth.as_ref()?.phases.get(i))
        .map_or_else(
            || "Growth plan".to_string(),
            |p| format!("Phase “{}”", p.label),
        )
}

/// A report with the floor its bill is placed on: every rack with its position, contents and
/// power, and the cables by length ([`crate::floor::plan`]). What the JSON API and `report.json`
/// answer; a type of its own, so that the planner's evaluation in the browser carries no floor.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PlacedReport {
    #[serde(flatten)]
    pub report: Report,
    pub floor: FloorReport,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_phase_plan_finding_names_its_phase_by_its_label() {
        let spec = DesignSpec::from_json(crate::examples::SUPERPOD_4SU).unwrap();
        let label = &spec.growth.as_ref().expect("the example grows").phases[1].label;
        assert_eq!(
            phase_named(&spec, "growth.phases[1]"),
            format!("Phase “{label}”")
        );
        assert_eq!(phase_named(&spec, "growth.phases[99]"), "Growth plan");
        assert_eq!(phase_named(&spec, "growth"), "Growth plan");
    }

    /// Every example over its life answers the same whether its floor was laid once, with the
    /// evaluation, or planned again after it.
    #[test]
    fn a_design_over_its_life_is_the_same_on_the_floor_its_evaluation_laid() {
        for (name, example) in crate::examples::ALL {
            let spec = DesignSpec::from_json(example).unwrap();
            let laid_once = evaluate_placed(&spec).unwrap().over_its_life(&spec);
            let report = crate::evaluate(&spec).unwrap();
            let floor = crate::floor::plan(&spec, &report);
            let planned_again = PlacedReport {
                report: report.over_its_life_on(&spec, &floor),
                floor,
            };
            assert_eq!(laid_once, planned_again, "{name}");
        }
    }
}
