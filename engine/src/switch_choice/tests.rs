use super::*;
use crate::examples;

#[test]
fn infiniband_ndr_is_carried_by_its_own_generation_only() {
    let keys: Vec<&str> = candidates(Technology::IbNdr, 400.0)
        .map(|s| s.key)
        .collect();
    assert_eq!(keys, ["qm9700"]);
    let keys: Vec<&str> = candidates(Technology::IbXdr, 800.0)
        .map(|s| s.key)
        .collect();
    assert_eq!(keys, ["q3400"]);
}

#[test]
fn every_ethernet_switch_with_ports_that_fast_is_a_candidate() {
    let keys: Vec<&str> = candidates(Technology::Roce400, 400.0)
        .map(|s| s.key)
        .collect();
    assert_eq!(keys, ["sn5600", "sn5400", "tomahawk5", "tomahawk6"]);
    assert!(candidates(Technology::Roce800, 800.0).all(|s| s.key != "sn5400"));
}

/// The 16-node training example at 32 nodes: Llama 3 70B with TP8 over 32 DGX H100 and its
/// storage fabric.
fn thirty_two_nodes(technology: &str) -> DesignSpec {
    let mut v: serde_json::Value = serde_json::from_str(examples::SEVENTY_B_TRAINING).unwrap();
    v["cluster"]["nodes"] = 32.into();
    v["workloads"][0]["parallelism"]["dp"] = 32.into();
    v["fabrics"][0]["technology"] = technology.into();
    DesignSpec::from_value(v).unwrap()
}

fn line_total(f: &crate::report::FabricReport, prefix: &str) -> f64 {
    f.bom
        .iter()
        .filter(|l| l.item.starts_with(prefix))
        .map(|l| l.total_usd.dollars())
        .sum()
}

#[test]
fn roce_400g_costs_what_its_switches_and_optics_explain_against_infiniband() {
    let nominal = |t| crate::evaluate_unplaced(&thirty_two_nodes(t), crate::Conditions::NORMAL);
    let (ib, roce) = (nominal("ib_ndr").unwrap(), nominal("roce400").unwrap());
    let (ib_fabric, roce_fabric) = (&ib.fabrics[0], &roce.fabrics[0]);
    // Same layout: 8 rail leaves with 32 nodes each, 32 uplinks each for the 32 ports in use.
    assert_eq!(roce_fabric.switch, "sn5400");
    for f in [ib_fabric, roce_fabric] {
        assert_eq!(
            (f.plan.leaves, f.plan.leaf_uplinks, f.plan.spines),
            (8, 32, 4)
        );
    }
    // The whole difference is the switches' and the transceivers' prices.
    let explained = (line_total(roce_fabric, "switch:") - line_total(ib_fabric, "switch:"))
        + (line_total(roce_fabric, "optic:") - line_total(ib_fabric, "optic:"));
    let difference = roce_fabric.cost_usd.dollars() - ib_fabric.cost_usd.dollars();
    assert!(
        (difference - explained).abs() < 1.0,
        "{difference} against {explained}"
    );
    // As placed on the floor, per GPU and with the storage fabric.
    let placed = |t| {
        crate::evaluate(&thirty_two_nodes(t))
            .unwrap()
            .headline
            .cost_per_gpu_usd
            .dollars()
    };
    let ratio = placed("roce400") / placed("ib_ndr");
    assert!(
        (1.0..1.10).contains(&ratio),
        "RoCE 400G at {ratio:.3}× InfiniBand per GPU"
    );
}

#[test]
fn the_planner_says_which_switch_it_chose_and_the_runner_up() {
    let report =
        crate::evaluate_unplaced(&thirty_two_nodes("roce400"), crate::Conditions::NORMAL).unwrap();
    let choice = report.fabrics[0].switch_choice.as_ref().unwrap();
    assert!(
        choice
            .reason
            .starts_with("NVIDIA Spectrum-4 SN5400: the least-cost switch"),
        "{}",
        choice.reason
    );
    let runner_up = choice.runner_up.as_deref().unwrap();
    assert!(
        choice.reason.contains(switch_named(runner_up)),
        "{}",
        choice.reason
    );
    assert!(choice.runner_up_cost_usd.unwrap().dollars() > choice.cost_usd.dollars());
    assert_eq!(choice.cost_usd, report.fabrics[0].cost_usd);
}

fn switch_named(key: &str) -> &'static str {
    crate::catalog::switch(key).unwrap().short_name()
}

#[test]
fn a_named_switch_is_kept_and_no_choice_is_reported() {
    let mut spec = thirty_two_nodes("roce400");
    spec.fabrics[0].switch = Some("sn5600".into());
    let report = crate::evaluate(&spec).unwrap();
    assert_eq!(report.fabrics[0].switch, "sn5600");
    assert!(report.fabrics[0].switch_choice.is_none());
}

#[test]
fn the_choice_is_the_cheapest_candidate_that_builds_the_fabric() {
    let spec = thirty_two_nodes("roce400");
    let chosen = crate::evaluate(&spec).unwrap().fabrics[0]
        .switch_choice
        .clone()
        .unwrap();
    for candidate in candidates(Technology::Roce400, 400.0) {
        let mut pinned = spec.clone();
        pinned.fabrics[0].switch = Some(candidate.key.to_string());
        let report = crate::evaluate_unplaced(&pinned, crate::Conditions::NORMAL).unwrap();
        assert!(
            report.fabrics[0].cost_usd.dollars() >= chosen.cost_usd.dollars(),
            "{}",
            candidate.key
        );
    }
}
