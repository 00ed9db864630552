//! Each isolated tenant's partition on every fabric: an InfiniBand partition key, and on
//! Ethernet a VRF (its L3 VNI and route target, for per-GPU isolation with EVPN type-5 routes)
//! and a VLAN with its L2 VNI (for per-server isolation with a MAC-VRF) [Juniper JVD, AI data
//! centre EVPN multitenancy; Infrahub AI/DC solution: VNI, VLAN and route-target pools per
//! tenant].
//!
//! The numbers follow the tenant's place in the design's list, so a tenant keeps its numbers
//! when another's isolation changes.

pub use crate::report::tenants::Partition;

impl Partition {
    /// The identifiers of the design's tenant `index` (from 0), named `name`.
    pub fn of(index: usize, name: &str) -> Partition {
        // At most MAX_TENANTS tenants: every number stays within its range.
        let i = index.min(crate::rules::MAX_TENANTS) as u16;
        let l3_vni = L3_VNI_BASE + u32::from(i) + 1;
        let vlan = FIRST_VLAN + i;
        Partition {
            pkey: FIRST_PKEY + i,
            vrf: name.to_string(),
            l3_vni,
            route_target: format!("{l3_vni}:{l3_vni}"),
            vlan,
            l2_vni: L2_VNI_BASE + u32::from(vlan),
        }
    }

    /// The key as UFM and OpenSM write it: `0x1001`.
    pub fn pkey_hex(&self) -> String {
        format!("0x{:04x}", self.pkey)
    }
}

/// The first tenant's partition key. A P_Key is 15 bits of key and a membership bit [IBTA,
/// InfiniBand Architecture Specification vol. 1, §10.9]; 0x7FFF is the default partition every
/// port is in, so tenants' keys start well below it.
pub const FIRST_PKEY: u16 = 0x1001;
/// The first tenant's VLAN and the bases its VNIs are numbered from (AVD's `mac_vrf_vni_base`
/// convention: L2 VNI = base + VLAN).
const FIRST_VLAN: u16 = 1001;
const L2_VNI_BASE: u32 = 10_000;
const L3_VNI_BASE: u32 = 50_000;
