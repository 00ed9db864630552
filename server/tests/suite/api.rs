//! The JSON API under `/api/`, and its OpenAPI document: every documented operation answers,
//! and with a status the document lists for it.

use crate::common::*;
use serde_json::{json, Value};

async fn post(
    server: &TestServer,
    path: &str,
    body: String,
    key: Option<&str>,
) -> reqwest::Response {
    let mut request = server
        .client
        .post(format!("{}{path}", server.base))
        .header("content-type", "application/json")
        .body(body);
    if let Some(key) = key {
        request = request.header("authorization", format!("Bearer {key}"));
    }
    request.send().await.unwrap()
}

/// A design created through the API: its id and edit key.
async fn create(server: &TestServer) -> (String, String) {
    let body = json!({"spec": seventy_b_on_256_gpus()}).to_string();
    let created: Value = post(server, "/api/designs", body, None)
        .await
        .json()
        .await
        .unwrap();
    let field = |name: &str| created[name].as_str().unwrap().to_string();
    (field("id"), field("edit_key"))
}

#[tokio::test]
async fn the_api_evaluates_creates_saves_with_the_key_and_reads_back() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;

    let response = post(
        &server,
        "/api/evaluate",
        seventy_b_on_256_gpus().to_string(),
        None,
    )
    .await;
    assert_eq!(response.status(), 200);
    let answer = response.text().await.unwrap();
    let spec = engine::DesignSpec::from_value(seventy_b_on_256_gpus()).unwrap();
    // The evaluation over its life, on the floor the design page plans for it.
    let report = engine::evaluate(&spec).unwrap();
    let floor = engine::floor::plan(&spec, &report);
    let expected = engine::PlacedReport {
        report: report.over_its_life_on(&spec, &floor),
        floor,
    };
    assert_eq!(answer, serde_json::to_string(&expected).unwrap());
    let placed: engine::PlacedReport = serde_json::from_str(&answer).unwrap();
    let report = &placed.report;
    assert!(
        !report.failures.is_empty(),
        "the answer says what one failure of each element takes away"
    );
    assert_eq!(report.goodput.len(), 1, "and the training job's goodput");
    // And the floor the bill is placed on, as the design page draws it: which rack holds each
    // node, where that rack stands and what it draws.
    let floor = &placed.floor;
    let holding = |node: u32| {
        floor
            .racks
            .iter()
            .find(|r| r.devices.iter().any(|d| d.node_number() == Some(node)))
    };
    let first = holding(1).expect("node 1 in a rack");
    assert_eq!(
        (first.name.as_str(), first.row, first.position),
        ("R01-01", 0, 0)
    );
    assert!(first.load_kw.kilowatts() > 0.0);
    let nodes = floor
        .racks
        .iter()
        .flat_map(|r| &r.devices)
        .filter(|d| d.role == "node")
        .count();
    assert_eq!(nodes, 32, "every node in a rack, once");
    assert_eq!(report.network(), report.placed.as_ref().unwrap());
    assert_eq!(
        stored_designs(&database).await,
        0,
        "evaluating stores nothing"
    );

    let body = json!({"spec": seventy_b_on_256_gpus(), "note": "first"}).to_string();
    let response = post(&server, "/api/designs", body, None).await;
    assert_eq!(response.status(), 201);
    let created: Value = response.json().await.unwrap();
    let id = created["id"].as_str().unwrap().to_string();
    let key = created["edit_key"].as_str().unwrap().to_string();
    assert_eq!(created["revision"], 1);
    // Every place the revision is shown, exported or handed over answers (the PDF is typeset
    // by its own tests).
    for link in [
        "revision",
        "report",
        "bom_csv",
        "cabling_csv",
        "handoff",
        "handoff_zip",
        "asbuilt",
    ] {
        let path = created["links"][link].as_str().unwrap();
        assert!(path.starts_with(&format!("/d/{id}/r/1")), "{link}: {path}");
        assert_eq!(server.get(path).await.status(), 200, "{link}: {path}");
    }
    assert_eq!(
        created["links"]["report_pdf"],
        format!("/d/{id}/r/1/report.pdf")
    );

    let mut bigger = seventy_b_on_256_gpus();
    bigger["training"]["gpus"] = json!(512);
    let body = json!({"spec": bigger, "note": "double"}).to_string();
    let path = format!("/api/designs/{id}/revisions");
    assert_eq!(post(&server, &path, body.clone(), None).await.status(), 403);
    assert_eq!(
        post(&server, &path, body.clone(), Some(&"a".repeat(32)))
            .await
            .status(),
        403
    );
    let response = post(&server, &path, body.clone(), Some(&key)).await;
    assert_eq!(response.status(), 201);
    assert_eq!(response.json::<Value>().await.unwrap()["revision"], 2);
    // The key in its own header works too.
    let response = server
        .client
        .post(format!("{}{path}", server.base))
        .header("x-edit-key", &key)
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201);

    let design: Value = server
        .get(&format!("/api/designs/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(design["latest_revision"], 3);
    assert_eq!(design["title"], "70B on 32 nodes");
    let list: Value = server.get(&path).await.json().await.unwrap();
    let numbers: Vec<u64> = list["revisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["number"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [3, 2, 1]);
    assert_eq!(list["revisions"][2]["note"], "first");
    let revision: Value = server.get(&format!("{path}/2")).await.json().await.unwrap();
    assert_eq!(revision["spec"]["cluster"]["nodes"], 64);
    let report: engine::PlacedReport = server
        .get(&format!("{path}/1/report"))
        .await
        .json()
        .await
        .unwrap();
    // The revision's report is its saved snapshot: the evaluation, without the failures an
    // evaluation's answer adds, on its floor.
    assert_eq!(
        report,
        engine::evaluate(&spec).unwrap().placed_on_floor(&spec)
    );
    let download: engine::PlacedReport = server
        .get(&format!("/d/{id}/r/1/report.json"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(download, report, "report.json is the API's report");
    server.stop().await;
    assert_eq!(stored_revisions(&database).await, 3);
}

#[tokio::test]
async fn api_refusals_have_their_status_and_write_nothing() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let (id, key) = create(&server).await;
    let (id, key) = (id.as_str(), key.as_str());
    let revisions = format!("/api/designs/{id}/revisions");

    let response = post(&server, "/api/designs", "{ not json".into(), None).await;
    assert_eq!(response.status(), 400);
    assert_eq!(
        response.json::<Value>().await.unwrap()["error"],
        "bad_request"
    );
    let mut bad = seventy_b_on_256_gpus();
    bad["training"]["gpus"] = json!(0);
    bad["training"]["link_gbps"] = json!(0);
    let response = post(
        &server,
        &revisions,
        json!({"spec": bad}).to_string(),
        Some(key),
    )
    .await;
    assert_eq!(response.status(), 422);
    let errors: Value = response.json().await.unwrap();
    assert_eq!(errors["error"], "invalid");
    let paths: Vec<&str> = errors["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    assert!(
        paths.contains(&"training.gpus") && paths.contains(&"training.link_gbps"),
        "{paths:?}"
    );
    let huge = format!(r#"{{"spec": "{}"}}"#, "a".repeat(300 * 1024));
    assert_eq!(
        post(&server, &revisions, huge, Some(key)).await.status(),
        413
    );
    let unknown = "/api/designs/aaaaaaaaaaaaaaaaaaaaaaaa/revisions";
    assert_eq!(
        post(
            &server,
            unknown,
            json!({"spec": seventy_b_on_256_gpus()}).to_string(),
            Some(key)
        )
        .await
        .status(),
        404
    );
    assert_eq!(
        server
            .get("/api/designs/aaaaaaaaaaaaaaaaaaaaaaaa")
            .await
            .status(),
        404
    );
    assert_eq!(server.get(&format!("{revisions}/9")).await.status(), 404);
    assert_eq!(
        server.get(&format!("{revisions}/0/report")).await.status(),
        404
    );
    let response = server.get("/api/nothing").await;
    assert_eq!(response.status(), 404);
    assert_eq!(
        response.json::<Value>().await.unwrap()["error"],
        "not_found"
    );
    server.stop().await;
    assert_eq!(stored_revisions(&database).await, 1);
}

/// `{id}` and `{n}` of a documented path, filled with a design that exists.
fn concrete(path: &str, id: &str) -> String {
    path.replace("{id}", id).replace("{n}", "1")
}

/// Walks every operation of the OpenAPI document with good and bad bodies (every example
/// evaluated among them): each answers with a
/// status the document lists for it, and openapi-spec-validator accepts the document and
/// validates every request the API accepted and every JSON answer against the document's
/// schemas (`scripts/consumers/openapi_check.py` does the reading).
#[tokio::test]
async fn every_operation_in_the_openapi_document_answers_as_its_schemas_say() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let document: Value = server.get("/api/openapi.json").await.json().await.unwrap();
    assert_eq!(document["openapi"], "3.1.0");
    // A fabric's name has the rule the spec holds it to: it names switches in the hand-off.
    let name = &document["components"]["schemas"]["Fabric"]["properties"]["name"];
    assert_eq!(
        name["pattern"].as_str(),
        Some(engine::names::FABRIC_NAME_PATTERN),
        "{name}"
    );
    assert_eq!(name["maxLength"], 32);
    let (id, key) = create(&server).await;
    let (id, key) = (id.as_str(), key.as_str());
    let search = json!({"base": seventy_b_on_256_gpus(), "max_candidates": 2000});
    let mut exchanges = Vec::new();
    for (path, operations) in document["paths"].as_object().unwrap() {
        for (method, operation) in operations.as_object().unwrap() {
            let documented: Vec<&String> =
                operation["responses"].as_object().unwrap().keys().collect();
            let url = concrete(path, id);
            let cases: Vec<(Option<Value>, bool)> = match method.as_str() {
                "get" => vec![(None, false)],
                "post" if path == "/api/evaluate" => engine::examples::ALL
                    .iter()
                    .map(|(_, example)| (Some(serde_json::from_str(example).unwrap()), false))
                    .chain([
                        (Some(seventy_b_on_256_gpus()), false),
                        (Some(json!({"schema_version": 3})), false),
                    ])
                    .collect(),
                "post" if path == "/api/search" => vec![
                    (Some(seventy_b_on_256_gpus()), false),
                    (Some(search.clone()), false),
                ],
                "post" if path == "/api/bill-difference" => vec![
                    (
                        Some(
                            json!({"before": seventy_b_on_256_gpus(), "after": seventy_b_on_256_gpus()}),
                        ),
                        false,
                    ),
                    (
                        Some(
                            json!({"before": seventy_b_on_256_gpus(), "after": {"schema_version": 3}}),
                        ),
                        false,
                    ),
                ],
                "post" => vec![
                    (Some(json!({"spec": seventy_b_on_256_gpus()})), true),
                    (Some(json!({"spec": {"schema_version": 2}})), true),
                ],
                other => panic!("undocumented method {other}"),
            };
            for (body, with_key) in cases.into_iter().chain([(Some(json!("[")), true)]) {
                let response = match &body {
                    None => server.get(&url).await,
                    // A body that is not JSON at all.
                    Some(Value::String(text)) => {
                        post(&server, &url, text.clone(), with_key.then_some(key)).await
                    }
                    Some(body) => {
                        post(&server, &url, body.to_string(), with_key.then_some(key)).await
                    }
                };
                let status = response.status().as_u16();
                assert!(
                    documented.contains(&&status.to_string()),
                    "{method} {path} answered {status}, documented {documented:?}"
                );
                let answer: Value = response.json().await.unwrap();
                let accepted = (200..300).contains(&status);
                exchanges.push(json!({
                    "method": method,
                    "path": path,
                    "status": status,
                    "request": if accepted { body } else { None },
                    "response": answer,
                }));
                if method == "get" {
                    break;
                }
            }
        }
    }
    assert_eq!(
        exchanges.len(),
        21 + engine::examples::ALL.len(),
        "{exchanges:#?}"
    );
    server.stop().await;
    openapi_validator_accepts(&document, &exchanges);
}

/// Runs openapi-spec-validator's checks of `document` and of the `exchanges` against it.
fn openapi_validator_accepts(document: &Value, exchanges: &[Value]) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let python = root.join(".tools/openapi/bin/python");
    if !python.exists() {
        assert!(
            std::env::var_os("FABRIC_PLANNER_REQUIRE_CONSUMERS").is_none(),
            "openapi-spec-validator is not installed: scripts/setup.sh --browser installs it"
        );
        eprintln!("skipped: openapi-spec-validator is not installed");
        return;
    }
    let folder = tempfile::tempdir().unwrap();
    let (document_file, exchanges_file) = (
        folder.path().join("openapi.json"),
        folder.path().join("exchanges.json"),
    );
    std::fs::write(&document_file, document.to_string()).unwrap();
    std::fs::write(&exchanges_file, Value::from(exchanges.to_vec()).to_string()).unwrap();
    let out = std::process::Command::new(python)
        .arg(root.join("scripts/consumers/openapi_check.py"))
        .args([&document_file, &exchanges_file])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The API compares two specs' bills to order: growing the cluster adds switches, and the
/// lines add up to the difference of the two headline costs; an error names the spec it is in.
#[tokio::test]
async fn the_api_says_what_changes_in_the_bill_from_one_spec_to_another() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let before = serde_json::from_str::<Value>(engine::examples::SEVENTY_B_TRAINING).unwrap();
    let mut after = before.clone();
    after["cluster"]["nodes"] = json!(32);
    after["workloads"][0]["parallelism"]["dp"] = json!(32);
    after["workloads"][0]["global_batch"] = json!(32 * 16);
    let body = json!({"before": before, "after": after}).to_string();
    let response = post(&server, "/api/bill-difference", body, None).await;
    assert_eq!(response.status(), 200);
    let diff: engine::bill_diff::BillDiff = response.json().await.unwrap();
    let cost = |spec: &Value| {
        let spec = engine::DesignSpec::from_value(spec.clone()).unwrap();
        engine::evaluate(&spec)
            .unwrap()
            .network()
            .cost_usd
            .dollars()
    };
    assert!((diff.cost_delta.dollars() - (cost(&after) - cost(&before))).abs() < 1e-6);
    assert!(diff.items.iter().any(|i| i.item.starts_with("switch:")));
    let mut wrong = after.clone();
    wrong["cluster"]["nodes"] = json!(0);
    let body = json!({"before": before, "after": wrong}).to_string();
    let response = post(&server, "/api/bill-difference", body, None).await;
    assert_eq!(response.status(), 422);
    let answer: Value = response.json().await.unwrap();
    assert!(
        answer.to_string().contains("after.cluster.nodes"),
        "{answer}"
    );
    server.stop().await;
}
