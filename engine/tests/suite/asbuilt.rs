//! The as-built check: an `ibnetdiscover` dump generated from the plan, with cables swapped,
//! missing or slow, gives exactly those findings; LLDP tables of the documented tools read as
//! links; bad input is refused with the line at fault.

use engine::asbuilt::{check, ibnetdiscover, lldp, AsBuiltCheck, ObservedLink, Status};
use engine::handoff::{ibnet, planned};
use engine::{evaluate, DesignSpec, Report};
use std::collections::BTreeMap;

fn report(example: &str) -> Report {
    evaluate(&DesignSpec::from_json(example).unwrap()).unwrap()
}

fn findings(result: &AsBuiltCheck) -> BTreeMap<String, &'static str> {
    result
        .findings
        .iter()
        .map(|c| {
            let kind = match c.status {
                Status::AsPlanned => "as planned",
                Status::Missing => "missing",
                Status::Swapped { .. } => "swapped",
                Status::Degraded { .. } => "degraded",
            };
            (c.label.clone(), kind)
        })
        .collect()
}

/// The SuperPOD's compute fabric as ibnetdiscover would print it, after `change` on its links.
fn dump(report: &Report, change: impl FnOnce(&mut Vec<ObservedLink>)) -> Vec<u8> {
    let (fabrics, _) = planned(report);
    let compute = fabrics.iter().find(|f| f.fabric.name == "compute").unwrap();
    let mut links = ibnet::planned_links(compute);
    change(&mut links);
    ibnet::ibnetdiscover(compute, &links, &[]).into_bytes()
}

#[test]
fn an_unchanged_dump_of_the_plan_gives_no_findings() {
    let report = report(engine::examples::SUPERPOD_4SU);
    let links = ibnetdiscover::parse(&dump(&report, |_| {})).unwrap();
    let result = check(&report, Some("compute"), &links);
    assert!(result.findings.is_empty());
    assert!(result.extra.is_empty());
    assert_eq!(result.total.as_planned as usize, result.cables());
    assert_eq!(result.as_planned[0], "C00001");
    assert_eq!(result.total.findings(), 0);
}

#[test]
fn two_swapped_cables_one_missing_and_one_ndr_link_at_hdr_give_exactly_those_findings() {
    let report = report(engine::examples::SUPERPOD_4SU);
    let text = dump(&report, |links| {
        // C00001 (node-001 NIC 1 to leaf 01 port 1) and C00009 (node-002 NIC 1 to port 2)
        // exchanged at the leaf.
        assert_eq!(
            (links[0].z(), links[8].z()),
            (("compute-leaf-01", "p1"), ("compute-leaf-01", "p2"))
        );
        let first = links[0].peer_port.clone();
        links[0].peer_port = std::mem::replace(&mut links[8].peer_port, first);
        // C02001, a leaf-spine link, up at HDR.
        links[2000].rate = Some("4xHDR".into());
        links.remove(100); // C00101 never plugged in.
    });
    let links = ibnetdiscover::parse(&text).unwrap();
    let result = check(&report, Some("compute"), &links);
    assert_eq!(
        findings(&result),
        BTreeMap::from([
            ("C00001".to_string(), "swapped"),
            ("C00009".to_string(), "swapped"),
            ("C00101".to_string(), "missing"),
            ("C02001".to_string(), "degraded"),
        ])
    );
    assert!(result.extra.is_empty());
    let c1 = result.finding("C00001").unwrap();
    let Status::Swapped { ends } = &c1.status else {
        panic!()
    };
    let end = ends.iter().find(|e| e.device == "node-001").unwrap();
    assert_eq!(
        (end.found_peer_device.as_str(), end.found_peer_port.as_str()),
        ("compute-leaf-01", "p2")
    );
    assert_eq!(
        (
            end.planned_peer_device.as_str(),
            end.planned_peer_port.as_str()
        ),
        ("compute-leaf-01", "p1")
    );
    assert_eq!(end.found_peer_cable.as_deref(), Some("C00009"));
    assert_eq!(
        c1.to_string(),
        "C00001 node-001:compute-nic1 - compute-leaf-01:p1: swapped; compute-leaf-01:p1 reaches node-002:compute-nic1 instead of node-001:compute-nic1; node-001:compute-nic1 reaches compute-leaf-01:p2 instead of compute-leaf-01:p1"
    );
    let slow = result.finding("C02001").unwrap();
    assert_eq!(slow.tier, "leaf-spine");
    assert!(
        matches!(&slow.status, Status::Degraded { found_gbps: Some(g), planned_gbps, .. } if *g == 200.0 && *planned_gbps == 400.0)
    );
    // By rail: both swapped cables are rail 1's; by switch: leaf 01 holds both.
    let rail1 = result
        .by_rail
        .iter()
        .find(|s| s.name == "compute rail 1")
        .unwrap();
    assert_eq!(rail1.swapped, 2);
    let leaf1 = result
        .by_switch
        .iter()
        .find(|s| s.name == "compute-leaf-01")
        .unwrap();
    assert_eq!((leaf1.swapped, leaf1.missing), (2, 0));
    assert_eq!(
        (
            result.total.swapped,
            result.total.missing,
            result.total.degraded
        ),
        (2, 1, 1)
    );
    let stored: AsBuiltCheck =
        serde_json::from_str(&serde_json::to_string(&result).unwrap()).unwrap();
    assert_eq!(stored, result);
}

trait End {
    fn z(&self) -> (&str, &str);
}

impl End for ObservedLink {
    fn z(&self) -> (&str, &str) {
        (&self.peer_device, &self.peer_port)
    }
}

#[test]
fn a_link_on_no_planned_port_or_a_second_neighbour_on_a_cabled_port_is_extra_and_a_narrow_link_is_degraded(
) {
    let report = report(engine::examples::SUPERPOD_4SU);
    let text = dump(&report, |links| {
        links[5].rate = Some("2xNDR".into());
    });
    let mut links = ibnetdiscover::parse(&text).unwrap();
    links.push(ObservedLink {
        device: "compute-spine-01".into(),
        port: "p64".into(),
        peer_device: "laptop".into(),
        peer_port: "eth0".into(),
        width: None,
        speed_gbps: None,
        rate: None,
        line: 0,
    });
    let mut second = links.last().unwrap().clone();
    second.port = "p65".into(); // beyond the spine's 64 ports: no cable planned there
    links.push(second);
    let result = check(&report, Some("compute"), &links);
    assert_eq!(
        findings(&result),
        BTreeMap::from([("C00006".to_string(), "degraded")])
    );
    assert_eq!(result.extra.len(), 2);
    assert_eq!(
        result
            .by_switch
            .iter()
            .find(|s| s.name == "compute-spine-01")
            .unwrap()
            .extra,
        2
    );
}

const JSON0: &str = r#"{"lldp":[{"interface":[
 {"name":"swp1","via":"LLDP","chassis":[{"id":[{"type":"mac","value":"b8:59:9f:00:00:01"}],"name":[{"value":"node-33"}]}],
  "port":[{"id":[{"type":"mac","value":"b8:59:9f:00:00:02"}],"descr":[{"value":"inference-nic1"}]}]},
 {"name":"swp2","via":"LLDP","chassis":[{"name":[{"value":"node-33"}]}],
  "port":[{"id":[{"type":"ifname","value":"inference-nic2"}]}]}]}]}"#;

const JSON: &str = r#"{"lldp": {"interface": [
  {"swp3": {"via": "LLDP", "chassis": {"node-34": {"id": {"type": "mac", "value": "b8:59:9f:00:00:03"}}},
            "port": {"id": {"type": "ifname", "value": "inference-nic1"}, "descr": "inference-nic1"}}},
  {"swp4": {"via": "LLDP", "chassis": {"node-34": {"id": {"type": "mac", "value": "b8:59:9f:00:00:04"}}},
            "port": {"id": {"type": "ifname", "value": "inference-nic2"}}}}]}}"#;

const NVUE: &str = r#"{"swp5": {"lldp": {"neighbor": {"node-35": {"chassis": {"chassis-id": "b8:59:9f:00:00:05",
  "system-name": "node-35"}, "port": {"name": "inference-nic1", "description": "inference-nic1"}}}}}}"#;

const SONIC: &str = r#"{"LLDP_ENTRY_TABLE:Ethernet6": {"lldp_rem_sys_name": "node-35", "lldp_rem_port_id": "inference-nic2",
  "lldp_rem_port_id_subtype": "5", "lldp_rem_port_desc": "inference-nic2", "lldp_rem_chassis_id": "b8:59:9f:00:00:06",
  "lldp_rem_chassis_id_subtype": "4"}, "LLDP_LOC_CHASSIS": {"lldp_loc_sys_name": "inference-leaf-01"}}"#;

#[test]
fn lldpctl_json0_and_json_nvue_and_sonic_tables_read_as_the_planned_links() {
    let report = report(engine::examples::HYBRID);
    let mut links = Vec::new();
    for table in [JSON0, JSON, NVUE, SONIC] {
        links.extend(lldp::parse(table.as_bytes(), "inference-leaf-01").unwrap());
    }
    assert_eq!(links.len(), 6);
    assert_eq!(
        (
            links[0].port.as_str(),
            links[0].peer_device.as_str(),
            links[0].peer_port.as_str()
        ),
        ("swp1", "node-33", "inference-nic1")
    );
    assert_eq!(links[5].port, "Ethernet6");
    let result = check(&report, Some("inference"), &links);
    // The six links of leaf ports 1-6 are the fabric's first six cables; the rest were not listed.
    let first = result.findings[0].label[1..].parse::<usize>().unwrap() - 6;
    let labels: Vec<String> = (first..first + 6).map(|n| format!("C{n:05}")).collect();
    assert_eq!(result.as_planned, labels);
    assert_eq!(result.total.missing as usize, result.cables() - 6);
    assert!(result.extra.is_empty());
}

#[test]
fn truncated_foreign_binary_and_oversized_input_is_refused_with_the_line_at_fault() {
    let report = report(engine::examples::SUPERPOD_4SU);
    let text = String::from_utf8(dump(&report, |_| {})).unwrap();
    let cut: String = text.lines().take(12).collect::<Vec<_>>().join("\n") + "\n[9]\t\"H-0002c9";
    let e = ibnetdiscover::parse(cut.as_bytes()).unwrap_err();
    assert_eq!(e.line, 13);
    assert!(e.message.contains("truncated"), "{e}");
    // Cut at a node boundary: a peer is named but never listed.
    let half: String = text.lines().take(200).collect::<Vec<_>>().join("\n");
    let e = ibnetdiscover::parse(half.as_bytes()).unwrap_err();
    assert!(e.line > 0 && e.message.contains("never lists"), "{e}");
    let nccl = "# nThread 1 nGpus 1\n     1048576        262144     float     sum      -1    71.52   14.66   21.99      0\n";
    let e = ibnetdiscover::parse(nccl.as_bytes()).unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.message.contains("not ibnetdiscover output"), "{e}");
    assert_eq!(
        ibnetdiscover::parse(b"# only a comment\n")
            .unwrap_err()
            .line,
        0
    );
    let e = ibnetdiscover::parse(b"Switch\t64 \"S-0000000000000001\"\n\xff\xfe").unwrap_err();
    assert_eq!((e.line, e.message.contains("not text")), (2, true));
    let huge = vec![b'#'; engine::asbuilt::MAX_INPUT_BYTES + 1];
    assert!(ibnetdiscover::parse(&huge)
        .unwrap_err()
        .message
        .contains("bytes"));
    let long = "#".repeat(engine::asbuilt::MAX_LINE_CHARS + 1);
    assert_eq!(ibnetdiscover::parse(long.as_bytes()).unwrap_err().line, 1);

    let e = lldp::parse(&JSON.as_bytes()[..200], "leaf").unwrap_err();
    assert!(e.line >= 2 && e.message.contains("truncated"), "{e}");
    let e = lldp::parse(b"{\"interfaces\": []}", "leaf").unwrap_err();
    assert!(e.message.contains("not an LLDP neighbour table"), "{e}");
    let e = lldp::parse(b"\x00\x01\x02", "leaf").unwrap_err();
    assert!(
        e.message.contains("not text") || e.message.contains("NUL"),
        "{e}"
    );
    let e = lldp::parse(
        r#"{"swp1": {"lldp": {"neighbor": {"x": {"port": {"name": "p1"}}}}}}"#.as_bytes(),
        "leaf",
    )
    .unwrap_err();
    assert!(e.message.contains("system-name"), "{e}");
}

/// A DGX names its compute adapters itself (`node-001 mlx5_0`, as its user guide numbers them):
/// the planned topology file says so, and a dump of the fabric as built, read through the node
/// type's adapters, has every cable as planned. Read as the sheet's port names, half the
/// cables would look swapped.
#[test]
fn a_dgx_fabric_that_names_its_adapters_itself_is_checked_through_the_node_type() {
    let spec = DesignSpec::from_json(engine::examples::SUPERPOD_4SU).unwrap();
    let report = evaluate(&spec).unwrap();
    let adapters = engine::catalog::adapters_of(&spec, "compute");
    assert_eq!(adapters.len(), 8);
    let (fabrics, _) = planned(&report);
    let compute = fabrics.iter().find(|f| f.fabric.name == "compute").unwrap();
    let topology = engine::handoff::whole(|p| ibnet::topology(compute, adapters, p));
    assert!(topology.contains("# \"node-001 mlx5_0\""), "rail 1");
    assert!(topology.contains("# \"node-001 mlx5_11\""), "rail 8");
    assert!(!topology.contains("compute-nic"));
    let built = ibnet::ibnetdiscover(compute, &ibnet::planned_links(compute), adapters);
    let mut links = ibnetdiscover::parse(built.as_bytes()).unwrap();
    let unread = check(&report, Some("compute"), &links);
    assert!(unread.total.findings() > 1000, "{:?}", unread.total);
    engine::asbuilt::on_sheet(&mut links, "compute", adapters);
    let result = check(&report, Some("compute"), &links);
    assert_eq!(result.total.findings(), 0, "{:?}", result.total);
    assert_eq!(result.total.as_planned as usize, result.cables());
}
