use super::*;
use crate::spec::{DesignSpec, Placement, SwitchRacks};

fn losses(spec: &DesignSpec) -> Vec<RackLoss> {
    let report = crate::evaluate(spec).unwrap();
    let floor = crate::floor::plan(spec, &report);
    rack_and_row_losses(spec, &report, &floor).0
}

/// The 16-node training example, its network racks packed, stands its compute leaves in one
/// network rack in the middle of the row: losing that rack cuts every node off the compute
/// fabric, and the training job loses all 16 of its nodes. The finding says so.
#[test]
fn a_rack_holding_every_leaf_of_a_fabric_cuts_its_nodes_off_and_is_a_finding() {
    let mut spec = DesignSpec::from_json(crate::examples::SEVENTY_B_TRAINING).unwrap();
    spec.floor.switch_racks = SwitchRacks::Packed;
    let losses = losses(&spec);
    let worst = &losses[0];
    let compute = worst
        .fabrics
        .iter()
        .find(|f| f.fabric == "compute")
        .unwrap();
    assert_eq!((compute.cut_off, compute.of_nodes), (16, 16), "{worst:?}");
    assert_eq!(worst.nodes, 0, "a network rack holds no node");
    assert_eq!(
        worst.workloads,
        vec![("Llama 3 70B pre-training".to_string(), 16)]
    );
    let found = findings(&losses);
    assert!(
        found.iter().any(|f| f.subject == "compute"
            && f.message.starts_with(&format!(
                "Losing rack {} cuts 16 of the 16 nodes of fabric compute",
                worst.rack
            ))),
        "{found:?}"
    );
}

/// The 4-SU SuperPOD stands each row's leaves in that row's network rack: a rack's loss cuts
/// off one row's nodes at most, never most of a fabric: no finding.
#[test]
fn leaves_spread_over_the_rows_keep_most_nodes_on_the_fabric() {
    let mut spec = DesignSpec::from_json(crate::examples::SUPERPOD_4SU).unwrap();
    spec.floor.leaves = Placement::MiddleOfRow;
    let losses = losses(&spec);
    for loss in &losses {
        for f in &loss.fabrics {
            assert!(f.cut_off * 2 <= f.of_nodes, "{loss:?}");
        }
    }
    assert!(findings(&losses).is_empty());
    let with_nodes = losses.iter().find(|l| l.nodes > 0).unwrap();
    assert_eq!(with_nodes.gpus, u64::from(with_nodes.nodes) * 8);
    assert!(with_nodes.workloads[0].1 >= with_nodes.nodes);
}

/// By default each tier's switches are spread over two racks or more: the same example's compute
/// leaves stand in two racks, whose loss each leaves every node on the fabric on the rails of
/// the other, and nothing is found about it (its storage fabric is one switch: nothing spreads
/// one switch).
#[test]
fn spreading_a_tier_over_two_racks_keeps_every_node_on_the_fabric_when_one_rack_is_lost() {
    let spec = DesignSpec::from_json(crate::examples::SEVENTY_B_TRAINING).unwrap();
    let losses = losses(&spec);
    for loss in &losses {
        for f in loss.fabrics.iter().filter(|f| f.fabric == "compute") {
            assert_eq!(f.cut_off, 0, "{loss:?}");
        }
    }
    let found = findings(&losses);
    assert!(found.iter().all(|f| f.subject == "storage"), "{found:?}");
    let report = crate::evaluate(&spec).unwrap();
    let floor = crate::floor::plan(&spec, &report);
    let leaf_racks = floor
        .racks
        .iter()
        .filter(|r| {
            r.devices
                .iter()
                .any(|d| d.label.starts_with("compute-leaf"))
        })
        .count();
    assert_eq!(leaf_racks, 2);
}

/// A row's loss takes every rack of it at once: its nodes are its racks' nodes together, and
/// the SuperPOD's rows each hold nodes of the training job.
#[test]
fn losing_a_row_takes_every_rack_of_it_at_once() {
    let spec = DesignSpec::from_json(crate::examples::SUPERPOD_4SU).unwrap();
    let report = crate::evaluate(&spec).unwrap();
    let floor = crate::floor::plan(&spec, &report);
    let (racks, rows) = rack_and_row_losses(&spec, &report, &floor);
    assert!(floor.rows > 1, "{} rows", floor.rows);
    for row in &rows {
        let number: u32 = row.rack.strip_prefix("row ").unwrap().parse().unwrap();
        let in_row: u32 = floor
            .racks
            .iter()
            .filter(|r| r.row == number)
            .filter_map(|r| racks.iter().find(|l| l.rack == r.name))
            .map(|l| l.nodes)
            .sum();
        assert_eq!(row.nodes, in_row, "{row:?}");
    }
    let nodes: u32 = rows.iter().map(|r| r.nodes).sum();
    assert_eq!(nodes, spec.cluster.nodes);
    assert!(rows[0]
        .workloads
        .iter()
        .any(|(w, _)| w == "Llama 3.1 405B pre-training"));
}

/// Racks and rows whose loss takes as much come in the floor's order, row by row and rack by
/// rack along it (their names would put row 108 before row 12): the SuperPOD grown to over a
/// hundred rows.
#[test]
fn places_whose_loss_takes_as_much_come_in_the_floors_order() {
    let mut value: serde_json::Value = serde_json::from_str(crate::examples::SUPERPOD_4SU).unwrap();
    value["cluster"]["nodes"] = serde_json::json!(4_000);
    value["workloads"] = serde_json::json!([]);
    value.as_object_mut().unwrap().remove("growth");
    let spec = DesignSpec::from_json(&value.to_string()).unwrap();
    let report = crate::evaluate(&spec).unwrap();
    let floor = crate::floor::plan(&spec, &report);
    assert!(floor.rows > 100, "{} rows", floor.rows);
    let (racks, rows) = rack_and_row_losses(&spec, &report, &floor);
    let at = |name: &str| floor.racks.iter().position(|r| r.name == name).unwrap();
    let row = |name: &str| -> usize { name.strip_prefix("row ").unwrap().parse().unwrap() };
    // Each pair of neighbours that take as much, checked to be in the floor's order.
    let ties_in_order = |losses: &[RackLoss], order: &dyn Fn(&str) -> usize| {
        let ties = losses
            .windows(2)
            .filter(|pair| affected(&pair[0]) == affected(&pair[1]));
        ties.inspect(|pair| {
            assert!(
                order(&pair[0].rack) < order(&pair[1].rack),
                "{} before {}",
                pair[0].rack,
                pair[1].rack
            )
        })
        .count()
    };
    let ties = ties_in_order(&racks, &at) + ties_in_order(&rows, &row);
    assert!(ties > 100, "{ties} ties");
}

/// The rack losses read each node's links to its leaves off the links and the floor's placement,
/// without laying out the cabling sheet: the same links, in the same racks, as the sheet's
/// node-leaf rows give, on every example with its switches spread and packed.
#[test]
fn the_links_rack_losses_read_are_the_cabling_sheets_node_leaf_rows() {
    for (name, text) in crate::examples::ALL {
        for racks in [SwitchRacks::Spread, SwitchRacks::Packed] {
            let mut spec = DesignSpec::from_json(text).unwrap();
            spec.floor.switch_racks = racks;
            let report = crate::evaluate(&spec).unwrap();
            let floor = crate::floor::plan(&spec, &report);
            let sheet = crate::floor::cabling(&spec, &report).unwrap();
            let from_sheet: Vec<(String, u32, String)> = sheet
                .iter()
                .filter(|c| c.tier == "node-leaf")
                .filter_map(|c| {
                    let node = node_number(&c.a_device)?;
                    Some((c.fabric.clone(), node, c.z_rack.clone()?))
                })
                .collect();
            let walked: Vec<(String, u32, String)> = node_leaf_links(&spec, &report)
                .into_iter()
                .map(|(fi, node, rack)| {
                    let fabric = report.fabrics[fi].name.clone();
                    (fabric, node, floor.racks[rack as usize].name.clone())
                })
                .collect();
            assert!(!walked.is_empty(), "{name}");
            assert_eq!(walked, from_sheet, "{name}, {racks:?}");
        }
    }
}
