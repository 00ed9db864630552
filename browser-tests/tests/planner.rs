//! The planner and its share link in a real headless Chromium against the release server.

use browser_tests::{Browser, JavaScript, Server};

#[tokio::test]
async fn a_design_computed_in_the_browser_saves_and_reopens_with_the_same_numbers() {
    let mut server = Server::start().await;
    let browser = Browser::start(JavaScript::Enabled).await;
    browser.goto(&server.url("/")).await;
    // The server rendered the default design: 70B FP16 on 128 GPUs.
    assert_eq!(browser.text("#bytes-per-step").await, "278 GB");

    // The engine runs in the browser: more GPUs change the figure without a round trip.
    let (bytes, _) = browser
        .type_until_output_changes("#gpus", "256", "#bytes-per-step")
        .await;
    assert_eq!(bytes, "279 GB");
    browser.type_into("#link-gbps", "100").await;
    // 2·255/256 × 140 GB over 8 × 100 Gb/s RoCE ports per node at 90 % efficiency (NVLink is
    // faster): 3.10 s. Typing passes through 1 and 10 Gb/s first, so wait for the figure itself.
    let allreduce = browser
        .wait_for_text("#allreduce-time", |t| t == "3.10 s")
        .await;

    browser.click("#save").await;
    browser
        .wait_for_text("#share-link", |t| t.starts_with("/d/"))
        .await;
    let share_path = browser
        .attribute("#share-link", "href")
        .await
        .expect("the share link has an href");
    let share_path = share_path.trim_start_matches(&server.url(""));
    browser.close().await;

    // After a restart, in a fresh browser profile, the link shows the same inputs and numbers.
    server.restart().await;
    let other = Browser::start(JavaScript::Enabled).await;
    other.goto(&server.url(share_path)).await;
    assert_eq!(other.text("#in-gpus").await, "256");
    assert_eq!(other.text("#in-link-gbps").await, "100 Gb/s");
    assert_eq!(other.text("#bytes-per-step").await, "279 GB");
    assert_eq!(other.text("#allreduce-time").await, allreduce);
    other.close().await;

    // And without JavaScript the server-rendered page is complete.
    let no_js = Browser::start(JavaScript::Disabled).await;
    no_js.goto(&server.url(share_path)).await;
    assert_eq!(no_js.text("#bytes-per-step").await, "279 GB");
    assert_eq!(no_js.text("#allreduce-time").await, allreduce);
    no_js.close().await;
}

#[tokio::test]
async fn an_invalid_input_shows_the_engines_message_next_to_the_field() {
    let server = Server::start().await;
    let browser = Browser::start(JavaScript::Enabled).await;
    browser.goto(&server.url("/")).await;
    browser
        .type_until_output_changes("#gpus", "-4", "#gpus-error")
        .await;
    assert_eq!(browser.text("#gpus-error").await, "must be at least 1");
    assert_eq!(
        browser.attribute("#save", "disabled").await.as_deref(),
        Some("true")
    );
    browser.type_into("#link-gbps", "0").await;
    browser
        .wait_for_text("#link-gbps-error", |t| t == "must be greater than 0 Gb/s")
        .await;
    browser.close().await;
}

#[tokio::test]
async fn without_javascript_typing_changes_nothing_so_the_disabled_mode_is_real() {
    let server = Server::start().await;
    let browser = Browser::start(JavaScript::Disabled).await;
    browser.goto(&server.url("/")).await;
    browser.type_into("#gpus", "256").await;
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    assert_eq!(browser.text("#bytes-per-step").await, "278 GB");
    browser.close().await;
}
