use super::*;

/// DGX SuperPOD H100 compute fabric: 8 rails of QM9700 (64 × NDR), 1:1, 32 nodes per SU of
/// which one slot holds UFM; UFM's 4 ports are extra endpoints [RA-11333-001 Table 4].
fn superpod(scalable_units: u32) -> Plan {
    let nodes = 32 * scalable_units - 1;
    size(&Demand {
        endpoints: nodes * 8 + 4,
        growth_endpoints: nodes * 8 + 4,
        ports_per_node: 8,
        radix: 64,
        leaf_oversubscription: 1.0,
        spine_oversubscription: 1.0,
        topology: Topology::RailOptimized,
    })
}

#[test]
fn one_superpod_su_has_8_leaves_4_spines_252_node_and_256_spine_cables() {
    let plan = superpod(1);
    assert_eq!(
        (
            plan.leaves,
            plan.spines,
            plan.node_leaf_links,
            plan.leaf_spine_links
        ),
        (8, 4, 252, 256)
    );
}

#[test]
fn two_superpod_sus_have_16_leaves_8_spines_508_node_and_512_spine_cables() {
    let plan = superpod(2);
    assert_eq!(
        (
            plan.leaves,
            plan.spines,
            plan.node_leaf_links,
            plan.leaf_spine_links
        ),
        (16, 8, 508, 512)
    );
}

#[test]
fn four_superpod_sus_have_32_leaves_16_spines_1020_node_and_1024_spine_cables() {
    let plan = superpod(4);
    assert_eq!(
        (
            plan.leaves,
            plan.spines,
            plan.node_leaf_links,
            plan.leaf_spine_links
        ),
        (32, 16, 1020, 1024)
    );
    assert_eq!(plan.tiers, 2);
}

/// The reference architecture's large SuperPODs [RA-11333-001]: 16 SU and more add the core
/// tier, wired by rail, with the RA's switch and cable counts.
#[test]
fn sixteen_thirty_two_and_sixty_four_superpod_sus_are_rail_optimised_three_tier_fabrics_of_the_ra_s_counts(
) {
    for (units, leaves, spines, cores) in
        [(16, 128, 128, 64), (32, 256, 256, 128), (64, 512, 512, 256)]
    {
        let plan = superpod(units);
        let nodes = 32 * units - 1;
        assert_eq!(plan.layout, Layout::RailOptimizedThreeTier, "{units} SU");
        assert_eq!(
            (plan.leaves, plan.spines, plan.cores),
            (leaves, spines, cores),
            "{units} SU"
        );
        assert_eq!(
            (
                plan.node_leaf_links,
                plan.leaf_spine_links,
                plan.spine_core_links
            ),
            (nodes * 8 + 4, leaves * 32, spines * 32),
            "{units} SU"
        );
        assert!(!plan.two_tier_exceeded, "{units} SU: what was asked for");
        assert!(
            plan.capacity_endpoints >= plan.node_leaf_links,
            "{units} SU"
        );
        // A spine takes 32 leaf links: its pod's leaves, each linked to it up / pod spines times.
        let pod_spines = plan.spines / plan.pods;
        assert_eq!(plan.leaves_per_pod * (32 / pod_spines), 32, "{units} SU");
        assert_eq!(plan.pods % 8, 0, "{units} SU: every pod is one rail's");
    }
    // 16 SU: each rail's 16 leaves under 16 spines of their own.
    let plan = superpod(16);
    assert_eq!(
        (plan.pods, plan.leaves_per_pod, plan.spines / plan.pods),
        (8, 16, 16)
    );
}

#[test]
fn eight_superpod_sus_stay_two_tier() {
    let plan = superpod(8);
    assert_eq!(plan.layout, Layout::RailOptimized);
    assert_eq!((plan.leaves, plan.spines, plan.cores), (64, 32, 0));
}

#[test]
fn planning_one_su_for_growth_to_four_provisions_the_four_su_spines() {
    let mut demand = Demand {
        endpoints: 31 * 8 + 4,
        growth_endpoints: 127 * 8 + 4,
        ports_per_node: 8,
        radix: 64,
        leaf_oversubscription: 1.0,
        spine_oversubscription: 1.0,
        topology: Topology::RailOptimized,
    };
    let plan = size(&demand);
    assert_eq!((plan.leaves, plan.spines), (8, 16));
    assert!(plan.capacity_endpoints >= 127 * 8 + 4);
    demand.growth_endpoints = demand.endpoints;
    assert!(size(&demand).capacity_endpoints < 127 * 8);
}

#[test]
fn a_non_blocking_two_tier_fabric_of_radix_k_reaches_k_squared_over_two() {
    let plan = size(&Demand {
        endpoints: 2048,
        growth_endpoints: 2048,
        ports_per_node: 1,
        radix: 64,
        leaf_oversubscription: 1.0,
        spine_oversubscription: 1.0,
        topology: Topology::Auto,
    });
    assert_eq!(plan.tiers, 2);
    assert_eq!(plan.layout_max_endpoints, 64 * 64 / 2);
    assert_eq!((plan.leaves, plan.spines), (64, 32));
}

#[test]
fn one_endpoint_more_than_k_squared_over_two_needs_three_tiers_reaching_k_cubed_over_four() {
    let plan = size(&Demand {
        endpoints: 2049,
        growth_endpoints: 2049,
        ports_per_node: 1,
        radix: 64,
        leaf_oversubscription: 1.0,
        spine_oversubscription: 1.0,
        topology: Topology::Auto,
    });
    assert_eq!(plan.tiers, 3);
    assert_eq!(plan.layout_max_endpoints, 64 * 64 * 64 / 4);
    // 65 leaves in 3 pods of 32 leaves; 32 aggregation switches per pod.
    assert_eq!((plan.leaves, plan.pods, plan.spines), (65, 3, 96));
}

#[test]
fn a_forced_two_tier_fabric_that_cannot_fit_is_flagged_and_sized_as_three_tiers() {
    let plan = size(&Demand {
        endpoints: 4096,
        growth_endpoints: 4096,
        ports_per_node: 8,
        radix: 64,
        leaf_oversubscription: 1.0,
        spine_oversubscription: 1.0,
        topology: Topology::TwoTier,
    });
    assert!(plan.two_tier_exceeded);
    assert_eq!(plan.tiers, 3);
}

#[test]
fn a_three_to_one_leaf_has_48_ports_down_and_16_up() {
    assert_eq!(split(64, 3.0), (48, 16));
}

/// A three-tier fabric planned for growth buys the spines of the size it grows to, in the pods
/// it will have then, so that growing adds leaves and their cables only: by rail (100,000 B200
/// GPUs on 144-port XDR switches, from half of them) and not (8,192 ports of 64, from a quarter).
#[test]
fn a_three_tier_fabric_planned_for_growth_has_the_pods_and_spines_of_its_final_size() {
    for (endpoints, growth_endpoints, ports_per_node, radix, topology) in [
        (50_000, 100_000, 8, 144, Topology::RailOptimized),
        (2_048, 8_192, 1, 64, Topology::Auto),
    ] {
        let demand = |endpoints| Demand {
            endpoints,
            growth_endpoints,
            ports_per_node,
            radix,
            leaf_oversubscription: 1.0,
            spine_oversubscription: 1.0,
            topology,
        };
        let (first, last) = (size(&demand(endpoints)), size(&demand(growth_endpoints)));
        assert_eq!(first.tiers, 3);
        assert!(first.leaves < last.leaves, "{topology:?}");
        assert_eq!(
            (first.pods, first.leaves_per_pod, first.spines, first.cores),
            (last.pods, last.leaves_per_pod, last.spines, last.cores),
            "{topology:?}"
        );
    }
}
