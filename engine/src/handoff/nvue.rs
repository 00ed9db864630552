//! NVIDIA Cumulus Linux configuration of each switch of an Ethernet fabric of Spectrum switches,
//! in the form NVUE saves and loads (`/etc/nvue.d/startup.yaml`; `nv config replace FILE`, then
//! `nv config apply`) [docs.nvidia.com/networking-ethernet-software/cumulus-linux: NVUE,
//! BGP configuration example]: the hostname, a loopback, every cabled port with its peer as
//! description and a 9,216 B MTU, split cages broken out, and the underlay of
//! [`super::underlay`] as BGP unnumbered on every fabric link.
//!
//! For RoCE, `qos roce` in lossless mode, which Cumulus applies to every port of the switch:
//! trust of PCP and DSCP, switch priority 3 to traffic class 3 with PFC and ECN marking from
//! 150 KB to 1,500 KB, switch priority 6 (CNPs) strict, and the lossless buffer pool; its cable
//! length, from which the switch reserves each port's PFC headroom, is the longest cable on the
//! switch [NVUE reference: `nv set qos roce cable-length`; Cumulus Linux "RDMA over Converged
//! Ethernet - RoCE"]. The PFC watchdog, which Cumulus enables per port, is on for every
//! RoCE-carrying port, host-facing ones first [NVUE reference: `nv set interface <id> qos
//! pfc-watchdog state`].
//!
//! A fabric whose tenants are isolated carries them as [`super::overlay`] plans: EVPN on every
//! switch (the l2vpn-evpn address family on every fabric link), each leaf a VXLAN tunnel end on
//! its loopback, each tenant's VRF with its L3 VNI and its routes exported to EVPN on the leaves
//! serving its nodes, and each of its GPU ports a /31 in the VRF [NVUE reference: `nv set evpn`,
//! `nv set nve vxlan source address`, `nv set vrf <vrf-id> evpn vni`, `nv set vrf <vrf-id> router
//! bgp address-family ipv4-unicast route-export to-evpn`, `nv set interface <id> ip vrf`].

use super::text::{comment, push_yaml_string};
use super::underlay::{leaf_as, loopback, CORE_AS, SPINE_AS};
use super::{port_number, role_of, PlannedFabric};
use crate::fast_hash::FastMap;
use crate::floor::Placing;
use crate::operations::{pfc_headroom, SWITCH_MTU_BYTES};
use crate::spec::DesignSpec;
use crate::technology::Transport;
use crate::tenancy::TenantPlacement;
use std::fmt::Write;

/// The MTU of every switch port: Cumulus's largest, the RoCE checklist's.
pub const MTU: u32 = 9216;
/// PFC watchdog: a queue paused for 2 polls of 100 ms is dropped, the checklist's 200 ms
/// detection.
pub const WATCHDOG_POLL_MS: u32 = 100;
pub const WATCHDOG_ROBUSTNESS: u32 = 2;

/// One cabled port of a switch.
struct Port {
    number: u32,
    /// The peer device and its port, as the peer names it.
    peer: String,
    /// Towards a host (a node or an extra endpoint), rather than another switch.
    host_facing: bool,
    length_m: f64,
}

/// Each switch's configuration file, `nvue/<switch>.yaml`, handed to `out` in sheet order.
/// `placed` is the floor's sheet of this fabric where it has one (its orderable lengths size the
/// PFC headroom), else the design's cable runs are used; `tenants` are the design's.
pub fn switch_configs(
    spec: &DesignSpec,
    f: &PlannedFabric,
    placed: Option<&[Placing]>,
    tenants: &[TenantPlacement],
    out: &mut dyn FnMut(String, String),
) {
    let name = &f.fabric.name;
    let switches = f.switches();
    let at: FastMap<&str, usize> = switches.iter().enumerate().map(|(i, s)| (*s, i)).collect();
    let mut ports: Vec<Vec<Port>> = switches.iter().map(|_| Vec::new()).collect();
    let naming = super::cvt::Ports::of(f);
    for (i, c) in f.cables().enumerate() {
        let length_m = placed
            .and_then(|p| p.get(i))
            .and_then(|p| p.length_m)
            .or_else(|| f.tier_media(c.tier).map(|m| m.length_m))
            .map_or(0.0, |m| m.metres());
        for (own, own_port, peer, peer_port) in [
            (c.a_device, c.a_port, c.z_device, c.z_port),
            (c.z_device, c.z_port, c.a_device, c.a_port),
        ] {
            let (Some(&k), Some(number)) = (at.get(own), port_number(own_port)) else {
                continue;
            };
            let mut text = String::with_capacity(peer.len() + 16);
            text.push_str(peer);
            text.push(' ');
            naming.push(&mut text, peer, peer_port);
            ports[k].push(Port {
                number,
                peer: text,
                host_facing: !naming.switch(peer),
                length_m,
            });
        }
    }
    // The tenants' VRFs on each leaf, and each routed port's VRF and address.
    let overlay = super::overlay::tenant_ports(f, tenants);
    let mut vrfs: FastMap<&str, Vec<(&str, u32)>> = FastMap::default();
    let mut routed: FastMap<(&str, u32), (&str, &str)> = FastMap::default();
    for (t, ports) in &overlay {
        let Some(p) = &t.partition else {
            continue;
        };
        for r in ports {
            let on = vrfs.entry(r.leaf.as_str()).or_default();
            if !on.iter().any(|(v, _)| *v == p.vrf) {
                on.push((p.vrf.as_str(), p.l3_vni));
            }
            routed.insert(
                (r.leaf.as_str(), r.port),
                (p.vrf.as_str(), r.address.as_str()),
            );
        }
    }
    let roce = f.transport() == Transport::Roce;
    let speed = f.speed_gbps();
    let links = f.links_per_cage();
    // Loopbacks and AS numbers in the underlay's order: cores, spines, leaves.
    let tier_of = |s: &str| role_of(name, s).unwrap_or("leaf");
    let count = |tier: &str| switches.iter().filter(|s| tier_of(s) == tier).count();
    let (cores, spines) = (count("core"), count("spine"));
    let mut seen = [0usize; 3];
    for (k, switch) in switches.iter().enumerate() {
        let tier = tier_of(switch);
        let (slot, base, bgp_as) = match tier {
            "core" => (0, 0, CORE_AS),
            "spine" => (1, cores, SPINE_AS),
            _ => (2, cores + spines, leaf_as(seen[2])),
        };
        let index = seen[slot];
        seen[slot] += 1;
        let mut own = std::mem::take(&mut ports[k]);
        // Host-facing ports first, then the fabric links, each in port order.
        own.sort_by_key(|p| (!p.host_facing, p.number));
        let text = config(&Switch {
            spec,
            fabric: name,
            layout: f.fabric.plan.layout.label(),
            name: switch,
            tier,
            loopback: loopback(base + index),
            bgp_as,
            ports: &own,
            links,
            roce,
            speed_gbps: speed,
            overlay: !overlay.is_empty(),
            vrfs: vrfs.get(switch).map_or(&[], Vec::as_slice),
            routed: &|port| routed.get(&(*switch, port)).copied(),
        });
        out(format!("nvue/{switch}.yaml"), text);
    }
}

/// What one switch's file is written from.
struct Switch<'a> {
    spec: &'a DesignSpec,
    fabric: &'a str,
    layout: &'a str,
    name: &'a str,
    tier: &'a str,
    loopback: String,
    bgp_as: u64,
    ports: &'a [Port],
    links: u32,
    roce: bool,
    speed_gbps: f64,
    /// Whether the fabric carries tenants' VRFs (EVPN on every switch).
    overlay: bool,
    /// The tenants' VRFs on this switch, with their L3 VNIs.
    vrfs: &'a [(&'a str, u32)],
    /// A port's tenant VRF and its address, when it is routed in one.
    routed: &'a dyn Fn(u32) -> Option<(&'a str, &'a str)>,
}

fn config(s: &Switch) -> String {
    let mut out = String::with_capacity(256 + s.ports.len() * 200);
    let longest = s.ports.iter().map(|p| p.length_m).fold(0.0, f64::max);
    // Cumulus takes whole metres from 1 to 100,000; rounding up keeps the headroom enough.
    let cable_length = (longest.ceil() as u32).clamp(1, 100_000);
    let _ = writeln!(
        out,
        "# NVIDIA Cumulus Linux (NVUE) configuration of {name}, a {tier} of fabric {fabric} of {title}: {layout}.\n\
         # Load it with `nv config replace <this file>`, then `nv config apply`.\n\
         # Switch port pN of the cabling sheet is swpN, or swpCsS for link S (from 0) of split cage C.",
        name = s.name,
        tier = s.tier,
        fabric = s.fabric,
        title = comment(&s.spec.title),
        layout = s.layout,
    );
    if s.roce {
        let headroom = pfc_headroom(s.speed_gbps, f64::from(cable_length), SWITCH_MTU_BYTES);
        let _ = writeln!(
            out,
            "# RoCE lossless on every port: PFC on switch priority 3, ECN on traffic class 3 from 150 KB to\n\
             # 1,500 KB, CNPs strict on traffic class 6; the PFC watchdog on every RoCE port.\n\
             # PFC headroom for the longest cable, {cable_length} m: {} per port and lossless priority\n\
             # = {} [{}].",
            headroom.value, headroom.formula, headroom.source
        );
    }
    out.push_str("- set:\n    system:\n      hostname: ");
    push_yaml_string(&mut out, s.name);
    let _ = writeln!(
        out,
        "\n    interface:\n      lo:\n        type: loopback\n        ip:\n          address:\n            {}/32: {{}}",
        s.loopback
    );
    // Split cages: the parent port is broken out into `links` ports.
    if s.links > 1 {
        let mut cages: Vec<u32> = s
            .ports
            .iter()
            .map(|p| (p.number - 1) / s.links + 1)
            .collect();
        cages.sort_unstable();
        cages.dedup();
        for cage in cages {
            let _ = writeln!(
                out,
                "      swp{cage}:\n        type: swp\n        link:\n          breakout:\n            {}x: {{}}",
                s.links
            );
        }
    }
    let mut port = String::new();
    for p in s.ports {
        port.clear();
        crate::ports::push_cumulus_port(&mut port, p.number, s.links);
        let _ = write!(
            out,
            "      {port}:\n        type: swp\n        description: "
        );
        push_yaml_string(&mut out, &p.peer);
        let _ = write!(out, "\n        link:\n          mtu: {MTU}\n");
        if let Some((vrf, address)) = (s.routed)(p.number) {
            // The VRF is a tenant's name: quoted, so that one named `on` or `null` stays a name.
            out.push_str("        ip:\n          vrf: ");
            push_yaml_string(&mut out, vrf);
            let _ = writeln!(out, "\n          address:\n            {address}: {{}}");
        }
        if s.roce {
            out.push_str("        qos:\n          pfc-watchdog:\n            state: enable\n");
        }
    }
    if s.roce {
        let _ = writeln!(
            out,
            "    qos:\n      roce:\n        mode: lossless\n        cable-length: {cable_length}\n      pfc-watchdog:\n        polling-interval: {WATCHDOG_POLL_MS}\n        robustness: {WATCHDOG_ROBUSTNESS}"
        );
    }
    if s.overlay {
        out.push_str("    evpn:\n      enable: on\n");
        if s.tier == "leaf" {
            let _ = writeln!(
                out,
                "    nve:\n      vxlan:\n        enable: on\n        source:\n          address: {}",
                s.loopback
            );
        }
    }
    let _ = writeln!(
        out,
        "    router:\n      bgp:\n        enable: on\n        autonomous-system: {}\n        router-id: {}",
        s.bgp_as, s.loopback
    );
    out.push_str(
        "    vrf:\n      default:\n        router:\n          bgp:\n            enable: on\n            address-family:\n              ipv4-unicast:\n                enable: on\n                redistribute:\n                  connected:\n                    enable: on\n",
    );
    if s.overlay {
        out.push_str("              l2vpn-evpn:\n                enable: on\n");
    }
    let mut fabric_links = s.ports.iter().filter(|p| !p.host_facing).peekable();
    if fabric_links.peek().is_some() {
        out.push_str("            neighbor:\n");
        for p in fabric_links {
            port.clear();
            crate::ports::push_cumulus_port(&mut port, p.number, s.links);
            let _ = writeln!(
                out,
                "              {port}:\n                remote-as: external\n                type: unnumbered"
            );
            if s.overlay {
                out.push_str("                address-family:\n                  l2vpn-evpn:\n                    enable: on\n");
            }
        }
    }
    for (vrf, vni) in s.vrfs {
        out.push_str("      ");
        push_yaml_string(&mut out, vrf);
        let _ = writeln!(
            out,
            ":\n        evpn:\n          enable: on\n          vni:\n            {vni}: {{}}\n        router:\n          bgp:\n            enable: on\n            address-family:\n              ipv4-unicast:\n                enable: on\n                redistribute:\n                  connected:\n                    enable: on\n                route-export:\n                  to-evpn:\n                    enable: on"
        );
    }
    out
}
