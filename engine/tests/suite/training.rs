//! Training communication by parallelism scheme [arXiv:1909.08053; arXiv:1910.02054].

use crate::common;

use common::*;
use engine::*;

fn collective<'a>(t: &'a TrainingReport, what: &str) -> &'a CollectiveReport {
    t.collectives
        .iter()
        .find(|c| c.what.starts_with(what))
        .unwrap()
}

fn run(t: Training, nodes: u32, f: Fabric) -> TrainingReport {
    let spec = design(dgx_h100(nodes), vec![Workload::Training(t)], vec![f]);
    training_report(&evaluate(&spec).unwrap()).clone()
}

#[test]
fn zero3_sends_one_and_a_half_times_the_bytes_of_ddp() {
    let ddp = training(llama_70b(), 64, 8, 1, Compute::Mfu(0.4));
    let mut zero3 = ddp.clone();
    zero3.parallelism.sharding = Sharding::Zero3;
    let f = || fabric("compute", Role::Compute, Technology::IbNdr);
    let ddp = run(ddp, 64, f()).bytes_per_gpu_per_step.value.bytes();
    let zero3 = run(zero3, 64, f()).bytes_per_gpu_per_step.value.bytes();
    assert!((zero3 / ddp - 1.5).abs() < 1e-9, "{}", zero3 / ddp);
}

#[test]
fn tensor_parallelism_inside_the_node_stays_off_the_network() {
    let r = run(
        training(llama_70b(), 16, 8, 1, Compute::Mfu(0.4)),
        16,
        fabric("compute", Role::Compute, Technology::IbNdr),
    );
    assert_eq!(
        collective(&r, "tensor").network_bytes_per_node,
        Bytes::new(0.0)
    );
    assert!(!r.tensor_parallel_crosses_nodes);
}

#[test]
fn tensor_parallelism_beyond_a_node_crosses_the_network_and_is_flagged() {
    let t = training(llama_70b(), 8, 16, 1, Compute::Mfu(0.4));
    let spec = design(
        dgx_h100(16),
        vec![Workload::Training(t)],
        vec![fabric("compute", Role::Compute, Technology::IbNdr)],
    );
    let report = evaluate(&spec).unwrap();
    let r = training_report(&report);
    assert!(r.tensor_parallel_crosses_nodes);
    assert!(collective(r, "tensor").network_bytes_per_node.bytes() > 0.0);
    assert!(report
        .findings
        .iter()
        .any(|f| f.rule == "tensor-parallel-across-nodes"));
}

#[test]
fn pipeline_stages_send_activations_between_nodes() {
    let r = run(
        training(llama_70b(), 4, 8, 4, Compute::Mfu(0.4)),
        16,
        fabric("compute", Role::Compute, Technology::IbNdr),
    );
    let pp = collective(&r, "pipeline");
    // Per micro-batch: b·s·h·2 B / tp forward and the same back; 4 micro-batches per pipeline.
    let per_message = 8192.0 * 8192.0 * 2.0 / 8.0;
    assert!((pp.bytes_per_gpu.bytes() - per_message * 2.0 * 4.0).abs() < 1.0);
}

#[test]
fn expert_all_to_all_slows_on_an_oversubscribed_leaf() {
    let mut mixtral = llama_70b();
    mixtral.parameters = 46.7e9;
    mixtral.active_parameters = Some(12.9e9);
    mixtral.layers = 32;
    mixtral.hidden = 4096;
    mixtral.experts = 8;
    mixtral.experts_per_token = 2;
    let mut t = training(mixtral, 128, 1, 1, Compute::Mfu(0.4));
    t.parallelism.ep = 64;
    let time = |oversubscription: f64| {
        let mut f = fabric("compute", Role::Compute, Technology::Roce400);
        f.switch = Some("sn5600".into());
        f.oversubscription.leaf = oversubscription;
        collective(&run(t.clone(), 64, f), "expert").time
    };
    assert!(time(3.0) > time(1.0));
}

#[test]
fn a_faster_fabric_never_lengthens_the_step() {
    let t = training(llama_70b(), 128, 1, 1, Compute::Mfu(0.4));
    let step = |tech| {
        run(t.clone(), 16, fabric("compute", Role::Compute, tech))
            .step_time
            .value
    };
    assert!(step(Technology::IbXdr) <= step(Technology::IbNdr));
    assert!(step(Technology::IbNdr) <= step(Technology::Roce100));
    assert!(step(Technology::Roce100) <= step(Technology::Tcp25));
}

fn h100() -> &'static engine::catalog::Gpu {
    engine::catalog::gpu("h100-sxm").unwrap()
}

fn gb(b: Bytes) -> f64 {
    b.bytes() / 1e9
}

/// The ZeRO paper's Figure 1: a 7.5-billion-parameter model on 64 data-parallel ranks holds
/// 120 GB of model states per GPU, 31.4 GB with the optimizer states sharded (stage 1), 16.6 GB
/// with the gradients too (stage 2) and 1.9 GB with the weights too (stage 3).
#[test]
fn the_zero_paper_s_7_5b_model_on_64_ranks_holds_120_31_4_16_6_and_1_9_gb() {
    let mut model = llama_70b();
    model.parameters = 7.5e9;
    for (sharding, expected) in [
        (Sharding::None, 120.0),
        (Sharding::Zero1, 31.4),
        (Sharding::Zero2, 16.6),
        (Sharding::Zero3, 1.9),
    ] {
        let mut t = training(model.clone(), 64, 1, 1, Compute::Mfu(0.4));
        t.parallelism.sharding = sharding;
        let m = memory_fit(&t, h100(), 8);
        let states = gb(m.weights.value) + gb(m.gradients.value) + gb(m.optimizer_states.value);
        assert!(
            (states - expected).abs() < 0.05,
            "{sharding:?}: {states} GB against {expected} GB"
        );
    }
}

/// Korthikanti et al.: 34·s·b·h/t bytes per layer (FlashAttention stores no attention scores),
/// 2·s·b·h/t with full recomputation, for every layer on the first pipeline stage whatever
/// the pipeline depth: Llama 3 70B, 8K tokens, micro-batch 1, tp 8 holds 22.8 GB.
#[test]
fn activations_are_34_sbh_over_t_per_layer_and_2_sbh_with_full_recomputation() {
    let t = training(llama_70b(), 16, 8, 1, Compute::Mfu(0.4));
    let stored = 80.0 * 34.0 * 8192.0 * 8192.0 / 8.0;
    assert_eq!(
        memory_fit(&t, h100(), 8).activations.value,
        Bytes::new(stored)
    );
    let mut deeper = training(llama_70b(), 4, 8, 4, Compute::Mfu(0.4));
    deeper.global_batch = 64;
    assert_eq!(
        memory_fit(&deeper, h100(), 8).activations.value,
        Bytes::new(stored),
        "the first stage holds pp micro-batches of L/pp layers"
    );
    let mut full = t.clone();
    full.recompute = Recompute::Full;
    assert_eq!(
        memory_fit(&full, h100(), 8).activations.value,
        Bytes::new(80.0 * 2.0 * 8192.0 * 8192.0 / 8.0)
    );
}

/// Llama 3 70B without any sharding at tp 8 holds 16 bytes × 8.75 B parameters = 140 GB of
/// model states: it does not fit in an H100, and a pipeline of 4 stages (on the same 128 GPUs)
/// is the smallest that does; the finding says so.
#[test]
fn a_model_that_does_not_fit_gets_the_smallest_pipeline_that_does() {
    let t = training(llama_70b(), 16, 8, 1, Compute::Mfu(0.4));
    let m = memory_fit(&t, h100(), 8);
    assert!(!m.fits);
    assert!(
        (gb(m.total.value) - (140.0 + 22.8)).abs() < 0.1,
        "{}",
        gb(m.total.value)
    );
    assert_eq!(gb(m.usable.value), 72.0, "90 % of 80 GB");
    assert_eq!(
        m.fits_with,
        Some(Degrees {
            tp: 8,
            pp: 4,
            dp: 4,
            recompute: Recompute::None
        })
    );
    let spec = design(
        dgx_h100(16),
        vec![Workload::Training(t)],
        vec![fabric("compute", Role::Compute, Technology::IbNdr)],
    );
    let report = evaluate(&spec).unwrap();
    let finding = report
        .findings
        .iter()
        .find(|f| f.rule == "memory-fit")
        .expect("a finding");
    assert_eq!(finding.severity, Severity::Critical);
    assert!(
        finding
            .message
            .contains("It fits with pipeline parallelism 4 (data parallel 4)"),
        "{}",
        finding.message
    );
}

/// The SuperPOD example's 405B model at tp 8 and pp 14 holds 72 GB of activations alone at
/// 8K tokens: no deeper pipeline helps (the first stage holds every layer's worth), and full
/// recomputation makes it fit.
#[test]
fn activations_no_pipeline_can_shed_call_for_full_recomputation() {
    let spec = DesignSpec::from_json(examples::SUPERPOD_4SU).unwrap();
    let report = evaluate(&spec).unwrap();
    let t = training_report(&report);
    let m = t.memory.as_ref().unwrap();
    assert!(!m.fits);
    assert_eq!(m.fits_with.map(|d| d.recompute), Some(Recompute::Full));
    assert!(report
        .findings
        .iter()
        .any(|f| f.rule == "memory-fit" && f.message.contains("full activation recomputation")));
    // The seed's 70B design fits as it is.
    let seed = evaluate(&DesignSpec::from_json(examples::SEVENTY_B_TRAINING).unwrap()).unwrap();
    assert!(training_report(&seed).memory.as_ref().unwrap().fits);
}

/// Gradients are reduced as the backward pass produces them, and with gradient accumulation
/// only during the last micro-batch's: the seed's 70B job runs 32 micro-batches per replica, so
/// its data-parallel traffic hides behind half of 1/32 of the backward pass. On 100GbE TCP that
/// leaves the step 10 % slower than on an ideal network; on InfiniBand NDR under 1 %. (A window
/// of the whole step's compute had hidden every byte on both.)
#[test]
fn data_parallel_traffic_hides_only_behind_the_last_micro_batch_s_backward_pass() {
    let on = |technology: &str| {
        let mut spec: serde_json::Value =
            serde_json::from_str(examples::SEVENTY_B_TRAINING).unwrap();
        spec["fabrics"][0]["technology"] = technology.into();
        spec["fabrics"][0].as_object_mut().unwrap().remove("switch");
        let report = evaluate(&DesignSpec::from_value(spec).unwrap()).unwrap();
        training_report(&report).clone()
    };
    let (tcp, ib) = (on("tcp100"), on("ib_ndr"));
    let slowdown = |t: &TrainingReport| t.slowdown.as_ref().unwrap().value.factor();
    assert!(slowdown(&tcp) > 1.05, "{}", slowdown(&tcp));
    assert!(slowdown(&ib) < 1.01, "{}", slowdown(&ib));
    let worked = ib.exposed_communication.worked.as_deref().unwrap();
    assert!(worked.contains("0.5 × 2/3 × compute ÷ 32"), "{worked}");
}
