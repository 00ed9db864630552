//! `ibnetdiscover` output (rdma-core infiniband-diags ibnetdiscover.c; man ibnetdiscover(8)):
//! node blocks of id lines (`vendid=`, `switchguid=`, ...), a header
//! (`Switch|Ca|Rt <ports> "<S-|H-|R-guid>" # "<description>" ...`) and one line per connected
//! port (`[N](guid) "<peer id>"[M](guid) # ... "<peer description>" ... lid L 4xNDR`).
//!
//! A switch is named by its node description; a channel adapter's description reads
//! `<host> <adapter>` (`node-001 mlx5_0`), so its port is the adapter. Every link is printed from
//! both ends and read once.

use super::{error, ib_rate, FastMap, FastSet, ObservedLink, ParseError, LIMITS, MAX_LINKS};
use crate::pasted::{lines, text};
use crate::units::{push_decimal, GigabitsPerSecond};

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Switch,
    Ca,
    Router,
}

/// A node header, borrowing its description from the input.
struct Node<'t> {
    kind: Kind,
    description: &'t str,
    /// Ports, as its header gives them.
    ports: u32,
}

/// A port line, borrowing from the input: nodes by index, peers by id until all are listed.
struct Port<'t> {
    line: usize,
    node: usize,
    port: u32,
    peer: &'t str,
    peer_port: u32,
    /// The rate as printed, with its width and Gb/s.
    rate: Option<(&'t str, (u32, f64))>,
}

/// Where `b` first occurs in `s`. The lines are short: a plain loop over the bytes costs less
/// than a general search.
fn find(s: &str, b: u8) -> Option<usize> {
    s.bytes().position(|x| x == b)
}

/// `s` without leading blanks. Fields are separated by spaces and tabs, so the other Unicode
/// blanks are looked for only when something other than a visible ASCII character follows.
fn trim_start(s: &str) -> &str {
    let s = s.trim_start_matches([' ', '\t']);
    match s.as_bytes().first() {
        Some(b) if b.is_ascii_graphic() => s,
        _ => s.trim_start(),
    }
}

/// A quoted string at the start of `s` (after blanks): its content and the rest.
fn quoted(s: &str) -> Option<(&str, &str)> {
    let s = trim_start(s).strip_prefix('"')?;
    let end = find(s, b'"')?;
    Some((&s[..end], &s[end + 1..]))
}

/// `[N]` at the start of `s`, then an optional `(guid)`: the number and the rest.
fn bracket(s: &str) -> Option<(u32, &str)> {
    let s = s.strip_prefix('[')?;
    let end = find(s, b']')?;
    let n = s[..end].parse().ok()?;
    let mut rest = &s[end + 1..];
    if let Some(r) = rest.strip_prefix('(') {
        let close = find(r, b')')?;
        if !r[..close].bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        rest = &r[close + 1..];
    }
    Some((n, rest))
}

fn node_id(id: &str) -> bool {
    let hex = id
        .strip_prefix("S-")
        .or_else(|| id.strip_prefix("H-"))
        .or_else(|| id.strip_prefix("R-"));
    hex.is_some_and(|h| h.len() == 16 && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn header(kind: Kind, rest: &str, line: usize) -> Result<(&str, Node<'_>), ParseError> {
    let rest = rest.trim_start();
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let ports: u32 = rest[..digits].parse().map_err(|_| {
        error(
            line,
            "a node header gives its number of ports after its type",
        )
    })?;
    if ports == 0 || ports > 4096 {
        return Err(error(
            line,
            format!("{ports} ports is not a switch or adapter"),
        ));
    }
    let (id, rest) = quoted(&rest[digits..])
        .filter(|(id, _)| node_id(id))
        .ok_or_else(|| {
            error(
                line,
                "a node header names the node as \"S-\", \"H-\" or \"R-\" and 16 hex digits (truncated?)",
            )
        })?;
    let description = find(rest, b'#')
        .and_then(|at| quoted(&rest[at + 1..]))
        .map(|(d, _)| d)
        .ok_or_else(|| {
            error(
                line,
                "a node header ends with # \"<node description>\" (truncated?)",
            )
        })?;
    Ok((
        id,
        Node {
            kind,
            description,
            ports,
        },
    ))
}

fn port_line(node: usize, s: &str, line: usize) -> Result<Port<'_>, ParseError> {
    let (port, rest) =
        bracket(s).ok_or_else(|| error(line, "a port line starts with [port] (truncated?)"))?;
    let (peer, rest) = quoted(rest).filter(|(id, _)| node_id(id)).ok_or_else(|| {
        error(
            line,
            "a port line names the peer node as \"S-…\", \"H-…\" or \"R-…\" (truncated?)",
        )
    })?;
    let (peer_port, rest) = bracket(trim_start(rest)).ok_or_else(|| {
        error(
            line,
            "a port line gives the peer's [port] after its node (truncated?)",
        )
    })?;
    let comment = find(rest, b'#').map(|at| &rest[at + 1..]).ok_or_else(|| {
        error(
            line,
            "a port line ends with a # comment of descriptions, lid and rate (truncated?)",
        )
    })?;
    let comment = comment.trim_end();
    let last = match comment.bytes().rposition(|b| b == b' ' || b == b'\t') {
        Some(at) => &comment[at + 1..],
        None => comment,
    };
    // `???` is what older builds print for a speed they do not know (XDR).
    let rate = match ib_rate(last) {
        Some(rated) => Some((last, rated)),
        None if last.contains("x???") || last == "???" => None,
        None => {
            return Err(error(
                line,
                format!("a port line ends with the link's width and speed (4xNDR), not {last:?} (truncated?)"),
            ))
        }
    };
    Ok(Port {
        line,
        node,
        port,
        peer,
        peer_port,
        rate,
    })
}

/// (device, port) of port `n` of a node.
fn end(node: &Node, n: u32) -> (String, String) {
    let numbered = |prefix: &str, separator: &str| {
        let mut port = String::with_capacity(prefix.len() + separator.len() + 5);
        port.push_str(prefix);
        port.push_str(separator);
        push_decimal(&mut port, u64::from(n), 0);
        port
    };
    match node.kind {
        Kind::Switch => (node.description.to_string(), numbered("", "p")),
        Kind::Ca | Kind::Router => match node.description.rsplit_once(' ') {
            Some((host, hca)) if n == 1 => (host.to_string(), hca.to_string()),
            Some((host, hca)) => (host.to_string(), numbered(hca, "/")),
            None => (node.description.to_string(), numbered("", "p")),
        },
    }
}

/// The ports of the nodes that have been seen: a bit for each port (from 0) that a header
/// gives, rather than a set of every port, since a dump lists a hundred thousand; ports beyond
/// the header's count, which a well-formed dump does not have, are kept in a set.
struct Seen {
    first: Vec<usize>,
    ports: Vec<u32>,
    bits: Vec<u64>,
    beyond: FastSet<(usize, u32)>,
}

impl Seen {
    fn new(nodes: &[Node]) -> Self {
        let mut first = Vec::with_capacity(nodes.len());
        let mut bits = 0;
        for n in nodes {
            first.push(bits);
            bits += n.ports as usize + 1;
        }
        Seen {
            first,
            ports: nodes.iter().map(|n| n.ports).collect(),
            bits: vec![0; bits.div_ceil(64)],
            beyond: FastSet::default(),
        }
    }

    /// The word and bit of port `port` of node `node`, if the node's header counts it.
    fn bit(&self, node: usize, port: u32) -> Option<(usize, u64)> {
        (port <= self.ports[node]).then(|| {
            let bit = self.first[node] + port as usize;
            (bit / 64, 1 << (bit % 64))
        })
    }

    fn insert(&mut self, node: usize, port: u32) {
        match self.bit(node, port) {
            Some((word, mask)) => self.bits[word] |= mask,
            None => {
                self.beyond.insert((node, port));
            }
        }
    }

    fn contains(&self, node: usize, port: u32) -> bool {
        match self.bit(node, port) {
            Some((word, mask)) => self.bits[word] & mask != 0,
            None => self.beyond.contains(&(node, port)),
        }
    }
}

/// The links of an `ibnetdiscover` dump, each once.
pub fn parse(input: &[u8]) -> Result<Vec<ObservedLink>, ParseError> {
    let text = text(input, "ibnetdiscover output", LIMITS)?;
    let mut ids: FastMap<&str, usize> = FastMap::default();
    let mut nodes: Vec<Node> = Vec::new();
    let mut ports: Vec<Port> = Vec::new();
    let mut current: Option<usize> = None;
    for (index, raw) in lines(text).enumerate() {
        let line = index + 1;
        let trimmed = raw.trim_end();
        // A line of blanks is empty once its end is trimmed.
        if trimmed.is_empty() || trimmed.starts_with('#') {
            if trimmed.is_empty() {
                current = None;
            }
            continue;
        }
        if trimmed.starts_with('[') {
            let Some(node) = current else {
                return Err(error(
                    line,
                    "a port line outside a node block (truncated or reordered?)",
                ));
            };
            if ports.len() >= 2 * MAX_LINKS {
                return Err(error(line, format!("more than {MAX_LINKS} links")));
            }
            ports.push(port_line(node, trimmed, line)?);
            continue;
        }
        const ID_LINES: [&str; 6] = [
            "vendid=",
            "devid=",
            "sysimgguid=",
            "switchguid=",
            "caguid=",
            "rtguid=",
        ];
        if ID_LINES.iter().any(|p| trimmed.starts_with(p)) {
            continue;
        }
        let kind = [
            ("Switch", Kind::Switch),
            ("Ca", Kind::Ca),
            ("Rt", Kind::Router),
        ]
        .into_iter()
        .find_map(|(word, kind)| {
            trimmed
                .strip_prefix(word)
                .filter(|r| r.starts_with([' ', '\t']))
                .map(|r| (kind, r))
        });
        if let Some((kind, rest)) = kind {
            let (id, node) = header(kind, rest, line)?;
            if ids.insert(id, nodes.len()).is_some() {
                return Err(error(line, format!("node {id} is listed twice")));
            }
            current = Some(nodes.len());
            nodes.push(node);
            continue;
        }
        return Err(error(
            line,
            format!(
                "is not ibnetdiscover output (expected a node header, a [port] line or an id line): {:?}",
                trimmed.chars().take(60).collect::<String>()
            ),
        ));
    }
    if nodes.is_empty() {
        return Err(error(
            0,
            "no node headers (Switch, Ca, Rt): is this the output of ibnetdiscover?",
        ));
    }
    // Each link is printed from both ends: keep it where it is first seen.
    let mut seen = Seen::new(&nodes);
    let mut links = Vec::with_capacity(ports.len() / 2 + 1);
    for p in &ports {
        let Some(&peer) = ids.get(p.peer) else {
            return Err(error(
                p.line,
                format!(
                    "names node {} which the output never lists (truncated?)",
                    p.peer
                ),
            ));
        };
        seen.insert(p.node, p.port);
        if (peer, p.peer_port) != (p.node, p.port) && seen.contains(peer, p.peer_port) {
            continue;
        }
        let (device, port) = end(&nodes[p.node], p.port);
        let (peer_device, peer_port) = end(&nodes[peer], p.peer_port);
        links.push(ObservedLink {
            device,
            port,
            peer_device,
            peer_port,
            width: p.rate.map(|r| r.1 .0),
            speed_gbps: p.rate.map(|r| GigabitsPerSecond::new(r.1 .1)),
            rate: p.rate.map(|r| r.0.to_string()),
            line: p.line,
        });
    }
    Ok(links)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A port beyond the count its header gives (which ibnetdiscover does not print) is still
    /// read, and its link still read once.
    #[test]
    fn a_port_beyond_the_headers_count_is_read_once() {
        let dump = "Switch\t2 \"S-0000000000000001\"\t\t# \"leaf\" enhanced port 0 lid 1 lmc 0\n\
                    [1]\t\"H-0000000000000002\"[1](3) \t\t# \"host mlx5_0\" lid 2 4xNDR\n\
                    [70]\t\"H-0000000000000004\"[1](5) \t\t# \"host mlx5_1\" lid 3 4xHDR\n\
                    \n\
                    Ca\t1 \"H-0000000000000002\"\t\t# \"host mlx5_0\"\n\
                    [1](3) \t\"S-0000000000000001\"[1]\t\t# lid 2 lmc 0 \"leaf\" lid 1 4xNDR\n\
                    \n\
                    Ca\t1 \"H-0000000000000004\"\t\t# \"host mlx5_1\"\n\
                    [1](5) \t\"S-0000000000000001\"[70]\t\t# lid 3 lmc 0 \"leaf\" lid 1 4xHDR\n";
        let links = parse(dump.as_bytes()).unwrap();
        let ends: Vec<(&str, &str, &str, &str)> = links
            .iter()
            .map(|l| (&*l.device, &*l.port, &*l.peer_device, &*l.peer_port))
            .collect();
        assert_eq!(
            ends,
            [
                ("leaf", "p1", "host", "mlx5_0"),
                ("leaf", "p70", "host", "mlx5_1")
            ]
        );
    }
}
