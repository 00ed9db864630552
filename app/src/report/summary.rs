//! The executive summary: what is built, what it costs and draws, what binds, the risks, and
//! the alternatives considered with their cost and effect. It decides; the sections after it
//! show the work.

use super::blocks::{findings_block, heading, note, paragraph, table};
use super::Block;
use crate::components::headline_figures;
use crate::money::{usd, watts};
use crate::words::{counted, number};
use engine::floor::FloorReport;
use engine::studies::TechnologyPoint;
use engine::{DesignSpec, Finding, Report, Severity, Workload};

/// One sentence per fabric: its technology, role, topology and size.
fn what_is_built(report: &Report) -> Vec<String> {
    report
        .fabrics
        .iter()
        .map(|f| {
            format!(
                "Fabric {} ({} fabric): {} with {}, {}; {}, {}; it carries {}.",
                f.name,
                f.role.label(),
                f.technology.label(),
                counted(f.plan.switches(), "switch", "switches"),
                format_args!("{}: {}", f.plan.layout.label(), f.plan.reason),
                counted(f.cable_count(), "cable", "cables"),
                counted(f.transceivers, "transceiver", "transceivers"),
                if f.workloads.is_empty() {
                    "no workload".to_string()
                } else {
                    f.workloads.join(", ")
                }
            )
        })
        .collect()
}

/// The assumptions the workloads' answers rest on, each with the answer at its published low.
fn rests_on(spec: &DesignSpec, report: &Report) -> Vec<String> {
    engine::sensitivity::moved(spec, report)
        .iter()
        .map(|m| m.sentence(spec.workloads[m.workload].name(), None))
        .collect()
}

/// The tier with the least headroom in the whole design, and what crosses it.
fn what_binds(report: &Report) -> String {
    let Some(tightest) = report.tightest_tier() else {
        return "No tier of any fabric carries traffic between nodes: nothing in the network binds."
            .into();
    };
    let engine::Tightest {
        fabric: f,
        tier: t,
        ratio,
        binding,
    } = tightest;
    let verdict = match binding {
        engine::Binding::Short => "short of what its workloads need: it binds",
        engine::Binding::First => "tight: it binds first as the workloads grow",
        engine::Binding::Ample => "ample: the network does not bind",
    };
    format!(
        "The tightest tier is {} of fabric {}: {} available for {} required ({ratio}), {verdict}. It carries {}.",
        t.tier,
        f.name,
        t.available,
        t.required,
        if f.workloads.is_empty() {
            "no workload".to_string()
        } else {
            f.workloads.join(", ")
        }
    )
}

/// Floor findings of one rule named in the summary; the rest are counted.
const RACKS_NAMED_PER_RULE: usize = 3;

/// The risks: findings counted by severity.
fn risks(findings: &[&Finding]) -> String {
    let count = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
    let (critical, warnings, recommendations) = (
        count(Severity::Critical),
        count(Severity::Warning),
        count(Severity::Recommendation),
    );
    if critical + warnings + recommendations == 0 {
        return "The engine raised no critical finding, warning or recommendation.".into();
    }
    format!(
        "{}, {} and {}; the critical ones first:",
        counted(critical as u64, "critical finding", "critical findings"),
        counted(warnings as u64, "warning", "warnings"),
        counted(recommendations as u64, "recommendation", "recommendations"),
    )
}

/// The other technologies for the workload the design is judged by, each with the network's
/// cost and the workload's communication (the dashboard's technology comparison).
fn alternatives(
    blocks: &mut Vec<Block>,
    spec: &DesignSpec,
    report: &Report,
    compared: Option<&(usize, Vec<TechnologyPoint>)>,
) {
    let Some((judged, points)) = compared else {
        blocks.push(paragraph(
            "No training or inference workload: no alternative technology was compared.",
        ));
        return;
    };
    let judged = &spec.workloads[*judged];
    let per_step = matches!(judged, Workload::Training(_));
    let current = spec
        .fabrics
        .iter()
        .find(|f| f.name == judged.fabric())
        .map(|f| f.technology);
    let rows = points
        .iter()
        .map(|p| {
            let difference = p.against(report);
            let against = if Some(p.technology) == current {
                "this design".to_string()
            } else if difference.dollars() >= 0.0 {
                format!("+{}", usd(difference))
            } else {
                format!("−{}", usd(difference * -1.0))
            };
            vec![
                p.technology.label().to_string(),
                engine::catalog::switch(&p.switch)
                    .map_or_else(|| p.switch.clone(), |s| s.short_name().to_string()),
                p.communication.to_string(),
                usd(p.network_cost_usd),
                against,
                p.critical_findings.to_string(),
            ]
        })
        .collect();
    blocks.push(Block::Table(table(
        format!(
            "Alternatives considered: {} on each technology",
            judged.name()
        ),
        &[
            ("Technology", false),
            ("Switch", false),
            (
                if per_step {
                    "Communication per step"
                } else {
                    "Communication per token"
                },
                true,
            ),
            ("Network cost", true),
            ("Against this design", true),
            ("Critical findings", true),
        ],
        rows,
    )));
    blocks.push(note(
        "Each other technology runs at its own port speed on the switch the planner chooses for \
         it: the least-cost one in the catalog that builds the fabric, with uplinks for the ports \
         in use.",
    ));
}

pub fn summary(
    blocks: &mut Vec<Block>,
    spec: &DesignSpec,
    report: &Report,
    floor: &FloorReport,
    compared: Option<&(usize, Vec<TechnologyPoint>)>,
) {
    // What the design is over its life ([`Report::over_its_life`]).
    let (failures, goodput) = (&report.failures, &report.goodput);
    blocks.push(heading(1, "summary", "Executive summary"));
    blocks.push(Block::Metrics {
        items: headline_figures(&report.headline)
            .into_iter()
            .map(|(_, label, value, meaning)| (label.to_string(), value, meaning.to_string()))
            .collect(),
    });
    blocks.push(heading(2, "summary-built", "What is built"));
    for sentence in what_is_built(report) {
        blocks.push(paragraph(sentence));
    }
    let t = report.network();
    blocks.push(paragraph(format!(
        "The network for {} GPUs costs {} ({} per GPU) and draws {} ({} per GPU) as placed on its floor.",
        number(report.cluster.gpus),
        usd(t.cost_usd),
        usd(t.cost_per_gpu_usd),
        watts(t.power_w),
        watts(t.power_per_gpu_w),
    )));
    blocks.push(paragraph(super::floor::cabling_as_placed(floor)));
    blocks.push(heading(2, "summary-binds", "What binds"));
    blocks.push(paragraph(what_binds(report)));
    for sentence in rests_on(spec, report) {
        blocks.push(paragraph(sentence));
    }
    blocks.push(heading(2, "findings", "Risks"));
    // The design's findings and its floor's (racks over their power budget or the air limit).
    let floor_findings = &floor.findings;
    // And the fabrics one failure cuts mostly off.
    let failure_findings = engine::failures::domain_findings(report, failures);
    let mut findings: Vec<&Finding> = report
        .findings
        .iter()
        .chain(floor_findings)
        .chain(&failure_findings)
        .collect();
    findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
    blocks.push(paragraph(risks(&findings)));
    // A floor can raise the same finding for hundreds of racks: the summary names the first
    // few of each rule, and the floor section lists them all.
    let mut shown: Vec<(&str, usize)> = Vec::new();
    let mut more = 0;
    findings.retain(|f| {
        let from_floor = floor_findings.iter().any(|g| std::ptr::eq(g, *f));
        let seen = match shown.iter_mut().find(|(rule, _)| *rule == f.rule) {
            Some((_, n)) => n,
            None => {
                shown.push((&f.rule, 0));
                &mut shown.last_mut().expect("just pushed").1
            }
        };
        *seen += 1;
        let keep = !from_floor || *seen <= RACKS_NAMED_PER_RULE;
        more += usize::from(!keep);
        keep
    });
    if !findings.is_empty() {
        blocks.push(findings_block(findings));
    }
    if more > 0 {
        blocks.push(paragraph(format!(
            "{more} more racks have the same findings; Floor, racks and power lists every one."
        )));
    }
    if let Some(worst) = super::failures::worst_failure(failures) {
        blocks.push(paragraph(worst));
    }
    for sentence in goodput.iter().filter_map(super::goodput::in_a_sentence) {
        blocks.push(paragraph(sentence));
    }
    if let Some(sentence) = report
        .phases
        .as_ref()
        .and_then(super::phases::in_a_sentence)
    {
        blocks.push(paragraph(sentence));
    }
    blocks.push(heading(
        2,
        "summary-alternatives",
        "Alternatives considered",
    ));
    alternatives(blocks, spec, report, compared);
}

#[cfg(test)]
mod tests {
    use super::super::{report_document, Revision};
    use super::*;

    fn revision() -> Revision {
        Revision {
            number: 1,
            latest: 1,
            saved: "2026-12-04".into(),
            engine_version: "test".into(),
            link: "/d/x/r/1".into(),
            asbuilt: Vec::new(),
            staleness: crate::report::Staleness::Current,
        }
    }

    /// The paragraphs of the summary's "What binds".
    fn what_binds(document: &super::super::ReportDocument) -> Vec<&str> {
        document
            .blocks
            .iter()
            .skip_while(|b| !matches!(b, Block::Heading { id, .. } if id == "summary-binds"))
            .skip(1)
            .take_while(|b| !matches!(b, Block::Heading { .. }))
            .filter_map(|b| match b {
                Block::Paragraph { text } => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_service_on_roce_states_the_efficiency_it_rests_on_and_its_time_at_the_published_low() {
        let spec = DesignSpec::from_json(engine::examples::SEVENTY_B_INFERENCE_400G).unwrap();
        let placed = engine::evaluate_placed(&spec).unwrap();
        let document = report_document(&spec, &placed, &revision());
        let binds = what_binds(&document);
        let roce = binds
            .iter()
            .find(|p| p.contains("rests on RoCE v2 efficiency at 0.9 of line rate"))
            .unwrap_or_else(|| panic!("{binds:?}"));
        assert!(
            roce.contains("at 0.65, against its 100 ms target")
                && roce.contains("NVIDIA/nccl #700"),
            "{roce}"
        );
    }

    #[test]
    fn a_rack_over_its_power_budget_is_among_the_summarys_risks() {
        let mut spec = DesignSpec::from_json(engine::examples::SUPERPOD_4SU).unwrap();
        // Four DGX H100 of about 10 kW each stand in a compute rack: far over 15 kW.
        spec.floor.rack_power_kw = engine::Kilowatts::new(15.0);
        let placed = engine::evaluate_placed(&spec).unwrap();
        let document = report_document(&spec, &placed, &revision());
        let risks = document
            .blocks
            .iter()
            .skip_while(|b| !matches!(b, Block::Heading { id, .. } if id == "findings"))
            .find_map(|b| match b {
                Block::Findings { items } => Some(items),
                _ => None,
            })
            .expect("the summary lists its risks");
        assert!(
            risks
                .iter()
                .any(|(_, _, message)| message.contains("Rack R01-01")),
            "{risks:?}"
        );
        // Every compute rack is over: three are named, the rest counted.
        let over_budget = risks
            .iter()
            .filter(|(_, _, message)| message.contains("over its 15 kW budget"))
            .count();
        assert_eq!(over_budget, RACKS_NAMED_PER_RULE, "{risks:?}");
        assert!(document.blocks.iter().any(|b| matches!(
            b,
            Block::Paragraph { text } if text.ends_with("more racks have the same findings; Floor, racks and power lists every one.")
        )));
    }
}
