//! What the HTTP tests share: a real server on a temporary SQLite file, and requests to it.
#![allow(dead_code)]

use app::store::{Database, Store};
use serde_json::{json, Value};
use server::command::cli::ServeConfig;
use server::command::serve::{start, Running};
use std::path::{Path, PathBuf};
use tokio::sync::oneshot;

pub struct TestServer {
    pub base: String,
    pub client: reqwest::Client,
    running: Running,
    stop: oneshot::Sender<()>,
}

impl TestServer {
    pub async fn start(database: &Path) -> TestServer {
        TestServer::start_limited(database, 60, 20).await
    }

    pub async fn start_limited(
        database: &Path,
        writes_per_minute: u32,
        write_burst: u32,
    ) -> TestServer {
        let database = Database::SqliteFile(database.to_path_buf());
        TestServer::start_on(database, writes_per_minute, write_burst).await
    }

    pub async fn start_on(
        database: Database,
        writes_per_minute: u32,
        write_burst: u32,
    ) -> TestServer {
        let mut config = ServeConfig::new("127.0.0.1:0".parse().unwrap(), database);
        config.writes_per_minute = writes_per_minute;
        config.write_burst = write_burst;
        // Tests that read many reports do not meet the costly-read limit unless they set it.
        config.reads_per_minute = 0;
        TestServer::start_with(config).await
    }

    /// A server with `config`, stopped by [`TestServer::stop`].
    pub async fn start_with(config: ServeConfig) -> TestServer {
        let (stop, stopped) = oneshot::channel::<()>();
        let running = start(&config, async {
            let _ = stopped.await;
        })
        .await
        .expect("the server starts");
        TestServer {
            base: format!("http://{}", running.addr),
            client: reqwest::Client::new(),
            running,
            stop,
        }
    }

    pub async fn stop(self) {
        let _ = self.stop.send(());
        self.running.done.await.unwrap().unwrap();
    }

    /// `spec` created as a new design through the JSON API.
    pub async fn create_by_api(&self, spec: &Value) -> reqwest::Response {
        self.client
            .post(format!("{}/api/designs", self.base))
            .json(&json!({ "spec": spec }))
            .send()
            .await
            .unwrap()
    }

    /// The id of `spec` created through the JSON API, which must take it.
    pub async fn created_id(&self, spec: &Value) -> String {
        let created = self.create_by_api(spec).await;
        assert_eq!(created.status(), 201, "{}", created.text().await.unwrap());
        created.json::<Value>().await.unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string()
    }

    pub async fn save(&self, spec: &Value) -> reqwest::Response {
        self.client
            .post(format!("{}/fn/save_design", self.base))
            .json(&json!({ "spec": spec }))
            .send()
            .await
            .unwrap()
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .unwrap()
    }
}

/// Cables of every fabric of a report (its JSON), as the sizing counts them.
pub fn cables_of(report: &Value) -> u64 {
    report["fabrics"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["cables"].as_array().unwrap())
        .map(|c| c["count"].as_u64().unwrap())
        .sum()
}

pub fn temp_database() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("designs.db");
    (dir, path)
}

pub fn seventy_b_on_256_gpus() -> Value {
    json!({
        "schema_version": 1,
        "title": "70B on 32 nodes",
        "training": {
            "parameters": 70e9,
            "precision": "fp16",
            "gpus": 256,
            "gpus_per_node": 8,
            "link_gbps": 400
        }
    })
}

/// The text inside the element with id `id` (up to its first child tag).
pub fn text_of<'a>(html: &'a str, id: &str) -> &'a str {
    let at = html
        .find(&format!(r#"id="{id}""#))
        .unwrap_or_else(|| panic!("the page has #{id}"));
    let start = at + html[at..].find('>').unwrap() + 1;
    let end = start + html[start..].find('<').unwrap();
    &html[start..end]
}

/// The saved page shows the data-parallel bytes per GPU of 70B FP16 on 256 GPUs:
/// 2 × 255/256 × 140 GB, as the engine formats it.
pub fn shows_bytes_per_step_of_256_gpus(html: &str) -> bool {
    text_of(html, "w0-bytes-per-step") == "279 GB"
}

/// The dashboard is in the server's HTML: every chart as SVG (or, for a study whose answer
/// does not move, in words), the topology diagram and the bill of materials.
pub fn assert_dashboard_is_complete(html: &str) {
    for chart in [
        "chart-headroom-",
        "chart-technologies",
        "chart-scaling",
        "chart-degraded",
        "chart-oversubscription",
    ] {
        let at = html
            .find(&format!(r#"id="{chart}"#))
            .unwrap_or_else(|| panic!("the page has {chart}"));
        let tag_start = html[..at].rfind('<').unwrap();
        let tag_end = at + html[at..].find('>').unwrap() + 1;
        let in_words = html[tag_start..tag_end].contains(r#"class="chart-in-words""#);
        assert!(
            html[tag_end..].starts_with("<svg") || (in_words && !html[tag_end..].starts_with('<')),
            "{chart} is drawn as SVG, or said in words"
        );
    }
    assert!(html.contains(r#"class="topology""#), "a topology diagram");
    assert!(html.contains(r#"id="bom-"#), "a bill of materials");
    assert!(
        html.contains(r#"id="operations""#) && html.contains("Monitoring: link health"),
        "the operating guidance"
    );
    assert!(
        html.contains(r#"id="assumptions""#),
        "the assumptions and sources"
    );
}

pub async fn stored_designs(database: &Path) -> i64 {
    let store = Store::open(database).await.unwrap();
    let count = store.design_count().await.unwrap();
    store.close().await;
    count
}

/// A design created through the planner's server function: its id, edit key, and the cookie
/// the response gave the browser (`name=value`).
pub struct Created {
    pub id: String,
    pub key: String,
    pub cookie: String,
}

impl TestServer {
    pub async fn create(&self, spec: &Value) -> Created {
        let response = self.save(spec).await;
        assert_eq!(response.status(), 200);
        let cookie = response
            .headers()
            .get("set-cookie")
            .expect("the save gives the browser its key")
            .to_str()
            .unwrap()
            .split(';')
            .next()
            .unwrap()
            .to_string();
        let saved: Value = response.json().await.unwrap();
        Created {
            id: saved["id"].as_str().unwrap().to_string(),
            key: saved["edit_key"].as_str().unwrap().to_string(),
            cookie,
        }
    }

    /// Saves a revision of design `id` through the planner's server function, sending `cookie`.
    pub async fn save_revision(
        &self,
        id: &str,
        spec: &Value,
        cookie: Option<&str>,
    ) -> reqwest::Response {
        self.save_noted_revision(id, spec, "revised", cookie).await
    }

    pub async fn save_noted_revision(
        &self,
        id: &str,
        spec: &Value,
        note: &str,
        cookie: Option<&str>,
    ) -> reqwest::Response {
        let mut request = self
            .client
            .post(format!("{}/fn/save_revision", self.base))
            .json(&json!({ "id": id, "spec": spec, "note": note }));
        if let Some(cookie) = cookie {
            request = request.header("cookie", cookie);
        }
        request.send().await.unwrap()
    }

    pub async fn get_with_cookie(&self, path: &str, cookie: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{path}", self.base))
            .header("cookie", cookie)
            .send()
            .await
            .unwrap()
    }

    pub async fn page(&self, path: &str) -> (u16, String) {
        let response = self.get(path).await;
        (response.status().as_u16(), response.text().await.unwrap())
    }
}

/// Number of stored revisions of all designs.
pub async fn stored_revisions(database: &Path) -> i64 {
    let store = Store::open(database).await.unwrap();
    let count = store.revision_count().await.unwrap();
    store.close().await;
    count
}
