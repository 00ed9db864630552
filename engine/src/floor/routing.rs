//! The length of a cable from its two ends, and the length to order.
//!
//! Route (after SADDLE `route_cables`, Cluster Design Tools, arXiv:1408.1127):
//! - same rack: |h₁ − h₂|, the heights of the two ports;
//! - different racks: up from each port to the top of its rack, along the overhead tray
//!   (tray height above the racks, both ways), across the racks of a row (|x₁ − x₂|) and
//!   across rows (|y₁ − y₂|): (H − h₁) + (H − h₂) + 2·tray + |x₁ − x₂| + |y₁ − y₂|;
//! - then slack on top, and up to the next orderable length.

use super::placement::Placed;
use crate::cabling::End;
use crate::spec::Floor;

/// Height of one rack unit, metres (EIA-310: 1.75 in).
pub const RACK_UNIT_M: f64 = 0.04445;

/// Lengths cables and fibre patch cords are sold in, metres (NVIDIA LinkX part numbers, stock
/// patch-cord lengths); beyond the last nothing is ordered.
pub const ORDERABLE_M: [f64; 22] = [
    0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 7.0, 10.0, 15.0, 20.0, 30.0, 50.0, 70.0, 100.0, 150.0,
    200.0, 300.0, 500.0, 1000.0, 2000.0,
];

pub const ROUTE_FORMULA: &str = "same rack: |h₁ − h₂|; else (H − h₁) + (H − h₂) + 2 × tray height + |x₁ − x₂| + |y₁ − y₂|; × (1 + slack), rounded up to an orderable length";
pub const ROUTE_SOURCE: &str =
    "the cable routing of SADDLE, Cluster Design Tools (arXiv:1408.1127); rack unit 44.45 mm (EIA-310)";

/// Where a port is: rack, metres along the row, metres across the rows, metres above the floor.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Spot {
    pub rack: u32,
    pub x: f64,
    pub y: f64,
    pub h: f64,
}

/// Turns placed devices into spots and spots into lengths.
pub(crate) struct Router {
    /// Where each node's and each switch's ports are (per fabric, per role), worked out once.
    nodes: Vec<Spot>,
    switches: Vec<[Vec<Spot>; 3]>,
    /// Each rack's place on the floor, m: along its row and across the rows.
    xy: Vec<(f64, f64)>,
    pub rack_height_m: f64,
    pub width: f64,
    pub tray: f64,
    pub slack: f64,
}

impl Router {
    pub fn new(placed: &Placed, floor: &Floor) -> Self {
        let width = floor.rack_width_m.metres().max(0.0);
        let pitch = floor.row_pitch_m.metres().max(0.0);
        let mut router = Router {
            nodes: Vec::new(),
            switches: Vec::new(),
            xy: placed
                .racks
                .iter()
                .map(|r| (f64::from(r.position) * width, f64::from(r.row) * pitch))
                .collect(),
            rack_height_m: f64::from(floor.rack_units) * RACK_UNIT_M,
            width,
            tray: floor.tray_height_m.metres().max(0.0),
            slack: 1.0 + floor.slack_percent.max(0.0) / 100.0,
        };
        let nodes = placed
            .compute_racks
            .len()
            .saturating_mul(placed.nodes_per_rack as usize);
        router.nodes = (0..nodes as u32)
            .map(|n| {
                let (rack, u, h) = placed.node(n);
                router.spot(rack, u, h)
            })
            .collect();
        router.switches = placed
            .switches
            .iter()
            .map(|roles| {
                roles
                    .clone()
                    .map(|at| at.iter().map(|(r, u, h)| router.spot(*r, *u, *h)).collect())
            })
            .collect();
        router
    }

    /// Where end `end` of fabric `fabric` is; `other` is the far end (an unplaced endpoint
    /// stands beside its leaf).
    pub fn end(&self, fabric: usize, end: End, other: Option<Spot>) -> Spot {
        const ORIGIN: Spot = Spot {
            rack: 0,
            x: 0.0,
            y: 0.0,
            h: 0.0,
        };
        match end {
            End::Node { node, .. } => self.nodes.get(node as usize).copied().unwrap_or(ORIGIN),
            End::Switch { role, index, .. } => self
                .switches
                .get(fabric)
                .and_then(|s| s[role as usize].get(index as usize))
                .copied()
                .unwrap_or(ORIGIN),
            End::Endpoint(_) => self.beside(other.unwrap_or(ORIGIN)),
        }
    }

    /// How many racks stand on the floor.
    pub fn racks(&self) -> usize {
        self.xy.len()
    }

    /// Where each node's ports are, by node number.
    pub fn node_spots(&self) -> &[Spot] {
        &self.nodes
    }

    /// Where each leaf's, spine's and core's ports are in fabric `fabric`.
    pub fn switch_spots(&self, fabric: usize) -> [&[Spot]; 3] {
        match self.switches.get(fabric) {
            Some([leaves, spines, cores]) => [leaves, spines, cores],
            None => [&[]; 3],
        }
    }

    /// The port of a device at `u` of `height` units in `rack`: its middle.
    pub fn spot(&self, rack: u32, u: u32, height: u32) -> Spot {
        let (x, y) = self.xy.get(rack as usize).copied().unwrap_or((0.0, 0.0));
        Spot {
            rack,
            x,
            y,
            h: (f64::from(u.max(1) - 1) + f64::from(height) / 2.0) * RACK_UNIT_M,
        }
    }

    /// The spot of a device beside `spot`'s rack (an endpoint the floor does not place:
    /// UFM, a storage server), half way up.
    pub fn beside(&self, spot: Spot) -> Spot {
        Spot {
            rack: u32::MAX,
            x: spot.x + self.width,
            y: spot.y,
            h: self.rack_height_m / 2.0,
        }
    }

    /// The routed length between two ports with slack, metres. Inlined into the walk over the
    /// cables even where the code is built for size (the browser's).
    #[inline(always)]
    pub fn route(&self, a: Spot, b: Spot) -> f64 {
        let raw = if a.rack == b.rack {
            (a.h - b.h).abs()
        } else {
            not_below_zero(self.rack_height_m - a.h)
                + not_below_zero(self.rack_height_m - b.h)
                + 2.0 * self.tray
                + (a.x - b.x).abs()
                + (a.y - b.y).abs()
        };
        raw * self.slack
    }
}

/// `metres`, or 0 when it is below 0 (or not a number), as `metres.max(0.0)` gives: by a
/// comparison, since WebAssembly's own maximum keeps a NaN and Rust's is a call to `fmax`
/// there, twice for every cable routed.
#[inline(always)]
pub(crate) fn not_below_zero(metres: f64) -> f64 {
    if metres > 0.0 {
        metres
    } else {
        0.0
    }
}

/// Index into [`ORDERABLE_M`] of the shortest length at least `metres`; `None` beyond them all.
pub fn orderable(metres: f64) -> Option<usize> {
    let i = ORDERABLE_M.partition_point(|l| *l < metres - 1e-9);
    (i < ORDERABLE_M.len()).then_some(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_route_rounds_up_to_the_next_orderable_length() {
        assert_eq!(orderable(2.0).map(|i| ORDERABLE_M[i]), Some(2.0));
        assert_eq!(orderable(2.01).map(|i| ORDERABLE_M[i]), Some(2.5));
        assert_eq!(orderable(5.2).map(|i| ORDERABLE_M[i]), Some(7.0));
        assert_eq!(orderable(2000.5), None);
    }
}
