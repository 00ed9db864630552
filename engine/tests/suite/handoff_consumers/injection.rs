//! A design whose own text attacks the consumers of its hand-off files, read by those consumers:
//! Arista's pyavd renders no extra user, Slurm's controller sees no extra switch, and a YAML
//! reader sees exactly the documents and keys that were written. The design is one saved under
//! earlier rules (read as the store reads it, names mapped); new input with such text is refused
//! (`engine/tests/suite/spec_json.rs`).

use super::slurm::{slurm_reads, tree};
use super::*;

/// What the attack run put in a title: a carriage return, and U+2028 (a line break to YAML 1.1
/// readers), each before a line that would give every switch a passwordless admin.
const TITLE: &str = "lab\r\nusername evil privilege 15 role network-admin nopassword\u{2028}local_users: [{name: evil}] # ";

/// What it put in a fabric name: a new Slurm switch, and a new Kubernetes document.
fn fabric_name(name: &str) -> String {
    format!("{name}\nSwitchName=evil Switches=x\n---\napiVersion: v1\nkind: Namespace")
}

/// The hybrid example (InfiniBand, RoCE and storage fabrics) with the attack's title and fabric
/// names, as a stored revision would have them, read the way the store reads it.
fn hostile() -> (DesignSpec, Report) {
    hostile_on(|_| {})
}

/// [`hostile`], its spec's JSON changed by `change` first.
fn hostile_on(change: impl Fn(&mut serde_json::Value)) -> (DesignSpec, Report) {
    let mut value: serde_json::Value = serde_json::from_str(engine::examples::HYBRID).unwrap();
    change(&mut value);
    value["title"] = TITLE.into();
    for fabric in value["fabrics"].as_array_mut().unwrap() {
        let name = fabric["name"].as_str().unwrap().to_string();
        fabric["name"] = fabric_name(&name).into();
    }
    for workload in value["workloads"].as_array_mut().unwrap() {
        let name = workload["fabric"].as_str().unwrap().to_string();
        workload["fabric"] = fabric_name(&name).into();
    }
    let text = value.to_string();
    assert!(
        DesignSpec::from_json(&text).is_err(),
        "new input like this is refused"
    );
    let (spec, mapped) = DesignSpec::from_stored_json(&text).unwrap();
    assert!(mapped);
    let report = evaluate(&spec).unwrap();
    (spec, report)
}

#[test]
fn a_hostile_design_s_names_are_mapped_to_names_every_consumer_reads_as_names() {
    let (spec, _) = hostile();
    let names: Vec<&str> = spec.fabrics.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "training-switchname-evil-switche",
            "inference-switchname-evil-switch",
            "storage-switchname-evil-switches"
        ]
    );
    assert!(
        !spec.title.contains(['\r', '\n', '\u{2028}']),
        "{}",
        spec.title
    );
}

/// pyavd: the AVD inputs of the hostile design on Arista switches validate, and no switch's
/// rendered EOS configuration has a user account (the inputs define none).
#[test]
fn pyavd_renders_no_user_from_a_hostile_title() {
    let Some(python) = pyavd_python() else {
        return;
    };
    let (spec, report) = hostile_on(support::arista_switches);
    let files = bundle(&spec, &report);
    assert!(files.iter().any(|(name, _)| name.starts_with("avd/")));
    let out = pyavd_check(&python, &files, &lossless_ports(&report), "hostile");
    assert!(out.status.success(), "{}", output_text(&out));
    let text = output_text(&out);
    assert!(text.contains("lines of EOS configuration"), "{text}");
    assert!(!text.contains("username"), "{text}");
}

/// NVUE: the hostile design's Spectrum switches are configured within NVUE's object model, every
/// cabled port included, and no key or user comes from its text.
#[test]
fn nvue_reads_only_what_was_written_from_a_hostile_design() {
    let Some(python) = pyavd_python() else {
        return;
    };
    let (spec, report) = hostile();
    let files = bundle(&spec, &report);
    let out = nvue_check(&python, &files, &nvue_ports(&report), "hostile");
    assert!(out.status.success(), "{}", output_text(&out));
    assert!(output_text(&out).contains("NVUE configurations read"));
}

/// Slurm: the hostile design's topology.conf gives back exactly the switches written, none of
/// them the attack's.
#[test]
fn slurmctld_sees_no_switch_a_fabric_name_adds() {
    if !installed(&sbin("slurmctld")) || !installed(Path::new("scontrol")) {
        return;
    }
    let (spec, report) = hostile();
    let files: BTreeMap<String, String> = bundle(&spec, &report).into_iter().collect();
    let (fabrics, _) = planned(&report);
    let fabric = scheduling_fabric(&fabrics).unwrap();
    let nodes: Vec<&str> = fabric.hosts();
    let topology = &files["slurm/topology.conf"];
    let shown = slurm_reads(topology, &nodes, "hostile").unwrap_or_else(|e| panic!("{e}"));
    let read: Vec<String> = tree(&shown).into_keys().collect();
    let written: Vec<String> = tree(topology).into_keys().collect();
    assert_eq!(read, written, "{shown}");
    let prefix = format!("{}-", fabric.fabric.name);
    assert!(read.iter().all(|s| s.starts_with(&prefix)), "{shown}");
}

/// A YAML 1.1 reader (PyYAML, as Ansible reads the inventory) sees in every YAML file of the
/// hostile design exactly the documents and top-level keys written: one `Node` per node in each
/// labels file, a Kueue `Topology` and its `ResourceFlavor`, one document of AVD fabric variables
/// and one of inventory, one list of one `set` per NVUE file.
#[test]
fn a_yaml_reader_sees_exactly_the_documents_written() {
    let Some(python) = pyavd_python() else {
        return;
    };
    let (spec, report) = hostile();
    let mut files = bundle(&spec, &report);
    // The same design on Arista switches, for its AVD files.
    let (arista, arista_report) = hostile_on(support::arista_switches);
    let avd = bundle(&arista, &arista_report);
    files.extend(avd.into_iter().filter(|(n, _)| n.starts_with("avd/")));
    for folder in ["avd/", "nvue/"] {
        assert!(files.iter().any(|(n, _)| n.starts_with(folder)), "{folder}");
    }
    let folder = scratch_folder("yaml");
    let mut paths = BTreeMap::new();
    for (name, text) in files
        .iter()
        .filter(|(n, _)| n.ends_with(".yml") || n.ends_with(".yaml"))
    {
        let path = folder.join(name.replace('/', "-"));
        std::fs::write(&path, text).unwrap();
        paths.insert(path.display().to_string(), name.clone());
    }
    let out = Command::new(&python)
        .arg(
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../scripts/consumers/yaml_documents.py"),
        )
        .args(paths.keys())
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&folder);
    assert!(out.status.success(), "{}", output_text(&out));
    let read: BTreeMap<String, Vec<Vec<String>>> = serde_json::from_slice(&out.stdout).unwrap();
    let (fabrics, _) = planned(&report);
    let nodes = scheduling_fabric(&fabrics).unwrap().hosts().len();
    for (path, documents) in read {
        let name = &paths[&path];
        let keys = |k: &[&str]| k.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        if name.starts_with("kubernetes/node-labels") {
            assert_eq!(documents.len(), nodes, "{name}");
            for d in &documents {
                assert_eq!(d, &keys(&["apiVersion", "kind", "metadata"]), "{name}");
            }
        } else if name.ends_with("kueue-topology.yaml") {
            let object = keys(&["apiVersion", "kind", "metadata", "spec"]);
            assert_eq!(documents, [object.clone(), object], "{name}");
        } else if name.ends_with("-inventory.yml") {
            assert_eq!(documents, [keys(&["all"])], "{name}");
        } else if name.starts_with("nvue/") {
            assert_eq!(documents, [keys(&["- set"])], "{name}");
        } else if name.starts_with("avd/") {
            assert_eq!(documents.len(), 1, "{name}");
            assert!(
                !documents[0]
                    .iter()
                    .any(|k| k.contains("evil") || k == "local_users"),
                "{name}: {documents:?}"
            );
        }
    }
}

/// The ibnetdiscover topology of the hostile design holds one `Switch` record per switch of
/// the fabric and names no other.
#[test]
fn the_infiniband_topology_holds_one_record_per_switch() {
    let (spec, report) = hostile();
    let files = bundle(&spec, &report);
    let (fabrics, _) = planned(&report);
    for fabric in fabrics
        .iter()
        .filter(|f| f.transport() == engine::Transport::InfiniBand)
    {
        let name = format!("infiniband/{}-ibnetdiscover.net", fabric.fabric.name);
        let text = &files.iter().find(|(n, _)| *n == name).unwrap().1;
        let records = text.lines().filter(|l| l.starts_with("Switch")).count();
        assert_eq!(records, fabric.switches().len(), "{name}");
        assert!(!text.contains("evil\""), "{name}");
    }
}

/// A title a spreadsheet set to `;` as its list separator would split into a formula: every CSV
/// of the bundle, read with either separator, has no cell that runs.
#[test]
fn a_title_split_at_semicolons_runs_in_no_cell_of_any_sheet() {
    let mut value: serde_json::Value = serde_json::from_str(engine::examples::HYBRID).unwrap();
    value["title"] = "lab;=HYPERLINK(\"//evil.example\");@SUM(1)".into();
    let spec = DesignSpec::from_json(&value.to_string()).expect("a valid title");
    let report = evaluate(&spec).unwrap();
    let files = bundle(&spec, &report);
    let sheets: Vec<&(String, String)> =
        files.iter().filter(|(n, _)| n.ends_with(".csv")).collect();
    assert!(sheets.len() >= 3, "{} CSV files", sheets.len());
    let mut carry_the_title = 0;
    for (name, text) in sheets {
        carry_the_title += usize::from(text.contains("lab;"));
        for separator in [b',', b';'] {
            let mut reader = csv::ReaderBuilder::new()
                .delimiter(separator)
                .has_headers(false)
                .flexible(true)
                .from_reader(text.as_bytes());
            for row in reader.records() {
                let row = row.unwrap();
                let runs = row
                    .iter()
                    .find(|cell| cell.starts_with(['=', '+', '-', '@']));
                assert!(
                    runs.is_none(),
                    "{name}, split at {:?}: {runs:?}",
                    separator as char
                );
            }
        }
    }
    assert!(carry_the_title > 0, "the title reaches a sheet");
}

/// A fabric named like a YAML 1.1 boolean is AVD's inventory group `"ON"`, quoted: the string
/// its fabric variables name, not `true`.
#[test]
fn an_avd_inventory_group_named_like_a_yaml_boolean_stays_a_string() {
    let mut value: serde_json::Value = serde_json::from_str(engine::examples::HYBRID).unwrap();
    support::arista_switches(&mut value);
    let ethernet = value["fabrics"]
        .as_array()
        .unwrap()
        .iter()
        .position(|f| !f["technology"].as_str().unwrap().starts_with("ib_"))
        .unwrap();
    let old = value["fabrics"][ethernet]["name"]
        .as_str()
        .unwrap()
        .to_string();
    value["fabrics"][ethernet]["name"] = "on".into();
    for w in value["workloads"].as_array_mut().unwrap() {
        if w["fabric"] == old.as_str() {
            w["fabric"] = "on".into();
        }
    }
    let spec = DesignSpec::from_value(value).unwrap();
    let report = evaluate(&spec).unwrap();
    let files = bundle(&spec, &report);
    let (_, inventory) = files
        .iter()
        .find(|(name, _)| name.starts_with("avd/") && name.ends_with("inventory.yml"))
        .expect("an AVD inventory");
    assert!(inventory.contains("\n    \"ON\":\n"), "{inventory}");
    assert!(!inventory.contains("\n    ON:"), "{inventory}");
}
