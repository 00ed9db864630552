//! Every shipped example is a valid spec that evaluates.

use engine::{evaluate, examples, DesignSpec, WorkloadReport};

#[test]
fn every_example_evaluates() {
    for (name, text) in examples::ALL {
        let spec = DesignSpec::from_json(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let report = evaluate(&spec).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(report.headline.switches > 0, "{name} sizes switches");
        println!(
            "== {name}: {} switches, ${:.0}/GPU",
            report.headline.switches,
            report.totals.cost_per_gpu_usd.dollars()
        );
        for f in &report.fabrics {
            println!(
                "  fabric {}: {} tiers, {} leaves {} spines {} cores; {} node-leaf, {} leaf-spine; bottleneck {:?}",
                f.name, f.plan.tiers, f.plan.leaves, f.plan.spines, f.plan.cores, f.plan.node_leaf_links, f.plan.leaf_spine_links, f.bottleneck
            );
            for t in &f.tiers {
                println!(
                    "    {} avail {} req {} headroom {:?}",
                    t.tier, t.available, t.required, t.headroom_percent
                );
            }
        }
        for w in &report.workloads {
            match w {
                WorkloadReport::Training(t) => println!(
                    "  training {}: compute {} comm {} exposed {} step {} ideal {} slowdown {:?}",
                    t.name,
                    t.compute_time.value,
                    t.communication_time.value,
                    t.exposed_communication.value,
                    t.step_time.value,
                    t.ideal_step_time.value,
                    t.slowdown.as_ref().map(|s| s.value)
                ),
                WorkloadReport::Inference(i) => println!(
                    "  inference {}: per layer {} per token {} added {} prefill {}",
                    i.name,
                    i.per_layer_time.value,
                    i.communication_per_token.value,
                    i.network_added_per_token.value,
                    i.prefill_communication.value
                ),
                WorkloadReport::Rag(r) => println!(
                    "  rag {}: {} per query, {} total, network {} share {}",
                    r.name,
                    r.bytes_per_query.value,
                    r.bandwidth.value,
                    r.network_time_per_query.value,
                    r.share_of_budget.value
                ),
                WorkloadReport::Storage(s) => println!(
                    "  storage {}: need {} prov {} avail {} ckpt {} write {} budget ok {}",
                    s.name,
                    s.read_needed.value,
                    s.read_provisioned.value,
                    s.read_available.value,
                    s.checkpoint_size.value,
                    s.checkpoint_write_time.value,
                    s.within_budget
                ),
            }
        }
        for f in &report.findings {
            println!("  [{}] {}: {}", f.severity.label(), f.rule, f.message);
        }
    }
}
