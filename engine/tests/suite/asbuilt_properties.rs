//! The as-built parsers never panic, whatever they are given, and the matcher takes any list of
//! links.

use engine::asbuilt::{check, ibnetdiscover, lldp, ObservedLink};
use proptest::prelude::*;
use std::sync::OnceLock;

/// The hybrid example's report, evaluated once for every case.
fn hybrid() -> &'static engine::Report {
    static REPORT: OnceLock<engine::Report> = OnceLock::new();
    REPORT.get_or_init(|| {
        let spec = engine::DesignSpec::from_json(engine::examples::HYBRID).unwrap();
        engine::evaluate(&spec).unwrap()
    })
}

/// Pieces ibnetdiscover output is made of, so that random lines often look almost right.
fn ib_token() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("Switch\t64".to_string()),
        Just("Ca\t1".to_string()),
        Just("Rt\t2".to_string()),
        Just("\"S-0002c90300000001\"".to_string()),
        Just("\"H-0002c90300000010\"".to_string()),
        Just("[1]".to_string()),
        Just("[64](2c9030000011)".to_string()),
        Just("# \"compute-leaf-01\"".to_string()),
        Just("# \"node-001 mlx5_0\" lid 3 4xNDR".to_string()),
        Just("lid 1 lmc 0".to_string()),
        Just("4xHDR".to_string()),
        Just("vendid=0x2c9".to_string()),
        Just("\t".to_string()),
        "[ -~]{0,12}",
    ]
}

fn ib_line() -> impl Strategy<Value = String> {
    prop::collection::vec(ib_token(), 0..8).prop_map(|t| t.concat())
}

fn json_token() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("{".to_string()),
        Just("}".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just(",".to_string()),
        Just(":".to_string()),
        Just("\"lldp\"".to_string()),
        Just("\"interface\"".to_string()),
        Just("\"name\"".to_string()),
        Just("\"chassis\"".to_string()),
        Just("\"port\"".to_string()),
        Just("\"value\"".to_string()),
        Just("\"neighbor\"".to_string()),
        Just("\"LLDP_ENTRY_TABLE:Ethernet0\"".to_string()),
        Just("\"lldp_rem_sys_name\"".to_string()),
        Just("\"swp1\"".to_string()),
        "[ -~]{0,6}",
    ]
}

fn link() -> impl Strategy<Value = ObservedLink> {
    let device = prop_oneof![
        Just("compute-leaf-01".to_string()),
        Just("compute-spine-02".to_string()),
        Just("node-001".to_string()),
        "[a-z0-9-]{0,10}",
    ];
    let port = prop_oneof![
        Just("p1".to_string()),
        Just("compute-nic1".to_string()),
        Just("swp2s1".to_string()),
        Just("Ethernet1/5".to_string()),
        "[a-zA-Z0-9/]{0,8}",
    ];
    (
        device.clone(),
        port.clone(),
        device,
        port,
        proptest::option::of(0.0f64..1e4),
    )
        .prop_map(
            |(device, port, peer_device, peer_port, speed_gbps)| ObservedLink {
                device,
                port,
                peer_device,
                peer_port,
                width: Some(4),
                speed_gbps: speed_gbps.map(engine::GigabitsPerSecond::new),
                rate: None,
                line: 0,
            },
        )
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..4096)) {
        let _ = ibnetdiscover::parse(&bytes);
        let _ = lldp::parse(&bytes, "leaf");
    }

    #[test]
    fn almost_right_ibnetdiscover_never_panics(lines in prop::collection::vec(ib_line(), 0..40)) {
        match ibnetdiscover::parse(lines.join("\n").as_bytes()) {
            Ok(links) => prop_assert!(links.iter().all(|l| !l.device.is_empty() || l.line > 0)),
            Err(e) => prop_assert!(!e.message.is_empty()),
        }
    }

    #[test]
    fn almost_right_json_never_panics(tokens in prop::collection::vec(json_token(), 0..60)) {
        if let Err(e) = lldp::parse(tokens.concat().as_bytes(), "leaf") {
            prop_assert!(!e.message.is_empty());
        }
    }

    /// Whatever was observed, every planned cable is checked once, and each count is the
    /// length of what it counts.
    #[test]
    fn the_matcher_takes_any_links(links in prop::collection::vec(link(), 0..60)) {
        let planned = check(hybrid(), None, &[]);
        prop_assert!(planned.cables() > 0);
        prop_assert_eq!(planned.total.missing as usize, planned.cables());
        let result = check(hybrid(), None, &links);
        prop_assert_eq!(result.cables(), planned.cables());
        let t = &result.total;
        prop_assert_eq!(t.as_planned as usize, result.as_planned.len());
        prop_assert_eq!((t.missing + t.swapped + t.degraded) as usize, result.findings.len());
        prop_assert_eq!(t.extra as usize, result.extra.len());
    }
}
