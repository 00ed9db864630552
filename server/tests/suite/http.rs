//! The real server over HTTP, each test with its own temporary SQLite file.

use crate::common::*;
use serde_json::{json, Value};

#[tokio::test]
async fn a_saved_design_loads_back_with_the_same_inputs_and_numbers() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;

    let response = server.save(&seventy_b_on_256_gpus()).await;
    assert_eq!(response.status(), 200);
    let saved: Value = response.json().await.unwrap();
    let id = saved["id"].as_str().unwrap().to_string();
    assert_eq!(id.len(), 24);
    assert_eq!(saved["revision"], 1);

    assert_eq!(saved["edit_key"].as_str().unwrap().len(), 32);
    let loaded: Value = server
        .get(&format!("/api/designs/{id}/revisions/1"))
        .await
        .json()
        .await
        .unwrap();
    let spec: engine::DesignSpec = serde_json::from_value(loaded["spec"].clone()).unwrap();
    // A version-1 spec is stored upgraded to today's schema.
    let expected = engine::DesignSpec::from_value(seventy_b_on_256_gpus()).unwrap();
    assert_eq!(spec, expected);
    assert_eq!(spec.schema_version, engine::SPEC_VERSION);

    let page = server.get(&format!("/d/{id}")).await;
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains("70B on 32 nodes"));
    // 2 × 255/256 × 140 GB, as the engine formats it.
    assert!(
        shows_bytes_per_step_of_256_gpus(&html),
        "the page shows the bytes per step"
    );
    assert!(
        html.contains("32 nodes × 8 GPUs"),
        "the page shows the cluster"
    );
    // A finished document: no scripts, and a policy that allows none.
    assert!(
        !html.contains("<script"),
        "the share page carries no script"
    );
    assert_dashboard_is_complete(&html);
    server.stop().await;
}

#[tokio::test]
async fn a_saved_design_is_still_there_after_a_restart() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let saved: Value = server
        .save(&seventy_b_on_256_gpus())
        .await
        .json()
        .await
        .unwrap();
    let id = saved["id"].as_str().unwrap().to_string();
    server.stop().await;

    let server = TestServer::start(&database).await;
    let page = server.get(&format!("/d/{id}")).await;
    assert_eq!(page.status(), 200);
    assert!(shows_bytes_per_step_of_256_gpus(
        &page.text().await.unwrap()
    ));
    server.stop().await;
}

async fn assert_refused(server: &TestServer, spec: Value, status: u16, field: &str) {
    let response = server.save(&spec).await;
    assert_eq!(response.status(), status, "for {spec}");
    let body = response.text().await.unwrap();
    assert!(body.contains(field), "the refusal names {field}: {body}");
}

#[tokio::test]
async fn out_of_range_saves_are_refused_with_422_naming_the_field_and_nothing_is_written() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let with = |field: &str, value: Value| {
        let mut spec = seventy_b_on_256_gpus();
        spec["training"][field] = value;
        spec
    };
    assert_refused(&server, with("gpus", json!(-4)), 422, "training.gpus").await;
    assert_refused(
        &server,
        with("link_gbps", json!(0)),
        422,
        "training.link_gbps",
    )
    .await;
    assert_refused(
        &server,
        with("parameters", json!(1e300)),
        422,
        "training.parameters",
    )
    .await;
    assert_refused(
        &server,
        with("gpus_per_node", json!(0)),
        422,
        "training.gpus_per_node",
    )
    .await;
    assert_refused(
        &server,
        with("precision", json!("fp12")),
        422,
        "training.precision",
    )
    .await;
    let mut untitled = seventy_b_on_256_gpus();
    untitled["title"] = json!("   ");
    assert_refused(&server, untitled, 422, "title").await;
    server.stop().await;
    assert_eq!(stored_designs(&database).await, 0);
}

#[tokio::test]
async fn malformed_and_oversized_requests_are_refused_and_stored_designs_are_untouched() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let saved: Value = server
        .save(&seventy_b_on_256_gpus())
        .await
        .json()
        .await
        .unwrap();
    let id = saved["id"].as_str().unwrap().to_string();
    let save_url = format!("{}/fn/save_design", server.base);

    // JSON has no NaN: a body that carries one is not JSON.
    let nan = r#"{"spec": {"schema_version": 1, "title": "t", "training": {"parameters": NaN}}}"#;
    let response = server
        .client
        .post(&save_url)
        .header("content-type", "application/json")
        .body(nan)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);

    let ten_megabytes = vec![b'a'; 10 * 1024 * 1024];
    let response = server
        .client
        .post(&save_url)
        .header("content-type", "application/json")
        .body(ten_megabytes)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 413);

    let response = server.get("/d/aaaaaaaaaaaaaaaaaaaaaaaa").await;
    assert_eq!(response.status(), 404);
    assert!(response.text().await.unwrap().contains("Page not found"));
    assert_eq!(server.get("/d/not-an-id").await.status(), 404);

    // Still serving, and the design saved before is unchanged.
    let page = server.get(&format!("/d/{id}")).await;
    assert_eq!(page.status(), 200);
    assert!(shows_bytes_per_step_of_256_gpus(
        &page.text().await.unwrap()
    ));
    server.stop().await;
    assert_eq!(stored_designs(&database).await, 1);
}

#[tokio::test]
async fn the_planner_page_renders_the_default_design_on_the_server() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let page = server.get("/").await;
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    // The planner opens with the seed's 70B training design; its headline figures are the
    // engine's.
    let report = engine::evaluate(&app::templates::first_design()).unwrap();
    let slowdown = report.headline.worst_training_slowdown.unwrap().to_string();
    assert_eq!(text_of(&html, "headline-slowdown"), slowdown);
    let switches = report.headline.switches.to_string();
    assert_eq!(text_of(&html, "headline-switches"), switches);
    // Without JavaScript the wizard's inputs still show the design.
    let nodes = html.find(r#"id="cluster-nodes""#).unwrap();
    let tag = &html[nodes..nodes + html[nodes..].find('>').unwrap()];
    assert!(tag.contains(r#"value="16""#), "{tag}");
    // The baseline nccl-tests should reach on its 16 DGX H100: min(370, 8 × 50 × 0.95) GB/s.
    assert!(
        html.contains("should show about 370 GB/s bus bandwidth"),
        "the expected AllReduce bus bandwidth"
    );
    assert!(
        html.contains(r#"id="cluster-nodes""#),
        "the wizard's first step"
    );
    // The build that wrote it, for the bundle to check before it reads the page's start.
    assert!(
        html.contains(&format!(
            r#"<meta name="fabric-planner-build" content="{}">"#,
            app::wire::BUILD
        )),
        "the page names its build"
    );
    server.stop().await;
}

#[tokio::test]
async fn responses_carry_a_content_security_policy_and_refuse_sniffing_and_framing() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let page = server.get("/").await;
    let header = |response: &reqwest::Response, name: &str| {
        response
            .headers()
            .get(name)
            .unwrap_or_else(|| panic!("{name} is set"))
            .to_str()
            .unwrap()
            .to_string()
    };
    let policy = header(&page, "content-security-policy");
    assert_eq!(header(&page, "x-content-type-options"), "nosniff");
    assert_eq!(header(&page, "x-frame-options"), "DENY");
    assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
    assert!(policy.contains("object-src 'none'"), "{policy}");
    assert!(!policy.contains("unsafe-inline"), "{policy}");
    // The page's inline scripts carry the nonce the policy names.
    let html = page.text().await.unwrap();
    let at = html.find("<script type=\"module\" nonce=\"").unwrap() + 29;
    let nonce = &html[at..at + html[at..].find('"').unwrap()];
    assert!(
        policy.contains(&format!("'nonce-{nonce}'")),
        "{policy} / {nonce}"
    );
    // Two pages, two nonces: the start page is rendered once and kept, and each copy sent
    // carries a nonce of its own, in its policy and in every script of it.
    let second = server.get("/").await;
    let other = header(&second, "content-security-policy");
    assert_ne!(other, policy);
    let second_nonce = other
        .split("'nonce-")
        .nth(1)
        .unwrap()
        .split('\'')
        .next()
        .unwrap()
        .to_string();
    let second_html = second.text().await.unwrap();
    assert!(!second_html.contains(nonce));
    assert_eq!(second_html.replace(&second_nonce, nonce), html);

    // Server functions and files get the policy that allows nothing.
    let response = server.save(&json!({"schema_version": 2})).await;
    assert_eq!(
        header(&response, "content-security-policy"),
        "default-src 'none'; frame-ancestors 'none'"
    );
    assert_eq!(header(&response, "x-content-type-options"), "nosniff");
    server.stop().await;
}

#[tokio::test]
async fn a_client_that_saves_too_often_gets_429_and_nothing_more_is_written() {
    let (_dir, database) = temp_database();
    let server = TestServer::start_limited(&database, 6, 3).await;
    for _ in 0..3 {
        assert_eq!(server.save(&seventy_b_on_256_gpus()).await.status(), 200);
    }
    let refused = server.save(&seventy_b_on_256_gpus()).await;
    assert_eq!(refused.status(), 429);
    let wait: u64 = refused.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=10).contains(&wait), "retry after {wait} s");
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"], "too_many_requests");
    assert!(body["details"].as_str().unwrap().contains("too many saves"));
    // Reading is not limited.
    for _ in 0..10 {
        assert_eq!(server.get("/").await.status(), 200);
    }
    server.stop().await;
    assert_eq!(stored_designs(&database).await, 3);
}
