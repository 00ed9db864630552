//! Reading specs from JSON: every refusal names the field and the reason; older schema
//! versions still load.

use engine::{evaluate, examples, DesignSpec, SPEC_VERSION};
use serde_json::{json, Value};

fn training_example() -> Value {
    serde_json::from_str(examples::SEVENTY_B_TRAINING).unwrap()
}

fn errors_of(value: Value) -> engine::SpecErrors {
    DesignSpec::from_value(value).unwrap_err()
}

#[test]
fn every_example_survives_a_round_trip_through_json() {
    for (name, text) in examples::ALL {
        let spec = DesignSpec::from_json(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            DesignSpec::from_json(&spec.to_json()).unwrap(),
            spec,
            "{name}"
        );
    }
}

#[test]
fn a_version_1_spec_still_loads_and_keeps_its_numbers() {
    let v1 = json!({
        "schema_version": 1,
        "title": "70B FP16 data-parallel training",
        "training": { "parameters": 70e9, "precision": "fp16", "gpus": 1024, "gpus_per_node": 8, "link_gbps": 400 }
    });
    let spec = DesignSpec::from_value(v1).unwrap();
    assert_eq!(spec.schema_version, SPEC_VERSION);
    assert_eq!(spec.cluster.nodes, 128);
    let report = evaluate(&spec).unwrap();
    let engine::WorkloadReport::Training(t) = &report.workloads[0] else {
        panic!("a training workload")
    };
    let moved = t.bytes_per_gpu_per_step.value.as_gigabytes();
    assert!(
        (moved - 2.0 * 1023.0 / 1024.0 * 140.0).abs() < 1e-6,
        "{moved}"
    );
}

#[test]
fn a_negative_node_count_is_refused_at_its_path() {
    let mut spec = training_example();
    spec["cluster"]["nodes"] = json!(-4);
    let errors = errors_of(spec);
    assert_eq!(
        errors.for_path("cluster.nodes").unwrap().reason,
        "must be a whole number of at least 0, not -4"
    );
}

#[test]
fn parallelism_larger_than_the_cluster_is_refused_with_the_arithmetic() {
    let mut spec = training_example();
    spec["cluster"]["nodes"] = json!(8);
    spec["workloads"][0]["parallelism"] = json!({ "dp": 12, "tp": 8, "pp": 1 });
    spec["workloads"][0]["global_batch"] = json!(96);
    let errors = errors_of(spec);
    assert_eq!(
        errors.for_path("workloads[0].parallelism").unwrap().reason,
        "tp x pp x dp = 96 but the cluster has 64 GPUs"
    );
}

#[test]
fn every_error_is_reported_at_once() {
    let mut spec = training_example();
    spec["title"] = json!("");
    spec["cluster"]["gpu"] = json!("h900");
    spec["workloads"][0]["fabric"] = json!("nowhere");
    spec["workloads"][0]["compute"] = json!({ "mfu": 1.5 });
    spec["fabrics"][1]["switch"] = json!("sn5600");
    let errors = errors_of(spec);
    let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
    for expected in [
        "title",
        "cluster.gpu",
        "workloads[0].fabric",
        "workloads[0].compute.mfu",
        "fabrics[1].switch",
    ] {
        assert!(
            paths.contains(&expected),
            "{expected} missing from {paths:?}"
        );
    }
    assert_eq!(
        errors.for_path("fabrics[1].switch").unwrap().reason,
        "NVIDIA Spectrum-4 SN5600 (64×800G OSFP) cannot carry InfiniBand NDR 400G"
    );
}

#[test]
fn an_entry_past_the_ninth_is_named_by_its_whole_index() {
    let mut spec = training_example();
    let job = spec["workloads"][0].clone();
    let mut jobs = vec![job; 12];
    for (i, job) in jobs.iter_mut().enumerate() {
        job["name"] = json!(format!("job {i}"));
    }
    jobs[10]["parallelism"]["pp"] = json!(0);
    jobs[11]["fabric"] = json!("nowhere");
    spec["workloads"] = json!(jobs);
    let errors = errors_of(spec);
    assert_eq!(
        errors
            .for_path("workloads[10].parallelism.pp")
            .unwrap()
            .reason,
        "must be at least 1"
    );
    assert!(
        errors.for_path("workloads[11].fabric").is_some(),
        "{errors:?}"
    );
    assert!(
        errors.for_path("workloads[1].fabric").is_none(),
        "{errors:?}"
    );
}

#[test]
fn zero_link_speed_and_nan_like_values_are_refused() {
    let mut spec = training_example();
    spec["fabrics"][0]["port_gbps"] = json!(0);
    spec["workloads"][0]["overlap"] = json!(-0.5);
    let errors = errors_of(spec);
    assert_eq!(
        errors.for_path("fabrics[0].port_gbps").unwrap().reason,
        "must be greater than 0 Gb/s"
    );
    assert_eq!(
        errors.for_path("workloads[0].overlap").unwrap().reason,
        "must be at least 0"
    );
}

#[test]
fn an_unknown_field_is_named() {
    let mut spec = training_example();
    spec["cluster"]["colour"] = json!("green");
    let errors = errors_of(spec);
    assert!(errors.to_string().contains("colour"), "{errors}");
}

#[test]
fn text_that_is_not_json_is_refused_with_where_it_stops() {
    let errors = DesignSpec::from_json("{\"schema_version\": 2,").unwrap_err();
    assert_eq!(
        errors.to_string(),
        "is not complete JSON: it ends at line 1, column 21 before a bracket or quote is closed"
    );
    let errors = DesignSpec::from_json("{\"schema_version\": 2 x}").unwrap_err();
    assert_eq!(errors.to_string(), "is not valid JSON at line 1, column 22");
}

#[test]
fn an_empty_paste_says_what_to_paste() {
    for text in ["", "  \n"] {
        let errors = DesignSpec::from_json(text).unwrap_err();
        assert_eq!(
            errors.to_string(),
            "is empty: paste the JSON of a design spec, as Fabric Planner exports it"
        );
    }
}

#[test]
fn every_field_of_the_wrong_type_is_reported_at_once() {
    let mut spec = training_example();
    spec["cluster"]["nodes"] = json!(-4);
    spec["workloads"][0]["model"]["layers"] = json!("eighty");
    spec["fabrics"][0]["colour"] = json!("green");
    let errors = errors_of(spec);
    let paths: Vec<&str> = errors.0.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(errors.0.len(), 3, "{paths:?}");
    assert!(paths.contains(&"cluster.nodes"), "{paths:?}");
    // A workload's kind decides its fields, so serde names the workload, not the field in it.
    assert!(
        paths.iter().any(|p| p.starts_with("workloads[0]")),
        "{paths:?}"
    );
    assert!(errors.to_string().contains("eighty"), "{errors}");
    assert!(errors.to_string().contains("colour"), "{errors}");
}

#[test]
fn a_spec_from_a_newer_engine_is_refused_by_its_version() {
    let errors = errors_of(json!({ "schema_version": SPEC_VERSION + 1, "title": "t" }));
    assert_eq!(errors.0[0].path, "schema_version");
}

#[test]
fn an_impossible_fabric_is_explained() {
    // 4,096 DGX nodes × 8 NICs = 32,768 endpoints fit 3 tiers of QM9700 (65,536); 9,000 do not.
    let mut spec = training_example();
    spec["cluster"]["nodes"] = json!(9000);
    let errors = evaluate(&DesignSpec::from_value(spec).unwrap()).unwrap_err();
    assert!(
        errors
            .for_path("fabrics[0]")
            .unwrap()
            .reason
            .contains("exceed what 3 tiers"),
        "{errors}"
    );
}

/// The error at `path`, if any.
fn error_at(errors: &engine::SpecErrors, path: &str) -> Option<String> {
    errors
        .iter()
        .find(|e| e.path == path)
        .map(|e| e.reason.clone())
}

#[test]
fn a_title_with_a_line_break_or_a_control_character_is_refused_at_its_path() {
    for (title, says) in [
        ("lab\r\nusername evil privilege 15 nopassword", "one line"),
        ("lab\u{2028}evil: 1", "one line"),
        ("lab\u{85}evil", "one line"),
        ("lab\0", "NUL"),
        ("lab\u{1b}[31m", "control characters"),
    ] {
        let mut spec = training_example();
        spec["title"] = title.into();
        let errors = errors_of(spec);
        let reason = error_at(&errors, "title").unwrap_or_else(|| panic!("{title:?}: {errors}"));
        assert!(reason.contains(says), "{title:?}: {reason}");
    }
}

#[test]
fn a_title_of_only_invisible_characters_is_empty() {
    for title in [
        "\u{200B}",
        "\u{202E}\u{200B}",
        " \u{FEFF} ",
        "\u{2060}\u{180E}",
    ] {
        let mut spec = training_example();
        spec["title"] = title.into();
        let errors = errors_of(spec);
        assert_eq!(
            error_at(&errors, "title").as_deref(),
            Some("must not be empty"),
            "{title:?}"
        );
    }
}

#[test]
fn a_fabric_name_that_a_switch_or_scheduler_would_misread_is_refused_at_its_path() {
    for name in [
        "compute\nSwitchName=evil",
        "Compute",
        "compute fabric",
        "../../x",
        "x\"; filename=\"invoice.exe",
    ] {
        let mut spec = training_example();
        spec["fabrics"][0]["name"] = name.into();
        spec["workloads"][0]["fabric"] = name.into();
        let errors = errors_of(spec);
        let reason =
            error_at(&errors, "fabrics[0].name").unwrap_or_else(|| panic!("{name:?}: {errors}"));
        assert!(reason.contains("hand-off files"), "{name:?}: {reason}");
    }
}

#[test]
fn a_workload_name_or_price_item_with_a_control_character_is_refused_at_its_path() {
    let mut spec = training_example();
    spec["workloads"][0]["name"] = "a\nb".into();
    spec["overrides"] = json!([{ "item": "switch:qm9700\u{0}", "unit_price_usd": 1.0 }]);
    let errors = errors_of(spec);
    assert!(error_at(&errors, "workloads[0].name").is_some(), "{errors}");
    assert!(error_at(&errors, "overrides[0].item").is_some(), "{errors}");
}

#[test]
fn a_design_saved_under_earlier_rules_opens_with_its_names_mapped() {
    let mut spec = training_example();
    spec["title"] = "\u{200B}".into();
    spec["fabrics"][0]["name"] = "Compute Fabric".into();
    spec["workloads"][0]["fabric"] = "Compute Fabric".into();
    spec["workloads"][0]["name"] = "70B\r\npre-training".into();
    let text = spec.to_string();
    assert!(
        DesignSpec::from_json(&text).is_err(),
        "new input is refused"
    );
    let (stored, mapped) = DesignSpec::from_stored_json(&text).unwrap();
    assert!(mapped);
    assert_eq!(stored.title, "Untitled design");
    assert_eq!(stored.fabrics[0].name, "compute-fabric");
    assert_eq!(stored.workloads[0].fabric(), "compute-fabric");
    assert_eq!(stored.workloads[0].name(), "70B  pre-training");
    evaluate(&stored).unwrap();
    // A design that keeps today's rules is read unchanged.
    let today = DesignSpec::from_json(examples::HYBRID).unwrap();
    assert_eq!(
        DesignSpec::from_stored_json(examples::HYBRID).unwrap(),
        (today, false)
    );
}

#[test]
fn two_stored_fabric_names_that_map_alike_stay_distinct() {
    let mut spec = training_example();
    let mut second = spec["fabrics"][0].clone();
    second["name"] = "compute".into();
    spec["fabrics"][0]["name"] = "Compute".into();
    spec["workloads"][0]["fabric"] = "Compute".into();
    spec["fabrics"].as_array_mut().unwrap().push(second);
    let (stored, _) = DesignSpec::from_stored_json(&spec.to_string()).unwrap();
    let names: Vec<&str> = stored.fabrics.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["compute-2", "storage", "compute"]);
    assert_eq!(stored.workloads[0].fabric(), "compute-2");
}
