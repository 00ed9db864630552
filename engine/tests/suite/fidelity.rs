//! Collectives at every message size, recomputation and Ethernet multipath, through the whole
//! evaluation.

use crate::common;

use common::*;
use engine::*;

fn tp_collective(t: &TrainingReport) -> &CollectiveReport {
    t.collectives
        .iter()
        .find(|c| c.what.starts_with("tensor"))
        .unwrap()
}

fn train(recompute: Recompute) -> TrainingReport {
    let mut t = training(llama_70b(), 16, 8, 1, Compute::Mfu(0.4));
    t.recompute = recompute;
    let spec = design(
        dgx_h100(16),
        vec![Workload::Training(t)],
        vec![fabric("compute", Role::Compute, Technology::IbNdr)],
    );
    training_report(&evaluate(&spec).unwrap()).clone()
}

#[test]
fn full_recomputation_repeats_the_forward_tensor_parallel_allreduces_and_a_third_of_compute() {
    let none = train(Recompute::None);
    let full = train(Recompute::Full);
    let ratio = tp_collective(&full).time.seconds() / tp_collective(&none).time.seconds();
    assert!((ratio - 1.5).abs() < 1e-9, "{ratio}");
    let compute = full.compute_time.value.seconds() / none.compute_time.value.seconds();
    assert!((compute - 4.0 / 3.0).abs() < 1e-9, "{compute}");
    assert!(full.step_time.value.seconds() > none.step_time.value.seconds());
}

// Selective recomputation of a 70B model (s = h = 8192): (s/18h)/(1 + s/6h) = 4.76 % more
// compute, no extra collectives [Korthikanti et al., arXiv:2205.05198].
#[test]
fn selective_recomputation_adds_only_the_attention_core_compute() {
    let none = train(Recompute::None);
    let selective = train(Recompute::Selective);
    assert_eq!(tp_collective(&selective).time, tp_collective(&none).time);
    let compute = selective.compute_time.value.seconds() / none.compute_time.value.seconds();
    assert!(
        (compute - (1.0 + (1.0 / 18.0) / (7.0 / 6.0))).abs() < 1e-9,
        "{compute}"
    );
}

#[test]
fn a_spec_without_recompute_reads_as_none_and_writes_it_back() {
    let spec = DesignSpec::from_json(examples::SEVENTY_B_TRAINING).unwrap();
    let Workload::Training(t) = &spec.workloads[0] else {
        panic!()
    };
    assert_eq!(t.recompute, Recompute::None);
    let json = serde_json::to_string(&spec).unwrap();
    assert!(json.contains("\"recompute\":\"none\""));
}

#[test]
fn every_collective_names_its_algorithm_and_protocol() {
    let t = train(Recompute::None);
    let tp = tp_collective(&t);
    assert_eq!(tp.algorithm, Algorithm::Nvls);
    assert_eq!(tp.label(), "NVLink SHARP (NVLS) / Simple");
    let mut f = fabric("inference", Role::Inference, Technology::IbNdr);
    f.ports_per_node = Some(1);
    let spec = design(
        dgx_h100(4),
        vec![Workload::Inference(tp_inference(4, 1))],
        vec![f],
    );
    let report = evaluate(&spec).unwrap();
    let i = inference_report(&report);
    // One decode token: 16 KiB AllReduces, latency-bound, so a low-latency protocol.
    assert_ne!(i.decode_collective.protocol, Protocol::Simple);
    assert!(i.decode_collective.label().contains(" / "));
}

fn roce_fabric_of_32_nodes(qps: u32, balancing: LoadBalancing) -> Report {
    let mut spec = design(
        dgx_h100(32),
        vec![Workload::Training(training(
            llama_70b(),
            32,
            8,
            1,
            Compute::Mfu(0.4),
        ))],
        vec![fabric("compute", Role::Compute, Technology::Roce400)],
    );
    spec.fabrics[0].topology = Topology::TwoTier;
    spec.calibration.qps_per_connection = qps;
    spec.calibration.ethernet_load_balancing = balancing;
    evaluate(&spec).unwrap()
}

fn leaf_spine(report: &Report) -> &TierHeadroom {
    report.fabrics[0]
        .tiers
        .iter()
        .find(|t| t.tier == "leaf-spine")
        .unwrap()
}

#[test]
fn ecmp_collisions_cut_the_leaf_spine_bandwidth_and_raise_a_finding_with_its_remedy() {
    let ecmp = roce_fabric_of_32_nodes(1, LoadBalancing::Ecmp);
    let sprayed = roce_fabric_of_32_nodes(1, LoadBalancing::PacketSpraying);
    let share = leaf_spine(&ecmp).available.bytes_per_second()
        / leaf_spine(&sprayed).available.bytes_per_second();
    let plan = &ecmp.fabrics[0].plan;
    let expected =
        ecmp::delivered_share(f64::from(plan.leaf_downlinks), f64::from(plan.leaf_uplinks));
    assert!((share - expected).abs() < 1e-9, "{share} vs {expected}");
    assert!(share < 0.7, "{share}");
    let finding = ecmp
        .findings
        .iter()
        .find(|f| f.rule == "ecmp-collisions")
        .unwrap();
    assert!(finding.message.contains("NCCL_IB_QPS_PER_CONNECTION"));
    assert!(!sprayed.findings.iter().any(|f| f.rule == "ecmp-collisions"));
    // Four queue pairs per connection recover most of it and silence the finding.
    let four = roce_fabric_of_32_nodes(4, LoadBalancing::Ecmp);
    assert!(
        leaf_spine(&four).available.bytes_per_second()
            / leaf_spine(&sprayed).available.bytes_per_second()
            > 0.97
    );
    assert!(!four.findings.iter().any(|f| f.rule == "ecmp-collisions"));
    // The data-parallel ring crosses the spine, so it slows down too.
    let dp = |r: &Report| training_report(r).collectives[0].time.seconds();
    assert!(dp(&ecmp) > dp(&sprayed) * 1.2);
}

#[test]
fn infiniband_routes_adaptively_and_loses_nothing_to_hashing() {
    let mut spec = design(
        dgx_h100(32),
        vec![],
        vec![fabric("compute", Role::Compute, Technology::IbNdr)],
    );
    spec.fabrics[0].topology = Topology::TwoTier;
    let report = evaluate(&spec).unwrap();
    assert!(!report.findings.iter().any(|f| f.rule == "ecmp-collisions"));
}

#[test]
fn new_calibration_values_are_validated_with_their_field_paths() {
    let mut spec = DesignSpec::from_json(examples::SEVENTY_B_TRAINING).unwrap();
    spec.calibration.ll_bandwidth_share = 0.0;
    spec.calibration.nvls_latency_us = Micros::new(f64::NAN);
    spec.calibration.qps_per_connection = 0;
    let errors = evaluate(&spec).unwrap_err();
    let text = errors.to_string();
    for field in [
        "calibration.ll_bandwidth_share",
        "calibration.nvls_latency_us",
        "calibration.qps_per_connection",
    ] {
        assert!(text.contains(field), "{text}");
    }
}

#[test]
fn the_assumptions_list_protocols_nvls_sharp_and_multipath() {
    let spec = DesignSpec::from_json(examples::SEVENTY_B_TRAINING).unwrap();
    let list = assumptions(&spec);
    for subject in [
        "Calibration: LL protocol",
        "Calibration: LL128 protocol",
        "Calibration: NVLink SHARP (NVLS)",
        "Calibration: In-network reduction (SHARP)",
        "Calibration: Ethernet multipath",
    ] {
        assert!(list.iter().any(|a| a.subject == subject), "{subject}");
    }
    assert!(list
        .iter()
        .any(|a| a.subject.starts_with("NVLink SHARP of")));
    let sharp = list
        .iter()
        .find(|a| a.subject.starts_with("In-network reduction of"))
        .unwrap();
    assert!(sharp.source.contains("QM9700"), "{}", sharp.source);
}

#[test]
fn a_report_stored_before_protocols_and_choices_were_reported_still_loads() {
    let spec = DesignSpec::from_json(examples::SEVENTY_B_TRAINING).unwrap();
    let report = evaluate(&spec).unwrap();
    let mut value = serde_json::to_value(&report).unwrap();
    for workload in value["workloads"].as_array_mut().unwrap() {
        let w = workload.as_object_mut().unwrap();
        w.remove("decode_collective");
        w.remove("prefill_collective");
        if let Some(collectives) = w.get_mut("collectives") {
            for c in collectives.as_array_mut().unwrap() {
                c.as_object_mut().unwrap().remove("protocol");
            }
        }
    }
    let old: Report = serde_json::from_value(value).unwrap();
    let WorkloadReport::Training(t) = &old.workloads[0] else {
        panic!()
    };
    assert_eq!(t.collectives[0].protocol, Protocol::Simple);
}

#[test]
fn storage_fabrics_with_many_short_flows_are_not_charged_for_ecmp_collisions() {
    let report = evaluate(&DesignSpec::from_json(examples::HYBRID).unwrap()).unwrap();
    assert!(!report
        .findings
        .iter()
        .any(|f| f.rule == "ecmp-collisions" && f.subject == "storage"));
}
