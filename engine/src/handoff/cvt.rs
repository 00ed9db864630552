//! The point-to-point cabling file of NVIDIA's UFM Cable Validation Tool, one row per cable in
//! sheet order. CVT finds its columns by header name: A-Node Name, A-Port, Z-Node Name, Z-Port,
//! with A-Type and Z-Type (`Host` or `Switch`) on Ethernet fabrics. Ports as CVT names them:
//! an InfiniBand switch port is its number, an InfiniBand host port the index N of its adapter
//! (`mlx5_{N-1}` unless an hca_mapping file says otherwise), a Cumulus switch port `swpCsS`
//! (`swpN` unsplit), an Ethernet host port `railN`
//! [docs.nvidia.com/networking/display/cablevalidationtool160/P2P+File].
//!
//! CVT reads the P2P file as an Excel workbook: open the CSV and save it as .xlsx.

use super::text::{csv_row, push_csv_row};
use super::{nic_number, port_number, role_of, PlannedFabric};
use crate::asbuilt::cumulus_port;
use crate::technology::Transport;

pub const IB_HEADER: [&str; 4] = ["A-Node Name", "A-Port", "Z-Node Name", "Z-Port"];
pub const ETHERNET_HEADER: [&str; 6] = [
    "A-Node Name",
    "A-Type",
    "A-Port",
    "Z-Node Name",
    "Z-Type",
    "Z-Port",
];

/// The port of `device` as CVT names it.
pub fn port(f: &PlannedFabric, device: &str, port: &str) -> String {
    let ib = f.transport() == Transport::InfiniBand;
    let switch = role_of(&f.fabric.name, device).is_some();
    let n = if switch {
        port_number(port)
    } else {
        nic_number(&f.fabric.name, port).or_else(|| port_number(port))
    };
    match (ib, switch, n) {
        (true, _, Some(n)) => n.to_string(),
        (false, true, Some(n)) => cumulus_port(n, f.links_per_cage()),
        (false, false, Some(n)) => format!("rail{n}"),
        (_, _, None) => port.to_string(),
    }
}

pub fn p2p_csv(f: &PlannedFabric) -> String {
    let ib = f.transport() == Transport::InfiniBand;
    let kind = |d: &str| {
        if role_of(&f.fabric.name, d).is_some() {
            "Switch"
        } else {
            "Host"
        }
    };
    let mut out = if ib {
        csv_row(&IB_HEADER)
    } else {
        csv_row(&ETHERNET_HEADER)
    };
    for lc in &f.cables {
        let c = &lc.cable;
        let a = port(f, &c.a_device, &c.a_port);
        let z = port(f, &c.z_device, &c.z_port);
        if ib {
            push_csv_row(&mut out, &[c.a_device.as_str(), &a, &c.z_device, &z]);
        } else {
            push_csv_row(
                &mut out,
                &[
                    c.a_device.as_str(),
                    kind(&c.a_device),
                    &a,
                    &c.z_device,
                    kind(&c.z_device),
                    &z,
                ],
            );
        }
    }
    out
}
