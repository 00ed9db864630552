//! The limits that bound the work one spec can ask of the engine: every list and every fabric
//! has a documented maximum, and a spec beyond it is refused at its field path.

use engine::{
    evaluate, examples, DesignSpec, MAX_FABRICS, MAX_FABRIC_ENDPOINTS, MAX_NODES, MAX_OVERRIDES,
    MAX_WORKLOADS,
};
use serde_json::{json, Value};

fn training_example() -> Value {
    serde_json::from_str(examples::SEVENTY_B_TRAINING).unwrap()
}

fn reason_at(spec: Value, path: &str) -> String {
    let errors = DesignSpec::from_value(spec).unwrap_err();
    errors
        .for_path(path)
        .unwrap_or_else(|| panic!("an error at {path}: {errors}"))
        .reason
        .clone()
}

#[test]
fn more_workloads_than_the_limit_are_refused_with_the_count() {
    let mut spec = training_example();
    let first = spec["workloads"][0].clone();
    spec["workloads"] = Value::Array(vec![first; MAX_WORKLOADS + 1]);
    assert_eq!(
        reason_at(spec, "workloads"),
        format!(
            "holds {} workloads; at most {MAX_WORKLOADS} are allowed",
            MAX_WORKLOADS + 1
        )
    );
}

#[test]
fn thousands_of_workloads_are_refused_without_checking_each() {
    let mut spec = training_example();
    let first = spec["workloads"][0].clone();
    spec["workloads"] = Value::Array(vec![first; 5000]);
    let errors = DesignSpec::from_value(spec).unwrap_err();
    assert_eq!(errors.0.len(), 1, "{errors}");
}

#[test]
fn more_fabrics_than_the_limit_are_refused() {
    let mut spec = training_example();
    let fabrics: Vec<Value> = (0..=MAX_FABRICS)
        .map(|i| {
            let mut f = spec["fabrics"][0].clone();
            f["name"] = json!(format!("fabric-{i}"));
            f
        })
        .collect();
    spec["fabrics"] = Value::Array(fabrics);
    assert!(reason_at(spec, "fabrics").contains(&format!("at most {MAX_FABRICS}")));
}

#[test]
fn more_overrides_than_the_limit_are_refused() {
    let mut spec = training_example();
    spec["overrides"] = Value::Array(vec![
        json!({ "item": "switch:qm9700", "unit_price_usd": 1.0 });
        MAX_OVERRIDES + 1
    ]);
    assert!(reason_at(spec, "overrides").contains(&format!("at most {MAX_OVERRIDES}")));
}

#[test]
fn a_fabric_of_more_than_a_million_ports_is_refused_with_the_arithmetic() {
    let mut spec = training_example();
    spec["cluster"]["nodes"] = json!(MAX_NODES);
    spec["cluster"]["nics_per_node"] = json!(8);
    let reason = reason_at(spec, "fabrics[0].ports_per_node");
    assert!(
        reason.contains(&format!("{MAX_NODES} nodes × 8 ports"))
            && reason.contains(&MAX_FABRIC_ENDPOINTS.to_string()),
        "{reason}"
    );
}

#[test]
fn a_fabric_of_exactly_a_million_ports_is_accepted() {
    let mut spec = training_example();
    let nodes = (MAX_FABRIC_ENDPOINTS / 8) as u32;
    spec["cluster"]["nodes"] = json!(nodes);
    spec["workloads"][0]["parallelism"]["dp"] = json!(nodes);
    spec["workloads"][0]["global_batch"] = json!(nodes);
    spec["workloads"][1]["samples_per_step"] = json!(nodes);
    spec["fabrics"][1]["extra_endpoints"] = json!(0);
    let spec = DesignSpec::from_value(spec).unwrap();
    assert_eq!(spec.cluster.nodes, 125_000);
    // Sizing may still find no switch of the catalog that reaches so far in three tiers; it
    // says so at the fabric instead of failing.
    if let Err(errors) = evaluate(&spec) {
        assert!(
            errors
                .to_string()
                .contains("choose a switch with more ports"),
            "{errors}"
        );
    }
}

#[test]
fn a_workload_started_on_a_node_the_cluster_does_not_have_is_refused_at_its_field() {
    for node in [0, 17] {
        let mut spec = training_example();
        spec["workloads"][0]["first_node"] = json!(node);
        assert_eq!(
            reason_at(spec, "workloads[0].first_node"),
            "must be a node of the cluster, 1 to 16"
        );
    }
    let mut spec = training_example();
    spec["workloads"][0]["first_node"] = json!(1);
    assert!(evaluate(&DesignSpec::from_value(spec).unwrap()).is_ok());
}
