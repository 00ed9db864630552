//! `/catalog` over HTTP: every switch and GPU the engine sizes with, its figures as the engine
//! holds them, and where each comes from, without a script.

use crate::common::*;
use engine::catalog::{GPUS, SWITCHES};

#[tokio::test]
async fn the_catalog_shows_every_switch_and_gpu_with_its_figures_and_sources() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let (status, page) = server.page("/catalog").await;
    assert_eq!(status, 200);
    assert!(!page.contains("<script"), "a finished document");
    let row = |id: &str| {
        let start = page
            .find(&format!("id=\"{id}\""))
            .unwrap_or_else(|| panic!("{id} is listed"));
        let end = start + page[start..].find("</tr>").unwrap();
        page[start..end].to_string()
    };
    for s in SWITCHES {
        let r = row(&format!("switch-{}", s.key));
        // Its radix at its fastest speed, its price and the source of each figure.
        let (speed, ports) = s.port_modes[0];
        assert!(r.contains(&format!("{ports} × {speed}G")), "{r}");
        assert!(r.contains(&app::money::usd(s.price_usd)), "{r}");
        assert!(r.contains(&escape(s.cost.source)), "{r}");
        assert_eq!(
            r.contains("estimate"),
            s.ports.estimate || s.cost.estimate,
            "an estimate is said to be one: {r}"
        );
    }
    for g in GPUS {
        let r = row(&format!("gpu-{}", g.key));
        assert!(
            r.contains(&format!(">{}<", g.hbm_gb.gigabytes())),
            "{r}"
        );
        assert!(r.contains(&escape(g.provenance.source)), "{r}");
        assert_eq!(r.contains("estimate"), g.provenance.estimate, "{r}");
    }
    // The 64-port QM9700 of a DGX SuperPOD's compute fabric, as NVIDIA sells it.
    assert!(row("switch-qm9700").contains("64 × 400G"));
    server.stop().await;
}

/// `text` as the page writes it.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
