//! The overlay plan of an Ethernet fabric whose tenants are isolated, shared by every switch
//! configuration that carries it (AVD, NVUE): each isolated tenant's VRF on the leaves serving
//! its nodes, and every GPU port of its nodes a routed /31 in that VRF, so that its hosts'
//! routes travel as EVPN type-5 routes inside the VRF only (per-GPU isolation, pure type-5)
//! [Juniper JVD, AI data centre EVPN multitenancy]. Each tenant's /31s come from a /16 of its
//! own, 10.(64 + its place in the design's list).0.0/16, numbered in cabling-sheet order.

use super::{port_number, PlannedFabric};
use crate::tenancy::TenantPlacement;

/// The VTEP loopbacks of the leaves, when the fabric carries tenants' VRFs.
pub const VTEP_POOL: &str = "10.252.0.0/16";
/// Routed GPU ports one tenant has at most on one fabric: a /16 of /31s.
const MAX_TENANT_PORTS: usize = 1 << 15;

/// A GPU port routed in its tenant's VRF.
pub struct RoutedPort {
    /// The leaf and its port `pN` of the sheet, as N.
    pub leaf: String,
    pub port: u32,
    /// The /31 on the leaf's side (`10.64.0.0/31`; the host takes the other address).
    pub address: String,
}

/// An isolated tenant and its routed GPU ports on one fabric.
pub type TenantPorts<'t> = (&'t TenantPlacement, Vec<RoutedPort>);

/// The isolated tenants of `tenants` with GPU ports on `f`, each with them.
pub fn tenant_ports<'t>(f: &PlannedFabric, tenants: &'t [TenantPlacement]) -> Vec<TenantPorts<'t>> {
    tenants
        .iter()
        .filter_map(|t| {
            let p = t.partition.as_ref()?;
            let index = usize::from(p.pkey.saturating_sub(crate::tenancy::FIRST_PKEY));
            let ports: Vec<RoutedPort> = f
                .cables()
                .filter(|c| c.tier == "node-leaf")
                .filter(|c| crate::floor::node_number(c.a_device).is_some_and(|n| t.holds(n)))
                .filter_map(|c| Some((c.z_device.to_string(), port_number(c.z_port)?)))
                .take(MAX_TENANT_PORTS)
                .enumerate()
                .map(|(k, (leaf, port))| {
                    let host = 2 * k;
                    RoutedPort {
                        leaf,
                        port,
                        address: format!("10.{}.{}.{}/31", 64 + index, host >> 8, host & 0xff),
                    }
                })
                .collect();
            (!ports.is_empty()).then_some((t, ports))
        })
        .collect()
}
