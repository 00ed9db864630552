//! Every numeric claim of the seed article (shared/seed/CLAIMS.md), reproduced by the engine
//! with the inputs the article implies.

use crate::common;

use common::*;
use engine::*;

/// C8: "a 70B-parameter model in FP16 means about 280 GB per synchronisation step" =
/// 2 × 70e9 × 2 B. The ring sends 2(n−1)/n of it per GPU: at 1,024 GPUs, within 0.1 %.
#[test]
fn seventy_b_fp16_allreduce_moves_280_gb_per_step() {
    let mut model = llama_70b();
    model.precision = Precision::Fp16;
    let spec = design(
        dgx_h100(128),
        vec![Workload::Training(training(
            model,
            1024,
            1,
            1,
            Compute::Mfu(0.4),
        ))],
        vec![fabric("compute", Role::Compute, Technology::IbNdr)],
    );
    let report = evaluate(&spec).unwrap();
    let moved = training_report(&report)
        .bytes_per_gpu_per_step
        .value
        .as_gigabytes();
    assert!((moved - 280.0).abs() / 280.0 < 0.001, "{moved} GB");
}

fn seventy_b_over_four_nodes(technology: Technology, decode_tokens: u32) -> InferenceReport {
    let mut f = fabric("inference", Role::Inference, technology);
    f.ports_per_node = Some(1);
    let spec = design(
        dgx_h100(4),
        vec![Workload::Inference(tp_inference(4, decode_tokens))],
        vec![f],
    );
    inference_report(&evaluate(&spec).unwrap()).clone()
}

/// C9: tensor-parallel inference of a 70B model (80 layers, h = 8192, BF16) over 4 nodes moves
/// activations at every layer: 5-8 ms per layer at 25 Gb/s, 400-640 ms per token over 80
/// layers. The article does not say how many tokens are in flight; its figures follow from
/// 256 tokens per forward pass (a decode batch of 256) on one 25GbE TCP port per node at the
/// default 60 % TCP efficiency (about 320-510 tokens at line rate).
#[test]
fn seventy_b_over_four_nodes_at_25g_adds_5_to_8_ms_per_layer_and_400_to_640_ms_per_token() {
    let r = seventy_b_over_four_nodes(Technology::Tcp25, 256);
    let per_layer = r.per_layer_time.value.as_millis();
    let per_token = r.communication_per_token.value.as_millis();
    assert!((5.0..=8.0).contains(&per_layer), "{per_layer} ms per layer");
    assert!(
        (400.0..=640.0).contains(&per_token),
        "{per_token} ms per token"
    );
    assert_eq!(r.tokens_in_flight, 256);
}

/// C9: "at 400 Gbps this takes under 1 millisecond" per layer.
#[test]
fn seventy_b_over_four_nodes_at_400g_takes_under_1_ms_per_layer() {
    for technology in [Technology::IbNdr, Technology::Roce400] {
        let r = seventy_b_over_four_nodes(technology, 256);
        assert!(
            r.per_layer_time.value.as_millis() < 1.0,
            "{technology:?}: {}",
            r.per_layer_time.value
        );
    }
}

/// C6: for the 70B / 4-node case both NDR and 400G RoCE give acceptable inter-token latency
/// (here: within a 100 ms target); the gap widens for large-scale training.
#[test]
fn ndr_and_400g_roce_both_serve_70b_over_4_nodes_and_the_gap_widens_for_training() {
    let ib = seventy_b_over_four_nodes(Technology::IbNdr, 256);
    let roce = seventy_b_over_four_nodes(Technology::Roce400, 256);
    assert!(ib.meets_target && roce.meets_target);
    let inference_gap = roce.communication_per_token.value.seconds()
        / ib.communication_per_token.value.seconds()
        - 1.0;

    let train = |technology| {
        let mut t = training(llama_70b(), 128, 8, 1, Compute::Mfu(0.4));
        t.parallelism.sharding = Sharding::Zero3;
        let spec = design(
            dgx_h100(128),
            vec![Workload::Training(t)],
            vec![fabric("compute", Role::Compute, technology)],
        );
        training_report(&evaluate(&spec).unwrap())
            .communication_time
            .value
            .seconds()
    };
    let training_gap = train(Technology::Roce400) / train(Technology::IbNdr) - 1.0;
    assert!(
        training_gap > inference_gap,
        "training gap {training_gap} vs inference gap {inference_gap}"
    );
}

/// C4: under 128 nodes a 2-tier leaf-spine is enough; beyond, 3 tiers (or rail-optimized).
#[test]
fn two_tiers_suffice_up_to_128_dgx_nodes_and_large_clusters_get_three() {
    let tiers = |nodes| {
        let spec = design(
            dgx_h100(nodes),
            vec![],
            vec![fabric("compute", Role::Compute, Technology::IbNdr)],
        );
        evaluate(&spec).unwrap().fabrics[0].plan.tiers
    };
    // Two nodes fit on one switch; from there to 128 nodes, two tiers.
    assert_eq!(tiers(2), 1);
    for nodes in [16, 64, 127, 128] {
        assert_eq!(tiers(nodes), 2, "{nodes} nodes");
    }
    assert_eq!(tiers(512), 3);
}

/// C13: minimum storage bandwidth = batch × sample size × steps/s, provisioned 2-3x.
#[test]
fn storage_bandwidth_is_batch_times_sample_times_steps_with_visible_headroom() {
    let storage = Storage {
        name: "data".into(),
        fabric: "storage".into(),
        samples_per_step: 1024.0,
        sample_bytes: Bytes::new(1.5e6),
        steps_per_s: PerSecond::new(2.0),
        read_headroom: default_read_headroom(),
        checkpoint: Checkpoint {
            size_gb: Some(Gigabytes::new(200.0)),
            parameters: None,
            bytes_per_parameter: default_checkpoint_bytes(),
            interval_minutes: Minutes::new(60.0),
            write_budget_s: Seconds::new(600.0),
        },
        system_read_gbytes_per_s: None,
        system_write_gbytes_per_s: None,
    };
    assert!((2.0..=3.0).contains(&storage.read_headroom));
    let spec = design(
        dgx_h100(16),
        vec![Workload::Storage(storage)],
        vec![fabric("storage", Role::Storage, Technology::IbNdr)],
    );
    let report = evaluate(&spec).unwrap();
    let WorkloadReport::Storage(s) = &report.workloads[0] else {
        panic!()
    };
    assert_eq!(s.read_needed.value, ByteRate::new(1024.0 * 1.5e6 * 2.0));
    assert_eq!(
        s.read_provisioned.value,
        ByteRate::new(1024.0 * 1.5e6 * 2.0 * 2.5)
    );
}

/// A training job whose steps are all network communication: compute is taken as zero, nothing
/// hides, and each node's single NIC (far slower than NVLink) carries the ring.
fn network_bound_job() -> DesignSpec {
    let mut t = training(llama_70b(), 128, 1, 1, Compute::StepSeconds(0.0));
    t.overlap = 0.0;
    let mut cluster = dgx_h100(16);
    cluster.nics_per_node = 1;
    design(
        cluster,
        vec![Workload::Training(t)],
        vec![fabric("compute", Role::Compute, Technology::IbNdr)],
    )
}

/// C14: one degraded link in an AllReduce ring makes every GPU wait: the ring runs at its
/// slowest link, and a network-bound 4 h job takes 8 h with one link at half speed.
#[test]
fn one_link_at_half_speed_turns_a_four_hour_job_into_eight_hours() {
    let comparison = whatif::degraded_link(&network_bound_job(), 0.5).unwrap();
    let hours = 4.0 * comparison.slowdown("training").unwrap().factor();
    assert!((hours - 8.0).abs() < 0.1, "{hours} h");
}

/// C2: the same GPUs behind a congested Ethernet switch: 4 h becomes 12 h when congestion
/// leaves a network-bound job a third of its bandwidth.
#[test]
fn congestion_to_a_third_of_the_bandwidth_turns_four_hours_into_twelve() {
    let comparison = whatif::congestion(&network_bound_job(), 1.0 / 3.0).unwrap();
    let hours = 4.0 * comparison.slowdown("training").unwrap().factor();
    // Slightly under 12 h: at a third of the bandwidth the hierarchical algorithm (reduce inside
    // the node first) beats the ring, as NCCL's tuner would find.
    assert!((11.5..=12.05).contains(&hours), "{hours} h");
}

/// C1: single-node inference barely touches the network: no GPU fabric is sized for it.
#[test]
fn a_single_node_design_sizes_no_gpu_fabric_and_says_why() {
    let spec = design(
        dgx_h100(1),
        vec![Workload::Inference(tp_inference(1, 64))],
        vec![fabric("inference", Role::Compute, Technology::IbNdr)],
    );
    let report = evaluate(&spec).unwrap();
    assert_eq!(report.fabrics[0].plan.switches(), 0);
    assert!(report.findings.iter().any(|f| f.rule == "single-node"));
    assert!(report
        .findings
        .iter()
        .any(|f| f.rule == "single-node-inference"));
}

/// C5: RoCE needs PFC and ECN on every switch in the path; InfiniBand does not.
#[test]
fn a_roce_fabric_carries_the_lossless_ethernet_finding_and_infiniband_does_not() {
    let spec = |technology| {
        design(
            dgx_h100(16),
            vec![],
            vec![fabric("compute", Role::Compute, technology)],
        )
    };
    let has = |technology| {
        evaluate(&spec(technology))
            .unwrap()
            .findings
            .iter()
            .any(|f| f.rule == "roce-lossless")
    };
    assert!(has(Technology::Roce400));
    assert!(!has(Technology::IbNdr));
}

/// C12: storage should have its own fabric; sharing the GPU fabric draws a recommendation.
#[test]
fn storage_on_the_gpu_fabric_is_told_to_move() {
    let storage = Storage {
        name: "data".into(),
        fabric: "compute".into(),
        samples_per_step: 512.0,
        sample_bytes: Bytes::new(1e5),
        steps_per_s: PerSecond::new(1.0),
        read_headroom: 2.5,
        checkpoint: Checkpoint {
            size_gb: Some(Gigabytes::new(140.0)),
            parameters: None,
            bytes_per_parameter: 14.0,
            interval_minutes: Minutes::new(60.0),
            write_budget_s: Seconds::new(600.0),
        },
        system_read_gbytes_per_s: None,
        system_write_gbytes_per_s: None,
    };
    let spec = design(
        dgx_h100(16),
        vec![Workload::Storage(storage)],
        vec![fabric("compute", Role::Compute, Technology::IbNdr)],
    );
    let report = evaluate(&spec).unwrap();
    assert!(report
        .findings
        .iter()
        .any(|f| f.rule == "storage-shares-gpu-fabric"));
}

/// C11: checkpoints of 100-500 GB must be written without blocking training: a 500 GB
/// checkpoint through a 10 GB/s storage system takes 50 s, over a 30 s budget.
#[test]
fn a_checkpoint_that_cannot_be_written_within_its_budget_is_flagged() {
    let storage = Storage {
        name: "checkpoints".into(),
        fabric: "storage".into(),
        samples_per_step: 1.0,
        sample_bytes: Bytes::new(1.0),
        steps_per_s: PerSecond::new(1.0),
        read_headroom: 2.5,
        checkpoint: Checkpoint {
            size_gb: Some(Gigabytes::new(500.0)),
            parameters: None,
            bytes_per_parameter: 14.0,
            interval_minutes: Minutes::new(30.0),
            write_budget_s: Seconds::new(30.0),
        },
        system_read_gbytes_per_s: None,
        system_write_gbytes_per_s: Some(GigabytesPerSecond::new(10.0)),
    };
    let spec = design(
        dgx_h100(16),
        vec![Workload::Storage(storage)],
        vec![fabric("storage", Role::Storage, Technology::IbNdr)],
    );
    let report = evaluate(&spec).unwrap();
    let WorkloadReport::Storage(s) = &report.workloads[0] else {
        panic!()
    };
    assert!((s.checkpoint_write_time.value.seconds() - 50.0).abs() < 1e-9);
    assert!(report
        .findings
        .iter()
        .any(|f| f.rule == "checkpoint-budget"));
}

/// C10: RAG over standard 25GbE is moderate bandwidth and leaves the latency budget to the
/// rest of the pipeline.
#[test]
fn rag_over_25gbe_uses_little_of_its_bandwidth_and_latency_budget() {
    let spec = DesignSpec::from_json(examples::RAG).unwrap();
    let report = evaluate(&spec).unwrap();
    let WorkloadReport::Rag(r) = &report.workloads[0] else {
        panic!()
    };
    assert!(
        r.share_of_budget.value.fraction() < 0.05,
        "{}",
        r.share_of_budget.value
    );
    assert!(r.vector_db_port_utilisation.value.fraction() < 0.1);
}

/// C7: a hybrid design sizes each fabric for the workloads mapped to it.
#[test]
fn a_hybrid_design_sizes_infiniband_for_training_and_ethernet_for_inference_and_storage() {
    let report = evaluate(&DesignSpec::from_json(examples::HYBRID).unwrap()).unwrap();
    let fabric = |name: &str| report.fabrics.iter().find(|f| f.name == name).unwrap();
    assert_eq!(fabric("training").technology, Technology::IbNdr);
    assert_eq!(fabric("training").attached_nodes, 32);
    assert_eq!(fabric("inference").technology, Technology::Roce100);
    assert_eq!(
        fabric("inference").workloads,
        ["70B serving, 2 nodes per replica"]
    );
    assert_eq!(
        fabric("storage").workloads,
        ["Training data and checkpoints"]
    );
}
