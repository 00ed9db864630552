//! Baselines over HTTP: nccl-tests output pasted or uploaded for a saved design is stored with
//! its revision, checked against the design's prediction with a verdict, and charted over
//! time; bad logs get a message naming the line, and nothing stored changes.

use crate::common::*;
use reqwest::multipart::{Form, Part};
use serde_json::Value;

/// The reference design: 16 DGX H100 on an NDR rail-optimised compute fabric (128 GPUs).
fn reference() -> Value {
    serde_json::from_str(engine::examples::SEVENTY_B_TRAINING).unwrap()
}

/// all_reduce_perf output over 128 ranks, both placements, with `busbw_at_1_gib` GB/s of bus
/// bandwidth at 1 GiB and above (less below, as latency costs more).
fn all_reduce_output(busbw_at_1_gib: f64) -> String {
    let mut text = String::from(
        "# nThread 1 nGpus 1 minBytes 1048576 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n\
         # Collective test starting: all_reduce_perf\n#\n# Using devices\n",
    );
    for rank in 0..128 {
        text.push_str(&format!(
            "#  Rank {rank:3} Group  0 Pid {} on node{:02} device  {} [0x18] NVIDIA H100 80GB HBM3\n",
            40000 + rank,
            rank / 8,
            rank % 8
        ));
    }
    text.push_str("#\n#                                                              out-of-place                       in-place\n");
    text.push_str("#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n");
    let factor = 2.0 * 127.0 / 128.0;
    for (size, share) in [
        (1u64 << 20, 0.15),
        (16 << 20, 0.55),
        (256 << 20, 0.9),
        (1 << 30, 1.0),
        (8 << 30, 1.01),
    ] {
        let busbw = busbw_at_1_gib * share;
        let algbw = busbw / factor;
        let time = size as f64 / (algbw * 1e9) * 1e6;
        text.push_str(&format!(
            "{size:>12} {:>13}     float     sum      -1 {time:8.1} {algbw:7.2} {busbw:7.2}      0 {time:8.1} {algbw:7.2} {busbw:7.2}      0\n",
            size / 4
        ));
    }
    text.push_str(&format!(
        "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : {:.4}\n#\n",
        busbw_at_1_gib * 0.7
    ));
    text
}

fn form(label: &str, date: &str, output: &str) -> Form {
    Form::new()
        .text("label", label.to_string())
        .text("measured_on", date.to_string())
        .text("revision", "1")
        .text("fabric", "compute")
        .text("output", output.to_string())
}

async fn post(
    server: &TestServer,
    id: &str,
    cookie: Option<&str>,
    form: Form,
) -> reqwest::Response {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let mut request = client
        .post(format!("{}/d/{id}/baselines", server.base))
        .multipart(form);
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    request.send().await.unwrap()
}

async fn baseline_count(database: &std::path::Path) -> i64 {
    let store = app::store::Store::open(database).await.unwrap();
    let count = store.baseline_count().await.unwrap();
    store.close().await;
    count
}

#[tokio::test]
async fn a_healthy_run_passes_a_degraded_one_is_flagged_and_the_drift_shows_both() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let design = server.create(&reference()).await;

    let response = post(
        &server,
        &design.id,
        Some(&design.cookie),
        form("after cabling", "2026-11-02", &all_reduce_output(340.0)),
    )
    .await;
    assert_eq!(response.status(), 303);
    let location = response.headers()["location"].to_str().unwrap().to_string();
    assert_eq!(location, format!("/d/{}/baselines#baseline-1", design.id));
    // A month later one rail runs at about two thirds of its speed.
    let response = post(
        &server,
        &design.id,
        Some(&design.cookie),
        form(
            "after the rack-3 move",
            "2026-12-01",
            &all_reduce_output(215.0),
        ),
    )
    .await;
    assert_eq!(response.status(), 303);

    let (status, page) = server.page(&format!("/d/{}/baselines", design.id)).await;
    assert_eq!(status, 200);
    let first = text_of(&page, "baseline-1-verdict");
    assert!(
        first.starts_with("at 1 GiB, measured 340.0 GB/s"),
        "{first}"
    );
    assert!(first.ends_with("as designed"), "{first}");
    let second = text_of(&page, "baseline-2-verdict");
    assert!(
        second.starts_with("at 1 GiB, measured 215.0 GB/s"),
        "{second}"
    );
    assert!(second.contains("look for a degraded link"), "{second}");
    assert!(page.contains(r#"class="verdict flagged""#));
    for chart in ["chart-drift", "baseline-1-chart", "baseline-2-chart"] {
        let at = page.find(&format!(r#"id="{chart}""#)).unwrap();
        let tag_end = at + page[at..].find('>').unwrap() + 1;
        assert!(page[tag_end..].starts_with("<svg"), "{chart} is SVG");
    }
    assert!(page.contains("AllReduce over 128 ranks on 16 nodes"));
    // The drift table lists them oldest first.
    let drift = &page[page.find(r#"id="drift""#).unwrap()..];
    assert!(drift.find("2026-11-02").unwrap() < drift.find("2026-12-01").unwrap());
    // The design page links to its baselines.
    let (_, design_page) = server.page(&format!("/d/{}", design.id)).await;
    assert!(design_page.contains(&format!("/d/{}/baselines", design.id)));
    server.stop().await;
    assert_eq!(baseline_count(&database).await, 2);
}

#[tokio::test]
async fn an_uploaded_log_is_read_like_pasted_text_and_output_without_a_header_is_assumed_all_reduce(
) {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let design = server.create(&reference()).await;
    let rows: String = all_reduce_output(330.0)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let upload = form("uploaded", "2026-11-05", "")
        .part("file", Part::bytes(rows.into_bytes()).file_name("nccl.log"));
    let response = post(&server, &design.id, Some(&design.cookie), upload).await;
    assert_eq!(response.status(), 303);
    let (_, page) = server.page(&format!("/d/{}/baselines", design.id)).await;
    assert!(text_of(&page, "baseline-1-verdict").ends_with("as designed"));
    assert!(page.contains("the output names no tool: read as all_reduce_perf"));
    // No rank lines: the bus-to-algorithm bandwidth ratio, 2(n−1)/n, says 128 ranks.
    assert!(page.contains("read as 128 ranks"));
    server.stop().await;
}

#[tokio::test]
async fn bad_logs_and_fields_are_refused_naming_the_line_or_field_and_nothing_is_stored() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let design = server.create(&reference()).await;
    let good = all_reduce_output(340.0);
    let truncated: String = {
        let mut text = good.clone();
        let cut = text.rfind("      0 ").unwrap();
        text.truncate(cut);
        text
    };
    let truncated_line = truncated.lines().count();
    let cases: Vec<(&str, Form, String)> = vec![
        (
            "a truncated row",
            form("x", "2026-11-02", &truncated),
            format!("line {truncated_line}:"),
        ),
        (
            "another tool's output",
            form("x", "2026-11-02", "PING node02 (10.0.0.2) 56(84) bytes of data.\n64 bytes from node02: icmp_seq=1 ttl=64 time=0.045 ms\n"),
            "line 2:".into(),
        ),
        (
            "a log with no result rows",
            form("x", "2026-11-02", "# nccl-tests\n# nothing ran\n"),
            "no result rows".into(),
        ),
        (
            "one enormous line",
            form("x", "2026-11-02", &"9".repeat(100_000)),
            "line 1: is longer than 2000 characters".into(),
        ),
        (
            "megabytes of one line",
            form("x", "2026-11-02", "").part(
                "file",
                Part::bytes(vec![b'7'; 3 << 20]).file_name("huge.log"),
            ),
            "the input is 3145728 bytes; at most 1048576 bytes of nccl-tests output are read".into(),
        ),
        (
            "a binary upload",
            form("x", "2026-11-02", "").part(
                "file",
                Part::bytes(b"# all_reduce_perf\n\x7fELF\x02\x01\x01\xff\xfe\x00".to_vec()).file_name("a.out"),
            ),
            "uploaded file, line 2: is not text".into(),
        ),
        (
            "a run on more ranks than the fabric has GPUs",
            form("x", "2026-11-02", &good.replace("#  Rank   0", "#  Rank 128 Group 0 on node16 device 0\n#  Rank   0")),
            "129 ranks but only 128 GPUs".into(),
        ),
        (
            "a date that is not one",
            form("x", "2026-02-30", &good),
            "measured on: \"2026-02-30\" is not a date".into(),
        ),
        (
            "an unknown fabric",
            form("x", "2026-11-02", &good).text("fabric", "nonexistent"),
            "fabric: revision 1 has no fabric named".into(),
        ),
        (
            "a revision that does not exist",
            form("x", "2026-11-02", &good).text("revision", "7"),
            "revision: the design has revisions 1 to 1, not 7".into(),
        ),
    ];
    for (case, form, expected) in cases {
        let response = post(&server, &design.id, Some(&design.cookie), form).await;
        assert_eq!(response.status(), 422, "{case}");
        let page = response.text().await.unwrap();
        let errors = text_of_list(&page);
        assert!(
            errors.iter().any(|e| e.contains(&expected)),
            "{case}: {errors:?} should say {expected:?}"
        );
        assert!(
            page.contains(r#"id="baseline-output""#),
            "{case}: the form comes back"
        );
    }
    // (A field sent twice counts as its last value, so the fabric and revision cases above
    // really sent the wrong ones.)
    assert_eq!(baseline_count(&database).await, 0);

    // Without the key, or with another design's: 403; an unknown design: 404.
    let response = post(&server, &design.id, None, form("x", "2026-11-02", &good)).await;
    assert_eq!(response.status(), 403);
    let other = server.create(&reference()).await;
    let response = post(
        &server,
        &design.id,
        Some(&other.cookie),
        form("x", "2026-11-02", &good),
    )
    .await;
    assert_eq!(response.status(), 403);
    let response = post(
        &server,
        "aaaaaaaaaaaaaaaaaaaaaaaa",
        Some(&design.cookie),
        form("x", "2026-11-02", &good),
    )
    .await;
    assert_eq!(response.status(), 404);
    let (status, page) = server.page(&format!("/d/{}/baselines", design.id)).await;
    assert_eq!(status, 200);
    assert!(
        page.contains(r#"id="baselines-read-only""#) && !page.contains(r#"id="baseline-output""#)
    );
    let (status, _) = server.page("/d/aaaaaaaaaaaaaaaaaaaaaaaa/baselines").await;
    assert_eq!(status, 404);
    server.stop().await;
    assert_eq!(baseline_count(&database).await, 0);
}

/// The items of the error list of a refused baseline.
fn text_of_list(page: &str) -> Vec<String> {
    let Some(at) = page.find(r#"id="baseline-errors""#) else {
        return vec![];
    };
    let end = at + page[at..].find("</ul>").unwrap();
    page[at..end]
        .split("<li>")
        .skip(1)
        .map(|item| {
            item.split("</li>")
                .next()
                .unwrap_or_default()
                .replace("&quot;", "\"")
                .replace("&#x27;", "'")
        })
        .collect()
}

/// The output with only its first `#  Rank` line, as many launchers print it.
fn with_one_rank_line(output: &str) -> String {
    let mut first = true;
    output
        .lines()
        .filter(|l| {
            let rank = l.starts_with("#  Rank");
            let keep = !rank || first;
            first &= !rank;
            keep
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

#[tokio::test]
async fn a_log_with_one_rank_line_gets_a_verdict_with_the_stated_ranks_and_nodes() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let design = server.create(&reference()).await;
    let output = with_one_rank_line(&all_reduce_output(340.0));
    let stated = form("one rank line", "2026-11-02", &output)
        .text("ranks", "128")
        .text("nodes", "16");
    let response = post(&server, &design.id, Some(&design.cookie), stated).await;
    assert_eq!(response.status(), 303);
    let (_, page) = server.page(&format!("/d/{}/baselines", design.id)).await;
    assert!(page.contains("over 128 ranks on 16 nodes"), "{page}");
    assert!(
        page.contains("the output lists 1 rank line; read as the stated 128 ranks"),
        "the page says what it assumed"
    );
    assert!(page.contains(r#"class="verdict healthy""#), "a verdict");

    // A count that is not one is refused by its field, and nothing is stored.
    let wrong = form("bad", "2026-11-02", &output).text("ranks", "many");
    let response = post(&server, &design.id, Some(&design.cookie), wrong).await;
    assert_eq!(response.status(), 422);
    let page = response.text().await.unwrap();
    assert!(
        page.contains(r#"ranks: "many" is not a whole number"#),
        "{page}"
    );
    assert_eq!(baseline_count(&database).await, 1);
}

/// Two baselines of the compute fabric fitted and applied: the calibration page shows the
/// fitted efficiency against the design's and each workload's time both ways; applying it
/// saves revision 2 with that calibration, which the design page says was fitted to baselines
/// #1 and #2; a browser without the edit key changes nothing.
#[tokio::test]
async fn baselines_fitted_become_the_next_revision_s_calibration() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let design = server.create(&reference()).await;
    for (label, busbw) in [("first", 300.0), ("second", 296.0)] {
        let response = post(
            &server,
            &design.id,
            Some(&design.cookie),
            form(label, "2026-12-01", &all_reduce_output(busbw)),
        )
        .await;
        assert_eq!(response.status(), 303);
    }
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let fit_page = client
        .get(format!(
            "{}/d/{}/calibration?fabric=compute",
            server.base, design.id
        ))
        .header("cookie", &design.cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(fit_page.status(), 200);
    let page = fit_page.text().await.unwrap();
    let table = |id: &str| {
        let at = page.find(&format!(r#"id="{id}""#)).unwrap();
        page[at..at + page[at..].find("</table>").unwrap()].to_string()
    };
    let values = table("fit-values");
    assert!(values.contains("InfiniBand efficiency"), "{values}");
    assert!(values.contains("0.950"), "the design's: {values}");
    assert!(
        page.contains("Fabric compute fitted to baselines #1, #2"),
        "{page}"
    );
    assert!(table("fit-headline").contains("step time"));
    assert!(page.contains("Make it revision 2"));
    // The same fit as JSON, and a fabric the design does not have refused naming the field.
    let api = |fabric: &str| {
        client
            .get(format!(
                "{}/api/designs/{}/calibration?fabric={fabric}",
                server.base, design.id
            ))
            .send()
    };
    let fit: Value = api("compute").await.unwrap().json().await.unwrap();
    assert_eq!(fit["baselines"], serde_json::json!([1, 2]));
    assert_eq!(fit["fit"]["efficiency_field"], "infiniband_efficiency");
    assert_eq!(fit["drift"]["points"].as_array().unwrap().len(), 2);
    let refused = api("nowhere").await.unwrap();
    assert_eq!(refused.status(), 422);
    assert!(refused.text().await.unwrap().contains("fabric"));

    let apply = |cookie: Option<String>| {
        let mut request = client
            .post(format!("{}/d/{}/calibration", server.base, design.id))
            .header("origin", &server.base)
            .form(&[("fabric", "compute")]);
        if let Some(cookie) = cookie {
            request = request.header("cookie", cookie);
        }
        request.send()
    };
    let refused = apply(None).await.unwrap();
    assert_eq!(refused.status(), 403);
    let applied = apply(Some(design.cookie.clone())).await.unwrap();
    assert_eq!(applied.status(), 303);
    assert_eq!(
        applied.headers()["location"].to_str().unwrap(),
        format!("/d/{}", design.id)
    );
    let (status, spec) = server
        .page(&format!("/d/{}/r/2/spec.json", design.id))
        .await;
    assert_eq!(status, 200);
    let spec: Value = serde_json::from_str(&spec).unwrap();
    let calibration = &spec["calibration"];
    assert_eq!(
        calibration["fitted"]["baselines"],
        serde_json::json!([1, 2])
    );
    assert_eq!(calibration["fitted"]["fabric"], "compute");
    let efficiency = calibration["infiniband_efficiency"].as_f64().unwrap();
    assert!(efficiency < 0.95, "{calibration}");
    assert_eq!(
        calibration["fitted"]["efficiency"].as_f64().unwrap(),
        efficiency
    );
    let (_, design_page) = server.page(&format!("/d/{}", design.id)).await;
    let source = text_of(&design_page, "calibration-source");
    assert!(
        source.contains("fitted on") && source.contains("to baselines #1, #2 of fabric compute"),
        "{source}"
    );
    let (_, first) = server.page(&format!("/d/{}/r/1", design.id)).await;
    assert!(text_of(&first, "calibration-source").contains("the defaults"));
    // Over time: two more runs, the newest a third slower than the three before it.
    for (label, date, busbw) in [
        ("third", "2026-12-02", 302.0),
        ("after the move", "2026-12-03", 200.0),
    ] {
        let response = post(
            &server,
            &design.id,
            Some(&design.cookie),
            form(label, date, &all_reduce_output(busbw)),
        )
        .await;
        assert_eq!(response.status(), 303);
    }
    let (status, page) = server
        .page(&format!("/d/{}/calibration?fabric=compute", design.id))
        .await;
    assert_eq!(status, 200);
    let over_time = &page[page.find(r#"id="fit-over-time""#).unwrap()..];
    let rows = ["#1", "#2", "#3", "#4"].map(|n| over_time.find(&format!(">{n}<")).unwrap());
    assert!(rows.windows(2).all(|w| w[0] < w[1]), "oldest first");
    let drift = text_of(&page, "fit-drift");
    assert!(drift.contains("slowed down"), "{drift}");
    server.stop().await;
}
