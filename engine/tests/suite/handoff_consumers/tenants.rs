//! The tenants' hand-off read by the tools that enforce it: Slurm's own controller takes each
//! tenant's partition with exactly its nodes, and Arista's pyavd renders every switch of a RoCE
//! fabric whose tenants each have a VRF, present on exactly the leaves that serve its nodes.

use super::slurm::{pairs, slurm_shows};
use super::*;

/// The 96-node SuperPOD with its compute fabric on RoCE, Arista switches, and three tenants: two
/// isolated per node (their VRFs), one shared (the default VRF). One isolated tenant is named
/// `on`, which YAML 1.1 reads as a boolean unless it is quoted.
fn shared_superpod() -> (DesignSpec, Report) {
    shared_superpod_on(support::arista_switches)
}

/// [`shared_superpod`] with its Ethernet switches set by `switches`.
fn shared_superpod_on(switches: fn(&mut serde_json::Value)) -> (DesignSpec, Report) {
    let mut spec: serde_json::Value = serde_json::from_str(engine::examples::SUPERPOD_4SU).unwrap();
    spec.as_object_mut().unwrap().remove("growth");
    spec["cluster"]["nodes"] = 96.into();
    spec["fabrics"][0]["technology"] = "roce400".into();
    spec["fabrics"][0]["port_gbps"] = 400.into();
    spec["fabrics"][0]["extra_endpoints"] = 0.into();
    switches(&mut spec);
    let template = spec["workloads"][0].clone();
    let job = |name: &str, nodes: u32| {
        let mut w = template.clone();
        w["name"] = name.into();
        w["model"] = serde_json::json!({"preset": "llama3-70b", "parameters": 70e9, "layers": 80, "hidden": 8192, "sequence_length": 8192, "precision": "bf16"});
        w["parallelism"] = serde_json::json!({"dp": nodes, "tp": 8, "pp": 1, "sharding": "zero1"});
        w["global_batch"] = (nodes * 4).into();
        w
    };
    spec["workloads"] = serde_json::json!([job("alpha", 40), job("beta", 24)]);
    spec["tenants"] = serde_json::json!([
        {"name": "alpha", "workloads": ["alpha"], "isolation": "node"},
        {"name": "on", "workloads": ["beta"], "isolation": "node"},
        {"name": "guests", "nodes": 8, "isolation": "shared"}
    ]);
    let spec = DesignSpec::from_value(spec).unwrap();
    let report = evaluate(&spec).unwrap();
    (spec, report)
}

#[test]
fn slurmctld_takes_each_tenants_partition_with_exactly_its_nodes() {
    if !installed(&sbin("slurmctld")) || !installed(Path::new("scontrol")) {
        return;
    }
    let (spec, report) = shared_superpod();
    let files: BTreeMap<String, String> = bundle(&spec, &report).into_iter().collect();
    let (fabrics, _) = planned(&report);
    let nodes: Vec<&str> = scheduling_fabric(&fabrics).unwrap().hosts();
    let shown = slurm_shows(
        &files["slurm/topology.conf"],
        Some(&files["slurm/partitions.conf"]),
        &nodes,
        "tenants",
        &["-o", "show", "partition"],
    )
    .unwrap_or_else(|e| panic!("slurmctld: {e}"));
    let read: BTreeMap<String, Vec<String>> = shown
        .lines()
        .map(|l| {
            let kv = pairs(l);
            (
                kv["PartitionName"].to_string(),
                expand_hostlist(kv["Nodes"]),
            )
        })
        .collect();
    for t in &report.tenants {
        let names: Vec<String> = (t.first_node..=t.last_node())
            .map(|n| format!("node-{n:02}"))
            .collect();
        assert_eq!(read[&t.tenant], names, "{}", t.tenant);
    }
    assert_eq!(
        read.len(),
        4,
        "the tenants' three and the file's own: {read:?}"
    );
}

/// Each GPU port of an isolated tenant on the compute fabric, read off the cabling sheet: its
/// leaf, the leaf's port number, and the tenant's VRF and VNI.
fn tenant_ports(report: &Report) -> Vec<(String, u32, String, u32)> {
    let (fabrics, _) = planned(report);
    let compute = fabrics.iter().find(|f| f.fabric.name == "compute").unwrap();
    let mut out = Vec::new();
    for t in &report.tenants {
        let Some(p) = &t.partition else { continue };
        for c in compute.cables().filter(|c| c.tier == "node-leaf") {
            let n: u32 = c.a_device["node-".len()..].parse().unwrap();
            if (t.first_node..=t.last_node()).contains(&n) {
                let port = engine::handoff::port_number(c.z_port).unwrap();
                out.push((c.z_device.to_string(), port, p.vrf.clone(), p.l3_vni));
            }
        }
    }
    out
}

#[test]
fn pyavd_renders_a_vrf_per_isolated_tenant_on_exactly_the_leaves_of_its_nodes() {
    let Some(python) = pyavd_python() else {
        return;
    };
    let (spec, report) = shared_superpod();
    let files = bundle(&spec, &report);
    let vars = &files
        .iter()
        .find(|(n, _)| n == "avd/compute.yml")
        .unwrap()
        .1;
    assert!(vars.contains("overlay_routing_protocol: \"ebgp\""));
    // Each isolated tenant's VRF on each leaf a node of its hangs from.
    let mut vrfs: BTreeMap<String, BTreeMap<String, u32>> = BTreeMap::new();
    for (leaf, _, vrf, vni) in tenant_ports(&report) {
        vrfs.entry(leaf).or_default().insert(vrf, vni);
    }
    assert!(
        vrfs.values().any(|v| v.len() == 2),
        "a leaf serving both tenants"
    );
    assert!(
        !vrfs.values().any(|v| v.contains_key("guests")),
        "the shared tenant has no VRF"
    );
    let mut expected = lossless_ports(&report);
    expected["vrfs"] = serde_json::json!({ "compute.yml": vrfs });
    let out = pyavd_check(&python, &files, &expected, "tenants");
    assert!(out.status.success(), "{}", output_text(&out));
}

/// The same tenancy on Spectrum switches: every NVUE file within NVUE's object model, EVPN on
/// every switch and fabric link, each leaf a tunnel end with the VRFs of exactly the tenants it
/// serves (their VNIs, their routes exported to EVPN), each of their GPU ports a /31 in the VRF.
#[test]
fn nvue_carries_each_isolated_tenants_vrf_on_exactly_the_leaves_of_its_nodes() {
    let Some(python) = pyavd_python() else {
        return;
    };
    let (spec, report) = shared_superpod_on(|spec| {
        spec["fabrics"][0]["switch"] = "sn5400".into();
    });
    let files = bundle(&spec, &report);
    let mut expected = nvue_ports(&report);
    let (fabrics, _) = planned(&report);
    let compute = fabrics.iter().find(|f| f.fabric.name == "compute").unwrap();
    let cage = compute.links_per_cage();
    let switches = expected["compute"]["switches"].as_object_mut().unwrap();
    for plan in switches.values_mut() {
        plan["vrfs"] = serde_json::json!({});
        plan["routed"] = serde_json::json!({});
    }
    for (leaf, port, vrf, vni) in tenant_ports(&report) {
        let plan = &mut switches[&leaf];
        plan["vrfs"][&vrf] = vni.into();
        plan["routed"][engine::asbuilt::cumulus_port(port, cage)] = vrf.into();
    }
    let out = nvue_check(&python, &files, &expected, "tenants");
    assert!(out.status.success(), "{}", output_text(&out));
}
