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

/// `moves` writes the move list between the SuperPOD example's phases, a row for each cable the
/// phase table counts (provisioned for 4 SU, the second phase moves no uplink); a design built
/// in one step has none, and nothing is written.
#[test]
fn moves_writes_the_cables_each_step_adds_and_refuses_a_design_without_phases() {
    let spec = examples().join("superpod-4su.json");
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("moves.csv");
    let out = fabric_planner()
        .arg("moves")
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
    let plan = engine::evaluate(&design)
        .unwrap()
        .over_its_life(&design)
        .phases
        .unwrap();
    let step = &plan.phases[1];
    let text = std::fs::read_to_string(&out_path).unwrap();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(
        rows.len() as u64,
        step.added() + step.removed() + step.re_terminated()
    );
    // Provisioned for the final size, no uplink in service moves (the UFM and storage servers,
    // on leaf ports the nodes leave free, may).
    assert!(rows
        .iter()
        .filter(|r| &r[2] == "leaf-spine")
        .all(|r| &r[3] == "add"));
    std::fs::remove_file(&out_path).unwrap();

    let out = fabric_planner()
        .arg("moves")
        .arg(examples().join("hybrid.json"))
        .arg("--out")
        .arg(&out_path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("lists no growth phases"));
    assert!(!out_path.exists(), "nothing is written without phases");
}

/// all_reduce_perf's output on `nodes` nodes of 8 GPUs at `sizes`, each measuring `busbw(size)`
/// GB/s.
fn all_reduce_output(nodes: u32, sizes: &[u64], busbw: impl Fn(u64) -> f64) -> String {
    let ranks = nodes * 8;
    let mut text = String::from("# Collective test starting: all_reduce_perf\n#\n");
    for rank in 0..ranks {
        text.push_str(&format!(
            "#  Rank {rank:3} Group  0 Pid {} on node{:02} device  {} [0x18] NVIDIA H100 80GB HBM3\n",
            40000 + rank,
            rank / 8,
            rank % 8
        ));
    }
    text.push_str("#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n");
    let factor = 2.0 * f64::from(ranks - 1) / f64::from(ranks);
    for &size in sizes {
        let bus = busbw(size);
        let algbw = bus / factor;
        let time = size as f64 / (algbw * 1e9) * 1e6;
        text.push_str(&format!(
            "{size:>12} {:>13}     float     sum      -1 {time:8.1} {algbw:7.2} {bus:7.2}      0 {time:8.1} {algbw:7.2} {bus:7.2}      0\n",
            size / 4
        ));
    }
    text
}

/// `fit` reads a design and nccl-tests outputs and prints the fabric's fitted calibration with
/// its error on the points used and held out; a run of one message size is refused with the
/// reason and exit 2.
#[test]
fn fit_prints_the_calibration_fitted_to_nccl_tests_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let sizes: Vec<u64> = (10..=33).map(|p| 1u64 << p).collect();
    // Saturating at 300 GB/s, half of it at 16 MB.
    let curve = |s: u64| 300.0 * s as f64 / (s as f64 + 16e6);
    let mut runs = Vec::new();
    for nodes in [4, 16] {
        let path = dir.path().join(format!("nodes-{nodes}.txt"));
        std::fs::write(&path, all_reduce_output(nodes, &sizes, curve)).unwrap();
        runs.push(path);
    }
    let out = fabric_planner()
        .args(["fit", "--fabric", "compute"])
        .arg(examples().join("seventy-b-training.json"))
        .args(&runs)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let fit: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(fit["efficiency_field"], "infiniband_efficiency");
    let efficiency = fit["efficiency"].as_f64().unwrap();
    assert!(efficiency > 0.0 && efficiency <= 1.0, "{fit}");
    assert_eq!(fit["points"], 2 * sizes.len());
    assert!(fit["quality"]["mape_percent"].as_f64().is_some(), "{fit}");
    assert_eq!(fit["held_out"]["held_out"], "the largest rank count, 128");

    let one = dir.path().join("one-size.txt");
    std::fs::write(&one, all_reduce_output(4, &[1 << 30], curve)).unwrap();
    let out = fabric_planner()
        .args(["fit", "--fabric", "compute"])
        .arg(examples().join("seventy-b-training.json"))
        .arg(&one)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8(out.stderr).unwrap();
    assert!(
        said.contains("no fit: the baselines across nodes measure one message size"),
        "{said}"
    );
}
