use crate::process::{free_port, wait_for_port, GroupChild};
use crate::temp_dir;
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::json;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JavaScript {
    Enabled,
    Disabled,
}

/// When opening a page returns: once it has loaded (WebDriver's default), or at once, so that
/// a page sent as it is made can be watched while it arrives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageLoad {
    Loaded,
    Started,
}

/// Headless Chromium with a fresh profile, driven through its own ChromeDriver.
pub struct Browser {
    pub client: Client,
    driver: GroupChild,
    _profile: tempfile::TempDir,
}

impl Browser {
    pub async fn start(javascript: JavaScript) -> Browser {
        Browser::start_with(javascript, PageLoad::Loaded).await
    }

    pub async fn start_with(javascript: JavaScript, page_load: PageLoad) -> Browser {
        let profile = temp_dir();
        let port = free_port();
        let driver = GroupChild::spawn(
            Command::new("chromedriver")
                .arg(format!("--port={port}"))
                // The marker in an argument lets the test script find strays.
                .arg(format!(
                    "--log-path={}",
                    profile.path().join("chromedriver.log").display()
                ))
                .stdout(Stdio::null())
                .stderr(Stdio::null()),
        )
        .expect("chromedriver starts (scripts/setup.sh --browser installs it)");
        wait_for_port(port, "chromedriver").await;

        let mut options = json!({
            "binary": "/usr/bin/chromium",
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--window-size=1280,900",
                format!("--user-data-dir={}", profile.path().join("chromium").display()),
            ],
        });
        if javascript == JavaScript::Disabled {
            options["prefs"] = json!({ "profile.managed_default_content_settings.javascript": 2 });
        }
        let mut capabilities = serde_json::Map::new();
        capabilities.insert("goog:chromeOptions".to_string(), options);
        if page_load == PageLoad::Started {
            capabilities.insert("pageLoadStrategy".to_string(), json!("none"));
        }
        // Chromium occasionally fails to start when the machine is busy; a second try is a
        // new process, not a masked failure of the page under test.
        let mut attempt = 0;
        let client = loop {
            attempt += 1;
            match ClientBuilder::new(HttpConnector::new())
                .capabilities(capabilities.clone())
                .connect(&format!("http://127.0.0.1:{port}"))
                .await
            {
                Ok(client) => break client,
                Err(e) if attempt < 3 => {
                    eprintln!("Chromium did not start (attempt {attempt}): {e}");
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
                Err(e) => panic!("a Chromium session starts: {e}"),
            }
        };
        Browser {
            client,
            driver,
            _profile: profile,
        }
    }

    pub fn driver_pid(&self) -> u32 {
        self.driver.pid()
    }

    pub async fn goto(&self, url: &str) {
        self.client.goto(url).await.expect("the page opens");
    }

    pub async fn text(&self, css: &str) -> String {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no element {css}: {e}"))
            .text()
            .await
            .expect("the element has text")
    }

    pub async fn attribute(&self, css: &str, name: &str) -> Option<String> {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no element {css}: {e}"))
            .attr(name)
            .await
            .expect("attributes can be read")
    }

    /// Replaces the text of input `css` as a user would: select all, then type.
    pub async fn type_into(&self, css: &str, text: &str) {
        let input = self
            .client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no input {css}: {e}"));
        input.clear().await.expect("the input clears");
        input.send_keys(text).await.expect("the input takes keys");
    }

    pub async fn click(&self, css: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no element {css}: {e}"))
            .click()
            .await
            .expect("the element can be clicked");
    }

    /// Chooses the option with value `value` in the select `css`.
    pub async fn select(&self, css: &str, value: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no select {css}: {e}"))
            .select_by_value(value)
            .await
            .unwrap_or_else(|e| panic!("{css} has no option {value}: {e}"));
    }

    /// Whether an element matches `css`.
    pub async fn exists(&self, css: &str) -> bool {
        self.client.find(Locator::Css(css)).await.is_ok()
    }

    /// Waits until an element matches `css` (or, with `present` false, none does).
    pub async fn wait_for(&self, css: &str, present: bool) {
        let deadline = Instant::now() + Duration::from_secs(15);
        while self.exists(css).await != present {
            assert!(
                Instant::now() < deadline,
                "{css} never {}",
                if present { "appeared" } else { "went away" }
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits until the page has hydrated: the wizard then shows one step at a time, so the
    /// second step is hidden (without JavaScript every step shows).
    pub async fn wait_for_hydration(&self) {
        self.wait_for("#workloads-step.hidden", true).await;
    }

    /// Runs `script` in the page and returns what it returns.
    pub async fn run(&self, script: &str) -> serde_json::Value {
        self.client
            .execute(script, vec![])
            .await
            .expect("the script runs")
    }

    /// Waits until the text of `css` satisfies `condition`; returns it.
    pub async fn wait_for_text(&self, css: &str, condition: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            if let Ok(element) = self.client.find(Locator::Css(css)).await {
                if let Ok(text) = element.text().await {
                    if condition(&text) {
                        return text;
                    }
                }
            }
            assert!(
                Instant::now() < deadline,
                "{css} never showed the expected text"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Types `text` into `input` until `output` changes from what it showed before: typing
    /// before the page has hydrated changes nothing, so this also waits for hydration, by
    /// behaviour rather than by a sleep. Returns the new output and the time it took.
    pub async fn type_until_output_changes(
        &self,
        input: &str,
        text: &str,
        output: &str,
    ) -> (String, Duration) {
        let started = Instant::now();
        let before = self.text(output).await;
        let deadline = started + Duration::from_secs(20);
        loop {
            self.type_into(input, text).await;
            let attempt = Instant::now();
            while attempt.elapsed() < Duration::from_millis(300) {
                let now = self.text(output).await;
                if now != before {
                    return (now, started.elapsed());
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            assert!(
                Instant::now() < deadline,
                "{output} never changed after typing into {input}: the page did not hydrate"
            );
        }
    }

    pub async fn close(self) {
        let Browser {
            client,
            driver,
            _profile,
        } = self;
        let _ = client.close().await;
        drop(driver);
    }
}

/// Prints `url` to a PDF at `out` with headless Chromium's own print (`--print-to-pdf`), as a
/// reader printing the page would; the process group is killed if it outlives `timeout`.
pub async fn print_to_pdf(url: &str, out: &std::path::Path, timeout: Duration) {
    let profile = temp_dir();
    let mut chromium = GroupChild::spawn(
        Command::new("/usr/bin/chromium")
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-pdf-header-footer",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg(format!("--print-to-pdf={}", out.display()))
            .arg(url)
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
    )
    .expect("chromium starts (scripts/setup.sh --browser installs it)");
    let deadline = Instant::now() + timeout;
    loop {
        if let Ok(Some(status)) = chromium.child.try_wait() {
            assert!(
                status.success(),
                "chromium --print-to-pdf exited with {status}"
            );
            break;
        }
        assert!(
            Instant::now() < deadline,
            "chromium did not print {url} in {timeout:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(out.exists(), "chromium wrote {}", out.display());
}
