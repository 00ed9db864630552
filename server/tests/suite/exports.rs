//! The spreadsheets of a saved revision over HTTP: the bill of materials adds up to the engine's
//! totals, and the cabling sheet of a DGX SuperPOD-like 4-SU design has one row per cable with
//! every port used at most once.

use crate::common::*;
use serde_json::Value;
use std::collections::HashSet;

fn superpod() -> Value {
    serde_json::from_str(engine::examples::SUPERPOD_4SU).unwrap()
}

async fn sheet(server: &TestServer, path: &str) -> Vec<csv::StringRecord> {
    let response = server.get(path).await;
    assert_eq!(response.status(), 200, "{path}");
    assert_eq!(
        response.headers()["content-type"],
        "text/csv; charset=utf-8"
    );
    let disposition = response.headers()["content-disposition"].to_str().unwrap();
    assert!(
        disposition.starts_with("attachment; filename=\""),
        "{disposition}"
    );
    let text = response.text().await.unwrap();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    reader.records().map(|r| r.unwrap()).collect()
}

async fn report(server: &TestServer, id: &str) -> Value {
    server
        .get(&format!("/api/designs/{id}/revisions/1/report"))
        .await
        .json()
        .await
        .unwrap()
}

/// The bill to order: the one the headline adds up, every cable and optic as placed on the
/// floor (the SuperPOD's DGX nodes take 508 twin-port transceivers), equal to the headline's
/// network cost and power.
#[tokio::test]
async fn the_bill_of_materials_sheet_is_the_bill_as_placed_and_adds_up_to_the_headline() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let design = server.create(&superpod()).await;
    let report = report(&server, &design.id).await;
    let rows = sheet(&server, &format!("/d/{}/r/1/bom.csv", design.id)).await;
    let lines: usize = report["fabrics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["bom"].as_array().unwrap().len())
        .sum();
    assert_eq!(rows.len(), lines, "one row per item per fabric");
    let total: f64 = rows.iter().map(|r| r[5].parse::<f64>().unwrap()).sum();
    let power: f64 = rows.iter().map(|r| r[7].parse::<f64>().unwrap()).sum();
    let engine_total = report["placed"]["cost_usd"].as_f64().unwrap();
    let engine_power = report["placed"]["power_w"].as_f64().unwrap();
    assert!(
        (total - engine_total).abs() < 1.0,
        "{total} against {engine_total}"
    );
    assert!(
        (power - engine_power).abs() < 1.0,
        "{power} W against {engine_power} W"
    );
    // Each row's total is its quantity times its unit price.
    for r in &rows {
        let (quantity, unit, line) = (
            r[3].parse::<f64>().unwrap(),
            r[4].parse::<f64>().unwrap(),
            r[5].parse::<f64>().unwrap(),
        );
        assert!((quantity * unit - line).abs() < 0.01, "{r:?}");
    }
    let switches = rows
        .iter()
        .find(|r| &r[0] == "compute" && r[1].starts_with("switch:"))
        .expect("the compute fabric's switches");
    assert_eq!(&switches[3], "48", "32 leaves and 16 spines");
    let node_end: u32 = rows
        .iter()
        .filter(|r| r[1].ends_with(":node2x"))
        .map(|r| r[3].parse::<u32>().unwrap())
        .sum();
    assert_eq!(node_end, 508, "four twin-port transceivers per DGX");
    server.stop().await;
}

#[tokio::test]
async fn the_cabling_sheet_of_a_four_su_superpod_has_one_row_per_cable_and_uses_each_port_once() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let design = server.create(&superpod()).await;
    let report = report(&server, &design.id).await;
    let rows = sheet(&server, &format!("/d/{}/r/1/cabling.csv", design.id)).await;
    let cables = cables_of(&report);
    assert_eq!(
        rows.len() as u64,
        cables,
        "one row per cable the engine counts"
    );
    // 1,020 node and 1,024 spine cables in the compute fabric [RA-11333-001].
    let compute = |tier: &str| {
        rows.iter()
            .filter(|r| &r[1] == "compute" && &r[2] == tier)
            .count()
    };
    assert_eq!((compute("node-leaf"), compute("leaf-spine")), (1020, 1024));
    let mut ports = HashSet::new();
    let mut labels = HashSet::new();
    for r in &rows {
        assert!(
            labels.insert(r[0].to_string()),
            "cable label {} given twice",
            &r[0]
        );
        for (device, port) in [(&r[5], &r[6]), (&r[9], &r[10])] {
            assert!(!device.is_empty() && !port.is_empty(), "{r:?}");
            assert!(
                ports.insert((device.to_string(), port.to_string())),
                "port {device} {port} used twice"
            );
        }
        assert!(
            !r[11].is_empty() && !r[12].is_empty(),
            "a cable type and reach: {r:?}"
        );
        assert!(
            r[7].starts_with('R') && (r[3].starts_with('R') || !r[5].starts_with("node-")),
            "nodes and switches stand in racks: {r:?}"
        );
        let (route, length): (f64, f64) = (r[13].parse().unwrap(), r[14].parse().unwrap());
        assert!(length >= route, "ordered no shorter than routed: {r:?}");
    }
    let first = &rows[0];
    assert_eq!(
        (&first[5], &first[6], &first[9], &first[10]),
        ("node-001", "compute-nic1", "compute-leaf-01", "p1")
    );
    // Grown 2 SU then 4, each cable carries the phase that first lays it: a node's cables its
    // node's phase, a compute leaf's uplinks to the spines bought for 4 SU that leaf's.
    for r in rows.iter().filter(|r| r[5].starts_with("node-")) {
        let node: u32 = r[5]["node-".len()..].parse().unwrap();
        let phase = if node <= 63 { "SU 1-2" } else { "SU 3-4" };
        assert_eq!(&r[15], phase, "{r:?}");
    }
    let uplinks = |phase: &str| {
        rows.iter()
            .filter(|r| &r[1] == "compute" && &r[2] == "leaf-spine" && &r[15] == phase)
            .count()
    };
    assert_eq!((uplinks("SU 1-2"), uplinks("SU 3-4")), (512, 512));
    server.stop().await;
}

#[tokio::test]
async fn sheets_of_an_unknown_design_or_revision_are_not_found() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let design = server.create(&superpod()).await;
    for path in [
        format!("/d/{}/r/2/bom.csv", design.id),
        format!("/d/{}/r/0/cabling.csv", design.id),
        "/d/aaaaaaaaaaaaaaaaaaaaaaaa/r/1/cabling.csv".to_string(),
        format!("/d/{}/r/x/bom.csv", design.id),
    ] {
        assert_eq!(server.get(&path).await.status(), 404, "{path}");
    }
    server.stop().await;
}

/// The move list of the SuperPOD grown 2 SU then 4 SU buying spines as needed: a row for each
/// cable the report's phase table counts, each re-terminated uplink naming the leaf port it
/// stays on and the spine it leaves and reaches, with racks and lengths; a phase label that a
/// spreadsheet would run as a formula is kept as text; a design built in one step has no list.
#[tokio::test]
async fn the_move_list_between_phases_has_a_row_per_cable_the_phase_table_counts() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let mut spec = superpod();
    spec["growth"]["policy"] = "as_needed".into();
    spec["growth"]["phases"][0]["label"] = "=HYPERLINK(\"http://x\")".into();
    let design = server.create(&spec).await;
    let checked = engine::DesignSpec::from_value(spec.clone()).unwrap();
    let plan = engine::evaluate(&checked)
        .unwrap()
        .over_its_life(&checked)
        .phases
        .unwrap();
    let step = &plan.phases[1];
    let counted = (step.added(), step.removed(), step.re_terminated());
    let rows = sheet(&server, &format!("/d/{}/r/1/moves.csv", design.id)).await;
    let done = |action: &str| rows.iter().filter(|r| &r[3] == action).count() as u64;
    assert!(step.re_terminated() > 0);
    assert_eq!((done("add"), done("remove"), done("re-terminate")), counted);
    assert!(rows
        .iter()
        .all(|r| r[0] == *"'=HYPERLINK(\"http://x\") → SU 3-4"));
    // The UFM server, beyond the nodes, takes a leaf port the nodes leave free: it moves too.
    for r in rows
        .iter()
        .filter(|r| &r[3] == "re-terminate" && &r[2] == "leaf-spine")
    {
        assert!(
            r[5].starts_with("compute-leaf-") && r[6].starts_with('p'),
            "{r:?}"
        );
        assert!(
            r[8].contains("-spine-") && r[11].contains("-spine-") && r[8] != r[11],
            "{r:?}"
        );
        assert!(
            r[4].starts_with('R') && r[7].starts_with('R') && r[10].starts_with('R'),
            "{r:?}"
        );
        let _: f64 = r[12].parse().unwrap();
    }
    let mut once = spec.clone();
    once.as_object_mut().unwrap().remove("growth");
    let single = server.create(&once).await;
    let response = server.get(&format!("/d/{}/r/1/moves.csv", single.id)).await;
    assert_eq!(response.status(), 422);
    assert!(response
        .text()
        .await
        .unwrap()
        .contains("lists no growth phases"));
    server.stop().await;
}

#[tokio::test]
async fn a_revision_is_evaluated_once_for_its_page_report_sheets_and_handoff_files() {
    use server::work::evaluations::EVALUATIONS_MADE;
    use std::sync::atomic::Ordering;
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let spec: serde_json::Value = serde_json::from_str(engine::examples::SUPERPOD_4SU).unwrap();
    let design = server.create(&spec).await;
    let before = EVALUATIONS_MADE.load(Ordering::SeqCst);
    let base = format!("/d/{}/r/1", design.id);
    for path in [
        format!("/d/{}", design.id),
        base.clone(),
        format!("{base}/report"),
        format!("{base}/bom.csv"),
        format!("{base}/cabling.csv"),
        format!("{base}/handoff.zip"),
        format!("{base}/cabling.csv"),
    ] {
        let status = server.get(&path).await.status().as_u16();
        assert_eq!(status, 200, "{path}");
    }
    assert_eq!(
        EVALUATIONS_MADE.load(Ordering::SeqCst) - before,
        1,
        "one evaluation on its floor, kept for every page and file of the revision"
    );
    server.stop().await;
}
