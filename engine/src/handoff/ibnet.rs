//! The InfiniBand fabric as `ibnetdiscover` prints it (rdma-core infiniband-diags
//! ibnetdiscover.c; man ibnetdiscover(8)): the planned topology file, which the simulator
//! `ibsim` reads as its net file (linux-rdma/ibsim sim_net.c), and the dump a built fabric would
//! give, so that tests and demonstrations can feed the as-built check.
//!
//! Each host port is one channel adapter whose node description is `<host> <port>` (as
//! `node-001 compute-nic1`; set it on the hosts, or map it with `--node-name-map`); each switch's
//! description is its sheet name. GUIDs are made up, stable for a given plan.

use super::{role_of, PlannedFabric};
use crate::asbuilt::{ib_rate, ib_speed_token, ObservedLink};
use std::collections::HashMap;
use std::fmt::Write;

/// The links of the plan, as the fabric should report them: `4x` at the fabric's lane rate.
pub fn planned_links(f: &PlannedFabric) -> Vec<ObservedLink> {
    let rate = format!("4x{}", ib_speed_token(f.speed_gbps() / 4.0));
    let speed = ib_rate(&rate).map(|r| r.1);
    f.cables
        .iter()
        .map(|c| ObservedLink {
            device: c.cable.a_device.clone(),
            port: c.cable.a_port.clone(),
            peer_device: c.cable.z_device.clone(),
            peer_port: c.cable.z_port.clone(),
            width: Some(4),
            speed_gbps: speed,
            rate: Some(rate.clone()),
            line: 0,
        })
        .collect()
}

/// The planned fabric as an `ibnetdiscover` topology file (and `ibsim` net file).
pub fn topology(f: &PlannedFabric) -> String {
    ibnetdiscover(f, &planned_links(f))
}

struct End<'a> {
    port: u32,
    peer: (&'a str, &'a str),
    rate: &'a str,
}

/// `links` of fabric `f` printed as `ibnetdiscover` prints a fabric: switches first, then
/// channel adapters, each link from both ends. Links whose switch port is not `pN` are left out.
pub fn ibnetdiscover(f: &PlannedFabric, links: &[ObservedLink]) -> String {
    let fabric = f.fabric.name.as_str();
    let is_switch = |d: &str| role_of(fabric, d).is_some();
    // Switch ports by switch; channel adapters by (host, port). Gathered by hash, then sorted
    // by name for the output.
    let mut switch_at: HashMap<&str, usize> = HashMap::new();
    let mut switches: Vec<(&str, Vec<End>)> = Vec::new();
    let mut ca_at: HashMap<(&str, &str), usize> = HashMap::new();
    let mut cas: Vec<((&str, &str), End)> = Vec::new();
    for name in f.switches() {
        switch_at.insert(name, switches.len());
        switches.push((name, Vec::new()));
    }
    for l in links {
        let rate = l.rate.as_deref().unwrap_or("4xSDR");
        for (from, to) in [
            ((&l.device, &l.port), (&l.peer_device, &l.peer_port)),
            ((&l.peer_device, &l.peer_port), (&l.device, &l.port)),
        ] {
            if is_switch(from.0) {
                if let Some(port) = super::port_number(from.1) {
                    let at = *switch_at.entry(from.0).or_insert_with(|| {
                        switches.push((from.0, Vec::new()));
                        switches.len() - 1
                    });
                    switches[at].1.push(End {
                        port,
                        peer: (to.0, to.1),
                        rate,
                    });
                }
            } else {
                let end = End {
                    port: 1,
                    peer: (to.0, to.1),
                    rate,
                };
                match ca_at.get(&(from.0, from.1)) {
                    Some(at) => cas[*at].1 = end,
                    None => {
                        ca_at.insert((from.0, from.1), cas.len());
                        cas.push(((from.0, from.1), end));
                    }
                }
            }
        }
    }
    switches.sort_unstable_by_key(|s| s.0);
    cas.sort_unstable_by_key(|c| c.0);
    // GUIDs and LIDs by position: switches from 1, then adapters.
    let base = 0x0002_c903_0000_0000u64 + ((fnv(fabric) & 0xffff) << 24);
    // Looked up once per port line: hashed, while the node maps above keep the output order.
    let switch_ids: HashMap<&str, (u64, usize)> = switches
        .iter()
        .enumerate()
        .map(|(i, s)| (s.0, (base + 0x10 * i as u64, i + 1)))
        .collect();
    let ca_base = base + 0x0080_0000;
    let ca_ids: HashMap<(&str, &str), (u64, usize)> = cas
        .iter()
        .enumerate()
        .map(|(i, c)| (c.0, (ca_base + 0x10 * i as u64, switch_ids.len() + i + 1)))
        .collect();
    let radix = f.fabric.plan.radix;
    let mut out = String::with_capacity(160 * (2 * links.len() + switch_ids.len()));
    let _ = writeln!(out, "#\n# Topology file: fabric {fabric}, as planned\n#");
    // The peer as a port line names it: id and port, then its description and LID.
    // Ids as port lines print them, formatted once per node rather than once per line.
    let switch_text: HashMap<&str, String> = switch_ids
        .iter()
        .map(|(s, (guid, _))| (*s, format!("\"S-{guid:016x}\"[")))
        .collect();
    let ca_text: HashMap<(&str, &str), String> = ca_ids
        .iter()
        .map(|(k, (guid, _))| (*k, format!("\"H-{guid:016x}\"[1]({:x}) ", guid + 1)))
        .collect();
    let peer = |out: &mut String, p: (&str, &str)| -> (usize, bool) {
        if let Some((_, lid)) = switch_ids.get(p.0) {
            let n = super::port_number(p.1).unwrap_or(0);
            out.push_str(&switch_text[p.0]);
            let _ = write!(out, "{n}]");
            (*lid, true)
        } else {
            match (ca_ids.get(&p), ca_text.get(&p)) {
                (Some((_, lid)), Some(text)) => {
                    out.push_str(text);
                    (*lid, false)
                }
                _ => {
                    out.push_str("\"H-0000000000000000\"[1](1) ");
                    (0, false)
                }
            }
        }
    };
    let description = |out: &mut String, p: (&str, &str), switch: bool| {
        out.push_str(p.0);
        if !switch {
            out.push(' ');
            out.push_str(p.1);
        }
    };
    for (name, ends) in &mut switches {
        let (guid, lid) = switch_ids[*name];
        ends.sort_by_key(|e| e.port);
        let ports = ends.last().map_or(radix, |e| e.port.max(radix));
        let _ = write!(
            out,
            "\nvendid=0x2c9\ndevid=0xd2f0\nsysimgguid=0x{guid:x}\nswitchguid=0x{guid:x}(0x{guid:x})\n\
             Switch\t{ports} \"S-{guid:016x}\"\t\t# \"{name}\" enhanced port 0 lid {lid} lmc 0\n"
        );
        for e in ends.iter() {
            let _ = write!(out, "[{}]\t", e.port);
            let (peer_lid, switch) = peer(&mut out, e.peer);
            out.push_str("\t\t# \"");
            description(&mut out, e.peer, switch);
            let _ = writeln!(out, "\" lid {peer_lid} {}", e.rate);
        }
    }
    for ((host, port), e) in &cas {
        let (guid, lid) = ca_ids[&(*host, *port)];
        let _ = write!(
            out,
            "\nvendid=0x2c9\ndevid=0x1021\nsysimgguid=0x{guid:x}\ncaguid=0x{guid:x}\n\
             Ca\t1 \"H-{guid:016x}\"\t\t# \"{host} {port}\"\n[1]({:x}) \t",
            guid + 1
        );
        let (peer_lid, switch) = peer(&mut out, e.peer);
        let _ = write!(out, "\t\t# lid {lid} lmc 0 \"");
        description(&mut out, e.peer, switch);
        let _ = writeln!(out, "\" lid {peer_lid} {}", e.rate);
    }
    out
}

/// FNV-1a: a stable GUID block per fabric name, so two fabrics never share GUIDs.
fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
