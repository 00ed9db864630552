//! Tenants sharing one fabric: where they land, what partitions they get, how much they slow
//! each other and what isolation costs. The fabric is the 4-SU DGX SuperPOD example's
//! rail-optimized compute fabric (32 nodes per scalable unit, one leaf per rail in each).

use engine::tenancy::{TenantPlacement, FIRST_PKEY};
use engine::{DesignSpec, Report};
use serde_json::{json, Value};

/// The SuperPOD example with `jobs` training jobs of Llama 3 70B (name, nodes: 8 GPUs each, TP 8,
/// DP the nodes) and `tenants`, on `technology`.
fn superpod(technology: &str, nodes: u32, jobs: &[(&str, u32)], tenants: Value) -> Value {
    let mut spec: Value = serde_json::from_str(engine::examples::SUPERPOD_4SU).unwrap();
    spec["cluster"]["nodes"] = json!(nodes);
    spec.as_object_mut().unwrap().remove("growth");
    spec["fabrics"][0]["technology"] = json!(technology);
    if technology != "ib_ndr" {
        spec["fabrics"][0]["switch"] = json!("sn5400");
        spec["fabrics"][0]["port_gbps"] = json!(400);
    }
    spec["fabrics"][0]["extra_endpoints"] = json!(0);
    let template = spec["workloads"][0].clone();
    let mut workloads: Vec<Value> = jobs
        .iter()
        .map(|(name, nodes)| {
            let mut w = template.clone();
            w["name"] = json!(name);
            w["model"] = json!({"preset": "llama3-70b", "parameters": 70e9, "layers": 80, "hidden": 8192, "sequence_length": 8192, "precision": "bf16"});
            w["parallelism"] = json!({"dp": nodes, "tp": 8, "pp": 1, "sharding": "zero1"});
            w["global_batch"] = json!(nodes * 4);
            w
        })
        .collect();
    workloads.push(spec["workloads"][1].clone());
    spec["workloads"] = json!(workloads);
    spec["tenants"] = tenants;
    spec
}

fn evaluate(spec: &Value) -> (DesignSpec, Report) {
    let spec = DesignSpec::from_json(&spec.to_string()).unwrap();
    let report = engine::evaluate(&spec).unwrap().over_its_life(&spec);
    (spec, report)
}

fn placed<'r>(report: &'r Report, tenant: &str) -> &'r TenantPlacement {
    report.tenants.iter().find(|t| t.tenant == tenant).unwrap()
}

fn errors(spec: &Value) -> Vec<(String, String)> {
    let spec = match DesignSpec::from_json(&spec.to_string()) {
        Ok(spec) => spec,
        Err(e) => return e.0.into_iter().map(|e| (e.path, e.reason)).collect(),
    };
    match engine::evaluate(&spec) {
        Ok(_) => Vec::new(),
        Err(e) => e.0.into_iter().map(|e| (e.path, e.reason)).collect(),
    }
}

#[test]
fn two_tenants_of_one_unit_each_share_no_leaf() {
    let spec = superpod(
        "ib_ndr",
        128,
        &[("job-a", 32), ("job-b", 32)],
        json!([
            {"name": "team-a", "workloads": ["job-a"]},
            {"name": "team-b", "workloads": ["job-b"]}
        ]),
    );
    let (_, report) = evaluate(&spec);
    let (a, b) = (placed(&report, "team-a"), placed(&report, "team-b"));
    assert_eq!((a.first_unit, a.units), (1, 1));
    assert_eq!((b.first_unit, b.units), (2, 1));
    assert_eq!(
        (a.range(), b.range()),
        ("nodes 1–32".into(), "nodes 33–64".into())
    );
    // Each job runs within its tenant's nodes.
    let job = |name: &str| {
        report
            .allocations
            .iter()
            .find(|x| x.workload == name)
            .unwrap()
    };
    assert_eq!((job("job-a").first_node, job("job-b").first_node), (1, 33));
    assert_eq!(report.interference.len(), 2, "{:?}", report.interference);
    for i in &report.interference {
        assert_eq!(i.shared_leaves, 0, "{}", i.tenant);
        assert!(
            !i.crosses_leaves,
            "{} stays under its unit's leaves",
            i.tenant
        );
        assert_eq!(
            i.spine_share.fraction(),
            0.0,
            "{} sends nothing to the spines",
            i.tenant
        );
        for w in &i.workloads {
            assert_eq!((w.alone, w.worst), (w.expected, w.expected));
        }
    }
}

#[test]
fn a_tenant_spanning_two_units_shares_spines_in_proportion_to_its_uplinks() {
    let spec = superpod(
        "ib_ndr",
        128,
        &[("big", 64), ("small", 32)],
        json!([
            {"name": "big", "workloads": ["big"]},
            {"name": "small", "workloads": ["small"]}
        ]),
    );
    let (_, report) = evaluate(&spec);
    let fabric = &report.fabrics[0];
    assert_eq!(fabric.plan.leaves, 32, "4 SU × 8 rails");
    let big = report
        .interference
        .iter()
        .find(|i| i.tenant == "big")
        .unwrap();
    assert!(big.crosses_leaves);
    // Its 2 units' 16 leaves hold 16 of the fabric's 32 leaves' uplinks: half the spine ports.
    assert_eq!(big.leaves, 16);
    assert_eq!(big.spine_share.fraction(), 0.5);
    // Adaptive routing on InfiniBand, a non-blocking leaf of its own: nothing to lose.
    assert_eq!(
        (big.alone.value.fraction(), big.worst.value.fraction()),
        (1.0, 1.0)
    );
}

/// Two tenants meeting on one unit's leaves of a RoCE fabric that hashes its flows (ECMP):
/// 96 nodes in 3 units, `first` takes 40 (unit 1 and 8 nodes of unit 2), `second` the next 40
/// (24 of unit 2 and 16 of unit 3). On unit 2's leaves the second's 24 ports hash with the
/// first's 8: its flows collide more than alone.
#[test]
fn tenants_meeting_on_a_hashed_leaf_slow_each_other_and_adaptive_routing_does_not() {
    let tenants = json!([
        {"name": "first", "workloads": ["first"], "isolation": "node"},
        {"name": "second", "workloads": ["second"], "isolation": "node"}
    ]);
    let jobs = [("first", 40), ("second", 40)];
    let (_, report) = evaluate(&superpod("roce400", 96, &jobs, tenants.clone()));
    assert_eq!(placed(&report, "second").range(), "nodes 41–80");
    let second = report
        .interference
        .iter()
        .find(|i| i.tenant == "second")
        .unwrap();
    assert_eq!(second.shared_leaves, 8, "unit 2's leaf of each rail");
    // Alone: 24 flows on 32 uplinks keep 32·(1 − (31/32)^24)/24 of them.
    let m = 32.0f64;
    let alone = m * (1.0 - (1.0 - 1.0 / m).powi(24)) / 24.0;
    let worst = m * (1.0 - (1.0 - 1.0 / m).powi(32)) / 32.0;
    assert!(
        (second.alone.value.fraction() - alone).abs() < 1e-9,
        "{}",
        second.alone.value.fraction()
    );
    assert!(
        (second.worst.value.fraction() - worst).abs() < 1e-9,
        "{}",
        second.worst.value.fraction()
    );
    assert!(second.expected.value.fraction() > worst && second.expected.value.fraction() < alone);
    let job = &second.workloads[0];
    assert!(
        job.alone < job.expected && job.expected < job.worst,
        "{job:?}"
    );

    let (_, report) = evaluate(&superpod("ib_ndr", 96, &jobs, tenants));
    assert!(!report.interference.is_empty());
    for i in &report.interference {
        assert_eq!(
            (i.alone.value.fraction(), i.worst.value.fraction()),
            (1.0, 1.0),
            "{}",
            i.tenant
        );
    }
}

/// Two tenants meeting on a pod's spine-to-core uplinks of a three-tier fabric: 576 nodes of
/// 8 ports on 64-port leaves (4 nodes each), pods of 48 leaves (192 nodes, 1,536 ports) whose
/// spines, 3:1 oversubscribed, have 512 uplinks to the core. `a` holds nodes 97–288 (the second
/// half of pod 1, the first of pod 2), `b` nodes 289–480 (the rest of pod 2, half of pod 3):
/// each has its leaves to itself, and both send across pod 2's core uplinks.
#[test]
fn tenants_spanning_pods_share_the_core_uplinks_of_the_pod_they_meet_in() {
    let mut spec = superpod(
        "ib_ndr",
        576,
        &[("a", 192), ("b", 192)],
        json!([
            {"name": "a", "workloads": ["a"], "first_unit": 25},
            {"name": "b", "workloads": ["b"], "first_unit": 73}
        ]),
    );
    spec["fabrics"][0]["topology"] = json!("three_tier");
    spec["fabrics"][0]["oversubscription"] = json!({"leaf": 1, "spine": 3});
    let spec = DesignSpec::from_json(&spec.to_string()).unwrap();
    let report = engine::evaluate(&spec).unwrap();
    let plan = &report.fabrics[0].plan;
    assert_eq!((plan.leaves, plan.pods, plan.leaves_per_pod), (144, 3, 48));
    assert_eq!(plan.spine_core_links, 3 * 512);
    assert_eq!(placed(&report, "a").range(), "nodes 97–288");
    let interference = engine::interference::interference(&spec, &report);
    let a = interference.iter().find(|i| i.tenant == "a").unwrap();
    assert!(a.crosses_pods);
    assert_eq!((a.pods, a.shared_pods, a.shared_leaves), (2, 1, 0));
    // Its 48 leaves are a third of the leaves' uplinks; of the core uplinks it holds pod 1's
    // 512 alone and half of pod 2's: 768 of 1,536.
    assert!((a.spine_share.fraction() - 1.0 / 3.0).abs() < 1e-9);
    assert!((a.core_share.fraction() - 0.5).abs() < 1e-9);
    // Alone its 768 ports in each pod get 512 uplinks; shared, pod 2's 1,536 ports do.
    assert!(
        (a.alone.value.fraction() - 2.0 / 3.0).abs() < 1e-9,
        "{:?}",
        a.alone
    );
    assert!(
        (a.worst.value.fraction() - 1.0 / 3.0).abs() < 1e-9,
        "{:?}",
        a.worst
    );
    assert!(a.core_binds && a.worst.formula.contains("spine-to-core"));
    let job = &a.workloads[0];
    assert!(job.alone < job.worst, "{job:?}");
}

#[test]
fn whole_unit_isolation_strands_the_rest_of_the_unit_and_a_fabric_of_its_own_adds_spines() {
    let spec = superpod(
        "ib_ndr",
        128,
        &[("tuning", 20), ("pretrain", 64)],
        json!([
            {"name": "tuning", "workloads": ["tuning"], "isolation": "scalable_unit"},
            {"name": "pretrain", "workloads": ["pretrain"], "isolation": "fabric"}
        ]),
    );
    let (_, report) = evaluate(&spec);
    let tuning = placed(&report, "tuning");
    assert_eq!((tuning.nodes, tuning.stranded_nodes), (32, 12));
    let cost = |t: &str| {
        report
            .isolation_costs
            .iter()
            .find(|c| c.tenant == t)
            .unwrap()
    };
    assert_eq!(cost("tuning").stranded_gpus, 96);
    assert_eq!(
        cost("tuning").stranded_ports,
        96,
        "12 nodes × 8 rails' leaf ports"
    );
    assert_eq!(cost("tuning").extra_switches, 0);
    // 64 nodes alone need 8 spines for their 16 leaves, the other 64 another 8: the shared
    // fabric's 16 spines cover all 32 leaves, so two fabrics need no more spines here.
    assert_eq!(cost("pretrain").stranded_gpus, 0);
    assert_eq!(
        cost("pretrain").extra_ports,
        u64::from(cost("pretrain").extra_switches) * 64,
        "QM9700: 64 ports"
    );
    assert_eq!(
        cost("pretrain").extra_switch_cost.dollars(),
        f64::from(cost("pretrain").extra_switches)
            * engine::catalog::switch("qm9700")
                .unwrap()
                .price_usd
                .dollars()
    );
}

#[test]
fn partition_keys_are_unique_and_within_infinibands_fifteen_bits() {
    let names: Vec<String> = (0..engine::MAX_TENANTS).map(|i| format!("t{i}")).collect();
    let tenants: Vec<Value> = names
        .iter()
        .map(|n| json!({"name": n, "nodes": 2, "isolation": "node"}))
        .collect();
    let spec = superpod("ib_ndr", 128, &[], json!(tenants));
    let (_, report) = evaluate(&spec);
    let keys: std::collections::BTreeSet<u16> = report
        .tenants
        .iter()
        .map(|t| t.partition.as_ref().unwrap().pkey)
        .collect();
    assert_eq!(keys.len(), engine::MAX_TENANTS);
    assert!(
        keys.iter().all(|k| *k >= FIRST_PKEY && *k < 0x7FFF),
        "{keys:?}"
    );
    // Every tenant is in one unit: 2 nodes fit in any.
    assert!(report.tenants.iter().all(|t| t.units == 1));
}

#[test]
fn a_tenancy_that_cannot_be_placed_is_refused_naming_the_field() {
    let two = [("job-a", 32), ("job-b", 32)];
    let cases = [
        (
            json!([{"name": "huge", "nodes": 500}]),
            "tenants[0].nodes",
            "more than the cluster's 128 nodes",
        ),
        (
            json!([
                {"name": "a", "workloads": ["job-a"], "first_unit": 2},
                {"name": "b", "workloads": ["job-b"], "first_unit": 2}
            ]),
            "tenants[1].first_unit",
            "two tenants cannot be pinned to the same nodes",
        ),
        (
            json!([{"name": "a", "workloads": ["job-a", "job-a"]}]),
            "tenants[0].workloads[1]",
            "listed twice",
        ),
        (
            json!([{"name": "a", "workloads": ["job-a"]}, {"name": "b", "workloads": ["job-a"]}]),
            "tenants[1].workloads[0]",
            "belongs to one tenant",
        ),
        (
            json!([{"name": "a", "workloads": ["job-a"], "nodes": 8}]),
            "tenants[0].nodes",
            "its workloads take 32 nodes",
        ),
        (
            json!([{"name": "Team A", "workloads": ["job-a"]}]),
            "tenants[0].name",
            "lower-case",
        ),
        (
            json!([{"name": "sixteen-letters1", "workloads": ["job-a"]}]),
            "tenants[0].name",
            "at most 15 characters",
        ),
        (
            json!([{"name": "a", "workloads": ["nobody"]}]),
            "tenants[0].workloads[0]",
            "names no workload",
        ),
    ];
    for (tenants, path, why) in cases {
        let found = errors(&superpod("ib_ndr", 128, &two, tenants));
        assert!(
            found.iter().any(|(p, r)| p == path && r.contains(why)),
            "{path}: {why} in {found:?}"
        );
    }
    // A fabric of one switch has one scalable unit: two tenants cannot each have units of
    // their own.
    let mut small = superpod(
        "ib_ndr",
        4,
        &[("job-a", 2), ("job-b", 2)],
        json!([
            {"name": "a", "workloads": ["job-a"], "isolation": "scalable_unit"},
            {"name": "b", "workloads": ["job-b"], "isolation": "scalable_unit"}
        ]),
    );
    small["fabrics"][0]["topology"] = json!("auto");
    let found = errors(&small);
    assert!(
        found
            .iter()
            .any(|(p, r)| p == "tenants[1].isolation" && r.contains("one scalable unit")),
        "{found:?}"
    );
}

/// The hand-off files a scheduler and the subnet manager enforce tenants with: each tenant's
/// Slurm partition holds exactly its nodes, each of its nodes carries its namespace's label once,
/// and on InfiniBand each isolated tenant's key is a valid UFM request with every port of its
/// nodes as a member; the shared tenant has no key (the default partition).
#[test]
fn the_bundle_partitions_each_tenant_for_slurm_kubernetes_and_ufm() {
    use crate::support::{expand_hostlist, yaml_documents};
    let spec = superpod(
        "ib_ndr",
        128,
        &[("job-a", 32), ("job-b", 40)],
        json!([
            {"name": "team-a", "workloads": ["job-a"], "isolation": "scalable_unit"},
            {"name": "team-b", "workloads": ["job-b"], "isolation": "node"},
            {"name": "guests", "nodes": 4, "isolation": "shared"}
        ]),
    );
    let (spec, report) = evaluate(&spec);
    let files: std::collections::HashMap<String, String> = engine::handoff::bundle(&spec, &report)
        .into_iter()
        .collect();
    let nodes_of = |t: &TenantPlacement| -> Vec<String> {
        (t.first_node..=t.last_node())
            .map(|n| format!("node-{n:03}"))
            .collect()
    };

    let slurm = &files["slurm/partitions.conf"];
    let mut partitions = std::collections::BTreeMap::new();
    for line in slurm.lines().filter(|l| l.starts_with("PartitionName=")) {
        let pairs: std::collections::BTreeMap<&str, &str> = line
            .split_whitespace()
            .map(|kv| kv.split_once('=').unwrap())
            .collect();
        partitions.insert(
            pairs["PartitionName"].to_string(),
            expand_hostlist(pairs["Nodes"]),
        );
    }
    assert_eq!(partitions.len(), 3);
    for t in &report.tenants {
        assert_eq!(partitions[&t.tenant], nodes_of(t), "{}", t.tenant);
    }

    let mut namespaces = Vec::new();
    let mut labelled = std::collections::BTreeMap::new();
    for doc in yaml_documents(&files["kubernetes/tenants.yaml"]) {
        let name = doc["metadata"]["name"].as_str().unwrap().to_string();
        let tenant = doc["metadata"]["labels"]["fabric-planner/tenant"]
            .as_str()
            .unwrap()
            .to_string();
        match doc["kind"].as_str().unwrap() {
            "Namespace" => namespaces.push(name),
            "Node" => assert!(
                labelled.insert(name, tenant).is_none(),
                "a node labelled twice"
            ),
            other => panic!("{other}"),
        }
    }
    assert_eq!(namespaces, ["team-a", "team-b", "guests"]);
    for t in &report.tenants {
        for node in nodes_of(t) {
            assert_eq!(labelled[&node], t.tenant);
        }
    }

    let pkeys: Vec<Value> = serde_json::from_str(&files["ufm/compute-pkeys.json"]).unwrap();
    let keys: Vec<&str> = pkeys.iter().map(|b| b["pkey"].as_str().unwrap()).collect();
    assert_eq!(keys, ["0x1001", "0x1002"], "the shared tenant has no key");
    for body in &pkeys {
        let key = u16::from_str_radix(body["pkey"].as_str().unwrap().trim_start_matches("0x"), 16)
            .unwrap();
        assert!(
            key > 0 && key < 0x7fff,
            "UFM takes keys between 0x0 and 0x7fff exclusive"
        );
        let fields: Vec<&String> = body.as_object().unwrap().keys().collect();
        assert!(fields
            .iter()
            .all(|f| ["pkey", "partition_name", "index0", "ip_over_ib"].contains(&f.as_str())));
    }
    let members = &files["ufm/compute-pkey-members.csv"];
    let rows: Vec<Vec<&str>> = members
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let team_b = placed(&report, "team-b");
    let of_b: Vec<&Vec<&str>> = rows.iter().filter(|r| r[0] == "0x1002").collect();
    assert_eq!(
        of_b.len() as u32,
        team_b.nodes * 8,
        "every rail of every node"
    );
    assert!(of_b
        .iter()
        .any(|r| r[2] == nodes_of(team_b)[0] && r[3] == "mlx5_0"));
    assert!(files["README.txt"].contains("ufm/compute-pkeys.json"));
}

/// Any tenancy of the SuperPOD's jobs, on InfiniBand or hashed RoCE: the engine never panics;
/// what it places holds each tenant on nodes of its own within the cluster, each whole-unit
/// tenant on whole units, and each tenant's jobs within its nodes.
mod properties {
    use super::*;
    use proptest::prelude::*;

    /// The fabric (RoCE or InfiniBand), the owner of each job (a tenant, or none past the
    /// last), and per tenant its level, its extra nodes (or none stated) and its pinned unit.
    type Tenancy = (bool, [u8; 4], Vec<(u8, Option<u32>, Option<u32>)>);

    fn tenancy() -> impl Strategy<Value = Tenancy> {
        (
            any::<bool>(),
            proptest::array::uniform4(0u8..6),
            proptest::collection::vec(
                (
                    0u8..4,
                    proptest::option::of(0u32..24),
                    proptest::option::weighted(0.2, 1u32..6),
                ),
                1..5,
            ),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn tenants_get_nodes_of_their_own_and_their_jobs_run_on_them((roce, owners, rows) in tenancy()) {
            let jobs = [("j0", 8), ("j1", 16), ("j2", 24), ("j3", 40)];
            let levels = ["shared", "node", "scalable_unit", "fabric"];
            let tenants: Vec<Value> = rows
                .iter()
                .enumerate()
                .map(|(i, (level, extra, unit))| {
                    let mine: Vec<(&str, u32)> = (0..4)
                        .filter(|&b| usize::from(owners[b]) == i)
                        .map(|b| jobs[b])
                        .collect();
                    let needed: u32 = mine.iter().map(|j| j.1).sum();
                    let mut t = json!({"name": format!("t{i}"), "workloads": mine.iter().map(|j| j.0).collect::<Vec<_>>(), "isolation": levels[*level as usize]});
                    match extra {
                        Some(n) => t["nodes"] = json!(needed + n + u32::from(needed == 0)),
                        None if needed == 0 => t["nodes"] = json!(4),
                        None => {}
                    }
                    if let Some(u) = unit { t["first_unit"] = json!(u); }
                    t
                })
                .collect();
            let technology = if roce { "roce400" } else { "ib_ndr" };
            let spec = superpod(technology, 128, &jobs, json!(tenants));
            // A draw the rules or the placement refuse (a pinned unit beyond the fabric, pins
            // that clash) is drawn again: should every draw be refused, proptest fails.
            let spec = DesignSpec::from_json(&spec.to_string());
            prop_assume!(spec.is_ok());
            let spec = spec.unwrap();
            let report = engine::evaluate(&spec);
            prop_assume!(report.is_ok());
            let report = report.unwrap();
            let report = report.over_its_life(&spec);
            let _ = engine::handoff::bundle(&spec, &report);
            for (i, a) in report.tenants.iter().enumerate() {
                prop_assert!(a.first_node >= 1 && a.last_node() <= 128, "{a:?}");
                if a.isolation.whole_units() {
                    prop_assert_eq!((a.first_node - 1) % 32, 0, "whole units start a unit");
                }
                for b in &report.tenants[i + 1..] {
                    prop_assert!(a.last_node() < b.first_node || b.last_node() < a.first_node, "{a:?} {b:?}");
                }
                let tenant = spec.tenants.iter().find(|t| t.name == a.tenant).unwrap();
                for job in report.allocations.iter().filter(|x| tenant.workloads.contains(&x.workload)) {
                    prop_assert!(job.first_node >= a.first_node && job.last_node() <= a.last_node(), "{job:?} in {a:?}");
                }
            }
            for i in &report.interference {
                for share in [i.alone.value.fraction(), i.expected.value.fraction(), i.worst.value.fraction(), i.spine_share.fraction()] {
                    prop_assert!((0.0..=1.0).contains(&share), "{i:?}");
                }
                prop_assert!(i.worst.value.fraction() <= i.expected.value.fraction() + 1e-12 && i.expected.value.fraction() <= i.alone.value.fraction() + 1e-12);
            }
        }
    }
}

/// A tenant's name becomes its Slurm partition, Kubernetes namespace and VRF: a name those
/// already use is refused at its path, and a design saved before the rule opens with the tenant
/// numbered instead.
#[test]
fn a_tenant_named_as_a_partition_namespace_or_vrf_already_is_refused_or_renumbered() {
    for taken in ["default", "kube-system", "mgmt", "swp1"] {
        let spec = superpod(
            "ib_ndr",
            64,
            &[("a", 16)],
            json!([{ "name": taken, "workloads": ["a"] }]),
        );
        let errors = errors(&spec);
        assert!(
            errors
                .iter()
                .any(|(path, why)| path == "tenants[0].name" && why.contains("is taken")),
            "{taken}: {errors:?}"
        );
        let (stored, mapped) = DesignSpec::from_stored_json(&spec.to_string()).unwrap();
        assert!(mapped, "{taken}");
        assert_eq!(stored.tenants[0].name, "tenant-1", "{taken}");
        assert_eq!(stored.tenants[0].workloads, ["a"]);
        engine::evaluate(&stored).unwrap();
    }
}

/// A tenant with a fabric of its own costs the switches of that fabric on the switch the
/// planner chose: naming that switch in the spec changes no isolation cost.
#[test]
fn a_tenant_s_own_fabric_is_costed_on_the_switch_the_planner_chose() {
    let mut spec = superpod(
        "roce400",
        512,
        &[("tuning", 20), ("pretrain", 64)],
        json!([
            {"name": "tuning", "workloads": ["tuning"], "isolation": "scalable_unit"},
            {"name": "team-a", "workloads": ["pretrain"], "isolation": "fabric"}
        ]),
    );
    spec["fabrics"][0].as_object_mut().unwrap().remove("switch");
    let (chosen_spec, chosen) = evaluate(&spec);
    let switch = chosen.fabrics[0].switch.clone();
    assert_ne!(
        chosen_spec.fabrics[0].switch_key(),
        switch,
        "the planner chose another switch than the technology's default"
    );
    spec["fabrics"][0]["switch"] = json!(switch);
    let (_, named) = evaluate(&spec);
    let own = |r: &Report| {
        r.isolation_costs
            .iter()
            .find(|c| c.tenant == "team-a")
            .map(|c| (c.extra_switches, c.extra_switch_cost))
            .unwrap()
    };
    assert_eq!(own(&chosen), own(&named));
    assert!(own(&named).0 > 0, "{:?}", own(&named));
}
