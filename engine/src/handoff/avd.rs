//! Arista AVD (`eos_designs`, pyavd 6.x) inputs of an Ethernet fabric: a pure L3 leaf-spine
//! (`l3ls-evpn` design without an overlay) with eBGP on the fabric links, one node group per
//! leaf, and each switch's uplinks as the cabling sheet lays them: `uplink_interfaces[i]` on the
//! switch pairs with `uplink_switches[i]` and its `uplink_switch_interfaces[i]`
//! [avd.arista.com: eos_designs node type keys; aristanetworks/avd examples/single-dc-l3ls].
//! A three-tier fabric puts its cores in `super_spine`.
//!
//! For RoCE, the lossless settings the design recommends go into a QoS profile injected through
//! `custom_structured_configuration_` keys (eos_cli_config_gen `qos_profiles`, `qos`): DSCP trust,
//! PFC with no-drop on priority 3 and a watchdog, ECN on queue 3 from 150 to 1,500 KB, CNPs in
//! strict-priority queue 6. It is applied to every RoCE-carrying port: the fabric links
//! (`p2p_uplinks_qos_profile`) and, host-facing, each leaf's ports towards the hosts, through
//! the leaf's `structured_config` (`ethernet_interfaces` with the profile as `service_profile`).
//!
//! A design whose tenants are isolated gets an EVPN overlay (eBGP, the spines its route servers,
//! every leaf a VTEP) and one AVD tenant per design tenant under `network_services`: its VRF with
//! the tenant's L3 VNI and its GPU ports routed in it (`l3_interfaces`), as
//! [`super::overlay`] plans them [AVD eos_designs network services].

use super::overlay::{tenant_ports, TenantPorts, VTEP_POOL};
use super::text::{comment, yaml_string as q};
use super::underlay::{leaf_as, loopback_pool, prefix_for, CORE_AS, SPINE_AS};
use super::{port_number, role_of, PlannedFabric};
use crate::ports::eos_port;
use crate::spec::DesignSpec;
use crate::technology::Transport;
use crate::tenancy::TenantPlacement;
use std::collections::BTreeMap;
use std::fmt::Write;

/// EOS's largest MTU on fabric links: 9214 B carries RoCE's 4096 B path MTU with room to spare.
pub const P2P_MTU: u32 = 9214;
pub const QOS_PROFILE: &str = "ROCE_LOSSLESS";

/// The AVD fabric name (an inventory group): upper case, letters, digits and `_`.
pub fn fabric_name(fabric: &str) -> String {
    let name: String = fabric
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    if name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        name
    } else {
        format!("FABRIC_{name}")
    }
}

/// Uplinks of each switch towards the tier above: (own port, parent, parent port).
type Uplinks<'a> = BTreeMap<&'a str, Vec<(String, &'a str, String)>>;

fn uplinks<'a>(f: &'a PlannedFabric, tier: &str) -> Uplinks<'a> {
    let links = f.links_per_cage();
    let eos = |p: &str| port_number(p).map_or(p.to_string(), |n| eos_port(n, links));
    let mut out: Uplinks = BTreeMap::new();
    for c in f.cables().filter(|c| c.tier == tier) {
        out.entry(c.a_device)
            .or_default()
            .push((eos(c.a_port), c.z_device, eos(c.z_port)));
    }
    out
}

fn list(items: impl IntoIterator<Item = String>) -> String {
    let items: Vec<String> = items.into_iter().collect();
    format!("[{}]", items.join(", "))
}

/// Host-facing ports of each leaf: (own port, the host and its port).
type HostPorts<'a> = BTreeMap<&'a str, Vec<(String, String)>>;

fn host_ports<'a>(f: &'a PlannedFabric) -> HostPorts<'a> {
    let links = f.links_per_cage();
    let mut out: HostPorts = BTreeMap::new();
    for c in f.cables().filter(|c| c.tier == "node-leaf") {
        let Some(n) = port_number(c.z_port) else {
            continue;
        };
        out.entry(c.z_device)
            .or_default()
            .push((eos_port(n, links), format!("{} {}", c.a_device, c.a_port)));
    }
    out
}

/// One tier of switches as an AVD node type.
struct Tier<'a> {
    key: &'a str,
    names: &'a [&'a str],
    up: &'a Uplinks<'a>,
    /// Loopback pool and this tier's offset in it.
    loopback: (&'a str, usize),
    /// Second octet of the pool of this tier's uplink addresses (10.X.0.0).
    uplink_pool: Option<u32>,
    /// AS of the n-th switch; one node group per switch when `groups`.
    bgp_as: &'a dyn Fn(usize) -> u64,
    groups: bool,
    /// Host-facing ports that carry RoCE, given the lossless profile.
    lossless_hosts: Option<&'a HostPorts<'a>>,
    /// Whether its switches are VTEPs of an EVPN overlay (leaves carrying tenants' VRFs).
    vteps: bool,
}

/// One tier's node type: defaults, then nodes (one node group per node for leaves).
fn node_type(out: &mut String, t: &Tier) {
    let Tier {
        key,
        names,
        up,
        loopback,
        uplink_pool,
        bgp_as,
        groups,
        lossless_hosts,
        vteps,
    } = *t;
    let _ = writeln!(out, "{key}:\n  defaults:");
    let _ = writeln!(out, "    loopback_ipv4_pool: {}", q(loopback.0));
    if loopback.1 > 0 {
        let _ = writeln!(out, "    loopback_ipv4_offset: {}", loopback.1);
    }
    if let Some(third) = uplink_pool {
        let parents = up
            .values()
            .map(|u| {
                let mut p: Vec<&str> = u.iter().map(|x| x.1).collect();
                p.sort_unstable();
                p.dedup();
                p.len()
            })
            .max()
            .unwrap_or(1)
            .max(1);
        let parallel = up
            .values()
            .flat_map(|u| {
                let mut per: BTreeMap<&str, usize> = BTreeMap::new();
                for x in u {
                    *per.entry(x.1).or_default() += 1;
                }
                per.into_values()
            })
            .max()
            .unwrap_or(1)
            .max(1);
        let addresses = names.len() as u64 * parents as u64 * parallel as u64 * 2;
        let _ = writeln!(
            out,
            "    uplink_ipv4_pool: {}\n    max_uplink_switches: {parents}\n    max_parallel_uplinks: {parallel}",
            q(&format!("10.{third}.0.0/{}", prefix_for(addresses).min(16)))
        );
    }
    if !groups {
        let _ = writeln!(out, "    bgp_as: {}", q(&bgp_as(0).to_string()));
    }
    if key == "l3leaf" {
        // Two-node groups would become MLAG pairs; a leaf is a VTEP only for tenants' VRFs.
        if vteps {
            let _ = writeln!(
                out,
                "    mlag: false\n    vtep: true\n    vtep_loopback_ipv4_pool: {}",
                q(VTEP_POOL)
            );
        } else {
            let _ = writeln!(out, "    mlag: false\n    vtep: false");
        }
    }
    let indent = if groups { "      " } else { "  " };
    if groups {
        let _ = writeln!(out, "  node_groups:");
    } else {
        let _ = writeln!(out, "  nodes:");
    }
    for (i, name) in names.iter().enumerate() {
        if groups {
            let _ = writeln!(
                out,
                "    - group: {}\n      bgp_as: {}\n      nodes:",
                q(name),
                q(&bgp_as(i).to_string())
            );
        }
        let _ = writeln!(
            out,
            "{indent}  - name: {}\n{indent}    id: {}",
            q(name),
            i + 1
        );
        if let Some(u) = up.get(name) {
            let _ = writeln!(
                out,
                "{indent}    uplink_interfaces: {}\n{indent}    uplink_switches: {}\n{indent}    uplink_switch_interfaces: {}",
                list(u.iter().map(|x| q(&x.0))),
                list(u.iter().map(|x| q(x.1))),
                list(u.iter().map(|x| q(&x.2))),
            );
        }
        if let Some(ports) = lossless_hosts.and_then(|h| h.get(name)) {
            let _ = writeln!(
                out,
                "{indent}    structured_config:\n{indent}      ethernet_interfaces:"
            );
            for (port, host) in ports {
                let _ = writeln!(
                    out,
                    "{indent}        - name: {}\n{indent}          description: {}\n{indent}          shutdown: false\n{indent}          mtu: {P2P_MTU}\n{indent}          service_profile: {}",
                    q(port),
                    q(host),
                    q(QOS_PROFILE)
                );
            }
        }
    }
}

/// AVD's network services: one tenant per isolated design tenant, its VRF and its routed GPU
/// ports.
fn network_services(out: &mut String, ports: &[TenantPorts], links: u32) {
    out.push_str("tenants:\n");
    for (t, ports) in ports {
        let Some(p) = &t.partition else {
            continue;
        };
        let _ = writeln!(
            out,
            "  - name: {name}\n    mac_vrf_vni_base: 10000\n    vrfs:\n      - name: {name}\n        vrf_vni: {}\n        description: {}\n        l3_interfaces:\n          - interfaces: {}\n            ip_addresses: {}\n            nodes: {}\n            description: {}",
            p.l3_vni,
            q(&format!("tenant {}, route target {}", t.tenant, p.route_target)),
            list(ports.iter().map(|x| q(&eos_port(x.port, links)))),
            list(ports.iter().map(|x| q(&x.address))),
            list(ports.iter().map(|x| q(&x.leaf))),
            q(&format!("GPU port of tenant {}", t.tenant)),
            name = q(&p.vrf),
        );
    }
}

/// The fabric variables (group vars of the fabric's inventory group), with the VRFs of the
/// design's isolated `tenants`.
pub fn fabric_vars(spec: &DesignSpec, f: &PlannedFabric, tenants: &[TenantPlacement]) -> String {
    let name = &f.fabric.name;
    let switches = f.switches();
    let of = |tier: &str| -> Vec<&str> {
        switches
            .iter()
            .copied()
            .filter(|s| role_of(name, s) == Some(tier))
            .collect()
    };
    let (leaves, spines, cores) = (of("leaf"), of("spine"), of("core"));
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Arista AVD eos_designs inputs for fabric {name} of {title}: {layout}.\n\
         # Switch port pN of the cabling sheet is EthernetN, or EthernetC/L for lane L of cage C.\n\
         # Each host also needs its node type (see the inventory file).",
        title = comment(&spec.title),
        layout = f.fabric.plan.layout.label()
    );
    let _ = writeln!(out, "fabric_name: {}", q(&fabric_name(name)));
    let tenant_ports = tenant_ports(f, tenants);
    let overlay = if tenant_ports.is_empty() {
        "none"
    } else {
        "ebgp"
    };
    let _ = writeln!(
        out,
        "underlay_routing_protocol: \"ebgp\"\noverlay_routing_protocol: \"{overlay}\"\np2p_uplinks_mtu: {P2P_MTU}"
    );
    let pool = loopback_pool(switches.len());
    if !cores.is_empty() {
        let none = BTreeMap::new();
        node_type(
            &mut out,
            &Tier {
                key: "super_spine",
                names: &cores,
                up: &none,
                loopback: (&pool, 0),
                uplink_pool: None,
                bgp_as: &|_| CORE_AS,
                groups: false,
                lossless_hosts: None,
                vteps: false,
            },
        );
    }
    if !spines.is_empty() {
        let up = uplinks(f, "spine-core");
        node_type(
            &mut out,
            &Tier {
                key: "spine",
                names: &spines,
                up: &up,
                loopback: (&pool, cores.len()),
                uplink_pool: (!cores.is_empty()).then_some(253),
                bgp_as: &|_| SPINE_AS,
                groups: false,
                lossless_hosts: None,
                vteps: false,
            },
        );
    }
    let up = uplinks(f, "leaf-spine");
    let roce = f.transport() == Transport::Roce;
    let hosts = host_ports(f);
    node_type(
        &mut out,
        &Tier {
            key: "l3leaf",
            names: &leaves,
            up: &up,
            loopback: (&pool, cores.len() + spines.len()),
            uplink_pool: (!spines.is_empty()).then_some(254),
            bgp_as: &leaf_as,
            groups: true,
            lossless_hosts: roce.then_some(&hosts),
            vteps: !tenant_ports.is_empty(),
        },
    );
    if roce {
        out.push_str(&qos());
    }
    if !tenant_ports.is_empty() {
        network_services(&mut out, &tenant_ports, f.links_per_cage());
    }
    out
}

fn qos() -> String {
    format!(
        "p2p_uplinks_qos_profile: {profile}\n\
         custom_structured_configuration_qos:\n  map:\n    dscp:\n      - \"26 to traffic-class 3\"\n      - \"48 to traffic-class 6\"\n\
         custom_structured_configuration_qos_profiles:\n  - name: {profile}\n    trust: \"dscp\"\n    uc_tx_queues:\n\
         \x20     - id: 3\n        bandwidth_percent: 50\n        comment: \"RoCE, lossless\"\n        random_detect:\n          ecn:\n            threshold:\n              units: \"kbytes\"\n              min: 150\n              max: 1500\n\
         \x20     - id: 6\n        priority: \"priority strict\"\n        comment: \"congestion notification packets\"\n\
         \x20   priority_flow_control:\n      enabled: true\n      watchdog:\n        enabled: true\n        action: \"drop\"\n        timer:\n          timeout: \"0.2\"\n          polling_interval: \"auto\"\n          recovery_time: \"0.2\"\n      priorities:\n        - priority: 3\n          no_drop: true\n",
        profile = q(QOS_PROFILE)
    )
}

/// The Ansible inventory AVD reads: the fabric group, one child group per node type with its
/// `type`, and every switch.
pub fn inventory(f: &PlannedFabric) -> String {
    let name = &f.fabric.name;
    let group = fabric_name(name);
    // Quoted: an upper-cased fabric name may read as a boolean or null in YAML 1.1 (`ON`, `NO`,
    // `NULL`), and the group must stay the string the fabric's variables name.
    let mut out = format!("all:\n  children:\n    {}:\n      children:\n", q(&group));
    for (tier, key, suffix) in [
        ("core", "super_spine", "SUPER_SPINES"),
        ("spine", "spine", "SPINES"),
        ("leaf", "l3leaf", "LEAVES"),
    ] {
        let members: Vec<&str> = f
            .switches()
            .into_iter()
            .filter(|s| role_of(name, s) == Some(tier))
            .collect();
        if members.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "        {}:\n          vars:\n            type: {}\n          hosts:",
            q(&format!("{group}_{suffix}")),
            q(key)
        );
        for m in members {
            let _ = writeln!(out, "            {}: {{}}", q(m));
        }
    }
    out
}
