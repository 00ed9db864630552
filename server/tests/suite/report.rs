//! The design report over HTTP: the print-ready page has every section without scripts, and the
//! PDF typeset by the server holds the title, the headline figures and the bill-of-materials
//! totals as the engine computed them, renders on every page, and keeps answering under load.
//! Reading PDFs needs poppler-utils (`pdftotext`, `pdftoppm`, `pdfinfo`; scripts/setup.sh).

use crate::common::*;
use serde_json::Value;
use std::process::Command;

/// The sections of every report, in order.
const SECTIONS: [&str; 8] = [
    "Executive summary",
    "Cluster and workloads",
    "Fabrics",
    "Workload results",
    "Bandwidth headroom and what-ifs",
    "Storage and checkpoints",
    "Operating the fabric",
    "Assumptions and sources",
];

fn example(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

fn three_tier_superpod() -> Value {
    let mut spec = example(engine::examples::SUPERPOD_4SU);
    spec["fabrics"][0]["topology"] = "three_tier".into();
    spec["title"] = "SuperPOD on a 3-tier fat tree".into();
    spec
}

/// The headline figures and per-fabric BOM totals the engine gives `spec`, as the report
/// prints them.
fn expected_figures(spec: &Value) -> (Vec<String>, Vec<String>) {
    let spec = engine::DesignSpec::from_value(spec.clone()).unwrap();
    let report = engine::evaluate(&spec).unwrap();
    let headline = app::components::headline_figures(&report.headline)
        .into_iter()
        .map(|(_, _, value, _)| value)
        .filter(|v| v != "—")
        .collect();
    let totals = report
        .fabrics
        .iter()
        .map(|f| app::money::usd(f.bom.iter().map(|l| l.total_usd).sum()))
        .collect();
    (headline, totals)
}

async fn pdf_of(server: &TestServer, path: &str) -> Vec<u8> {
    let response = server.get(path).await;
    assert_eq!(response.status(), 200, "{path}");
    assert_eq!(response.headers()["content-type"], "application/pdf");
    response.bytes().await.unwrap().to_vec()
}

fn poppler(tool: &str, args: &[&str]) -> String {
    let output = Command::new(tool)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{tool} runs (poppler-utils, scripts/setup.sh --browser): {e}"));
    assert!(
        output.status.success(),
        "{tool} {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn pages(pdf: &std::path::Path) -> u32 {
    poppler("pdfinfo", &[pdf.to_str().unwrap()])
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .and_then(|n| n.trim().parse().ok())
        .expect("pdfinfo gives the page count")
}

/// Text of the PDF with its words joined by single spaces (pdftotext lays out columns).
fn text(pdf: &std::path::Path) -> String {
    poppler("pdftotext", &[pdf.to_str().unwrap(), "-"])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Renders every page; returns how many images were written.
fn render_pages(pdf: &std::path::Path, dir: &std::path::Path) -> usize {
    let prefix = dir.join("page");
    poppler(
        "pdftoppm",
        &[
            "-r",
            "20",
            "-png",
            pdf.to_str().unwrap(),
            prefix.to_str().unwrap(),
        ],
    );
    std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "png")
        })
        .count()
}

#[tokio::test]
async fn the_report_page_has_every_section_and_the_cover_without_any_script() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let design = server
        .create(&example(engine::examples::SUPERPOD_4SU))
        .await;
    let (status, html) = server.page(&format!("/d/{}/r/1/report", design.id)).await;
    assert_eq!(status, 200);
    assert!(!html.contains("<script"), "a finished document");
    let mut at = 0;
    for section in SECTIONS {
        let found = html[at..]
            .find(&format!(">{section}</h2>"))
            .unwrap_or_else(|| panic!("section {section} in order"));
        at += found;
    }
    for cover in [
        "Revision",
        "1 of 1",
        "Engine",
        &format!("/d/{}/r/1", design.id),
    ] {
        assert!(html.contains(cover), "the cover states {cover}");
    }
    assert!(
        html.contains("id=\"bom-compute\""),
        "the compute fabric's BOM"
    );
    assert!(html.contains("class=\"topology\""), "topology diagrams");
    assert!(
        html.contains(r#"id="validation""#) && html.contains("nccl-tests #212"),
        "the published measurements the engine is checked against"
    );
    assert!(
        html.contains(r#"id="floor-plan""#) && html.contains(r#"id="rack-power""#),
        "the floor: its plan and the racks by power"
    );
    let charts = html.matches("class=\"report-chart\"").count();
    assert!(charts >= 5, "{charts} charts");
    assert!(
        html.contains("PFC") || html.contains("Subnet manager"),
        "operating guidance"
    );
    let (headline, totals) = expected_figures(&example(engine::examples::SUPERPOD_4SU));
    for figure in headline.iter().chain(&totals) {
        assert!(html.contains(figure.as_str()), "the page shows {figure}");
    }
    server.stop().await;
}

#[tokio::test]
async fn the_pdf_holds_the_title_headline_figures_and_bom_totals_and_renders_every_page() {
    let (dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let spec = example(engine::examples::SUPERPOD_4SU);
    let design = server.create(&spec).await;
    let bytes = pdf_of(&server, &format!("/d/{}/r/1/report.pdf", design.id)).await;
    assert!(bytes.starts_with(b"%PDF-"));
    let file = dir.path().join("report.pdf");
    std::fs::write(&file, &bytes).unwrap();
    let words = text(&file);
    assert!(words.contains(spec["title"].as_str().unwrap()), "the title");
    for section in SECTIONS {
        assert!(words.contains(section), "section {section}");
    }
    let (headline, totals) = expected_figures(&spec);
    for figure in headline.iter().chain(&totals) {
        assert!(words.contains(figure.as_str()), "the PDF shows {figure}");
    }
    assert!(words.contains("Page 2 of"), "page numbers");
    assert!(
        bytes.windows(9).any(|w| w == b"/Outlines"),
        "bookmarks from the headings"
    );
    let count = pages(&file);
    assert!(count >= 8, "{count} pages");
    let images = tempfile::tempdir().unwrap();
    assert_eq!(
        render_pages(&file, images.path()),
        count as usize,
        "every page renders"
    );
    // The fonts travel with the file.
    let fonts = poppler("pdffonts", &[file.to_str().unwrap()]);
    assert!(
        fonts.lines().skip(2).all(|l| l.contains(" yes ")),
        "every font embedded:\n{fonts}"
    );
    // Typesetting the same revision again gives the same pages (and on US Letter too).
    let letter = pdf_of(
        &server,
        &format!("/d/{}/r/1/report.pdf?paper=letter", design.id),
    )
    .await;
    let letter_file = dir.path().join("letter.pdf");
    std::fs::write(&letter_file, &letter).unwrap();
    assert!(pages(&letter_file) > 0);
    // The paper asked for: US Letter is 612 × 792 points, A4 595 × 842.
    let size = |pdf: &std::path::Path| {
        poppler("pdfinfo", &[pdf.to_str().unwrap()])
            .lines()
            .find_map(|l| l.strip_prefix("Page size:").map(|s| s.trim().to_string()))
            .expect("pdfinfo gives the page size")
    };
    assert!(size(&letter_file).starts_with("612 x 792"), "{}", size(&letter_file));
    assert!(size(&file).starts_with("595"), "{}", size(&file));
    // Another Host header reaches nothing (it could be another name pointed at this server),
    // and the links come from the public URL, never from the request.
    let elsewhere = server
        .client
        .get(format!("{}/d/{}/r/1/report.pdf", server.base, design.id))
        .header("host", "planner.example")
        .send()
        .await
        .unwrap();
    assert_eq!(elsewhere.status(), 421);
    let cover = text(&file);
    assert!(
        cover.contains(&format!("/d/{}/r/1", design.id)),
        "the share link on the cover"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_three_tier_design_with_many_rows_paginates_into_pages_that_all_render() {
    let (dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let design = server.create(&three_tier_superpod()).await;
    let bytes = pdf_of(&server, &format!("/d/{}/r/1/report.pdf", design.id)).await;
    let file = dir.path().join("three-tier.pdf");
    std::fs::write(&file, &bytes).unwrap();
    let words = text(&file);
    assert!(words.contains("3-tier fat tree"));
    let count = pages(&file);
    // Tens of pages, each numbered of the whole.
    assert!(count >= 20, "{count} pages");
    for n in 2..count {
        assert!(words.contains(&format!("Page {n} of {count}")), "page {n}");
    }
    let images = tempfile::tempdir().unwrap();
    assert_eq!(render_pages(&file, images.path()), count as usize);
    server.stop().await;
}

#[tokio::test]
async fn an_unknown_revision_has_no_report_and_an_unknown_paper_is_refused() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let design = server
        .create(&example(engine::examples::SUPERPOD_4SU))
        .await;
    for path in [
        format!("/d/{}/r/2/report", design.id),
        format!("/d/{}/r/2/report.pdf", design.id),
        "/d/aaaaaaaaaaaaaaaaaaaaaaaa/r/1/report.pdf".to_string(),
    ] {
        assert_eq!(server.get(&path).await.status(), 404, "{path}");
    }
    let response = server
        .get(&format!("/d/{}/r/1/report.pdf?paper=tabloid", design.id))
        .await;
    assert_eq!(response.status(), 400);
    server.stop().await;
}

#[tokio::test]
async fn while_eight_pdfs_are_typeset_the_report_page_and_the_design_page_still_answer() {
    let (_dir, database) = temp_database();
    let server = TestServer::start_limited(&database, 0, 0).await;
    let mut designs = vec![];
    for i in 0..8 {
        let mut spec = example(engine::examples::SUPERPOD_4SU);
        spec["title"] = format!("Pod {i}").into();
        designs.push(server.create(&spec).await.id);
    }
    let typesetting: Vec<_> = designs
        .iter()
        .map(|id| {
            let (client, url) = (
                server.client.clone(),
                format!("{}/d/{id}/r/1/report.pdf", server.base),
            );
            tokio::spawn(async move {
                // A request that times out leaves its PDF being made; asking again gets it.
                for _ in 0..10 {
                    let status = client.get(&url).send().await.unwrap().status();
                    if status != 408 {
                        return status;
                    }
                }
                reqwest::StatusCode::REQUEST_TIMEOUT
            })
        })
        .collect();
    let (status, page) = server.page(&format!("/d/{}/r/1/report", designs[0])).await;
    assert_eq!(status, 200);
    assert!(page.contains("Executive summary"));
    let (status, _) = server.page(&format!("/d/{}", designs[1])).await;
    assert_eq!(status, 200);
    for pdf in typesetting {
        assert_eq!(pdf.await.unwrap(), 200);
    }
    server.stop().await;
}

#[tokio::test]
async fn the_summary_says_what_is_built_what_binds_the_risks_and_the_alternatives_with_their_cost()
{
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let design = server
        .create(&example(engine::examples::SEVENTY_B_INFERENCE_25G))
        .await;
    let (status, page) = server.page(&format!("/d/{}/r/1/report", design.id)).await;
    assert_eq!(status, 200);
    // From the summary's heading to the next section's (the contents list both before).
    let summary =
        &page[page.find(r#"id="summary""#).unwrap()..page.find(r#"id="cluster""#).unwrap()];
    for part in [
        "What is built",
        "What binds",
        "Risks",
        "Alternatives considered",
    ] {
        assert!(summary.contains(part), "the summary has {part}");
    }
    assert!(summary.contains("Fabric "), "a sentence per fabric");
    assert!(summary.contains("The tightest tier is"), "what binds");
    assert!(summary.contains("critical finding"), "the risks counted");
    // The alternatives: each technology with the network's cost and its difference.
    for technology in ["InfiniBand NDR", "400GbE", "25GbE"] {
        assert!(summary.contains(technology), "{technology} is compared");
    }
    assert!(summary.contains("Against this design"));

    // Every short citation of the report leads to its source, listed with its address.
    assert!(page.contains(r#"id="sources""#));
    assert!(page.contains("https://arxiv.org/abs/1909.08053"));
    let (status, sources) = server.page("/sources").await;
    assert_eq!(status, 200);
    for listed in engine::sources::SOURCES {
        assert!(
            sources.contains(listed.url),
            "{} is on /sources",
            listed.cite
        );
    }
    server.stop().await;
}

/// `html` as text: tags kept, the entities Leptos writes turned back into characters.
fn unescaped(html: &str) -> String {
    html.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// `text` without spaces and hyphens, which a PDF's text wraps and breaks lines at.
fn without_spaces(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .collect()
}

#[tokio::test]
async fn every_example_shows_the_same_numbers_on_the_dashboard_the_report_page_and_the_pdf() {
    let (dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    for (name, text) in engine::examples::ALL {
        let spec = example(text);
        let design = server.create(&spec).await;
        let (status, dashboard) = server.page(&format!("/d/{}", design.id)).await;
        assert_eq!(status, 200, "{name}");
        let (status, report_page) = server.page(&format!("/d/{}/r/1/report", design.id)).await;
        assert_eq!(status, 200, "{name}");
        let file = dir.path().join(format!("{name}.pdf"));
        std::fs::write(
            &file,
            pdf_of(&server, &format!("/d/{}/r/1/report.pdf", design.id)).await,
        )
        .unwrap();
        let pdf = without_spaces(&self::text(&file));
        let (dashboard, report_page) = (unescaped(&dashboard), unescaped(&report_page));
        let report =
            engine::evaluate(&engine::DesignSpec::from_value(spec.clone()).unwrap()).unwrap();
        let (headline, totals) = expected_figures(&spec);
        let mut figures: Vec<String> = headline.into_iter().chain(totals).collect();
        for w in &report.workloads {
            figures.push(app::report::workload_heading(w));
            for shown in app::report::workload_figures(w, None) {
                figures.push(shown.figure.value);
            }
        }
        for f in &report.fabrics {
            for (_, _, value) in app::report::fabric_facts(f) {
                figures.push(value);
            }
        }
        let spec = engine::DesignSpec::from_value(spec.clone()).unwrap();
        let floor = engine::floor::plan(&spec, &report);
        figures.push(app::money::usd(floor.placed_network_cost_usd.value));
        // The network's cost as placed, the same figure in the totals of all three.
        figures.push(app::money::usd(report.network().cost_usd));
        figures.push(app::money::usd(report.network().cost_per_gpu_usd));
        figures.push(app::money::usd(floor.cabling_cost_usd));
        for figure in figures {
            assert!(
                dashboard.contains(&figure),
                "{name}: the dashboard shows {figure}"
            );
            assert!(
                report_page.contains(&figure),
                "{name}: the report page shows {figure}"
            );
            let needle = without_spaces(&figure);
            let near = pdf
                .find(&needle.chars().take(6).collect::<String>())
                .map(|at| pdf[at..].chars().take(80).collect::<String>());
            assert!(
                pdf.contains(&needle),
                "{name}: the PDF shows {figure}, not {near:?}"
            );
        }
    }
    server.stop().await;
}
