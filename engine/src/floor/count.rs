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
    /// The rack of each node, leaf, spine and core.
    racks: [Vec<u32>; KINDS],
}

const ORIGIN: Spot = Spot {
    rack: 0,
    x: 0.0,
    y: 0.0,
    h: 0.0,
};

/// Kinds of device whose racks the count looks up: nodes, leaves, spines, cores.
const KINDS: usize = 4;

impl Ends<'_> {
    /// As [`Router::end`], with the fabric's spots looked up once.
    #[inline(always)]
    fn locate(&self, end: End, other: Spot) -> Spot {
        match end {
            End::Node { node, .. } => self.nodes.get(node as usize).copied(),
            End::Switch { role, index, .. } => {
                self.switches[role as usize].get(index as usize).copied()
            }
            End::Endpoint(_) => Some(self.router.beside(other)),
        }
        .unwrap_or(ORIGIN)
    }

    /// The kind of the device at `end` and its rack; `None` for an endpoint beside a rack or a
    /// device the floor does not hold.
    #[inline(always)]
    fn rack(&self, end: End) -> Option<(usize, u32)> {
        let (kind, index) = match end {
            End::Node { node, .. } => (0, node),
            End::Switch { role, index, .. } => (1 + role as usize, index),
            End::Endpoint(_) => return None,
        };
        self.racks[kind]
            .get(index as usize)
            .map(|rack| (kind, *rack))
    }

    /// The rack of every device of each kind.
    fn device_racks(&self) -> [Vec<u32>; KINDS] {
        let kinds = [
            self.nodes,
            self.switches[0],
            self.switches[1],
            self.switches[2],
        ];
        kinds.map(|spots| spots.iter().map(|s| s.rack).collect())
    }

    /// The lowest and highest port of each kind of device in each rack, m.
    fn heights(&self, racks: usize) -> [Vec<(f64, f64)>; KINDS] {
        let mut out: [Vec<(f64, f64)>; KINDS] =
            std::array::from_fn(|_| vec![(f64::INFINITY, f64::NEG_INFINITY); racks]);
        let kinds = [
            self.nodes,
            self.switches[0],
            self.switches[1],
            self.switches[2],
        ];
        for (range, spots) in out.iter_mut().zip(kinds) {
            for s in spots {
                if let Some((low, high)) = range.get_mut(s.rack as usize) {
                    *low = low.min(s.h);
                    *high = high.max(s.h);
                }
            }
        }
        out
    }
}

/// What every cable between two racks has in common, when that can be known without routing
/// each: a route from one rack to another only grows as either port is lower (each sum and
/// product of the route rounds monotonically), so when the lowest and the highest ports of
/// both racks round up to the same orderable length, every cable between them does.
#[derive(Clone, Copy)]
struct RackPair {
    key: (u32, u32, usize, usize),
    /// The orderable length index every cable between the two racks takes.
    bin: Option<usize>,
    /// No cable between the two racks runs longer.
    longest_m: f64,
    /// Whether one of them might join the longest routes: then each is routed on its own.
    may_be_longest: bool,
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
    heights: [Vec<(f64, f64)>; KINDS],
    pair: RackPair,
    out: Walked,
}

impl Visit for Counter<'_> {
    /// Counts one cable. Inlined into each loop of the walk, where the kinds of both ends
    /// are known.
    #[inline(always)]
    fn link(&mut self, link: Link) {
        let to_node = usize::from(!matches!(link.a, End::Switch { .. }));
        if let (Some((a_kind, a_rack)), Some((z_kind, z_rack))) =
            (self.ends.rack(link.a), self.ends.rack(link.z))
        {
            if a_rack != z_rack {
                let key = (a_rack, z_rack, a_kind, z_kind);
                if self.pair.key != key {
                    self.pair = self.rack_pair(key);
                }
                if let (Some(bin), false) = (self.pair.bin, self.pair.may_be_longest) {
                    self.count(link, bin, to_node);
                    return;
                }
            }
        }
        let z = self.ends.locate(link.z, ORIGIN);
        let a = self.ends.locate(link.a, z);
        self.route(link, a, z, to_node);
        // The cable may have lengthened the list of longest routes.
        self.pair.may_be_longest = self.may_be_longest(self.pair.longest_m);
    }
}

impl Counter<'_> {
    /// Routes one cable on its own.
    #[inline(always)]
    fn route(&mut self, link: Link, a: Spot, z: Spot, to_node: usize) {
        let route_m = self.router.route(a, z);
        let bin = self.table.bin(route_m);
        // The longest route between each pair of racks, so the plan shows distinct routes.
        if self.longest.len() < LONGEST_KEPT
            || self.longest.last().is_some_and(|l| l.route_m < route_m)
        {
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
        }
        self.count(link, bin, to_node);
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

    /// Whether a cable of `route_m` would join the longest routes kept so far.
    #[inline(always)]
    fn may_be_longest(&self, route_m: f64) -> bool {
        self.longest.len() < LONGEST_KEPT
            || self.longest.last().is_some_and(|l| l.route_m < route_m)
    }

    /// What the cables between two racks (with ends of the kinds in `key`) share.
    #[inline(never)]
    fn rack_pair(&self, key: (u32, u32, usize, usize)) -> RackPair {
        let range = |kind: usize, rack: u32| {
            self.heights[kind]
                .get(rack as usize)
                .copied()
                .unwrap_or((f64::NAN, f64::NAN))
        };
        let (a_low, a_high) = range(key.2, key.0);
        let (z_low, z_high) = range(key.3, key.1);
        let at = |rack, h| self.router.spot_at(rack, h);
        let longest_m = self.router.route(at(key.0, a_low), at(key.1, z_low));
        let shortest_m = self.router.route(at(key.0, a_high), at(key.1, z_high));
        let (high, low) = (self.table.bin(longest_m), self.table.bin(shortest_m));
        RackPair {
            key,
            bin: (longest_m.is_finite() && shortest_m.is_finite() && high == low).then_some(high),
            longest_m,
            may_be_longest: self.may_be_longest(longest_m),
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
            racks: Default::default(),
        },
        codes: cage_codes(table),
        per_switch,
        per_node,
        cage_shift: cages.per_switch.trailing_zeros(),
        host_shift: cages.per_node.trailing_zeros(),
        longest,
        heights: [Vec::new(), Vec::new(), Vec::new(), Vec::new()],
        pair: RackPair {
            key: (u32::MAX, u32::MAX, KINDS, KINDS),
            bin: None,
            longest_m: f64::INFINITY,
            may_be_longest: true,
        },
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
    counter.heights = counter.ends.heights(router.racks());
    counter.ends.racks = counter.ends.device_racks();
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
