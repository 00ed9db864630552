use super::{Provenance, ESTIMATE};
use crate::units::GigabitsPerSecond;
use crate::units::{Usd, Watts};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SwitchFamily {
    #[serde(rename = "infiniband")]
    InfiniBand,
    Ethernet,
}

/// The operating system a switch runs, which decides how its configuration is handed off and
/// how its ports are named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SwitchOs {
    /// NVIDIA Quantum InfiniBand switches: the subnet manager (UFM, OpenSM) configures the
    /// fabric; ports are numbers.
    MlnxOs,
    /// NVIDIA Cumulus Linux on Spectrum switches, configured through NVUE; ports `swpN`.
    CumulusLinux,
    /// Arista EOS, configured through AVD; ports `EthernetN`.
    Eos,
}

impl SwitchOs {
    /// Appends the name the operating system gives switch port `pN` of the cabling sheet.
    pub fn push_port(self, out: &mut String, n: u32, links_per_cage: u32) {
        match self {
            SwitchOs::MlnxOs => crate::units::push_decimal(out, u64::from(n), 0),
            SwitchOs::CumulusLinux => crate::ports::push_cumulus_port(out, n, links_per_cage),
            SwitchOs::Eos => crate::ports::push_eos_port(out, n, links_per_cage),
        }
    }

    /// The `os` a Graphviz topology names (NVIDIA Air, PTM).
    pub fn dot_name(self) -> &'static str {
        match self {
            SwitchOs::MlnxOs => "mlnx-os",
            SwitchOs::CumulusLinux => "cumulus",
            SwitchOs::Eos => "eos",
        }
    }
}

/// A fabric switch and the port configurations it supports.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Switch {
    pub key: &'static str,
    pub name: &'static str,
    pub family: SwitchFamily,
    /// The operating system the bundle configures it for.
    pub os: SwitchOs,
    /// (port speed in Gb/s, ports at that speed), fastest first.
    pub port_modes: &'static [(f64, u32)],
    /// Line rate of one physical cage (OSFP/QSFP); a cage carries `cage_gbps / port speed` links,
    /// so one twin-port transceiver serves two links [Al-Fares, Loukissas & Vahdat, SIGCOMM 2008; RA-11333-001; NVIDIA LinkX].
    pub cage_gbps: GigabitsPerSecond,
    pub rack_units: u32,
    /// In-network reduction (SHARP) support.
    pub sharp: bool,
    /// Where the SHARP figure comes from.
    pub sharp_source: &'static str,
    pub ports: Provenance,
    pub power_w: Watts,
    pub price_usd: Usd,
    pub cost: Provenance,
}

impl Switch {
    /// The name without the details in brackets: "NVIDIA Spectrum-4 SN5400".
    pub fn short_name(&self) -> &'static str {
        self.name.split(" (").next().unwrap_or(self.name).trim()
    }

    /// The port mode an endpoint of `speed_gbps` uses: the slowest mode at least that fast
    /// (a 50G NIC on a 100G port). `(mode speed, ports)`.
    pub fn port_mode_for(&self, speed_gbps: f64) -> Option<(f64, u32)> {
        self.port_modes
            .iter()
            .copied()
            .filter(|(speed, _)| *speed >= speed_gbps - 1e-9)
            .min_by(|a, b| a.0.total_cmp(&b.0))
    }

    /// Links that share one physical cage at `speed_gbps` (2 for 400G links in an 800G cage).
    pub fn links_per_cage(&self, speed_gbps: f64) -> u32 {
        if speed_gbps <= 0.0 {
            return 1;
        }
        ((self.cage_gbps.gbps() / speed_gbps).floor() as u32).clamp(1, 8)
    }
}

pub static SWITCHES: &[Switch] = &[
    Switch {
        key: "qm9700",
        name: "NVIDIA Quantum-2 QM9700 (NDR, 64×400G, 32 twin-port OSFP)",
        family: SwitchFamily::InfiniBand,
        os: SwitchOs::MlnxOs,
        port_modes: &[(400.0, 64), (200.0, 128)],
        cage_gbps: GigabitsPerSecond::new(800.0),
        rack_units: 1,
        sharp: true,
        sharp_source: "NVIDIA Quantum-2 QM9700 datasheet (SHARPv3 in-network computing); DGX SuperPOD H100 RA-11333-001: full fat tree with SHARPv3",
        ports: Provenance { source: "docs.nvidia.com QM97X0 interfaces", estimate: false },
        power_w: Watts::new(1720.0),
        price_usd: Usd::new(33_000.0),
        cost: ESTIMATE,
    },
    Switch {
        key: "q3400",
        name: "NVIDIA Quantum-X800 Q3400 (XDR, 144×800G)",
        family: SwitchFamily::InfiniBand,
        os: SwitchOs::MlnxOs,
        port_modes: &[(800.0, 144), (400.0, 288)],
        cage_gbps: GigabitsPerSecond::new(1600.0),
        rack_units: 4,
        sharp: true,
        sharp_source: "NVIDIA Quantum-X800 platform announcement (SHARPv4 in-network computing)",
        ports: Provenance { source: "DGX SuperPOD B300-XDR RA, 72 down + 72 up per leaf (datasheet unverified)", estimate: true },
        power_w: Watts::new(5600.0),
        price_usd: Usd::new(120_000.0),
        cost: ESTIMATE,
    },
    Switch {
        key: "sn5600",
        name: "NVIDIA Spectrum-4 SN5600 (64×800G OSFP)",
        family: SwitchFamily::Ethernet,
        os: SwitchOs::CumulusLinux,
        port_modes: &[(800.0, 64), (400.0, 128), (200.0, 256), (100.0, 256)],
        cage_gbps: GigabitsPerSecond::new(800.0),
        rack_units: 2,
        sharp: false,
        sharp_source: "Ethernet switch: no in-network reduction for NCCL collectives (NCCL CollNet/SHARP needs InfiniBand SHARP)",
        ports: Provenance { source: "docs.nvidia.com SN5000 data interfaces", estimate: false },
        power_w: Watts::new(2000.0),
        price_usd: Usd::new(60_000.0),
        cost: ESTIMATE,
    },
    Switch {
        key: "sn5400",
        name: "NVIDIA Spectrum-4 SN5400 (64×400G)",
        family: SwitchFamily::Ethernet,
        os: SwitchOs::CumulusLinux,
        port_modes: &[(400.0, 64), (200.0, 128), (100.0, 128)],
        cage_gbps: GigabitsPerSecond::new(400.0),
        rack_units: 2,
        sharp: false,
        sharp_source: "Ethernet switch: no in-network reduction for NCCL collectives (NCCL CollNet/SHARP needs InfiniBand SHARP)",
        ports: Provenance { source: "docs.nvidia.com SN5000 data interfaces (SN5400, 25.6 Tb/s)", estimate: false },
        power_w: Watts::new(1200.0),
        price_usd: Usd::new(38_000.0),
        cost: ESTIMATE,
    },
    Switch {
        key: "tomahawk5",
        name: "Broadcom Tomahawk 5 switch (e.g. Arista 7060X6, 64×800G)",
        family: SwitchFamily::Ethernet,
        os: SwitchOs::Eos,
        port_modes: &[(800.0, 64), (400.0, 128), (200.0, 256), (100.0, 256)],
        cage_gbps: GigabitsPerSecond::new(800.0),
        rack_units: 2,
        sharp: false,
        sharp_source: "Ethernet switch: no in-network reduction for NCCL collectives (NCCL CollNet/SHARP needs InfiniBand SHARP)",
        ports: Provenance { source: "TechInsights Tomahawk 5 note", estimate: false },
        power_w: Watts::new(1800.0),
        price_usd: Usd::new(50_000.0),
        cost: ESTIMATE,
    },
    Switch {
        key: "tomahawk6",
        name: "Broadcom Tomahawk 6 switch (64×1.6T / 128×800G / 512×200G)",
        family: SwitchFamily::Ethernet,
        os: SwitchOs::Eos,
        port_modes: &[(1600.0, 64), (800.0, 128), (400.0, 256), (200.0, 512), (100.0, 512)],
        cage_gbps: GigabitsPerSecond::new(1600.0),
        rack_units: 3,
        sharp: false,
        sharp_source: "Ethernet switch: no in-network reduction for NCCL collectives (NCCL CollNet/SHARP needs InfiniBand SHARP)",
        ports: Provenance { source: "Broadcom Tomahawk 6 launch coverage, 2025-06", estimate: false },
        power_w: Watts::new(3000.0),
        price_usd: Usd::new(95_000.0),
        cost: ESTIMATE,
    },
    Switch {
        key: "sn4600c",
        name: "NVIDIA Spectrum-3 SN4600C (64×100G)",
        family: SwitchFamily::Ethernet,
        os: SwitchOs::CumulusLinux,
        // 25G through 2× breakout: the logical port count tops out at 128 (UNVERIFIED).
        port_modes: &[(100.0, 64), (25.0, 128)],
        cage_gbps: GigabitsPerSecond::new(100.0),
        rack_units: 2,
        sharp: false,
        sharp_source: "Ethernet switch: no in-network reduction for NCCL collectives (NCCL CollNet/SHARP needs InfiniBand SHARP)",
        ports: Provenance { source: "DGX SuperPOD H100 RA in-band network; 25G breakout unverified", estimate: true },
        power_w: Watts::new(650.0),
        price_usd: Usd::new(18_000.0),
        cost: ESTIMATE,
    },
];

pub fn switch(key: &str) -> Option<&'static Switch> {
    SWITCHES.iter().find(|s| s.key == key)
}
