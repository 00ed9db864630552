use super::*;
use crate::spec::{Growth, Phase};

/// The DGX SuperPOD H100 compute fabric (rail-optimised, QM9700) of `final_nodes` DGX, grown in
/// `phases` (nodes each) under `policy`, without the UFM and storage endpoints, which take free
/// leaf ports wherever the nodes leave them.
pub(super) fn superpod(
    final_nodes: u32,
    sizes: &[u32],
    policy: GrowthPolicy,
) -> (DesignSpec, PhasePlan) {
    let (spec, report) = one_fabric_grown("compute", final_nodes, sizes, policy, |f| {
        f.extra_endpoints = 0;
    });
    let plan = phases(&spec, &report).unwrap().unwrap();
    (spec, plan)
}

/// The SuperPOD example's fabric `fabric` alone, as `adjust` leaves it, with its workloads, at
/// `final_nodes` nodes grown in `sizes` (nodes each) under `policy`; evaluated.
fn one_fabric_grown(
    fabric: &str,
    final_nodes: u32,
    sizes: &[u32],
    policy: GrowthPolicy,
    adjust: impl FnOnce(&mut crate::spec::Fabric),
) -> (DesignSpec, Report) {
    let mut spec = DesignSpec::from_json(crate::examples::SUPERPOD_4SU).unwrap();
    spec.cluster.nodes = final_nodes;
    spec.fabrics.retain(|f| f.name == fabric);
    adjust(&mut spec.fabrics[0]);
    spec.workloads.retain(|w| w.fabric() == fabric);
    spec.growth = Some(Growth {
        policy,
        phases: sizes
            .iter()
            .enumerate()
            .map(|(i, &nodes)| Phase {
                label: format!("Phase {}", i + 1),
                date: None,
                nodes,
            })
            .collect(),
    });
    spec.validate().unwrap();
    let report = crate::evaluate(&spec).unwrap();
    (spec, report)
}

pub(super) const SU: u32 = 32;

/// RA-11333-001: the 3-SU design has the 16 spines of the 4-SU one, and its 24 leaves.
#[test]
fn the_superpod_s_three_unit_design_has_the_spines_of_four() {
    for policy in [GrowthPolicy::ProvisionFinal, GrowthPolicy::AsNeeded] {
        let (_, plan) = superpod(4 * SU, &[3 * SU, 4 * SU], policy);
        let (three, four) = (&plan.phases[0].fabrics[0], &plan.phases[1].fabrics[0]);
        assert_eq!((three.leaves, three.spines), (24, 16), "{policy:?}");
        assert_eq!((four.leaves, four.spines), (32, 16), "{policy:?}");
    }
}

/// RA-11333-001: up to 8 SU the fabric has two tiers; at 16 SU the core tier arrives, and the
/// step re-cables live links, which provisioning the final size on day one avoids.
#[test]
fn from_four_to_eight_units_stays_two_tier_and_sixteen_adds_the_core() {
    let (_, plan) = superpod(16 * SU, &[4 * SU, 8 * SU, 16 * SU], GrowthPolicy::AsNeeded);
    let tiers: Vec<u32> = plan.phases.iter().map(|p| p.fabrics[0].tiers).collect();
    assert_eq!(tiers, [2, 2, 3]);
    assert!(plan.phases[2].fabrics[0].cores > 0);
    assert!(plan.phases[2].re_terminated() > 0);
    let (_, provisioned) = superpod(
        16 * SU,
        &[4 * SU, 8 * SU, 16 * SU],
        GrowthPolicy::ProvisionFinal,
    );
    let tiers: Vec<u32> = provisioned
        .phases
        .iter()
        .map(|p| p.fabrics[0].tiers)
        .collect();
    assert_eq!(
        tiers,
        [3, 3, 3],
        "the final size's tiers from the first day"
    );
    assert!(provisioned.phases.iter().all(|p| p.re_terminated() == 0));
}

/// 2 SU now and 4 SU at the end, the spines bought for 4 SU on day one: the second phase adds
/// the 16 new leaves, their node cables and their uplinks, and touches no cable in service.
#[test]
fn provisioned_for_the_final_size_the_second_phase_moves_no_live_cable() {
    let (_, plan) = superpod(4 * SU, &[2 * SU, 4 * SU], GrowthPolicy::ProvisionFinal);
    let second = &plan.phases[1];
    assert_eq!(second.re_terminated(), 0);
    assert_eq!(second.removed(), 0);
    let kept: u64 = second.moves.iter().map(|m| m.kept).sum();
    let first = &plan.phases[0].fabrics[0];
    // Every cable of the first phase is kept: its node cables and its leaves' uplinks.
    assert_eq!(kept, 2 * u64::from(SU) * 8 + 16 * 32);
    // What is added: the new nodes' cables and the new leaves' uplinks.
    assert_eq!(second.added(), 2 * u64::from(SU) * 8 + 16 * 32);
    // The spines were bought in the first phase; the second buys leaves and cables only.
    assert_eq!(first.spines, 16);
    assert!(second
        .bought
        .items
        .iter()
        .all(|i| i.item != "switch:qm9700" || i.quantity_after - i.quantity_before == 16));
}

/// Bought as needed, the 2-SU fabric has 8 spines and the 4-SU one 16: each of the first 16
/// leaves spreads its 32 uplinks over twice the spines, so U·(1 − S/S') = 32 × (1 − 8/16) = 16
/// of them move, 256 in all; no node cable moves.
#[test]
fn bought_as_needed_the_moves_are_those_that_re_spread_each_leaf_s_uplinks() {
    let (_, plan) = superpod(4 * SU, &[2 * SU, 4 * SU], GrowthPolicy::AsNeeded);
    let (before, after) = (&plan.phases[0].fabrics[0], &plan.phases[1].fabrics[0]);
    let (s, s2) = (u64::from(before.spines), u64::from(after.spines));
    assert_eq!((s, s2), (8, 16));
    let up = 32;
    let expected = u64::from(before.leaves) * up * (s2 - s) / s2;
    let second = &plan.phases[1];
    let leaf_spine = second
        .moves
        .iter()
        .find(|m| m.tier == "leaf-spine")
        .unwrap();
    assert_eq!(leaf_spine.re_terminated, expected);
    assert_eq!(expected, 256);
    let node_leaf = second.moves.iter().find(|m| m.tier == "node-leaf").unwrap();
    assert_eq!((node_leaf.re_terminated, node_leaf.removed), (0, 0));
}

/// Each phase's bill is what its fabric costs; what a phase buys adds up, phase by phase, to the
/// final bill, and the unused ports of the spines bought early are stranded capital that falls
/// as leaves fill them.
#[test]
fn the_bills_bought_add_up_to_the_final_one_and_stranded_capital_falls() {
    let (_, plan) = superpod(4 * SU, &[SU, 2 * SU, 4 * SU], GrowthPolicy::ProvisionFinal);
    let bought: f64 = plan
        .phases
        .iter()
        .map(|p| p.bought.cost_delta.dollars())
        .sum();
    let last = plan.phases.last().unwrap();
    assert!((bought - last.network_cost.dollars()).abs() < 1e-6 * last.network_cost.dollars());
    let stranded: Vec<f64> = plan
        .phases
        .iter()
        .map(|p| p.stranded_capital.value.dollars())
        .collect();
    assert!(stranded.windows(2).all(|w| w[0] > w[1]), "{stranded:?}");
    assert_eq!(last.stranded_ports, 0, "a full 4-SU fabric uses every port");
    assert_eq!(last.racks_reserved, 0);
    assert!(plan.phases[0].racks_reserved > 0);
    assert!(plan.phases[0].power_reserved.value.kilowatts() > 3.0 * f64::from(SU) * 10.0);
    assert_eq!(last.power_reserved.value.kilowatts(), 0.0);
}

/// Phases are refused, naming the field, when they shrink, outgrow the final one, or do not end
/// at the design.
#[test]
fn phases_that_shrink_or_outgrow_the_design_are_refused() {
    let mut spec = DesignSpec::from_json(crate::examples::SEVENTY_B_TRAINING).unwrap();
    let nodes = spec.cluster.nodes;
    let phase = |label: &str, nodes| Phase {
        label: label.into(),
        date: None,
        nodes,
    };
    for (phases, field, why) in [
        (
            vec![phase("a", 8), phase("b", 4), phase("c", nodes)],
            "growth.phases[1].nodes",
            "do not shrink",
        ),
        (
            vec![phase("a", nodes + 1), phase("b", nodes)],
            "growth.phases[0].nodes",
            "at most the final",
        ),
        (
            vec![phase("a", 4), phase("b", nodes - 1)],
            "growth.phases[1].nodes",
            "the cluster's",
        ),
        (vec![phase("a", nodes)], "growth.phases", "at least two"),
        (
            vec![phase("", 4), phase("b", nodes)],
            "growth.phases[0].label",
            "empty",
        ),
    ] {
        spec.growth = Some(Growth {
            policy: GrowthPolicy::AsNeeded,
            phases,
        });
        let errors = spec.validate().unwrap_err();
        let error = errors
            .for_path(field)
            .unwrap_or_else(|| panic!("{errors:?}"));
        assert!(error.reason.contains(why), "{}", error.reason);
    }
    spec.growth = Some(Growth {
        policy: GrowthPolicy::AsNeeded,
        phases: vec![
            Phase {
                date: Some("2027-06".into()),
                ..phase("a", 4)
            },
            Phase {
                date: Some("2027-01-15".into()),
                ..phase("b", nodes)
            },
        ],
    });
    let errors = spec.validate().unwrap_err();
    assert!(
        errors.for_path("growth.phases[1].date").is_some(),
        "{errors:?}"
    );
}

/// On the final floor, a rack stands from the first phase that uses it: the spines bought for
/// the final size stand from the first phase, the leaves of the scalable units a later phase
/// adds from that phase, and each compute rack from the phase whose nodes it holds.
#[test]
fn each_rack_stands_from_the_first_phase_that_uses_it() {
    let (spec, plan) = superpod(4 * SU, &[2 * SU, 4 * SU], GrowthPolicy::ProvisionFinal);
    let report = crate::evaluate(&spec).unwrap();
    let floor = crate::floor::plan(&spec, &report);
    let phases = rack_phases(&plan, &report, &floor);
    for (rack, phase) in floor.racks.iter().zip(&phases) {
        let roles: Vec<&str> = rack.devices.iter().map(|d| d.role.as_str()).collect();
        if roles.contains(&"spine") {
            assert_eq!(*phase, 0, "{}: spines for the final size", rack.name);
        }
        if let Some(n) = rack.devices.iter().filter_map(|d| d.node_number()).min() {
            assert_eq!(*phase, usize::from(n > 2 * SU), "{}", rack.name);
        }
    }
    let leaf_racks: Vec<usize> = floor
        .racks
        .iter()
        .zip(&phases)
        .filter(|(r, _)| r.network && r.devices.iter().all(|d| d.role == "leaf"))
        .map(|(_, p)| *p)
        .collect();
    assert!(
        leaf_racks.contains(&0) && leaf_racks.contains(&1),
        "{leaf_racks:?}"
    );
}

/// The SuperPOD example's compute fabric alone at `nodes` nodes of 8 GPUs on XDR switches
/// (three tiers), grown from half of them with the upper tiers bought for the final size.
fn xdr_grown_from_half(nodes: u32) -> (DesignSpec, Report) {
    let sizes = [nodes / 2, nodes];
    one_fabric_grown(
        "compute",
        nodes,
        &sizes,
        GrowthPolicy::ProvisionFinal,
        |f| {
            f.technology = crate::Technology::IbXdr;
            f.switch = Some("q3400".into());
        },
    )
}

/// 100,000 GPUs grown from half of them, their spines and cores bought for the final size: the
/// step's cables are counted (some 490,000 in its two phases), every new node's rails and new
/// leaf's uplinks are added and no cable in service moves but those of the endpoints beyond the
/// nodes (UFM), which take the leaf ports the nodes leave free. Each rail's pods are numbered
/// for the final size: numbered for the first phase's leaves, 43,848 of its 50,112 leaf-spine
/// cables moved.
#[test]
fn a_hundred_thousand_gpus_grown_from_half_count_their_moves() {
    let (spec, report) = xdr_grown_from_half(12_500);
    let plan = phases(&spec, &report).unwrap().unwrap();
    let step = &plan.phases[1];
    assert_eq!(step.moves_not_counted, None);
    let tier = |name: &str| step.moves.iter().find(|m| m.tier == name).unwrap();
    let extra = u64::from(report.fabrics[0].endpoints - 12_500 * 8);
    let node_leaf = tier("node-leaf");
    assert_eq!(
        (node_leaf.kept + node_leaf.re_terminated, node_leaf.added),
        (50_000 + extra, 50_000)
    );
    assert_eq!(node_leaf.re_terminated, extra);
    let leaf_spine = tier("leaf-spine");
    assert_eq!((leaf_spine.kept, leaf_spine.added), (50_112, 50_112));
    let spine_core = tier("spine-core");
    assert_eq!((spine_core.kept, spine_core.added), (124_416, 0));
    assert!(
        [leaf_spine, spine_core]
            .iter()
            .all(|m| m.re_terminated == 0 && m.removed == 0),
        "{:?}",
        step.moves
    );
}

/// The SuperPOD example's storage fabric (two ports a node on 64-port NDR switches, not by rail)
/// at 4,096 nodes, three tiers, grown from a quarter of them with the upper tiers bought for the
/// final size: its pods and their spines are bought with the first phase, so the step adds
/// leaves and their cables and moves none in service.
#[test]
fn a_three_tier_fabric_grown_from_a_quarter_moves_no_cable_in_service() {
    let sizes = [1_024, 4_096];
    let (spec, report) = one_fabric_grown(
        "storage",
        4_096,
        &sizes,
        GrowthPolicy::ProvisionFinal,
        |_| {},
    );
    assert_eq!(
        report.fabrics[0].plan.layout,
        crate::topology::Layout::ThreeTier
    );
    let plan = phases(&spec, &report).unwrap().unwrap();
    let step = &plan.phases[1];
    assert_eq!(step.moves_not_counted, None);
    let tier = |name: &str| step.moves.iter().find(|m| m.tier == name).unwrap();
    assert!(tier("leaf-spine").kept > 0 && tier("leaf-spine").added > 0);
    assert_eq!(
        tier("spine-core").added,
        0,
        "the spines and cores came first"
    );
    assert!(
        ["leaf-spine", "spine-core"]
            .iter()
            .all(|t| tier(t).re_terminated == 0 && tier(t).removed == 0),
        "{:?}",
        step.moves
    );
}

/// A step too large to compare cable by cable within a request is said so, not counted: 160,000
/// GPUs grown from half of them.
#[test]
fn a_step_of_too_many_cables_is_not_counted_and_says_so() {
    let (spec, report) = xdr_grown_from_half(20_000);
    let plan = phases(&spec, &report).unwrap().unwrap();
    let step = &plan.phases[1];
    assert!(step.moves.is_empty());
    let why = step.moves_not_counted.as_deref().unwrap();
    assert!(why.contains("more than the 800,000"), "{why}");
    assert_eq!(
        plan.phases[0].moves_not_counted, None,
        "the first phase has no step"
    );
}
