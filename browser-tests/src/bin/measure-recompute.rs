//! Measures how long the planner takes, in headless Chromium, from an input change to the
//! engine's new results in the page, for a design of three workloads (training, storage,
//! inference): from dispatching the input event to the moment a MutationObserver sees the
//! results panel show the new figures. The dashboard below, fetched from the server after each
//! change, is left to arrive between changes.
//!
//! `cargo run -p browser-tests --release --bin measure-recompute [CHANGES]` (default 100) after
//! `cargo leptos build --release`.

use browser_tests::{Browser, JavaScript, Server};

const SCRIPT: &str = r#"
const [changes, done] = [arguments[0], arguments[arguments.length - 1]];
const input = document.querySelector('#cluster-nodes');
const panel = document.querySelector('.results-panel');
const result = () => document.querySelector('#headline-switches').textContent
    + document.querySelector('#headline-cost').textContent;
const times = [];
const sizes = [16, 64, 32, 128];
const settle = () => new Promise(r => setTimeout(r, 400));
(async () => {
  for (let i = 0; i < changes; i++) {
    const before = result();
    const changed = new Promise(resolve => {
      const observer = new MutationObserver(() => {
        if (result() !== before) { observer.disconnect(); resolve(performance.now()); }
      });
      observer.observe(panel, { subtree: true, childList: true, characterData: true });
    });
    const t0 = performance.now();
    input.value = String(sizes[i % sizes.length]);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    const t1 = await Promise.race([changed, new Promise(r => setTimeout(() => r(null), 2000))]);
    if (t1 === null) { done({ error: 'the results did not change at change ' + i }); return; }
    times.push(t1 - t0);
    // Let the dashboard, fetched from the server after each change, arrive before the next.
    await settle();
  }
  done({ times });
})();
"#;

#[tokio::main]
async fn main() {
    let changes: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(100);
    let server = Server::start().await;
    let browser = Browser::start(JavaScript::Enabled).await;
    browser.goto(&server.url("/")).await;
    browser.wait_for_hydration().await;
    browser.click("#step-workloads").await;
    browser.click("#add-inference").await;
    browser.wait_for("#workload-2", true).await;
    browser.click("#step-cluster").await;
    // Start from a size the first change differs from.
    browser.type_into("#cluster-nodes", "256").await;
    let mut timeouts = browser.client.get_timeouts().await.expect("timeouts");
    timeouts.set_script(Some(std::time::Duration::from_secs(600)));
    browser
        .client
        .update_timeouts(timeouts)
        .await
        .expect("the script timeout can be raised");
    let outcome = browser
        .client
        .execute_async(SCRIPT, vec![serde_json::json!(changes)])
        .await
        .expect("the measurement script runs");
    if let Some(error) = outcome.get("error") {
        panic!("{error}");
    }
    let mut times: Vec<f64> = serde_json::from_value(outcome["times"].clone()).unwrap();
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "recompute after an input change, 3-workload design, {} changes: median {:.2} ms, p95 {:.2} ms, max {:.2} ms",
        times.len(),
        at(0.5),
        at(0.95),
        at(1.0)
    );
    browser.close().await;
}
