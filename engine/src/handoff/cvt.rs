//! The point-to-point cabling file of NVIDIA's UFM Cable Validation Tool, one row per cable in
//! sheet order. CVT finds its columns by header name: A-Node Name, A-Port, Z-Node Name, Z-Port,
//! with A-Type and Z-Type (`Host` or `Switch`) on Ethernet fabrics. Ports as CVT names them:
//! an InfiniBand switch port is its number, an InfiniBand host port the index N of its adapter
//! (`mlx5_{N-1}` unless an hca_mapping file says otherwise), an Ethernet switch port as its
//! operating system names it (Cumulus `swpCsS`, `swpN` unsplit; EOS `EthernetC/L`), an Ethernet host port its interface as the host names it where the node
//! type gives its adapters (`enp24s0np0` on a DGX H100), else `railN`
//! [docs.nvidia.com/networking/display/cablevalidationtool160/P2P+File].
//!
//! CVT reads the P2P file as an Excel workbook: open the CSV and save it as .xlsx. Where the
//! nodes' adapters are known and not numbered as CVT assumes (a DGX H100's compute adapters are
//! mlx5_0, 3, 4, 5, 6, 9, 10 and 11), the bundle gives CVT its hca_mapping file too.

use super::text::{csv_row, hand_on, push_csv_row, Pieces};
use super::{nic_number, port_number, role_of, PlannedFabric};
use crate::catalog::{Adapter, SwitchOs};
use crate::technology::Transport;
use crate::units::push_decimal;

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
    let mut out = String::new();
    Ports::of(f).push(&mut out, device, port);
    out
}

/// Names ports as CVT does, with what the fabric decides (its transport and switch) found once
/// rather than for each of its tens of thousands of ports.
pub(crate) struct Ports<'a> {
    fabric: &'a str,
    ib: bool,
    os: SwitchOs,
    links_per_cage: u32,
    adapters: &'a [Adapter],
}

impl<'a> Ports<'a> {
    pub(crate) fn of(f: &'a PlannedFabric) -> Self {
        Ports {
            fabric: &f.fabric.name,
            ib: f.transport() == Transport::InfiniBand,
            os: f.os(),
            links_per_cage: f.links_per_cage(),
            adapters: f.adapters,
        }
    }

    /// Whether `device` is one of the fabric's switches.
    pub(crate) fn switch(&self, device: &str) -> bool {
        role_of(self.fabric, device).is_some()
    }

    /// Appends the CVT name of `port` of `device` to `out`.
    pub(crate) fn push(&self, out: &mut String, device: &str, port: &str) {
        let switch = self.switch(device);
        let n = if switch {
            port_number(port)
        } else {
            nic_number(self.fabric, port).or_else(|| port_number(port))
        };
        match (self.ib, switch, n) {
            (_, true, Some(n)) => self.os.push_port(out, n, self.links_per_cage),
            (true, false, Some(n)) => push_decimal(out, u64::from(n), 0),
            (false, false, Some(n)) => {
                match n.checked_sub(1).and_then(|i| self.adapters.get(i as usize)) {
                    Some(adapter) => out.push_str(adapter.ethernet),
                    None => {
                        out.push_str("rail");
                        push_decimal(out, u64::from(n), 0);
                    }
                }
            }
            (_, _, None) => out.push_str(port),
        }
    }
}

/// CVT's hca_mapping file: which RDMA device each host port index N of the P2P file is
/// (`port,hca-name`, `1,mlx5_0`), for nodes whose adapters are not numbered mlx5_{N-1}
/// [docs.nvidia.com/networking/display/cablevalidationtool150/Optional+Files].
pub fn hca_mapping(adapters: &[Adapter]) -> String {
    let mut out = csv_row(&["port", "hca-name"]);
    for (i, a) in adapters.iter().enumerate() {
        push_csv_row(&mut out, &[(i + 1).to_string().as_str(), a.rdma]);
    }
    out
}

pub fn p2p_csv(f: &PlannedFabric, pieces: &mut Pieces) {
    let ports = Ports::of(f);
    let kind = |d: &str| if ports.switch(d) { "Switch" } else { "Host" };
    let mut out = if ports.ib {
        csv_row(&IB_HEADER)
    } else {
        csv_row(&ETHERNET_HEADER)
    };
    let (mut a, mut z) = (String::new(), String::new());
    for c in f.cables() {
        hand_on(&mut out, pieces, false);
        a.clear();
        ports.push(&mut a, c.a_device, c.a_port);
        z.clear();
        ports.push(&mut z, c.z_device, c.z_port);
        if ports.ib {
            push_csv_row(&mut out, &[c.a_device, &a, c.z_device, &z]);
        } else {
            push_csv_row(
                &mut out,
                &[
                    c.a_device,
                    kind(c.a_device),
                    &a,
                    c.z_device,
                    kind(c.z_device),
                    &z,
                ],
            );
        }
    }
    hand_on(&mut out, pieces, true);
}
