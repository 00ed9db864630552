//! Screenshots of every wizard step and of a saved design, at 1280 and 768 px wide, for looking
//! at the pages as a user sees them: `cargo run -p browser-tests --release --bin screenshots DIR`
//! after `cargo leptos build --release`.

use browser_tests::{Browser, JavaScript, Server};
use std::path::PathBuf;

#[tokio::main]
async fn main() {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "screenshots".into()),
    );
    std::fs::create_dir_all(&dir).expect("the folder can be created");
    let server = Server::start().await;
    let browser = Browser::start(JavaScript::Enabled).await;
    let mut saved = None;
    for width in [1280u32, 768] {
        browser
            .client
            .set_window_size(width, 2600)
            .await
            .expect("the window resizes");
        browser.goto(&server.url("/")).await;
        browser.wait_for_hydration().await;
        for step in [
            "cluster",
            "workloads",
            "fabrics",
            "floor",
            "costs",
            "review",
        ] {
            browser.click(&format!("#step-{step}")).await;
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
            let png = browser.client.screenshot().await.expect("a screenshot");
            std::fs::write(dir.join(format!("{step}-{width}.png")), png).unwrap();
        }
        if saved.is_none() {
            browser.click("#save").await;
            let site = server.url("");
            let link = browser
                .wait_for_text("#share-link", |t| t.starts_with(&site))
                .await;
            saved = Some(link.trim_start_matches(&site).to_string());
            let png = browser.client.screenshot().await.expect("a screenshot");
            std::fs::write(dir.join(format!("after-saving-{width}.png")), png).unwrap();
        }
        let link = saved.clone().unwrap();
        browser.goto(&server.url(&link)).await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let png = browser.client.screenshot().await.expect("a screenshot");
        std::fs::write(dir.join(format!("saved-{width}.png")), png).unwrap();
    }
    browser.close().await;
    println!("screenshots in {}", dir.display());
}
