//! Measures how long the planner takes to become interactive in headless Chromium on
//! loopback, each run in a fresh profile (cold cache). Two figures per run:
//! - hydrated: from the start of navigation until the wizard shows one step at a time, which
//!   it does once hydrated (without scripts every step shows), read on the page's own clock
//!   (`performance.now()`) by polling every few milliseconds while the page loads;
//! - first reactive update: from the start of navigation until a typed input first changes a
//!   result, on the test's clock. It types, watches the result for 300 ms and types again, so
//!   it includes WebDriver's round trips and can wait for a retry that the page did not need.
//!
//! Prints the median and range of each over the runs.
//!
//! `cargo run -p browser-tests --release --bin measure-hydration [RUNS]` after
//! `cargo leptos build --release`.

use browser_tests::{Browser, JavaScript, PageLoad, Server};
use std::time::{Duration, Instant};

/// The page's clock when the wizard has hydrated, else null.
const HYDRATED_AT: &str =
    "return document.querySelector('#workloads-step.hidden') ? performance.now() : null;";

#[tokio::main]
async fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(10);
    let server = Server::start().await;
    let mut hydrated: Vec<f64> = Vec::with_capacity(runs);
    let mut reacted: Vec<f64> = Vec::with_capacity(runs);
    for _ in 0..runs {
        let browser = Browser::start_with(JavaScript::Enabled, PageLoad::Started).await;
        let started = Instant::now();
        browser.goto(&server.url("/")).await;
        let deadline = started + Duration::from_secs(20);
        let at = loop {
            // Before the document exists the script may fail; that is "not yet".
            if let Ok(at) = browser.client.execute(HYDRATED_AT, vec![]).await {
                if let Some(ms) = at.as_f64() {
                    break ms;
                }
            }
            assert!(Instant::now() < deadline, "the planner never hydrated");
            tokio::time::sleep(Duration::from_millis(5)).await;
        };
        hydrated.push(at);
        let (_, _) = browser
            .type_until_output_changes("#cluster-nodes", "256", "#headline-switches")
            .await;
        reacted.push(started.elapsed().as_secs_f64() * 1e3);
        browser.close().await;
    }
    let summary = |mut times: Vec<f64>| {
        times.sort_by(f64::total_cmp);
        format!(
            "median {:.0} ms, min {:.0} ms, max {:.0} ms",
            times[runs / 2],
            times[0],
            times[runs - 1]
        )
    };
    println!("{runs} fresh profiles, from the start of navigation:");
    println!(
        "  hydrated (the wizard shows one step): {}",
        summary(hydrated)
    );
    println!(
        "  first reactive update after typing:   {}",
        summary(reacted)
    );
}
