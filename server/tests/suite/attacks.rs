//! The attack run's cases, each against the real server over HTTP: text that would inject into
//! the hand-off files, downloads named by a design, requests that would run on after their
//! client left, connections that send nothing, another host's name, two origins, tossed
//! cookies, and a kept as-built check's size. Nothing saved is lost or changed by any of them,
//! and every refusal names its reason.

use crate::common::*;
use serde_json::{json, Value};
use server::command::cli::ServeConfig;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn config(database: &std::path::Path) -> ServeConfig {
    let mut config = ServeConfig::new(
        "127.0.0.1:0".parse().unwrap(),
        app::store::Database::SqliteFile(database.to_path_buf()),
    );
    config.writes_per_minute = 0;
    config.reads_per_minute = 0;
    config
}

fn training() -> Value {
    serde_json::from_str(engine::examples::SEVENTY_B_TRAINING).unwrap()
}

/// The field paths of a 422 answer.
async fn refused_paths(response: reqwest::Response) -> Vec<(String, String)> {
    assert_eq!(response.status(), 422);
    let body: Value = response.json().await.unwrap();
    body["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["path"].as_str().unwrap().to_string(),
                e["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn names_and_titles_that_would_inject_are_refused_with_the_field_named_and_nothing_is_stored()
{
    let (_dir, database) = temp_database();
    let server = TestServer::start_with(config(&database)).await;
    let cases: [(&str, &str, Value); 6] = [
        (
            "title",
            "one line",
            json!("lab\r\nusername evil privilege 15 role network-admin nopassword"),
        ),
        ("title", "one line", json!("lab\u{2028}evil: 1")),
        ("title", "NUL", json!("lab\u{0}")),
        ("title", "must not be empty", json!("\u{200B}\u{202E}")),
        (
            "fabrics[0].name",
            "hand-off files",
            json!("compute\nSwitchName=evil"),
        ),
        (
            "fabrics[0].name",
            "hand-off files",
            json!("x\"; filename=\"invoice.exe"),
        ),
    ];
    for (path, says, value) in cases {
        let mut spec = training();
        if path == "title" {
            spec["title"] = value.clone();
        } else {
            spec["fabrics"][0]["name"] = value.clone();
            spec["workloads"][0]["fabric"] = value.clone();
        }
        let errors = refused_paths(server.create_by_api(&spec).await).await;
        assert!(
            errors.iter().any(|(p, r)| p == path && r.contains(says)),
            "{value}: {errors:?}"
        );
        // The planner's own save says the same.
        assert_eq!(server.save(&spec).await.status(), 422, "{value}");
    }
    assert_eq!(stored_designs(&database).await, 0);
    server.stop().await;
}

/// A revision stored before the name rules, as the store holds it (written by hand here).
async fn store_under_earlier_rules(database: &std::path::Path, id: &str, spec: &Value) {
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", database.display()))
        .await
        .unwrap();
    sqlx::query("UPDATE revisions SET spec_json = ?1 WHERE design_id = ?2")
        .bind(spec.to_string())
        .bind(id)
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
}

#[tokio::test]
async fn a_revision_saved_under_earlier_rules_opens_and_its_files_carry_no_injected_line() {
    let (_dir, database) = temp_database();
    let server = TestServer::start_with(config(&database)).await;
    let design = server.create(&training()).await;
    let mut old = training();
    old["title"] = json!("lab\r\nusername evil privilege 15 nopassword\u{2028}x: 1");
    let hostile = "compute\nSwitchName=evil Switches=x";
    old["fabrics"][0]["name"] = json!(hostile);
    old["workloads"][0]["fabric"] = json!(hostile);
    store_under_earlier_rules(&database, &design.id, &old).await;

    let (status, page) = server.page(&format!("/d/{}", design.id)).await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("compute-switchname-evil-switches"));
    let base = format!("/d/{}/r/1/handoff", design.id);
    let (status, list) = server.page(&base).await;
    assert_eq!(status, 200, "{list}");
    let (status, slurm) = server.page(&format!("{base}/slurm/topology.conf")).await;
    assert_eq!(status, 200);
    assert!(
        slurm
            .lines()
            .filter(|l| l.starts_with("SwitchName="))
            .all(|l| l.starts_with("SwitchName=compute-switchname-evil-switches-")),
        "{slurm}"
    );
    let (_, readme) = server.page(&format!("{base}/README.txt")).await;
    assert!(
        !readme.lines().any(|l| l.starts_with("username")),
        "{readme}"
    );
    let zip = server.get(&format!("{base}.zip")).await;
    assert_eq!(zip.status(), 200);
    let bytes = zip.bytes().await.unwrap();
    let archive = zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).unwrap();
    for name in archive.file_names() {
        assert!(
            !name.contains("..") && !name.starts_with('/') && !name.contains('\n'),
            "{name:?}"
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn every_download_is_named_from_a_safe_alphabet_and_csv_cells_stay_text() {
    let (_dir, database) = temp_database();
    let server = TestServer::start_with(config(&database)).await;
    let mut spec = training();
    spec["title"] = json!("=HYPERLINK(\"http://evil\") x\"; filename=\"invoice.exe");
    let design = server.create(&spec).await;
    let base = format!("/d/{}/r/1", design.id);
    for path in [
        "/bom.csv",
        "/cabling.csv",
        "/spec.json",
        "/report.json",
        "/report.pdf",
        "/handoff.zip",
        "/handoff/netbox/racks.csv",
    ] {
        let response = server.get(&format!("{base}{path}")).await;
        assert_eq!(response.status(), 200, "{path}");
        let disposition = response.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .to_string();
        let name = disposition
            .split("filename=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap();
        assert!(
            name.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b)),
            "{path}: {disposition}"
        );
        assert!(!name.ends_with(".exe"), "{path}: {disposition}");
        assert_eq!(disposition.matches("filename=").count(), 1, "{disposition}");
    }
    let (_, racks) = server
        .page(&format!("{base}/handoff/netbox/racks.csv"))
        .await;
    let site = racks.lines().nth(1).unwrap_or_default();
    assert!(site.contains("'=HYPERLINK"), "{racks}");
    server.stop().await;
}

#[tokio::test]
async fn a_host_the_server_does_not_answer_to_is_refused_with_421() {
    let (_dir, database) = temp_database();
    let server = TestServer::start_with(config(&database)).await;
    let rebound = server
        .client
        .get(format!("{}/designs", server.base))
        .header("host", "attacker.example:3000")
        .send()
        .await
        .unwrap();
    assert_eq!(rebound.status(), 421);
    let body: Value = rebound.json().await.unwrap();
    assert!(
        body["details"].as_str().unwrap().contains("--allowed-host"),
        "{body}"
    );
    let page = server
        .client
        .get(format!("{}/designs", server.base))
        .header("host", "attacker.example:3000")
        .header("accept", "text/html")
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 421);
    assert!(page.text().await.unwrap().contains("Not this address"));
    let port = server.base.rsplit(':').next().unwrap().to_string();
    for host in [format!("localhost:{port}"), format!("127.0.0.1:{port}")] {
        let ours = server
            .client
            .get(format!("{}/designs", server.base))
            .header("host", host.as_str())
            .send()
            .await
            .unwrap();
        assert_eq!(ours.status(), 200, "{host}");
    }
    server.stop().await;
}

#[tokio::test]
async fn two_origins_an_https_origin_on_http_and_a_form_labelled_json_are_refused() {
    let (_dir, database) = temp_database();
    let server = TestServer::start_with(config(&database)).await;
    let ours = server.base.clone();
    let tls = ours.replace("http://", "https://");
    let post = |origins: Vec<String>, content_type: &'static str| {
        let mut request = server
            .client
            .post(format!("{}/fn/save_design", server.base))
            .header("content-type", content_type)
            .body(json!({ "spec": training() }).to_string());
        for origin in origins {
            request = request.header("origin", origin);
        }
        request.send()
    };
    let two = post(
        vec![ours.clone(), "https://evil.example".into()],
        "application/json",
    )
    .await
    .unwrap();
    assert_eq!(two.status(), 403);
    assert!(two.text().await.unwrap().contains("more than one origin"));
    let scheme = post(vec![tls], "application/json").await.unwrap();
    assert_eq!(scheme.status(), 403);
    let form = post(vec![ours.clone()], "application/x-www-form-urlencoded")
        .await
        .unwrap();
    assert_eq!(form.status(), 415);
    assert_eq!(stored_designs(&database).await, 0, "nothing stored");
    let fine = post(vec![ours], "application/json").await.unwrap();
    assert_eq!(fine.status(), 200);
    server.stop().await;
}

#[tokio::test]
async fn behind_an_https_public_url_only_host_prefixed_key_cookies_count() {
    let (_dir, database) = temp_database();
    let mut tls = config(&database);
    tls.public_url =
        Some(server::public_url::PublicUrl::parse("https://planner.example.com").unwrap());
    tls.allowed_hosts = vec!["127.0.0.1".into()];
    let server = TestServer::start_with(tls).await;
    let created = server.create_by_api(&training()).await;
    assert_eq!(created.status(), 201);
    let created: Value = created.json().await.unwrap();
    let (id, key) = (
        created["id"].as_str().unwrap(),
        created["edit_key"].as_str().unwrap(),
    );
    let edit = format!("/d/{id}/edit");
    let tossed = server
        .get_with_cookie(&edit, &format!("fpk_{id}={key}"))
        .await;
    assert_eq!(
        tossed.status(),
        403,
        "a plain cookie could have been tossed"
    );
    let prefixed = server
        .get_with_cookie(&edit, &format!("__Host-fpk_{id}={key}"))
        .await;
    assert_eq!(prefixed.status(), 200);
    server.stop().await;
}

/// Reads from `stream` until it is closed; whether that happened within `within`.
async fn closed_within(stream: &mut tokio::net::TcpStream, within: Duration) -> bool {
    let mut rest = Vec::new();
    tokio::time::timeout(within, stream.read_to_end(&mut rest))
        .await
        .is_ok()
}

#[tokio::test]
async fn connections_that_send_nothing_or_only_the_http2_preface_are_closed() {
    let (_dir, database) = temp_database();
    let mut quick = config(&database);
    quick.header_timeout_secs = 1;
    let server = TestServer::start_with(quick).await;
    let addr = server.base.trim_start_matches("http://").to_string();
    let mut silent = tokio::net::TcpStream::connect(&addr).await.unwrap();
    let mut preface = tokio::net::TcpStream::connect(&addr).await.unwrap();
    preface
        .write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
        .await
        .unwrap();
    let mut idle = tokio::net::TcpStream::connect(&addr).await.unwrap();
    idle.write_all(b"GET /sources HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();
    assert_eq!(
        server.get("/designs").await.status(),
        200,
        "others are served"
    );
    for (what, stream) in [
        ("silent", &mut silent),
        ("preface", &mut preface),
        ("idle after a request", &mut idle),
    ] {
        assert!(
            closed_within(stream, Duration::from_secs(5)).await,
            "{what}: closed within the header timeout"
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn one_client_holds_at_most_its_share_of_connections() {
    let (_dir, database) = temp_database();
    let mut few = config(&database);
    few.max_connections_per_client = 3;
    let server = TestServer::start_with(few).await;
    let addr = server.base.trim_start_matches("http://").to_string();
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(tokio::net::TcpStream::connect(&addr).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut over = tokio::net::TcpStream::connect(&addr).await.unwrap();
    assert!(
        closed_within(&mut over, Duration::from_secs(2)).await,
        "a fourth connection is closed at once"
    );
    drop(held.pop());
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(server.get("/designs").await.status(), 200, "a slot freed");
    server.stop().await;
}

#[tokio::test]
async fn a_kept_as_built_check_keeps_what_it_found_not_the_output_it_read() {
    let (_dir, database) = temp_database();
    let server = TestServer::start_with(config(&database)).await;
    let spec: Value = serde_json::from_str(engine::examples::SUPERPOD_4SU).unwrap();
    let design = server.create(&spec).await;
    // The planned fabric as ibnetdiscover would print it, from the bundle itself.
    let (_, planned) = server
        .page(&format!(
            "/d/{}/r/1/handoff/infiniband/compute-ibnetdiscover.net",
            design.id
        ))
        .await;
    let form = reqwest::multipart::Form::new()
        .text("fabric", "compute")
        .text("tool", "ibnetdiscover")
        .text("output", planned.clone())
        .text("keep", "on")
        .text("label", "after cabling")
        .text("checked_on", "2026-12-01");
    let kept = server
        .client
        .post(format!("{}/d/{}/r/1/asbuilt", server.base, design.id))
        .header("cookie", &design.cookie)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert!(kept.status().is_success(), "{}", kept.status());
    let page = kept.text().await.unwrap();
    assert!(
        page.contains("cables are as planned"),
        "the kept check shows what it found"
    );
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", database.display()))
        .await
        .unwrap();
    let (output, found): (String, String) =
        sqlx::query_as("SELECT output, found FROM asbuilt_checks")
            .fetch_one(&pool)
            .await
            .unwrap();
    pool.close().await;
    assert!(output.is_empty());
    assert!(
        found.len() < planned.len() / 4,
        "{} bytes kept for {} read",
        found.len(),
        planned.len()
    );
    server.stop().await;
}

/// A search within the server's budget that takes seconds: the hybrid design over every
/// technology, switch model, topology, two oversubscriptions and three NIC counts.
fn long_search() -> Value {
    let base: Value = serde_json::from_str(engine::examples::HYBRID).unwrap();
    json!({
        "base": base,
        "freedoms": {
            "technologies": ["ib_ndr", "ib_xdr", "roce100", "roce200", "roce400", "roce800", "tcp25", "tcp100"],
            "switch_models": true,
            "topologies": ["two_tier", "three_tier", "rail_optimized"],
            "leaf_oversubscription": [1, 2, 3, 4],
            "spine_oversubscription": [1, 2],
            "nics_per_node": [2, 4, 8],
            "arrangements": ["as_designed", "shared", "separate"]
        },
        "max_candidates": 1000000
    })
}

/// A search that answers at once.
fn quick_search() -> Value {
    json!({ "base": training(), "max_candidates": 1 })
}

async fn search(server: &TestServer, body: &Value, timeout: Option<Duration>) -> Option<u16> {
    let mut request = server
        .client
        .post(format!("{}/api/search", server.base))
        .json(body);
    if let Some(timeout) = timeout {
        request = request.timeout(timeout);
    }
    request.send().await.ok().map(|r| r.status().as_u16())
}

#[tokio::test]
async fn a_search_larger_than_the_budget_is_refused_before_it_starts() {
    let (_dir, database) = temp_database();
    let server = TestServer::start_with(config(&database)).await;
    let mut huge = long_search();
    huge["freedoms"]["leaf_oversubscription"] = json!((0..30)
        .map(|i| 1.0 + f64::from(i) * 0.5)
        .collect::<Vec<f64>>());
    huge["freedoms"]["nics_per_node"] = json!((1..=32).collect::<Vec<u32>>());
    let response = server
        .client
        .post(format!("{}/api/search", server.base))
        .json(&huge)
        .send()
        .await
        .unwrap();
    let errors = refused_paths(response).await;
    assert!(
        errors
            .iter()
            .any(|(p, r)| p == "freedoms" && r.contains("fabric evaluations")),
        "{errors:?}"
    );
    server.stop().await;
}

#[tokio::test]
async fn searches_beyond_their_turns_get_503_and_a_search_whose_client_left_stops() {
    let (_dir, database) = temp_database();
    let server = std::sync::Arc::new(TestServer::start_with(config(&database)).await);
    // Two long searches hold both turns while their clients wait.
    let waiting: Vec<_> = (0..2)
        .map(|_| {
            let server = server.clone();
            tokio::spawn(async move { search(&server, &long_search(), None).await })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let busy = server
        .client
        .post(format!("{}/api/search", server.base))
        .json(&quick_search())
        .send()
        .await
        .unwrap();
    assert_eq!(busy.status(), 503);
    assert_eq!(busy.headers()["retry-after"], "5");
    // Their clients leave: the searches stop, and their turns are free again at once.
    for client in waiting {
        client.abort();
    }
    let mut answered = None;
    for _ in 0..30 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        answered = search(&server, &quick_search(), None).await;
        if answered == Some(200) {
            break;
        }
    }
    assert_eq!(answered, Some(200), "the abandoned searches stopped");
    // The same when a client gives up on its own. (An abandoned search above may still hold
    // its turn for a moment, on a loaded machine: a give-up answered 503 is asked again.)
    for _ in 0..2 {
        let mut gave_up = Some(503);
        for _ in 0..30 {
            gave_up = search(&server, &long_search(), Some(Duration::from_millis(300))).await;
            if gave_up != Some(503) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(gave_up, None);
    }
    let mut answered = None;
    for _ in 0..30 {
        answered = search(&server, &quick_search(), None).await;
        if answered == Some(200) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(answered, Some(200));
    std::sync::Arc::try_unwrap(server)
        .ok()
        .unwrap()
        .stop()
        .await;
}
