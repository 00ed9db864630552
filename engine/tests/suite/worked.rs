//! Every main figure shows its formula worked with the design's values, and the worked line
//! ends in the very number the report shows.

use crate::common;

use common::*;
use engine::*;
use std::fmt::Display;

/// The figure's worked line, checked to end in "= <value as displayed>".
fn worked<T: Display>(name: &str, figure: &Figure<T>) -> String {
    let worked = figure
        .worked
        .as_deref()
        .unwrap_or_else(|| panic!("{name} has no worked formula"));
    let (_, last) = worked
        .rsplit_once(" = ")
        .unwrap_or_else(|| panic!("{name}: {worked:?} has no result"));
    assert_eq!(last, figure.value.to_string(), "{name}: {worked}");
    worked.to_string()
}

#[test]
fn a_training_steps_figures_work_out_to_the_values_shown() {
    let spec = DesignSpec::from_json(examples::SUPERPOD_4SU).unwrap();
    let report = evaluate(&spec).unwrap();
    let t = training_report(&report);
    let gradients = worked("gradient bytes per GPU", &t.gradient_bytes_per_gpu);
    assert!(gradients.contains("405 billion parameters"), "{gradients}");
    let sent = worked("bytes per GPU per step", &t.bytes_per_gpu_per_step);
    assert!(
        sent.contains(&t.gradient_bytes_per_gpu.value.to_string()),
        "{sent}"
    );
    let compute = worked("compute time", &t.compute_time);
    assert!(compute.contains("TFLOP/s"), "{compute}");
    worked("communication time", &t.communication_time);
    worked("exposed communication", &t.exposed_communication);
    let step = worked("step time", &t.step_time);
    assert_eq!(
        step,
        format!(
            "{} + {} = {}",
            t.compute_time.value, t.exposed_communication.value, t.step_time.value
        )
    );
    worked("ideal step time", &t.ideal_step_time);
    worked("slowdown", t.slowdown.as_ref().expect("a slowdown"));
}

#[test]
fn a_ring_allreduce_of_the_gradients_shows_its_two_passes() {
    let spec = design(
        dgx_h100(16),
        vec![Workload::Training(training(
            llama_70b(),
            16,
            8,
            1,
            Compute::Mfu(0.4),
        ))],
        vec![fabric("compute", Role::Compute, Technology::IbNdr)],
    );
    let report = evaluate(&spec).unwrap();
    let t = training_report(&report);
    assert_eq!(
        worked("bytes per GPU per step", &t.bytes_per_gpu_per_step),
        "2 × (16 − 1)/16 × 17.5 GB (ring) = 32.8 GB"
    );
}

#[test]
fn an_inference_tokens_figures_work_out_to_the_values_shown() {
    let spec = DesignSpec::from_json(examples::SEVENTY_B_INFERENCE_400G).unwrap();
    let report = evaluate(&spec).unwrap();
    let i = inference_report(&report);
    let bytes = worked("AllReduce bytes", &i.allreduce_bytes);
    assert!(bytes.contains("8,192 hidden"), "{bytes}");
    worked("per-layer time", &i.per_layer_time);
    let per_token = worked("communication per token", &i.communication_per_token);
    assert!(per_token.starts_with("80 layers × "), "{per_token}");
    let added = worked("network added per token", &i.network_added_per_token);
    assert!(
        added.starts_with(&i.communication_per_token.value.to_string()),
        "{added}"
    );
}

#[test]
fn a_storage_workloads_figures_work_out_to_the_values_shown() {
    let spec = DesignSpec::from_json(examples::SUPERPOD_4SU).unwrap();
    let report = evaluate(&spec).unwrap();
    let s = report
        .workloads
        .iter()
        .find_map(|w| match w {
            WorkloadReport::Storage(s) => Some(s),
            _ => None,
        })
        .expect("a storage workload");
    worked("read needed", &s.read_needed);
    worked("read provisioned", &s.read_provisioned);
    let available = worked("read available", &s.read_available);
    assert!(available.contains("storage system"), "{available}");
    worked("read headroom", &s.read_headroom);
    worked("checkpoint size", &s.checkpoint_size);
    let write = worked("checkpoint write time", &s.checkpoint_write_time);
    assert!(
        write.starts_with(&s.checkpoint_size.value.to_string()),
        "{write}"
    );
    worked("checkpoint overhead", &s.checkpoint_overhead);
}

#[test]
fn a_figure_without_a_worked_formula_writes_none_in_json() {
    let figure = Figure::new(Seconds::new(1.0), "f", "s");
    let json = serde_json::to_value(&figure).unwrap();
    assert!(json.get("worked").is_none());
    let worked = figure.worked("0.5 s × 2");
    assert_eq!(worked.worked.as_deref(), Some("0.5 s × 2 = 1.00 s"));
}

#[test]
fn an_evaluation_read_for_its_values_writes_no_worked_line_and_the_next_one_does() {
    for (name, text) in examples::ALL {
        let spec = DesignSpec::from_json(text).unwrap();
        let full = evaluate_unplaced(&spec, Conditions::NORMAL).unwrap();
        let values = evaluate_workloads(&spec, Conditions::NORMAL).unwrap();
        let json = serde_json::to_string(&values).unwrap();
        assert!(!json.contains("\"worked\""), "{name}: {json}");
        assert_eq!(values.len(), full.workloads.len(), "{name}");
        for (v, f) in values.iter().zip(&full.workloads) {
            assert_eq!(v.headline_time(), f.headline_time(), "{name}");
        }
        let after = evaluate_unplaced(&spec, Conditions::NORMAL).unwrap();
        assert_eq!(after, full, "{name}: worked lines written again after it");
        assert!(!after.fabrics[0].plan.reason.is_empty(), "{name}");
    }
}
