//! The validation table: every published measurement against the engine's prediction, held to
//! its tolerance, and written to `engine/VALIDATION.md` (which must match what the engine
//! computes today; `UPDATE_VALIDATION=1 cargo test -p engine --test validation` rewrites it).

use engine::validation::{validation_markdown, validation_rows};

#[test]
fn every_published_measurement_is_predicted_within_its_tolerance() {
    let rows = validation_rows();
    assert!(rows.len() >= 20, "{} rows", rows.len());
    for r in &rows {
        let Some(t) = r.tolerance else { continue };
        let within = if t <= 1.3 {
            (r.ratio - 1.0).abs() <= t - 1.0
        } else {
            r.ratio >= 1.0 / t && r.ratio <= t
        };
        assert!(
            within,
            "{} — {} — {}: measured {}, predicted {:.2} ({:.2}×, {})",
            r.source, r.setup, r.metric, r.measured, r.predicted, r.ratio, r.model
        );
    }
}

#[test]
fn a_single_h100_node_is_predicted_with_nvls_and_a_forced_ring_with_the_ring() {
    let rows = validation_rows();
    let nvls = rows.iter().find(|r| r.source == "nccl-tests #347").unwrap();
    assert!(nvls.model.starts_with("NVLink SHARP"), "{}", nvls.model);
    let ring = rows.iter().find(|r| r.source == "nccl-tests #212").unwrap();
    assert!(ring.model.starts_with("ring"), "{}", ring.model);
}

#[test]
fn the_committed_validation_table_is_what_the_engine_computes() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/VALIDATION.md");
    let expected = validation_markdown(&validation_rows());
    if std::env::var_os("UPDATE_VALIDATION").is_some() {
        std::fs::write(path, &expected).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == expected,
        "engine/VALIDATION.md is out of date: run UPDATE_VALIDATION=1 cargo test -p engine --test validation"
    );
}
