//! Attacks on a shared deployment, each against the real server over HTTP: cross-site writes,
//! claiming an edit link by GET, forged client addresses, slow and excess requests, and what
//! may be cached.

use crate::common::*;
use serde_json::json;
use server::command::cli::ServeConfig;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const EVIL: &str = "https://evil.example";

fn config(database: &std::path::Path) -> ServeConfig {
    let mut config = ServeConfig::new(
        "127.0.0.1:0".parse().unwrap(),
        app::store::Database::SqliteFile(database.to_path_buf()),
    );
    config.writes_per_minute = 0;
    config.reads_per_minute = 0;
    config
}

/// A baseline form; refused before its log is read, so any text does.
fn baseline_form() -> reqwest::multipart::Form {
    reqwest::multipart::Form::new()
        .text("label", "cross-site")
        .text("measured_on", "2026-12-01")
        .text("revision", "1")
        .text("fabric", "compute")
        .text(
            "output",
            "#  Rank  0 Group  0 Pid 1 on host device  0 [0x00] NVIDIA H100",
        )
}

#[tokio::test]
async fn cross_site_posts_to_every_write_endpoint_are_refused_and_store_nothing() {
    let (_dir, database) = temp_database();
    let server = TestServer::start_with(config(&database)).await;
    let spec = seventy_b_on_256_gpus();
    let design = server.create(&spec).await;
    let id = &design.id;
    let (designs, revisions) = (
        stored_designs(&database).await,
        stored_revisions(&database).await,
    );
    let url = |path: &str| format!("{}{path}", server.base);
    let c = &server.client;
    let with_cookie = |r: reqwest::RequestBuilder| r.header("cookie", &design.cookie);
    type Attempt<'a> = Box<dyn Fn() -> reqwest::RequestBuilder + 'a>;
    let attempts: Vec<(&str, Attempt)> = vec![
        (
            "save a design",
            Box::new(|| {
                c.post(url("/fn/save_design"))
                    .json(&json!({ "spec": spec }))
            }),
        ),
        (
            "save a revision",
            Box::new(|| {
                with_cookie(c.post(url("/fn/save_revision")))
                    .json(&json!({ "id": id, "spec": spec }))
            }),
        ),
        (
            "import",
            Box::new(|| {
                c.post(url("/import"))
                    .form(&[("spec", spec.to_string()), ("note", String::new())])
            }),
        ),
        (
            "add a baseline",
            Box::new(|| {
                with_cookie(c.post(url(&format!("/d/{id}/baselines")))).multipart(baseline_form())
            }),
        ),
        (
            "claim an edit link",
            Box::new(|| {
                c.post(url(&format!("/d/{id}/claim")))
                    .form(&[("key", design.key.as_str())])
            }),
        ),
        (
            "create through the API",
            Box::new(|| c.post(url("/api/designs")).json(&json!({ "spec": spec }))),
        ),
        (
            "save a revision through the API",
            Box::new(|| {
                c.post(url(&format!("/api/designs/{id}/revisions")))
                    .bearer_auth(&design.key)
                    .json(&json!({ "spec": spec }))
            }),
        ),
    ];
    for (what, request) in &attempts {
        let response = request().header("origin", EVIL).send().await.unwrap();
        assert_eq!(response.status(), 403, "{what} from another origin");
        assert!(
            response.headers().get("set-cookie").is_none(),
            "{what}: no key given"
        );
        let by_fetch = request().header("sec-fetch-site", "cross-site");
        assert_eq!(
            by_fetch.send().await.unwrap().status(),
            403,
            "{what} from another site"
        );
    }
    // JSON sent as text/plain, as a cross-site form can, is refused even without an Origin.
    for path in ["/fn/save_design", "/api/designs", "/api/evaluate"] {
        let response = c
            .post(url(path))
            .header("content-type", "text/plain")
            .body(json!({ "spec": spec }).to_string())
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 415, "{path}");
    }
    assert_eq!(stored_designs(&database).await, designs);
    assert_eq!(stored_revisions(&database).await, revisions);
    // The planner's own pages still save.
    let ours = c
        .post(url("/fn/save_design"))
        .header("origin", &server.base)
        .header("sec-fetch-site", "same-origin")
        .json(&json!({ "spec": spec }))
        .send()
        .await
        .unwrap();
    assert_eq!(ours.status(), 200);
    drop(attempts);
    server.stop().await;
}

#[tokio::test]
async fn opening_an_edit_link_asks_first_and_only_the_confirmation_gives_the_key() {
    let (_dir, database) = temp_database();
    let server = TestServer::start_with(config(&database)).await;
    let design = server.create(&seventy_b_on_256_gpus()).await;
    let link = format!("/d/{}/claim?key={}", design.id, design.key);
    let response = server.get(&link).await;
    assert_eq!(response.status(), 200);
    assert!(
        response.headers().get("set-cookie").is_none(),
        "a GET changes nothing"
    );
    assert_eq!(response.headers()["cache-control"], "no-store");
    let page = response.text().await.unwrap();
    assert!(page.contains(r#"id="claim-confirm""#), "{page}");
    let no_redirect = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let confirmed = no_redirect
        .post(format!("{}/d/{}/claim", server.base, design.id))
        .header("origin", &server.base)
        .form(&[("key", design.key.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(confirmed.status(), 303);
    assert_eq!(
        confirmed.headers()["location"],
        format!("/d/{}/edit", design.id).as_str()
    );
    assert!(confirmed.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .starts_with(&format!("fpk_{}=", design.id)));
    assert_eq!(confirmed.headers()["cache-control"], "no-store");
    let wrong = server
        .get(&format!("/d/{}/claim?key={}", design.id, "0".repeat(40)))
        .await;
    assert_eq!(wrong.status(), 403);
    server.stop().await;
}

#[tokio::test]
async fn responses_with_a_key_are_never_stored_per_browser_pages_are_private_and_the_bundle_is_revalidated(
) {
    let (dir, database) = temp_database();
    std::fs::create_dir_all(dir.path().join("pkg")).unwrap();
    std::fs::write(dir.path().join("pkg/fabric-planner.wasm"), b"\0asm").unwrap();
    let mut config = config(&database);
    config.site_root = dir.path().to_path_buf();
    let server = TestServer::start_with(config).await;
    let saved = server.save(&seventy_b_on_256_gpus()).await;
    assert_eq!(saved.headers()["cache-control"], "no-store");
    let created = server.create_by_api(&seventy_b_on_256_gpus()).await;
    assert_eq!(created.status(), 201);
    assert_eq!(created.headers()["cache-control"], "no-store");
    let mine = server.get("/designs").await;
    assert_eq!(mine.headers()["cache-control"], "private, no-cache");
    // A search's candidate opens as a revision of the design only for the browser holding its
    // key: that page is this browser's too.
    let id = saved.json::<serde_json::Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let candidate = server
        .get(&format!("/d/{id}/r/1/search/open?run=1&candidate=0"))
        .await;
    assert_eq!(candidate.headers()["cache-control"], "private, no-cache");
    // The bundle's files keep their names from one build to the next: browsers ask each time.
    let bundle = server.get("/pkg/fabric-planner.wasm").await;
    assert_eq!(bundle.status(), 200);
    assert_eq!(bundle.headers()["cache-control"], "no-cache");
    server.stop().await;
}

async fn save_from(server: &TestServer, forwarded_for: &str) -> u16 {
    server
        .client
        .post(format!("{}/fn/save_design", server.base))
        .header("x-forwarded-for", forwarded_for)
        .json(&json!({ "spec": seventy_b_on_256_gpus() }))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_bucket() {
    let (_dir, database) = temp_database();
    let mut behind_proxy = config(&database);
    behind_proxy.writes_per_minute = 1;
    behind_proxy.write_burst = 1;
    behind_proxy.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
    let server = TestServer::start_with(behind_proxy).await;
    assert_eq!(save_from(&server, "203.0.113.1").await, 200);
    assert_eq!(
        save_from(&server, "203.0.113.2").await,
        200,
        "another client"
    );
    assert_eq!(
        save_from(&server, "203.0.113.1").await,
        429,
        "the first again"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_forwarded_header_from_an_untrusted_peer_is_ignored() {
    let (_dir, database) = temp_database();
    let mut direct = config(&database);
    direct.writes_per_minute = 1;
    direct.write_burst = 1;
    let server = TestServer::start_with(direct).await;
    assert_eq!(save_from(&server, "203.0.113.1").await, 200);
    assert_eq!(
        save_from(&server, "203.0.113.2").await,
        429,
        "a client cannot pick its own bucket"
    );
    server.stop().await;
}

#[tokio::test]
async fn costly_reads_have_their_own_limit_per_client() {
    let (_dir, database) = temp_database();
    let mut limited = config(&database);
    limited.reads_per_minute = 1;
    limited.read_burst = 2;
    let server = TestServer::start_with(limited).await;
    let evaluate = || async {
        server
            .client
            .post(format!("{}/api/evaluate", server.base))
            .json(&seventy_b_on_256_gpus())
            .send()
            .await
            .unwrap()
    };
    assert_eq!(evaluate().await.status(), 200);
    assert_eq!(evaluate().await.status(), 200);
    let refused = evaluate().await;
    assert_eq!(refused.status(), 429);
    assert!(refused.headers().contains_key("retry-after"));
    assert_eq!(
        server.get("/designs").await.status(),
        200,
        "cheap pages are not limited"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_client_that_sends_half_its_headers_is_cut_off_and_others_are_served() {
    let (_dir, database) = temp_database();
    let mut quick = config(&database);
    quick.header_timeout_secs = 1;
    let server = TestServer::start_with(quick).await;
    let addr = server.base.trim_start_matches("http://").to_string();
    let mut slow = tokio::net::TcpStream::connect(&addr).await.unwrap();
    slow.write_all(b"GET /designs HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .await
        .unwrap();
    assert_eq!(
        server.get("/designs").await.status(),
        200,
        "others are served"
    );
    let mut rest = Vec::new();
    let closed = tokio::time::timeout(Duration::from_secs(5), slow.read_to_end(&mut rest)).await;
    assert!(
        closed.is_ok(),
        "the connection is closed within the header timeout"
    );
    server.stop().await;
}

#[tokio::test]
async fn over_the_concurrency_limit_a_request_is_shed_with_503_and_retry_after() {
    let (_dir, database) = temp_database();
    let mut one_at_a_time = config(&database);
    one_at_a_time.max_concurrent_requests = 1;
    let server = TestServer::start_with(one_at_a_time).await;
    let addr = server.base.trim_start_matches("http://").to_string();
    // A request whose body never finishes holds the one slot.
    let mut holder = tokio::net::TcpStream::connect(&addr).await.unwrap();
    holder
        .write_all(
            b"POST /api/evaluate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{",
        )
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let shed = server.get("/designs").await;
    assert_eq!(shed.status(), 503);
    assert_eq!(shed.headers()["retry-after"], "2");
    drop(holder);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(server.get("/designs").await.status(), 200, "served again");
    server.stop().await;
}

/// The resident memory of this process (the server runs in it), in bytes.
fn resident_bytes() -> u64 {
    memory_bytes("VmRSS:")
}

/// The peak resident memory of this process (the server and the test's client), bytes.
fn peak_resident_bytes() -> u64 {
    memory_bytes("VmHWM:")
}

/// One memory figure of this process from `/proc/self/status`, bytes.
fn memory_bytes(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    kb * 1024
}

/// The largest design validation accepts: a million ports in one fabric (125,000 nodes of
/// eight NICs on 400GbE RoCE), and its storage fabric beside it.
fn largest_design() -> serde_json::Value {
    let mut spec: serde_json::Value =
        serde_json::from_str(engine::examples::SEVENTY_B_TRAINING).unwrap();
    let nodes = engine::MAX_FABRIC_ENDPOINTS / 8;
    spec["title"] = json!("A million ports");
    spec["cluster"]["nodes"] = json!(nodes);
    spec["workloads"][0]["parallelism"]["dp"] = json!(nodes);
    spec["workloads"][0]["global_batch"] = json!(nodes);
    spec["workloads"][1]["samples_per_step"] = json!(nodes);
    for fabric in spec["fabrics"].as_array_mut().unwrap() {
        fabric["technology"] = json!("roce400");
        fabric["switch"] = json!("tomahawk6");
        fabric["extra_endpoints"] = json!(0);
    }
    spec
}

/// A cabling sheet of a quarter of a million rows (8,000 DGX nodes: 234,860 cables, 49 MB) is
/// written as it is sent: the server never holds it whole, so its memory grows by a few
/// megabytes, not by the sheet (some 300 MB when it was built before it was sent), and a sheet
/// may hold four times as many.
#[tokio::test]
async fn a_cabling_sheet_of_a_quarter_million_rows_streams_in_bounded_memory() {
    let (_dir, database) = temp_database();
    let server = TestServer::start_with(config(&database)).await;
    let mut spec: serde_json::Value = serde_json::from_str(engine::examples::SUPERPOD_4SU).unwrap();
    spec["cluster"]["nodes"] = json!(8000);
    spec["workloads"] = json!([]);
    spec.as_object_mut().unwrap().remove("growth");
    let id = server.created_id(&spec).await;
    let report: serde_json::Value = server
        .get(&format!("/d/{id}/r/1/report.json"))
        .await
        .json()
        .await
        .unwrap();
    let cables = cables_of(&report);
    assert_eq!(cables, 234_860);
    let before = peak_resident_bytes();
    let mut response = server.get(&format!("/d/{id}/r/1/cabling.csv")).await;
    assert_eq!(response.status(), 200);
    // Counted as it arrives, so that the client holds no more of it than the server does.
    let (mut lines, mut bytes, mut last) = (0u64, 0u64, 0u8);
    while let Some(chunk) = response.chunk().await.unwrap() {
        lines += chunk.iter().filter(|b| **b == b'\n').count() as u64;
        bytes += chunk.len() as u64;
        last = *chunk.last().unwrap_or(&last);
    }
    assert_eq!(
        (lines, last),
        (cables + 1, b'\n'),
        "a header and one whole row per cable"
    );
    assert!(bytes > 40 << 20, "{bytes} bytes");
    let grown = peak_resident_bytes().saturating_sub(before);
    assert!(grown < 64 << 20, "the peak grew by {} MiB", grown >> 20);
    server.stop().await;
}

#[tokio::test]
async fn the_largest_design_exports_or_is_refused_clearly_within_a_gibibyte() {
    let (_dir, database) = temp_database();
    let server = TestServer::start_with(config(&database)).await;
    let id = server.created_id(&largest_design()).await;
    let (status, sheet) = server.page(&format!("/d/{id}/r/1/cabling.csv")).await;
    assert_eq!(status, 422);
    assert!(sheet.contains("at most 1,000,000 rows"), "{sheet}");
    let (status, files) = server.page(&format!("/d/{id}/r/1/handoff")).await;
    assert_eq!(status, 422);
    assert!(files.contains("at most 1,000,000"), "{files}");
    let pdf = server.get(&format!("/d/{id}/r/1/report.pdf")).await;
    assert_eq!(pdf.status(), 200);
    assert!(pdf.bytes().await.unwrap().starts_with(b"%PDF"));
    for path in [
        format!("/d/{id}"),
        format!("/d/{id}/r/1/report"),
        format!("/d/{id}/r/1/bom.csv"),
        format!("/d/{id}/r/1/report.json"),
    ] {
        assert_eq!(server.get(&path).await.status(), 200, "{path}");
    }
    assert_eq!(server.get("/designs").await.status(), 200);
    let resident = resident_bytes();
    assert!(resident < 1 << 30, "{} MiB resident", resident >> 20);
    server.stop().await;
}

#[tokio::test]
async fn every_costly_route_is_charged_to_the_client() {
    let (_dir, database) = temp_database();
    let mut one_each = config(&database);
    one_each.writes_per_minute = 1;
    one_each.write_burst = 1;
    one_each.reads_per_minute = 1;
    one_each.read_burst = 1;
    let server = TestServer::start_with(one_each).await;
    let design = server.create(&seventy_b_on_256_gpus()).await;
    let r1 = format!("/d/{}/r/1", design.id);
    let post = |path: String| {
        let request = server
            .client
            .post(format!("{}{path}", server.base))
            .header("cookie", &design.cookie)
            .header("content-type", "application/json")
            .body("{}");
        async move { (path, request.send().await.unwrap().status().as_u16()) }
    };
    let get = |path: String| {
        let request = server.client.get(format!("{}{path}", server.base));
        async move { (path, request.send().await.unwrap().status().as_u16()) }
    };
    // The save above spent the only write; every route that writes is now refused.
    for (path, status) in [
        post("/fn/save_design".into()).await,
        post("/fn/save_revision".into()).await,
        post("/import".into()).await,
        post("/api/designs".into()).await,
        post(format!("/api/designs/{}/revisions", design.id)).await,
        post(format!("/d/{}/baselines", design.id)).await,
        post(format!("/d/{}/claim", design.id)).await,
        post(format!("{r1}/asbuilt")).await,
    ] {
        assert_eq!(status, 429, "POST {path} writes");
    }
    // One evaluation spends the only computation; every route that computes is now refused.
    assert_eq!(post("/api/evaluate".into()).await.1, 422);
    for (path, status) in [
        post("/api/evaluate".into()).await,
        post("/api/search".into()).await,
        post("/fn/dashboard".into()).await,
        get(format!("{r1}/search/open?run=1&candidate=0")).await,
        get(format!("/d/{}/duplicate", design.id)).await,
        get(format!("/d/{}/edit", design.id)).await,
        get(format!("{r1}/report")).await,
        get(format!("{r1}/report.pdf")).await,
        get(format!("{r1}/report.json")).await,
        get(format!("{r1}/bom.csv")).await,
        get(format!("{r1}/cabling.csv")).await,
        get(format!("{r1}/handoff")).await,
        get(format!("{r1}/handoff.zip")).await,
        get(format!("{r1}/handoff/cabling/plan.csv")).await,
        get(format!("{r1}/asbuilt/1")).await,
        get(format!("{r1}/search")).await,
        get(format!("/api/designs/{}/revisions/1/report", design.id)).await,
    ] {
        assert_eq!(status, 429, "GET or POST {path} computes");
    }
    // What costs nothing is still served.
    for path in [
        format!("/d/{}", design.id),
        r1.clone(),
        format!("{r1}/spec.json"),
        format!("{r1}/asbuilt"),
        "/designs".to_string(),
    ] {
        assert_eq!(get(path.clone()).await.1, 200, "GET {path} is cheap");
    }
    server.stop().await;
}
