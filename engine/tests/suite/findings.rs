//! Findings about workloads that do not follow the cluster they run on, in the words of the
//! form.

use crate::common;

use common::*;
use engine::*;

fn findings_of(spec: &DesignSpec, rule: &str) -> Vec<Finding> {
    evaluate(spec)
        .unwrap()
        .findings
        .into_iter()
        .filter(|f| f.rule == rule)
        .collect()
}

fn storage(samples_per_step: f64) -> Storage {
    Storage {
        name: "data".into(),
        fabric: "storage".into(),
        samples_per_step,
        sample_bytes: Bytes::new(65536.0),
        steps_per_s: PerSecond::new(0.1),
        read_headroom: default_read_headroom(),
        checkpoint: Checkpoint {
            size_gb: Some(Gigabytes::new(1000.0)),
            parameters: None,
            bytes_per_parameter: default_checkpoint_bytes(),
            interval_minutes: Minutes::new(60.0),
            write_budget_s: Seconds::new(120.0),
        },
        system_read_gbytes_per_s: None,
        system_write_gbytes_per_s: None,
    }
}

fn cluster_with(nodes: u32, workloads: Vec<Workload>) -> DesignSpec {
    design(
        dgx_h100(nodes),
        workloads,
        vec![
            fabric("compute", Role::Compute, Technology::IbNdr),
            fabric("storage", Role::Storage, Technology::Roce400),
        ],
    )
}

/// No field paths, catalog keys or spec field names: what the reader sees on the form.
fn reads_like_the_form(message: &str) {
    for word in [
        "workloads[",
        "parallelism.",
        "samples_per_step",
        "global_batch",
        "h100-sxm",
        "_",
    ] {
        assert!(!message.contains(word), "{word:?} in {message}");
    }
}

#[test]
fn training_on_part_of_the_cluster_says_how_many_gpus_and_nodes_it_uses() {
    let t = training(llama_70b(), 32, 8, 1, Compute::Mfu(0.4));
    let spec = cluster_with(64, vec![Workload::Training(t)]);
    let found = findings_of(&spec, "training-partial-cluster");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].severity, Severity::Info);
    assert!(
        found[0]
            .message
            .starts_with("Uses 256 of the cluster's 512 GPUs (32 of 64 nodes)"),
        "{}",
        found[0].message
    );
    reads_like_the_form(&found[0].message);
}

#[test]
fn training_on_the_whole_cluster_raises_no_partition_finding() {
    let t = training(llama_70b(), 64, 8, 1, Compute::Mfu(0.4));
    let spec = cluster_with(64, vec![Workload::Training(t)]);
    assert!(findings_of(&spec, "training-partial-cluster").is_empty());
}

#[test]
fn storage_reading_another_batch_than_training_takes_is_a_warning() {
    let t = training(llama_70b(), 64, 8, 1, Compute::Mfu(0.4));
    let batch = t.global_batch;
    let spec = cluster_with(
        64,
        vec![Workload::Training(t), Workload::Storage(storage(512.0))],
    );
    let found = findings_of(&spec, "storage-batch-mismatch");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].severity, Severity::Warning);
    assert_eq!(found[0].subject, "data");
    assert!(
        found[0].message.starts_with(&format!(
            "Reads 512 samples per step while training 'training' takes a global batch of {batch}"
        )),
        "{}",
        found[0].message
    );
    reads_like_the_form(&found[0].message);
}

#[test]
fn storage_reading_the_global_batch_raises_no_warning() {
    let t = training(llama_70b(), 64, 8, 1, Compute::Mfu(0.4));
    let batch = f64::from(t.global_batch);
    let spec = cluster_with(
        64,
        vec![Workload::Training(t), Workload::Storage(storage(batch))],
    );
    assert!(findings_of(&spec, "storage-batch-mismatch").is_empty());
}

#[test]
fn storage_without_training_on_the_cluster_has_no_batch_to_follow() {
    let spec = cluster_with(4, vec![Workload::Storage(storage(512.0))]);
    assert!(findings_of(&spec, "storage-batch-mismatch").is_empty());
}

#[test]
fn storage_matching_one_of_two_training_jobs_raises_no_warning() {
    let a = training(llama_70b(), 32, 8, 1, Compute::Mfu(0.4));
    let mut b = training(llama_70b(), 16, 8, 1, Compute::Mfu(0.4));
    b.name = "second".into();
    let batch = f64::from(b.global_batch);
    let spec = cluster_with(
        64,
        vec![
            Workload::Training(a),
            Workload::Training(b),
            Workload::Storage(storage(batch)),
        ],
    );
    assert!(findings_of(&spec, "storage-batch-mismatch").is_empty());
}

/// A training job on all 256 GPUs of 32 DGX nodes and an inference service of 4 replicas of one
/// node each on the same fabric book 288 GPUs on 256: the finding gives the numbers and what to
/// add. With the service on 4 nodes of its own, nothing is booked twice.
#[test]
fn gpus_booked_by_two_workloads_are_a_finding_with_the_numbers() {
    let mut serving = tp_inference(1, 256);
    serving.fabric = "compute".into();
    serving.replicas = Some(4);
    let workloads = vec![
        Workload::Training(training(llama_70b(), 32, 8, 1, Compute::Mfu(0.4))),
        Workload::Inference(serving),
    ];
    let compute = || fabric("compute", Role::Compute, Technology::IbNdr);
    let spec = design(dgx_h100(32), workloads.clone(), vec![compute()]);
    let found = findings_of(&spec, "gpus-overbooked");
    assert_eq!(found.len(), 1);
    let message = &found[0].message;
    assert!(
        message.contains("book 288 GPUs on a cluster of 256")
            && message.contains("serving takes 4 × 8 = 32")
            && message.contains("add 4 nodes"),
        "{message}"
    );
    let grown = design(dgx_h100(36), workloads, vec![compute()]);
    assert!(findings_of(&grown, "gpus-overbooked").is_empty());
}

/// Two workloads whose stated starts overlap run on the same GPUs: the finding names both, their
/// nodes and the GPUs counted twice. Started one after the other, nothing is shared.
#[test]
fn workloads_started_on_the_same_nodes_are_a_finding_with_the_nodes_they_share() {
    let mut job = training(llama_70b(), 16, 8, 1, Compute::Mfu(0.4));
    job.first_node = Some(1);
    let mut serving = tp_inference(1, 256);
    serving.fabric = "compute".into();
    serving.replicas = Some(4);
    serving.first_node = Some(15);
    let compute = || fabric("compute", Role::Compute, Technology::IbNdr);
    let spec = design(
        dgx_h100(32),
        vec![
            Workload::Training(job.clone()),
            Workload::Inference(serving.clone()),
        ],
        vec![compute()],
    );
    let found = findings_of(&spec, "gpus-overbooked");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].message.contains("training (nodes 1–16) and serving (nodes 15–18) both run on nodes 15–16: 16 GPUs counted twice"),
        "{}",
        found[0].message
    );
    serving.first_node = Some(17);
    let apart = design(
        dgx_h100(32),
        vec![Workload::Training(job), Workload::Inference(serving)],
        vec![compute()],
    );
    assert!(findings_of(&apart, "gpus-overbooked").is_empty());
}

/// The reference architecture's 16- and 64-SU SuperPODs, asked for rail-optimised, are the
/// rail-optimised three tiers it describes: nothing critical is found in the network.
#[test]
fn a_16_and_a_64_su_superpod_asked_for_rail_optimised_have_no_critical_finding() {
    for nodes in [511, 2047] {
        let mut value: serde_json::Value =
            serde_json::from_str(engine::examples::SUPERPOD_4SU).unwrap();
        value["cluster"]["nodes"] = nodes.into();
        value.as_object_mut().unwrap().remove("growth");
        // The network alone: the example's job is sized for 127 nodes.
        value["workloads"] = serde_json::json!([]);
        let spec = DesignSpec::from_value(value).unwrap();
        let report = evaluate(&spec).unwrap();
        assert_eq!(
            report.fabrics[0].plan.layout,
            Layout::RailOptimizedThreeTier
        );
        let critical: Vec<&Finding> = report
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Critical)
            .collect();
        assert!(critical.is_empty(), "{nodes} nodes: {critical:?}");
    }
}

/// A compute fabric in three tiers says how many nodes two tiers of its switches would hold:
/// 64-port leaves split 32 down, 32 up hold 64 × 32 ports, 256 nodes of 8.
#[test]
fn a_three_tier_compute_fabric_says_how_many_nodes_two_tiers_hold() {
    let mut value: serde_json::Value = serde_json::from_str(examples::SUPERPOD_4SU).unwrap();
    value.as_object_mut().unwrap().remove("growth");
    value["fabrics"][0]["topology"] = "three_tier".into();
    let spec = DesignSpec::from_value(value).unwrap();
    let found = findings_of(&spec, "three-tier");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0]
            .message
            .ends_with("two tiers of these switches hold 256 nodes of 8 ports each."),
        "{}",
        found[0].message
    );
}
