//! Properties of the floor for any layout: copper only where it reaches, longer runs never get
//! cheaper or cooler media, and the same design always places the same way.

use engine::catalog::ReachClass;
use engine::floor;
use engine::*;
use proptest::prelude::*;
use serde_json::{json, Value};

fn placement() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "top_of_rack",
        "middle_of_row",
        "end_of_row",
        "network_row",
    ])
}

/// One scalable unit of DGX H100 (and its storage fabric) on a floor of the given shape.
fn spec(leaves: &str, width: f64, pitch: f64, tray: f64, slack: f64, per_rack: u32) -> DesignSpec {
    let mut value: Value = serde_json::from_str(examples::SUPERPOD_4SU).unwrap();
    value["schema_version"] = json!(3);
    value["cluster"]["nodes"] = json!(63);
    value["workloads"][0]["parallelism"] =
        json!({ "dp": 4, "tp": 8, "pp": 14, "sharding": "zero1" });
    value["workloads"][0]["global_batch"] = json!(1024);
    value["floor"] = json!({
        "leaves": leaves, "rack_width_m": width, "row_pitch_m": pitch,
        "tray_height_m": tray, "slack_percent": slack, "nodes_per_rack": per_rack,
    });
    DesignSpec::from_value(value).unwrap()
}

fn sheet(spec: &DesignSpec) -> Vec<cabling::Cable> {
    floor::cabling(spec, &evaluate(spec).unwrap()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn a_cable_longer_than_copper_reaches_never_gets_copper(
        leaves in placement(), width in 0.4f64..1.2, pitch in 1.0f64..8.0,
        tray in 0.0f64..1.5, slack in 0.0f64..30.0, per_rack in 1u32..=6,
    ) {
        for c in sheet(&spec(leaves, width, pitch, tray, slack, per_rack)) {
            let length = c.length_m.unwrap();
            prop_assert!(length + 1e-9 >= c.route_m.unwrap() - 0.005);
            match c.reach {
                Some(ReachClass::Dac) => prop_assert!(length <= 2.0, "{c:?}"),
                Some(ReachClass::Acc) => prop_assert!(length <= 5.0 && !c.a_device.starts_with("node-"), "{c:?}"),
                Some(_) => {}
                None => prop_assert!(length > 2000.0),
            }
        }
    }

    #[test]
    fn moving_racks_further_apart_never_shortens_a_cable_or_cheapens_the_cabling(
        leaves in placement(), width in 0.4f64..1.0, pitch in 1.0f64..5.0,
        stretch in 1.0f64..5.0, per_rack in 1u32..=4,
    ) {
        let near = spec(leaves, width, pitch, 0.5, 10.0, per_rack);
        let far = spec(leaves, width * stretch, pitch * stretch, 0.5, 10.0, per_rack);
        for (a, b) in sheet(&near).iter().zip(sheet(&far).iter()) {
            prop_assert_eq!((&a.a_device, &a.z_device), (&b.a_device, &b.z_device));
            prop_assert!(b.route_m.unwrap() + 1e-9 >= a.route_m.unwrap());
            prop_assert!(b.length_m >= a.length_m);
            prop_assert!(b.reach.is_none() || b.reach >= a.reach, "{a:?} {b:?}");
        }
        let (near, far) = (floor::plan(&near, &evaluate(&near).unwrap()), floor::plan(&far, &evaluate(&far).unwrap()));
        prop_assert!(far.cabling_cost_usd + 1e-6 >= near.cabling_cost_usd);
        prop_assert!(far.cabling_power_w + 1e-6 >= near.cabling_power_w);
        prop_assert!(far.it_power_kw.value + 1e-9 >= near.it_power_kw.value);
    }

    #[test]
    fn the_same_design_always_places_the_same_way(
        leaves in placement(), width in 0.4f64..1.2, pitch in 1.0f64..8.0, per_rack in 1u32..=6,
    ) {
        let s = spec(leaves, width, pitch, 0.6, 10.0, per_rack);
        let report = evaluate(&s).unwrap();
        let (a, b) = (floor::plan(&s, &report), floor::plan(&s, &report));
        prop_assert_eq!(&a, &b);
        prop_assert_eq!(floor::svg::floor_plan(&a), floor::svg::floor_plan(&b));
        prop_assert_eq!(floor::cabling(&s, &report).unwrap(), floor::cabling(&s, &report).unwrap());
    }
}

proptest! {
    // Mostly sensible values with some out of range, so that both refusals and plans are seen.
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_floor_of_any_example_is_refused_or_planned_without_panicking(
        example in 0usize..6,
        rack_units in 0u32..70, nodes_per_rack in 0u32..8, rows in 0u32..40, racks_per_row in 0u32..60,
        power in -5.0f64..200.0, air in -5.0f64..200.0, width in -0.2f64..3.0, pitch in -0.5f64..10.0,
        tray in -0.2f64..3.0, slack in -5.0f64..120.0, pue in 0.9f64..3.0,
        leaves in placement(), spines in placement(), liquid in any::<bool>(), single in any::<bool>(),
    ) {
        let mut value: Value = serde_json::from_str(examples::ALL[example].1).unwrap();
        value["schema_version"] = json!(3);
        value["floor"] = json!({
            "rack_units": rack_units, "nodes_per_rack": nodes_per_rack, "rows": rows,
            "racks_per_row": racks_per_row, "rack_power_kw": power, "air_limit_kw": air,
            "rack_width_m": width, "row_pitch_m": pitch, "tray_height_m": tray,
            "slack_percent": slack, "pue": pue, "leaves": leaves, "spines": spines,
            "cooling": if liquid { "direct_liquid" } else { "air" },
            "feeds": if single { "single" } else { "dual" },
        });
        let Ok(spec) = DesignSpec::from_value(value) else { return Ok(()) };
        let report = evaluate(&spec).unwrap();
        let plan = floor::plan(&spec, &report);
        let nodes: usize = plan.racks.iter().flat_map(|r| &r.devices).filter(|d| d.role == "node").count();
        prop_assert_eq!(nodes as u32, spec.cluster.nodes, "every node stands in a rack");
        prop_assert!(plan.it_power_kw.value.is_finite() && plan.facility_power_kw.value >= plan.it_power_kw.value);
        let _ = (floor::svg::floor_plan(&plan), floor::svg::rack_elevations(&plan));
        let _ = floor::cabling(&spec, &report);
    }
}
