//! `POST /api/search`: the engine's design search over HTTP.

use crate::common::*;
use serde_json::{json, Value};

#[tokio::test]
async fn a_search_over_the_api_returns_the_frontier_or_says_which_target_nobody_meets() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let training: Value = serde_json::from_str(engine::examples::SEVENTY_B_TRAINING).unwrap();
    let post = |body: Value| {
        server
            .client
            .post(format!("{}/api/search", server.base))
            .json(&body)
            .send()
    };
    let found: Value = post(training.clone()).await.unwrap().json().await.unwrap();
    assert!(!found["frontier"].as_array().unwrap().is_empty(), "{found}");
    let hopeless = json!({
        "base": training,
        "targets": { "every_workload": { "max_slowdown_percent": 0.001 } },
        "freedoms": { "technologies": ["tcp25"] },
    });
    let answer = post(hopeless).await.unwrap();
    assert_eq!(answer.status(), 200);
    let answer: Value = answer.json().await.unwrap();
    assert!(answer["frontier"].as_array().unwrap().is_empty());
    assert!(answer["no_design"].is_object(), "{answer}");
    let too_big = post(json!({ "base": training, "max_candidates": 5_000_000 }))
        .await
        .unwrap();
    assert_eq!(too_big.status(), 422);
    let errors: Value = too_big.json().await.unwrap();
    assert_eq!(errors["details"][0]["path"], "max_candidates");
    server.stop().await;
}
