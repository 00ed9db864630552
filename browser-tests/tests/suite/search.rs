//! The search page in a real headless Chromium: a saved design's question answered with a
//! frontier, and a candidate opened in the planner and saved as the design's next revision.

use browser_tests::Server;
use serde_json::json;

#[tokio::test]
async fn a_frontier_candidate_opens_in_the_planner_and_saves_as_the_next_revision() {
    let server = Server::start().await;
    let spec: serde_json::Value =
        serde_json::from_str(engine::examples::SEVENTY_B_INFERENCE_25G).unwrap();
    let (browser, id) = server.claimed(&spec).await;

    // From the design page to its search, with the default question.
    browser.goto(&server.url(&format!("/d/{id}"))).await;
    browser.click("#design-search").await;
    browser.click("#search-run").await;
    let summary = browser
        .wait_for_text("#search-summary", |t| !t.is_empty())
        .await;
    assert!(summary.contains("meet every check"), "{summary}");
    browser.click("#frontier .open-candidate").await;
    browser.wait_for_hydration().await;
    let heading = browser
        .wait_for_text("#wizard-heading", |t| t.starts_with("Editing"))
        .await;
    assert!(heading.ends_with("revision 1"), "{heading}");
    browser.click("#step-fabrics").await;
    let technology = browser
        .run("return document.querySelector('#fabrics-0-technology').value")
        .await;
    assert_ne!(
        technology,
        json!("tcp25"),
        "the cheapest candidate that meets 50 ms is not 25GbE TCP"
    );
    browser.click("#step-review").await;
    browser.click("#save").await;
    let saved = browser
        .wait_for_text("#share", |t| t.starts_with("Saved revision"))
        .await;
    assert!(saved.starts_with("Saved revision 2."), "{saved}");
    browser.close().await;
}
