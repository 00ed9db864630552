//! What a new user meets in the first hour, in a real headless Chromium against the release
//! server: the site's header, starting points, the saved design's own address, stale results
//! marked as such, messages in the form's words, keyboard focus, and baselines whose log lists
//! a single rank.

use browser_tests::{Browser, JavaScript, Server};
use serde_json::json;

/// Visible text of the page (what a reader sees, not attributes or option values).
async fn visible_text(browser: &Browser) -> String {
    browser
        .run("return document.body.innerText")
        .await
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Visible text outside code and configuration snippets (`<pre>`, `<code>`), which quote files
/// as they are written.
async fn visible_prose(browser: &Browser) -> String {
    browser
        .run("const copy = document.body.cloneNode(true); copy.querySelectorAll('pre, code, script, style').forEach(e => e.remove()); document.body.after(copy); const text = copy.innerText; copy.remove(); return text")
        .await
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Words that belong to the JSON, never to the screen: catalog keys, technology keys and
/// field paths.
fn internal_words() -> Vec<String> {
    use engine::catalog::{GPUS, MODEL_PRESETS, NODE_PRESETS, SWITCHES};
    let mut words: Vec<String> = Vec::new();
    words.extend(SWITCHES.iter().map(|s| s.key.to_string()));
    words.extend(GPUS.iter().map(|g| g.key.to_string()));
    words.extend(NODE_PRESETS.iter().map(|n| n.key.to_string()));
    words.extend(MODEL_PRESETS.iter().map(|m| m.key.to_string()));
    words.extend(engine::Technology::ALL.iter().map(|t| {
        serde_json::to_value(t)
            .unwrap()
            .as_str()
            .unwrap()
            .to_string()
    }));
    words.extend(
        [
            "cluster.",
            "workloads[",
            "fabrics[",
            "calibration.",
            "seed C",
            "decode_collective",
            "route_cables",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    words
}

fn assert_speaks_the_forms_words(page: &str, text: &str) {
    for word in internal_words() {
        // A key is internal as a whole word: "h100-sxm" is, "H100 SXM" is not.
        let found = text.match_indices(&word).any(|(at, _)| {
            let before = text[..at].chars().next_back();
            let after = text[at + word.len()..].chars().next();
            let joined = |c: Option<char>| {
                c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            };
            !joined(before) && (!joined(after) || word.ends_with(['.', '[', ' ']))
        });
        assert!(!found, "{page} shows the internal word {word:?}");
    }
    // A finding's rule id ("[roce-lossless]") stays in the JSON too.
    for (at, _) in text.match_indices('[') {
        let inside: String = text[at + 1..].chars().take_while(|c| *c != ']').collect();
        let rule_like =
            inside.contains('-') && inside.chars().all(|c| c.is_ascii_lowercase() || c == '-');
        assert!(!rule_like, "{page} shows the rule id [{inside}]");
    }
}

/// Prose names nothing from the code (`snake_case`), but what a reader types or reads on a
/// host: commands (nccl-tests' all_reduce_perf, perftest's ib_write_bw) and adapter names
/// (mlx5_0).
fn assert_names_nothing_from_the_code(page: &str, prose: &str) {
    // Words as written: a file's path (en/port_buffer.c) is one word, and no identifier.
    let mut found: Vec<&str> = prose
        .split(|c: char| c.is_whitespace() || "()[]{},;:\"'“”‘’=".contains(c))
        .map(|word| word.trim_end_matches(['.', '…', '?', '!']))
        .filter(|word| {
            word.contains('_')
                && word.starts_with(|c: char| c.is_ascii_lowercase())
                && word
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        })
        .filter(|word| {
            !(word.ends_with("_perf") || word.starts_with("ib_") || word.starts_with("mlx5_"))
        })
        .collect();
    found.sort_unstable();
    found.dedup();
    assert!(found.is_empty(), "{page} shows the identifiers {found:?}");
}

#[tokio::test]
async fn every_page_links_the_site_and_a_new_design_starts_blank_or_from_any_example() {
    let server = Server::start().await;
    let browser = Browser::start(JavaScript::Enabled).await;
    browser.goto(&server.url("/designs")).await;
    for (id, href) in [
        ("nav-new", "/"),
        ("nav-designs", "/designs"),
        ("nav-import", "/import"),
        ("nav-compare", "/compare"),
    ] {
        assert_eq!(
            browser
                .attribute(&format!("#{id}"), "href")
                .await
                .as_deref(),
            Some(href)
        );
    }
    browser.click("#nav-new").await;
    browser.wait_for_hydration().await;
    // The header is also on the planner, with a skip link to the content first.
    assert!(browser.exists("#nav-compare").await);
    assert_eq!(
        browser.attribute(".skip-link", "href").await.as_deref(),
        Some("#content")
    );
    browser.click("#start-blank").await;
    browser.wait_for_hydration().await;
    let title = browser
        .run("return document.querySelector('#title').value")
        .await;
    assert_eq!(title, json!("New design"));
    browser.click("#step-workloads").await;
    assert!(
        !browser.exists("fieldset.workload").await,
        "a blank design has no workloads"
    );

    browser.goto(&server.url("/new/hybrid")).await;
    browser.wait_for_hydration().await;
    let title = browser
        .run("return document.querySelector('#title').value")
        .await;
    assert!(title.as_str().unwrap().starts_with("Hybrid"), "{title}");
    browser.close().await;
}

#[tokio::test]
async fn after_saving_the_address_is_the_designs_own_links_are_absolute_and_a_reload_reopens_it() {
    let server = Server::start().await;
    let browser = Browser::start(JavaScript::Enabled).await;
    browser.goto(&server.url("/")).await;
    browser.wait_for_hydration().await;
    browser.type_into("#title", "Pod for the first hour").await;
    browser.click("#step-review").await;
    browser.click("#save").await;
    let share = browser
        .wait_for_text("#share-link", |t| t.starts_with("http://"))
        .await;
    assert!(share.starts_with(&server.url("/d/")), "{share}");
    let edit = browser.text("#edit-link").await;
    assert!(
        edit.starts_with("http://") && edit.contains("/claim?key="),
        "{edit}"
    );
    assert!(browser.exists("#edit-link-copy").await, "a copy button");
    assert!(browser.exists("#share-link-copy").await);
    let id = share.rsplit('/').next().unwrap().to_string();
    let path = browser.run("return location.pathname").await;
    assert_eq!(path, json!(format!("/d/{id}/edit")));

    // A reload opens the saved design, said to be edited, not the sample.
    browser.run("location.reload(); return null").await;
    browser.wait_for_hydration().await;
    let heading = browser
        .wait_for_text("#wizard-heading", |t| t.starts_with("Editing"))
        .await;
    assert_eq!(heading, "Editing Pod for the first hour, revision 1");
    browser.close().await;
}

#[tokio::test]
async fn an_invalid_input_marks_the_results_stale_and_names_the_field_by_its_label() {
    let server = Server::start().await;
    let browser = Browser::start(JavaScript::Enabled).await;
    browser.goto(&server.url("/")).await;
    browser.wait_for_hydration().await;
    assert!(!browser.exists("#stale-note").await);
    browser.type_into("#cluster-nodes", "0").await;
    browser.wait_for("#stale-note", true).await;
    let problems = browser
        .wait_for_text("#invalid-design", |t| t.contains("Nodes"))
        .await;
    assert!(problems.contains("Nodes: must be at least 1"), "{problems}");
    assert!(!problems.contains("cluster."), "{problems}");
    // -4 and 0 say the same thing.
    browser.type_into("#cluster-nodes", "-4").await;
    browser
        .wait_for_text("#cluster-nodes-error", |t| t == "must be at least 1")
        .await;
    browser.type_into("#cluster-nodes", "32").await;
    browser.wait_for("#stale-note", false).await;
    browser.close().await;
}

#[tokio::test]
async fn next_moves_keyboard_focus_to_the_new_steps_heading() {
    let server = Server::start().await;
    let browser = Browser::start(JavaScript::Enabled).await;
    browser.goto(&server.url("/")).await;
    browser.wait_for_hydration().await;
    browser.click("#cluster-step button.next").await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        let focused = browser.run("return document.activeElement.id").await;
        if focused == json!("workloads-heading") {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "focus is on {focused}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    // Every "How" names its figure for a screen reader.
    let names = browser
        .run("return [...document.querySelectorAll('summary')].map(s => s.textContent)")
        .await;
    let names: Vec<String> = serde_json::from_value(names).unwrap();
    let mut distinct = names.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), names.len(), "{names:?}");
    browser.close().await;
}

#[tokio::test]
async fn no_field_path_catalog_key_or_code_name_shows_on_the_planner_design_report_search_or_compare_pages(
) {
    let server = Server::start().await;
    let planner = Browser::start(JavaScript::Enabled).await;
    let reader = Browser::start(JavaScript::Disabled).await;
    let mut previous: Option<String> = None;
    for (file, text) in engine::examples::ALL {
        let slug = file.trim_end_matches(".json");
        planner.goto(&server.url(&format!("/new/{slug}"))).await;
        planner.wait_for_hydration().await;
        planner.wait_for(".dashboard-host", true).await;
        let page = format!("the planner on {slug}");
        assert_speaks_the_forms_words(&page, &visible_text(&planner).await);
        assert_names_nothing_from_the_code(&page, &visible_prose(&planner).await);

        let spec: serde_json::Value = serde_json::from_str(text).unwrap();
        let title = spec["title"].as_str().unwrap().to_string();
        let id = server.create(&spec).await.id;
        let mut pages = vec![
            format!("/d/{id}"),
            format!("/d/{id}/r/1/report"),
            format!("/d/{id}/r/1/search?run=1&slowdown=5&latency=50&tech-ib_ndr=on&tech-roce400=on&tech-tcp100=on"),
        ];
        // Each example against the one before it, on the compare page.
        if let Some(before) = previous.replace(id.clone()) {
            pages.push(format!("/compare?a={before}&b={id}"));
        }
        for page in pages {
            reader.goto(&server.url(&page)).await;
            let page = format!("{page} of {slug}");
            let shown = visible_text(&reader).await;
            // The page is the design's, not an error page that would name nothing anyway.
            assert!(shown.contains(&title), "{page} shows {title:?}: {shown}");
            assert_speaks_the_forms_words(&page, &shown);
            assert_names_nothing_from_the_code(&page, &visible_prose(&reader).await);
        }
    }
    planner.close().await;
    reader.close().await;
}

/// all_reduce_perf output of 128 ranks whose launcher printed only the first rank line.
/// An all_reduce_perf log over 128 ranks that prints one rank line, its bus bandwidth `scale`
/// times a healthy run's.
fn one_rank_line_log(scale: f64) -> String {
    let mut text = String::from(
        "# Collective test starting: all_reduce_perf\n#  Rank  0 Group  0 Pid 4000 on node00 device  0 [0x18] NVIDIA H100 80GB HBM3\n",
    );
    let factor = 2.0 * 127.0 / 128.0;
    for (size, busbw) in [(16u64 << 20, 180.0), (512 << 20, 320.0), (1 << 30, 340.0)] {
        let busbw = busbw * scale;
        let algbw: f64 = busbw / factor;
        let time = size as f64 / (algbw * 1e9) * 1e6;
        text.push_str(&format!(
            "{size:>12} {:>12} float sum -1 {time:.1} {algbw:.2} {busbw:.2} 0 {time:.1} {algbw:.2} {busbw:.2} 0\n",
            size / 4
        ));
    }
    text
}

#[tokio::test]
/// Two baselines pasted, then fitted and applied as the next revision: the design's
/// calibration says where it came from, and its figures and their intervals move.
async fn baselines_pasted_get_verdicts_and_fitted_become_the_next_revision() {
    let server = Server::start().await;
    let spec = serde_json::from_str(engine::examples::SEVENTY_B_TRAINING).unwrap();
    let (browser, id) = server.claimed(&spec).await;
    browser
        .goto(&server.url(&format!("/d/{id}/baselines")))
        .await;
    browser.type_into("#baseline-label", "one rank line").await;
    browser
        .type_into("#baseline-output", &one_rank_line_log(1.0))
        .await;
    browser.type_into("#baseline-ranks", "128").await;
    browser.type_into("#baseline-nodes", "16").await;
    browser.click("#baseline-submit").await;
    let verdict = browser
        .wait_for_text("#baseline-1-verdict", |t| !t.is_empty())
        .await;
    assert!(verdict.ends_with("as designed"), "{verdict}");
    let page = visible_text(&browser).await;
    assert!(
        page.contains("AllReduce over 128 ranks on 16 nodes"),
        "{page}"
    );
    assert!(
        page.contains("read as the stated 128 ranks"),
        "what it assumed is shown"
    );
    // The chart labels each message size once.
    let labels = browser
        .run("return [...document.querySelectorAll('#baseline-1-chart text')].map(t => t.textContent.trim()).filter(t => /iB$/.test(t))")
        .await;
    let labels: Vec<String> = serde_json::from_value(labels).unwrap();
    let mut distinct = labels.clone();
    distinct.dedup();
    assert_eq!(distinct, labels, "{labels:?}");
    // A second run, a quarter slower, then the fit of both, applied.
    browser.type_into("#baseline-label", "after the move").await;
    browser
        .type_into("#baseline-output", &one_rank_line_log(0.75))
        .await;
    browser.type_into("#baseline-ranks", "128").await;
    browser.type_into("#baseline-nodes", "16").await;
    browser.click("#baseline-submit").await;
    browser
        .wait_for_text("#baseline-2-verdict", |t| !t.is_empty())
        .await;
    browser.goto(&server.url(&format!("/d/{id}"))).await;
    let slowdown_before = browser.text("#headline-slowdown").await;
    // The step time's interval beside it: the published runs' band, until the fit.
    let interval_before = browser.text("#w0-step-time ~ .interval").await;
    assert!(interval_before.contains("% / +"), "{interval_before}");
    assert!(browser
        .text("#calibration-source")
        .await
        .contains("the defaults"));
    browser.click("#design-calibration").await;
    browser.click(".fit-fabric").await;
    let fitted = browser
        .wait_for_text("#fit-quality", |t| !t.is_empty())
        .await;
    assert!(fitted.starts_with("On the "), "{fitted}");
    browser.click("#apply-fit button").await;
    let source = browser
        .wait_for_text("#calibration-source", |t| t.contains("fitted"))
        .await;
    assert!(
        source.contains("to baselines #1, #2 of fabric compute"),
        "{source}"
    );
    assert!(visible_text(&browser).await.contains("Revision 2 of 2"));
    let slowdown_after = browser.text("#headline-slowdown").await;
    assert_ne!(
        slowdown_after, slowdown_before,
        "the fitted calibration moves the figures"
    );
    let interval_after = browser.text("#w0-step-time ~ .interval").await;
    assert_ne!(
        interval_after, interval_before,
        "the interval is now the fit's own worst error"
    );
    browser.close().await;
}

/// Waits until `script` (returning a boolean) is true in the page.
async fn wait_until(browser: &Browser, script: &str, what: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    while browser.run(script).await != json!(true) {
        assert!(std::time::Instant::now() < deadline, "never: {what}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn a_training_job_that_filled_the_cluster_follows_it_to_64_nodes_and_storage_follows_its_batch(
) {
    let server = Server::start().await;
    let browser = Browser::start(JavaScript::Enabled).await;
    browser.goto(&server.url("/")).await;
    browser.wait_for_hydration().await;
    browser.type_into("#cluster-nodes", "64").await;
    browser.click("#step-workloads").await;
    let dp = browser
        .run("return document.querySelector('#workloads-0-parallelism-dp').value")
        .await;
    assert_eq!(dp, json!("64"), "64 nodes × 8 GPUs ÷ TP 8");
    browser
        .wait_for_text("#workload-report-0 h3", |t| {
            t.contains("512 GPUs over 64 nodes")
        })
        .await;
    browser.type_into("#workloads-0-global_batch", "1024").await;
    let samples = browser
        .run("return document.querySelector('#workloads-1-samples_per_step').value")
        .await;
    assert_eq!(samples, json!("1024"));
    browser.close().await;
}

#[tokio::test]
async fn inference_shows_one_figure_per_token_against_its_target_with_the_numbers_worked() {
    let server = Server::start().await;
    let browser = Browser::start(JavaScript::Enabled).await;
    browser
        .goto(&server.url("/new/seventy-b-inference-25g"))
        .await;
    browser.wait_for_hydration().await;
    let headline = browser
        .wait_for_text("#headline-latency", |t| t.ends_with('s'))
        .await;
    let card = browser
        .wait_for_text("#w0-per-token-time", |t| !t.is_empty())
        .await;
    assert_eq!(
        headline, card,
        "the headline and the card show the same figure"
    );
    let verdict = browser.text("#w0-target-itl").await;
    assert!(
        verdict.starts_with(&card) && verdict.ends_with("over"),
        "{verdict}"
    );
    let finding = browser.text("#findings").await;
    assert!(
        finding.contains(&format!("Communication per token is {card}")),
        "{finding}"
    );
    // "How" shows the formula with this design's numbers, ending in the figure itself.
    let worked = browser
        .run("return document.querySelector('#w0-per-token-time').closest('tr').querySelector('.worked').textContent")
        .await;
    let worked = worked.as_str().unwrap_or_default();
    assert!(worked.ends_with(&format!("= {card}")), "{worked}");
    browser.close().await;
}

#[tokio::test]
async fn a_quoted_price_replaces_the_catalogs_in_the_bill_of_materials() {
    let server = Server::start().await;
    let browser = Browser::start(JavaScript::Enabled).await;
    browser.goto(&server.url("/")).await;
    browser.wait_for_hydration().await;
    let cost = browser
        .wait_for_text("#headline-cost", |t| t.starts_with('$'))
        .await;
    browser.click("#step-costs").await;
    let catalog = browser
        .run("return document.querySelector('#quotes tbody th').textContent")
        .await;
    assert!(catalog.as_str().unwrap().contains("QM9700"), "{catalog}");
    browser
        .type_into("#quote-switch-qm9700-unit_price_usd", "20000")
        .await;
    browser.wait_for_text("#headline-cost", |t| t != cost).await;
    wait_until(
        &browser,
        "return [...document.querySelectorAll('table[id^=bom-] tbody th')].some(th => th.textContent.includes('(quoted)'))",
        "the bill of materials marks the quote",
    )
    .await;
    // A quote that is not a number is refused at its input, in words.
    browser
        .type_into("#quote-switch-qm9700-power_w", "lots")
        .await;
    browser
        .wait_for_text("#quote-switch-qm9700-power_w-error", |t| {
            t == "must be a number"
        })
        .await;
    browser.close().await;
}

#[tokio::test]
async fn at_768_pixels_the_key_figures_stay_in_sight_while_typing() {
    let server = Server::start().await;
    let browser = Browser::start(JavaScript::Enabled).await;
    browser.client.set_window_size(768, 900).await.unwrap();
    browser.goto(&server.url("/")).await;
    browser.wait_for_hydration().await;
    browser.type_into("#cluster-nodes", "32").await;
    wait_until(
        &browser,
        "const bar = document.querySelector('#summary-bar'); if (!bar) return false; const r = bar.getBoundingClientRect(); return getComputedStyle(bar).display !== 'none' && r.bottom <= window.innerHeight + 1 && r.top >= 0",
        "the summary bar is on screen",
    )
    .await;
    browser.close().await;
}

#[tokio::test]
async fn an_import_with_two_bad_fields_lists_both_and_an_empty_paste_says_what_to_paste() {
    let server = Server::start().await;
    let browser = Browser::start(JavaScript::Enabled).await;
    browser.goto(&server.url("/import")).await;
    browser.click("#import-submit").await;
    let empty = browser
        .wait_for_text("#import-errors", |t| !t.is_empty())
        .await;
    assert!(
        empty.contains("is empty: paste the JSON of a design spec"),
        "{empty}"
    );
    assert!(!empty.contains("EOF"), "{empty}");

    let mut spec: serde_json::Value =
        serde_json::from_str(engine::examples::SEVENTY_B_TRAINING).unwrap();
    spec["cluster"]["nodes"] = json!(-4);
    spec["cluster"]["gpus_per_node"] = json!("eight");
    browser.type_into("#import-spec", &spec.to_string()).await;
    browser.click("#import-submit").await;
    let errors = browser
        .wait_for_text("#import-errors", |t| t.contains("2 errors"))
        .await;
    assert!(
        errors.contains("cluster.nodes") && errors.contains("cluster.gpus_per_node"),
        "{errors}"
    );
    browser.close().await;
}

#[tokio::test]
async fn the_floor_step_sets_the_rack_budget_and_the_dashboard_names_the_racks_over_it() {
    let server = Server::start().await;
    let browser = Browser::start(JavaScript::Enabled).await;
    browser.goto(&server.url("/")).await;
    browser.wait_for_hydration().await;
    browser.click("#step-floor").await;
    browser.type_into("#floor-rack_power_kw", "15").await;
    // Four DGX H100 of 10.2 kW per rack draw far more than 15 kW: each rack is named.
    wait_until(
        &browser,
        "return [...document.querySelectorAll('.dashboard-host .floor li')].some(li => /Rack R\\d+-\\d+ draws .* over its 15 kW budget/.test(li.textContent))",
        "a rack over its budget is named in the dashboard",
    )
    .await;
    browser.type_into("#floor-rack_power_kw", "0").await;
    browser
        .wait_for_text("#floor-rack_power_kw-error", |t| {
            t.starts_with("must be greater than 0")
        })
        .await;
    browser.close().await;
}

#[tokio::test]
async fn full_activation_recomputation_is_chosen_in_the_form_and_costs_compute() {
    let server = Server::start().await;
    let browser = Browser::start(JavaScript::Enabled).await;
    browser.goto(&server.url("/")).await;
    browser.wait_for_hydration().await;
    let stored = browser
        .wait_for_text("#w0-compute-time", |t| !t.is_empty())
        .await;
    browser.click("#step-workloads").await;
    browser.select("#workloads-0-recompute", "full").await;
    // The forward pass runs again in the backward pass: a third more compute per step than
    // with none recomputed, so more than before and at most a third more.
    let full = browser
        .wait_for_text("#w0-compute-time", |t| t != stored)
        .await;
    let ratio = super::planner::seconds(&full) / super::planner::seconds(&stored);
    assert!(
        ratio > 1.0 && ratio <= 4.0 / 3.0 * 1.01,
        "{stored} → {full}"
    );
    browser.close().await;
}

/// The SuperPOD example's 405B job holds more activations than an H100 has memory: the planner
/// says so as a critical finding, and its button applies what fits (full recomputation); then
/// the finding is gone and the job's form says full.
#[tokio::test]
async fn a_job_that_does_not_fit_its_gpus_memory_is_flagged_and_one_click_makes_it_fit() {
    let server = Server::start().await;
    let browser = Browser::start(JavaScript::Enabled).await;
    browser.goto(&server.url("/new/superpod-4su")).await;
    browser.wait_for_hydration().await;
    browser
        .wait_for_text("#findings", |t| t.contains("does not fit"))
        .await;
    let remedy = browser
        .wait_for_text("#memory-remedies button", |t| !t.is_empty())
        .await;
    assert!(remedy.contains("full recomputation"), "{remedy}");
    browser.click("#memory-remedies button").await;
    wait_until(
        &browser,
        "return !document.querySelector('#memory-remedies') && !document.querySelector('#findings').textContent.includes('does not fit')",
        "the finding goes once applied",
    )
    .await;
    browser.click("#step-workloads").await;
    let recompute = browser
        .run("return document.querySelector('#workloads-0-recompute').value")
        .await;
    assert_eq!(recompute, json!("full"));
    browser.close().await;
}

/// Saves the planner's design from its review step and opens the saved revision's report.
async fn save_and_open_the_report(browser: &Browser, server: &Server) {
    browser.click("#step-review").await;
    browser.click("#save").await;
    let share = browser
        .wait_for_text("#share-link", |t| t.starts_with("http://"))
        .await;
    let id = share.rsplit('/').next().unwrap().to_string();
    browser
        .goto(&server.url(&format!("/d/{id}/r/1/report")))
        .await;
}

/// "What happens if a leaf fails?", asked as a user would: the planner's dashboard on the 70B
/// training example ranks every single failure, the compute leaf among them costing its nodes
/// a rail, not their GPUs; saved, the design's report names the worst failure in its executive
/// summary and keeps the same table.
#[tokio::test]
async fn what_one_failure_takes_away_reads_the_same_from_the_planner_to_the_report() {
    let server = Server::start().await;
    let browser = Browser::start(JavaScript::Enabled).await;
    browser.goto(&server.url("/new/seventy-b-training")).await;
    browser.wait_for_hydration().await;
    browser.wait_for("#failure-domains", true).await;
    let leaf_row = |table: String| {
        table
            .lines()
            .find(|l| l.starts_with("a leaf switch of fabric compute"))
            .map(str::to_string)
            .unwrap_or_else(|| panic!("a compute leaf row in {table}"))
    };
    let planned = leaf_row(browser.text("#failure-domains").await);
    assert!(
        planned.contains("8 0 16") && planned.contains("step time 40.4 s →"),
        "{planned}"
    );
    save_and_open_the_report(&browser, &server).await;
    let summary = browser.text("article.report").await;
    assert!(
        summary.contains("The worst single failure is a leaf switch of fabric storage"),
        "the executive summary names the worst failure"
    );
    assert_eq!(leaf_row(browser.text("#failure-domains").await), planned);
    browser.close().await;
}

/// "We buy two scalable units now and two more later", asked as a user would: the SuperPOD
/// example, grown 2 SU to 4, gets a phase at 3 SU in the cluster step and is bought as needed;
/// the dashboard's phase table then says how many cables in service the step to 3 SU moves (the
/// spines double, so each leaf's uplinks are spread anew), and the saved design's report says
/// it in its executive summary, keeps the same table and lists the moves switch by switch.
#[tokio::test]
async fn a_cluster_grown_in_phases_reads_the_same_from_the_planner_to_the_report() {
    let server = Server::start().await;
    let browser = Browser::start(JavaScript::Enabled).await;
    browser.goto(&server.url("/new/superpod-4su")).await;
    browser.wait_for_hydration().await;
    browser.click("#add-phase").await;
    browser.wait_for("#growth-phases-2-label", true).await;
    browser.select("#growth-policy", "as_needed").await;
    // The dashboard is drawn anew after each change: read it once it shows both.
    browser
        .wait_for_text(".phases", |t| {
            t.contains("Phase 2") && t.contains("buy what each phase needs")
        })
        .await;
    let table = browser.text("#phase-cabling").await;
    let row = table
        .lines()
        .find(|l| l.starts_with("Phase 2"))
        .map(str::to_string)
        .unwrap_or_else(|| panic!("the added phase's row in {table}"));
    let moved: u64 = row
        .split_whitespace()
        .last()
        .and_then(|n| n.replace(',', "").parse().ok())
        .unwrap_or_else(|| panic!("cables moved at the end of {row}"));
    assert!(
        moved >= 256,
        "16 leaves re-spread 16 of their 32 uplinks each: {row}"
    );
    save_and_open_the_report(&browser, &server).await;
    let report = browser.text("article.report").await;
    assert!(
        report.contains(&format!("The step to “Phase 2” moves {moved} cables")),
        "the executive summary names the step and its moves"
    );
    assert_eq!(browser.text("#phase-cabling").await, table);
    // And switch by switch, the cables in service first: the step to Phase 2 hands uplinks of
    // the first spines to the ones it adds.
    let moves = browser.text("#phase-moves-table").await;
    let first = moves
        .lines()
        .find(|l| l.starts_with("Phase 2"))
        .unwrap_or_else(|| panic!("the step's rows in {moves}"));
    assert!(
        first.contains("re-terminate") && first.contains("compute-spine-01"),
        "{first}"
    );
    browser.close().await;
}
