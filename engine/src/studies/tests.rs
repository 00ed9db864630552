use super::*;
use crate::evaluate::evaluate;
use crate::examples;

fn spec(text: &str) -> DesignSpec {
    DesignSpec::from_json(text).unwrap()
}

#[test]
fn slower_technologies_take_longer_for_the_same_training() {
    let design = spec(examples::SEVENTY_B_TRAINING);
    let floors = crate::SharedFloors::new();
    let points = technology_comparison(&design, &evaluate(&design).unwrap(), 0, &floors);
    assert_eq!(points.len(), 4);
    for pair in points.windows(2) {
        assert!(pair[0].communication <= pair[1].communication, "{pair:?}");
    }
}

#[test]
fn the_scaling_curve_includes_the_designed_size() {
    let points = scaling_curve(&spec(examples::SEVENTY_B_TRAINING), 0);
    assert!(points.iter().any(|p| p.nodes == 16));
    assert!(points.len() >= 4);
}

#[test]
fn a_healthy_link_is_no_slowdown_and_a_worse_link_never_speeds_up() {
    let points = degraded_link_curve(&spec(examples::SEVENTY_B_INFERENCE_400G), 0);
    assert_eq!(points[0].slowdown, Slowdown::new(1.0));
    for pair in points.windows(2) {
        assert!(pair[1].slowdown >= pair[0].slowdown);
    }
}

#[test]
fn oversubscribed_leaves_never_speed_a_workload_up() {
    let spec = spec(crate::examples::SEVENTY_B_TRAINING);
    let points = oversubscription_sweep(&spec, 0);
    assert_eq!(points.len(), OVERSUBSCRIPTIONS.len());
    assert_eq!(points[0].slowdown, Slowdown::new(1.0));
    for pair in points.windows(2) {
        assert!(pair[1].slowdown.factor() >= pair[0].slowdown.factor() - 1e-12);
    }
}

#[test]
fn one_lost_spine_of_two_leaves_half_the_bisection() {
    let spec = spec(crate::examples::SEVENTY_B_TRAINING);
    let report = evaluate(&spec).unwrap();
    let compute = &report.fabrics[0];
    // 16 nodes on 64-port leaves: 16 uplinks per rail leaf at 1:1, over 2 spines.
    assert_eq!((compute.plan.leaf_uplinks, compute.plan.spines), (16, 2));
    let losses = spine_losses(&report);
    let one = losses
        .iter()
        .find(|l| l.fabric == "compute" && l.lost == 1)
        .unwrap();
    assert!(
        (one.bisection_after.bits_per_second() - 0.5 * compute.bisection.value.bits_per_second())
            .abs()
            < 1.0
    );
    // Rail-optimized rings stay inside the leaves: nothing needs the spines.
    assert!(one.survives);
    // A single-switch fabric has no spine to lose.
    assert!(!losses.iter().any(|l| l.fabric == "storage"));
}

#[test]
fn a_spine_loss_that_leaves_less_than_the_traffic_needs_does_not_survive() {
    let spec = spec(crate::examples::SUPERPOD_4SU);
    let mut report = evaluate(&spec).unwrap();
    let f = report
        .fabrics
        .iter_mut()
        .find(|f| f.plan.spines > 2)
        .unwrap();
    let tier = f.tiers.iter_mut().find(|t| t.tier == "leaf-spine").unwrap();
    // Traffic at 90 % of the tier: one lost spine of many leaves too little.
    tier.required = crate::units::ByteRate::new(tier.available.bytes_per_second() * 0.9);
    let name = f.name.clone();
    let spines = f.plan.spines;
    let losses = spine_losses(&report);
    let one = losses
        .iter()
        .find(|l| l.fabric == name && l.lost == 1)
        .unwrap();
    assert_eq!(
        one.survives,
        f64::from(spines - 1) / f64::from(spines) >= 0.9
    );
    let two = losses
        .iter()
        .find(|l| l.fabric == name && l.lost == 2)
        .unwrap();
    assert_eq!(
        two.survives,
        f64::from(spines - 2) / f64::from(spines) >= 0.9
    );
}

#[test]
fn checkpointing_less_often_spends_less_time_writing() {
    let spec = spec(crate::examples::SEVENTY_B_TRAINING);
    let points = checkpoint_sweep(&spec, 1);
    assert_eq!(points.len(), CHECKPOINT_INTERVALS_MIN.len());
    for p in &points {
        // overhead = write time ÷ interval
        let expected = p.write_time.seconds() / p.interval_minutes.to_seconds().seconds();
        assert!((p.overhead.fraction() - expected).abs() < 1e-9, "{p:?}");
    }
    assert!(points[0].overhead.fraction() > points[5].overhead.fraction());
    assert!(
        checkpoint_sweep(&spec, 0).is_empty(),
        "the training workload has no checkpoint"
    );
}

#[test]
fn the_design_s_own_technology_is_read_from_its_report_as_evaluating_it_again_finds() {
    let mut read_from_report = 0;
    for (name, text) in examples::ALL {
        let design = spec(text);
        let placed = evaluate(&design).unwrap();
        // A report not placed on its floor is not read: every technology is evaluated.
        let unplaced = crate::evaluate_unplaced(&design, crate::Conditions::NORMAL).unwrap();
        for workload in 0..design.workloads.len() {
            let read = technology_comparison(&design, &placed, workload, &SharedFloors::new());
            assert_eq!(
                read,
                technology_comparison(&design, &unplaced, workload, &SharedFloors::new()),
                "{name}, workload {workload}"
            );
            let own = design
                .fabrics
                .iter()
                .find(|f| f.name == design.workloads[workload].fabric())
                .unwrap();
            if let Some(point) = read.iter().find(|p| p.technology == own.technology) {
                assert_eq!(point.network_cost_usd, placed.network().cost_usd, "{name}");
                read_from_report += 1;
            }
        }
    }
    assert!(read_from_report >= 3, "{read_from_report} points read");
}

/// A design edited in the planner is compared again after each edit: an edit that moves no
/// cable (the training job's batch) takes every other technology's floor from those laid for
/// the comparison before it, which then equals the comparison of a fresh evaluation.
#[test]
fn a_comparison_after_an_edit_that_moves_no_cable_lays_no_floor_again() {
    let floors = SharedFloors::new();
    let design = spec(examples::SEVENTY_B_TRAINING);
    let first = technology_comparison(&design, &evaluate(&design).unwrap(), 0, &floors);
    assert_eq!(floors.floors_laid(), 3, "the three other technologies");
    let mut edited = design.clone();
    let Some(Workload::Training(t)) = edited.workloads.get_mut(0) else {
        panic!("a training job")
    };
    t.global_batch *= 2;
    let report = evaluate(&edited).unwrap();
    let again = technology_comparison(&edited, &report, 0, &floors);
    assert_eq!(floors.floors_laid(), 3, "none laid again");
    assert_eq!(
        again,
        technology_comparison(&edited, &report, 0, &SharedFloors::new())
    );
    assert_eq!(first.len(), again.len());
    // More nodes move cables: every technology's floor is laid anew.
    let mut grown = design.clone();
    grown.cluster.nodes *= 2;
    if let Some(Workload::Training(t)) = grown.workloads.get_mut(0) {
        t.parallelism.dp *= 2;
        t.global_batch *= 2;
    }
    let report = evaluate(&grown).unwrap();
    let grown_points = technology_comparison(&grown, &report, 0, &floors);
    assert_eq!(
        grown_points,
        technology_comparison(&grown, &report, 0, &SharedFloors::new())
    );
    assert_eq!(floors.floors_laid(), 6);
}
