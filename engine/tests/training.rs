//! Training communication by parallelism scheme [arXiv:1909.08053; arXiv:1910.02054].

mod common;

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
    let ddp = run(ddp, 64, f()).bytes_per_gpu_per_step.value.0;
    let zero3 = run(zero3, 64, f()).bytes_per_gpu_per_step.value.0;
    assert!((zero3 / ddp - 1.5).abs() < 1e-9, "{}", zero3 / ddp);
}

#[test]
fn tensor_parallelism_inside_the_node_stays_off_the_network() {
    let r = run(
        training(llama_70b(), 16, 8, 1, Compute::Mfu(0.4)),
        16,
        fabric("compute", Role::Compute, Technology::IbNdr),
    );
    assert_eq!(collective(&r, "tensor").network_bytes_per_node, Bytes(0.0));
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
    assert!(collective(r, "tensor").network_bytes_per_node.0 > 0.0);
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
    assert!((pp.bytes_per_gpu.0 - per_message * 2.0 * 4.0).abs() < 1.0);
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
