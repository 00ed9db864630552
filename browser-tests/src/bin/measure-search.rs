//! Measures the search page in headless Chromium as a user sees it: from opening a search's
//! address to the first line of progress on the screen, the longest wait between two lines
//! of progress (or the last one and the answer), and the answer itself. The page is watched
//! while it arrives (WebDriver returns as soon as the page starts, and the test reads the
//! page every few milliseconds). The page runs no script, so nothing on it can block input.
//!
//! `cargo run -p browser-tests --release --bin measure-search [RUNS]` (default 10) after
//! `cargo leptos build --release`.

use browser_tests::{Browser, JavaScript, PageLoad, Server};
use std::time::{Duration, Instant};

/// What the page shows now: the last progress line, and whether the answer has come.
const LOOK: &str = r#"
const lines = document.querySelectorAll('#search-progress p');
return [lines.length ? lines[lines.length - 1].textContent : null,
        document.querySelector('#search-summary') !== null];
"#;

/// One search as seen: seconds to the first progress line, the longest gap, and to the answer.
struct Seen {
    first_progress: f64,
    longest_gap: f64,
    answer: f64,
    lines: usize,
}

async fn watch(browser: &Browser, url: &str) -> Seen {
    browser.goto("about:blank").await;
    let start = Instant::now();
    browser.goto(url).await;
    let (mut last_line, mut last_at, mut first, mut gap, mut lines) =
        (None::<String>, 0.0_f64, None, 0.0_f64, 0);
    loop {
        let seen = browser.run(LOOK).await;
        let now = start.elapsed().as_secs_f64();
        let line = seen[0].as_str().map(str::to_string);
        if line.is_some() && line != last_line {
            first.get_or_insert(now);
            if lines > 0 {
                gap = gap.max(now - last_at);
            }
            (last_line, last_at, lines) = (line, now, lines + 1);
        }
        if seen[1].as_bool() == Some(true) {
            return Seen {
                first_progress: first.unwrap_or(now),
                longest_gap: gap.max(now - last_at),
                answer: now,
                lines,
            };
        }
        assert!(now < 60.0, "the search answered within a minute");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

#[tokio::main]
async fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(10);
    let server = Server::start().await;
    let browser = Browser::start_with(JavaScript::Enabled, PageLoad::Started).await;
    let every = "tech-ib_ndr=on&tech-ib_xdr=on&tech-roce100=on&tech-roce200=on&tech-roce400=on&tech-roce800=on&tech-tcp25=on&tech-tcp100=on&every-switch=on";
    let wider = "fabrics-as-designed=on&fabrics-shared=on&fabrics-separate=on&leaf-oversubscription=1,1.5,2,3&nics=1,2,4,8";
    let searches = [
        (
            "the seed's 70B training design, 5 % slowdown, every technology and switch",
            engine::examples::SEVENTY_B_TRAINING,
            "",
        ),
        (
            "the hybrid design, 5 % slowdown, every technology and switch",
            engine::examples::HYBRID,
            "",
        ),
        (
            "the hybrid design, also shared or separate fabrics, 4 leaf oversubscriptions and 4 NIC counts (100,000 of 12.5 million candidates)",
            engine::examples::HYBRID,
            wider,
        ),
    ];
    for (what, example, more) in searches {
        let spec: serde_json::Value = serde_json::from_str(example).unwrap();
        let design = server.create(&spec).await;
        let url = server.url(&format!(
            "/d/{}/r/1/search?run=1&slowdown=5&{every}&{more}",
            design.id
        ));
        let seen: Vec<Seen> = {
            let mut seen = Vec::new();
            for _ in 0..runs {
                seen.push(watch(&browser, &url).await);
            }
            seen
        };
        println!(
            "{what}, {runs} runs (medians): first progress line {:.0} ms, longest wait between lines {:.0} ms (worst {:.0} ms), answer {:.0} ms, {} progress lines",
            median(seen.iter().map(|s| s.first_progress * 1e3).collect()),
            median(seen.iter().map(|s| s.longest_gap * 1e3).collect()),
            seen.iter().map(|s| s.longest_gap * 1e3).fold(0.0, f64::max),
            median(seen.iter().map(|s| s.answer * 1e3).collect()),
            median(seen.iter().map(|s| s.lines as f64).collect()),
        );
    }
    browser.close().await;
}
