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
    // Two scalable units are the example's first phase: here they are the whole design.
    value.as_object_mut().unwrap().remove("growth");
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
            let length = c.length_m.unwrap().metres();
            prop_assert!(length + 1e-9 >= c.route_m.unwrap().metres() - 0.005);
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
            prop_assert!(b.route_m.unwrap().metres() + 1e-9 >= a.route_m.unwrap().metres());
            prop_assert!(b.length_m >= a.length_m);
            prop_assert!(b.reach.is_none() || b.reach >= a.reach, "{a:?} {b:?}");
        }
        let (near, far) = (floor::plan(&near, &evaluate(&near).unwrap()), floor::plan(&far, &evaluate(&far).unwrap()));
        prop_assert!(far.cabling_cost_usd.dollars() + 1e-6 >= near.cabling_cost_usd.dollars());
        prop_assert!(far.cabling_power_w.watts() + 1e-6 >= near.cabling_power_w.watts());
        prop_assert!(far.it_power_kw.value.kilowatts() + 1e-9 >= near.it_power_kw.value.kilowatts());
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
        // Only the floor was drawn: a refusal names floor fields alone.
        let spec = match DesignSpec::from_value(value) {
            Ok(spec) => spec,
            Err(errors) => {
                prop_assert!(!errors.0.is_empty());
                for e in &errors.0 {
                    prop_assert!(e.path.starts_with("floor."), "{}: {}", e.path, e.reason);
                }
                return Ok(());
            }
        };
        let report = evaluate(&spec).unwrap();
        let plan = floor::plan(&spec, &report);
        let nodes: usize = plan.racks.iter().flat_map(|r| &r.devices).filter(|d| d.role == "node").count();
        prop_assert_eq!(nodes as u32, spec.cluster.nodes, "every node stands in a rack");
        prop_assert!(plan.it_power_kw.value.kilowatts().is_finite() && plan.facility_power_kw.value >= plan.it_power_kw.value);
        let _ = (floor::svg::floor_plan(&plan), floor::svg::rack_elevations(&plan));
        let _ = floor::cabling(&spec, &report);
    }
}

/// Every example with `nodes` nodes, its leaves placed as `leaves`.
fn scaled(example: &str, nodes: u32, leaves: &str) -> Option<DesignSpec> {
    let mut value: Value = serde_json::from_str(example).unwrap();
    value["schema_version"] = json!(3);
    value["cluster"]["nodes"] = json!(nodes);
    value["workloads"] = json!([]);
    for f in value["fabrics"].as_array_mut()? {
        f.as_object_mut()?.remove("attached_nodes");
    }
    value["floor"] = json!({ "leaves": leaves });
    DesignSpec::from_value(value).ok()
}

/// The number after the last `prefix` of a port label, from 1.
fn port_number(port: &str, prefix: &str) -> u32 {
    port.rsplit(prefix).next().unwrap().parse().unwrap()
}

#[test]
fn the_evaluation_counts_the_cables_transceivers_and_rack_power_of_the_cabling_sheet() {
    use std::collections::BTreeMap;
    let mut designs = 0;
    for (name, example) in examples::ALL {
        for (nodes, leaves) in [
            (8, "top_of_rack"),
            (64, "middle_of_row"),
            (300, "end_of_row"),
            (512, "network_row"),
        ] {
            let Some(spec) = scaled(example, nodes, leaves) else {
                continue;
            };
            let Ok(report) = evaluate(&spec) else {
                continue;
            };
            let Ok(sheet) = floor::cabling(&spec, &report) else {
                continue;
            };
            let plan = floor::plan(&spec, &report);
            designs += 1;
            let what = format!("{name} at {nodes} nodes");

            // Cables by fabric, tier, medium and orderable length.
            let mut cables: BTreeMap<(String, String, String, String), u32> = BTreeMap::new();
            for c in sheet.iter().filter(|c| c.reach.is_some()) {
                let key = (
                    c.fabric.clone(),
                    c.tier.to_string(),
                    format!("{:?}", c.reach.unwrap()),
                    format!("{:?}", c.length_m.unwrap()),
                );
                *cables.entry(key).or_default() += 1;
            }
            let counted: BTreeMap<_, _> = plan
                .cables
                .iter()
                .map(|c| {
                    (
                        (
                            c.fabric.clone(),
                            c.tier.clone(),
                            format!("{:?}", c.reach),
                            format!("{:?}", c.length_m),
                        ),
                        c.count,
                    )
                })
                .collect();
            assert_eq!(counted, cables, "{what}");

            // Transceivers: one per cage that holds an optical link, of the dearest class in it.
            let per_plug = |fabric: &str, end: &str| {
                plan.transceivers
                    .iter()
                    .find(|t| t.fabric == fabric && t.end == end)
                    .map_or(1, |t| t.links_per_plug)
            };
            let mut cages: BTreeMap<(String, &str, String, u32), ReachClass> = BTreeMap::new();
            let mut endpoints: BTreeMap<(String, String), u32> = BTreeMap::new();
            let mut node_rack: BTreeMap<String, String> = BTreeMap::new();
            for c in sheet
                .iter()
                .filter(|c| c.reach.is_some_and(|r| r.is_optical()))
            {
                let reach = c.reach.unwrap();
                for (device, port, rack) in [
                    (&c.a_device, &c.a_port, &c.a_rack),
                    (&c.z_device, &c.z_port, &c.z_rack),
                ] {
                    let (end, number) = if device.starts_with("node-") {
                        node_rack.insert(device.clone(), rack.clone().unwrap());
                        ("node", port_number(port, "nic"))
                    } else if device.contains("-endpoint-") {
                        *endpoints
                            .entry((c.fabric.clone(), format!("{reach:?}")))
                            .or_default() += 1;
                        continue;
                    } else {
                        ("switch", port_number(port, "p"))
                    };
                    let cage = (number - 1) / per_plug(&c.fabric, end);
                    let class = cages
                        .entry((c.fabric.clone(), end, device.clone(), cage))
                        .or_insert(reach);
                    *class = (*class).max(reach);
                }
            }
            let mut transceivers: BTreeMap<(String, String, String), u32> = BTreeMap::new();
            for ((fabric, end, _, _), class) in &cages {
                *transceivers
                    .entry((fabric.clone(), end.to_string(), format!("{class:?}")))
                    .or_default() += 1;
            }
            for ((fabric, class), n) in endpoints {
                *transceivers
                    .entry((fabric, "endpoint".into(), class))
                    .or_default() += n;
            }
            let counted: BTreeMap<_, _> = plan
                .transceivers
                .iter()
                .map(|t| {
                    (
                        (t.fabric.clone(), t.end.clone(), format!("{:?}", t.reach)),
                        t.count,
                    )
                })
                .collect();
            assert_eq!(counted, transceivers, "{what}");

            // Each rack draws its devices plus the transceivers in its nodes' cages.
            let mut optics_w: BTreeMap<String, f64> = BTreeMap::new();
            for ((fabric, end, device, _), class) in &cages {
                if *end == "node" {
                    let watts = plan
                        .transceivers
                        .iter()
                        .find(|t| &t.fabric == fabric && t.end == "node" && t.reach == *class)
                        .unwrap()
                        .watts_each
                        .watts();
                    *optics_w.entry(node_rack[device].clone()).or_default() += watts;
                }
            }
            for rack in &plan.racks {
                let devices_w: f64 = rack.devices.iter().map(|d| d.power_w.watts()).sum();
                let optics = optics_w.get(&rack.name).copied().unwrap_or(0.0);
                assert!(
                    (rack.load_kw.kilowatts() * 1000.0 - devices_w - optics).abs() < 1e-6,
                    "{what}: rack {}",
                    rack.name
                );
            }
        }
    }
    assert!(designs >= 15, "{designs} designs compared");
}
