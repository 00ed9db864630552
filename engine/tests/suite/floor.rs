//! The physical floor: placement, routing, media, power and pictures.

use crate::common;

use common::*;
use engine::floor::{self, FloorReport};
use engine::*;
use serde_json::{json, Value};

fn superpod() -> (DesignSpec, Report) {
    let spec = DesignSpec::from_json(examples::SUPERPOD_4SU).unwrap();
    let report = evaluate(&spec).unwrap();
    (spec, report)
}

fn plan(spec: &DesignSpec) -> FloorReport {
    floor::plan(spec, &evaluate(spec).unwrap())
}

fn superpod_with(floor: Value) -> DesignSpec {
    let mut value: Value = serde_json::from_str(examples::SUPERPOD_4SU).unwrap();
    value["schema_version"] = json!(3);
    value["floor"] = floor;
    DesignSpec::from_value(value).unwrap()
}

fn transceivers(f: &FloorReport, fabric: &str, end: &str) -> (u32, u32) {
    f.transceivers
        .iter()
        .filter(|t| t.fabric == fabric && t.end == end)
        .fold((0, 0), |(n, per), t| {
            (n + t.count, per.max(t.links_per_plug))
        })
}

#[test]
fn the_superpod_compute_fabric_places_48_switches_and_counts_twin_port_optics_at_both_ends() {
    let (spec, report) = superpod();
    let f = floor::plan(&spec, &report);
    let compute_switches = f
        .racks
        .iter()
        .flat_map(|r| &r.devices)
        .filter(|d| d.label.starts_with("compute-"))
        .count();
    assert_eq!(compute_switches, 48, "32 leaves and 16 spines");
    // DGX H100: four twin-port OSFP cages carry its eight NDR links, so 4 plugs per DGX.
    assert_eq!(transceivers(&f, "compute", "node"), (127 * 4, 2));
    // Leaves: 16 twin-port cages towards the nodes each (a 31-node unit leaves half of the last
    // cage to UFM or empty) = 512; leaf-spine: 1,024 links, a twin-port cage per 2 links at each
    // end = 1,024.
    assert_eq!(transceivers(&f, "compute", "switch"), (512 + 1024, 2));
    // The UFM's four links end in single-port transceivers.
    assert_eq!(transceivers(&f, "compute", "endpoint"), (4, 1));
}

/// One bill to order: each fabric's bill of materials is its bill as placed (the SuperPOD's
/// DGX nodes take 508 twin-port transceivers, four per node, not 1,016 single-port ones), and
/// the bills add up to the headline's network cost and power to the dollar and watt; the
/// nominal runs' figure stays beside them for comparison only.
#[test]
fn each_fabric_s_bill_is_the_bill_as_placed_and_they_add_up_to_the_headline() {
    let (_, report) = superpod();
    let node_end: u32 = report
        .fabrics
        .iter()
        .flat_map(|f| &f.bom)
        .filter(|l| l.item.ends_with(":node2x"))
        .map(|l| l.quantity)
        .sum();
    assert_eq!(node_end, 127 * 4);
    assert!(
        !report
            .fabrics
            .iter()
            .flat_map(|f| &f.bom)
            .any(|l| l.item.ends_with(":host") && l.description.contains("NIC end")),
        "no nominal single-port NIC-end optics for twin-port nodes"
    );
    let placed = report.placed.as_ref().unwrap();
    let cost: f64 = report.fabrics.iter().map(|f| f.cost_usd.dollars()).sum();
    let power: f64 = report.fabrics.iter().map(|f| f.power_w.watts()).sum();
    let lines: f64 = report
        .fabrics
        .iter()
        .flat_map(|f| &f.bom)
        .map(|l| l.total_usd.dollars())
        .sum();
    assert!(
        (cost - placed.cost_usd.dollars()).abs() < 0.5,
        "{cost} {}",
        placed.cost_usd.dollars()
    );
    assert!((lines - placed.cost_usd.dollars()).abs() < 0.5);
    assert!((power - placed.power_w.watts()).abs() < 0.5);
    assert_ne!(
        report.totals.cost_usd, placed.cost_usd,
        "the nominal figure differs"
    );
}

/// A switch's power is its maximum with every cage filled (QM9700: 1,720 W with active
/// cables), so its optics are counted once, in it: the switch-end transceivers add cost, not
/// power, on the floor and at the nominal runs alike; the NIC-end ones add both.
#[test]
fn power_is_counted_once_switch_optics_in_the_switch_rating() {
    let (spec, report) = superpod();
    let f = floor::plan(&spec, &report);
    let watts = |bom: &[BomLine], what: &dyn Fn(&BomLine) -> bool| -> f64 {
        bom.iter()
            .filter(|l| what(l))
            .map(|l| l.total_power_w.watts())
            .sum()
    };
    for bom in [&f.bom, &report.fabrics[0].bom] {
        let switch_ends = watts(bom, &|l| l.item.contains(":switch"));
        assert_eq!(
            switch_ends, 0.0,
            "switch-end transceivers draw within the switch"
        );
        let bought: u32 = bom
            .iter()
            .filter(|l| l.item.contains(":switch"))
            .map(|l| l.quantity)
            .sum();
        assert!(bought > 0, "they are still bought");
        assert!(
            bom.iter()
                .filter(|l| l.item.contains(":switch"))
                .all(|l| l.unit_price_usd.dollars() > 0.0),
            "and cost"
        );
    }
    // The compute fabric's 48 QM9700s and the storage fabric's 12 at 1,720 W each, the nodes'
    // twin-port cages at their own draw: nothing else of the switches' optics.
    let switches: f64 = report
        .fabrics
        .iter()
        .map(|fabric| watts(&fabric.bom, &|l| l.item == "switch:qm9700"))
        .sum();
    assert_eq!(switches, (48 + 12) as f64 * 1720.0);
    let node_ends = watts(&f.bom, &|l| l.item.contains(":node"));
    assert!(node_ends > 0.0);
}

#[test]
fn by_default_dgx_h100_stand_four_to_a_rack_with_leaves_mid_row_and_spines_in_a_network_row() {
    let (spec, report) = superpod();
    let f = floor::plan(&spec, &report);
    assert_eq!((f.nodes_per_rack, f.node_rack_units), (4, 8));
    assert_eq!(f.node_power_kw.value, Kilowatts::new(10.2));
    assert_eq!(f.racks.iter().filter(|r| !r.network).count(), 32);
    // One scalable unit per row: 8 compute racks around two leaf racks, then the network row.
    assert_eq!((f.compute_rows, f.rows, f.racks_per_row), (4, 5, 8));
    let row_one: Vec<&engine::floor::Rack> = f.racks.iter().filter(|r| r.row == 0).collect();
    assert_eq!(
        row_one.iter().map(|r| r.network).collect::<Vec<_>>(),
        [false, false, false, false, true, true, false, false, false, false]
    );
    // The unit's eight rail leaves in turn, four to each rack: losing one leaves every node on
    // four rails.
    for rack in row_one.iter().filter(|r| r.network) {
        let leaves: Vec<&str> = rack
            .devices
            .iter()
            .filter(|d| d.label.starts_with("compute-leaf"))
            .map(|d| d.label.as_str())
            .collect();
        assert_eq!(leaves.len(), 4, "{leaves:?}");
    }
    assert!(f
        .racks
        .iter()
        .filter(|r| r.row == 4)
        .all(|r| r.network && r.devices.iter().all(|d| d.role == "spine")));
    assert!(f.findings.is_empty(), "{:?}", f.findings);
    // Every cable on this floor is fibre: the racks are more than passive copper reaches apart.
    assert!(f
        .cables
        .iter()
        .all(|c| c.reach == catalog::ReachClass::Multimode));
}

/// Spreading each tier over racks costs racks and cable: the report weighs them against the
/// same design packed, figures equal to that packed floor's own.
#[test]
fn spreading_each_tier_over_racks_is_weighed_against_the_same_floor_packed() {
    let (spec, report) = superpod();
    let f = floor::plan(&spec, &report);
    let floors = SharedFloors::new();
    let (spread, packed) = floor::spread_against_packed(&spec, &report, &f, &floors).unwrap();
    // One more leaf rack in each of the four compute rows, and the 20 spines (34.4 kW, one
    // rack packed) in two.
    assert_eq!((spread.network_racks, packed.network_racks), (10, 5));
    assert!(spread.cable_m.metres() > 0.0 && packed.cable_m.metres() > 0.0);
    let mut packed_spec = spec.clone();
    packed_spec.floor.switch_racks = SwitchRacks::Packed;
    let packed_floor = floor::plan(&packed_spec, &report);
    assert_eq!(
        packed.network_racks as usize,
        packed_floor.racks.iter().filter(|r| r.network).count()
    );
    assert_eq!(packed.cabling_cost_usd, packed_floor.cabling_cost_usd);
    assert_eq!(spread.cabling_cost_usd, f.cabling_cost_usd);
    assert!(floor::spread_against_packed(&packed_spec, &report, &packed_floor, &floors).is_none());
}

/// The packed floor a spread design is weighed against is laid once while it is kept: the same
/// design, or one edited without moving a cable, weighs against it again without laying it; the
/// answer is the one a floor laid afresh gives, on every example.
#[test]
fn the_packed_floor_a_design_is_weighed_against_is_laid_once_for_its_edits() {
    let floors = SharedFloors::new();
    for (name, text) in examples::ALL {
        let spec = DesignSpec::from_json(text).unwrap();
        let placed = evaluate_placed(&spec).unwrap();
        let weighed = |floors: &SharedFloors| {
            floor::spread_against_packed(&spec, &placed.report, &placed.floor, floors)
        };
        let fresh = weighed(&SharedFloors::new());
        let laid = floors.floors_laid();
        assert_eq!(weighed(&floors), fresh, "{name}");
        let laid_now = floors.floors_laid();
        assert!(laid_now <= laid + 1, "{name}");
        assert_eq!(weighed(&floors), fresh, "{name}");
        assert_eq!(floors.floors_laid(), laid_now, "{name}: laid again");
    }
    assert!(floors.floors_laid() > 0, "no example spreads its switches");
}

#[test]
fn facility_power_is_it_power_times_pue() {
    let f = plan(&superpod_with(json!({ "pue": 1.3 })));
    assert!(
        (f.facility_power_kw.value.kilowatts() - 1.3 * f.it_power_kw.value.kilowatts()).abs()
            < 1e-6
    );
    // 127 DGX at 10.2 kW are most of it.
    assert!(f.it_power_kw.value.kilowatts() > 127.0 * 10.2);
}

#[test]
fn a_rack_over_its_power_budget_raises_a_finding_naming_the_rack() {
    let f = plan(&superpod_with(json!({ "rack_power_kw": 40 })));
    let over: Vec<&Finding> = f
        .findings
        .iter()
        .filter(|x| x.rule == "rack-over-budget")
        .collect();
    assert!(!over.is_empty());
    for finding in &over {
        let rack = f.racks.iter().find(|r| r.name == finding.subject).unwrap();
        assert!(rack.load_kw.kilowatts() > 40.0 && rack.over_budget);
        assert!(finding.message.contains(&rack.name));
    }
    assert_eq!(
        over.len(),
        f.racks
            .iter()
            .filter(|r| r.load_kw.kilowatts() > 40.0)
            .count()
    );
}

#[test]
fn an_air_cooled_rack_past_the_air_limit_raises_a_finding_and_liquid_cooling_clears_it() {
    let f = plan(&superpod_with(json!({ "air_limit_kw": 30 })));
    let past: Vec<&Finding> = f
        .findings
        .iter()
        .filter(|x| x.rule == "rack-past-air-limit")
        .collect();
    assert!(past
        .iter()
        .any(|x| x.subject == "R01-01" && x.message.contains("R01-01")));
    let liquid = plan(&superpod_with(
        json!({ "air_limit_kw": 30, "cooling": "direct_liquid" }),
    ));
    assert!(liquid
        .findings
        .iter()
        .all(|x| x.rule != "rack-past-air-limit"));
}

#[test]
fn with_a_b_feeds_each_feed_carries_half_the_rack() {
    let f = plan(&superpod_with(json!({ "feeds": "dual" })));
    let single = plan(&superpod_with(json!({ "feeds": "single" })));
    assert_eq!(f.racks[0].feed_kw * 2.0, f.racks[0].load_kw);
    assert_eq!(single.racks[0].feed_kw, single.racks[0].load_kw);
}

#[test]
fn top_of_rack_leaves_stand_in_a_compute_rack_and_its_power_counts_them() {
    let f = plan(&superpod_with(json!({ "leaves": "top_of_rack" })));
    let first = &f.racks[0];
    assert!(!first.network);
    assert!(first.devices.iter().any(|d| d.role == "leaf"));
    let leaf_u = first
        .devices
        .iter()
        .filter(|d| d.role == "leaf")
        .map(|d| d.u)
        .max();
    assert_eq!(leaf_u, Some(48), "switches fill a rack from the top");
}

/// A floor of thousands of racks is drawn as a picture of its rows: its rows in columns, the
/// racks side by side in one colour as one block, each rack in exactly one block, without the
/// routes (which would cross the columns), within a page's height.
#[test]
fn a_floor_of_thousands_of_racks_is_drawn_in_blocks_that_hold_each_rack_once() {
    let mut value: Value = serde_json::from_str(examples::SUPERPOD_4SU).unwrap();
    value["cluster"]["nodes"] = json!(8_000);
    value["workloads"] = json!([]);
    value.as_object_mut().unwrap().remove("growth");
    let f = plan(&DesignSpec::from_value(value).unwrap());
    assert!(
        f.racks.len() > floor::svg::RACKS_DRAWN_ONE_BY_ONE,
        "{}",
        f.racks.len()
    );
    let svg = floor::svg::floor_plan(&f);
    let mut drawn = 0;
    let mut blocks = 0;
    for title in svg.split("<g><title>").skip(1) {
        let title = &title[..title.find("</title>").unwrap()];
        blocks += 1;
        drawn += match title
            .split_once(" racks")
            .and_then(|(before, _)| before.rsplit_once(": "))
        {
            Some((_, n)) => n.replace(',', "").parse::<usize>().unwrap(),
            None => 1,
        };
    }
    assert_eq!(drawn, f.racks.len(), "each rack in one block");
    assert!(
        blocks * 3 < f.racks.len(),
        "{blocks} blocks for {} racks",
        f.racks.len()
    );
    assert!(!svg.contains("<polyline"));
    let height: f64 = svg
        .split("height=\"")
        .nth(1)
        .and_then(|h| h.split('"').next())
        .unwrap()
        .parse()
        .unwrap();
    assert!(height <= 1_300.0, "{height} px");
}

/// Where each cable lies, as the hand-off files read it beside the names they hold, is the
/// cabling sheet's row: rack and rack unit at both ends, orderable length, reach and the medium
/// with its transceivers, cable for cable on every example.
#[test]
fn where_each_cable_lies_is_its_row_of_the_cabling_sheet_on_every_example() {
    let mut compared = 0;
    for (name, example) in examples::ALL {
        let spec = DesignSpec::from_json(example).unwrap();
        let report = evaluate(&spec).unwrap();
        let sheet = floor::cabling(&spec, &report).unwrap();
        let placed = floor::placements(&spec, &report).unwrap();
        assert_eq!(sheet.len(), placed.cables.len(), "{name}");
        for (row, at) in sheet.iter().zip(&placed.cables) {
            let fabric = report
                .fabrics
                .iter()
                .find(|f| f.name == row.fabric)
                .unwrap();
            let speed = fabric.port_rate.bits_per_second() / 1e9;
            let medium = at.medium(speed, &row.a_device, &row.z_device);
            assert_eq!(
                (
                    row.a_rack.as_deref(),
                    row.a_u,
                    row.z_rack.as_deref(),
                    row.z_u,
                    row.length_m,
                    row.reach,
                    row.medium.as_deref(),
                ),
                (
                    placed.rack(at.a_rack),
                    at.a_u,
                    placed.rack(at.z_rack),
                    at.z_u,
                    at.length_m,
                    at.reach,
                    Some(medium.as_str()),
                ),
                "{name}: {row:?}"
            );
            compared += 1;
        }
    }
    assert!(compared > 3_000, "{compared} cables compared");
}

/// A sheet whose reader has gone (a download cut off) stops: the cables after are not named.
#[test]
fn a_cabling_sheet_stops_where_its_reader_does() {
    let (spec, report) = superpod();
    let mut named = Vec::new();
    floor::cabling_each(&spec, &report, |cable| {
        named.push(cable.a_device);
        if named.len() == 3 {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    })
    .unwrap();
    assert_eq!(named, ["node-001", "node-001", "node-001"]);
}

#[test]
fn the_floor_cabling_sheet_names_rack_and_u_at_both_ends_and_orders_whole_lengths() {
    let (spec, report) = superpod();
    let sheet = floor::cabling(&spec, &report).unwrap();
    let count: u32 = report
        .fabrics
        .iter()
        .map(|f| f.plan.node_leaf_links + f.plan.leaf_spine_links + f.plan.spine_core_links)
        .sum();
    assert_eq!(sheet.len() as u32, count);
    let first = &sheet[0];
    assert_eq!(first.a_device, "node-001");
    assert_eq!(
        (first.a_rack.as_deref(), first.a_u),
        (Some("R01-01"), Some(1))
    );
    assert_eq!(first.z_rack.as_deref(), Some("R01-05"));
    for c in &sheet {
        let (route, length) = (c.route_m.unwrap().metres(), c.length_m.unwrap().metres());
        assert!(length + 0.01 >= route, "{c:?}");
        assert!(floor::ORDERABLE_M.contains(&length));
        assert!(c.medium.as_deref().is_some_and(|m| !m.is_empty()));
    }
    let plan = floor::plan(&spec, &report);
    let by_length: u32 = plan.cables.iter().map(|c| c.count).sum();
    assert_eq!(
        by_length, count,
        "the BOM counts every cable by its orderable length"
    );
}

#[test]
fn a_version_2_spec_loads_and_upgrades_to_version_3_with_the_default_floor() {
    let spec = DesignSpec::from_json(examples::SUPERPOD_4SU).unwrap();
    assert_eq!(spec.schema_version, 3);
    assert_eq!(spec.floor, Floor::default());
    let again = DesignSpec::from_json(&spec.to_json()).unwrap();
    assert_eq!(again, spec);
}

fn floor_error(floor: Value) -> Vec<String> {
    let mut value: Value = serde_json::from_str(examples::SUPERPOD_4SU).unwrap();
    value["schema_version"] = json!(3);
    value["floor"] = floor;
    DesignSpec::from_value(value)
        .unwrap_err()
        .0
        .into_iter()
        .map(|e| e.path)
        .collect()
}

#[test]
fn a_rack_smaller_than_one_node_is_refused_at_its_field() {
    assert_eq!(
        floor_error(json!({ "rack_units": 6 })),
        ["floor.rack_units"]
    );
    assert_eq!(
        floor_error(json!({ "nodes_per_rack": 7 })),
        ["floor.nodes_per_rack"]
    );
}

#[test]
fn zero_rows_and_negative_lengths_are_refused_with_their_field_paths() {
    assert_eq!(floor_error(json!({ "rows": 0 })), ["floor.rows"]);
    assert_eq!(
        floor_error(json!({ "racks_per_row": 0 })),
        ["floor.racks_per_row"]
    );
    assert_eq!(
        floor_error(json!({ "row_pitch_m": -2 })),
        ["floor.row_pitch_m"]
    );
    assert_eq!(
        floor_error(json!({ "tray_height_m": -0.5 })),
        ["floor.tray_height_m"]
    );
    assert_eq!(
        floor_error(json!({ "rack_width_m": 0 })),
        ["floor.rack_width_m"]
    );
    assert_eq!(
        floor_error(json!({ "slack_percent": -1 })),
        ["floor.slack_percent"]
    );
    assert_eq!(floor_error(json!({ "pue": 0.9 })), ["floor.pue"]);
    assert_eq!(
        floor_error(json!({ "rows": 2, "racks_per_row": 4 })),
        ["floor.rows"]
    );
    assert_eq!(
        floor_error(json!({ "spines": "top_of_rack" })),
        ["floor.spines"]
    );
    assert_eq!(floor_error(json!({ "rack_kw": 3 })), ["floor.rack_kw"]);
}

#[test]
fn the_pictures_are_svg_with_their_labels_escaped_and_the_same_every_time() {
    let spec = DesignSpec::from_json(examples::SUPERPOD_4SU).unwrap();
    let f = plan(&spec);
    let (plan_svg, racks_svg) = (floor::svg::floor_plan(&f), floor::svg::rack_elevations(&f));
    for svg in [&plan_svg, &racks_svg] {
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
    }
    assert!(racks_svg.contains(">compute-leaf-01<"));
    assert!(racks_svg.contains("node-001"));
    assert_eq!(plan_svg, floor::svg::floor_plan(&plan(&spec)));
    // Device names keep the fabric-name rule (no markup), and labels are escaped anyway.
    assert_eq!(
        floor::svg::escape("compute <a&b> \"q\" 'q'"),
        "compute &lt;a&amp;b&gt; &quot;q&quot; &#39;q&#39;"
    );
}

#[test]
fn every_example_design_gets_a_floor_without_findings_by_default() {
    for (name, example) in examples::ALL {
        let spec = DesignSpec::from_json(example).unwrap();
        let f = plan(&spec);
        assert!(!f.racks.is_empty(), "{name}");
        assert!(f.findings.is_empty(), "{name}: {:?}", f.findings);
    }
}

#[test]
fn a_design_built_in_code_takes_the_default_floor() {
    let spec = design(
        dgx_h100(16),
        vec![],
        vec![fabric("compute", Role::Compute, Technology::IbNdr)],
    );
    let f = plan(&spec);
    assert_eq!(f.racks.iter().filter(|r| !r.network).count(), 4);
}

#[test]
fn the_network_as_placed_counts_the_floors_cables_and_optics_in_place_of_each_tiers_run() {
    for (name, text) in examples::ALL {
        let spec = DesignSpec::from_json(text).unwrap();
        let report = evaluate(&spec).unwrap();
        let f = floor::plan(&spec, &report);
        assert!(f.nominal_cabling_cost_usd.dollars() > 0.0, "{name}");
        let expected =
            (report.totals.cost_usd - f.nominal_cabling_cost_usd + f.cabling_cost_usd).dollars();
        assert!(
            (f.placed_network_cost_usd.value.dollars() - expected).abs() < 1e-6 * expected,
            "{name}"
        );
        let expected =
            (report.totals.power_w - f.nominal_cabling_power_w + f.cabling_power_w).watts();
        assert!(
            (f.placed_network_power_w.value.watts() - expected).abs() < 1e-6 * expected,
            "{name}"
        );
        // The switches stay: the network as placed costs at least its switches.
        let switches: Usd = report
            .fabrics
            .iter()
            .flat_map(|f| &f.bom)
            .filter(|l| l.item.starts_with("switch:"))
            .map(|l| l.total_usd)
            .sum();
        assert!(f.placed_network_cost_usd.value > switches, "{name}");
    }
    // RAG's nodes stand a rack or more from their leaf: routed with slack, most runs are past
    // the 3 m passive copper reaches at 25G, so they become fibre with a transceiver at each
    // end, several times the nominal copper.
    let spec = DesignSpec::from_json(examples::RAG).unwrap();
    let report = evaluate(&spec).unwrap();
    let f = floor::plan(&spec, &report);
    assert!(f.cabling_cost_usd > f.nominal_cabling_cost_usd * 3.0);
    assert!(f.placed_network_cost_usd.value > report.totals.cost_usd);
}

#[test]
fn the_evaluation_reports_the_network_as_placed_and_its_headline_cost_per_gpu_is_that_network() {
    for (name, text) in examples::ALL {
        let spec = DesignSpec::from_json(text).unwrap();
        let report = evaluate(&spec).unwrap();
        let f = floor::plan(&spec, &report);
        let placed = report
            .placed
            .as_ref()
            .expect("today's engine places every design");
        assert_eq!(placed.cost_usd, f.placed_network_cost_usd.value, "{name}");
        assert_eq!(placed.power_w, f.placed_network_power_w.value, "{name}");
        let gpus = report.cluster.gpus as f64;
        assert_eq!(placed.cost_per_gpu_usd, placed.cost_usd / gpus, "{name}");
        assert_eq!(placed.power_per_gpu_w, placed.power_w / gpus, "{name}");
        assert_eq!(report.network(), placed, "{name}");
        assert_eq!(
            report.headline.cost_per_gpu_usd, placed.cost_per_gpu_usd,
            "{name}"
        );
    }
    // A report saved by an engine before the floor was costed has the fabrics' bills only.
    let spec = DesignSpec::from_json(examples::RAG).unwrap();
    let mut old = evaluate(&spec).unwrap();
    old.placed = None;
    let old: engine::Report = serde_json::from_str(
        &serde_json::to_string(&old)
            .unwrap()
            .replace(",\"placed\":null", ""),
    )
    .unwrap();
    assert_eq!(old.placed, None);
    assert_eq!(old.network(), &old.totals);
}

/// The planner evaluates on every edit, keeping the floor it laid: each evaluation, whether it
/// lays the floor again (nodes, a fabric's name, the floor's slack, a price) or takes it from
/// the last (a workload's batch), is the report a fresh evaluation gives.
#[test]
fn an_evaluation_that_keeps_the_last_floor_is_the_fresh_evaluation_after_every_edit() {
    let base: Value = serde_json::from_str(examples::HYBRID).unwrap();
    let edit = |change: &dyn Fn(&mut Value)| {
        let mut v = base.clone();
        change(&mut v);
        DesignSpec::from_value(v).unwrap()
    };
    let edits = [
        edit(&|_| {}),
        edit(&|v| v["workloads"][0]["global_batch"] = json!(512)),
        edit(&|v| v["cluster"]["nodes"] = json!(48)),
        edit(&|v| v["cluster"]["nodes"] = json!(48)),
        edit(&|v| {
            v["fabrics"][1]["name"] = json!("serving");
            v["workloads"][1]["fabric"] = json!("serving");
        }),
        edit(&|v| v["floor"] = json!({ "slack_percent": 25 })),
        edit(&|v| {
            v["overrides"] = json!([{ "item": "fibre:multimode:10m", "unit_price_usd": 500 }])
        }),
        edit(&|_| {}),
    ];
    let mut last = LastFloor::default();
    for (i, spec) in edits.iter().enumerate() {
        let fresh = evaluate(spec);
        let kept = evaluate_reusing(spec, &mut last);
        assert_eq!(kept, fresh, "edit {i}");
        assert!(kept.is_ok(), "edit {i}");
    }
}

/// A page that lays its design's floor with the plan (for its dashboard) keeps it for the
/// planner's evaluation of the same design, which then lays none and is the fresh evaluation;
/// an edit that lengthens cables lays again.
#[test]
fn a_floor_laid_with_its_plan_is_kept_for_the_planner_s_evaluation_of_the_same_design() {
    for (name, text) in examples::ALL {
        let spec = DesignSpec::from_json(text).unwrap();
        let mut last = LastFloor::default();
        let placed = evaluate_placed_keeping(&spec, &mut last).unwrap();
        assert_eq!(placed, evaluate_placed(&spec).unwrap(), "{name}");
        assert_eq!(last.floors_laid(), 1, "{name}");
        assert_eq!(
            evaluate_reusing(&spec, &mut last),
            evaluate(&spec),
            "{name}"
        );
        assert_eq!(
            last.floors_laid(),
            1,
            "{name}: the planner lays no floor of its own"
        );
        let mut slack = spec.clone();
        slack.floor.slack_percent += 5.0;
        assert_eq!(
            evaluate_reusing(&slack, &mut last),
            evaluate(&slack),
            "{name}"
        );
        assert_eq!(last.floors_laid(), 2, "{name}: more slack lengthens cables");
    }
}

/// Floors shared by evaluations at once (the server's requests): each evaluation through them,
/// whether it lays its floor or takes one laid by another, is the fresh evaluation; the same
/// designs evaluated again lay nothing while they are kept.
#[test]
fn evaluations_sharing_their_floors_at_once_are_the_fresh_evaluations() {
    let designs: Vec<DesignSpec> = examples::ALL
        .iter()
        .map(|(_, text)| DesignSpec::from_json(text).unwrap())
        .collect();
    let floors = SharedFloors::new();
    std::thread::scope(|scope| {
        for start in 0..4 {
            let (designs, floors) = (&designs, &floors);
            scope.spawn(move || {
                for spec in designs.iter().cycle().skip(start).take(designs.len()) {
                    assert_eq!(evaluate_sharing(spec, floors), evaluate(spec));
                }
            });
        }
    });
    let laid = floors.floors_laid();
    assert!(laid >= designs.len() as u32, "{laid} floors laid");
    for spec in &designs {
        assert_eq!(evaluate_sharing(spec, &floors), evaluate(spec));
    }
    assert_eq!(floors.floors_laid(), laid, "every floor was kept");
}

/// The dashboard of a design being edited draws the floor's plan after every edit: through
/// shared floors, an edit that moves no cable (a workload's batch, a tier's nominal run) takes
/// the plan laid for the design before it, priced against the edited design's nominal bill, and
/// is the fresh evaluation with its plan; more nodes lay the floor again.
#[test]
fn a_floor_plan_laid_for_one_design_is_taken_for_the_next_laid_alike() {
    let mut repriced = 0;
    for (name, text) in examples::ALL {
        let spec = DesignSpec::from_json(text).unwrap();
        let floors = SharedFloors::new();
        let fresh = evaluate_placed(&spec).unwrap();
        assert_eq!(
            evaluate_placed_sharing(&spec, &floors).unwrap(),
            fresh,
            "{name}"
        );
        assert_eq!(floors.floors_laid(), 1, "{name}");
        assert_eq!(
            evaluate_placed_sharing(&spec, &floors).unwrap(),
            fresh,
            "{name}"
        );
        let mut edited = spec.clone();
        for w in &mut edited.workloads {
            if let Workload::Training(t) = w {
                t.global_batch *= 2;
            }
        }
        for f in &mut edited.fabrics {
            f.cable_runs.node_leaf_m = Metres::new(2.0);
        }
        let placed = evaluate_placed_sharing(&edited, &floors).unwrap();
        assert_eq!(placed, evaluate_placed(&edited).unwrap(), "{name}");
        if placed.floor.nominal_cabling_cost_usd != fresh.floor.nominal_cabling_cost_usd {
            repriced += 1;
        }
        assert_eq!(floors.floors_laid(), 1, "{name}: no cable moved");
        let mut more = spec.clone();
        more.cluster.nodes += 1;
        if let Ok(fresh) = evaluate_placed(&more) {
            assert_eq!(
                evaluate_placed_sharing(&more, &floors).unwrap(),
                fresh,
                "{name}"
            );
            assert_eq!(floors.floors_laid(), 2, "{name}: one more node");
        }
    }
    assert!(
        repriced >= 3,
        "{repriced} plans taken with another nominal bill"
    );
}
