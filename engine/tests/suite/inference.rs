//! Tensor-parallel inference: one quantity, communication per token, is held against the
//! target inter-token latency, and every place that speaks of the target quotes it.

use crate::common;

use common::*;
use engine::*;

fn serving(nodes: u32, inference: Inference, technology: Technology) -> DesignSpec {
    let mut f = fabric("inference", Role::Inference, technology);
    f.ports_per_node = Some(1);
    design(
        dgx_h100(nodes),
        vec![Workload::Inference(inference)],
        vec![f],
    )
}

fn seventy_b_over_two_nodes_at_25g(target_ms: f64) -> Report {
    let mut w = tp_inference(2, 64);
    w.target_inter_token_ms = Millis::new(target_ms);
    evaluate(&serving(4, w, Technology::Tcp25)).unwrap()
}

#[test]
fn the_inter_token_finding_quotes_exactly_the_figure_compared_with_the_target() {
    let report = seventy_b_over_two_nodes_at_25g(5.0);
    let r = inference_report(&report);
    let verdict = r.inter_token_verdict();
    assert_eq!(verdict.value, r.communication_per_token.value);
    assert_eq!(verdict.target, r.target_inter_token);
    assert!(!verdict.meets && !r.meets_target);
    assert_ne!(
        r.network_added_per_token.value.to_string(),
        r.communication_per_token.value.to_string(),
        "the test needs the two figures to read differently"
    );
    let finding = report
        .findings
        .iter()
        .find(|f| f.rule == "inter-token-latency")
        .expect("an inter-token finding");
    assert!(
        finding
            .message
            .contains(&r.communication_per_token.value.to_string()),
        "{}",
        finding.message
    );
    assert!(finding.message.contains(&r.target_inter_token.to_string()));
    assert!(!finding
        .message
        .contains(&r.network_added_per_token.value.to_string()));
    assert_eq!(report.headline.worst_inter_token, Some(verdict));
}

#[test]
fn meeting_the_target_means_communication_per_token_fits_in_it() {
    for target_ms in [1.0, 5.0, 50.0, 500.0, 5000.0] {
        let report = seventy_b_over_two_nodes_at_25g(target_ms);
        let r = inference_report(&report);
        assert_eq!(
            r.meets_target,
            r.communication_per_token.value <= r.target_inter_token,
            "{target_ms} ms"
        );
        assert_eq!(r.meets_target, r.inter_token_verdict().meets);
        assert_eq!(
            report
                .findings
                .iter()
                .any(|f| f.rule == "inter-token-latency"),
            !r.meets_target,
            "{target_ms} ms"
        );
    }
}

#[test]
fn a_verdict_reads_as_the_value_of_the_target_and_whether_it_is_over() {
    let over = TargetVerdict::new(Seconds::from_millis(9.17), Seconds::from_millis(5.0));
    assert_eq!(over.to_string(), "9.17 ms of 5.00 ms target — over");
    assert!(!over.meets);
    assert!(over.margin().seconds() < 0.0);
    let within = TargetVerdict::new(Seconds::from_millis(4.0), Seconds::from_millis(5.0));
    assert_eq!(within.to_string(), "4.00 ms of 5.00 ms target — within");
    assert!((within.margin().as_millis() - 1.0).abs() < 1e-9);
}

#[test]
fn replicas_default_to_as_many_tensor_parallel_groups_as_the_nodes_hold() {
    let report = evaluate(&serving(9, tp_inference(2, 64), Technology::IbNdr)).unwrap();
    assert_eq!(inference_report(&report).replicas, 4);
}

#[test]
fn the_replicas_the_spec_gives_are_reported() {
    let mut w = tp_inference(2, 64);
    w.replicas = Some(3);
    let report = evaluate(&serving(8, w, Technology::IbNdr)).unwrap();
    assert_eq!(inference_report(&report).replicas, 3);
}

#[test]
fn fewer_replicas_put_proportionally_less_traffic_on_the_fabric() {
    let required = |replicas: Option<u32>| {
        let mut w = tp_inference(2, 64);
        w.replicas = replicas;
        let report = evaluate(&serving(8, w, Technology::IbNdr)).unwrap();
        report.fabrics[0].tiers[0].required.bytes_per_second()
    };
    let all = required(None);
    let one = required(Some(1));
    assert!(all > 0.0);
    assert!((all / one - 4.0).abs() < 1e-9, "{all} vs {one}");
}

#[test]
fn more_replicas_than_the_nodes_hold_are_refused_with_the_arithmetic() {
    let mut w = tp_inference(2, 64);
    w.replicas = Some(3);
    let errors = serving(4, w, Technology::IbNdr).validate().unwrap_err();
    let e = errors.for_path("workloads[0].replicas").expect("an error");
    assert_eq!(
        e.reason,
        "3 replicas × 2 nodes each need 6 nodes but the cluster has 4"
    );
}

#[test]
fn zero_replicas_are_refused() {
    let mut w = tp_inference(2, 64);
    w.replicas = Some(0);
    let errors = serving(4, w, Technology::IbNdr).validate().unwrap_err();
    assert_eq!(
        errors.for_path("workloads[0].replicas").unwrap().reason,
        "must be at least 1"
    );
}

#[test]
fn a_spec_without_replicas_loads_and_writes_none() {
    let spec = DesignSpec::from_json(examples::SEVENTY_B_INFERENCE_400G).unwrap();
    assert!(!spec.to_json().contains("replicas"));
    let mut value: serde_json::Value = serde_json::from_str(&spec.to_json()).unwrap();
    value["workloads"][0]["replicas"] = 1.into();
    let read = DesignSpec::from_value(value).unwrap();
    let Workload::Inference(i) = &read.workloads[0] else {
        panic!("an inference workload")
    };
    assert_eq!(i.replicas, Some(1));
}

#[test]
fn a_report_stored_before_verdicts_replicas_and_worked_formulas_still_loads() {
    let report = seventy_b_over_two_nodes_at_25g(5.0);
    let mut value = serde_json::to_value(&report).unwrap();
    value["headline"]
        .as_object_mut()
        .unwrap()
        .remove("worst_inter_token");
    let w = value["workloads"][0].as_object_mut().unwrap();
    w.remove("replicas");
    for figure in w.values_mut().filter(|v| v.get("formula").is_some()) {
        figure.as_object_mut().unwrap().remove("worked");
    }
    let old: Report = serde_json::from_value(value).unwrap();
    let r = inference_report(&old);
    assert_eq!(r.replicas, 0);
    assert_eq!(r.communication_per_token.worked, None);
    assert_eq!(old.headline.worst_inter_token, None);
    // The verdict needs nothing the old report lacks.
    assert!(!r.inter_token_verdict().meets);
}
