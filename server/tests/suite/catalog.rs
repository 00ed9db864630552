//! `/catalog` over HTTP: every switch, GPU and medium the engine sizes and prices with, its figures as the engine
//! holds them, and where each comes from, without a script.

use crate::common::*;
use engine::catalog::{Media, ReachClass, GPUS, SWITCHES};

#[tokio::test]
async fn the_catalog_shows_every_switch_gpu_and_medium_with_its_figures_and_sources() {
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
    // Every medium at 400G with its reach and its prices, as the engine prices a link.
    for class in [
        ReachClass::Dac,
        ReachClass::Acc,
        ReachClass::Multimode,
        ReachClass::SingleMode,
        ReachClass::LongReach,
    ] {
        let r = row(&format!("media-{}", class.key()));
        let m = Media::of(class, 400.0, 2);
        assert!(r.contains(&format!("{} m", class.max_reach_m(400.0))), "{r}");
        assert!(r.contains(&app::money::usd(m.host_transceiver_price_usd)), "{r}");
        assert!(r.contains(&app::money::usd(m.switch_transceiver_price_usd)), "{r}");
    }
    // Passive copper carries no 800G link; single-mode reaches 100 m at both speeds.
    assert!(row("media-dac").contains(">–<"));
    assert_eq!(row("media-singlemode").matches(">100 m<").count(), 2);
    server.stop().await;
}

/// `text` as the page writes it.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
