//! Hostile input: every user-supplied text is rendered escaped, and every SQL statement binds
//! its parameters, so neither a script nor a statement can be smuggled in.

use crate::common::*;
use serde_json::{json, Value};

/// Payloads that break out of HTML text, attributes, textareas, titles, SVG and templates.
const XSS: [&str; 8] = [
    "<script>alert(1)</script>",
    "\"><img src=x onerror=alert(2)>",
    "'><svg onload=alert(3)>",
    "</textarea><script>alert(4)</script>",
    "</title><script>alert(5)</script>",
    "<a href=\"javascript:alert(6)\">x</a>",
    "]]></text><script>alert(7)</script>",
    "<!--<iframe src=//evil.example>-->",
];

/// Text that would change a statement built by concatenation.
const INJECTION: [&str; 6] = [
    "'; DROP TABLE designs; --",
    "\" OR 1=1 --",
    "x') OR ('1'='1",
    "1; DELETE FROM revisions",
    "%' UNION SELECT edit_key_hash, id, 1, 1, 1 FROM designs --",
    "Robert'); UPDATE designs SET edit_key_hash = NULL; --",
];

/// The first design with `text` as its title and the name of its training workload (a fabric
/// name cannot hold markup: the spec's rule refuses it, `attacks.rs`).
fn spec_with(text: &str) -> Value {
    let mut spec: Value = serde_json::from_str(engine::examples::SEVENTY_B_TRAINING).unwrap();
    spec["title"] = json!(text);
    spec["workloads"][0]["name"] = json!(text);
    spec
}

fn assert_escaped(html: &str, payload: &str, page: &str) {
    assert!(
        !html.contains(payload),
        "{page} carries {payload:?} unescaped"
    );
    for marker in ["alert(", "onerror=", "onload="] {
        for (at, _) in html.match_indices(marker) {
            // Forty bytes either side, cut where a character starts.
            let from = html.floor_char_boundary(at.saturating_sub(40));
            let before = &html[from..at];
            assert!(
                !before.contains('<')
                    || before.contains("&lt;")
                    || before.rfind('<') < before.rfind('>'),
                "{page}: {marker} inside a tag: …{}…",
                &html[from..html.ceil_char_boundary(at + 20)]
            );
        }
    }
}

#[tokio::test]
async fn titles_notes_workload_names_and_imported_specs_are_rendered_escaped_everywhere() {
    let (_dir, database) = temp_database();
    let server = TestServer::start_limited(&database, 0, 0).await;
    let mut jar = vec![];
    for payload in XSS {
        let spec = spec_with(payload);
        let design = server.create(&spec).await;
        let response = server
            .save_noted_revision(&design.id, &spec, payload, Some(&design.cookie))
            .await;
        assert_eq!(response.status(), 200, "{payload}");
        jar.push(design.cookie.clone());
        let id = &design.id;
        // The design's own pages show it; a comparison with the payload for an id finds none.
        for (path, found) in [
            (format!("/d/{id}"), true),
            (format!("/d/{id}/r/1"), true),
            (format!("/d/{id}/r/2"), true),
            (format!("/compare?a={id}/r/1&b={id}/r/2"), true),
            (format!("/compare?a={}&b=", urlencode(payload)), false),
            (format!("/d/{id}/r/2/report"), true),
            (format!("/d/{id}/baselines"), true),
            (format!("/d/{id}/claim?key={}", design.key), true),
        ] {
            let (status, html) = server.page(&path).await;
            if found {
                assert_eq!(status, 200, "{path}");
            } else {
                assert!(status == 404 || status == 400, "{path}: {status}");
            }
            assert_escaped(&html, payload, &path);
            assert!(!html.contains("<script"), "{path} carries no script at all");
        }
        // The spreadsheets read as CSV, with no cell a spreadsheet would run.
        for sheet in ["bom.csv", "cabling.csv"] {
            let response = server.get(&format!("/d/{id}/r/2/{sheet}")).await;
            assert_eq!(response.status(), 200, "{sheet}");
            let text = response.text().await.unwrap();
            let mut reader = csv::Reader::from_reader(text.as_bytes());
            let runs = reader
                .records()
                .map(Result::unwrap)
                .any(|row| row.iter().any(|cell| cell.starts_with(['=', '+', '@'])));
            assert!(!runs, "{sheet}: {text}");
        }
        // The planner pages are hydrated: their own scripts only, the payload escaped.
        for path in [format!("/d/{id}/edit"), format!("/d/{id}/duplicate")] {
            let response = server.get_with_cookie(&path, &design.cookie).await;
            assert_eq!(response.status(), 200, "{path}");
            let html = response.text().await.unwrap();
            assert_escaped(&html, payload, &path);
        }
        // Import: the refused text comes back inside the textarea, escaped.
        let mut refused = spec.clone();
        refused["cluster"]["nodes"] = json!(0);
        let response = server
            .client
            .post(format!("{}/import", server.base))
            .form(&[("spec", refused.to_string()), ("note", payload.to_string())])
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 422);
        assert_escaped(&response.text().await.unwrap(), payload, "/import");
        let response = server
            .client
            .post(format!("{}/import", server.base))
            .form(&[("spec", spec.to_string())])
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 201);
        assert_escaped(
            &response.text().await.unwrap(),
            payload,
            "/import (created)",
        );
    }
    let mine = server
        .get_with_cookie("/designs", &jar.join("; "))
        .await
        .text()
        .await
        .unwrap();
    for payload in XSS {
        assert_escaped(&mine, payload, "/designs");
    }
    let search = server
        .get_with_cookie(
            &format!("/designs?q={}", urlencode(XSS[0])),
            &jar.join("; "),
        )
        .await
        .text()
        .await
        .unwrap();
    assert_escaped(&search, XSS[0], "/designs?q=");
    server.stop().await;
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[tokio::test]
async fn sql_in_titles_notes_ids_keys_and_searches_is_stored_as_text_and_runs_nowhere() {
    let (_dir, database) = temp_database();
    let server = TestServer::start_limited(&database, 0, 0).await;
    let victim = server.create(&seventy_b_on_256_gpus()).await;
    let mut jar = vec![victim.cookie.clone()];
    for payload in INJECTION {
        let mut spec = seventy_b_on_256_gpus();
        spec["title"] = json!(payload);
        let design = server.create(&spec).await;
        let response = server
            .save_noted_revision(&design.id, &spec, payload, Some(&design.cookie))
            .await;
        assert_eq!(response.status(), 200);
        jar.push(design.cookie.clone());
        let revisions: Value = server
            .get(&format!("/api/designs/{}/revisions", design.id))
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(
            revisions["revisions"][0]["title"], payload,
            "stored as text"
        );
        assert_eq!(revisions["revisions"][0]["note"], payload);

        // As an id, a revision number, a key and a search: refused or not found, never run.
        let encoded = urlencode(payload);
        for path in [
            format!("/d/{encoded}"),
            format!("/d/{}/r/{encoded}", victim.id),
            format!("/api/designs/{encoded}"),
            format!("/api/designs/{}/revisions/{encoded}", victim.id),
            format!("/d/{}/claim?key={encoded}", victim.id),
        ] {
            let status = server.get(&path).await.status().as_u16();
            assert!(status == 404 || status == 403, "{path}: {status}");
        }
        let response = server
            .client
            .post(format!(
                "{}/api/designs/{}/revisions",
                server.base, victim.id
            ))
            .header("x-edit-key", payload)
            .header("content-type", "application/json")
            .body(json!({"spec": seventy_b_on_256_gpus()}).to_string())
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 403);
        let forged = format!("fpk_{}={}", victim.id, encoded);
        assert_eq!(
            server
                .save_revision(&victim.id, &seventy_b_on_256_gpus(), Some(&forged))
                .await
                .status(),
            403
        );
        let search = server
            .get_with_cookie(
                &format!("/designs?q={encoded}&sort={encoded}"),
                &jar.join("; "),
            )
            .await;
        assert_eq!(search.status(), 200);
        // The search finds the design titled with the payload, as plain text.
        let html = search.text().await.unwrap();
        assert!(
            html.contains(&format!("href=\"/d/{}\"", design.id)),
            "found by its title"
        );
    }
    // Every table and row is intact, and the victim's key still works.
    server.stop().await;
    assert_eq!(stored_designs(&database).await, 1 + INJECTION.len() as i64);
    assert_eq!(
        stored_revisions(&database).await,
        1 + 2 * INJECTION.len() as i64
    );
    let server = TestServer::start_limited(&database, 0, 0).await;
    let response = server
        .save_revision(&victim.id, &seventy_b_on_256_gpus(), Some(&victim.cookie))
        .await;
    assert_eq!(response.status(), 200);
    let mine = server
        .get_with_cookie("/designs", &jar.join("; "))
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(
        mine.matches("<tr><td><a href=\"/d/").count(),
        1 + INJECTION.len()
    );
    server.stop().await;
}
