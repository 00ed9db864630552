//! The hand-off bundle of the 4-SU SuperPOD and of the hybrid example, each file checked field by
//! field against the format its consumer documents.

use crate::support;

use engine::asbuilt::{check, ibnetdiscover};
use engine::handoff::{bundle, label_digits, planned};
use engine::{evaluate, DesignSpec};
use std::collections::{BTreeSet, HashMap};
use support::{all_digits, cable_count, csv_rows, design, yaml, EXAMPLES};

fn files(example: &str) -> HashMap<String, String> {
    let (spec, report) = design(example);
    bundle(&spec, &report).into_iter().collect()
}

#[test]
fn the_bundle_is_byte_identical_for_the_same_revision_and_its_readme_names_every_file() {
    for example in EXAMPLES {
        let (spec, report) = design(example);
        let first = bundle(&spec, &report);
        assert_eq!(first, bundle(&spec, &evaluate(&spec).unwrap()));
        assert_eq!(first[0].0, "README.txt");
        for (name, content) in &first[1..] {
            // One file per switch is listed by its folder.
            if name.starts_with("nvue/") {
                continue;
            }
            assert!(
                first[0].1.contains(&format!("\n{name}\n    ")),
                "README misses {name}"
            );
            assert!(!content.is_empty(), "{name} is empty");
        }
        // One file per switch is listed once per fabric, with its count.
        for f in &report.fabrics {
            let prefix = format!("nvue/{}-", f.name);
            let n = first.iter().filter(|(n, _)| n.starts_with(&prefix)).count();
            if n > 0 {
                let entry = format!("\nnvue/{}-*.yaml ({n} file", f.name);
                assert!(first[0].1.contains(&entry), "README misses {entry}");
            }
        }
    }
}

/// Each fabric's switches are configured for the operating system they run: InfiniBand through
/// its topology, NVIDIA Spectrum switches with Cumulus NVUE files, Arista switches with AVD.
#[test]
fn each_fabric_gets_the_configuration_of_its_switches_operating_system() {
    let superpod = files(engine::examples::SUPERPOD_4SU);
    assert!(superpod.contains_key("infiniband/compute-ibnetdiscover.net"));
    assert!(superpod.contains_key("infiniband/storage-ibnetdiscover.net"));
    assert!(!superpod
        .keys()
        .any(|k| k.starts_with("avd/") || k.starts_with("nvue/")));
    // The hybrid example's Ethernet fabrics are on SN4600C switches: NVUE, no AVD.
    let hybrid = files(engine::examples::HYBRID);
    assert!(hybrid.contains_key("infiniband/training-ibnetdiscover.net"));
    assert!(hybrid.contains_key("nvue/inference-leaf-01.yaml"));
    assert!(hybrid.contains_key("nvue/storage-spine-01.yaml"));
    assert!(!hybrid.keys().any(|k| k.starts_with("avd/")));
    assert!(hybrid["graphviz/storage.dot"].contains("os=\"cumulus\""));
    // The same fabrics on Arista switches: AVD, no NVUE, and EOS port names everywhere.
    let (spec, report) = support::on_arista(engine::examples::HYBRID);
    let arista: HashMap<_, _> = bundle(&spec, &report).into_iter().collect();
    for name in [
        "avd/inference.yml",
        "avd/storage.yml",
        "avd/storage-inventory.yml",
    ] {
        assert!(arista.contains_key(name), "{name}");
    }
    assert!(!arista.keys().any(|k| k.starts_with("nvue/")));
    let dot = &arista["graphviz/storage.dot"];
    assert!(
        dot.contains("os=\"eos\"") && !dot.contains("\"swp"),
        "{dot}"
    );
    let p2p = csv_rows(&arista["cvt/storage-p2p.csv"]);
    assert!(
        p2p[1..].iter().all(|r| r[5].starts_with("Ethernet")),
        "{p2p:?}"
    );
}

#[test]
fn the_cvt_p2p_file_has_one_row_per_cable_under_cvt_header_names_with_cvt_port_forms() {
    for example in EXAMPLES {
        let (spec, report) = design(example);
        let files: HashMap<_, _> = bundle(&spec, &report).into_iter().collect();
        for f in &report.fabrics {
            let rows = csv_rows(&files[&format!("cvt/{}-p2p.csv", f.name)]);
            assert_eq!(rows.len() - 1, cable_count(&report, &f.name), "{}", f.name);
            if f.technology.is_ethernet() {
                assert_eq!(
                    rows[0],
                    [
                        "A-Node Name",
                        "A-Type",
                        "A-Port",
                        "Z-Node Name",
                        "Z-Type",
                        "Z-Port"
                    ]
                );
                for r in &rows[1..] {
                    for (kind, port) in [(&r[1], &r[2]), (&r[4], &r[5])] {
                        match kind.as_str() {
                            "Host" => assert!(
                                port.strip_prefix("rail").is_some_and(all_digits)
                                    || port.starts_with("enp"),
                                "{r:?}"
                            ),
                            "Switch" => {
                                let p = port.strip_prefix("swp").unwrap();
                                let (cage, split) = p.split_once('s').unwrap_or((p, "0"));
                                assert!(all_digits(cage) && all_digits(split), "{r:?}");
                            }
                            other => panic!("type {other}"),
                        }
                    }
                }
            } else {
                assert_eq!(rows[0], ["A-Node Name", "A-Port", "Z-Node Name", "Z-Port"]);
                for r in &rows[1..] {
                    assert!(all_digits(&r[1]) && all_digits(&r[3]), "{r:?}");
                    assert!(r[1].parse::<u32>().unwrap() >= 1);
                }
            }
        }
    }
}

#[test]
fn the_infiniband_topology_file_has_ibnetdiscover_syntax_and_reads_back_as_the_plan() {
    for example in EXAMPLES {
        let (spec, report) = design(example);
        let files: HashMap<_, _> = bundle(&spec, &report).into_iter().collect();
        for f in report
            .fabrics
            .iter()
            .filter(|f| !f.technology.is_ethernet())
        {
            let text = &files[&format!("infiniband/{}-ibnetdiscover.net", f.name)];
            let cables = cable_count(&report, &f.name);
            let port_lines = text.lines().filter(|l| l.starts_with('[')).count();
            assert_eq!(port_lines, 2 * cables, "every link printed from both ends");
            let mut switches_done = false;
            for header in text
                .lines()
                .filter(|l| l.starts_with("Switch\t") || l.starts_with("Ca\t"))
            {
                // Type, TAB, ports, the quoted id, then the description in the comment.
                let (kind, rest) = header.split_once('\t').unwrap();
                let (ports, rest) = rest.split_once(' ').unwrap();
                assert!(all_digits(ports), "{header}");
                let id = &rest[1..19];
                assert!(
                    id.starts_with(if kind == "Switch" { "S-" } else { "H-" }),
                    "{header}"
                );
                assert!(id[2..].bytes().all(|b| b.is_ascii_hexdigit()), "{header}");
                assert!(rest.contains("\t\t# \""), "{header}");
                if kind == "Ca" {
                    switches_done = true;
                } else {
                    assert!(!switches_done, "switches come first");
                    assert_eq!(ports, f.plan.radix.to_string());
                }
            }
            for line in text.lines().filter(|l| l.starts_with('[')) {
                assert!(line.ends_with(" 4xNDR"), "{line}");
            }
            let mut links = ibnetdiscover::parse(text.as_bytes()).unwrap();
            assert_eq!(links.len(), cables);
            // Hosts described by their adapters (a DGX's `node-001 mlx5_0`) read back through
            // the node type.
            engine::asbuilt::on_sheet(
                &mut links,
                &f.name,
                engine::catalog::adapters_of(&spec, &f.name),
            );
            let result = check(&report, Some(&f.name), &links);
            assert_eq!(result.total.as_planned as usize, cables, "{}", f.name);
            assert!(result.findings.is_empty());
        }
    }
}

fn ethernet_name(s: &str) -> bool {
    let Some(rest) = s.strip_prefix("Ethernet") else {
        return false;
    };
    let (cage, lane) = rest.split_once('/').unwrap_or((rest, "1"));
    all_digits(cage) && all_digits(lane)
}

#[test]
fn avd_inputs_are_yaml_whose_uplinks_pair_with_their_switches_as_cabled_with_roce_qos() {
    let (spec, report) = support::on_arista(engine::examples::HYBRID);
    let files: HashMap<_, _> = bundle(&spec, &report).into_iter().collect();
    let (fabrics, _) = planned(&report);
    for f in fabrics.iter().filter(|f| f.fabric.technology.is_ethernet()) {
        let name = &f.fabric.name;
        let vars = yaml(&files[&format!("avd/{name}.yml")]);
        assert_eq!(vars["fabric_name"], name.to_uppercase());
        assert_eq!(vars["overlay_routing_protocol"], "none");
        assert_eq!(vars["underlay_routing_protocol"], "ebgp");
        let leaf = &vars["l3leaf"];
        assert_eq!(leaf["defaults"]["mlag"], false);
        assert_eq!(leaf["defaults"]["vtep"], false);
        let mut uplinks = BTreeSet::new();
        let groups = leaf["node_groups"].as_array().unwrap();
        for g in groups {
            assert!(g["bgp_as"].as_str().unwrap().parse::<u64>().is_ok());
            for node in g["nodes"].as_array().unwrap() {
                let Some(ifs) = node.get("uplink_interfaces") else {
                    continue;
                };
                let (ifs, sws, sw_ifs) = (
                    ifs.as_array().unwrap(),
                    node["uplink_switches"].as_array().unwrap(),
                    node["uplink_switch_interfaces"].as_array().unwrap(),
                );
                assert_eq!((ifs.len(), sws.len()), (sw_ifs.len(), sw_ifs.len()));
                for ((i, s), si) in ifs.iter().zip(sws).zip(sw_ifs) {
                    assert!(
                        ethernet_name(i.as_str().unwrap()) && ethernet_name(si.as_str().unwrap())
                    );
                    uplinks.insert((
                        node["name"].as_str().unwrap().to_string(),
                        s.as_str().unwrap().to_string(),
                    ));
                }
            }
        }
        let leaves = f.switches().iter().filter(|s| s.contains("-leaf-")).count();
        assert_eq!(groups.len(), leaves);
        let cabled: BTreeSet<_> = f
            .cables()
            .filter(|c| c.tier == "leaf-spine")
            .map(|c| (c.a_device.to_string(), c.z_device.to_string()))
            .collect();
        assert_eq!(uplinks, cabled, "{name}: uplinks as cabled");
        // RoCE: the lossless profile on the fabric links.
        assert_eq!(vars["p2p_uplinks_qos_profile"], "ROCE_LOSSLESS");
        let profile = &vars["custom_structured_configuration_qos_profiles"][0];
        assert_eq!(profile["trust"], "dscp");
        let pfc = &profile["priority_flow_control"];
        assert_eq!(
            pfc["priorities"][0],
            serde_json::json!({"priority": 3, "no_drop": true})
        );
        assert_eq!(pfc["watchdog"]["enabled"], true);
        let ecn = &profile["uc_tx_queues"][0]["random_detect"]["ecn"]["threshold"];
        assert_eq!(
            ecn,
            &serde_json::json!({"units": "kbytes", "min": 150, "max": 1500})
        );
        let inventory = yaml(&files[&format!("avd/{name}-inventory.yml")]);
        let group = &inventory["all"]["children"][name.to_uppercase()]["children"];
        assert_eq!(
            group[format!("{}_LEAVES", name.to_uppercase())]["vars"]["type"],
            "l3leaf"
        );
        if f.fabric.plan.spines > 0 {
            let spines = &group[format!("{}_SPINES", name.to_uppercase())];
            assert_eq!(spines["vars"]["type"], "spine");
            assert_eq!(
                spines["hosts"].as_object().unwrap().len() as u32,
                f.fabric.plan.spines
            );
            assert_eq!(
                vars["spine"]["nodes"].as_array().unwrap().len() as u32,
                f.fabric.plan.spines
            );
        }
    }
}

#[test]
fn a_three_tier_ethernet_fabric_puts_its_cores_in_super_spine_with_spine_uplinks_as_cabled() {
    let mut value: serde_json::Value = serde_json::from_str(engine::examples::HYBRID).unwrap();
    support::arista_switches(&mut value);
    value["fabrics"][2]["topology"] = "three_tier".into();
    let spec = DesignSpec::from_value(value).unwrap();
    let report = evaluate(&spec).unwrap();
    let storage = report.fabrics.iter().find(|f| f.name == "storage").unwrap();
    assert!(storage.plan.cores > 0);
    let files: HashMap<_, _> = bundle(&spec, &report).into_iter().collect();
    let vars = yaml(&files["avd/storage.yml"]);
    let cores = vars["super_spine"]["nodes"].as_array().unwrap();
    assert_eq!(cores.len() as u32, storage.plan.cores);
    for spine in vars["spine"]["nodes"].as_array().unwrap() {
        let ups = spine["uplink_switches"].as_array().unwrap();
        assert_eq!(
            ups.len(),
            spine["uplink_interfaces"].as_array().unwrap().len()
        );
        assert!(ups
            .iter()
            .all(|u| u.as_str().unwrap().starts_with("storage-core-")));
    }
    let inventory = yaml(&files["avd/storage-inventory.yml"]);
    let groups = &inventory["all"]["children"]["STORAGE"]["children"];
    assert_eq!(
        groups["STORAGE_SUPER_SPINES"]["vars"]["type"],
        "super_spine"
    );
}

/// The Cable Validation Tool numbers a host's ports 1 to N and takes port N for mlx5_{N-1}
/// unless told otherwise: for DGX nodes, whose compute adapters are mlx5_0, 3, 4, 5, 6, 9, 10
/// and 11, the bundle tells it, with its hca_mapping file.
#[test]
fn a_dgx_fabric_s_cvt_files_come_with_the_hca_mapping_of_its_adapters() {
    let spec = DesignSpec::from_json(engine::examples::SUPERPOD_4SU).unwrap();
    let report = evaluate(&spec).unwrap();
    let files: std::collections::HashMap<_, _> = bundle(&spec, &report).into_iter().collect();
    assert_eq!(
        files["cvt/compute-hca-mapping.csv"],
        "port,hca-name\n1,mlx5_0\n2,mlx5_3\n3,mlx5_4\n4,mlx5_5\n5,mlx5_6\n6,mlx5_9\n7,mlx5_10\n8,mlx5_11\n"
    );
    assert!(
        !files.contains_key("cvt/storage-hca-mapping.csv"),
        "the storage adapters are not the node type's compute ones"
    );
    assert!(files["README.txt"].contains("cvt/compute-hca-mapping.csv"));
}

/// On Ethernet a host's port is its interface, as the host names it: a DGX H100 compute fabric
/// on RoCE gives each node's rail N the interface of its N-th compute adapter (enp24s0np0 for
/// rail 1 … enp220s0np0 for rail 8) in the cable-validation file, which the validation tool
/// matches against what each host reports.
#[test]
fn a_dgx_fabric_on_ethernet_names_each_host_port_by_its_interface() {
    let mut spec = DesignSpec::from_json(engine::examples::SEVENTY_B_TRAINING).unwrap();
    let compute = spec
        .fabrics
        .iter_mut()
        .find(|f| f.name == "compute")
        .unwrap();
    compute.technology = engine::Technology::Roce400;
    compute.switch = None;
    let report = evaluate(&spec).unwrap();
    let files: HashMap<_, _> = bundle(&spec, &report).into_iter().collect();
    let rows = csv_rows(&files["cvt/compute-p2p.csv"]);
    let (fabrics, _) = planned(&report);
    let plan = fabrics.iter().find(|f| f.fabric.name == "compute").unwrap();
    let adapters = engine::catalog::adapters_of(&spec, "compute");
    assert_eq!(adapters.len(), 8);
    let mut hosts = 0;
    for (row, lc) in rows[1..].iter().zip(plan.cables()) {
        if let Some(rail) = lc.a_port.strip_prefix("compute-nic") {
            let rail: usize = rail.parse().unwrap();
            assert_eq!(row[1], "Host");
            assert_eq!(row[2], adapters[rail - 1].ethernet, "{row:?}");
            hosts += 1;
        }
    }
    assert_eq!(hosts, 16 * 8, "every node's eight rails");
}

/// A fabric of more than a thousand links also gets a graph a reader can follow: the SuperPOD's
/// compute fabric as its four scalable units, each of 8 leaves with 256 links up, and its spines.
#[test]
fn a_large_fabric_gets_a_summary_graph_by_scalable_unit_beside_the_full_one() {
    let (spec, report) = design(engine::examples::SUPERPOD_4SU);
    let files: HashMap<_, _> = bundle(&spec, &report).into_iter().collect();
    let summary = &files["graphviz/compute-summary.dot"];
    assert!(
        summary.starts_with("graph \"compute-summary\" {\n"),
        "{summary}"
    );
    for su in 1..=4 {
        assert!(
            summary.contains(&format!(
                "\"compute-su0{su}\" -- \"compute-spines\" [label=\"256 links\"]"
            )),
            "{summary}"
        );
    }
    assert!(summary.contains("compute-spines: 16 spines"), "{summary}");
    assert!(
        summary.contains("compute-su01: 32 nodes, 8 leaves"),
        "{summary}"
    );
    assert_eq!(summary.matches(" -- ").count(), 4);
    assert!(
        !files.contains_key("graphviz/storage-summary.dot"),
        "the storage fabric (fewer than 1,000 links) is drawn whole"
    );
}

/// An installer sorts and prints labels by their text: on a sheet of 100,000 cables or more,
/// every label takes a sixth digit, so that all have one width and sort in the sheet's order.
#[test]
fn the_labels_of_a_sheet_of_a_hundred_thousand_cables_have_one_width_and_sort_in_its_order() {
    let mut value: serde_json::Value =
        serde_json::from_str(engine::examples::SUPERPOD_4SU).unwrap();
    value["cluster"]["nodes"] = serde_json::json!(3_400);
    value["workloads"] = serde_json::json!([]);
    value.as_object_mut().unwrap().remove("growth");
    let spec = DesignSpec::from_json(&value.to_string()).unwrap();
    let report = evaluate(&spec).unwrap();
    let (fabrics, skipped) = planned(&report);
    assert!(skipped.is_empty(), "{skipped:?}");
    let labels: Vec<&str> = fabrics
        .iter()
        .flat_map(|f| f.cables())
        .map(|c| c.label)
        .collect();
    assert!(labels.len() >= 100_000, "{} cables", labels.len());
    assert_eq!(label_digits(&report), 6);
    assert_eq!(labels[0], "C000001");
    assert!(labels.iter().all(|l| l.len() == 7), "one width");
    assert!(
        labels.windows(2).all(|w| w[0] < w[1]),
        "in the sheet's order"
    );
    let (_, example) = design(engine::examples::SUPERPOD_4SU);
    assert_eq!(label_digits(&example), 5, "61,144 cables keep five digits");
}

/// A bundle's files reach whoever zips or sends them a piece at a time: the files that list
/// every cable (the NetBox cables, the InfiniBand topology, hundreds of megabytes for a million
/// cables) are never held whole, and the pieces make up exactly the files of the bundle.
#[test]
fn the_files_that_list_every_cable_are_handed_on_in_pieces_that_make_up_the_bundle() {
    struct Pieces {
        files: Vec<(String, String)>,
        largest_piece: usize,
        /// How many pieces each file came in.
        pieces: Vec<usize>,
    }
    impl engine::handoff::Files for Pieces {
        fn begin(&mut self, name: &str) {
            self.files.push((name.to_string(), String::new()));
            self.pieces.push(0);
        }
        fn write(&mut self, text: &str) {
            self.largest_piece = self.largest_piece.max(text.len());
            *self.pieces.last_mut().unwrap() += 1;
            self.files.last_mut().unwrap().1.push_str(text);
        }
    }
    let (spec, report) = design(engine::examples::SUPERPOD_4SU);
    let mut pieces = Pieces {
        files: Vec::new(),
        largest_piece: 0,
        pieces: Vec::new(),
    };
    let readme = engine::handoff::write_bundle(&spec, &report, &mut pieces);
    let mut whole = bundle(&spec, &report);
    assert_eq!(whole.remove(0), ("README.txt".to_string(), readme));
    assert_eq!(pieces.files, whole, "the pieces make up every file");
    let (largest, largest_file) = (0..whole.len())
        .map(|i| (i, whole[i].1.len()))
        .max_by_key(|(_, len)| *len)
        .unwrap();
    assert!(largest_file > 256 << 10, "{largest_file} bytes");
    // A piece is handed on once it holds 64 KiB, at the end of a row or a switch's lines.
    assert!(
        pieces.largest_piece < 80 << 10,
        "largest piece {} bytes",
        pieces.largest_piece
    );
    assert!(pieces.pieces[largest] > largest_file / (80 << 10));
}
