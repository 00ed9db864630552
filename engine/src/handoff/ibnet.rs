//! The InfiniBand fabric as `ibnetdiscover` prints it (rdma-core infiniband-diags
//! ibnetdiscover.c; man ibnetdiscover(8)): the planned topology file, which the simulator
//! `ibsim` reads as its net file (linux-rdma/ibsim sim_net.c), and the dump a built fabric would
//! give, so that tests and demonstrations can feed the as-built check.
//!
//! Each host port is one channel adapter whose node description is `<host> <adapter>`: the
//! adapter as the host names it where the node type's adapters are known (a DGX H100 sets
//! `node-001 mlx5_0`), else the sheet's port (`node-001 compute-nic1`; set it on the hosts, or map
//! it with `--node-name-map`). Each switch's description is its sheet name. GUIDs are made up,
//! stable for a given plan.

use super::text::{hand_on_bytes, whole, Pieces};
use super::{nic_number, role_of, PlannedFabric};
use crate::catalog::Adapter;
use crate::fast_hash::FastMap;
use crate::ports::{ib_rate, ib_speed_token, ObservedLink};
use crate::units::GigabitsPerSecond;
use crate::units::{push_decimal, push_hex};

/// The rate every planned link comes up at: `4x` at the fabric's lane rate.
fn planned_rate(f: &PlannedFabric) -> String {
    format!("4x{}", ib_speed_token(f.speed_gbps() / 4.0))
}

/// The links of the plan, as the fabric should report them: `4x` at the fabric's lane rate.
pub fn planned_links(f: &PlannedFabric) -> Vec<ObservedLink> {
    let rate = planned_rate(f);
    let speed = ib_rate(&rate).map(|r| r.1);
    f.cables()
        .map(|c| ObservedLink {
            device: c.a_device.to_string(),
            port: c.a_port.to_string(),
            peer_device: c.z_device.to_string(),
            peer_port: c.z_port.to_string(),
            width: Some(4),
            speed_gbps: speed.map(GigabitsPerSecond::new),
            rate: Some(rate.clone()),
            line: 0,
        })
        .collect()
}

/// The planned fabric as an `ibnetdiscover` topology file (and `ibsim` net file): the cables
/// printed as [`ibnetdiscover`] prints [`planned_links`], read in place; hosts' ports named as
/// `adapters` names them.
pub fn topology(f: &PlannedFabric, adapters: &[Adapter], pieces: &mut Pieces) {
    let rate = planned_rate(f);
    print(
        f,
        adapters,
        pieces,
        f.cables().map(|c| Printed {
            a: (c.a_device, c.a_port),
            z: (c.z_device, c.z_port),
            rate: &rate,
        }),
    )
}

/// `links` of fabric `f` printed as `ibnetdiscover` prints a fabric: switches first, then
/// channel adapters, each link from both ends, hosts' ports named as `adapters` names them.
/// Links whose switch port is not `pN` are left out.
pub fn ibnetdiscover(f: &PlannedFabric, links: &[ObservedLink], adapters: &[Adapter]) -> String {
    whole(|pieces| {
        print(
            f,
            adapters,
            pieces,
            links.iter().map(|l| Printed {
                a: (&l.device, &l.port),
                z: (&l.peer_device, &l.peer_port),
                rate: l.rate.as_deref().unwrap_or("4xSDR"),
            }),
        )
    })
}

/// A link to print: (device, port) at each end, and its rate.
struct Printed<'a> {
    a: (&'a str, &'a str),
    z: (&'a str, &'a str),
    rate: &'a str,
}

/// A node of the output, by the index it was first seen at.
#[derive(Clone, Copy)]
enum Node {
    Switch(usize),
    Ca(usize),
    /// A switch end whose port is not `pN`: found by name when printed, if it is listed at all.
    Unlisted,
}

struct End<'a> {
    port: u32,
    peer: (&'a str, &'a str),
    peer_node: Node,
    rate: &'a str,
}

/// The order of `names` sorted (each name is listed once), and each one's place in it.
fn sorted<K: Ord + Copy>(names: &[K]) -> (Vec<usize>, Vec<usize>) {
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_unstable_by_key(|i| names[*i]);
    let mut rank = vec![0; names.len()];
    for (r, i) in order.iter().enumerate() {
        rank[*i] = r;
    }
    (order, rank)
}

/// A host port as the host names it: its adapter where `adapters` knows it, else the sheet's.
fn host_port<'p>(fabric: &str, port: &'p str, adapters: &'p [Adapter]) -> &'p str {
    nic_number(fabric, port)
        .and_then(|rail| adapters.get(rail.checked_sub(1)? as usize))
        .map_or(port, |a| a.rdma)
}

fn print<'a>(
    f: &'a PlannedFabric,
    adapters: &[Adapter],
    pieces: &mut Pieces,
    links: impl Iterator<Item = Printed<'a>>,
) {
    let fabric = f.fabric.name.as_str();
    let is_switch = |d: &str| role_of(fabric, d).is_some();
    // Switches (with their port lines) and channel adapters (with their one port line) by the
    // index they are first seen at; each link's ends are found once, so that printing a port
    // line looks nothing up by name.
    let mut switch_at: FastMap<&str, usize> = FastMap::default();
    let mut switches: Vec<&str> = Vec::new();
    let mut switch_ends: Vec<Vec<End>> = Vec::new();
    let mut ca_at: FastMap<(&str, &str), usize> = FastMap::default();
    let mut cas: Vec<(&str, &str)> = Vec::new();
    let mut ca_ends: Vec<End> = Vec::new();
    for name in f.switches() {
        switch_at.insert(name, switches.len());
        switches.push(name);
        switch_ends.push(Vec::new());
    }
    for l in links {
        let mut node = |(device, port): (&'a str, &'a str)| -> (Node, Option<u32>) {
            if !is_switch(device) {
                let at = *ca_at.entry((device, port)).or_insert_with(|| {
                    cas.push((device, port));
                    cas.len() - 1
                });
                return (Node::Ca(at), None);
            }
            match super::port_number(port) {
                Some(n) => {
                    let at = *switch_at.entry(device).or_insert_with(|| {
                        switches.push(device);
                        switch_ends.push(Vec::new());
                        switches.len() - 1
                    });
                    (Node::Switch(at), Some(n))
                }
                None => (Node::Unlisted, None),
            }
        };
        let (a, a_port) = node(l.a);
        let (z, z_port) = node(l.z);
        for (from, from_port, to, to_node) in [(a, a_port, l.z, z), (z, z_port, l.a, a)] {
            let end = |port| End {
                port,
                peer: to,
                peer_node: to_node,
                rate: l.rate,
            };
            match (from, from_port) {
                (Node::Switch(at), Some(port)) => switch_ends[at].push(end(port)),
                // A channel adapter listed twice keeps its last link.
                (Node::Ca(at), _) => {
                    if at == ca_ends.len() {
                        ca_ends.push(end(1));
                    } else {
                        ca_ends[at] = end(1);
                    }
                }
                _ => {}
            }
        }
    }
    // Printed in name order; GUIDs and LIDs by that position: switches from 1, then adapters.
    let (switch_order, switch_rank) = sorted(&switches);
    let (ca_order, ca_rank) = sorted(&cas);
    let base = 0x0002_c903_0000_0000u64 + ((fnv(fabric) & 0xffff) << 24);
    let switch_guid = |at: usize| base + 0x10 * switch_rank[at] as u64;
    let switch_lid = |at: usize| switch_rank[at] as u64 + 1;
    let ca_base = base + 0x0080_0000;
    let ca_guid = |at: usize| ca_base + 0x10 * ca_rank[at] as u64;
    let ca_lid = |at: usize| (switches.len() + ca_rank[at]) as u64 + 1;
    let radix = f.fabric.plan.radix;
    // Bytes, checked as UTF-8 a piece at a time rather than number by number.
    let mut out: Vec<u8> = Vec::new();
    out.extend_from_slice(b"#\n# Topology file: fabric ");
    out.extend_from_slice(fabric.as_bytes());
    out.extend_from_slice(b", as planned\n#\n");
    // The peer as a port line names it: id and port, then its description and LID.
    let peer = |out: &mut Vec<u8>, e: &End| {
        let node = match e.peer_node {
            Node::Unlisted => switch_at
                .get(e.peer.0)
                .map_or(Node::Unlisted, |at| Node::Switch(*at)),
            node => node,
        };
        let lid = match node {
            Node::Switch(at) => {
                out.extend_from_slice(b"\"S-");
                push_hex(out, switch_guid(at), 16);
                out.extend_from_slice(b"\"[");
                push_decimal(out, u64::from(super::port_number(e.peer.1).unwrap_or(0)), 0);
                out.push(b']');
                switch_lid(at)
            }
            Node::Ca(at) => {
                let guid = ca_guid(at);
                out.extend_from_slice(b"\"H-");
                push_hex(out, guid, 16);
                out.extend_from_slice(b"\"[1](");
                push_hex(out, guid + 1, 0);
                out.extend_from_slice(b") ");
                ca_lid(at)
            }
            Node::Unlisted => {
                out.extend_from_slice(b"\"H-0000000000000000\"[1](1) ");
                0
            }
        };
        (lid, matches!(node, Node::Switch(_)))
    };
    let description = |out: &mut Vec<u8>, e: &End, switch: bool, lid: u64| {
        out.extend_from_slice(e.peer.0.as_bytes());
        if !switch {
            out.push(b' ');
            out.extend_from_slice(host_port(fabric, e.peer.1, adapters).as_bytes());
        }
        out.extend_from_slice(b"\" lid ");
        push_decimal(out, lid, 0);
        out.push(b' ');
        out.extend_from_slice(e.rate.as_bytes());
        out.push(b'\n');
    };
    for at in switch_order {
        hand_on_bytes(&mut out, pieces, false);
        let (name, ends) = (switches[at], &mut switch_ends[at]);
        let (guid, lid) = (switch_guid(at), switch_lid(at));
        ends.sort_by_key(|e| e.port);
        let ports = ends.last().map_or(radix, |e| e.port.max(radix));
        out.extend_from_slice(b"\nvendid=0x2c9\ndevid=0xd2f0\nsysimgguid=0x");
        push_hex(&mut out, guid, 0);
        out.extend_from_slice(b"\nswitchguid=0x");
        push_hex(&mut out, guid, 0);
        out.extend_from_slice(b"(0x");
        push_hex(&mut out, guid, 0);
        out.extend_from_slice(b")\nSwitch\t");
        push_decimal(&mut out, u64::from(ports), 0);
        out.extend_from_slice(b" \"S-");
        push_hex(&mut out, guid, 16);
        out.extend_from_slice(b"\"\t\t# \"");
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b"\" enhanced port 0 lid ");
        push_decimal(&mut out, lid, 0);
        out.extend_from_slice(b" lmc 0\n");
        for e in ends.iter() {
            out.push(b'[');
            push_decimal(&mut out, u64::from(e.port), 0);
            out.extend_from_slice(b"]\t");
            let (peer_lid, switch) = peer(&mut out, e);
            out.extend_from_slice(b"\t\t# \"");
            description(&mut out, e, switch, peer_lid);
        }
    }
    for at in ca_order {
        hand_on_bytes(&mut out, pieces, false);
        let ((host, port), e) = (cas[at], &ca_ends[at]);
        let (guid, lid) = (ca_guid(at), ca_lid(at));
        out.extend_from_slice(b"\nvendid=0x2c9\ndevid=0x1021\nsysimgguid=0x");
        push_hex(&mut out, guid, 0);
        out.extend_from_slice(b"\ncaguid=0x");
        push_hex(&mut out, guid, 0);
        out.extend_from_slice(b"\nCa\t1 \"H-");
        push_hex(&mut out, guid, 16);
        out.extend_from_slice(b"\"\t\t# \"");
        out.extend_from_slice(host.as_bytes());
        out.push(b' ');
        out.extend_from_slice(host_port(fabric, port, adapters).as_bytes());
        out.extend_from_slice(b"\"\n[1](");
        push_hex(&mut out, guid + 1, 0);
        out.extend_from_slice(b") \t");
        let (peer_lid, switch) = peer(&mut out, e);
        out.extend_from_slice(b"\t\t# lid ");
        push_decimal(&mut out, lid, 0);
        out.extend_from_slice(b" lmc 0 \"");
        description(&mut out, e, switch, peer_lid);
    }
    hand_on_bytes(&mut out, pieces, true);
}

/// FNV-1a: a stable GUID block per fabric name, so two fabrics never share GUIDs.
fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
