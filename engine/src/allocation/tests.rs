use super::*;

fn example(text: &str) -> DesignSpec {
    DesignSpec::from_json(text).unwrap()
}

fn placed(spec: &DesignSpec) -> Vec<(String, u32, u32, u32, bool)> {
    allocate(spec)
        .into_iter()
        .flatten()
        .map(|a| {
            (
                a.workload.clone(),
                a.first_node,
                a.nodes,
                a.replicas,
                a.stated,
            )
        })
        .collect()
}

/// The hybrid example lists a training job on 32 nodes and a service of 2-node replicas on a
/// fabric of 8: the planner gives the job nodes 1-32 and the service the 8 left, 4 replicas.
#[test]
fn the_planner_gives_each_workload_nodes_of_its_own_in_the_designs_order() {
    let spec = example(crate::examples::HYBRID);
    let placed = placed(&spec);
    assert_eq!(placed.len(), 2, "{placed:?}");
    assert_eq!((placed[0].1, placed[0].2, placed[0].4), (1, 32, false));
    assert_eq!((placed[1].1, placed[1].2, placed[1].3), (33, 8, 4));
    assert!(shared(&allocate(&spec)).is_empty());
    assert!(beyond(&allocate(&spec), spec.cluster.nodes).is_empty());
}

/// A service with a stated start keeps it; the planner places the training job around it.
#[test]
fn a_stated_start_is_kept_and_the_others_are_placed_around_it() {
    let mut spec = example(crate::examples::HYBRID);
    let Workload::Inference(i) = &mut spec.workloads[1] else {
        panic!("the hybrid example's second workload serves");
    };
    i.first_node = Some(1);
    let placed = placed(&spec);
    assert_eq!((placed[1].1, placed[1].2, placed[1].4), (1, 8, true));
    assert_eq!((placed[0].1, placed[0].2, placed[0].4), (9, 32, false));
}

/// Two stated starts that overlap are reported with the nodes they share; a job too large for
/// what is left runs past the cluster's last node, which is reported too.
#[test]
fn shared_nodes_and_nodes_past_the_cluster_are_found() {
    let mut spec = example(crate::examples::HYBRID);
    if let Workload::Training(t) = &mut spec.workloads[0] {
        t.first_node = Some(1);
    }
    if let Workload::Inference(i) = &mut spec.workloads[1] {
        i.first_node = Some(31);
        i.replicas = Some(2);
    }
    let allocations = allocate(&spec);
    let shared = shared(&allocations);
    assert_eq!(shared.len(), 1);
    assert_eq!((shared[0].2, shared[0].3), (31, 32));
    spec.cluster.nodes = 32;
    if let Workload::Inference(i) = &mut spec.workloads[1] {
        i.first_node = None;
    }
    let allocations = allocate(&spec);
    let past = beyond(&allocations, 32);
    assert_eq!(past.len(), 1);
    assert_eq!((past[0].first_node, past[0].nodes), (33, 4));
}

#[test]
fn free_runs_are_found_between_taken_ones() {
    let taken = [(1, 4), (9, 4)];
    assert_eq!(first_free(&taken, 4, 16), 5);
    // No run of 5 within 16 nodes: after the last taken, 1 node past the cluster.
    assert_eq!(first_free(&taken, 5, 16), 13);
    assert_eq!(first_free(&taken, 3, 12), 5);
    assert_eq!(longest_free(&taken, 16), (5, 4), "the first of the longest");
    assert_eq!(longest_free(&taken, 18), (13, 6));
}
