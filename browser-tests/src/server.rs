use crate::process::{free_port, wait_for_port, GroupChild};
use crate::{temp_dir, workspace_root};
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The release server binary built by `cargo leptos build --release`, with a SQLite file of
/// its own that outlives restarts of the server.
pub struct Server {
    process: Option<GroupChild>,
    pub port: u16,
    database: PathBuf,
    _dir: tempfile::TempDir,
}

/// A design stored through the API.
pub struct Created {
    pub id: String,
    /// `/d/<id>/claim?key=…`, the link that gives a browser the edit key.
    pub edit_link: String,
}

impl Server {
    pub async fn start() -> Server {
        let dir = temp_dir();
        let database = dir.path().join("designs.db");
        let mut server = Server {
            process: None,
            port: 0,
            database,
            _dir: dir,
        };
        server.launch().await;
        server
    }

    /// Stores `spec` as a new design through the JSON API: its id and its edit link.
    pub async fn create(&self, spec: &serde_json::Value) -> Created {
        let created: serde_json::Value = reqwest::Client::new()
            .post(self.url("/api/designs"))
            .json(&serde_json::json!({ "spec": spec }))
            .send()
            .await
            .expect("the API answers")
            .json()
            .await
            .expect("the API answers JSON");
        let field = |name: &str| {
            created[name]
                .as_str()
                .unwrap_or_else(|| panic!("the design is created: {created}"))
                .to_string()
        };
        Created {
            id: field("id"),
            edit_link: field("edit_link"),
        }
    }

    /// Stores `spec` as a new design and opens its edit link in a new browser, which takes the
    /// key and lands in the planner: the browser and the design's id.
    pub async fn claimed(&self, spec: &serde_json::Value) -> (crate::Browser, String) {
        let created = self.create(spec).await;
        let browser = crate::Browser::start(crate::JavaScript::Enabled).await;
        browser.goto(&self.url(&created.edit_link)).await;
        browser.click("#claim-confirm").await;
        browser.wait_for_hydration().await;
        (browser, created.id)
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// Stops the server and starts it again on the same database (and a new port).
    pub async fn restart(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
        self.launch().await;
    }

    pub fn pid(&self) -> u32 {
        self.process.as_ref().map(GroupChild::pid).unwrap_or(0)
    }

    async fn launch(&mut self) {
        let root = workspace_root();
        let binary = std::env::var_os("FABRIC_PLANNER_BIN")
            .map(PathBuf::from)
            .unwrap_or_else(|| root.join("target/release/fabric-planner"));
        assert!(
            binary.exists() && root.join("target/site/pkg").exists(),
            "the release build is missing ({}): run `cargo leptos build --release` first (scripts/test.sh does)",
            binary.display()
        );
        self.port = free_port();
        let process = GroupChild::spawn(
            Command::new(&binary)
                .arg("serve")
                .arg("--addr")
                .arg(format!("127.0.0.1:{}", self.port))
                .arg("--database")
                .arg(&self.database)
                .arg("--site-root")
                .arg(root.join("target/site"))
                .env("RUST_LOG", "warn")
                .stdout(Stdio::null()),
        )
        .expect("the server binary starts");
        self.process = Some(process);
        wait_for_port(self.port, "the server").await;
    }
}
