//! Slurm, Kubernetes and Graphviz files of the hand-off bundle, checked against their documented
//! syntax for the 4-SU SuperPOD and the hybrid example.

use crate::support;

use engine::handoff::k8s::{FABRIC, TIERS, TIERS_0X};
use engine::handoff::{bundle, planned, scheduling_fabric};
use engine::{evaluate, DesignSpec};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use support::{expand_hostlist, yaml_documents, EXAMPLES};

/// For each example: the bundle, and the nodes of its scheduling fabric (no extra endpoints).
fn each(mut test: impl FnMut(&HashMap<String, String>, BTreeSet<String>, &engine::FabricReport)) {
    for example in EXAMPLES {
        let spec = DesignSpec::from_json(example).unwrap();
        let report = evaluate(&spec).unwrap();
        let files: HashMap<_, _> = bundle(&spec, &report).into_iter().collect();
        let (fabrics, _) = planned(&report);
        let f = scheduling_fabric(&fabrics).unwrap();
        let nodes = f
            .hosts()
            .into_iter()
            .filter(|h| !h.contains("-endpoint-"))
            .map(str::to_string)
            .collect();
        test(&files, nodes, f.fabric);
    }
}

/// `Key=value` pairs of a topology.conf line (keys are case-insensitive for Slurm; written as
/// the man page spells them).
fn pairs(line: &str) -> BTreeMap<&str, &str> {
    line.split_whitespace()
        .map(|kv| kv.split_once('=').expect("key=value"))
        .collect()
}

#[test]
fn the_slurm_tree_has_each_node_under_one_switch_and_every_switch_under_the_top() {
    each(|files, nodes, fabric| {
        let text = &files["slurm/topology.conf"];
        let mut seen = Vec::new();
        let mut switches = BTreeSet::new();
        let mut children = BTreeSet::new();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let kv = pairs(line);
            let name = kv["SwitchName"];
            assert!(name.len() <= 64 && switches.insert(name), "{line}");
            match (kv.get("Nodes"), kv.get("Switches")) {
                (Some(n), None) => seen.extend(expand_hostlist(n)),
                (None, Some(s)) => children.extend(expand_hostlist(s)),
                _ => panic!("a switch has Nodes or Switches: {line}"),
            }
            assert_eq!(kv.len(), 2, "{line}");
        }
        let unique: BTreeSet<String> = seen.iter().cloned().collect();
        assert_eq!(unique.len(), seen.len(), "each node once");
        assert_eq!(unique, nodes);
        for c in &children {
            assert!(switches.contains(c.as_str()), "{c} is a switch");
        }
        if fabric.plan.spines > 0 {
            assert_eq!(
                switches.len(),
                children.len() + 1,
                "one top switch over every other"
            );
        }
    });
}

#[test]
fn slurm_blocks_hold_every_node_once_and_block_sizes_double_from_the_smallest_block() {
    each(|files, nodes, _| {
        let text = &files["slurm/topology-block.conf"];
        let mut seen = Vec::new();
        let mut sizes = Vec::new();
        let mut block_sizes = None;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let kv = pairs(line);
            if let Some(s) = kv.get("BlockSizes") {
                block_sizes = Some(
                    s.split(',')
                        .map(|n| n.parse::<usize>().unwrap())
                        .collect::<Vec<_>>(),
                );
                continue;
            }
            assert!(kv.contains_key("BlockName"), "{line}");
            let members = expand_hostlist(kv["Nodes"]);
            sizes.push(members.len());
            seen.extend(members);
        }
        assert_eq!(seen.iter().cloned().collect::<BTreeSet<_>>(), nodes);
        assert_eq!(seen.len(), nodes.len());
        let block_sizes = block_sizes.expect("a BlockSizes line");
        assert!(
            sizes.iter().all(|s| *s >= block_sizes[0]),
            "every block holds the base size"
        );
        for pair in block_sizes.windows(2) {
            let ratio = pair[1] / pair[0];
            assert!(
                pair[1] % pair[0] == 0 && ratio.is_power_of_two() && ratio > 1,
                "{pair:?}"
            );
        }
    });
    let spec = DesignSpec::from_json(engine::examples::SUPERPOD_4SU).unwrap();
    let files: HashMap<_, _> = bundle(&spec, &evaluate(&spec).unwrap())
        .into_iter()
        .collect();
    // 4 scalable units of 32 nodes, the last with 31 (one slot holds UFM).
    assert!(files["slurm/topology-block.conf"]
        .contains("BlockName=compute-su04 Nodes=node-[097-127]\nBlockSizes=31,62,124\n"));
}

fn label_value(v: &str) -> bool {
    v.len() <= 63
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        && v.starts_with(|c: char| c.is_ascii_alphanumeric())
        && v.ends_with(|c: char| c.is_ascii_alphanumeric())
}

#[test]
fn every_node_gets_one_valid_label_per_tier_and_kueue_levels_run_coarse_to_fine() {
    each(|files, nodes, fabric| {
        let tiers = match fabric.plan.tiers {
            1 => 1,
            2 => 2,
            _ => 3,
        };
        for (file, keys) in [
            ("kubernetes/node-labels.yaml", TIERS),
            ("kubernetes/node-labels-topograph-0x.yaml", TIERS_0X),
        ] {
            let docs = yaml_documents(&files[file]);
            assert_eq!(docs.len(), nodes.len());
            let mut named = BTreeSet::new();
            for d in &docs {
                assert_eq!(
                    (d["apiVersion"].as_str(), d["kind"].as_str()),
                    (Some("v1"), Some("Node"))
                );
                named.insert(d["metadata"]["name"].as_str().unwrap().to_string());
                let labels = d["metadata"]["labels"].as_object().unwrap();
                let found: BTreeSet<&str> = labels.keys().map(String::as_str).collect();
                let expected: BTreeSet<&str> =
                    keys[..tiers].iter().copied().chain([FABRIC]).collect();
                assert_eq!(found, expected, "{file}");
                assert_eq!(labels[FABRIC], fabric.name.as_str());
                for v in labels.values() {
                    assert!(label_value(v.as_str().unwrap()), "{v}");
                }
            }
            assert_eq!(named, nodes);
        }
        // The Topology from the coarsest tier to the host, and the flavor that uses it on the
        // fabric's nodes (Kueue's TAS needs both: kueue.sigs.k8s.io, Topology Aware Scheduling).
        let docs = yaml_documents(&files["kubernetes/kueue-topology.yaml"]);
        assert_eq!(docs.len(), 2);
        let (topology, flavor) = (&docs[0], &docs[1]);
        assert_eq!(topology["apiVersion"], "kueue.x-k8s.io/v1beta2");
        assert_eq!(topology["kind"], "Topology");
        let levels: Vec<&str> = topology["spec"]["levels"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["nodeLabel"].as_str().unwrap())
            .collect();
        let mut expected: Vec<&str> = TIERS[..tiers].iter().rev().copied().collect();
        expected.push("kubernetes.io/hostname");
        assert_eq!(levels, expected);
        assert_eq!(flavor["kind"], "ResourceFlavor");
        assert_eq!(flavor["spec"]["topologyName"], topology["metadata"]["name"]);
        assert_eq!(flavor["spec"]["nodeLabels"][FABRIC], fabric.name.as_str());
    });
}

#[test]
fn the_dot_graph_has_a_quoted_node_per_device_and_an_edge_per_cable_between_ports() {
    const COMPASS: [&str; 10] = ["n", "ne", "e", "se", "s", "sw", "w", "nw", "c", "_"];
    for example in EXAMPLES {
        let spec = DesignSpec::from_json(example).unwrap();
        let report = evaluate(&spec).unwrap();
        let files: HashMap<_, _> = bundle(&spec, &report).into_iter().collect();
        let (fabrics, _) = planned(&report);
        for f in &fabrics {
            let text = &files[&format!("graphviz/{}.dot", f.fabric.name)];
            assert!(
                text.starts_with(&format!("graph \"{}\" {{\n", f.fabric.name))
                    && text.ends_with("}\n")
            );
            let mut nodes = BTreeSet::new();
            let mut edges = 0;
            for line in text.lines().skip(1).filter(|l| *l != "}") {
                let quoted: Vec<&str> = line.split('"').skip(1).step_by(2).collect();
                if line.contains(" -- ") {
                    // "a":"port" -- "z":"port" [label="C00001"]
                    assert_eq!(quoted.len(), 5, "{line}");
                    assert!(
                        nodes.contains(quoted[0]) && nodes.contains(quoted[2]),
                        "{line}"
                    );
                    assert!(!COMPASS.contains(&quoted[1]) && !COMPASS.contains(&quoted[3]));
                    assert_eq!(quoted[4], f.cable(edges).unwrap().label);
                    edges += 1;
                } else {
                    assert!(line.starts_with("  \"") && line.ends_with(']'), "{line}");
                    assert!(nodes.insert(quoted[0]), "{line}");
                    if line.contains("role=") {
                        assert!(
                            ["leaf", "spine", "super_spine"].contains(&quoted[2]),
                            "{line}"
                        );
                    }
                }
            }
            assert_eq!(edges, f.cable_count());
        }
    }
}

#[test]
fn every_example_design_gives_a_bundle_whose_yaml_parses() {
    for (name, example) in engine::examples::ALL {
        let spec = DesignSpec::from_json(example).unwrap();
        let report = evaluate(&spec).unwrap();
        let mut files = 0;
        for (file, content) in bundle(&spec, &report) {
            if file.ends_with(".yml") || file.ends_with(".yaml") {
                assert!(!yaml_documents(&content).is_empty(), "{name}: {file}");
                files += 1;
            }
        }
        // The Kubernetes labels at least, whatever the switches.
        assert!(files > 0, "{name}: no YAML file");
    }
}
