//! Reading specs from JSON: every refusal names the field and the reason.

use engine::{DesignSpec, SPEC_VERSION};

fn spec_with_training(training: &str) -> String {
    format!(r#"{{"schema_version": 1, "title": "t", "training": {training}}}"#)
}

#[test]
fn the_default_spec_survives_a_round_trip_through_json() {
    let spec = DesignSpec::default();
    assert_eq!(DesignSpec::from_json(&spec.to_json()).unwrap(), spec);
}

#[test]
fn a_negative_gpu_count_is_refused_at_its_path() {
    let text = spec_with_training(
        r#"{"parameters": 7e10, "precision": "fp16", "gpus": -4, "gpus_per_node": 8, "link_gbps": 400}"#,
    );
    let errors = DesignSpec::from_json(&text).unwrap_err();
    let error = errors
        .for_path("training.gpus")
        .expect("an error at training.gpus");
    assert_eq!(error.reason, "must be a whole number of at least 0, not -4");
}

#[test]
fn zero_link_speed_is_refused_at_its_path() {
    let text = spec_with_training(
        r#"{"parameters": 7e10, "precision": "fp16", "gpus": 16, "gpus_per_node": 8, "link_gbps": 0}"#,
    );
    let errors = DesignSpec::from_json(&text).unwrap_err();
    assert_eq!(
        errors.for_path("training.link_gbps").unwrap().reason,
        "must be greater than 0 Gb/s"
    );
}

#[test]
fn an_unknown_precision_is_refused_at_its_path() {
    let text = spec_with_training(
        r#"{"parameters": 7e10, "precision": "fp12", "gpus": 16, "gpus_per_node": 8, "link_gbps": 400}"#,
    );
    let errors = DesignSpec::from_json(&text).unwrap_err();
    assert!(errors.for_path("training.precision").is_some(), "{errors}");
}

#[test]
fn a_missing_field_is_named() {
    let text = spec_with_training(
        r#"{"parameters": 7e10, "precision": "fp16", "gpus": 16, "gpus_per_node": 8}"#,
    );
    let errors = DesignSpec::from_json(&text).unwrap_err();
    assert!(errors.to_string().contains("link_gbps"), "{errors}");
}

#[test]
fn text_that_is_not_json_is_refused() {
    let errors = DesignSpec::from_json("{\"schema_version\": 1,").unwrap_err();
    assert!(errors.to_string().starts_with("not valid JSON"), "{errors}");
}

#[test]
fn a_spec_from_a_newer_engine_is_refused_by_its_version() {
    let text = format!(
        r#"{{"schema_version": {}, "title": "t"}}"#,
        SPEC_VERSION + 1
    );
    let errors = DesignSpec::from_json(&text).unwrap_err();
    assert_eq!(errors.0[0].path, "schema_version");
}

#[test]
fn gpus_that_do_not_fill_whole_nodes_are_refused() {
    let text = spec_with_training(
        r#"{"parameters": 7e10, "precision": "fp16", "gpus": 12, "gpus_per_node": 8, "link_gbps": 400}"#,
    );
    let errors = DesignSpec::from_json(&text).unwrap_err();
    assert_eq!(
        errors.for_path("training.gpus").unwrap().reason,
        "12 GPUs do not fill whole nodes of 8 GPUs"
    );
}
