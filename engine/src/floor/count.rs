//! One pass over a fabric's cables for the evaluation: how many run at each orderable length in
//! each tier, the dearest optical class in every cage, and the longest routes. The cabling
//! sheet walks the same cables one named row at a time; this pass names nothing and looks the
//! medium up once per orderable length instead of once per cable, since it runs on every
//! evaluation of the floor.

use super::media::{Long, MediumTable, LONGEST_KEPT};
use super::routing::{Router, Spot, ORDERABLE_M};
use crate::cabling::{links, End, Link, Visit};
use crate::catalog::ReachClass;
use crate::report::FabricReport;

/// Orderable lengths, and one more column for routes beyond them all.
pub(crate) const BINS: usize = ORDERABLE_M.len() + 1;

/// Cages of one fabric: how many links one plug carries and how many cages each device has.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cages {
    /// Links per switch cage and per node cage, both powers of two.
    pub per_switch: u32,
    pub per_node: u32,
    pub per_switch_device: usize,
    pub per_node_device: usize,
}

/// What the walk of one fabric's cables finds.
pub(crate) struct Walked {
    /// Cables per tier (0 node-leaf, 1 leaf-spine, 2 spine-core), by whether they reach a
    /// node, by orderable length; the last column holds routes beyond every length.
    pub by_length: [[[u32; BINS]; 2]; 3],
    /// Per cage of each leaf, spine and core: 1 + the index of the dearest optical class it
    /// holds, 0 when it holds none.
    pub switch_cages: [Vec<u8>; 3],
    /// The same per node cage.
    pub host: Vec<u8>,
    /// Optical links to endpoints the floor does not place, by class.
    pub endpoint: [u32; 5],
}

/// Where the ends of one fabric's cables are, worked out by the router.
struct Ends<'a> {
    router: &'a Router,
    nodes: &'a [Spot],
    switches: [&'a [Spot]; 3],
}

const ORIGIN: Spot = Spot {
    rack: 0,
    x: 0.0,
    y: 0.0,
    h: 0.0,
};

impl Ends<'_> {
    /// As [`Router::end`], with the fabric's spots looked up once.
    #[inline(always)]
    fn locate(&self, end: End, other: Spot) -> Spot {
        // Matched on the slice rather than through `Option<Spot>`: fewer instructions on
        // every cable.
        let spots = match end {
            End::Node { node, .. } => self.nodes.get(node as usize..),
            End::Switch { role, index, .. } => self.switches[role as usize].get(index as usize..),
            End::Endpoint(_) => return self.router.beside(other),
        };
        match spots {
            Some([spot, ..]) => *spot,
            _ => ORIGIN,
        }
    }
}

/// The cage code (1 + class index) of every orderable length, to a node and between switches;
/// 0 for copper and for routes nothing reaches.
fn cage_codes(table: &MediumTable) -> [[u8; BINS]; 2] {
    let mut codes = [[0u8; BINS]; 2];
    for (to_node, row) in codes.iter_mut().enumerate() {
        for (bin, code) in row.iter_mut().enumerate().take(ORDERABLE_M.len()) {
            if let Some(class) = table.class(bin, to_node == 1) {
                if class.is_optical() {
                    *code = class as u8 + 1;
                }
            }
        }
    }
    codes
}

/// Keeps `cable` among the longest routes, one per pair of racks, longest first; among equal
/// routes the first walked stays first.
fn keep_longest(longest: &mut Vec<Long>, cable: Long) {
    let same = longest
        .iter()
        .position(|l| l.a.rack == cable.a.rack && l.z.rack == cable.z.rack);
    match same {
        Some(i) if longest[i].route_m < cable.route_m => {
            longest.remove(i);
        }
        Some(_) => return,
        None => {}
    }
    let at = longest.partition_point(|l| l.route_m >= cable.route_m);
    longest.insert(at, cable);
    longest.truncate(LONGEST_KEPT);
}

/// The walk's running state for one fabric.
struct Counter<'a> {
    fi: usize,
    router: &'a Router,
    table: &'a MediumTable,
    ends: Ends<'a>,
    codes: [[u8; BINS]; 2],
    per_switch: usize,
    per_node: usize,
    cage_shift: u32,
    host_shift: u32,
    longest: &'a mut Vec<Long>,
    /// Whether the longest routes kept have room for one more, and the shortest of them: a
    /// cable joins them only when there is room or it runs longer.
    room: bool,
    shortest_kept_m: f64,
    out: Walked,
}

impl Visit for Counter<'_> {
    /// Routes and counts one cable. Inlined into each loop of the walk, where the kinds of
    /// both ends are known.
    #[inline(always)]
    fn link(&mut self, link: Link) {
        let to_node = usize::from(!matches!(link.a, End::Switch { .. }));
        let z = self.ends.locate(link.z, ORIGIN);
        let a = self.ends.locate(link.a, z);
        let route_m = self.router.route(a, z);
        let bin = self.table.bin(route_m);
        if self.room || self.shortest_kept_m < route_m {
            self.keep(link, a, z, route_m, bin);
        }
        self.count(link, bin, to_node);
    }
}

impl Counter<'_> {
    /// Keeps the longest route between each pair of racks, so the plan shows distinct routes.
    #[inline(never)]
    fn keep(&mut self, link: Link, a: Spot, z: Spot, route_m: f64, bin: usize) {
        keep_longest(
            self.longest,
            Long {
                fabric: self.fi,
                tier: link.tier,
                a,
                z,
                route_m,
                bin: (bin < ORDERABLE_M.len()).then_some(bin),
            },
        );
        self.note_shortest_kept();
    }

    /// Notes whether the longest routes have room and the shortest of them.
    fn note_shortest_kept(&mut self) {
        self.room = self.longest.len() < LONGEST_KEPT;
        self.shortest_kept_m = self.longest.last().map_or(f64::NEG_INFINITY, |l| l.route_m);
    }

    /// Counts one cable of orderable length index `bin`.
    #[inline(always)]
    fn count(&mut self, link: Link, bin: usize, to_node: usize) {
        self.out.by_length[link.level.min(2)][to_node][bin] += 1;
        let code = self.codes[to_node][bin];
        if code > 0 {
            self.mark(link.a, code);
            self.mark(link.z, code);
        }
    }

    /// Notes that a cable of cage code `code` ends at `end`.
    #[inline(always)]
    fn mark(&mut self, end: End, code: u8) {
        let cage = match end {
            End::Switch { role, index, port } => self.out.switch_cages[role as usize]
                .get_mut(index as usize * self.per_switch + (port >> self.cage_shift) as usize),
            End::Node { node, nic } => self
                .out
                .host
                .get_mut(node as usize * self.per_node + (nic >> self.host_shift) as usize),
            End::Endpoint(_) => {
                if let Some(n) = self.out.endpoint.get_mut(usize::from(code - 1)) {
                    *n += 1;
                }
                None
            }
        };
        if let Some(c) = cage {
            *c = (*c).max(code);
        }
    }
}

/// Walks every cable of fabric `fi`, adding its longest routes to `longest`.
pub(crate) fn walk(
    fi: usize,
    fabric: &FabricReport,
    router: &Router,
    table: &MediumTable,
    cages: Cages,
    longest: &mut Vec<Long>,
) -> Walked {
    let plan = &fabric.plan;
    let per_switch = cages.per_switch_device;
    let per_node = cages.per_node_device;
    let cages_of = |n: u32| vec![0u8; n as usize * per_switch];
    let mut counter = Counter {
        fi,
        router,
        table,
        ends: Ends {
            router,
            nodes: router.node_spots(),
            switches: router.switch_spots(fi),
        },
        codes: cage_codes(table),
        per_switch,
        per_node,
        cage_shift: cages.per_switch.trailing_zeros(),
        host_shift: cages.per_node.trailing_zeros(),
        longest,
        room: true,
        shortest_kept_m: f64::NEG_INFINITY,
        out: Walked {
            by_length: [[[0; BINS]; 2]; 3],
            switch_cages: [
                cages_of(plan.leaves),
                cages_of(plan.spines),
                cages_of(plan.cores),
            ],
            host: vec![0u8; fabric.attached_nodes as usize * per_node],
            endpoint: [0; 5],
        },
    };
    counter.note_shortest_kept();
    // Validated and sized, so the links fit; a fabric that does not fit gets no cables.
    let _ = links(fabric, &mut counter);
    counter.out
}

/// The class of `bin` for a cable that reaches a node (or not), as the walk counted it.
pub(crate) fn class_of(table: &MediumTable, bin: usize, to_node: bool) -> Option<ReachClass> {
    (bin < ORDERABLE_M.len())
        .then(|| table.class(bin, to_node))
        .flatten()
}
