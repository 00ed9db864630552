//! Measures how long the planner takes, in headless Chromium, from an input change to the
//! engine's new results in the page, for a design of three workloads (training, storage,
//! inference): from dispatching the input event to the moment a MutationObserver sees the
//! results panel show the new figures. The dashboard below, fetched from the server after each
//! change, is left to arrive between changes; how long the browser takes to draw its blocks,
//! from the server's answer to the page's last change below the planner, is printed too.
//!
//! The main thread's long tasks (over 50 ms, as the browser reports them) from each change until
//! the next are summed too: what a keystroke made in that time would wait behind.
//!
//! `cargo run -p browser-tests --release --bin measure-recompute [CHANGES] [NODES,NODES,...] [batch|typed]`
//! (default 100 changes over 16, 64, 32 and 128 nodes; 12500,12000 is a design of some 100,000
//! GPUs: the training job's global batch is set to a multiple of every size, which must stay
//! within the spec's rules) after `cargo leptos build --release`. With `batch`, the cluster stays at
//! the first size and the change is the training job's global batch (2, 4, 6 and 8 sequences
//! per node in turn), an edit that moves no cable, seen in the slowdown it gives. With `typed`,
//! each node count is typed a digit at a time, [`KEYSTROKE_MS`] apart, as a person types it
//! ("1", "12", "125", "1250", "12500"), and the time is the last keystroke's.

use browser_tests::{Browser, JavaScript, Server};

const SCRIPT: &str = r#"
const [changes, sizes, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
const input = document.querySelector(arguments[3]);
const panel = document.querySelector('.results-panel');
const result = () => arguments[4].map(id => document.querySelector(id).textContent).join('');
const times = [];
// The dashboard: when each answer of the server's dashboard function arrived, and when the
// page last changed below the planner, to tell how long the browser takes to draw its blocks.
const frame = document.querySelector('.dashboard-frame');
let answered = 0, redrawn = 0;
new PerformanceObserver(list => {
  for (const e of list.getEntries()) if (e.name.endsWith('/fn/dashboard')) answered = e.responseEnd;
}).observe({ type: 'resource', buffered: false });
new MutationObserver(() => { redrawn = performance.now(); })
  .observe(frame, { subtree: true, childList: true, characterData: true });
const drawn = [];
const settle = () => new Promise(r => setTimeout(r, arguments[2]));
// The main thread's long tasks: when each began and how long it took.
const long = [];
new PerformanceObserver(list => {
  for (const e of list.getEntries()) long.push([e.startTime, e.duration]);
}).observe({ type: 'longtask', buffered: false });
const blocked = [];
const [typed, keystroke] = [arguments[5], arguments[6]];
const pause = ms => new Promise(r => setTimeout(r, ms));
(async () => {
  for (let i = 0; i < changes; i++) {
    const value = String(sizes[i % sizes.length]);
    const typing = performance.now();
    if (typed) {
      for (let k = 1; k < value.length; k++) {
        input.value = value.slice(0, k);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        await pause(keystroke);
      }
    }
    const before = result();
    const changed = new Promise(resolve => {
      const observer = new MutationObserver(() => {
        if (result() !== before) { observer.disconnect(); resolve(performance.now()); }
      });
      observer.observe(panel, { subtree: true, childList: true, characterData: true });
    });
    const t0 = performance.now();
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    const t1 = await Promise.race([changed, new Promise(r => setTimeout(() => r(null), 20000))]);
    if (t1 === null) { done({ error: 'the results did not change at change ' + i }); return; }
    times.push(t1 - t0);
    // Let the dashboard, fetched from the server after each change, arrive before the next.
    answered = 0;
    await settle();
    if (answered > 0 && redrawn > answered) drawn.push(redrawn - answered);
    blocked.push(long.filter(([at]) => at >= typing).reduce((sum, [, ms]) => sum + ms, 0));
    long.length = 0;
  }
  done({ times, drawn, blocked });
})();
"#;

/// Time between two keystrokes of a node count typed a digit at a time, ms: a quick typist's.
const KEYSTROKE_MS: u32 = 120;

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[tokio::main]
async fn main() {
    let changes: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(100);
    let sizes: Vec<u32> = std::env::args()
        .nth(2)
        .map(|list| {
            list.split(',')
                .map(|n| n.parse().expect("a node count"))
                .collect()
        })
        .unwrap_or_else(|| vec![16, 64, 32, 128]);
    let mode = std::env::args().nth(3);
    let batch_edits = mode.as_deref() == Some("batch");
    let typed = mode.as_deref() == Some("typed");
    // The next change waits for the dashboard, asked for once the inputs have been still for
    // 700 ms: a large design's takes longer to draw.
    let settle_ms = if sizes.iter().any(|n| *n > 1024) {
        3000
    } else {
        1500
    };
    let server = Server::start().await;
    let browser = Browser::start(JavaScript::Enabled).await;
    browser.goto(&server.url("/")).await;
    browser.wait_for_hydration().await;
    browser.click("#step-workloads").await;
    browser.click("#add-inference").await;
    browser.wait_for("#workload-2", true).await;
    // Start from a size the first change differs from.
    let start = sizes.iter().max().copied().unwrap_or(128) * 2;
    // The training job's data parallelism follows the cluster: its global batch must be a
    // multiple of every size measured (the example's 512 is for up to 512 nodes).
    let batch = sizes
        .iter()
        .chain([&start])
        .fold(1u64, |l, &n| l / gcd(l, u64::from(n)) * u64::from(n));
    if 512 % batch != 0 {
        browser
            .type_into("#workloads-0-global_batch", &batch.to_string())
            .await;
    }
    // Past what 64-port switches reach in three tiers (65,536 endpoints), the compute fabric
    // is InfiniBand XDR on 144-port Quantum-X800 switches, as the engine's benchmark of
    // 100,000 GPUs is.
    if start > 8192 {
        browser.click("#step-fabrics").await;
        browser.select("#fabrics-0-technology", "ib_xdr").await;
        browser.select("#fabrics-0-switch", "q3400").await;
    }
    browser.click("#step-cluster").await;
    browser
        .type_into("#cluster-nodes", &start.to_string())
        .await;
    // Editing the batch: the cluster at the first size, the changes to the global batch.
    let (input, observed, values) = if batch_edits {
        let nodes = sizes[0];
        browser
            .type_into("#cluster-nodes", &nodes.to_string())
            .await;
        browser.click("#step-workloads").await;
        let values: Vec<u32> = [2, 4, 6, 8].iter().map(|k| k * nodes).collect();
        (
            "#workloads-0-global_batch",
            vec!["#headline-slowdown"],
            values,
        )
    } else {
        (
            "#cluster-nodes",
            vec!["#headline-switches", "#headline-cost"],
            sizes.clone(),
        )
    };
    let mut timeouts = browser.client.get_timeouts().await.expect("timeouts");
    timeouts.set_script(Some(std::time::Duration::from_secs(600)));
    browser
        .client
        .update_timeouts(timeouts)
        .await
        .expect("the script timeout can be raised");
    let outcome = browser
        .client
        .execute_async(
            SCRIPT,
            vec![
                serde_json::json!(changes),
                serde_json::json!(values),
                serde_json::json!(settle_ms),
                serde_json::json!(input),
                serde_json::json!(observed),
                serde_json::json!(typed),
                serde_json::json!(KEYSTROKE_MS),
            ],
        )
        .await
        .expect("the measurement script runs");
    if let Some(error) = outcome.get("error") {
        panic!("{error}");
    }
    let mut times: Vec<f64> = serde_json::from_value(outcome["times"].clone()).unwrap();
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    let change = if typed {
        format!("the last keystroke of a node count typed a digit at a time ({input})")
    } else {
        format!("an input change ({input})")
    };
    println!(
        "recompute after {change}, 3-workload design of {sizes:?} nodes, {} changes: median {:.2} ms, p95 {:.2} ms, max {:.2} ms",
        times.len(),
        at(0.5),
        at(0.95),
        at(1.0)
    );
    print_median_and_max(
        &outcome["drawn"],
        "the dashboard drawn from the server's blocks, from its answer to the page's last change",
        "redraws",
    );
    print_median_and_max(
        &outcome["blocked"],
        "the main thread in long tasks from each change to the next",
        "changes",
    );
    browser.close().await;
}

/// Prints the median and the largest of the times (ms) in `times`, if there are any.
fn print_median_and_max(times: &serde_json::Value, what: &str, each: &str) {
    let mut times: Vec<f64> = serde_json::from_value(times.clone()).unwrap_or_default();
    times.sort_by(f64::total_cmp);
    if let (Some(median), Some(max)) = (times.get(times.len() / 2), times.last()) {
        println!(
            "{what}, {} {each}: median {median:.1} ms, max {max:.1} ms",
            times.len()
        );
    }
}
