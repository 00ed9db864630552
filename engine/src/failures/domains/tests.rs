use super::*;
use crate::examples;

fn design(json: &str) -> (DesignSpec, Report) {
    let spec = DesignSpec::from_json(json).unwrap();
    let report = crate::evaluate(&spec).unwrap();
    (spec, report)
}

fn of<'f>(failures: &'f [Failure], fabric: &str, element: Element) -> Vec<&'f Failure> {
    failures
        .iter()
        .filter(|f| f.fabric == fabric && f.element == element)
        .collect()
}

/// On the 16-node training example's rail-optimised compute fabric each leaf serves one rail
/// of the 16 nodes: losing it costs those nodes one rail of eight, not their GPUs. Running on
/// degraded, the job's network runs at 7/8 of its bandwidth, as the engine's what-if at that
/// share computes it; restarting without the affected nodes would leave it no replica.
#[test]
fn losing_one_rail_optimised_leaf_costs_one_rail_of_the_nodes_it_serves_not_their_gpus() {
    let (spec, report) = design(examples::SEVENTY_B_TRAINING);
    let failures = failures(&spec, &report);
    let leaves = of(&failures, "compute", Element::Leaf);
    assert_eq!(leaves.len(), 1, "every leaf does the same: {leaves:?}");
    let leaf = leaves[0];
    assert_eq!(leaf.alike, report.fabrics[0].plan.leaves);
    assert_eq!((leaf.nodes_cut_off, leaf.nodes_degraded), (0, 16));
    assert_eq!(leaf.gpus_cut_off, 0);
    assert_eq!(leaf.gpus_affected, 128);
    let job = &leaf.workloads[0];
    let at_seven_eighths = crate::evaluate_with(
        &spec,
        Conditions {
            network_share: 7.0 / 8.0,
            ideal_network: false,
            crossing_share: None,
        },
    )
    .unwrap();
    let WorkloadReport::Training(t) = &at_seven_eighths.workloads[0] else {
        panic!("the example's first workload trains");
    };
    assert_eq!(job.degraded, Some(t.step_time.value));
    assert!(job.degraded.unwrap().seconds() > job.before.seconds());
    assert_eq!(
        job.restarted, None,
        "every replica holds one of the 16 nodes"
    );
    assert_eq!(job.gpus_given_up, 128);
}

/// One port of a node: the node runs on 7 of its 8 links, or the job restarts without the
/// data-parallel replica that holds it, the 15 others each doing what they did: the global
/// batch takes about 16/15 as long.
#[test]
fn restarting_without_one_port_s_node_drops_its_replica_and_the_batch_takes_longer() {
    let (spec, report) = design(examples::SEVENTY_B_TRAINING);
    let failures = failures(&spec, &report);
    let ports = of(&failures, "compute", Element::Port);
    assert_eq!(ports.iter().map(|p| p.alike).sum::<u32>(), 16 * 8);
    let job = &ports[0].workloads[0];
    let Workload::Training(t) = &spec.workloads[0] else {
        panic!("the example's first workload trains");
    };
    let replica = u64::from(t.parallelism.tp * t.parallelism.pp);
    assert_eq!(job.gpus_given_up, replica);
    let dp = f64::from(t.parallelism.dp);
    let expected = job.before.seconds() * dp / (dp - 1.0);
    let restarted = job.restarted.unwrap().seconds();
    assert!(
        (restarted / expected - 1.0).abs() < 0.02,
        "{restarted} s against about {expected} s"
    );
}

/// A fabric of one switch loses every node with it: the service on it can neither run on
/// nor restart.
#[test]
fn a_fabric_of_one_switch_loses_every_node_with_it() {
    let (spec, report) = design(examples::SEVENTY_B_INFERENCE_400G);
    let failures = failures(&spec, &report);
    let worst = &failures[0];
    assert_eq!(worst.element, Element::Leaf);
    assert_eq!(worst.alike, 1);
    assert_eq!(worst.nodes_cut_off, report.fabrics[0].attached_nodes);
    let service = &worst.workloads[0];
    assert_eq!((service.degraded, service.restarted), (None, None));
}

/// A spine whose loss leaves the leaf-spine tier what its traffic needs slows nothing: ECMP
/// spreads the traffic over the spines left, and no workload is listed.
#[test]
fn a_spine_whose_loss_leaves_enough_bandwidth_slows_no_workload() {
    let (spec, report) = design(examples::SUPERPOD_4SU);
    let failures = failures(&spec, &report);
    let spines = of(&failures, "compute", Element::Spine);
    assert_eq!(spines.len(), 1);
    assert_eq!(spines[0].alike, report.fabrics[0].plan.spines);
    assert!(spines[0].workloads.is_empty(), "{:?}", spines[0]);
    assert_eq!(spines[0].gpus_affected, 0);
}

/// Failures come ranked by blast radius: the GPUs cut off first, then those affected.
#[test]
fn failures_are_ranked_by_the_gpus_they_take() {
    let (spec, report) = design(examples::HYBRID);
    let failures = failures(&spec, &report);
    assert!(failures.windows(2).all(
        |w| (w[0].gpus_cut_off, w[0].gpus_affected) >= (w[1].gpus_cut_off, w[1].gpus_affected)
    ));
    assert!(failures[0].gpus_cut_off > 0);
}

/// The hybrid example's inference fabric attaches the 8 nodes its service runs on, not the
/// cluster's first 8 (which train on the compute fabric): its cables end on those nodes, and
/// losing its one switch stops the service.
#[test]
fn a_fabric_of_fewer_nodes_attaches_those_its_workloads_run_on() {
    let (spec, report) = design(examples::HYBRID);
    let inference = report
        .fabrics
        .iter()
        .find(|f| f.name == "inference")
        .unwrap();
    let service = report
        .allocations
        .iter()
        .find(|a| a.fabric == "inference")
        .unwrap();
    assert!(service.first_node > 1, "{service:?}");
    assert_eq!(inference.first_node, service.first_node);
    let sheet = crate::floor::cabling(&spec, &report).unwrap();
    let mut nodes: Vec<&str> = sheet
        .iter()
        .filter(|c| c.fabric == "inference" && c.tier == "node-leaf")
        .map(|c| c.a_device.as_str())
        .collect();
    nodes.dedup();
    let expected: Vec<String> = (service.first_node..service.first_node + service.nodes)
        .map(|n| format!("node-{n:02}"))
        .collect();
    assert_eq!(nodes, expected);
    let failures = failures(&spec, &report);
    let leaf = of(&failures, "inference", Element::Leaf)[0];
    assert_eq!(leaf.nodes_cut_off, service.nodes);
    let hit: Vec<&str> = leaf.workloads.iter().map(|w| w.workload.as_str()).collect();
    assert_eq!(hit, [service.workload.as_str()]);
    assert_eq!(leaf.workloads[0].degraded, None);
}

/// A fabric of one switch is a finding naming what its loss stops; a rail-optimised fabric,
/// whose leaves each cost their nodes one rail, is none.
#[test]
fn a_switch_that_cuts_most_of_a_fabric_off_is_a_finding_and_a_rail_leaf_is_not() {
    let (spec, report) = design(examples::SEVENTY_B_INFERENCE_400G);
    let found = findings(&report, &failures(&spec, &report));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].rule, "one-failure-cuts-off-fabric");
    assert!(
        found[0].message.starts_with("Losing its one switch cuts 4 of the 4 nodes of fabric inference off and stops “70B tensor-parallel serving”"),
        "{}",
        found[0].message
    );
    let (spec, report) = design(examples::SEVENTY_B_TRAINING);
    let found = findings(&report, &failures(&spec, &report));
    assert!(found.iter().all(|f| f.subject != "compute"), "{found:?}");
}

/// The search's quick measure of the worst failure is the failure table's first row, on every
/// example.
#[test]
fn the_worst_cut_off_is_the_first_row_of_the_failure_table() {
    for (name, json) in examples::ALL {
        let (spec, report) = design(json);
        let table = failures(&spec, &report);
        assert_eq!(
            worst_cut_off(&spec, &report),
            table.first().map_or(0, |f| f.gpus_cut_off),
            "{name}"
        );
    }
}

/// The nodes a workload holds among a failure's reach are found without walking the reach:
/// a workload on nodes 4 to 7 (from 1) is hit by nodes 4 and 5 of a reach of nodes 1, 4, 5, 8
/// and 10 (0-based 0, 3, 4, 7, 9); one reaching node 8 by the 8 too; one before, after or
/// between them by none, one around them by all.
#[test]
fn a_workload_is_hit_by_the_nodes_of_a_reach_it_holds_and_no_others() {
    let held = |first_node, nodes| Allocation {
        workload: "job".into(),
        fabric: "compute".into(),
        first_node,
        nodes,
        gpus: u64::from(nodes) * 8,
        replicas: 0,
        stated: false,
    };
    let reach = [0, 3, 4, 7, 9];
    assert_eq!(hit(&held(4, 4), &reach), &[3, 4]);
    assert_eq!(hit(&held(4, 5), &reach), &[3, 4, 7]);
    assert_eq!(hit(&held(1, 10), &reach), &reach);
    assert_eq!(hit(&held(11, 4), &reach), &[] as &[u32]);
    assert_eq!(hit(&held(2, 2), &reach), &[] as &[u32]);
    assert_eq!(hit(&held(1, 0), &reach), &[] as &[u32]);
    // Cut off and degraded, counted from 1, in order.
    let lost: Vec<u32> = merged(&[0, 5, 6], &[2, 4, 9]).collect();
    assert_eq!(lost, [1, 3, 5, 6, 7, 10]);
}
