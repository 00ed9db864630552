//! The as-built check: what a built fabric reports about itself (`ibnetdiscover` on InfiniBand,
//! LLDP neighbour tables on Ethernet), read into one list of observed links and compared with
//! the cabling plan, cable by cable.
//!
//! The parsers are strict and kind in the way the nccl-tests one is: they take what an operator
//! pastes, and refuse truncated, foreign, binary or oversized input with the line at fault.

pub mod ibnetdiscover;
pub mod lldp;
mod matcher;
mod result;

pub use matcher::{check, check_fabrics};
pub use result::{AsBuiltCheck, CableCheck, Miscabled, Status, Summary, MAX_LISTED};

use crate::units::push_decimal;
use serde::{Deserialize, Serialize};

/// Larger input is refused: `ibnetdiscover` of a 2,048-node, 8-rail fabric is about 6 MB.
pub const MAX_INPUT_BYTES: usize = 64 << 20;
/// No line of these tools' output is near this long.
pub const MAX_LINE_CHARS: usize = 4_000;
/// More links than the largest fabric the engine sizes.
pub const MAX_LINKS: usize = 1 << 20;

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
    pub speed_gbps: Option<f64>,
    /// The rate as the tool printed it (`4xNDR`).
    pub rate: Option<String>,
    /// Line of the input it was read from, from 1.
    pub line: usize,
}

/// `links` with the hosts' ports named as the cabling sheet names them: a port the host names
/// by its adapter (`mlx5_3`, `ibp64s0`, `enp64s0np0`, as the node type's `adapters` list them)
/// becomes the sheet's port of its rail on `fabric` (`compute-nic2`). Other ports are left as
/// they are.
pub fn on_sheet(links: &mut [ObservedLink], fabric: &str, adapters: &[crate::catalog::Adapter]) {
    if adapters.is_empty() {
        return;
    }
    let named = |port: &mut String| {
        if let Some(rail) = crate::catalog::rail_of(adapters, port) {
            *port = format!("{fabric}-nic{rail}");
        }
    };
    for link in links {
        named(&mut link.port);
        named(&mut link.peer_port);
    }
}

pub use crate::error::ParseError;

pub(crate) use crate::error::parse_error as error;

/// The input as text, or why not: too large, not UTF-8 (naming the line), NUL bytes.
pub(crate) fn text<'a>(input: &'a [u8], what: &str) -> Result<&'a str, ParseError> {
    if input.len() > MAX_INPUT_BYTES {
        return Err(error(
            0,
            format!(
                "the input is {} bytes; at most {MAX_INPUT_BYTES} bytes of {what} are read",
                input.len()
            ),
        ));
    }
    let text = std::str::from_utf8(input).map_err(|e| {
        let line = input[..e.valid_up_to()]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1;
        error(line, "is not text (binary data or an unknown encoding)")
    })?;
    // NUL bytes and overlong lines, with their line numbers, whichever comes first. This reads
    // megabytes of fabric dumps, so neither is looked for line by line: the NUL by the standard
    // library's word-at-a-time search, long lines by jumping from each line to the last line
    // break within the next MAX_LINE_CHARS + 1 bytes. Only where there is none can a line be
    // too long, and only that line is measured.
    let nul = text.find('\0');
    let line_of = |at: usize| input[..at].iter().filter(|b| **b == b'\n').count() + 1;
    let mut start = 0;
    while start + MAX_LINE_CHARS < input.len() && nul.is_none_or(|at| start <= at) {
        let window = &input[start..=start + MAX_LINE_CHARS];
        if let Some(last) = window.iter().rposition(|b| *b == b'\n') {
            start += last + 1;
            continue;
        }
        let end = text[start..].find('\n').map_or(text.len(), |e| start + e);
        if nul.is_some_and(|at| at < end) {
            break;
        }
        long_line(&text[start..end], line_of(start), what)?;
        start = end + 1;
    }
    if let Some(at) = nul {
        return Err(error(line_of(at), "is not text (it holds NUL bytes)"));
    }
    Ok(text)
}

/// The lines of `text` as `str::lines` gives them (without `\n` or `\r\n`), each line break
/// found eight bytes at a time: a dump has a hundred thousand lines of a few dozen bytes, too
/// short for the standard library's general search to pay off.
pub(crate) fn lines(text: &str) -> impl Iterator<Item = &str> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let bytes = text.as_bytes();
    let line_end = move |from: usize| -> usize {
        let mut at = from;
        while let Some(chunk) = bytes.get(at..at + 8) {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            // A `\n` becomes a zero byte, whose high bit the subtraction sets; bytes after
            // the first zero may be set too, never bytes before it.
            let word = u64::from_le_bytes(word) ^ (ONES * u64::from(b'\n'));
            let zero = word.wrapping_sub(ONES) & !word & HIGHS;
            if zero != 0 {
                return at + (zero.trailing_zeros() / 8) as usize;
            }
            at += 8;
        }
        bytes[at..]
            .iter()
            .position(|b| *b == b'\n')
            .map_or(bytes.len(), |i| at + i)
    };
    let mut next = 0;
    std::iter::from_fn(move || {
        if next >= text.len() {
            return None;
        }
        let start = next;
        let end = line_end(start);
        next = end + 1;
        let line = &text[start..end];
        // As `str::lines`: a `\r` is part of the line break only before a `\n`.
        Some(if end < text.len() {
            line.strip_suffix('\r').unwrap_or(line)
        } else {
            line
        })
    })
}

fn long_line(raw: &str, line: usize, what: &str) -> Result<(), ParseError> {
    if raw.len() > MAX_LINE_CHARS && raw.chars().count() > MAX_LINE_CHARS {
        return Err(error(
            line,
            format!("is longer than {MAX_LINE_CHARS} characters: not {what}"),
        ));
    }
    Ok(())
}

/// The maps of the as-built check and the hand-off files hash with foldhash rather than SipHash,
/// which costs more than the matching itself; seeded at random per map, so that a dump crafted
/// to collide cannot slow the check down.
pub(crate) type FastMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
pub(crate) type FastSet<K> = std::collections::HashSet<K, foldhash::fast::RandomState>;

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
    let links = links_per_cage.max(1);
    if links == 1 {
        format!("Ethernet{n}")
    } else {
        let i = n.saturating_sub(1);
        let step = (8 / links).max(1);
        format!("Ethernet{}/{}", i / links + 1, (i % links) * step + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_those_of_str_lines() {
        let mut texts: Vec<String> = [
            "",
            "\n",
            "\n\n",
            "a",
            "a\n",
            "a\r\n",
            "a\r",
            "\r",
            "\r\n\r\n",
            "a\rb\n",
            "é\nü\r\nñ",
            "12345678\n",
            "1234567\n",
            "123456789\n",
            "1234567\r\n",
            "12345678",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // Every placement of line breaks among eight-byte words.
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..2_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x % 40) as usize;
            let text: String = (0..len)
                .map(|i| match (x >> (i % 60)) % 7 {
                    0 => '\n',
                    1 => '\r',
                    2 => 'é',
                    _ => 'x',
                })
                .collect();
            texts.push(text);
        }
        for text in &texts {
            assert_eq!(
                lines(text).collect::<Vec<_>>(),
                text.lines().collect::<Vec<_>>(),
                "{text:?}"
            );
        }
    }
}
