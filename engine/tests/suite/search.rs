//! Design search: the cheapest fabrics that meet the workloads' targets.

use engine::search::*;
use engine::*;

fn inference_base() -> DesignSpec {
    DesignSpec::from_json(examples::SEVENTY_B_INFERENCE_25G).unwrap()
}

fn training_base() -> DesignSpec {
    DesignSpec::from_json(examples::SEVENTY_B_TRAINING).unwrap()
}

fn is_tcp(t: Technology) -> bool {
    t.transport() == Transport::Tcp
}

fn latency_search(technologies: Vec<Technology>) -> Search {
    let mut request = SearchRequest::new(inference_base());
    request.freedoms.technologies = technologies;
    // Every switch that can carry each technology, and both rail counts.
    request.freedoms.switch_models = true;
    request.freedoms.nics_per_node = vec![1, 8];
    request.targets.every_workload.max_added_latency_ms = Some(Millis::new(50.0));
    let mut search = Search::new(request).unwrap();
    search.run();
    search
}

#[test]
fn seventy_b_inference_over_tcp_misses_a_50_ms_token_target() {
    // 70B across 4 nodes with 256 tokens in flight: every TCP fabric adds more than 50 ms per
    // token (seed C9: hundreds of ms at 25 Gb/s), so the frontier holds RDMA fabrics only.
    let search = latency_search(Technology::ALL.to_vec());
    let result = search.result();
    assert!(result.exhaustive);
    assert!(!result.frontier.is_empty());
    assert!(
        result.summary.contains("The cheapest is candidate"),
        "{}",
        result.summary
    );
    for point in &result.frontier {
        assert!(point.choice.fabrics.iter().all(|f| !is_tcp(f.technology)));
        assert!(point.record.added_latency_ms <= 50.0);
    }
    for record in search.records() {
        let choice = search.choice(record.id).unwrap();
        if is_tcp(choice.fabrics[0].technology) {
            match &record.status {
                Status::Infeasible { breach } => {
                    assert_eq!(
                        result.checks[breach.check].measure,
                        Measure::AddedLatency(0)
                    );
                    assert!(breach.value > 50.0, "{breach:?}");
                }
                Status::Invalid { .. } => {}
                other => panic!("a TCP fabric should miss the target, got {other:?}"),
            }
        }
    }
}

#[test]
fn seventy_b_training_on_25g_with_one_nic_per_node_misses_a_5_percent_slowdown_target() {
    let mut request = SearchRequest::new(training_base());
    request.freedoms.technologies = vec![Technology::Tcp25, Technology::IbNdr];
    request.freedoms.fabrics = vec!["compute".into()];
    request.freedoms.nics_per_node = vec![1];
    request.freedoms.arrangements = vec![Arrangement::AsDesigned];
    request.targets.every_workload.max_slowdown_percent = Some(5.0);
    let mut search = Search::new(request).unwrap();
    search.run();
    let mut tcp25_seen = false;
    for record in search.records() {
        let choice = search.choice(record.id).unwrap();
        if choice.fabrics[0].technology == Technology::Tcp25 {
            tcp25_seen = true;
            let Status::Infeasible { breach } = &record.status else {
                panic!("25GbE compute should miss 5 %: {:?}", record.status);
            };
            assert!(breach.value > 5.0);
        }
    }
    assert!(tcp25_seen);
    // Only the compute fabric varies: storage stays on the base design's NDR.
    assert_eq!(search.progress().space, 2);
    let result = search.result();
    assert!(result
        .frontier
        .iter()
        .all(|p| p.choice.fabrics[0].technology == Technology::IbNdr));
}

#[test]
fn when_only_tcp_is_allowed_the_result_names_the_unmet_target_and_the_closest_design() {
    let search = latency_search(vec![Technology::Tcp25, Technology::Tcp100]);
    let result = search.result();
    assert!(result.frontier.is_empty());
    let none = result.no_design.expect("nothing is feasible");
    assert_eq!(none.unmet_by_all.len(), 1);
    assert_eq!(
        result.checks[none.unmet_by_all[0]].measure,
        Measure::AddedLatency(0)
    );
    let closest = none.closest.expect("a closest candidate");
    // 100GbE adds less latency than 25GbE, so it is the closer miss.
    assert_eq!(closest.choice.fabrics[0].technology, Technology::Tcp100);
    assert!(none
        .summary
        .starts_with("No design meets network-added latency per token"));
    assert!(none.summary.contains("closest is candidate"));
}

#[test]
fn an_explanation_names_the_binding_target_and_what_the_next_cheaper_design_breaks() {
    let search = latency_search(Technology::ALL.to_vec());
    let result = search.result();
    // Cheapest as placed, which the search compares.
    let cheapest = result
        .frontier
        .iter()
        .min_by(|a, b| a.record.cost_usd.total_cmp(&b.record.cost_usd))
        .unwrap();
    let why = search.explain(cheapest.record.id).unwrap();
    let placed = thousands(cheapest.placed.as_ref().unwrap().cost_usd.dollars().round());
    let stated = format!("Candidate {} costs {placed} USD", cheapest.record.id);
    let summary = &why.summary;
    assert!(
        summary.starts_with(&stated) && summary.contains("as placed"),
        "{summary}"
    );
    let binding = why.binding.unwrap();
    assert_eq!(
        result.checks[binding.check].measure,
        Measure::AddedLatency(0)
    );
    assert!(binding.slack >= 0.0);
    let next = why.next_cheaper.as_ref().expect("a cheaper candidate");
    assert!(next.candidate.record.cost_usd < cheapest.record.cost_usd);
    // The cheapest feasible design is beaten on price only by designs that break a check.
    assert!(!next.breaks.is_empty());
    assert!(why.summary.contains("next cheaper candidate"));
}

#[test]
fn a_search_run_in_slices_finds_what_a_one_shot_search_finds() {
    let mut request = SearchRequest::new(training_base());
    request.freedoms.technologies =
        vec![Technology::IbNdr, Technology::Roce400, Technology::Tcp100];
    request.freedoms.leaf_oversubscription = vec![1.0, 2.0];
    request.targets.every_workload.max_slowdown_percent = Some(20.0);
    let whole = search(request.clone()).unwrap();
    let mut sliced = Search::new(request).unwrap();
    let mut slices = 0;
    loop {
        let p = sliced.step(5);
        slices += 1;
        assert!(p.visited <= p.planned);
        if p.done {
            break;
        }
    }
    assert!(slices > 1);
    assert_eq!(sliced.result(), whole);
}

#[test]
fn a_budget_below_any_switch_prunes_candidates_without_evaluating_them() {
    let mut request = SearchRequest::new(training_base());
    request.freedoms.technologies = vec![Technology::IbNdr, Technology::Roce400];
    request.constraints.max_cost_usd = Some(Usd::new(1_000.0));
    let result = search(request).unwrap();
    assert_eq!(result.evaluated, 0);
    assert!(result.frontier.is_empty());
    let none = result.no_design.as_ref().unwrap();
    assert!(none.summary.starts_with("No design meets network cost"));
    // Still never an empty answer: a pruned candidate stands in as the closest.
    assert!(none.closest.is_some());
    assert!(
        none.summary.contains("closest is candidate"),
        "{}",
        none.summary
    );
    // Figures the search never computed travel as null and read back.
    let text = serde_json::to_string(&result).unwrap();
    let back: SearchResult = serde_json::from_str(&text).unwrap();
    assert_eq!(
        back.no_design.unwrap().closest.unwrap().record.id,
        none.closest.as_ref().unwrap().record.id
    );
}

#[test]
fn a_space_larger_than_the_limit_is_sampled_and_says_so() {
    let mut request = SearchRequest::new(training_base());
    request.freedoms.technologies = vec![Technology::IbNdr, Technology::Roce400];
    request.freedoms.leaf_oversubscription = vec![1.0, 1.5, 2.0, 3.0];
    request.freedoms.nics_per_node = vec![1, 2, 4, 8];
    request.max_candidates = 10;
    let mut s = Search::new(request).unwrap();
    let p = s.run();
    assert_eq!(p.visited, 10);
    assert!(p.space > 10);
    let mut choices: Vec<String> = s
        .records()
        .iter()
        .map(|r| serde_json::to_string(&s.choice(r.id).unwrap()).unwrap())
        .collect();
    choices.sort_unstable();
    choices.dedup();
    assert_eq!(choices.len(), 10, "every visited candidate is distinct");
    let result = s.result();
    assert!(!result.exhaustive);
    assert!(
        result.summary.contains("a cheaper design may exist"),
        "{}",
        result.summary
    );
}

#[test]
fn a_request_with_mistakes_names_every_field_that_is_wrong() {
    let mut request = SearchRequest::new(training_base());
    request.base.cluster.nodes = 0;
    request.targets.workloads.push(WorkloadLimits {
        workload: "nobody".into(),
        limits: Limits::default(),
    });
    request.freedoms.leaf_oversubscription = vec![0.5];
    request.constraints.switches = vec!["nonesuch".into()];
    request.max_candidates = 0;
    let errors = Search::new(request).unwrap_err();
    for path in [
        "max_candidates",
        "base.cluster.nodes",
        "targets.workloads[0].workload",
        "freedoms.leaf_oversubscription[0]",
        "constraints.switches[0]",
    ] {
        assert!(errors.for_path(path).is_some(), "{path}: {errors}");
    }
}

#[test]
fn constraints_that_exclude_every_choice_are_an_error_not_an_empty_answer() {
    let mut request = SearchRequest::new(inference_base());
    request.constraints.excluded_technologies = vec![Technology::Tcp25];
    let errors = Search::new(request).unwrap_err();
    assert!(errors.for_path("constraints").is_some());
}

#[test]
fn a_request_reads_from_json_with_only_the_base_design() {
    let text = format!(
        r#"{{ "base": {}, "targets": {{ "every_workload": {{ "max_added_latency_ms": 50 }} }},
             "freedoms": {{ "technologies": ["ib_ndr", "roce400", "tcp25"], "switch_models": true }},
             "constraints": {{ "excluded_families": ["infiniband"] }} }}"#,
        examples::SEVENTY_B_INFERENCE_25G
    );
    let request = SearchRequest::from_json(&text).unwrap();
    assert_eq!(request.max_candidates, default_max_candidates());
    let result = search(request).unwrap();
    assert!(result
        .frontier
        .iter()
        .all(|p| p.choice.fabrics[0].technology == Technology::Roce400));
    let back: SearchResult =
        serde_json::from_str(&serde_json::to_string(&result).unwrap()).unwrap();
    assert_eq!(back.frontier.len(), result.frontier.len());
}

#[test]
fn separate_fabrics_give_each_role_its_own_fabric_and_shared_puts_all_on_one() {
    let mut request = SearchRequest::new(training_base());
    request.freedoms.arrangements = vec![Arrangement::Shared, Arrangement::Separate];
    let mut s = Search::new(request).unwrap();
    s.run();
    let shared = s.spec(0).unwrap();
    assert_eq!(shared.fabrics.len(), 1);
    assert!(shared.workloads.iter().all(|w| w.fabric() == "compute"));
    let separate = s.spec(1).unwrap();
    assert_eq!(separate.fabrics.len(), 2);
    assert!(evaluate(&shared).is_ok() && evaluate(&separate).is_ok());
}

#[test]
fn a_limit_named_for_one_workload_replaces_the_limit_for_every_workload() {
    let mut request = SearchRequest::new(training_base());
    request.targets.every_workload.max_slowdown_percent = Some(1.0);
    request.targets.workloads.push(WorkloadLimits {
        workload: "Llama 3 70B pre-training".into(),
        limits: Limits {
            max_slowdown_percent: Some(500.0),
            ..Limits::default()
        },
    });
    let result = search(request).unwrap();
    assert_eq!(result.checks.len(), 1);
    assert_eq!(
        result.checks[0].path,
        "targets.workloads[0].limits.max_slowdown_percent"
    );
    assert_eq!(result.checks[0].limit, 500.0);
    assert_eq!(result.frontier.len(), 1);
}

#[test]
fn a_tier_limit_rules_out_three_tier_fabrics() {
    let mut request = SearchRequest::new(training_base());
    request.freedoms.topologies = vec![Topology::Auto, Topology::ThreeTier];
    request.constraints.max_tiers = Some(2);
    let mut s = Search::new(request).unwrap();
    s.run();
    for record in s.records() {
        let three_tier = s
            .choice(record.id)
            .unwrap()
            .fabrics
            .iter()
            .any(|f| f.topology == Topology::ThreeTier);
        assert_eq!(!record.feasible(), three_tier, "{record:?}");
    }
}

#[test]
fn a_growth_target_is_built_into_every_candidate_and_costs_spines() {
    let base = search(SearchRequest::new(training_base())).unwrap();
    let mut request = SearchRequest::new(training_base());
    request.constraints.growth_target_nodes = Some(64);
    let mut s = Search::new(request).unwrap();
    s.run();
    assert_eq!(s.spec(0).unwrap().cluster.growth_target_nodes, Some(64));
    let grown = s.result();
    assert!(grown.frontier[0].record.cost_usd > base.frontier[0].record.cost_usd);
}

#[test]
fn a_training_explanation_binds_on_the_slowdown_target() {
    let mut request = SearchRequest::new(training_base());
    request.freedoms.technologies = vec![Technology::IbNdr, Technology::Tcp25, Technology::Roce200];
    request.freedoms.nics_per_node = vec![8];
    request.targets.every_workload.max_slowdown_percent = Some(5.0);
    let mut s = Search::new(request).unwrap();
    s.run();
    let frontier = s.frontier();
    let why = s.explain(frontier[0].id).unwrap();
    let binding = why.binding.unwrap();
    assert_eq!(s.checks()[binding.check].measure, Measure::Slowdown(0));
    assert!(why.summary.contains("binding check is step-time slowdown"));
}

#[test]
fn a_request_read_from_json_upgrades_its_base_and_names_wrong_fields_by_path() {
    let v1 = r#"{ "schema_version": 1, "title": "70B FP16 data-parallel training",
        "training": { "parameters": 70e9, "precision": "fp16", "gpus": 1024, "gpus_per_node": 8,
                      "link_gbps": 400 } }"#;
    let good = format!(r#"{{ "base": {v1}, "freedoms": {{ "leaf_oversubscription": [1, 2] }} }}"#);
    let request = SearchRequest::from_json(&good).unwrap();
    assert_eq!(request.base.schema_version, SPEC_VERSION);
    assert_eq!(search(request).unwrap().space, 2);
    let wrong = format!(
        r#"{{ "base": {}, "freedoms": {{ "nics_per_node": [-1] }} }}"#,
        examples::SEVENTY_B_TRAINING
    );
    let errors = SearchRequest::from_json(&wrong).unwrap_err();
    assert_eq!(errors.0[0].path, "freedoms.nics_per_node[0]", "{errors}");
    let unknown = format!(
        r#"{{ "base": {}, "budget": 5 }}"#,
        examples::SEVENTY_B_TRAINING
    );
    assert!(SearchRequest::from_json(&unknown).is_err());
    let bad_base = r#"{ "base": { "schema_version": 2, "title": "x", "cluster": { "gpu": "h100-sxm",
        "gpus_per_node": 8, "nics_per_node": 8, "nodes": 0 }, "fabrics": [] } }"#;
    let errors = SearchRequest::from_json(bad_base).unwrap_err();
    assert!(errors.for_path("base.cluster.nodes").is_some(), "{errors}");
}

#[test]
fn the_frontier_is_decided_on_each_candidates_network_as_placed_cheapest_first() {
    let search = latency_search(Technology::ALL.to_vec());
    let result = search.result();
    assert!(result.frontier.len() > 1);
    for point in &result.frontier {
        // Placed as the planner places the candidate's own design, and compared so.
        let report = evaluate(&search.spec(point.record.id).unwrap()).unwrap();
        assert_eq!(point.placed.as_ref(), report.placed.as_ref());
        assert!(point.record.placed);
        assert_eq!(report.network().cost_usd.dollars(), point.record.cost_usd);
        assert_eq!(report.network().power_w.watts(), point.record.power_w);
        let placed = point.placed.as_ref().unwrap();
        assert_eq!(point.network(), (placed.cost_usd, placed.power_w));
    }
    let costs: Vec<f64> = result
        .frontier
        .iter()
        .map(|c| c.network().0.dollars())
        .collect();
    assert!(costs.windows(2).all(|w| w[0] <= w[1]), "{costs:?}");
    let summary = &result.summary;
    let named = format!("candidate {} ", result.frontier[0].record.id);
    assert!(
        summary.contains(&named) && summary.contains("as placed on the floor"),
        "{summary}"
    );
}

/// A search held to a slowdown target says what its answer rests on: the share of the gradient
/// traffic that hides behind the backward pass, and the cheapest's slowdown without it.
#[test]
fn a_search_held_to_a_slowdown_target_states_the_overlap_its_answer_rests_on() {
    let mut request = SearchRequest::new(training_base());
    request.freedoms.technologies =
        vec![Technology::IbNdr, Technology::Roce400, Technology::Tcp100];
    request.targets.every_workload.max_slowdown_percent = Some(5.0);
    let result = search(request).unwrap();
    let rests_on = result.rests_on.as_deref().expect("the overlap is named");
    assert!(
        rests_on.contains("0.5 of the last micro-batch's backward pass")
            && rests_on.contains("with none")
            && rests_on.contains("5 % target"),
        "{rests_on}"
    );
    assert!(result.summary.contains(rests_on));
}

/// A search that varies the technology builds each on the switch the planner chooses for it,
/// the same choice the design, the report and the technology comparison show.
#[test]
fn each_technology_a_search_tries_runs_on_the_switch_the_planner_chooses() {
    let mut request = SearchRequest::new(training_base());
    request.freedoms.technologies =
        vec![Technology::IbNdr, Technology::Roce400, Technology::Tcp100];
    request.freedoms.fabrics = vec!["compute".into()];
    let search = Search::new(request).unwrap();
    let mut seen = Vec::new();
    for id in 0..search.result().space {
        let choice = search.choice(id).unwrap();
        let mut open = search.spec(id).unwrap();
        open.fabrics[0].switch = None;
        let report = evaluate(&open).unwrap();
        assert_eq!(choice.fabrics[0].switch, report.fabrics[0].switch);
        seen.push((
            choice.fabrics[0].technology,
            choice.fabrics[0].switch.clone(),
        ));
    }
    assert_eq!(
        seen,
        [
            (Technology::IbNdr, "qm9700".to_string()),
            (Technology::Roce400, "sn5400".to_string()),
            (Technology::Tcp100, "sn4600c".to_string()),
        ]
    );
    // A base design that names its switch keeps it.
    let mut request = SearchRequest::new(training_base());
    request.base.fabrics[0].switch = Some("qm9700".into());
    let mut search = Search::new(request).unwrap();
    search.run();
    let result = search.result();
    assert!(!result.frontier.is_empty());
    assert!(result
        .frontier
        .iter()
        .all(|p| p.choice.fabrics[0].switch == "qm9700"));
}

/// Every freedom open at once: three arrangements, 32 NIC counts, every technology and switch
/// model, four topologies and many oversubscriptions on each of three fabrics.
fn everything_open(max_candidates: u64) -> SearchRequest {
    let mut request = SearchRequest::new(DesignSpec::from_json(examples::HYBRID).unwrap());
    let f = &mut request.freedoms;
    f.arrangements = vec![
        Arrangement::AsDesigned,
        Arrangement::Shared,
        Arrangement::Separate,
    ];
    f.nics_per_node = (1..=32).collect();
    f.technologies = Technology::ALL.to_vec();
    f.switch_models = true;
    f.port_speeds_gbps = vec![10.0, 25.0, 40.0, 50.0, 100.0, 200.0, 400.0, 800.0];
    f.topologies = vec![
        Topology::Auto,
        Topology::TwoTier,
        Topology::RailOptimized,
        Topology::ThreeTier,
    ];
    f.leaf_oversubscription = (0..32).map(|i| 1.0 + f64::from(i) * 0.25).collect();
    f.spine_oversubscription = (0..32).map(|i| 1.0 + f64::from(i) * 0.25).collect();
    request.max_candidates = max_candidates;
    request
}

/// The same request with every list in reverse order.
fn reversed(mut request: SearchRequest) -> SearchRequest {
    let f = &mut request.freedoms;
    f.arrangements.reverse();
    f.nics_per_node.reverse();
    f.technologies.reverse();
    f.port_speeds_gbps.reverse();
    f.topologies.reverse();
    f.leaf_oversubscription.reverse();
    f.spine_oversubscription.reverse();
    request
}

fn frontier_choices(search: &Search) -> Vec<String> {
    let mut choices: Vec<String> = search
        .frontier()
        .iter()
        .map(|r| serde_json::to_string(&search.choice(r.id).unwrap()).unwrap())
        .collect();
    choices.sort_unstable();
    choices
}

#[test]
fn a_space_too_large_to_count_is_counted_saturating_and_said_to_be() {
    let search = Search::new(everything_open(2_000)).unwrap();
    let result = search.result();
    assert!(!result.space_counted);
    assert_eq!(result.space, u64::MAX);
    let mut search = search;
    search.run();
    let summary = search.result().summary;
    assert!(
        summary.contains("more than 18,446,744,073,709,551,615 candidates (too many to count)"),
        "{summary}"
    );
    assert!(summary.contains("Only 2,000 of"), "{summary}");
}

#[test]
fn a_sample_of_a_huge_space_visits_every_arrangement_and_spreads_over_the_nic_counts() {
    let mut search = Search::new(everything_open(3_000)).unwrap();
    search.run();
    let mut arrangements = std::collections::HashMap::new();
    let mut nics = std::collections::HashMap::new();
    for r in search.records() {
        let choice = search.choice(r.id).unwrap();
        *arrangements.entry(choice.arrangement).or_insert(0u32) += 1;
        *nics.entry(choice.nics_per_node).or_insert(0u32) += 1;
    }
    assert_eq!(arrangements.len(), 3, "{arrangements:?}");
    for (arrangement, n) in &arrangements {
        assert!((900..=1100).contains(n), "{arrangement:?}: {n} of 3,000");
    }
    assert_eq!(nics.len(), 32, "{nics:?}");
    for (count, n) in &nics {
        assert!((60..=130).contains(n), "{count} NICs: {n} of 3,000");
    }
}

#[test]
fn the_order_of_the_request_lists_changes_neither_the_sample_nor_the_frontier() {
    // Sampled: 2,000 of a space too large to count.
    let mut forward = Search::new(everything_open(2_000)).unwrap();
    let mut backward = Search::new(reversed(everything_open(2_000))).unwrap();
    forward.run();
    backward.run();
    assert!(!frontier_choices(&forward).is_empty());
    assert_eq!(frontier_choices(&forward), frontier_choices(&backward));
    // Exhaustive: a space small enough to visit whole.
    let small = || {
        let mut request = SearchRequest::new(training_base());
        request.freedoms.nics_per_node = vec![8, 1, 4];
        request.freedoms.technologies =
            vec![Technology::Tcp100, Technology::IbNdr, Technology::Roce400];
        request.freedoms.leaf_oversubscription = vec![2.0, 1.0];
        request.targets.every_workload.max_slowdown_percent = Some(5.0);
        request
    };
    let mut forward = Search::new(small()).unwrap();
    let mut backward = Search::new(reversed(small())).unwrap();
    forward.run();
    backward.run();
    assert!(forward.exhaustive());
    assert_eq!(frontier_choices(&forward), frontier_choices(&backward));
}

/// A 10 % sample of a space small enough to enumerate comes close to every point of the exact
/// frontier: for each, a sampled frontier point within 10 % of its cost and power and within
/// one percentage point of its slowdown.
#[test]
fn a_ten_percent_sample_finds_a_point_near_each_point_of_the_exact_frontier() {
    let request = |max_candidates| {
        let mut request = SearchRequest::new(training_base());
        let f = &mut request.freedoms;
        f.technologies = vec![
            Technology::IbNdr,
            Technology::Roce400,
            Technology::Roce200,
            Technology::Tcp100,
        ];
        f.switch_models = true;
        f.nics_per_node = vec![1, 2, 4, 8];
        f.leaf_oversubscription = vec![1.0, 1.5, 2.0, 3.0];
        f.spine_oversubscription = vec![1.0, 2.0];
        f.topologies = vec![Topology::Auto, Topology::RailOptimized];
        request.targets.every_workload.max_slowdown_percent = Some(10.0);
        request.max_candidates = max_candidates;
        request
    };
    let mut exact = Search::new(request(MAX_CANDIDATES)).unwrap();
    exact.run();
    assert!(exact.exhaustive());
    let space = exact.result().space;
    let mut sample = Search::new(request(space / 10)).unwrap();
    sample.run();
    assert!(!sample.exhaustive());
    let sampled = sample.frontier();
    for point in exact.frontier() {
        let near = sampled.iter().any(|q| {
            q.cost_usd <= point.cost_usd * 1.10
                && q.power_w <= point.power_w * 1.10
                && q.slowdown_percent <= point.slowdown_percent + 1.0
        });
        assert!(near, "nothing sampled near {point:?} ({space} candidates)");
    }
}

/// A search held to "the worst single failure cuts no GPU off" keeps only designs whose every
/// node has more than one link to each fabric: with one NIC per node, losing a port or its cable
/// cuts a node off, and such candidates fail the check.
#[test]
fn a_search_held_to_no_gpu_cut_off_by_one_failure_keeps_nodes_on_several_links() {
    // The compute fabric alone: the example's storage hangs every node on one switch.
    let mut base = training_base();
    base.workloads
        .retain(|w| matches!(w, Workload::Training(_)));
    base.fabrics.retain(|f| f.name == "compute");
    let mut request = SearchRequest::new(base);
    request.freedoms.nics_per_node = vec![1, 8];
    let unconstrained = search(request.clone()).unwrap();
    request.constraints.max_gpus_cut_off_by_one_failure = Some(0);
    let constrained = search(request).unwrap();
    assert!(
        constrained.feasible < unconstrained.feasible,
        "{} of {}",
        constrained.feasible,
        unconstrained.feasible
    );
    assert!(!constrained.frontier.is_empty());
    for candidate in &constrained.frontier {
        assert!(candidate.choice.nics_per_node > 1, "{:?}", candidate.choice);
    }
}

/// The training example's job's goodput at its checkpoint interval, percent, in `spec`'s report.
fn goodput_percent(spec: &DesignSpec) -> f64 {
    let report = evaluate(spec).unwrap();
    let g = &engine::goodput::goodput(spec, &report)[0];
    g.checkpoint.as_ref().unwrap().goodput.value.fraction() * 100.0
}

/// A search held to a goodput keeps the designs whose storage fabric writes the job's checkpoint
/// fast enough: the limit sits between the goodput the example reaches with storage on 400G
/// InfiniBand and with storage on 25G TCP; every candidate kept reaches it in its own report,
/// and every candidate refused for it breaks it by the goodput its report gives.
#[test]
fn a_search_held_to_a_goodput_keeps_designs_whose_checkpoint_writes_fast_enough() {
    let base = training_base();
    let fast = goodput_percent(&base);
    let mut slow_storage = base.clone();
    slow_storage.fabrics[1].technology = Technology::Tcp25;
    slow_storage.fabrics[1].switch = None;
    let slow = goodput_percent(&slow_storage);
    assert!(slow < fast, "{slow} {fast}");
    let limit = (slow + fast) / 2.0;
    let mut request = SearchRequest::new(base);
    request.freedoms.technologies = vec![Technology::IbNdr, Technology::Tcp25];
    request.targets.every_workload.min_goodput_percent = Some(limit);
    let mut search = Search::new(request).unwrap();
    search.run();
    let check = search
        .checks()
        .iter()
        .position(|c| matches!(c.measure, Measure::Goodput { .. }))
        .expect("a goodput check");
    let (mut kept, mut refused) = (0, 0);
    for record in search.records() {
        let Some(spec) = search.spec(record.id) else {
            continue;
        };
        match &record.status {
            Status::Frontier | Status::Dominated { .. } => {
                kept += 1;
                assert!(goodput_percent(&spec) >= limit);
            }
            Status::Infeasible { breach } if breach.check == check => {
                refused += 1;
                let goodput = goodput_percent(&spec);
                assert!(goodput < limit);
                assert!(
                    (breach.value - goodput).abs() < 1e-9,
                    "{breach:?} {goodput}"
                );
            }
            _ => {}
        }
    }
    assert!(kept > 0 && refused > 0, "{kept} kept, {refused} refused");
}

/// A goodput limit needs a checkpoint to write: a design without a storage workload refuses it,
/// naming the field, and so does a limit that is not a percentage.
#[test]
fn a_goodput_limit_without_storage_or_out_of_range_is_refused() {
    let mut base = training_base();
    base.workloads
        .retain(|w| matches!(w, Workload::Training(_)));
    let mut request = SearchRequest::new(base);
    request.targets.every_workload.min_goodput_percent = Some(99.0);
    let errors = request.validate().unwrap_err();
    let error = errors
        .for_path("targets.every_workload.min_goodput_percent")
        .unwrap();
    assert!(
        error.reason.contains("no storage workload"),
        "{}",
        error.reason
    );
    let mut request = SearchRequest::new(training_base());
    request.targets.every_workload.min_goodput_percent = Some(101.0);
    let errors = request.validate().unwrap_err();
    assert!(errors
        .for_path("targets.every_workload.min_goodput_percent")
        .is_some());
}

/// A slowdown target the 70B design meets at the engine's prediction but not across its step
/// time's interval from the published runs is said to hold only within the margin; one above
/// the interval's top is not.
#[test]
fn a_target_met_only_at_the_prediction_is_said_to_hold_within_the_margin() {
    let base = DesignSpec::from_json(engine::examples::SEVENTY_B_TRAINING).unwrap();
    let report = engine::evaluate(&base).unwrap();
    let engine::WorkloadReport::Training(t) = &report.workloads[0] else {
        panic!("a training job")
    };
    let slowdown = (t.slowdown.as_ref().unwrap().value.factor() - 1.0) * 100.0;
    let interval = &engine::uncertainty::intervals(&base, &report)[0];
    let top = (interval.high.seconds() / t.ideal_step_time.value.seconds() - 1.0) * 100.0;
    assert!(
        top > slowdown + 0.01,
        "the interval reaches past the prediction"
    );
    let answer = |limit: f64| {
        let mut request = engine::search::SearchRequest::new(base.clone());
        request.targets.every_workload.max_slowdown_percent = Some(limit);
        engine::search::search(request).unwrap().summary
    };
    let close = answer(slowdown + 0.01);
    assert!(close.contains("Within the margin: "), "{close}");
    let clear = answer(top + 1.0);
    assert!(!clear.contains("Within the margin"), "{clear}");
}

/// The SuperPOD shared with a team whose job takes 5 nodes: searched over per-node and
/// per-unit isolation, a unit of its own strands 27 nodes' GPUs (216), which a limit on
/// stranded GPUs refuses; a base design with no tenant cannot vary their isolation.
#[test]
fn tenant_isolation_is_a_dimension_of_the_search_and_stranded_gpus_a_limit() {
    let mut spec: serde_json::Value = serde_json::from_str(engine::examples::SUPERPOD_4SU).unwrap();
    spec.as_object_mut().unwrap().remove("growth");
    spec["workloads"][0]["parallelism"]["pp"] = 1.into();
    spec["workloads"][0]["parallelism"]["dp"] = 5.into();
    spec["workloads"][0]["global_batch"] = 20.into();
    spec["tenants"] = serde_json::json!([
        {"name": "research", "workloads": ["Llama 3.1 405B pre-training"]}
    ]);
    let base = DesignSpec::from_value(spec).unwrap();
    let request = |limit: Option<u64>| {
        let mut r = SearchRequest::new(base.clone());
        r.freedoms.tenant_isolation = vec![Isolation::ScalableUnit, Isolation::Node];
        r.constraints.max_stranded_gpus = limit;
        r
    };
    let open = search(request(None)).unwrap();
    assert_eq!((open.space, open.feasible), (2, 2));
    let limited = search(request(Some(0))).unwrap();
    assert_eq!(limited.feasible, 1);
    assert!(limited
        .frontier
        .iter()
        .all(|c| c.choice.tenant_isolation == Some(Isolation::Node)));
    assert!(
        limited.summary.contains("tenants' isolation: per node"),
        "{}",
        limited.summary
    );
    let mut s = Search::new(request(Some(0))).unwrap();
    s.run();
    let unit = s
        .records()
        .iter()
        .find(|r| s.choice(r.id).unwrap().tenant_isolation == Some(Isolation::ScalableUnit))
        .unwrap()
        .clone();
    let b = breach(&unit).expect("the unit of its own breaks the limit");
    assert_eq!((b.value, b.limit), (216.0, 0.0));
    let mut alone = SearchRequest::new(DesignSpec::from_json(engine::examples::RAG).unwrap());
    alone.freedoms.tenant_isolation = vec![Isolation::Node];
    let Err(refused) = Search::new(alone) else {
        panic!("a design with no tenant cannot vary their isolation")
    };
    assert!(refused
        .0
        .iter()
        .any(|e| e.path == "freedoms.tenant_isolation"));
}

/// Candidates that differ only in a choice that changes nothing (the oversubscription of a
/// fabric that fits one switch) tie on every figure: the frontier keeps them all, and takes
/// them together as one design with the others' ids, the summary counting both.
#[test]
fn frontier_candidates_of_the_same_figures_are_taken_together() {
    let mut request = SearchRequest::new(DesignSpec::from_json(examples::HYBRID).unwrap());
    request.freedoms.technologies = vec![Technology::IbNdr, Technology::Roce200];
    request.freedoms.leaf_oversubscription = vec![1.0, 2.0];
    request.freedoms.nics_per_node = vec![4, 8];
    request.targets.every_workload.max_slowdown_percent = Some(10.0);
    let result = search(request).unwrap();
    let distinct = result.distinct_frontier();
    assert!(
        distinct.len() < result.frontier.len(),
        "some candidates tie"
    );
    let mut ids: Vec<u64> = Vec::new();
    for (i, (first, same)) in distinct.iter().enumerate() {
        ids.push(first.record.id);
        for id in same {
            let other = result.frontier.iter().find(|c| c.record.id == *id).unwrap();
            assert!(first.record.same_figures(&other.record) && first.record.id < *id);
            ids.push(*id);
        }
        for (other, _) in &distinct[i + 1..] {
            assert!(!first.record.same_figures(&other.record));
        }
    }
    ids.sort_unstable();
    let mut all: Vec<u64> = result.frontier.iter().map(|c| c.record.id).collect();
    all.sort_unstable();
    assert_eq!(ids, all, "every frontier candidate is in one group");
    let said = format!(
        "{} on the frontier, {} with distinct figures.",
        result.frontier.len(),
        distinct.len()
    );
    assert!(result.summary.contains(&said), "{}", result.summary);
}
