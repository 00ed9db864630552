//! The search page over HTTP: a revision's question as a form in the address, its frontier as
//! a chart and a table, a candidate explained, and a bad number refused by its label.

use crate::common::*;

fn example(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
}

#[tokio::test]
async fn the_search_page_answers_with_a_frontier_and_explains_a_candidate() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let design = server
        .create(&example(engine::examples::SEVENTY_B_INFERENCE_25G))
        .await;
    let base = format!("/d/{}/r/1/search", design.id);
    let (status, form) = server.page(&base).await;
    assert_eq!(status, 200);
    assert!(form.contains(r#"id="search-form""#) && !form.contains(r#"id="frontier""#));

    // 50 ms per token over 4 nodes: no TCP fabric meets it (the seed's argument).
    let question = "run=1&slowdown=5&latency=50&tech-ib_ndr=on&tech-roce400=on&tech-tcp100=on&tech-tcp25=on&every-switch=on";
    let (status, page) = server.page(&format!("{base}?{question}")).await;
    assert_eq!(status, 200);
    assert!(page.contains(r#"id="frontier""#), "a frontier table");
    assert!(
        page.contains(r#"id="chart-frontier""#) && page.contains("<svg"),
        "a frontier chart"
    );
    let table = &page[page.find(r#"id="frontier""#).unwrap()..];
    let table = &table[..table.find("</table>").unwrap()];
    assert!(!table.contains("TCP"), "no TCP fabric is on the frontier");
    assert!(
        !table.contains("sn5600") && !table.contains("qm9700"),
        "switches by name, not key"
    );
    // The first candidate explained, and linked to the planner.
    let first: String = table
        .split(r#"id="candidate-"#)
        .nth(1)
        .unwrap()
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    let (_, explained) = server
        .page(&format!("{base}?{question}&candidate={first}"))
        .await;
    assert!(explained.contains(r#"id="explanation-summary""#));
    assert!(explained.contains("/search/open?run=1&amp;slowdown=5&amp;latency=50"));
    assert!(explained.contains(&format!("&amp;candidate={first}")));

    // The candidate opens in the planner: as the next revision for the key holder, as a new
    // design for anyone else; an address without a candidate says so.
    let open = format!("{base}/open?{question}&candidate={first}");
    let owner = server.get_with_cookie(&open, &design.cookie).await;
    assert_eq!(owner.status(), 200);
    let planner = owner.text().await.unwrap();
    assert!(planner.contains(r#"id="cluster-nodes""#) && planner.contains("Save a new revision"));
    let (status, planner) = server.page(&open).await;
    assert_eq!(status, 200);
    assert!(planner.contains(r#"id="cluster-nodes""#) && !planner.contains("Save a new revision"));
    let (status, refused) = server.page(&format!("{base}/open?{question}")).await;
    assert_eq!(status, 400);
    assert!(refused.contains("The address names no candidate.") && !refused.contains("<script"));

    // A target that is not a number is refused by its label.
    let (status, refused) = server
        .page(&format!("{base}?run=1&slowdown=fast&tech-ib_ndr=on"))
        .await;
    assert_eq!(status, 422);
    assert!(refused.contains("Largest training slowdown"));
    server.stop().await;
}

#[tokio::test]
async fn a_target_nobody_can_meet_is_named_with_the_closest_candidate() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let design = server
        .create(&example(engine::examples::SEVENTY_B_INFERENCE_25G))
        .await;
    // A microsecond per token: no fabric adds that little.
    let (status, page) = server
        .page(&format!(
            "/d/{}/r/1/search?run=1&latency=0.001&tech-ib_ndr=on&tech-tcp25=on",
            design.id
        ))
        .await;
    assert_eq!(status, 200);
    assert!(page.contains(r#"id="no-design""#), "the page says so");
    let said = &page[page.find(r#"id="no-design""#).unwrap()..];
    let said = &said[..said.find("</p>").unwrap()];
    assert!(said.to_lowercase().contains("closest"), "{said}");
    assert!(!page.contains(r#"id="frontier""#));
    server.stop().await;
}

/// The page is sent as the search runs: the form first, in a part of its own, then progress,
/// then the answer; never compressed as a whole (that would hold it back), and marked so that a
/// proxy does not hold it back either.
#[tokio::test]
async fn the_search_page_is_sent_as_the_search_runs_form_then_progress_then_answer() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let design = server.create(&example(engine::examples::HYBRID)).await;
    let question = "run=1&slowdown=5&tech-ib_ndr=on&tech-ib_xdr=on&tech-roce400=on&tech-roce800=on&tech-tcp100=on&every-switch=on";
    let mut response = server
        .client
        .get(format!(
            "{}/d/{}/r/1/search?{question}",
            server.base, design.id
        ))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.headers().get("content-encoding").is_none());
    assert_eq!(response.headers()["x-accel-buffering"], "no");
    assert!(response.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .contains("script-src 'none'"));
    let mut parts = Vec::new();
    while let Some(part) = response.chunk().await.unwrap() {
        parts.push(String::from_utf8(part.to_vec()).unwrap());
    }
    let first = &parts[0];
    assert!(first.contains(r#"id="search-form""#) && first.ends_with(r#"aria-live="polite">"#));
    assert!(
        !first.contains("search-summary"),
        "the form comes before the answer"
    );
    let page = parts.concat();
    let progress = page
        .find("<p class=\"done\">Searched ")
        .expect("the last progress line");
    let answer = page.find(r#"id="search-summary""#).expect("the answer");
    assert!(progress < answer);
    assert!(page.ends_with("</html>"));
    assert_eq!(page.matches("<main").count(), 1);
    server.stop().await;
}

/// "Most GPUs one failure may cut off" holds the search to it: the inference example's fabric
/// is one switch, whose loss cuts every node off, so nothing meets 0 and the page names that
/// check as the one nobody meets; a number that is not one is refused naming the field.
#[tokio::test]
async fn the_search_holds_designs_to_the_gpus_one_failure_may_cut_off() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let design = server
        .create(&example(engine::examples::SEVENTY_B_INFERENCE_400G))
        .await;
    let base = format!("/d/{}/r/1/search", design.id);
    let (status, page) = server
        .page(&format!("{base}?run=1&failure-gpus=0&tech-roce400=on"))
        .await;
    assert_eq!(status, 200);
    let said = &page[page.find(r#"id="no-design""#).expect("nothing meets it")..];
    let said = &said[..said.find("</p>").unwrap()];
    assert!(
        said.contains("GPUs the worst single failure cuts off"),
        "{said}"
    );
    assert!(page.contains(
        r#"id="search-failure-gpus" name="failure-gpus" type="text" inputmode="numeric" value="0""#
    ));
    let (status, refused) = server
        .page(&format!("{base}?run=1&failure-gpus=some&tech-roce400=on"))
        .await;
    assert_eq!(status, 422);
    assert!(refused.contains("Most GPUs one failure may cut off"));
    server.stop().await;
}

/// A design shared by a team offers the tenants' isolation on its search page; a unit of its own
/// strands GPUs, which a limit of none refuses, so the answer keeps its tenants per node.
#[tokio::test]
async fn the_search_page_varies_the_tenants_isolation_and_limits_what_it_strands() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let mut spec = example(engine::examples::SUPERPOD_4SU);
    spec.as_object_mut().unwrap().remove("growth");
    spec["workloads"][0]["parallelism"]["pp"] = 1.into();
    spec["workloads"][0]["parallelism"]["dp"] = 5.into();
    spec["workloads"][0]["global_batch"] = 20.into();
    spec["tenants"] =
        serde_json::json!([{"name": "research", "workloads": ["Llama 3.1 405B pre-training"]}]);
    let design = server.create(&spec).await;
    let base = format!("/d/{}/r/1/search", design.id);
    let (status, form) = server.page(&base).await;
    assert_eq!(status, 200);
    assert!(
        form.contains(r#"id="isolation-scalable_unit""#),
        "the form offers the tenants' isolation"
    );
    let (status, page) = server
        .page(&format!(
            "{base}?run=1&tech-ib_ndr=on&isolation-node=on&isolation-scalable_unit=on&stranded=0"
        ))
        .await;
    assert_eq!(status, 200);
    let said = page.replace("&#x27;", "'").replace("&#39;", "'");
    assert!(
        said.contains("tenants' isolation: per node"),
        "the answer keeps its tenants per node"
    );
    assert!(!said.contains("isolation: per scalable unit"));
    server.stop().await;
}

/// Candidates that differ only in choices that change none of their figures (the
/// oversubscription of a fabric on one switch) make one row of the frontier, which names the
/// others.
#[tokio::test]
async fn frontier_candidates_of_the_same_figures_make_one_row() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let design = server.create(&example(engine::examples::HYBRID)).await;
    let question = "run=1&slowdown=10&latency=50&tech-ib_ndr=on&tech-roce200=on&leaf-oversubscription=1,2&nics=4,8";
    let (status, page) = server
        .page(&format!("/d/{}/r/1/search?{question}", design.id))
        .await;
    assert_eq!(status, 200);
    let table = &page[page.find(r#"id="frontier""#).unwrap()..];
    let table = &table[..table.find("</table>").unwrap()];
    let rows: Vec<&str> = table.split(r#"<tr id="candidate-"#).skip(1).collect();
    // Cost, power, slowdown and latency as shown.
    let figures = |row: &str| -> Vec<String> {
        row.split(r#"<td class="num">"#)
            .skip(2)
            .take(4)
            .map(|cell| cell[..cell.find('<').unwrap()].to_string())
            .collect()
    };
    for (i, row) in rows.iter().enumerate() {
        for other in &rows[i + 1..] {
            assert_ne!(figures(row), figures(other), "two rows of the same figures");
        }
    }
    assert!(
        table.contains("Also candidates ") && table.contains("the same figures"),
        "a row names the candidates of its figures"
    );
    assert!(page.contains("with distinct figures"), "the summary counts them");
    server.stop().await;
}
