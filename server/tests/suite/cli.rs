//! The `evaluate` command: the engine on the command line.

use std::process::Command;

fn fabric_planner() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fabric-planner"))
}

fn examples() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples")
}

#[test]
fn evaluate_prints_the_report_as_json() {
    let out = fabric_planner()
        .args(["evaluate"])
        .arg(examples().join("superpod-4su.json"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let compute = &report["fabrics"][0]["plan"];
    assert_eq!(
        (compute["leaves"].as_u64(), compute["spines"].as_u64()),
        (Some(32), Some(16))
    );
    // What one failure takes away, the worst first: one of the storage fabric's leaves cuts
    // its nodes off the storage they read and checkpoint to.
    let worst = &report["failures"][0];
    assert_eq!(
        (worst["fabric"].as_str(), worst["element"].as_str()),
        (Some("storage"), Some("leaf"))
    );
    assert!(worst["nodes_cut_off"].as_u64() > Some(0), "{worst}");
    // Its two phases, the spines for 4 SU bought with the first 2.
    let phases = report["phases"]["phases"].as_array().unwrap();
    assert_eq!(phases.len(), 2);
    let first = &phases[0]["fabrics"][0];
    assert_eq!(
        (first["leaves"].as_u64(), first["spines"].as_u64()),
        (Some(16), Some(16))
    );
    assert_eq!(report["phases"]["policy"], "provision_final");
}

#[test]
fn evaluate_with_summary_prints_lines_for_people() {
    let out = fabric_planner()
        .args(["evaluate", "--summary"])
        .arg(examples().join("seventy-b-inference-25g.json"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("per token"), "{text}");
    assert!(text.contains("[critical]"), "{text}");
    // One switch carries the fabric: its loss cuts every node off.
    assert!(
        text.contains(
            "worst single failure: a leaf switch of fabric inference (1 alike) cuts 4 nodes off"
        ),
        "{text}"
    );
    let out = fabric_planner()
        .args(["evaluate", "--summary"])
        .arg(examples().join("superpod-4su.json"))
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("phase SU 1-2: 504 GPUs, network $"),
        "each phase in a line: {text}"
    );
}

#[test]
fn an_invalid_spec_exits_with_2_and_lists_every_error_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.json");
    let mut spec: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(examples().join("seventy-b-training.json")).unwrap(),
    )
    .unwrap();
    spec["cluster"]["nodes"] = serde_json::json!(0);
    spec["workloads"][0]["fabric"] = serde_json::json!("nowhere");
    std::fs::write(&path, spec.to_string()).unwrap();
    let out = fabric_planner()
        .arg("evaluate")
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let errors = String::from_utf8(out.stderr).unwrap();
    assert!(
        errors.contains("cluster.nodes: must be at least 1"),
        "{errors}"
    );
    assert!(
        errors.contains("workloads[0].fabric: no fabric is named \"nowhere\""),
        "{errors}"
    );
}

#[test]
fn search_of_a_design_prints_its_frontier_and_rules_out_tcp_for_a_50_ms_token_target() {
    let out = fabric_planner()
        .args(["search"])
        .arg(examples().join("seventy-b-inference-25g.json"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let frontier = result["frontier"].as_array().unwrap();
    assert!(!frontier.is_empty(), "{result}");
    for point in frontier {
        for fabric in point["choice"]["fabrics"].as_array().unwrap() {
            let technology = fabric["technology"].as_str().unwrap();
            assert!(
                !technology.starts_with("tcp"),
                "{technology} meets 50 ms per token"
            );
        }
    }
    assert!(!result["summary"].as_str().unwrap().is_empty());
}

#[test]
fn search_of_a_broken_request_names_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("request.json");
    let spec = std::fs::read_to_string(examples().join("seventy-b-training.json")).unwrap();
    std::fs::write(
        &path,
        format!(r#"{{ "base": {spec}, "freedoms": {{ "nics_per_node": [0] }} }}"#),
    )
    .unwrap();
    let out = fabric_planner().arg("search").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let errors = String::from_utf8(out.stderr).unwrap();
    assert!(errors.contains("freedoms.nics_per_node"), "{errors}");
}

#[test]
fn handoff_writes_the_bundle_as_a_zip_and_refuses_a_bad_spec_by_its_field() {
    let spec = examples().join("hybrid.json");
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("bundle.zip");
    let out = fabric_planner()
        .arg("handoff")
        .arg(&spec)
        .arg("--out")
        .arg(&out_path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let design = engine::DesignSpec::from_json(&std::fs::read_to_string(&spec).unwrap()).unwrap();
    let report = engine::evaluate(&design).unwrap();
    let expected = engine::handoff::bundle(&design, &report);
    let bytes = std::fs::read(&out_path).unwrap();
    std::fs::remove_file(&out_path).unwrap();
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    assert_eq!(archive.len(), expected.len());
    for (name, text) in &expected {
        let mut read = String::new();
        std::io::Read::read_to_string(&mut archive.by_name(name).unwrap(), &mut read).unwrap();
        assert_eq!(&read, text, "{name}");
    }

    let out = fabric_planner()
        .args(["handoff", "-", "--out"])
        .arg(&out_path)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(br#"{"schema_version": 2, "cluster": {"nodes": 0}}"#)?;
            child.wait_with_output()
        })
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cluster"));
    assert!(!out_path.exists(), "nothing is written for a refused spec");
}
