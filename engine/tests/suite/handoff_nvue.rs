//! The Cumulus Linux (NVUE) configuration of NVIDIA Spectrum switches, read as the switch would
//! take it: every cabled port configured, RoCE lossless on every RoCE-carrying port with the PFC
//! headroom of the switch's longest cable, and BGP unnumbered on every fabric link.

use crate::support;

use engine::handoff::{bundle, planned, port_number, role_of};
use engine::operations::{pfc_headroom, SWITCH_MTU_BYTES};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use support::{design, yaml};

/// `(switch, Cumulus port)` of every switch end of `fabric`'s cables, with the cable's tier.
fn cabled_ports(report: &engine::Report, fabric: &str) -> BTreeMap<(String, String), &'static str> {
    let (fabrics, _) = planned(report);
    let f = fabrics.iter().find(|f| f.fabric.name == fabric).unwrap();
    let links = f.links_per_cage();
    let mut out = BTreeMap::new();
    for c in f.cables() {
        for (device, port) in [(&c.a_device, &c.a_port), (&c.z_device, &c.z_port)] {
            if role_of(fabric, device).is_some() {
                let n = port_number(port).unwrap();
                let name = engine::asbuilt::cumulus_port(n, links);
                assert!(out.insert((device.to_string(), name), c.tier).is_none());
            }
        }
    }
    out
}

/// The `set` tree of an NVUE file.
fn set(text: &str) -> Value {
    let doc = yaml(text);
    let list = doc
        .as_array()
        .expect("an NVUE file is a list of operations");
    assert_eq!(list.len(), 1);
    list[0]["set"].clone()
}

#[test]
fn every_cabled_port_of_every_spectrum_switch_is_configured_and_roce_ports_are_lossless() {
    // The hybrid's 100G fabrics, and the 400G example's links two to an 800G cage.
    for (example, fabric) in [
        (engine::examples::HYBRID, "inference"),
        (engine::examples::HYBRID, "storage"),
        (engine::examples::SEVENTY_B_INFERENCE_400G, "inference"),
    ] {
        let (spec, report) = design(example);
        let files: HashMap<_, _> = bundle(&spec, &report).into_iter().collect();
        // Each fabric is its own routed network: its leaves' AS numbers differ.
        let mut leaf_as = BTreeSet::new();
        let cabled = cabled_ports(&report, fabric);
        let switches: BTreeSet<&String> = cabled.keys().map(|(s, _)| s).collect();
        let mut configured = BTreeSet::new();
        let mut split = 0;
        for switch in switches {
            let text = &files[&format!("nvue/{switch}.yaml")];
            let set = set(text);
            assert_eq!(set["system"]["hostname"], switch.as_str());
            // RoCE: lossless for the whole switch, headroom for its longest cable.
            let roce = &set["qos"]["roce"];
            assert_eq!(roce["mode"], "lossless", "{switch}");
            let cable_length = roce["cable-length"].as_u64().unwrap();
            assert!((1..=100_000).contains(&cable_length));
            let watchdog = &set["qos"]["pfc-watchdog"];
            assert_eq!(
                watchdog["polling-interval"].as_u64().unwrap()
                    * watchdog["robustness"].as_u64().unwrap(),
                200,
                "the checklist's 200 ms detection"
            );
            let interfaces = set["interface"].as_object().unwrap();
            let mut neighbours = BTreeSet::new();
            for ((s, port), tier) in cabled.range((switch.clone(), String::new())..) {
                if s != switch {
                    break;
                }
                let i = &interfaces[port.as_str()];
                assert_eq!(i["type"], "swp");
                assert_eq!(i["link"]["mtu"], 9216, "{switch} {port}");
                assert_eq!(
                    i["qos"]["pfc-watchdog"]["state"], "enable",
                    "{switch} {port}"
                );
                // Split cages are broken out on their parent port.
                if let Some((cage, _)) = port["swp".len()..].split_once('s') {
                    let parent = &interfaces[&format!("swp{cage}")];
                    assert!(
                        parent["link"]["breakout"]["2x"].is_object(),
                        "{switch} {port}"
                    );
                    split += 1;
                }
                if *tier != "node-leaf" {
                    neighbours.insert(port.clone());
                }
                configured.insert((s.clone(), port.clone()));
            }
            let bgp = &set["vrf"]["default"]["router"]["bgp"];
            let written: BTreeSet<String> = bgp["neighbor"]
                .as_object()
                .map(|n| n.keys().cloned().collect())
                .unwrap_or_default();
            assert_eq!(written, neighbours, "{switch}: BGP on every fabric link");
            for n in bgp["neighbor"]
                .as_object()
                .into_iter()
                .flat_map(|n| n.values())
            {
                assert_eq!(n["type"], "unnumbered");
                assert_eq!(n["remote-as"], "external");
            }
            if switch.contains("-leaf-") {
                assert!(leaf_as.insert(set["router"]["bgp"]["autonomous-system"].as_u64().unwrap()));
            }
            // On a leaf, the host-facing ports are written first.
            if switch.contains("-leaf-") {
                let at = |port: &str| text.find(&format!("\n      {port}:\n")).unwrap();
                let cabled_here = cabled.range((switch.clone(), String::new())..);
                let mine: Vec<_> = cabled_here.take_while(|((s, _), _)| s == switch).collect();
                let last_host = mine
                    .iter()
                    .filter(|(_, t)| **t == "node-leaf")
                    .map(|((_, p), _)| at(p))
                    .max();
                let first_link = mine
                    .iter()
                    .filter(|(_, t)| **t != "node-leaf")
                    .map(|((_, p), _)| at(p))
                    .min();
                if let (Some(h), Some(l)) = (last_host, first_link) {
                    assert!(h < l, "{switch}: host-facing ports first");
                }
            }
        }
        assert_eq!(
            configured.len(),
            cabled.len(),
            "{fabric}: every cabled port"
        );
        let speed = report
            .fabrics
            .iter()
            .find(|f| f.name == fabric)
            .unwrap()
            .port_rate
            .bits_per_second();
        assert_eq!(split > 0, speed == 400e9, "{fabric}: split cages");
    }
}

/// Each switch's headroom comes from its longest cable as the floor places it: the comment states
/// the bytes the engine's PFC headroom sizing gives for that length, and the cable length set is
/// never shorter than any cable on the switch.
#[test]
fn the_roce_cable_length_covers_the_longest_placed_cable_and_states_its_headroom() {
    let (spec, report) = design(engine::examples::HYBRID);
    let files: HashMap<_, _> = bundle(&spec, &report).into_iter().collect();
    let floor = engine::floor::cabling(&spec, &report).unwrap();
    let mut longest: BTreeMap<&str, f64> = BTreeMap::new();
    for c in floor.iter().filter(|c| c.fabric == "inference") {
        for device in [&c.a_device, &c.z_device] {
            if role_of("inference", device).is_some() {
                let m = longest.entry(device.as_str()).or_default();
                *m = m.max(c.length_m.unwrap().metres());
            }
        }
    }
    let speed = report
        .fabrics
        .iter()
        .find(|f| f.name == "inference")
        .unwrap()
        .port_rate
        .bits_per_second()
        / 1e9;
    for (switch, metres) in longest {
        let text = &files[&format!("nvue/{switch}.yaml")];
        let set = set(text);
        let cable_length = set["qos"]["roce"]["cable-length"].as_u64().unwrap() as f64;
        assert!(
            cable_length >= metres && cable_length < metres + 1.0,
            "{switch}"
        );
        let headroom = pfc_headroom(speed, cable_length, SWITCH_MTU_BYTES);
        assert!(
            text.contains(&format!("{cable_length} m: {} per port", headroom.value)),
            "{text}"
        );
    }
}

/// A TCP fabric on Spectrum switches is configured without lossless QoS.
#[test]
fn a_tcp_fabric_has_no_lossless_settings() {
    let (spec, report) = design(engine::examples::SEVENTY_B_INFERENCE_25G);
    let files = bundle(&spec, &report);
    let nvue: Vec<&(String, String)> = files
        .iter()
        .filter(|(n, _)| n.starts_with("nvue/"))
        .collect();
    assert!(!nvue.is_empty());
    for (name, text) in nvue {
        let set = set(text);
        assert!(set.get("qos").is_none(), "{name}");
        assert!(!text.contains("pfc-watchdog"), "{name}");
    }
}
