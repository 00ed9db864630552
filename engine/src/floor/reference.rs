//! The evaluation's count as it was first written, one cable at a time, routed and given its
//! medium per cable: kept to check that the counting walk finds exactly the same cables,
//! lengths, media and occupied cages. Both are priced by the same bill.

use super::lengths::{Long, MediumTable, LONGEST_KEPT};
use super::media::{class_index, priced, Counted, Tally, CLASSES, TIERS};
use super::placement::Placed;
use super::routing::{Router, Spot, ORDERABLE_M};
use crate::cabling::{links, End, Link, Role};
use crate::report::FabricReport;
use crate::spec::DesignSpec;

pub(crate) fn tally_per_cable(
    spec: &DesignSpec,
    fabrics: &[FabricReport],
    placed: &Placed,
    router: &Router,
) -> Tally {
    priced(spec, fabrics, placed, |fi, fabric, cages, longest| {
        let cage_shift = cages.per_switch.trailing_zeros();
        let host_shift = cages.per_node.trailing_zeros();
        let per_switch = cages.per_switch_device;
        let per_node = cages.per_node_device;
        let plan = &fabric.plan;
        let cages_of = |n: u32| vec![0u8; n as usize * per_switch];
        let mut counted = Counted {
            cables: [[[0; ORDERABLE_M.len()]; CLASSES.len()]; TIERS.len()],
            switch_cages: [
                cages_of(plan.leaves),
                cages_of(plan.spines),
                cages_of(plan.cores),
            ],
            host: vec![0u8; fabric.node_span() as usize * per_node],
            endpoint: [0; CLASSES.len()],
            unreachable: 0,
        };
        let table = MediumTable::new(fabric.port_rate.bits_per_second() / 1e9);
        // Validated and sized, so the links fit; a fabric that does not fit gets no cables.
        let _ = links(fabric, &mut |link: Link| {
            let z = router.end(fi, link.z, None);
            let a = router.end(fi, link.a, Some(z));
            let route_m = router.route(a, z);
            let to_node = !matches!(link.a, End::Switch { .. });
            let (bin, class) = table.link(route_m, to_node);
            keep_if_longest(longest, fi, link.tier, a, z, route_m, bin);
            let (Some(bin), Some(class)) = (bin, class) else {
                counted.unreachable += 1;
                return;
            };
            counted.cables[link.level.min(2)][class_index(class)][bin] += 1;
            if class.is_optical() {
                let code = class_index(class) as u8 + 1;
                for end in [link.a, link.z] {
                    let cage = match end {
                        End::Switch { role, index, port } => {
                            let r = match role {
                                Role::Leaf => 0,
                                Role::Spine => 1,
                                Role::Core => 2,
                            };
                            let i = index as usize * per_switch + (port >> cage_shift) as usize;
                            counted.switch_cages[r].get_mut(i)
                        }
                        End::Node { node, nic } => {
                            let i = node as usize * per_node + (nic >> host_shift) as usize;
                            counted.host.get_mut(i)
                        }
                        End::Endpoint(_) => {
                            counted.endpoint[usize::from(code - 1)] += 1;
                            None
                        }
                    };
                    if let Some(c) = cage {
                        *c = (*c).max(code);
                    }
                }
            }
        });
        counted
    })
}

/// Keeps the longest route between each pair of racks among the [`LONGEST_KEPT`] longest, so
/// the plan shows distinct routes.
fn keep_if_longest(
    longest: &mut Vec<Long>,
    fabric: usize,
    tier: &'static str,
    a: Spot,
    z: Spot,
    route_m: f64,
    bin: Option<usize>,
) {
    if longest.len() >= LONGEST_KEPT && longest.last().is_some_and(|l| l.route_m >= route_m) {
        return;
    }
    let same = longest
        .iter()
        .position(|l| l.a.rack == a.rack && l.z.rack == z.rack);
    match same {
        Some(i) if longest[i].route_m < route_m => {
            longest.remove(i);
        }
        Some(_) => return,
        None => {}
    }
    let at = longest.partition_point(|l| l.route_m >= route_m);
    longest.insert(
        at,
        Long {
            fabric,
            tier,
            a,
            z,
            route_m,
            bin,
        },
    );
    longest.truncate(LONGEST_KEPT);
}

#[cfg(test)]
mod tests {
    use super::super::media::tally;
    use super::*;
    use crate::floor::placement::place;
    use proptest::prelude::*;
    use serde_json::{json, Value};

    /// Every example at several sizes and with its leaves in each place on the floor.
    fn designs() -> Vec<(String, DesignSpec)> {
        let mut out = Vec::new();
        for (name, example) in crate::examples::ALL {
            for nodes in [1u32, 5, 32, 127, 300, 1024, 2048] {
                for leaves in ["top_of_rack", "middle_of_row", "end_of_row", "network_row"] {
                    let mut value: Value = serde_json::from_str(example).unwrap();
                    value["schema_version"] = json!(3);
                    value["cluster"]["nodes"] = json!(nodes);
                    value["workloads"] = json!([]);
                    if let Some(fabrics) = value["fabrics"].as_array_mut() {
                        for f in fabrics {
                            if let Some(o) = f.as_object_mut() {
                                o.remove("attached_nodes");
                            }
                        }
                    }
                    value["floor"] = json!({ "leaves": leaves, "slack_percent": 7.0 });
                    if let Ok(spec) = DesignSpec::from_value(value) {
                        out.push((format!("{name} at {nodes} nodes, leaves {leaves}"), spec));
                    }
                }
            }
        }
        out
    }

    #[test]
    fn the_counting_walk_finds_what_routing_every_cable_one_at_a_time_finds() {
        let designs = designs();
        assert!(designs.len() >= 100, "{} designs", designs.len());
        let mut cables = 0u64;
        for (name, spec) in &designs {
            let Ok(report) = crate::evaluate(spec) else {
                continue;
            };
            let placed = place(spec, &report.fabrics);
            let router = Router::new(&placed, &spec.floor);
            let counted = tally(spec, &report.fabrics, &placed, &router, true);
            let walked = tally_per_cable(spec, &report.fabrics, &placed, &router);
            assert_eq!(counted, walked, "{name}");
            cables += counted
                .cables
                .iter()
                .map(|c| u64::from(c.count))
                .sum::<u64>();
        }
        assert!(cables > 100_000, "{cables} cables compared");
    }

    fn technology() -> impl Strategy<Value = &'static str> {
        prop::sample::select(crate::Technology::ALL.map(|t| t.key()).to_vec())
    }

    fn placement() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "top_of_rack",
            "middle_of_row",
            "end_of_row",
            "network_row",
        ])
    }

    fn topology() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec!["auto", "two_tier", "three_tier", "rail_optimized"])
    }

    /// A shape of floor (where the switches stand, how many nodes to a rack and racks to a row,
    /// the distances, the racks' power and cooling), a technology, topology and oversubscription
    /// for the first fabric (its switch left to the planner), and a size for any example.
    fn random_design(
        example: usize,
        nodes: u32,
        (technology, topology, leaf): (&str, &str, f64),
        (leaves, spines, packed): (&str, &str, bool),
        (per_rack, rows, racks_per_row): (u32, u32, u32),
        (width, pitch, tray, slack): (f64, f64, f64, f64),
        (rack_power_kw, liquid): (f64, bool),
    ) -> Option<DesignSpec> {
        let mut value: Value = serde_json::from_str(crate::examples::ALL[example].1).ok()?;
        value["schema_version"] = json!(3);
        value["cluster"]["nodes"] = json!(nodes);
        value["workloads"] = json!([]);
        value.as_object_mut()?.remove("growth");
        value.as_object_mut()?.remove("tenants");
        for f in value["fabrics"].as_array_mut()? {
            f.as_object_mut()?.remove("attached_nodes");
        }
        let first = value["fabrics"].get_mut(0)?.as_object_mut()?;
        first.remove("switch");
        first.insert("technology".into(), json!(technology));
        first.insert("topology".into(), json!(topology));
        first.insert("oversubscription".into(), json!({ "leaf": leaf }));
        let mut floor = json!({
            "leaves": leaves, "spines": spines,
            "switch_racks": if packed { "packed" } else { "spread" },
            "rack_width_m": width, "row_pitch_m": pitch, "tray_height_m": tray,
            "slack_percent": slack, "rack_power_kw": rack_power_kw,
            "cooling": if liquid { "direct_liquid" } else { "air" },
        });
        for (key, n) in [
            ("nodes_per_rack", per_rack),
            ("rows", rows),
            ("racks_per_row", racks_per_row),
        ] {
            if n > 0 {
                floor[key] = json!(n);
            }
        }
        value["floor"] = floor;
        DesignSpec::from_value(value).ok()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Any design of any topology, technology and floor: the counting walk and the router
        /// of every cable find the same cables, lengths, media, cages and longest routes.
        #[test]
        fn on_any_floor_the_counting_walk_finds_what_routing_every_cable_finds(
            example in 0..crate::examples::ALL.len(),
            nodes in 1u32..2500,
            fabric in (technology(), topology(), prop::sample::select(vec![1.0, 1.5, 2.0, 3.0])),
            places in (
                placement(),
                prop::sample::select(vec!["middle_of_row", "end_of_row", "network_row"]),
                any::<bool>(),
            ),
            counts in (0u32..5, prop_oneof![Just(0u32), 100u32..400], 0u32..40),
            shape in (0.4f64..1.2, 1.0f64..8.0, 0.0f64..1.5, 0.0f64..30.0),
            power in (15.0f64..140.0, any::<bool>()),
        ) {
            // Designs the rules refuse, or that cannot be sized, are drawn again: should every
            // design be refused, proptest fails on too many rejections.
            let spec = random_design(example, nodes, fabric, places, counts, shape, power);
            prop_assume!(spec.is_some());
            let spec = spec.unwrap();
            let report = crate::evaluate(&spec);
            prop_assume!(report.is_ok());
            let report = report.unwrap();
            let placed = place(&spec, &report.fabrics);
            let router = Router::new(&placed, &spec.floor);
            let counted = tally(&spec, &report.fabrics, &placed, &router, true);
            let walked = tally_per_cable(&spec, &report.fabrics, &placed, &router);
            prop_assert_eq!(counted, walked);
        }
    }

    /// The evaluation with its floor lays the floor once, for the bill as placed and the plan
    /// both, and finds what evaluating and then planning find, with the switches named or
    /// chosen by the planner.
    #[test]
    fn a_design_evaluated_with_its_floor_has_the_bill_and_plan_of_evaluating_then_planning() {
        let mut compared = 0;
        for (name, mut spec) in designs() {
            for chosen in [false, true] {
                if chosen {
                    spec.fabrics.iter_mut().for_each(|f| f.switch = None);
                }
                let Ok(report) = crate::evaluate(&spec) else {
                    continue;
                };
                let placed = crate::evaluate_placed(&spec).expect("evaluates as evaluate does");
                assert_eq!(placed.report, report, "{name}, switches chosen: {chosen}");
                assert_eq!(
                    placed.floor,
                    crate::floor::plan(&spec, &report),
                    "{name}, switches chosen: {chosen}"
                );
                compared += 1;
            }
        }
        assert!(compared >= 200, "{compared} designs compared");
    }
}
