//! The planner wizard, its results and its dashboard in a real headless Chromium against the
//! release server.

use browser_tests::{workspace_root, Browser, JavaScript, Server};
use std::io::Write;

/// The most the planner's bundle weighs, gzip -9, as the release build writes it: its budget,
/// 389 KB (BENCHMARKS.md, "Browser bundle size"), so that a change that brings a large part of
/// a crate into the browser (Unicode's case tables, serde's JSON decoder, a router) fails here
/// rather than ships.
const BUNDLE_CEILING_BYTES: usize = 389_000;

#[test]
fn the_planners_bundle_stays_under_its_ceiling() {
    let path = workspace_root().join("target/site/pkg/fabric-planner.wasm");
    let wasm = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}: run `cargo leptos build --release` first (scripts/test.sh does)",
            path.display()
        )
    });
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gzip.write_all(&wasm).unwrap();
    let weight = gzip.finish().unwrap().len();
    assert!(
        weight <= BUNDLE_CEILING_BYTES,
        "the bundle is {weight} B gzip, over its ceiling of {BUNDLE_CEILING_BYTES} B"
    );
}

/// Seconds from a figure as the engine prints it ("452 ms", "1.20 s", "830 µs").
pub(crate) fn seconds(text: &str) -> f64 {
    let (number, unit) = text
        .trim()
        .split_once(' ')
        .unwrap_or_else(|| panic!("{text:?} is a number and a unit"));
    let number: f64 = number.parse().unwrap_or_else(|_| panic!("{text:?}"));
    let scale = match unit {
        "s" => 1.0,
        "ms" => 1e-3,
        "µs" => 1e-6,
        "ns" => 1e-9,
        "h" => 3600.0,
        other => panic!("{other} is not a unit of time"),
    };
    number * scale
}

/// Removes every workload of the design being edited.
async fn remove_all_workloads(browser: &Browser) {
    while browser.exists("#remove-workload-0").await {
        let before = browser
            .run("return document.querySelectorAll('fieldset.workload').length")
            .await;
        browser.click("#remove-workload-0").await;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while browser
            .run("return document.querySelectorAll('fieldset.workload').length")
            .await
            == before
        {
            assert!(
                std::time::Instant::now() < deadline,
                "the workload was not removed"
            );
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }
}

#[tokio::test]
async fn seventy_b_served_over_four_nodes_at_25gbe_adds_the_articles_latency_and_400g_removes_it() {
    let server = Server::start().await;
    let browser = Browser::start(JavaScript::Enabled).await;
    browser.goto(&server.url("/")).await;
    browser.wait_for_hydration().await;

    // Cluster: 4 DGX H100 nodes.
    browser.type_into("#cluster-nodes", "4").await;

    // Workloads: only Llama 3 70B, tensor parallel over the 4 nodes, 256 tokens in flight.
    browser.click("#step-workloads").await;
    remove_all_workloads(&browser).await;
    browser.click("#add-inference").await;
    browser.wait_for("#workloads-0-tp_nodes", true).await;
    browser
        .select("#workloads-0-model-preset", "llama3-70b")
        .await;
    browser.type_into("#workloads-0-tp_nodes", "4").await;
    browser.type_into("#workloads-0-decode_tokens", "256").await;

    // Fabric: one 25GbE port per node.
    browser.click("#step-fabrics").await;
    browser.select("#fabrics-0-technology", "tcp25").await;
    browser.type_into("#fabrics-0-ports_per_node", "1").await;

    // Seed claim C9: 5-8 ms per layer at 25 Gb/s, 400-640 ms over 80 layers.
    let latency = browser
        .wait_for_text("#headline-latency", |t| {
            t != "—" && (0.400..=0.640).contains(&seconds(t))
        })
        .await;
    let per_layer = browser
        .wait_for_text("#w0-per-layer-time", |t| {
            (0.005..=0.008).contains(&seconds(t))
        })
        .await;
    println!("25GbE: {latency} per token, {per_layer} per layer");

    // At 400 Gb/s the same model adds under 1 ms per layer, under 80 ms per token.
    browser.select("#fabrics-0-technology", "roce400").await;
    let latency = browser
        .wait_for_text("#headline-latency", |t| seconds(t) < 0.080)
        .await;
    let per_layer = browser
        .wait_for_text("#w0-per-layer-time", |t| seconds(t) < 0.001)
        .await;
    println!("400GbE: {latency} per token, {per_layer} per layer");
    browser.close().await;
}

#[tokio::test]
async fn a_training_design_with_storage_changes_its_switch_count_when_the_topology_changes() {
    let server = Server::start().await;
    let browser = Browser::start(JavaScript::Enabled).await;
    browser.goto(&server.url("/")).await;
    browser.wait_for_hydration().await;

    // Training only, on 64 nodes.
    browser.type_into("#cluster-nodes", "64").await;
    browser.click("#step-workloads").await;
    remove_all_workloads(&browser).await;
    browser.click("#add-training").await;
    browser.wait_for("#workload-0", true).await;
    let switches = browser
        .wait_for_text("#headline-switches", |t| t.parse::<u32>().is_ok())
        .await;

    // A storage workload on the storage fabric.
    browser.click("#add-storage").await;
    browser.wait_for("#workload-1", true).await;
    browser
        .wait_for_text("#w1-read-available", |t| t.ends_with("B/s"))
        .await;

    // A 3-tier fat tree for the compute fabric needs more switches than 2 tiers.
    browser.click("#step-fabrics").await;
    browser.select("#fabrics-0-topology", "three_tier").await;
    let three_tier = browser
        .wait_for_text("#headline-switches", |t| t != switches)
        .await;
    let (before, after): (u32, u32) = (switches.parse().unwrap(), three_tier.parse().unwrap());
    assert!(
        after > before,
        "3 tiers: {after} switches, 2 tiers: {before}"
    );
    // The dashboard, drawn on the server, follows.
    browser
        .wait_for_text("#fabric-report-compute .fabric-tiers", |t| t == "3")
        .await;

    // Rail-optimized changes the leaf layer again.
    browser
        .select("#fabrics-0-topology", "rail_optimized")
        .await;
    let rail_optimized = browser
        .wait_for_text("#headline-switches", |t| t != three_tier)
        .await;

    // A node count typed a digit at a time: the results follow every keystroke, the dashboard
    // is asked for once, when the inputs are still, not once for "1", "12" and "128".
    let asked_for_dashboards = "return performance.getEntriesByType('resource')\
        .filter(e => e.name.endsWith('/fn/dashboard')).length";
    browser
        .wait_for_text("#fabric-report-compute .fabric-tiers", |t| t == "2")
        .await;
    let before = browser.run(asked_for_dashboards).await.as_u64().unwrap();
    browser.click("#step-cluster").await;
    browser.type_into("#cluster-nodes", "128").await;
    browser
        .wait_for_text("#headline-switches", |t| t != rail_optimized)
        .await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while browser.run(asked_for_dashboards).await.as_u64().unwrap() == before {
        assert!(
            std::time::Instant::now() < deadline,
            "no dashboard asked for after typing 128"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    let after = browser.run(asked_for_dashboards).await.as_u64().unwrap();
    assert_eq!(after - before, 1, "dashboards asked for while typing 128");
    browser.close().await;
}

/// What the tab of the wizard's step `key` says after its label: "" when nothing.
async fn tab_note(browser: &Browser, key: &str) -> String {
    let content = browser
        .run(&format!(
            "return getComputedStyle(document.querySelector('#step-{key}'), '::after').content"
        ))
        .await;
    let content = content.as_str().unwrap_or_default();
    if content == "none" {
        String::new()
    } else {
        content.trim_matches('"').to_string()
    }
}

/// Waits, for at most 5 s, until the tab of step `key` says `note`.
async fn wait_for_tab_note(browser: &Browser, key: &str, note: &str) {
    for _ in 0..100 {
        if tab_note(browser, key).await == note {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!(
        "the tab of step {key} says {:?}, not {note:?}",
        tab_note(browser, key).await
    );
}

#[tokio::test]
async fn an_invalid_input_shows_the_engines_message_next_to_the_field_and_on_its_steps_tab_and_blocks_saving(
) {
    let server = Server::start().await;
    let browser = Browser::start(JavaScript::Enabled).await;
    browser.goto(&server.url("/")).await;
    browser.wait_for_hydration().await;

    // 48 nodes make the data-parallel degree 48, and the global batch of 512 no multiple of
    // it: the field is on another step, whose tab says so while the user stays on this one.
    browser.type_into("#cluster-nodes", "48").await;
    wait_for_tab_note(&browser, "workloads", " · to fix").await;
    assert_eq!(tab_note(&browser, "cluster").await, "");
    browser.click("#step-workloads").await;
    browser
        .wait_for_text("#workloads-0-global_batch-error", |t| {
            t.contains("not a multiple of dp × micro batch = 48")
        })
        .await;
    // A start past the cluster's last node is refused on its field.
    browser.type_into("#workloads-0-first_node", "49").await;
    browser
        .wait_for_text("#workloads-0-first_node-error", |t| {
            t == "must be a node of the cluster, 1 to 48"
        })
        .await;
    browser.type_into("#workloads-0-first_node", "").await;
    browser.click("#step-cluster").await;

    browser.type_into("#cluster-nodes", "0").await;
    browser
        .wait_for_text("#cluster-nodes-error", |t| t == "must be at least 1")
        .await;
    assert_eq!(
        browser
            .attribute("#cluster-nodes", "aria-invalid")
            .await
            .as_deref(),
        Some("true")
    );
    browser.type_into("#cluster-nodes", "many").await;
    browser
        .wait_for_text("#cluster-nodes-error", |t| t == "must be a number")
        .await;
    wait_for_tab_note(&browser, "cluster", " · to fix").await;
    browser.click("#step-review").await;
    assert_eq!(
        browser.attribute("#save", "disabled").await.as_deref(),
        Some("true")
    );

    // A combination that cannot work is explained, not corrected: tensor parallelism over more
    // nodes than the cluster has.
    browser.click("#step-cluster").await;
    browser.type_into("#cluster-nodes", "2").await;
    browser.click("#step-workloads").await;
    browser.click("#add-inference").await;
    browser.wait_for("#workloads-2-tp_nodes", true).await;
    browser.type_into("#workloads-2-tp_nodes", "4").await;
    let message = browser
        .wait_for_text("#workloads-2-tp_nodes-error", |t| !t.is_empty())
        .await;
    assert!(message.contains("2"), "{message}");
    assert_eq!(
        browser.attribute("#save", "disabled").await.as_deref(),
        Some("true")
    );
    browser.close().await;
}

#[tokio::test]
async fn a_saved_design_reopens_with_the_same_numbers_and_its_dashboard_is_complete_without_javascript(
) {
    let mut server = Server::start().await;
    let browser = Browser::start(JavaScript::Enabled).await;
    browser.goto(&server.url("/")).await;
    browser.wait_for_hydration().await;
    browser.type_into("#title", "Seventy B on 32 nodes").await;
    browser.type_into("#cluster-nodes", "32").await;
    let switches = browser
        .wait_for_text("#headline-switches", |t| t.parse::<u32>().is_ok())
        .await;
    let slowdown = browser.text("#headline-slowdown").await;
    browser.click("#step-review").await;
    browser.click("#save").await;
    let site = server.url("/d/");
    browser
        .wait_for_text("#share-link", |t| t.starts_with(&site))
        .await;
    let share_path = browser
        .attribute("#share-link", "href")
        .await
        .expect("the share link has an href");
    let share_path = share_path.trim_start_matches(&server.url(""));
    browser.close().await;

    // After a restart, in a fresh profile with JavaScript disabled, the link shows the same
    // numbers, every chart as SVG, the topology diagrams and the bill of materials.
    server.restart().await;
    let no_js = Browser::start(JavaScript::Disabled).await;
    no_js.goto(&server.url(share_path)).await;
    assert_eq!(no_js.text("#design-title").await, "Seventy B on 32 nodes");
    assert_eq!(no_js.text("#headline-switches").await, switches);
    assert_eq!(no_js.text("#headline-slowdown").await, slowdown);
    let svgs = no_js
        .run("return ['chart-technologies','chart-scaling','chart-degraded'].map(id => !!document.querySelector('#' + id + ' > svg'))")
        .await;
    assert_eq!(svgs, serde_json::json!([true, true, true]));
    let counts = no_js
        .run("return [document.querySelectorAll('[id^=chart-headroom-] > svg').length, document.querySelectorAll('svg.topology').length, document.querySelectorAll('table[id^=bom-] tbody tr').length]")
        .await;
    let counts: Vec<u64> = serde_json::from_value(counts).unwrap();
    assert_eq!(counts[0], 2, "a headroom chart per fabric");
    assert_eq!(counts[1], 2, "a topology diagram per fabric");
    assert!(counts[2] > 2, "bill of materials rows: {}", counts[2]);
    no_js.close().await;
}

/// Without JavaScript the planner is a page the server wrote: every wizard step is shown, and
/// the results are the server's evaluation of the design it opened on, switches, slowdown and
/// cost per GPU as placed as the engine gives them.
#[tokio::test]
async fn without_javascript_every_wizard_step_shows_with_the_server_s_figures_for_the_design() {
    let server = Server::start().await;
    let browser = Browser::start(JavaScript::Disabled).await;
    browser.goto(&server.url("/new/superpod-4su")).await;
    for step in ["cluster", "workloads", "fabrics", "review"] {
        assert!(browser.exists(&format!("#{step}-step:not(.hidden)")).await);
    }
    let spec = engine::DesignSpec::from_json(engine::examples::SUPERPOD_4SU).unwrap();
    let headline = engine::evaluate(&spec).unwrap().headline;
    assert_eq!(
        browser.text("#headline-switches").await,
        headline.switches.to_string()
    );
    let slowdown = headline
        .worst_training_slowdown
        .expect("the example trains")
        .to_string();
    assert_eq!(browser.text("#headline-slowdown").await, slowdown);
    let cost = browser.text("#headline-cost").await;
    let dollars = (headline.cost_per_gpu_usd.dollars().round() as u64).to_string();
    assert_eq!(
        cost.trim_start_matches('$').replace(',', ""),
        dollars,
        "cost per GPU as placed: {cost}"
    );
    browser.close().await;
}

/// A planner page written by another build than the bundle that loads it (a page kept across a
/// deployment) is not run on a start the bundle would misread: the bundle reads the build the
/// page names first, leaves the page as the server wrote it and asks for a reload.
#[tokio::test]
async fn a_page_from_another_build_asks_for_a_reload_instead_of_running() {
    let server = Server::start().await;
    let browser = Browser::start(JavaScript::Enabled).await;
    browser.goto(&server.url("/")).await;
    browser.wait_for_hydration().await;
    // The same page as another build would write it, written over this one: its build's name
    // changed, its scripts carrying the nonce this document's policy allows.
    let written = browser
        .run(
            r#"
            const nonce = document.querySelector('script[nonce]').nonce;
            return fetch(location.href).then(r => r.text()).then(html => {
                const other = html
                    .replace(/(name="fabric-planner-build" content=")[0-9a-f]+/, '$1another')
                    .replace(/nonce="[^"]*"/g, 'nonce="' + nonce + '"');
                document.open();
                document.write(other);
                document.close();
                return other.includes('content="another"');
            });
            "#,
        )
        .await;
    assert_eq!(written, serde_json::Value::Bool(true));
    let prompt = browser
        .wait_for_text("#reload-prompt", |t| t.contains("reload the page"))
        .await;
    assert!(prompt.contains("was updated"), "{prompt}");
    assert!(
        !browser.exists("#workloads-step.hidden").await,
        "not hydrated: every wizard step shows, as the server wrote it"
    );
    browser.close().await;
}
