use super::*;
use crate::units::Micros;

fn design() -> DesignSpec {
    DesignSpec::from_json(crate::examples::SEVENTY_B_TRAINING).unwrap()
}

/// An all_reduce_perf run on `nodes` nodes of 8 GPUs, over `sizes`, that measured exactly what
/// `spec` predicts: the cluster as if it were built with `spec`'s calibration.
fn measured_as(spec: &DesignSpec, nodes: u32, sizes: &[u64]) -> Run {
    crate::baseline::predicted_run(spec, "compute", nodes, sizes).unwrap()
}

/// The design as if built with `efficiency` and network hops `latency_scale` times slower than
/// the defaults.
fn built_with(efficiency: f64, latency_scale: f64) -> DesignSpec {
    let mut built = design();
    let c = &mut built.calibration;
    c.infiniband_efficiency = efficiency;
    c.network_hop_latency_us *= latency_scale;
    c.ll_network_hop_latency_us *= latency_scale;
    c.ll128_network_hop_latency_us *= latency_scale;
    built
}

/// 8 B to 8 GiB, doubling: what `nccl-tests -b 8 -e 8G -f 2` measures.
fn sweep() -> Vec<u64> {
    (3..=33).map(|p| 1u64 << p).collect()
}

fn baselines(runs: &[Run]) -> Vec<Baseline<'_>> {
    runs.iter()
        .map(|run| Baseline {
            run,
            stated: Stated::default(),
            algorithm: None,
        })
        .collect()
}

/// A fabric built with 80 % efficiency and network hops 1.5 times slower than the defaults,
/// measured at 2, 8 and 16 nodes over the whole sweep: the fit finds every value again within
/// 1 %, its predictions meet the measurements, and fitted without the 16-node run it predicts
/// that run too.
#[test]
fn the_fit_recovers_the_calibration_the_measurements_were_made_with() {
    let built = built_with(0.80, 1.5);
    let runs: Vec<Run> = [2, 8, 16]
        .iter()
        .map(|&n| measured_as(&built, n, &sweep()))
        .collect();
    let spec = design();
    let fit = fit(&spec, "compute", &baselines(&runs)).unwrap();
    assert_eq!(fit.efficiency_field, "infiniband_efficiency");
    assert!((fit.efficiency - 0.80).abs() < 0.01 * 0.80, "{fit:?}");
    assert_eq!(
        fit.efficiency_only_at_least, None,
        "at 0.80 the network bounds the runs"
    );
    let latency = fit.network_hop_latency_us.unwrap().micros();
    let truth = spec.calibration.network_hop_latency_us.micros() * 1.5;
    assert!(
        (latency - truth).abs() < 0.01 * truth,
        "{latency} µs, built with {truth}"
    );
    // Each protocol band's latency too: the sweep's small messages go LL, its middle ones LL128.
    let c = &spec.calibration;
    for (fitted, default) in [
        (fit.ll_network_hop_latency_us, c.ll_network_hop_latency_us),
        (
            fit.ll128_network_hop_latency_us,
            c.ll128_network_hop_latency_us,
        ),
    ] {
        let (fitted, default) = (
            fitted.expect("a band the sweep covers").micros(),
            default.micros(),
        );
        assert!(
            (fitted - 1.5 * default).abs() < 0.01 * 1.5 * default,
            "{fitted} µs, built with {}",
            1.5 * default
        );
    }
    assert!(fit.quality.mape_percent < 1.0, "{:?}", fit.quality);
    let held = fit.held_out.unwrap();
    assert_eq!(held.held_out, "the largest rank count, 128");
    assert!(held.quality.mape_percent < 2.0, "{:?}", held.quality);
    // And the reverse: fitted on 8 and 16 nodes, tested on 2.
    let reverse = fit.held_out_smallest.unwrap();
    assert_eq!(reverse.held_out, "the smallest rank count, 16");
    assert!(reverse.quality.mape_percent < 2.0, "{:?}", reverse.quality);
}

/// A fit applied to the design: its values are the calibration's, which says it was fitted from
/// which baselines and when; the design's predictions then meet the measurements; and a value
/// changed by hand afterwards shows as changed.
#[test]
fn a_fit_applied_is_the_design_s_calibration_and_says_where_it_came_from() {
    let spec = design();
    assert_eq!(
        spec.calibration.source(),
        crate::spec::CalibrationSource::Defaults
    );
    let built = built_with(0.80, 1.5);
    let runs: Vec<Run> = [2, 8, 16]
        .iter()
        .map(|&n| measured_as(&built, n, &sweep()))
        .collect();
    let fit = fit(&spec, "compute", &baselines(&runs)).unwrap();
    let mut applied = spec.clone();
    applied.calibration = fit.applied_to(
        &spec.calibration,
        fit.provenance(vec![1, 2, 3], "2026-12-06"),
    );
    let c = &applied.calibration;
    // The fit's values, to the digits a person writes.
    assert!((c.infiniband_efficiency - fit.efficiency).abs() <= 0.0005);
    assert!(
        (c.network_hop_latency_us - fit.network_hop_latency_us.unwrap())
            .micros()
            .abs()
            <= 0.005
    );
    assert_eq!(
        c.infiniband_efficiency,
        (c.infiniband_efficiency * 1000.0).round() / 1000.0
    );
    // The sweep's small messages go LL and its middle ones LL128: each band's latency is fitted
    // on its own, and each comes back as the measurements were made, 1.5 times the default.
    let d = &spec.calibration;
    for (fitted, now, default) in [
        (
            fit.ll_network_hop_latency_us,
            c.ll_network_hop_latency_us,
            d.ll_network_hop_latency_us,
        ),
        (
            fit.ll128_network_hop_latency_us,
            c.ll128_network_hop_latency_us,
            d.ll128_network_hop_latency_us,
        ),
    ] {
        let fitted = fitted.expect("a band the sweep covers");
        assert!((now - fitted).micros().abs() <= 0.005);
        assert!((fitted / default / 1.5 - 1.0).abs() < 0.03, "{fit:?}");
    }
    let crate::spec::CalibrationSource::Fitted(fitted) = c.source() else {
        panic!("{:?}", c.source());
    };
    assert_eq!(
        (
            fitted.fabric.as_str(),
            fitted.baselines.as_slice(),
            fitted.on.as_str()
        ),
        ("compute", &[1, 2, 3][..], "2026-12-06")
    );
    assert!(applied.validate().is_ok());
    // The report's assumptions give the fit as the source of the two values it set.
    let from_the_fit = crate::assumptions(&applied)
        .into_iter()
        .filter(|a| {
            a.source
                == "fitted on 2026-12-06 to baselines #1, #2, #3 of fabric compute (this design's nccl-tests runs)"
        })
        .count();
    assert_eq!(from_the_fit, 2);
    // Fitted again on the applied design, the same measurements change nothing.
    let again = super::fit(&applied, "compute", &baselines(&runs)).unwrap();
    assert!(
        (again.efficiency - fit.efficiency).abs() < 0.002,
        "{again:?} {fit:?}"
    );
    assert!(again.quality.mape_percent < 1.0);
    let mut changed = applied.clone();
    changed.calibration.infiniband_efficiency = 0.9;
    assert!(matches!(
        changed.calibration.source(),
        crate::spec::CalibrationSource::FittedThenChanged(_)
    ));
    let mut typed = spec.clone();
    typed.calibration.roce_efficiency = 0.8;
    assert_eq!(
        typed.calibration.source(),
        crate::spec::CalibrationSource::TypedIn
    );
    // Provenance naming another fabric, no baseline or no day is refused, naming the field.
    let mut bad = applied.clone();
    if let Some(f) = bad.calibration.fitted.as_mut() {
        f.fabric = "nowhere".into();
        f.baselines.clear();
        f.on = "yesterday".into();
    }
    let errors = bad.validate().unwrap_err().to_string();
    for field in [
        "calibration.fitted.fabric",
        "calibration.fitted.baselines",
        "calibration.fitted.on",
    ] {
        assert!(errors.contains(field), "{errors}");
    }
}

/// The defaults' own predictions measured back: the fit keeps the defaults, with no error.
#[test]
fn measurements_that_match_the_defaults_fit_the_defaults() {
    let spec = design();
    let runs = vec![measured_as(&spec, 4, &sweep())];
    let fit = fit(&spec, "compute", &baselines(&runs)).unwrap();
    assert!(
        (fit.efficiency - fit.efficiency_before).abs() < 0.005,
        "{fit:?}"
    );
    assert!(fit.quality.mape_percent < 0.5, "{:?}", fit.quality);
    // At 0.95 the 8 NICs of a node carry more than NVLink's 370 GB/s: the data bounds the
    // efficiency from below only, and the fit says so.
    assert!(
        fit.efficiency_only_at_least
            .as_deref()
            .is_some_and(|why| why.contains("NVLink")),
        "{fit:?}"
    );
    assert_eq!(
        fit.held_out.unwrap().held_out,
        "every other message size",
        "one rank count: sizes are held out instead"
    );
}

/// What the data cannot determine is refused with the reason: one message size cannot tell
/// latency from bandwidth; large messages only leave the latency at its default; a run inside
/// one node says nothing about the network.
#[test]
fn what_the_data_cannot_determine_is_refused_with_the_reason() {
    let spec = design();
    let one_size = vec![measured_as(&spec, 4, &[1 << 30])];
    let refused = fit(&spec, "compute", &baselines(&one_size)).unwrap_err();
    assert!(refused.contains("one message size"), "{refused}");

    // 16 ranks: the ring's 30 steps of 17 µs are about 1 % of the time of 8 GiB or more.
    let large = vec![measured_as(&spec, 2, &[1 << 33, 1 << 34])];
    let fit_large = fit(&spec, "compute", &baselines(&large)).unwrap();
    assert_eq!(fit_large.network_hop_latency_us, None);
    assert!(
        fit_large
            .latency_not_fitted
            .as_deref()
            .is_some_and(|why| why.contains("hide the latency")),
        "{fit_large:?}"
    );

    let one_node = vec![measured_as(&spec, 1, &sweep())];
    let refused = fit(&spec, "compute", &baselines(&one_node)).unwrap_err();
    assert!(refused.contains("crosses nodes"), "{refused}");

    let refused = fit(&spec, "nowhere", &baselines(&large)).unwrap_err();
    assert!(refused.contains("no fabric named"), "{refused}");
}

/// Baselines over time: three runs of a fabric at 90 % efficiency agree, and a fourth at 70 %
/// departs from them by more than they spread, with a message saying what that looks like; a
/// fourth at 90 % does not.
#[test]
fn a_newest_baseline_that_departs_from_the_ones_before_it_is_found() {
    let spec = design();
    let at = |efficiency: f64| measured_as(&built_with(efficiency, 1.0), 16, &sweep());
    let healthy = [at(0.90), at(0.905), at(0.895)];
    let mut runs: Vec<Run> = healthy.to_vec();
    runs.push(at(0.70));
    let d = super::drift(&spec, "compute", &baselines(&runs));
    assert_eq!(d.points.len(), 4);
    assert!(d.points.iter().all(|p| p.efficiency.is_some()), "{d:?}");
    assert!(
        (d.points[0].efficiency.unwrap() - 0.90).abs() < 0.01,
        "{d:?}"
    );
    // Each baseline's latencies too, over time: built at the defaults, found at them.
    let simple = spec.calibration.network_hop_latency_us;
    for p in &d.points {
        let us = p
            .network_hop_latency_us
            .expect("the sweep shows the latency");
        assert!((us / simple - 1.0).abs() < 0.01, "{d:?}");
        assert!(p.ll128_network_hop_latency_us.is_some() && p.ll_network_hop_latency_us.is_some());
    }
    let departure = d.departure.expect("the 70 % run departs");
    assert!((departure.latest - 0.70).abs() < 0.01);
    assert!((departure.earlier_mean - 0.90).abs() < 0.01);
    assert!(
        departure.message.contains("slowed down"),
        "{}",
        departure.message
    );
    let mut runs: Vec<Run> = healthy.to_vec();
    runs.push(at(0.90));
    assert_eq!(
        super::drift(&spec, "compute", &baselines(&runs)).departure,
        None
    );
    // Two runs are too few to tell a spread from a change.
    assert_eq!(
        super::drift(&spec, "compute", &baselines(&runs[..2])).departure,
        None
    );
}

/// The published two-node RoCE sweep of the validation table (nccl-tests #232: 2 × H100, one
/// 400G RoCE port each, NCCL_ALGO=Tree, 2 to 32 MiB), fitted on every other size and tested on
/// the rest: within 5 % on the sizes it did not see (1.8 %; 6.6 % when one latency scale served
/// every protocol). NCCL sends 2 and 4 MiB with LL128 and the rest with Simple, so each band's
/// latency is fitted on its own. The fit says nothing of NVLink on nodes of one GPU.
#[test]
fn the_published_roce_sweep_fitted_on_half_its_sizes_predicts_the_other_half_within_5_percent() {
    let fit = super::sweep_fitted_on_half().unwrap();
    let held = fit.held_out.as_ref().expect("every other size held out");
    assert_eq!(held.held_out, "every other message size");
    assert!(held.quality.mape_percent <= 5.0, "{fit:#?}");
    assert!(fit.ll128_network_hop_latency_us.is_some(), "{fit:?}");
    assert_eq!(fit.efficiency_only_at_least, None, "{fit:?}");
}

/// `spec` on 64 nodes: four leaves of each rail.
fn on_64_nodes(mut spec: DesignSpec) -> DesignSpec {
    spec.cluster.nodes = 64;
    spec
}

/// The most nodes of `spec`'s compute fabric a run stays within one leaf on.
fn nodes_per_leaf(spec: &DesignSpec) -> u32 {
    (1..=spec.cluster.nodes)
        .take_while(|&n| crate::baseline::tiers_crossed(spec, "compute", n) == 0)
        .last()
        .unwrap()
}

/// A fabric whose spines keep 80 % of the rate and add 6 µs to each network hop, measured
/// within one leaf and across leaves: the fit finds what crossing the spines costs again
/// within 1 %, beside the transport's own efficiency and latency, and applies it.
#[test]
fn the_fit_recovers_what_crossing_the_spines_costs() {
    let spec = on_64_nodes(design());
    let mut built = on_64_nodes(built_with(0.85, 1.2));
    built.calibration.spine_efficiency_share = 0.8;
    built.calibration.spine_hop_extra_latency_us = Micros::new(6.0);
    let per_leaf = nodes_per_leaf(&built);
    assert!(2 * per_leaf <= built.cluster.nodes, "{per_leaf}");
    let runs: Vec<Run> = [2, per_leaf, 2 * per_leaf]
        .iter()
        .map(|&n| measured_as(&built, n, &sweep()))
        .collect();
    let fit = fit(&spec, "compute", &baselines(&runs)).unwrap();
    assert!((fit.efficiency - 0.85).abs() < 0.01 * 0.85, "{fit:?}");
    let spines = &fit.tiers[0];
    assert_eq!(
        (spines.tier.as_str(), spines.not_fitted.as_deref()),
        ("spines", None)
    );
    let share = spines.efficiency_share.unwrap();
    let extra = spines.hop_extra_latency_us.unwrap().micros();
    assert!((share - 0.8).abs() < 0.01 * 0.8, "{spines:?}");
    assert!((extra - 6.0).abs() < 0.01 * 6.0, "{spines:?}");
    assert!(fit.quality.mape_percent < 1.0, "{:?}", fit.quality);
    let applied = fit.applied_to(
        &spec.calibration,
        fit.provenance(vec![1, 2, 3], "2026-12-06"),
    );
    assert!((applied.spine_efficiency_share - share).abs() <= 0.0005);
    assert!((applied.spine_hop_extra_latency_us.micros() - extra).abs() <= 0.005);
    assert_eq!(
        applied.source(),
        crate::spec::CalibrationSource::Fitted(applied.fitted.as_ref().unwrap())
    );
}

/// Runs that all span leaves cannot tell the spines' cost from the transport's own: the fit
/// says so and leaves the spines neutral; runs within one leaf alone do not measure it.
#[test]
fn the_spines_cost_is_not_fitted_without_runs_on_both_sides_of_them() {
    let spec = on_64_nodes(design());
    let mut built = on_64_nodes(built_with(0.85, 1.2));
    built.calibration.spine_efficiency_share = 0.8;
    let per_leaf = nodes_per_leaf(&built);
    let across: Vec<Run> = [2 * per_leaf, 3 * per_leaf]
        .iter()
        .filter(|&&n| n <= built.cluster.nodes)
        .map(|&n| measured_as(&built, n, &sweep()))
        .collect();
    let fitted = fit(&spec, "compute", &baselines(&across)).unwrap();
    let spines = &fitted.tiers[0];
    assert_eq!(spines.efficiency_share, None);
    assert!(
        spines
            .not_fitted
            .as_deref()
            .unwrap()
            .contains("add a run within one leaf"),
        "{spines:?}"
    );
    let within = [measured_as(&built, 2, &sweep())];
    let fitted = fit(&spec, "compute", &baselines(&within)).unwrap();
    assert!(
        fitted.tiers[0]
            .not_fitted
            .as_deref()
            .unwrap()
            .starts_with("no run spans more than one leaf"),
        "{:?}",
        fitted.tiers
    );
    let applied = fitted.applied_to(&spec.calibration, fitted.provenance(vec![1], "2026-12-06"));
    assert_eq!(applied.spine_efficiency_share, 1.0);
}

/// A run across the spines fitted alone folds their cost into its efficiency: over time it is
/// shown with its tier and compared with runs across the spines, not with the runs within one
/// leaf before it, where it would read as a fabric slowed down.
#[test]
fn a_run_across_the_spines_is_compared_over_time_with_runs_across_them() {
    let spec = on_64_nodes(design());
    let mut built = on_64_nodes(built_with(0.90, 1.0));
    built.calibration.spine_efficiency_share = 0.75;
    let per_leaf = nodes_per_leaf(&built);
    let runs: Vec<Run> = [2, 2, 2, 2 * per_leaf]
        .iter()
        .map(|&n| measured_as(&built, n, &sweep()))
        .collect();
    let d = super::drift(&spec, "compute", &baselines(&runs));
    let tiers: Vec<usize> = d.points.iter().map(|p| p.tier).collect();
    assert_eq!(tiers, [1, 1, 1, 2]);
    assert!(d.points[3].efficiency.unwrap() < 0.8, "{d:?}");
    assert_eq!(d.departure, None, "{d:?}");
}

/// Nodes whose NVLink reaches 70 % of its line rate with hops 1.5 times slower, and whose NVLS
/// reduces at half the line rate with 1.3 times its latency, on a network at 60 %, measured on
/// one node and across nodes: the fit finds every value within the node again within 1 %,
/// beside the network's.
#[test]
fn the_fit_recovers_the_node_s_values_from_runs_on_one_node() {
    let mut built = built_with(0.60, 1.2);
    let c = &mut built.calibration;
    c.scale_up_efficiency = Some(0.70);
    c.scale_up_hop_latency_us *= 1.5;
    c.ll_scale_up_hop_latency_us *= 1.5;
    c.ll128_scale_up_hop_latency_us *= 1.5;
    c.nvls_efficiency = 0.5;
    c.nvls_latency_us *= 1.3;
    let runs: Vec<Run> = [1, 2, 8]
        .iter()
        .map(|&n| measured_as(&built, n, &sweep()))
        .collect();
    let spec = design();
    let fit = fit(&spec, "compute", &baselines(&runs)).unwrap();
    let node = &fit.node;
    assert_eq!(node.points, sweep().len());
    assert!((fit.efficiency - 0.60).abs() < 0.01 * 0.60, "{fit:?}");
    let d = &spec.calibration;
    for (fitted, truth) in [
        (node.scale_up_efficiency, 0.70),
        (node.nvls_efficiency, 0.5),
        (
            node.nvls_latency_us.map(Micros::micros),
            d.nvls_latency_us.micros() * 1.3,
        ),
        (
            node.scale_up_hop_latency_us.map(Micros::micros),
            d.scale_up_hop_latency_us.micros() * 1.5,
        ),
    ] {
        let fitted = fitted.unwrap_or_else(|| panic!("{node:?}"));
        assert!(
            (fitted - truth).abs() < 0.01 * truth,
            "{fitted} against {truth}: {node:?}"
        );
    }
    let applied = fit.applied_to(
        &spec.calibration,
        fit.provenance(vec![1, 2, 3], "2026-12-06"),
    );
    assert_eq!(applied.scale_up_efficiency, Some(0.70));
    assert_eq!(applied.nvls_efficiency, 0.5);
    assert!(
        (applied.ll_scale_up_hop_latency_us - d.ll_scale_up_hop_latency_us * 1.5)
            .micros()
            .abs()
            < 0.01
    );
    assert!(matches!(
        applied.source(),
        crate::spec::CalibrationSource::Fitted(_)
    ));
    assert!(fit.quality.mape_percent < 1.0, "{:?}", fit.quality);
}

/// The DGX SuperPOD at 64 scalable units, three tiers with each rail in two pods of 32 units:
/// its spines keep 90 % of the rate and add 3 µs a hop, its core 70 % more and 8 µs; measured
/// within one leaf, across the spines within a pod and across the core, the fit finds both
/// tiers again within 1 %.
#[test]
fn the_fit_recovers_what_crossing_the_core_costs() {
    let mut spec = DesignSpec::from_json(crate::examples::SUPERPOD_4SU).unwrap();
    spec.cluster.nodes = 2048;
    spec.fabrics.retain(|f| f.name == "compute");
    spec.fabrics[0].extra_endpoints = 0;
    spec.workloads.retain(|w| w.fabric() == "compute");
    spec.growth = None;
    let mut built = spec.clone();
    let c = &mut built.calibration;
    // Below NVLink's 370 GB/s a node, so that the run within one leaf shows the network's rate.
    c.infiniband_efficiency = 0.85;
    c.spine_efficiency_share = 0.9;
    c.spine_hop_extra_latency_us = Micros::new(3.0);
    c.core_efficiency_share = 0.7;
    c.core_hop_extra_latency_us = Micros::new(8.0);
    let crossed = |n: u32| crate::baseline::tiers_crossed(&spec, "compute", n);
    let last_of = |tier: usize| {
        (2..=2048)
            .take_while(|&n| crossed(n) <= tier)
            .last()
            .unwrap()
    };
    let (per_leaf, per_pod) = (last_of(0), last_of(1));
    assert_eq!((per_leaf, per_pod), (32, 1024));
    let runs: Vec<Run> = [per_leaf, per_pod, 2 * per_pod]
        .iter()
        .map(|&n| crate::baseline::predicted_run(&built, "compute", n, &sweep()).unwrap())
        .collect();
    let fit = fit(&spec, "compute", &baselines(&runs)).unwrap();
    assert!((fit.efficiency - 0.85).abs() < 0.01 * 0.85, "{fit:?}");
    let tier = |name: &str| fit.tiers.iter().find(|t| t.tier == name).unwrap();
    for (t, share, extra) in [(tier("spines"), 0.9, 3.0), (tier("core"), 0.7, 8.0)] {
        let (s, e) = (t.efficiency_share.unwrap(), t.hop_extra_latency_us.unwrap());
        assert!((s - share).abs() < 0.01 * share, "{t:?}");
        assert!((e.micros() - extra).abs() < 0.01 * extra, "{t:?}");
    }
}
