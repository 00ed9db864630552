//! The report page printed by Chromium (`--print-to-pdf`, as a reader printing it) has the same
//! sections, in the same order, as the PDF the server typesets.

use browser_tests::{example, print_to_pdf, temp_dir, Server};
use std::process::Command;
use std::time::Duration;

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

fn text_of(pdf: &std::path::Path) -> String {
    let output = Command::new("pdftotext")
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext runs (poppler-utils, scripts/setup.sh --browser)");
    assert!(output.status.success());
    String::from_utf8_lossy(&output.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Where each section's heading starts, after the contents (which list them all first).
fn section_order(text: &str) -> Vec<usize> {
    let body = text
        .find("Assumptions and sources")
        .map(|contents| contents + 1)
        .unwrap_or(0);
    SECTIONS
        .iter()
        .map(|s| {
            body + text[body..]
                .find(s)
                .unwrap_or_else(|| panic!("section {s} after the contents"))
        })
        .collect()
}

#[tokio::test]
async fn chromiums_print_of_the_report_page_has_the_sections_of_the_servers_pdf() {
    let server = Server::start().await;
    let spec = example("superpod-4su.json");
    let id = &server.create(&spec).await.id;
    let dir = temp_dir();

    let printed = dir.path().join("printed.pdf");
    print_to_pdf(
        &server.url(&format!("/d/{id}/r/1/report")),
        &printed,
        Duration::from_secs(90),
    )
    .await;
    let typeset = dir.path().join("typeset.pdf");
    let bytes = reqwest::Client::new()
        .get(server.url(&format!("/d/{id}/r/1/report.pdf")))
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    std::fs::write(&typeset, &bytes).unwrap();

    for pdf in [&printed, &typeset] {
        let text = text_of(pdf);
        assert!(
            text.contains("DGX SuperPOD"),
            "{}: the title",
            pdf.display()
        );
        let order = section_order(&text);
        assert!(
            order.windows(2).all(|w| w[0] < w[1]),
            "{}: sections in order {order:?}",
            pdf.display()
        );
    }
}
