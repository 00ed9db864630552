//! Fabric technologies: what each runs at, whether it has RDMA, and what it needs.

use borsh::{BorshDeserialize, BorshSerialize};
use serde::{Deserialize, Serialize};

/// The link technology of a fabric. The port speed of every endpoint on the fabric follows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(rename_all = "snake_case")]
pub enum Technology {
    /// InfiniBand NDR, 400 Gb/s per port (ConnectX-7) [stas00/ml-engineering].
    IbNdr,
    /// InfiniBand XDR, 800 Gb/s per port (ConnectX-8) [stas00/ml-engineering].
    IbXdr,
    /// RDMA over Converged Ethernet v2.
    Roce100,
    Roce200,
    Roce400,
    Roce800,
    /// Plain Ethernet with TCP: no RDMA.
    Tcp25,
    Tcp100,
}

/// How a technology moves data between hosts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(rename_all = "snake_case")]
pub enum Transport {
    InfiniBand,
    Roce,
    Tcp,
}

impl Technology {
    pub const ALL: [Technology; 8] = [
        Technology::IbNdr,
        Technology::IbXdr,
        Technology::Roce100,
        Technology::Roce200,
        Technology::Roce400,
        Technology::Roce800,
        Technology::Tcp25,
        Technology::Tcp100,
    ];

    /// Line rate of one port, in Gb/s.
    pub fn port_gbps(self) -> f64 {
        match self {
            Technology::Tcp25 => 25.0,
            Technology::Roce100 | Technology::Tcp100 => 100.0,
            Technology::Roce200 => 200.0,
            Technology::IbNdr | Technology::Roce400 => 400.0,
            Technology::IbXdr | Technology::Roce800 => 800.0,
        }
    }

    pub fn transport(self) -> Transport {
        match self {
            Technology::IbNdr | Technology::IbXdr => Transport::InfiniBand,
            Technology::Roce100
            | Technology::Roce200
            | Technology::Roce400
            | Technology::Roce800 => Transport::Roce,
            Technology::Tcp25 | Technology::Tcp100 => Transport::Tcp,
        }
    }

    /// RDMA lets GPUs read and write each other's memory without the CPU or kernel (seed C3).
    pub fn has_rdma(self) -> bool {
        self.transport() != Transport::Tcp
    }

    /// RoCE needs lossless Ethernet: PFC and ECN on every switch in the path (seed C5).
    pub fn needs_lossless_ethernet(self) -> bool {
        self.transport() == Transport::Roce
    }

    pub fn is_ethernet(self) -> bool {
        self.transport() != Transport::InfiniBand
    }

    pub fn label(self) -> &'static str {
        match self {
            Technology::IbNdr => "InfiniBand NDR 400G",
            Technology::IbXdr => "InfiniBand XDR 800G",
            Technology::Roce100 => "RoCE v2 100GbE",
            Technology::Roce200 => "RoCE v2 200GbE",
            Technology::Roce400 => "RoCE v2 400GbE",
            Technology::Roce800 => "RoCE v2 800GbE",
            Technology::Tcp25 => "Ethernet 25GbE (TCP)",
            Technology::Tcp100 => "Ethernet 100GbE (TCP)",
        }
    }

    /// The serialised name, as used in the spec and in form values.
    pub fn key(self) -> &'static str {
        match self {
            Technology::IbNdr => "ib_ndr",
            Technology::IbXdr => "ib_xdr",
            Technology::Roce100 => "roce100",
            Technology::Roce200 => "roce200",
            Technology::Roce400 => "roce400",
            Technology::Roce800 => "roce800",
            Technology::Tcp25 => "tcp25",
            Technology::Tcp100 => "tcp100",
        }
    }

    pub fn from_key(key: &str) -> Option<Technology> {
        Technology::ALL.into_iter().find(|t| t.key() == key)
    }

    /// The switch the catalog proposes when the spec names none.
    pub fn default_switch(self) -> &'static str {
        match self {
            Technology::IbNdr => "qm9700",
            Technology::IbXdr => "q3400",
            Technology::Roce100
            | Technology::Roce200
            | Technology::Roce400
            | Technology::Roce800 => "sn5600",
            Technology::Tcp25 | Technology::Tcp100 => "sn4600c",
        }
    }
}
