//! Links, ports and InfiniBand rates as the tools that build and inspect a fabric name them:
//! how the hand-off files write them and how the as-built check reads them back.

use crate::units::push_decimal;
use crate::units::GigabitsPerSecond;
use serde::{Deserialize, Serialize};

/// One link as a fabric reports it, seen from `device`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ObservedLink {
    pub device: String,
    pub port: String,
    pub peer_device: String,
    pub peer_port: String,
    /// Lanes (InfiniBand `4x`), when the tool says.
    pub width: Option<u32>,
    /// Rate of the link, Gb/s (lanes × lane rate), when the tool says.
    pub speed_gbps: Option<GigabitsPerSecond>,
    /// The rate as the tool printed it (`4xNDR`).
    pub rate: Option<String>,
    /// Line of the input it was read from, from 1.
    pub line: usize,
}

/// Gb/s per lane of an InfiniBand speed token as `ibnetdiscover` prints it (rdma-core
/// libibmad dump.c; NDR 100G and XDR 200G per lane, IBTA).
pub fn ib_lane_gbps(token: &str) -> Option<f64> {
    Some(match token {
        "SDR" => 2.5,
        "DDR" => 5.0,
        "QDR" | "FDR10" => 10.0,
        "FDR" => 14.0625,
        "EDR" => 25.0,
        "HDR" => 50.0,
        "NDR" => 100.0,
        "XDR" => 200.0,
        _ => return None,
    })
}

/// The speed token of a lane rate, for rates the engine plans.
pub fn ib_speed_token(lane_gbps: f64) -> &'static str {
    const TOKENS: [(f64, &str); 5] = [
        (200.0, "XDR"),
        (100.0, "NDR"),
        (50.0, "HDR"),
        (25.0, "EDR"),
        (10.0, "QDR"),
    ];
    TOKENS
        .iter()
        .find(|(rate, _)| lane_gbps >= *rate - 1e-6)
        .map_or("SDR", |(_, t)| t)
}

/// `4xNDR` as (width, Gb/s of the link).
pub fn ib_rate(token: &str) -> Option<(u32, f64)> {
    let x = token.bytes().position(|b| b == b'x')?;
    let (width, speed) = (&token[..x], &token[x + 1..]);
    let width: u32 = match width {
        "1" | "2" | "4" | "8" | "12" => width.parse().ok()?,
        _ => return None,
    };
    Some((width, f64::from(width) * ib_lane_gbps(speed)?))
}

/// A port name reduced so that the names tools give one switch port compare equal: `p5`,
/// `swp5`, `Ethernet5`, `eth5` and `5` are port 5; with `links_per_cage` links in a cage,
/// Cumulus `swpCsS` (S from 0) and EOS `EthernetC/L` (L the first of the split's lanes of an
/// 8-lane cage, so 1 and 5 for two links) are port (C-1)×links + S + 1.
/// Other names (host NICs) compare as written, ignoring case.
pub fn port_key(name: &str, links_per_cage: u32) -> String {
    let lower = name.trim().to_ascii_lowercase();
    let number = |s: &str| -> Option<u64> {
        if !s.is_empty() && s.len() < 10 && s.bytes().all(|b| b.is_ascii_digit()) {
            s.parse().ok()
        } else {
            None
        }
    };
    let links = u64::from(links_per_cage.max(1));
    if let Some(rest) = lower.strip_prefix("swp") {
        if let Some((cage, sub)) = rest.split_once('s') {
            if let (Some(c), Some(s)) = (number(cage), number(sub)) {
                if c >= 1 && s < links {
                    return format!("p{}", (c - 1) * links + s + 1);
                }
            }
        }
    }
    if let Some(rest) = lower.strip_prefix("ethernet") {
        if let Some((cage, lane)) = rest.split_once('/') {
            if let (Some(c), Some(l)) = (number(cage), number(lane)) {
                let step = (8 / links).max(1);
                if c >= 1 && l >= 1 && (l - 1) % step == 0 && (l - 1) / step < links {
                    return format!("p{}", (c - 1) * links + (l - 1) / step + 1);
                }
            }
        }
    }
    for prefix in ["ethernet", "swp", "eth", "port", "p", ""] {
        if let Some(n) = lower.strip_prefix(prefix).and_then(number) {
            return format!("p{n}");
        }
    }
    lower
}

/// Cumulus name of switch port `pN` [NVIDIA Cumulus Linux: breakout ports are `swpCsS`].
pub fn cumulus_port(n: u32, links_per_cage: u32) -> String {
    let mut out = String::with_capacity(8);
    push_cumulus_port(&mut out, n, links_per_cage);
    out
}

/// [`cumulus_port`], appended to `out`.
pub(crate) fn push_cumulus_port(out: &mut String, n: u32, links_per_cage: u32) {
    let links = links_per_cage.max(1);
    out.push_str("swp");
    if links == 1 {
        push_decimal(out, u64::from(n), 0);
    } else {
        let i = n.saturating_sub(1);
        push_decimal(out, u64::from(i / links + 1), 0);
        out.push('s');
        push_decimal(out, u64::from(i % links), 0);
    }
}

/// EOS name of switch port `pN`: a split 8-lane cage names each link by its first lane
/// (`Ethernet1/1`, `Ethernet1/5` for two links) [Arista EOS interface naming].
pub fn eos_port(n: u32, links_per_cage: u32) -> String {
    let mut out = String::with_capacity(14);
    push_eos_port(&mut out, n, links_per_cage);
    out
}

/// [`eos_port`], appended to `out`.
pub(crate) fn push_eos_port(out: &mut String, n: u32, links_per_cage: u32) {
    let links = links_per_cage.max(1);
    out.push_str("Ethernet");
    if links == 1 {
        push_decimal(out, u64::from(n), 0);
    } else {
        let i = n.saturating_sub(1);
        let step = (8 / links).max(1);
        push_decimal(out, u64::from(i / links + 1), 0);
        out.push('/');
        push_decimal(out, u64::from((i % links) * step + 1), 0);
    }
}
