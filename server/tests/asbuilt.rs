//! The as-built check over HTTP: an ibnetdiscover dump of the built fabric, uploaded for a saved
//! revision, is matched with its cabling plan; a missing cable is named; output that is not
//! ibnetdiscover is refused with the line at fault. Nothing is stored.

mod common;

use common::*;
use engine::handoff::{ibnet, planned};
use reqwest::multipart::{Form, Part};

/// The 70B example's compute fabric as ibnetdiscover prints it, without its first `drop` links.
fn dump(drop: usize) -> String {
    let spec = engine::DesignSpec::from_json(engine::examples::SEVENTY_B_TRAINING).unwrap();
    let report = engine::evaluate(&spec).unwrap();
    let (fabrics, _) = planned(&report);
    let compute = fabrics.iter().find(|f| f.fabric.name == "compute").unwrap();
    let mut links = ibnet::planned_links(compute);
    links.drain(..drop);
    ibnet::ibnetdiscover(compute, &links)
}

async fn check(server: &TestServer, id: &str, output: &str) -> (u16, String) {
    let form = Form::new()
        .text("fabric", "compute")
        .text("tool", "ibnetdiscover")
        .part(
            "file",
            Part::bytes(output.as_bytes().to_vec()).file_name("ibnet.txt"),
        );
    let response = server
        .client
        .post(format!("{}/d/{id}/r/1/asbuilt", server.base))
        .header("origin", server.base.clone())
        .multipart(form)
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.text().await.unwrap())
}

#[tokio::test]
async fn a_dump_of_the_built_fabric_is_checked_against_the_plan_cable_by_cable() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let spec: serde_json::Value =
        serde_json::from_str(engine::examples::SEVENTY_B_TRAINING).unwrap();
    let design = server.create(&spec).await;
    let (status, page) = server.page(&format!("/d/{}/r/1/asbuilt", design.id)).await;
    assert_eq!(status, 200);
    assert!(page.contains(r#"id="asbuilt-form""#));

    let (status, page) = check(&server, &design.id, &dump(0)).await;
    assert_eq!(status, 200);
    assert!(
        page.contains("cables are as planned."),
        "every cable as planned"
    );
    assert!(!page.contains(r#"id="asbuilt-findings""#));

    let (status, page) = check(&server, &design.id, &dump(1)).await;
    assert_eq!(status, 200);
    assert!(
        page.contains(r#"id="asbuilt-findings""#),
        "the missing cable is listed"
    );
    assert!(page.contains("missing: no link on either end"));

    let (status, page) = check(&server, &design.id, "#  Rank  0 Group  0 Pid 1 on node00\n").await;
    assert_eq!(status, 422);
    assert!(page.contains("The output was not checked"), "refused");
    assert!(
        page.contains("<li>the output, "),
        "with the parser's reason: {page}"
    );

    let (status, _) = server.page(&format!("/d/{}", design.id)).await;
    assert_eq!(status, 200);
    server.stop().await;
}
