use super::*;

#[test]
fn pfc_headroom_of_400g_over_10_m_with_jumbo_frames_is_154_kb() {
    // (301 + 2.16 × 10) × 400 + 2.72 × 9216 = 129,040 + 25,067.52
    let h = pfc_headroom(400.0, 10.0, 9216.0);
    assert!(
        (h.value.bytes() - 154_107.52).abs() < 1e-6,
        "{}",
        h.value.bytes()
    );
    assert!(h.formula.contains("2.16 × 10 m"));
    assert!(h.source.contains("port_buffer.c"));
}

#[test]
fn pfc_headroom_grows_with_cable_and_counts_slow_links_at_40g() {
    // 100G over 3 m: (301 + 6.48) × 100 + 25,067.52 = 55,815.52
    assert!((pfc_headroom(100.0, 3.0, 9216.0).value.bytes() - 55_815.52).abs() < 1e-6);
    // 25G is counted at 40G: (301 + 4.32) × 40 + 25,067.52 = 37,280.32
    assert!((pfc_headroom(25.0, 2.0, 9216.0).value.bytes() - 37_280.32).abs() < 1e-6);
    assert!(
        pfc_headroom(400.0, 100.0, 9216.0).value.bytes()
            > pfc_headroom(400.0, 10.0, 9216.0).value.bytes()
    );
}

fn guidance(example: &str) -> (DesignSpec, Vec<FabricOperations>) {
    let spec = DesignSpec::from_json(example).unwrap();
    let report = crate::evaluate(&spec).unwrap();
    let ops = operations(&spec, &report);
    (spec, ops)
}

#[test]
fn a_roce_fabric_gets_the_lossless_checklist_headroom_snippets_and_nccl_settings() {
    let (_, ops) = guidance(crate::examples::SEVENTY_B_INFERENCE_400G);
    let roce = ops
        .iter()
        .find(|o| o.technology.needs_lossless_ethernet())
        .expect("a RoCE fabric");
    let items: Vec<&str> = roce.checklist.iter().map(|s| s.item.as_ref()).collect();
    for item in [
        "Trust",
        "PFC",
        "CNP",
        "ECN",
        "Congestion control",
        "PFC watchdog",
        "MTU",
    ] {
        assert!(items.contains(&item), "{item} in {items:?}");
    }
    assert!(!roce.pfc_headroom.is_empty());
    let platforms: Vec<&str> = roce.snippets.iter().map(|s| s.platform.as_ref()).collect();
    assert!(platforms.iter().any(|p| p.contains("NVUE")));
    assert!(platforms.iter().any(|p| p.contains("SONiC")));
    let gid = roce
        .nccl
        .iter()
        .find(|s| s.item == "NCCL_IB_GID_INDEX")
        .unwrap();
    assert_eq!(gid.value, "3");
    assert!(roce
        .link_counters
        .iter()
        .any(|c| c.item.contains("PFC pause")));
}

#[test]
fn an_infiniband_fabric_gets_its_subnet_manager_routing_and_sharp() {
    let (_, ops) = guidance(crate::examples::SEVENTY_B_TRAINING);
    let compute = &ops[0];
    assert_eq!(compute.technology, Technology::IbNdr);
    let items: Vec<&str> = compute.checklist.iter().map(|s| s.item.as_ref()).collect();
    assert!(items.contains(&"Subnet manager"));
    assert!(items.contains(&"Routing"));
    assert!(
        items.contains(&"SHARP"),
        "the QM9700 supports SHARP: {items:?}"
    );
    assert!(compute.pfc_headroom.is_empty());
    assert!(compute
        .link_counters
        .iter()
        .any(|c| c.item == "SymbolErrorCounter"));
    assert!(compute.traffic_tool.contains("UFM"));
    // The training workload's expected utilisation: a share of the line rate.
    let u = &compute.expected_utilisation[0];
    assert!(
        u.average.value.fraction() > 0.0 && u.average.value.fraction() <= 1.0,
        "{}",
        u.average.value.fraction()
    );
    assert!(compute.application[0].contains("communication time per step"));
    // DGX H100 on NDR: min(370 GB/s NVLink, 8 × 50 GB/s × 0.95 = 380 GB/s) = 370 GB/s.
    let busbw = compute.expected_allreduce_busbw.as_ref().unwrap();
    assert!((busbw.value.as_gigabytes_per_second() - 370.0).abs() < 1e-9);
    assert!(busbw.formula.contains("scale-up links"));
    // The storage fabric carries no collectives.
    assert!(ops[1].expected_allreduce_busbw.is_none());
}

#[test]
fn four_nics_per_node_make_the_network_the_allreduce_limit() {
    // 4 × 400 Gb/s × 0.95 = 190 GB/s, under the 370 GB/s of NVLink.
    let f = expected_allreduce_busbw(
        ByteRate::gigabytes_per_second(370.0),
        4,
        crate::units::BitRate::gbps(400.0),
        0.95,
    );
    assert!((f.value.as_gigabytes_per_second() - 190.0).abs() < 1e-9);
    assert!(f.formula.contains("limited by the NICs"));
}

#[test]
fn a_tcp_fabric_has_no_lossless_settings() {
    let (_, ops) = guidance(crate::examples::SEVENTY_B_INFERENCE_25G);
    let tcp = &ops[0];
    assert!(tcp.checklist.is_empty());
    assert!(tcp.pfc_headroom.is_empty());
    assert!(tcp.snippets.is_empty());
    assert_eq!(tcp.nccl[0].item, "NCCL_SOCKET_IFNAME");
    assert!(!tcp.link_counters.iter().any(|c| c.item.contains("PFC")));
}
