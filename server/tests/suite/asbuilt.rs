//! The as-built check over HTTP: an ibnetdiscover dump of the built fabric, uploaded for a saved
//! revision, is matched with its cabling plan; a missing cable is named; output that is not
//! ibnetdiscover is refused with the line at fault. The key holder keeps checks with the
//! revision, which its page charts and its report lists; nobody else stores anything.

use crate::common::*;
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
    ibnet::ibnetdiscover(compute, &links, &[])
}

fn form(output: &str) -> Form {
    Form::new()
        .text("fabric", "compute")
        .text("tool", "ibnetdiscover")
        .part(
            "file",
            Part::bytes(output.as_bytes().to_vec()).file_name("ibnet.txt"),
        )
}

/// Posts the as-built form, with the browser's cookie if given; redirects are not followed.
async fn post(
    server: &TestServer,
    id: &str,
    cookie: Option<&str>,
    form: Form,
) -> reqwest::Response {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let mut request = client
        .post(format!("{}/d/{id}/r/1/asbuilt", server.base))
        .header("origin", server.base.clone())
        .multipart(form);
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    request.send().await.unwrap()
}

async fn check(server: &TestServer, id: &str, output: &str) -> (u16, String) {
    let response = post(server, id, None, form(output)).await;
    (response.status().as_u16(), response.text().await.unwrap())
}

/// A check to keep: `output`, labelled, taken on `date`.
fn kept(output: &str, label: &str, date: &str) -> Form {
    form(output)
        .text("keep", "on")
        .text("label", label.to_string())
        .text("checked_on", date.to_string())
}

async fn kept_count(database: &std::path::Path, id: &str) -> usize {
    let store = app::store::Store::open(database).await.unwrap();
    let id = app::store::DesignId::parse(id).unwrap();
    let count = store.check_count(&id, 1).await.unwrap();
    store.close().await;
    count
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

#[tokio::test]
async fn the_key_holder_keeps_checks_which_the_page_charts_and_the_report_lists() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let spec: serde_json::Value =
        serde_json::from_str(engine::examples::SEVENTY_B_TRAINING).unwrap();
    let design = server.create(&spec).await;
    let cookie = Some(design.cookie.as_str());
    let (_, report) = server.page(&format!("/d/{}/r/1/report", design.id)).await;
    assert!(report.contains("No as-built check is kept with this revision yet"));

    // The first check finds a cable missing and is kept; the page it leads to runs it again.
    let response = post(
        &server,
        &design.id,
        cookie,
        kept(&dump(1), "after cabling", "2026-11-30"),
    )
    .await;
    assert_eq!(response.status(), 303);
    let location = response.headers()["location"].to_str().unwrap().to_string();
    assert_eq!(location, format!("/d/{}/r/1/asbuilt/1", design.id));
    let (status, page) = server.page(&location).await;
    assert_eq!(status, 200);
    assert!(page.contains(r#"id="asbuilt-showing""#), "{page}");
    assert!(
        page.contains("missing: no link on either end"),
        "run again from its output"
    );
    assert!(page.contains(r#"id="check-1""#));

    // The cable is plugged in; the second check is clean, and both are charted and listed.
    let response = post(
        &server,
        &design.id,
        cookie,
        kept(&dump(0), "after the fix", "2026-12-02"),
    )
    .await;
    assert_eq!(response.status(), 303);
    assert_eq!(kept_count(&database, &design.id).await, 2);
    let page = server
        .client
        .get(format!("{}/d/{}/r/1/asbuilt", server.base, design.id))
        .header("cookie", &design.cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains(r#"id="asbuilt-kept""#) && page.contains(r#"id="check-2""#));
    assert!(
        page.contains("Cables not as planned, check by check"),
        "the history chart"
    );
    assert!(
        page.contains("found all"),
        "the last check's verdict: {page}"
    );
    assert!(
        page.contains(r#"id="asbuilt-keep""#),
        "the key holder may keep more"
    );

    // The report, already made before any check, is made again with both.
    let (_, report) = server.page(&format!("/d/{}/r/1/report", design.id)).await;
    assert!(!report.contains("No as-built check is kept"));
    assert!(report.contains("after cabling") && report.contains("after the fix"));
    assert!(report.contains("The last check, “after the fix” on 2026-12-02"));

    // Without the key nobody keeps a check, and the form does not offer it.
    let (_, page) = server.page(&format!("/d/{}/r/1/asbuilt", design.id)).await;
    assert!(!page.contains(r#"id="asbuilt-keep""#));
    let response = post(
        &server,
        &design.id,
        None,
        kept(&dump(0), "stranger", "2026-12-03"),
    )
    .await;
    assert_eq!(response.status(), 403);
    let other = server.create(&spec).await;
    let response = post(
        &server,
        &design.id,
        Some(&other.cookie),
        kept(&dump(0), "other", "2026-12-03"),
    )
    .await;
    assert_eq!(response.status(), 403);

    // A refused output, a bad date or no label keeps nothing, and each reason names its field.
    let refused = [
        (
            kept("#  Rank  0 Group  0 Pid 1 on node00\n", "x", "2026-12-03"),
            "<li>the output, ",
        ),
        (kept(&dump(0), "x", "3 December"), "<li>output taken on: "),
        (kept(&dump(0), "", "2026-12-03"), "<li>label: "),
    ];
    for (form, reason) in refused {
        let response = post(&server, &design.id, cookie, form).await;
        assert_eq!(response.status(), 422);
        let page = response.text().await.unwrap();
        assert!(page.contains(reason), "{reason}: {page}");
    }
    assert_eq!(kept_count(&database, &design.id).await, 2);

    // A check that is not kept, or not of this revision, is not found.
    let (status, _) = server
        .page(&format!("/d/{}/r/1/asbuilt/3", design.id))
        .await;
    assert_eq!(status, 404);
    let (status, _) = server
        .page(&format!("/d/{}/r/1/asbuilt/x", design.id))
        .await;
    assert_eq!(status, 404);
    server.stop().await;
}

/// `text` gzip-compressed, as `gzip` writes it.
fn gzipped(text: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(text).unwrap();
    gz.finish().unwrap()
}

fn upload(bytes: Vec<u8>, file_name: &str) -> Form {
    Form::new()
        .text("fabric", "compute")
        .text("tool", "ibnetdiscover")
        .part("file", Part::bytes(bytes).file_name(file_name.to_string()))
}

/// A dump too large for the form (that of a 100,000-GPU fabric is 63 MB) is uploaded gzipped and
/// checked as the dump itself would be; a file that would decompress past what any checked
/// fabric's dump takes is refused, naming the file, and nothing is kept.
#[tokio::test]
async fn a_gzipped_dump_is_checked_as_the_dump_and_a_bomb_is_refused() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let spec: serde_json::Value =
        serde_json::from_str(engine::examples::SEVENTY_B_TRAINING).unwrap();
    let design = server.create(&spec).await;
    let dump = dump(1);
    let compressed = gzipped(dump.as_bytes());
    assert!(compressed.len() * 5 < dump.len(), "{} bytes", compressed.len());
    let response = post(
        &server,
        &design.id,
        None,
        upload(compressed, "ibnetdiscover.txt.gz"),
    )
    .await;
    assert_eq!(response.status(), 200);
    let page = response.text().await.unwrap();
    assert!(
        page.contains("missing: no link on either end"),
        "the dropped cable is found: {page}"
    );

    // 1 MiB of zeros compressed to a few kilobytes, as 129 gzip members one after another: a
    // file well within the form that decompresses to 129 MiB.
    let member = gzipped(&vec![0u8; 1 << 20]);
    let bomb: Vec<u8> = member.iter().copied().cycle().take(member.len() * 129).collect();
    assert!(bomb.len() < 2 << 20, "{} bytes", bomb.len());
    let response = post(
        &server,
        &design.id,
        Some(&design.cookie),
        upload(bomb, "dump.gz")
            .text("keep", "on")
            .text("label", "bomb")
            .text("checked_on", "2026-12-07"),
    )
    .await;
    assert_eq!(response.status(), 422);
    let page = response.text().await.unwrap();
    assert!(
        page.contains("uploaded file: decompresses to more than 128 MiB"),
        "{page}"
    );
    assert_eq!(kept_count(&database, &design.id).await, 0);
    server.stop().await;
}
