//! What a verdict rests on. A few figures move a workload's answer and no measurement of this
//! cluster has confirmed them yet: how much gradient traffic hides behind the backward pass, and
//! what share of line rate each transport delivers. Each is set in turn to the lowest value a
//! published measurement of a working cluster reports, and the design is evaluated again, so an
//! answer can say "meets 5 % at overlap 0.5; 18 % with none hidden".

use crate::figure::TargetVerdict;
use crate::links::Conditions;
use crate::report::{Report, WorkloadReport};
use crate::spec::{CalibrationField, DesignSpec, Workload, CALIBRATION_FIELDS};
use crate::units::Slowdown;

/// One figure a verdict may rest on.
#[derive(Clone, Copy)]
pub enum Assumption {
    /// The share of the last micro-batch's backward pass that gradient traffic hides behind.
    Overlap,
    /// A calibration figure with a published pessimistic value.
    Calibration(&'static CalibrationField),
}

impl Assumption {
    /// "gradient traffic hiding behind 0.5 of the last micro-batch's backward pass", "RoCE v2
    /// efficiency at 0.9 of line rate": what workload `i` of `spec` takes for granted.
    pub fn assumed(self, spec: &DesignSpec, i: usize) -> String {
        match self {
            Assumption::Overlap => match spec.workloads.get(i) {
                Some(Workload::Training(t)) => format!(
                    "its gradient traffic hiding behind {} of the last micro-batch's backward pass (an estimate)",
                    t.overlap
                ),
                _ => "its gradient traffic hiding behind the backward pass".to_string(),
            },
            Assumption::Calibration(f) => format!(
                "{} at {} {}",
                f.label,
                (f.get)(&spec.calibration),
                f.unit
            ),
        }
    }

    /// "with none of it hidden", "at 0.65": the pessimistic value, as the sentence reads it.
    pub fn pessimistic(self) -> String {
        match self {
            Assumption::Overlap => "with none of it hidden".to_string(),
            Assumption::Calibration(f) => {
                format!("at {}", f.pessimistic.as_ref().map_or(0.0, |p| p.value))
            }
        }
    }

    /// Where the pessimistic value comes from.
    pub fn source(self) -> &'static str {
        match self {
            Assumption::Overlap => {
                "no public measurement gives the share: PyTorch reduces gradients bucket by bucket as \
                 the backward pass produces them, Li et al., VLDB 2020"
            }
            Assumption::Calibration(f) => f.pessimistic.as_ref().map_or(f.source, |p| p.source),
        }
    }
}

/// `spec` with one assumption at its pessimistic value.
pub struct Variant {
    pub assumption: Assumption,
    pub spec: DesignSpec,
}

/// The assumptions `spec` holds above their pessimistic values, each applied to a copy of it.
/// A figure the design already sets at or below the published low is not pessimised again.
pub fn variants(spec: &DesignSpec) -> Vec<Variant> {
    let mut out = Vec::new();
    let overlaps = spec
        .workloads
        .iter()
        .any(|w| matches!(w, Workload::Training(t) if t.overlap > 0.0));
    if overlaps {
        let mut none = spec.clone();
        for w in &mut none.workloads {
            if let Workload::Training(t) = w {
                t.overlap = 0.0;
            }
        }
        out.push(Variant {
            assumption: Assumption::Overlap,
            spec: none,
        });
    }
    for f in &CALIBRATION_FIELDS {
        let Some(low) = &f.pessimistic else { continue };
        if (f.get)(&spec.calibration) <= low.value {
            continue;
        }
        let mut lowered = spec.clone();
        (f.set)(&mut lowered.calibration, low.value);
        out.push(Variant {
            assumption: Assumption::Calibration(f),
            spec: lowered,
        });
    }
    out
}

/// A workload's answer: a training job's slowdown, or a service's communication per token
/// against its target.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Answer {
    Slowdown(Slowdown),
    PerToken(TargetVerdict),
}

impl Answer {
    fn of(report: &WorkloadReport) -> Option<Answer> {
        match report {
            WorkloadReport::Training(t) => t.slowdown.as_ref().map(|s| Answer::Slowdown(s.value)),
            WorkloadReport::Inference(r) => Some(Answer::PerToken(r.inter_token_verdict())),
            _ => None,
        }
    }

    /// Whether `other` would change a reader's verdict: a target met or missed, or a slowdown
    /// half a point or more apart, or a time a tenth or more apart.
    fn differs_materially(self, other: Answer) -> bool {
        match (self, other) {
            (Answer::Slowdown(a), Answer::Slowdown(b)) => (a.percent() - b.percent()).abs() >= 0.5,
            (Answer::PerToken(a), Answer::PerToken(b)) => {
                a.meets != b.meets
                    || (a.value.seconds() - b.value.seconds()).abs()
                        >= 0.1 * a.value.seconds().abs()
            }
            _ => true,
        }
    }

    /// The figure alone: "1.7 %", "59.4 ms".
    fn value(self) -> String {
        match self {
            Answer::Slowdown(s) => s.to_string(),
            Answer::PerToken(v) => v.value.to_string(),
        }
    }

    fn what(self) -> &'static str {
        match self {
            Answer::Slowdown(_) => "its slowdown against an ideal network",
            Answer::PerToken(_) => "its communication per token",
        }
    }
}

/// A workload's answer that moves with one assumption.
pub struct Moved {
    /// The workload's index in the design.
    pub workload: usize,
    /// What the answer takes for granted, in words.
    pub assumed: String,
    /// The pessimistic value as the sentence reads it, and its source.
    pub pessimistic: String,
    pub source: &'static str,
    pub at_assumed: Answer,
    pub at_pessimistic: Answer,
}

impl Moved {
    /// "“70B serving” rests on RoCE v2 efficiency at 0.9 of line rate: its communication per
    /// token is 47.8 ms at that value, 59.4 ms at 0.65, against its 100 ms target, which it meets
    /// either way (source)." A training job is held to `slowdown_target` (percent) where a
    /// search sets one.
    pub fn sentence(&self, name: &str, slowdown_target: Option<f64>) -> String {
        let (a, b) = (self.at_assumed, self.at_pessimistic);
        let verdict = match (a, b) {
            (Answer::PerToken(x), Answer::PerToken(y)) => {
                Some((format!("its {} target", x.target), x.meets, y.meets))
            }
            (Answer::Slowdown(x), Answer::Slowdown(y)) => slowdown_target.map(|t| {
                (
                    format!("the {} % target", crate::units::rounded(t)),
                    x.percent() <= t,
                    y.percent() <= t,
                )
            }),
            _ => None,
        };
        let against = verdict.map_or(String::new(), |(target, before, after)| {
            let outcome = match (before, after) {
                (true, true) => "which it meets either way",
                (true, false) => "which it would then miss",
                (false, false) => "which it misses either way",
                (false, true) => "which it misses at that value",
            };
            format!(", against {target}, {outcome}")
        });
        format!(
            "“{name}” rests on {}: {} is {} at that value, {} {}{against} ({}).",
            self.assumed,
            a.what(),
            a.value(),
            b.value(),
            self.pessimistic,
            self.source
        )
    }
}

/// Every workload answer of `spec` (whose report is `report`) that an assumption at its
/// pessimistic value would change materially.
pub fn moved(spec: &DesignSpec, report: &Report) -> Vec<Moved> {
    let mut out = Vec::new();
    for v in variants(spec) {
        let Ok(pessimistic) = crate::evaluate::evaluate_workloads(&v.spec, Conditions::NORMAL)
        else {
            continue;
        };
        let answers = report.workloads.iter().zip(&pessimistic);
        for (i, (a, b)) in answers.enumerate() {
            let (Some(a), Some(b)) = (Answer::of(a), Answer::of(b)) else {
                continue;
            };
            if a.differs_materially(b) {
                out.push(Moved {
                    workload: i,
                    assumed: v.assumption.assumed(spec, i),
                    pessimistic: v.assumption.pessimistic(),
                    source: v.assumption.source(),
                    at_assumed: a,
                    at_pessimistic: b,
                });
            }
        }
    }
    out.sort_by_key(|m| m.workload);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::examples;

    fn spec(json: &str) -> DesignSpec {
        DesignSpec::from_json(json).unwrap()
    }

    #[test]
    fn a_tcp_fabric_rests_on_its_efficiency_and_is_slower_at_the_published_low() {
        let mut s = spec(examples::SEVENTY_B_TRAINING);
        s.fabrics[0].technology = crate::Technology::Tcp100;
        s.fabrics[0].switch = None;
        let report = crate::evaluate(&s).unwrap();
        let moved = moved(&s, &report);
        let tcp = moved
            .iter()
            .find(|m| m.assumed == "TCP efficiency at 0.6 of line rate")
            .expect("the TCP fabric's answer moves with its efficiency");
        let (Answer::Slowdown(a), Answer::Slowdown(b)) = (tcp.at_assumed, tcp.at_pessimistic)
        else {
            panic!("a training job's answer is its slowdown");
        };
        assert!(b.factor() > a.factor(), "{a} at 0.6, {b} at 0.32");
        let sentence = tcp.sentence("Llama 3 70B pre-training", Some(1.0));
        assert!(
            sentence.starts_with("“Llama 3 70B pre-training” rests on TCP efficiency at 0.6 of line rate: its slowdown against an ideal network is "),
            "{sentence}"
        );
        assert!(
            sentence.contains(&format!("{b} at 0.32, against the 1 % target")),
            "{sentence}"
        );
        assert!(sentence.contains("NVIDIA/nccl #450"), "{sentence}");
    }

    #[test]
    fn an_assumption_already_at_its_published_low_is_not_lowered_again() {
        let mut s = spec(examples::SEVENTY_B_TRAINING);
        s.calibration.roce_efficiency = 0.6;
        assert!(variants(&s).iter().all(|v| !matches!(
            v.assumption,
            Assumption::Calibration(f) if f.field == "roce_efficiency"
        )));
        assert!(variants(&s).iter().any(|v| matches!(
            v.assumption,
            Assumption::Calibration(f) if f.field == "tcp_efficiency"
        )));
    }

    #[test]
    fn overlap_zero_is_the_pessimistic_overlap_and_changes_only_the_overlap() {
        let s = spec(examples::SEVENTY_B_TRAINING);
        let v = variants(&s);
        let overlap = v
            .iter()
            .find(|v| matches!(v.assumption, Assumption::Overlap))
            .unwrap();
        let mut expected = s.clone();
        for w in &mut expected.workloads {
            if let Workload::Training(t) = w {
                t.overlap = 0.0;
            }
        }
        assert_eq!(overlap.spec, expected);
    }

    #[test]
    fn a_design_whose_answers_do_not_move_lists_nothing() {
        // Every training job on InfiniBand within a leaf: the published low of 0.92 moves no
        // slowdown by half a point.
        let s = spec(examples::SEVENTY_B_TRAINING);
        let report = crate::evaluate(&s).unwrap();
        assert!(moved(&s, &report)
            .iter()
            .all(|m| !m.assumed.starts_with("InfiniBand efficiency")));
    }
}
