//! Saved designs over HTTP: ownership by edit key, revisions and their pages, my designs,
//! compare, import and export, the stale-engine notice, and migrating an older database.

use crate::common::*;
use serde_json::{json, Value};
use app::wire::answer::FromAnswer;

fn retitled(title: &str) -> Value {
    let mut spec = seventy_b_on_256_gpus();
    spec["title"] = json!(title);
    spec
}

fn with_gpus(gpus: u32) -> Value {
    let mut spec = seventy_b_on_256_gpus();
    spec["training"]["gpus"] = json!(gpus);
    spec
}

#[tokio::test]
async fn only_the_browser_holding_the_edit_key_saves_revisions_and_a_refusal_writes_nothing() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let design = server.create(&seventy_b_on_256_gpus()).await;
    assert!(design.cookie.starts_with(&format!("fpk_{}=", design.id)));

    // Without a key, or with another design's key: 403.
    let response = server
        .save_revision(&design.id, &with_gpus(512), None)
        .await;
    assert_eq!(response.status(), 403);
    assert!(response.text().await.unwrap().contains("forbidden"));
    let other = server.create(&retitled("Other")).await;
    let forged = format!("fpk_{}={}", design.id, other.key);
    let response = server
        .save_revision(&design.id, &with_gpus(512), Some(&forged))
        .await;
    assert_eq!(response.status(), 403);
    // The other design's own cookie does not open this one either.
    let response = server
        .save_revision(&design.id, &with_gpus(512), Some(&other.cookie))
        .await;
    assert_eq!(response.status(), 403);
    // An unknown design: 404.
    let response = server
        .save_revision(
            "aaaaaaaaaaaaaaaaaaaaaaaa",
            &with_gpus(512),
            Some(&design.cookie),
        )
        .await;
    assert_eq!(response.status(), 404);
    // An invalid spec with the right key: 422 naming the field.
    let response = server
        .save_revision(&design.id, &with_gpus(0), Some(&design.cookie))
        .await;
    assert_eq!(response.status(), 422);
    assert!(response.text().await.unwrap().contains("training.gpus"));
    assert_eq!(stored_revisions(&database).await, 2);

    // With the key: revision 2.
    let response = server
        .save_revision(&design.id, &with_gpus(512), Some(&design.cookie))
        .await;
    assert_eq!(response.status(), 200);
    let saved: Value = response.json().await.unwrap();
    assert_eq!(saved["revision"], 2);
    assert!(
        saved["edit_key"].is_null(),
        "the key is returned only at creation"
    );
    server.stop().await;
    assert_eq!(stored_revisions(&database).await, 3);
}

#[tokio::test]
async fn the_share_link_shows_the_latest_revision_with_its_history_and_each_revision_keeps_its_own_page(
) {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let design = server.create(&seventy_b_on_256_gpus()).await;
    let first = server.page(&format!("/d/{}", design.id)).await;
    let response = server
        .save_revision(&design.id, &with_gpus(512), Some(&design.cookie))
        .await;
    assert_eq!(response.status(), 200);

    let (status, latest) = server.page(&format!("/d/{}", design.id)).await;
    assert_eq!(status, 200);
    assert!(latest.contains("Revision 2 of 2"), "the newest revision");
    assert!(latest.contains("64 nodes × 8 GPUs"), "the revised cluster");
    let history = &latest[latest.find(r#"id="revisions""#).unwrap()..];
    assert!(history.contains(&format!(r#"href="/d/{}/r/1""#, design.id)));
    assert!(history.contains(&format!(r#"href="/d/{}/r/2""#, design.id)));
    assert!(history.contains("revised"), "the note of revision 2");

    let (status, one) = server.page(&format!("/d/{}/r/1", design.id)).await;
    assert_eq!(status, 200);
    assert!(one.contains("Revision 1 of 2") && one.contains("32 nodes × 8 GPUs"));
    assert!(one.contains(r#"id="newer-revision""#));
    assert!(shows_bytes_per_step_of_256_gpus(&one));
    // What revision 1 showed before the save is what it shows now, apart from the history.
    assert!(first.1.contains("Revision 1 of 1"));
    assert_eq!(server.page(&format!("/d/{}/r/3", design.id)).await.0, 404);
    assert_eq!(server.page(&format!("/d/{}/r/0", design.id)).await.0, 404);
    assert_eq!(server.page(&format!("/d/{}/r/x", design.id)).await.0, 404);
    server.stop().await;
}

#[tokio::test]
async fn the_edit_link_asks_then_gives_a_browser_the_key_and_a_wrong_one_is_refused() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let design = server.create(&seventy_b_on_256_gpus()).await;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    // Opening the edit link asks first; the confirmation posts the key.
    let link = format!("{}/d/{}/claim?key={}", server.base, design.id, design.key);
    let asked = client.get(&link).send().await.unwrap();
    assert_eq!(asked.status(), 200);
    assert!(asked.headers().get("set-cookie").is_none());
    let claim = |key: String| {
        let url = format!("{}/d/{}/claim", server.base, design.id);
        let client = client.clone();
        async move { client.post(url).form(&[("key", key)]).send().await.unwrap() }
    };
    let response = claim(design.key.clone()).await;
    assert_eq!(response.status(), 303);
    assert_eq!(
        response.headers()["location"],
        format!("/d/{}/edit", design.id)
    );
    let cookie = response.headers()["set-cookie"].to_str().unwrap();
    assert!(cookie.starts_with(&design.cookie) && cookie.contains("HttpOnly"));
    let wrong = claim("a".repeat(32)).await;
    assert_eq!(wrong.status(), 403);
    assert!(wrong.headers().get("set-cookie").is_none());

    // The editor opens for the key holder; others are told to duplicate instead.
    let response = server
        .get_with_cookie(&format!("/d/{}/edit", design.id), &design.cookie)
        .await;
    assert_eq!(response.status(), 200);
    let html = response.text().await.unwrap();
    assert!(html.contains(r#"id="cluster-nodes""#) && html.contains("Save a new revision"));
    let (status, html) = server.page(&format!("/d/{}/edit", design.id)).await;
    assert_eq!(status, 403);
    assert!(html.contains(r#"id="duplicate-instead""#));
    let (status, html) = server
        .page(&format!("/d/{}/duplicate?revision=1", design.id))
        .await;
    assert_eq!(status, 200);
    assert!(html.contains("70B on 32 nodes (copy)"));
    assert_eq!(server.page("/d/aaaaaaaaaaaaaaaaaaaaaaaa/edit").await.0, 404);
    assert_eq!(
        server.page("/d/aaaaaaaaaaaaaaaaaaaaaaaa/duplicate").await.0,
        404
    );
    server.stop().await;
}

#[tokio::test]
async fn my_designs_lists_the_designs_whose_keys_the_browser_holds_searched_and_sorted() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let mut cookies = vec![];
    for title in ["Alpha pod", "Beta pod", "Gamma cluster"] {
        cookies.push(server.create(&retitled(title)).await.cookie);
        // Saves a few milliseconds apart, so that "newest first" has one answer.
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    let stranger = server.create(&retitled("Someone else's pod")).await;
    // A key for a design that does not exist, and a forged key for a real one, are ignored.
    cookies.push("fpk_aaaaaaaaaaaaaaaaaaaaaaaa=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb".into());
    cookies.push(format!("fpk_{}={}", stranger.id, "c".repeat(32)));
    let jar = cookies.join("; ");
    let list = |query: &'static str| {
        let jar = jar.clone();
        let server = &server;
        async move {
            let response = server
                .get_with_cookie(&format!("/designs{query}"), &jar)
                .await;
            assert_eq!(response.status(), 200);
            response.text().await.unwrap()
        }
    };
    let order = |html: &str| -> Vec<usize> {
        ["Alpha pod", "Beta pod", "Gamma cluster", "Someone else"]
            .iter()
            .filter_map(|t| html.find(t))
            .collect()
    };
    let newest = list("").await;
    let at = order(&newest);
    assert_eq!(at.len(), 3, "exactly the three owned designs");
    assert!(at[2] < at[1] && at[1] < at[0], "newest first");
    let oldest = list("?sort=oldest").await;
    let at = order(&oldest);
    assert!(at[0] < at[1] && at[1] < at[2], "oldest first");
    let pods = list("?q=POD").await;
    assert!(pods.contains("Alpha pod") && pods.contains("Beta pod"));
    assert!(!pods.contains("Gamma cluster") && !pods.contains("Someone else"));
    let none = list("?q=zzz").await;
    assert!(none.contains(r#"id="no-designs""#));
    let (status, empty) = server.page("/designs").await;
    assert_eq!(status, 200);
    assert!(empty.contains("holds no edit keys"));
    server.stop().await;
}

#[tokio::test]
async fn compare_highlights_the_inputs_that_differ_and_shows_both_outputs_and_headroom_charts() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let design = server.create(&seventy_b_on_256_gpus()).await;
    server
        .save_revision(&design.id, &with_gpus(512), Some(&design.cookie))
        .await;
    let id = &design.id;
    let (status, html) = server
        .page(&format!(
            "/compare?a={id}/r/1&b=http://example.org/d/{id}/r/2"
        ))
        .await;
    assert_eq!(status, 200);
    assert!(html.contains("inputs differ:") || html.contains("input differs:"));
    // The inputs that differ come first, by the form's labels, with nothing the same among them.
    let differing = &html[html.find(r#"id="compare-inputs""#).unwrap()..];
    let differing = &differing[..differing.find("</table>").unwrap()];
    assert!(
        differing.contains(
            r#"<tr class="differs"><th scope="row">Nodes</th><td>32</td><td>64</td></tr>"#
        ),
        "{differing}"
    );
    assert!(!differing.contains("Design title"), "the title is the same");
    let same = &html[html.find(r#"id="compare-same""#).unwrap()..];
    assert!(same.contains(r#"<th scope="row">Design title</th>"#));
    assert!(!html.contains("cluster.nodes") && !html.contains("<code>"));
    let outputs = &html[html.find(r#"id="compare-outputs""#).unwrap()..];
    assert!(outputs.contains("Switches"));
    assert_eq!(
        html.matches("<svg").count(),
        2,
        "one headroom chart per side"
    );
    // The bill to order, A to B: twice the nodes orders more, and the spreadsheet of the lines
    // that differ adds up to the difference of the two headline costs.
    let bill = &html[html.find(r#"id="bill-difference""#).unwrap()..];
    assert!(bill.contains("Ordering B instead of A costs "), "{bill}");
    assert!(
        bill[..bill.find("</p>").unwrap()].contains(" more "),
        "{bill}"
    );
    let anchor = r#"id="compare-bill-csv" href=""#;
    let link = &html[html.find(anchor).unwrap() + anchor.len()..];
    let link = link[..link.find('"').unwrap()].replace("&amp;", "&");
    let response = server.get(&link).await;
    assert_eq!(response.status(), 200, "{link}");
    let csv = response.text().await.unwrap();
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    assert_eq!(
        reader.headers().unwrap(),
        vec![
            "fabric",
            "item",
            "model",
            "change",
            "quantity_before",
            "quantity_after",
            "cost_delta_usd",
            "power_delta_w"
        ]
    );
    let delta: f64 = reader
        .records()
        .map(|r| r.unwrap()[6].parse::<f64>().unwrap())
        .sum();
    let cost = |spec: Value| {
        let spec = engine::DesignSpec::from_value(spec).unwrap();
        engine::evaluate(&spec)
            .unwrap()
            .network()
            .cost_usd
            .dollars()
    };
    let headline = cost(with_gpus(512)) - cost(seventy_b_on_256_gpus());
    assert!(
        (delta - headline).abs() < 0.05,
        "{delta} against {headline}"
    );
    assert_eq!(
        server.get("/compare/bill.csv?a=nonsense&b=").await.status(),
        404
    );
    let (status, html) = server.page("/compare?a=nonsense&b=").await;
    assert_eq!(status, 404);
    assert!(html.contains("Design A: no design or revision"));
    assert_eq!(server.page("/compare").await.0, 200);
    server.stop().await;
}

#[tokio::test]
async fn import_reports_every_error_with_its_path_and_stores_a_valid_spec_as_a_new_design() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let import = |spec: String| {
        let server = &server;
        async move {
            let response = server
                .client
                .post(format!("{}/import", server.base))
                .form(&[("spec", spec.as_str()), ("note", "imported")])
                .send()
                .await
                .unwrap();
            let cookie = response
                .headers()
                .get("set-cookie")
                .map(|c| c.to_str().unwrap().to_string());
            (
                response.status().as_u16(),
                cookie,
                response.text().await.unwrap(),
            )
        }
    };
    let mut bad = seventy_b_on_256_gpus();
    bad["training"]["gpus"] = json!(0);
    bad["training"]["link_gbps"] = json!(0);
    let (status, cookie, html) = import(bad.to_string()).await;
    assert_eq!(status, 422);
    assert!(cookie.is_none());
    assert!(
        html.contains("training.gpus") && html.contains("training.link_gbps"),
        "{html}"
    );
    assert!(html.contains("2 errors"));
    let (status, _, html) = import("{ not json".into()).await;
    assert_eq!(status, 422);
    assert!(html.contains("not valid JSON"));
    assert_eq!(stored_designs(&database).await, 0);

    // A spec exported from a revision imports back to the same spec.
    let design = server.create(&seventy_b_on_256_gpus()).await;
    let exported = server.get(&format!("/d/{}/r/1/spec.json", design.id)).await;
    assert!(exported.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .contains("70b-on-32-nodes-r1.spec.json"));
    let exported = exported.text().await.unwrap();
    let (status, cookie, html) = import(exported.clone()).await;
    assert_eq!(status, 201);
    assert!(cookie.unwrap().contains("HttpOnly"));
    assert!(html.contains(r#"id="edit-link""#) && html.contains("/claim?key="));
    let share = text_of(&html, "share-link").to_string();
    let id = share.trim_start_matches("/d/");
    let again = server
        .get(&format!("/d/{id}/r/1/spec.json"))
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(again, exported);
    let report: engine::Report = server
        .get(&format!("/d/{id}/r/1/report.json"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(report.engine_version, engine::ENGINE_VERSION);
    server.stop().await;
}

#[tokio::test]
async fn a_revision_computed_by_an_older_engine_says_so_and_shows_both_sets_of_numbers() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let design = server.create(&seventy_b_on_256_gpus()).await;
    let fresh = server.page(&format!("/d/{}", design.id)).await.1;
    assert!(!fresh.contains(r#"id="stale-engine""#));
    server.stop().await;

    // As if an older engine had saved it: another version, and another slowdown.
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", database.display()))
        .await
        .unwrap();
    let report_json: String =
        sqlx::query_scalar("SELECT report_json FROM revisions WHERE design_id = ?")
            .bind(&design.id)
            .fetch_one(&pool)
            .await
            .unwrap();
    let mut report: Value = serde_json::from_str(&report_json).unwrap();
    report["engine_version"] = json!("0.0.1");
    report["headline"]["switches"] = json!(999);
    sqlx::query(
        "UPDATE revisions SET engine_version = '0.0.1', report_json = ? WHERE design_id = ?",
    )
    .bind(report.to_string())
    .bind(&design.id)
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;

    let server = TestServer::start(&database).await;
    let (status, html) = server.page(&format!("/d/{}", design.id)).await;
    assert_eq!(status, 200);
    let notice = &html[html.find(r#"id="stale-engine""#).expect("the notice")..];
    assert!(notice.contains("engine 0.0.1") && notice.contains(engine::ENGINE_VERSION));
    let today = engine::evaluate(&engine::DesignSpec::from_value(seventy_b_on_256_gpus()).unwrap())
        .unwrap();
    let row = &notice[notice.find("Switches").unwrap()..];
    assert!(
        row.contains(r#"<td class="num">999</td>"#),
        "the saved figure"
    );
    assert!(
        row.contains(&format!(
            r#"<td class="num">{}</td>"#,
            today.headline.switches
        )),
        "today's"
    );
    // The report is today's too, every part of it, with the saved figures beside.
    let (status, report) = server.page(&format!("/d/{}/r/1/report", design.id)).await;
    assert_eq!(status, 200);
    assert!(report.contains("computed every figure; engine 0.0.1 saved this revision"));
    let saved = &report[report
        .find(r#"id="stale-figures""#)
        .expect("the saved figures")..];
    let row = &saved[saved.find("Switches").unwrap()..];
    assert!(
        row.contains(r#"<td class="num">999</td>"#),
        "the saved figure"
    );
    server.stop().await;
}

#[tokio::test]
async fn migrations_keep_the_designs_of_a_database_filled_by_the_first_schema() {
    let (_dir, database) = temp_database();
    // The first schema, filled as its server filled it.
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}?mode=rwc", database.display()))
        .await
        .unwrap();
    let migrator = sqlx::migrate::Migrator::new(std::path::Path::new("../migrations"))
        .await
        .unwrap();
    let first = migrator.iter().next().unwrap();
    sqlx::raw_sql(&first.sql).execute(&pool).await.unwrap();
    sqlx::query("CREATE TABLE _sqlx_migrations (version BIGINT PRIMARY KEY, description TEXT NOT NULL, installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, success BOOLEAN NOT NULL, checksum BLOB NOT NULL, execution_time BIGINT NOT NULL)")
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) VALUES (?, ?, TRUE, ?, 0)")
        .bind(first.version)
        .bind(&*first.description)
        .bind(&*first.checksum)
        .execute(&pool)
        .await
        .unwrap();
    let spec = engine::DesignSpec::from_value(seventy_b_on_256_gpus()).unwrap();
    let report = engine::evaluate(&spec).unwrap();
    let id = "abcdefghijklmnopqrstuvwx";
    sqlx::query("INSERT INTO designs (id, title, created_at_ms) VALUES (?, ?, 1000)")
        .bind(id)
        .bind(&spec.title)
        .execute(&pool)
        .await
        .unwrap();
    for n in 1..=2 {
        sqlx::query("INSERT INTO revisions (design_id, number, schema_version, spec_json, engine_version, report_json, created_at_ms) VALUES (?, ?, 2, ?, ?, ?, ?)")
            .bind(id)
            .bind(n)
            .bind(spec.to_json())
            .bind(engine::ENGINE_VERSION)
            .bind(serde_json::to_string(&report).unwrap())
            .bind(1000 + n)
            .execute(&pool)
            .await
            .unwrap();
    }
    pool.close().await;

    let server = TestServer::start(&database).await;
    let (status, html) = server.page(&format!("/d/{id}")).await;
    assert_eq!(status, 200);
    assert!(
        html.contains("Revision 2 of 2"),
        "latest revision backfilled"
    );
    assert!(shows_bytes_per_step_of_256_gpus(&html));
    assert_eq!(server.page(&format!("/d/{id}/r/1")).await.0, 200);
    // Stored before keys existed: viewable, not editable.
    let response = server.save_revision(id, &with_gpus(512), None).await;
    assert_eq!(response.status(), 403);
    server.stop().await;
    assert_eq!(stored_revisions(&database).await, 2);
    // The history lists each revision's title, taken from its spec as the schema grew one.
    let store = app::store::Store::open(&database).await.unwrap();
    let listed = store
        .revisions(&app::store::DesignId::parse(id).unwrap())
        .await
        .unwrap();
    assert_eq!(listed.len(), 2);
    assert!(listed.iter().all(|r| r.title == spec.title), "{listed:?}");
    store.close().await;
}

/// The planner's start as the page carries it (borsh, in base64, in Leptos's shared-value
/// script), read as the browser reads it.
fn carried_start(page: &str) -> Option<app::pages::PlannerStart> {
    use base64::Engine;
    let bytes = base64::engine::general_purpose::STANDARD_NO_PAD
        .decode(carried_resource(page, 0)?)
        .ok()?;
    borsh::from_slice(&bytes).ok()
}

/// Resource `n` of Leptos's shared-value script as the browser's JavaScript reads it: the text
/// of the string literal the server wrote (Rust's `Debug` form of it).
fn carried_resource(page: &str, n: usize) -> Option<String> {
    let start = format!("__RESOLVED_RESOURCES[{n}] = \"");
    let mut chars = page.split(start.as_str()).nth(1)?.chars();
    let mut text = String::new();
    loop {
        match chars.next()? {
            '"' => return Some(text),
            '\\' => match chars.next()? {
                'n' => text.push('\n'),
                't' => text.push('\t'),
                'r' => text.push('\r'),
                '0' => text.push('\0'),
                'u' => {
                    let hex: String = chars.by_ref().skip(1).take_while(|c| *c != '}').collect();
                    text.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
                }
                escaped => text.push(escaped),
            },
            c => text.push(c),
        }
    }
}

/// Every address of the planner sends the planner on the design it opens, carried in the page
/// for the browser to hydrate from; an address with nothing to open gets a finished page that
/// says why, with its status and no scripts.
#[tokio::test]
async fn every_planner_address_opens_its_design_or_says_why_not() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    for (path, title) in [
        ("/", "Llama 3 70B training on 16 DGX H100"),
        ("/new/blank", "New design"),
        (
            "/new/hybrid",
            "Hybrid: InfiniBand training, 100GbE inference and storage",
        ),
    ] {
        let (status, page) = server.page(path).await;
        assert_eq!(status, 200, "{path}");
        assert!(page.contains(r#"id="cluster-nodes""#), "{path}: the wizard");
        let start =
            carried_start(&page).unwrap_or_else(|| panic!("{path}: the start is in the page"));
        assert_eq!(start.spec.title, title, "{path}");
        assert_eq!(start.editing, None, "{path}: a new design");
        assert_eq!(start.spec.validate(), Ok(()), "{path}");
        // The dashboard the page carries is its blocks as JSON, which the browser's reader
        // reads back as the server assembled them.
        let dashboard = carried_resource(&page, 1).unwrap_or_else(|| panic!("{path}: dashboard"));
        let dashboard: serde_json::Value = serde_json::from_str(&dashboard).unwrap();
        let blocks = Vec::<app::blocks::Block>::from_answer(&dashboard["blocks"])
            .unwrap_or_else(|| panic!("{path}: {dashboard:.80}"));
        assert_eq!(serde_json::to_value(&blocks).unwrap(), dashboard["blocks"], "{path}");
        assert!(
            matches!(&blocks[0], app::blocks::Block::Group { id: Some(id), .. } if id == "totals"),
            "{path}: the totals first"
        );
    }
    let design = server.create(&seventy_b_on_256_gpus()).await;
    for (path, status, says) in [
        (
            "/new/no-such-example".to_string(),
            404,
            "No such starting point",
        ),
        (
            format!("/d/{}/duplicate?revision=9", design.id),
            404,
            "has no revision 9",
        ),
        ("/d/not-an-id/edit".to_string(), 404, "Design not found"),
        ("/no/such/address".to_string(), 404, "Not found"),
    ] {
        let (got, page) = server.page(&path).await;
        assert_eq!(got, status, "{path}");
        assert!(page.contains(says), "{path}: {says}");
        assert!(!page.contains("<script"), "{path}: a finished page");
    }
    server.stop().await;
}

/// The design page says where each workload runs: the hybrid example's training job on nodes
/// 1-32 and its service on the 8 nodes left, placed by the planner, with their racks; a start
/// the design states is said to be the design's.
#[tokio::test]
async fn the_design_page_lists_each_workloads_nodes_and_racks_and_who_placed_them() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let mut spec: Value = serde_json::from_str(engine::examples::HYBRID).unwrap();
    let design = server.create(&spec).await;
    let (status, html) = server.page(&format!("/d/{}", design.id)).await;
    assert_eq!(status, 200);
    let table = &html[html
        .find(r#"id="allocations""#)
        .expect("an allocations table")..];
    let table = &table[..table.find("</table>").unwrap()];
    assert!(table.contains(">nodes 1–32</td>"), "{table}");
    assert!(table.contains(">nodes 33–40</td>"), "{table}");
    assert!(table.contains("by the planner"), "{table}");
    assert!(table.contains("R01-01"), "racks by name: {table}");

    spec["workloads"][1]["first_node"] = json!(1);
    let stated = server.create(&spec).await;
    let (_, html) = server.page(&format!("/d/{}", stated.id)).await;
    let table = &html[html.find(r#"id="allocations""#).unwrap()..];
    let table = &table[..table.find("</table>").unwrap()];
    assert!(table.contains(">nodes 9–40</td>"), "{table}");
    assert!(table.contains("where the design says"), "{table}");
    server.stop().await;
}

/// A design keeps at most `MAX_REVISIONS` revisions and `MAX_RECORDS` baselines: a save or a
/// baseline beyond them is refused with the reason and the way on, and nothing is written.
#[tokio::test]
async fn a_design_at_its_limits_refuses_another_revision_or_baseline_and_writes_nothing() {
    use app::store::{AddOutcome, DesignId, EditKey, NewBaseline, Store, MAX_RECORDS, MAX_REVISIONS};
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let design = server.create(&seventy_b_on_256_gpus()).await;
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", database.display()))
        .await
        .unwrap();
    // The design's history is at the limit (its one stored revision numbered as the last).
    sqlx::query("UPDATE designs SET latest_revision = ?1 WHERE id = ?2")
        .bind(i64::from(MAX_REVISIONS))
        .bind(&design.id)
        .execute(&pool)
        .await
        .unwrap();
    let response = server
        .save_revision(&design.id, &with_gpus(512), Some(&design.cookie))
        .await;
    assert_eq!(response.status(), 403);
    let body = response.text().await.unwrap();
    assert!(
        body.contains(&format!(
            "keeps {} revisions, the most one design may",
            engine::thousands(f64::from(MAX_REVISIONS))
        )) && body.contains("duplicate"),
        "{body}"
    );
    assert_eq!(stored_revisions(&database).await, 1, "nothing was written");
    let latest: i64 = sqlx::query_scalar("SELECT latest_revision FROM designs WHERE id = ?1")
        .bind(&design.id)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(latest, i64::from(MAX_REVISIONS), "the count is not moved");
    // Below the limit the same save is taken.
    sqlx::query("UPDATE designs SET latest_revision = ?1 WHERE id = ?2")
        .bind(i64::from(MAX_REVISIONS - 1))
        .bind(&design.id)
        .execute(&pool)
        .await
        .unwrap();
    let response = server
        .save_revision(&design.id, &with_gpus(512), Some(&design.cookie))
        .await;
    assert_eq!(response.status(), 200, "the last revision a design may keep");
    server.stop().await;

    // Baselines: the design's last one numbered as the last it may keep.
    let store = Store::open(&database).await.unwrap();
    let id = DesignId::parse(&design.id).unwrap();
    let key = EditKey::parse(&design.key).unwrap();
    let baseline = NewBaseline {
        revision: 1,
        fabric: "compute",
        label: "after cabling",
        measured_on: "2026-11-02",
        output: "1048576 262144 float sum -1 71.5 14.66 21.99 0",
        stated: engine::baseline::Stated::default(),
    };
    assert_eq!(store.add_baseline(&id, &key, &baseline).await.unwrap(), AddOutcome::Added(1));
    sqlx::query("UPDATE baselines SET number = ?1 WHERE design_id = ?2")
        .bind(i64::from(MAX_RECORDS))
        .bind(&design.id)
        .execute(&pool)
        .await
        .unwrap();
    assert_eq!(store.add_baseline(&id, &key, &baseline).await.unwrap(), AddOutcome::Full);
    assert_eq!(store.baselines(&id).await.unwrap().len(), 1, "nothing was written");
    store.close().await;
    pool.close().await;
}
