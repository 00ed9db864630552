//! Measures how long the planner takes to become interactive in headless Chromium on
//! loopback: from the start of navigation until a typed input first changes a result (which
//! only happens once the page has hydrated). Prints the median and range over the runs.
//!
//! `cargo run -p browser-tests --release --bin measure-hydration [RUNS]` after
//! `cargo leptos build --release`.

use browser_tests::{Browser, JavaScript, Server};
use std::time::{Duration, Instant};

#[tokio::main]
async fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(10);
    let server = Server::start().await;
    let mut times: Vec<Duration> = Vec::with_capacity(runs);
    for _ in 0..runs {
        let browser = Browser::start(JavaScript::Enabled).await;
        let started = Instant::now();
        browser.goto(&server.url("/")).await;
        let (_, _) = browser
            .type_until_output_changes("#cluster-nodes", "256", "#headline-switches")
            .await;
        times.push(started.elapsed());
        browser.close().await;
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "hydration (navigation start to first reactive update), {runs} fresh profiles: median {:.0} ms, min {:.0} ms, max {:.0} ms",
        ms(times[runs / 2]),
        ms(times[0]),
        ms(times[runs - 1])
    );
}
